// Pure wire geometry, shared with the engine outside the browser: common/wires/templates.ts.
export * from '../../../../common/wires/templates.ts';
