// Slotting's wire types, codes and the specification's messages: kept apart from slot.ts so that
// what imports them does not load manifold-3d. They are the product's vocabulary (common/wires.ts).

export { SLOT_MESSAGES, SLOTTABLE_WIRE_TYPES, type SlotErrorCode, type WireType } from '../../common/wires.ts';
