// Pure wire geometry, shared with the engine outside the browser: common/wires/local.ts.
export * from '../../../../common/wires/local.ts';
