// The import-boundary check of `npm run lint` (test/lint-boundaries.ts): what it reads as an
// import, what it refuses, and that today's code keeps the rules.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries, importsOf } from '../lint-boundaries.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('importsOf', () => {
  it('reads static, re-exported, side-effect and dynamic imports, and which are type-only', () => {
    const text = [
      "import type { A } from './a.ts';",
      'import {',
      '  type B,',
      '  C,',
      "} from './b.ts';",
      "export { D } from './d.ts';",
      "export type { E } from './e.ts';",
      "export * from './f.ts';",
      "import './g.css';",
      "const h = await import('./h.ts');",
      "type I = import('./i.ts').Shape;",
      "type J = typeof import('./j.ts');",
      '// import { K } from "./k.ts";  (a comment: not an import)',
      " * export { L } from './l.ts' (in a doc comment)",
      "export const from = 'x';",
      "import { M } from 'zod';",
    ].join('\n');
    expect(importsOf(text).map((i) => [i.spec, i.type, i.line])).toEqual([
      ['./a.ts', true, 1],
      ['./b.ts', false, 2],
      ['./d.ts', false, 6],
      ['./e.ts', true, 7],
      ['./f.ts', false, 8],
      ['zod', false, 16],
      ['./g.css', false, 9],
      ['./h.ts', false, 10],
      ['./i.ts', true, 11],
      ['./j.ts', true, 12],
    ]);
  });
});

describe('checkBoundaries', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'boundaries-'));
    dirs.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it('refuses runtime imports across worlds, and anything in common/ but common/ and zod', () => {
    const root = tree({
      'src/a.ts': [
        "import type { W } from '../workers/w.ts';",
        "import { value } from '../workers/w.ts';",
        "import { shared } from '../common/c.ts';",
        "import type { App } from '../server/app.ts';",
        "const worker = new Worker(new URL('../workers/w.ts', import.meta.url));",
      ].join('\n'),
      'workers/w.ts': "import { x } from '../src/a.ts';\nimport type { Y } from '../server/app.ts';\nimport { z } from '../server/app.ts';\n",
      'server/app.ts': "import { y } from '../src/a.ts';\nimport { fixture } from '../test/f.ts';\nimport { c } from '../common/c.ts';\n",
      'common/c.ts': "import { z } from 'zod';\nimport type { A } from '../src/a.ts';\nimport { readFileSync } from 'node:fs';\nimport React from 'react';\nimport { d } from './d.ts';\n",
      'common/d.ts': 'export const d = 1;\n',
    });
    const { files, problems } = checkBoundaries(root);
    expect(files).toBe(5);
    expect(problems).toEqual([
      'src/a.ts:2: src/ imports only types from workers/ (use `import type`, or move the value to common/) (../workers/w.ts)',
      'workers/w.ts:1: workers/ imports nothing at run time from src/ (move the value to common/) (../src/a.ts)',
      'workers/w.ts:3: workers/ imports nothing at run time from server/ (move the value to common/) (../server/app.ts)',
      'server/app.ts:1: server/ imports nothing at run time from src/ (move the value to common/) (../src/a.ts)',
      'server/app.ts:2: server/ imports nothing from test/ (../test/f.ts)',
      'common/c.ts:2: common/ imports nothing from src/ (../src/a.ts)',
      'common/c.ts:3: common/ imports only zod among packages (not node:fs) (node:fs)',
      'common/c.ts:4: common/ imports only zod among packages (not react) (react)',
      'src/a.ts:3: src/ runs in the browser without zod (its eval probe breaks the CSP): this common/ file loads it; keep schemas in their own file (../common/c.ts)',
    ]);
  });

  it('refuses zod in src/ at run time, also through other common/ files; types and pure common/ files pass', () => {
    const root = tree({
      'src/a.ts': [
        "import { pure } from '../common/pure.ts';",
        "import { rule } from '../common/rule.ts';",
        "import type { Shape } from '../common/schema.ts';",
      ].join('\n'),
      'common/pure.ts': 'export const pure = 1;\n',
      'common/rule.ts': "import { schema } from './schema.ts';\nexport const rule = schema;\n",
      'common/schema.ts': "import { z } from 'zod';\nexport const schema = z.object({});\n",
      'server/s.ts': "import { schema } from '../common/schema.ts';\n",
    });
    expect(checkBoundaries(root).problems).toEqual([
      'src/a.ts:2: src/ runs in the browser without zod (its eval probe breaks the CSP): this common/ file loads it; keep schemas in their own file (../common/rule.ts)',
    ]);
  });

  it('refuses Node built-ins and Node globals in src/ (its type check sees Node types)', () => {
    const root = tree({
      'src/b.ts': [
        "import { readFileSync } from 'node:fs';",
        "import path from 'path';",
        "import type { Stats } from 'node:fs';",
        'const home = process.env.HOME;',
        "const bytes = Buffer.from('x');",
        '// process.exit() in a comment is prose',
        'const processed = myprocess.run(); const o = { process: 1 }; o.process;',
      ].join('\n'),
    });
    expect(checkBoundaries(root).problems).toEqual([
      'src/b.ts:4: src/ runs in the browser: no Node global process',
      'src/b.ts:5: src/ runs in the browser: no Node global Buffer',
      'src/b.ts:1: src/ runs in the browser: no Node built-ins (node:fs)',
      'src/b.ts:2: src/ runs in the browser: no Node built-ins (path)',
    ]);
  });

  it("today's code keeps the boundaries", () => {
    const { files, problems } = checkBoundaries(ROOT);
    expect(files).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
