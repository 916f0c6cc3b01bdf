// The Babylon.js STL loader page of the browser bench (test/bench/browser/editor-perf.ts), built
// with the app's config (same Babylon.js, same bundler settings) into <app dist>/bench-loader/, so
// that the app's server serves it from the same origin and it fetches the order's files the way
// the editor does. Only this page is built, so it takes seconds.
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import app from '../../../../vite.config.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

export default mergeConfig(app, {
  root,
  base: '/bench-loader/',
  build: {
    rollupOptions: {
      input: { 'bench-loader': `${root}test/bench/browser/loader-page/index.html` },
    },
  },
});
