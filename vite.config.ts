import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import { lingui } from '@lingui/vite-plugin';

// Cross-origin isolation lets the page share WASM memory with workers (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const linguiMacro = defineRolldownBabelPreset({
  preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] },
  rolldown: { filter: { code: /@lingui\/(?:core|react)\/macro/ } },
});

const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;

export default defineConfig({
  // The Lingui macro needs Babel; it must run before react(). Only files that import a macro go
  // through Babel (about one in seven): the others come out the same, and parsing and printing
  // every module again was a large part of the build's and the unit tests' transform time.
  plugins: [babel({ presets: [linguiMacro] }), react(), lingui(), tailwindcss()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    chunkSizeWarningLimit: 6000,
    // The client hardening's debugger check is a `debugger` statement (no eval under the CSP): the
    // minifier must keep it (src/app/hardening.ts).
    rolldownOptions: { output: { minify: { compress: { dropDebugger: false }, mangle: true } } },
  },
  server: {
    headers: isolation,
    proxy: { '/admin': apiTarget, '/version.json': apiTarget, '/ws': { target: apiTarget, ws: true } },
  },
  preview: { headers: isolation },
  test: {
    environment: 'node',
    // Every core (vitest's default leaves one free: on 2 cores, one file at a time).
    maxWorkers: '100%',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // With TEST_DATABASE_URL (a PostgreSQL server the tests may create databases on) the server
    // and hub suites run a second time on PostgreSQL, each test server on a database of its own
    // (test/server/test-database.ts).
    // The server suites share one module graph per worker (isolate: false): each file imported the
    // whole server afresh, half of their CPU; every test builds its own server and database anyway.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.{ts,tsx}'], exclude: [...configDefaults.exclude, 'test/server/**'] } },
      { extends: true, test: { name: 'sqlite', include: ['test/server/**/*.test.ts'], isolate: false } },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/server/**/*.test.ts'],
                isolate: false,
                env: { AW_TEST_POSTGRES: '1' },
                globalSetup: ['test/server/test-database-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
