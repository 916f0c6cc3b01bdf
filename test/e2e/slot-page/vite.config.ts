// The slotting test page (test/e2e/slot-page/index.html) built with the app's
// config, for test/e2e/slot-worker.spec.ts: nothing in the app imports the
// slot client yet, so the plain app build has no slot worker to test.
// playwright.config.ts builds it into test/.tmp/dist-slot and serves it from a
// second server; only this page is built, so it takes seconds.
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import app from '../../../vite.config.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default mergeConfig(app, {
  root,
  build: {
    rollupOptions: {
      input: { 'slot-test': `${root}test/e2e/slot-page/index.html` },
    },
  },
});
