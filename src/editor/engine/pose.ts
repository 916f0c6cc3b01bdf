// The editor's vectors and rigid poses live in common/pose.ts (the engine outside the browser
// computes with the same ones); re-exported here for the editor's imports.
export * from '../../../common/pose.ts';
