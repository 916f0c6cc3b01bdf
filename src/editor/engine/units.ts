// The branded numbers live in common/units.ts (the wire types there use them); re-exported here.
export * from '../../../common/units.ts';
