// Pure wire geometry, shared with the engine outside the browser: common/wires/shape.ts.
export * from '../../../../common/wires/shape.ts';
