// Pure wire geometry, shared with the engine outside the browser: common/wires/fit.ts.
export * from '../../../../common/wires/fit.ts';
