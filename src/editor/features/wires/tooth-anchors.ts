// Pure wire geometry, shared with the engine outside the browser: common/wires/tooth-anchors.ts.
export * from '../../../../common/wires/tooth-anchors.ts';
