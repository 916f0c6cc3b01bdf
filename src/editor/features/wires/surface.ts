// Pure wire geometry, shared with the engine outside the browser: common/wires/surface.ts.
export * from '../../../../common/wires/surface.ts';
