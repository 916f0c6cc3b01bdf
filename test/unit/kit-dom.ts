/**
 * A DOM for component tests that run in the node environment because they also load the real
 * server in-process (its modules resolve files through `import.meta.url`, which the jsdom
 * environment's browser transform turns into http URLs). Import it first.
 */
import { JSDOM } from 'jsdom';
import { populateGlobal } from 'vitest/runtime';

const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { url: 'http://localhost:3000/', pretendToBeVisual: true });
populateGlobal(globalThis, dom.window, { bindFunctions: true });
