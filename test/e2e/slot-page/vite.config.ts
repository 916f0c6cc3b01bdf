// The app's build plus the slotting test page (test/e2e/slot-page/index.html),
// for test/e2e/slot-worker.spec.ts: nothing in the app imports the slot client
// yet, so the plain app build has no slot worker to test. Build with
//   npx vite build --config test/e2e/slot-page/vite.config.ts --outDir /tmp/dist-slot
// and serve that folder (E2E_DIST=/tmp/dist-slot).
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import app from '../../../vite.config.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export default mergeConfig(app, {
  root,
  build: {
    rollupOptions: {
      input: {
        index: `${root}index.html`,
        'slot-test': `${root}test/e2e/slot-page/index.html`,
      },
    },
  },
});
