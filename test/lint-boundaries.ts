// The import boundaries between the code's worlds (docs/common.md), checked without a parser or
// a dependency so that `npm test` stays fast on two cores:
// - src/ (the browser app) imports only types (`import type`, `export type`) from workers/ and
//   server/; a worker is started with `new Worker(new URL('../workers/x.worker.ts', ...))`, which
//   is not an import;
// - workers/ and server/ import nothing at runtime from src/, nor from each other;
// - common/ imports nothing from the others, not even types, and no package but zod: it is the
//   vocabulary every world shares, so a runtime value used by two worlds lives there;
// - src/ loads no common/ file that loads zod (itself or through other common/ files): zod's
//   eval probe breaks the browser's CSP, so schemas live in files of their own;
// - no world imports test code.
// Run: tsx test/lint-boundaries.ts [root] (npm run lint). Exit code 1 and one line per violation
// when the rules are broken. test/unit/lint-boundaries.test.ts checks the checker.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORLDS = ['src', 'workers', 'server', 'common'];
/** The packages common/ may import: it must run unchanged in a page, a worker and Node. */
export const COMMON_PACKAGES = ['zod'];
const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build']);

/** One import of a file: its specifier as written. */
export interface Import {
  spec: string;
  /** Erased at build time: `import type`, `export type`, a type query. */
  type: boolean;
  line: number;
}

/**
 * The imports of a file's text: `import`/`export ... from`, side-effect `import '...'` and
 * `import('...')`. `type` is true for `import type` and `export type` (erased at build time);
 * an `import { type A }` is not type-only: under verbatimModuleSyntax it still loads the module.
 * A statement must start its line (so a comment's prose is not read as one).
 */
export function importsOf(text: string): Import[] {
  const out: Import[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const statement = /^[ \t]*(import|export)\s+([^;'"]*?)\s*from\s*['"]([^'"\n]+)['"]/gm;
  for (const m of text.matchAll(statement)) {
    const clause = m[2]!;
    // `export const from = ...` and the like: an export clause is `{...}`, `*` or `* as x`.
    if (m[1] === 'export' && !/^(type\s+)?(\{|\*)/.test(clause)) continue;
    out.push({ spec: m[3]!, type: /^type\s/.test(clause), line: lineAt(m.index ?? 0) });
  }
  for (const m of text.matchAll(/^[ \t]*import\s*['"]([^'"\n]+)['"]/gm)) {
    out.push({ spec: m[1]!, type: false, line: lineAt(m.index ?? 0) });
  }
  // import('x') loads x at run time, unless it is a type query: `typeof import('x')` or
  // `import('x').SomeType` (types are capitalised; `.then`, `.default` are values).
  for (const m of text.matchAll(/(typeof\s+)?\bimport\(\s*['"]([^'"\n]+)['"]\s*\)(\s*\.\s*([A-Za-z_$][\w$]*))?/g)) {
    const typeQuery = !!m[1] || (m[4] !== undefined && /^[A-Z]/.test(m[4]));
    out.push({ spec: m[2]!, type: typeQuery, line: lineAt(m.index ?? 0) });
  }
  return out;
}

/** The top-level folder a path is in, relative to root ('' for files at the root). */
function folderOf(root: string, path: string): string {
  const rel = relative(root, path);
  if (rel.startsWith('..')) return '..';
  return rel.includes(sep) ? rel.split(sep)[0]! : '';
}

const isBuiltin = (spec: string) => spec.startsWith('node:');
const NODE_MODULES = new Set(['fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'http', 'https', 'net', 'stream', 'url', 'util', 'zlib', 'events', 'buffer', 'process']);
const isNodeBuiltin = (spec: string) => isBuiltin(spec) || NODE_MODULES.has(spec.split('/')[0]!);

/**
 * Node globals used in browser code. The browser's type check sees Node's types (it reads the
 * server's sources for the typed API client), so tsc no longer catches them there.
 */
export function nodeGlobalsIn(text: string): { name: string; line: number }[] {
  const out: { name: string; line: number }[] = [];
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(\*|\/\*)/.test(code)) continue;
    for (const m of code.matchAll(/(?<![\w$.])(process|Buffer|__dirname|__filename|require|global|setImmediate)\b(?=\s*[.(])/g)) {
      out.push({ name: m[1]!, line: i + 1 });
    }
  }
  return out;
}
const packageOf = (spec: string): string => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));

/** Why this import breaks a rule, or null. */
export function violation(world: string, target: string | null, imp: Import): string | null {
  if (world === 'common') {
    if (target === null) {
      const pkg = packageOf(imp.spec.split('?')[0]!);
      return isBuiltin(imp.spec) || !COMMON_PACKAGES.includes(pkg) ? `common/ imports only ${COMMON_PACKAGES.join(', ')} among packages (not ${imp.spec})` : null;
    }
    return target === 'common' ? null : `common/ imports nothing from ${target}/`;
  }
  if (world === 'src' && target === null && !imp.type && isNodeBuiltin(imp.spec)) {
    return 'src/ runs in the browser: no Node built-ins';
  }
  if (target === null || target === world || target === 'common') return null;
  if (target === 'test') return `${world}/ imports nothing from test/`;
  if (!WORLDS.includes(target)) return null; // build outputs, assets at the root
  if (imp.type) {
    // Types flow freely except into common/ (above); src/ is typed from workers/ and server/.
    return null;
  }
  if (world === 'src') return `src/ imports only types from ${target}/ (use \`import type\`, or move the value to common/)`;
  return `${world}/ imports nothing at run time from ${target}/ (move the value to common/)`;
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) yield* files(path);
    else if (EXTENSIONS.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** Every violation under root, as "path:line: why (spec)". */
export function checkBoundaries(root: string): { files: number; problems: string[] } {
  const problems: string[] = [];
  let count = 0;
  // zod in the browser: common/ files that load it (themselves or through other common/ files),
  // and the run-time imports of common/ files by src/ (its eval probe breaks the CSP)
  const commonFiles = new Map<string, { zod: boolean; deps: string[] }>();
  const srcToCommon: { file: string; line: number; target: string; spec: string }[] = [];
  for (const world of WORLDS) {
    let dir: string | null;
    try {
      dir = statSync(join(root, world)).isDirectory() ? join(root, world) : null;
    } catch {
      dir = null;
    }
    if (!dir) continue;
    for (const file of files(dir)) {
      count++;
      const text = readFileSync(file, 'utf8');
      if (world === 'src') {
        for (const g of nodeGlobalsIn(text)) problems.push(`${relative(root, file)}:${g.line}: src/ runs in the browser: no Node global ${g.name}`);
      }
      const node = { zod: false, deps: [] as string[] };
      if (world === 'common') commonFiles.set(file, node);
      for (const imp of importsOf(text)) {
        const relativeSpec = imp.spec.startsWith('./') || imp.spec.startsWith('../');
        const target = relativeSpec ? folderOf(root, resolve(dirname(file), imp.spec)) : null;
        const why = violation(world, target, imp);
        if (why) problems.push(`${relative(root, file)}:${imp.line}: ${why} (${imp.spec})`);
        if (imp.type) continue;
        if (world === 'common' && target === null && packageOf(imp.spec) === 'zod') node.zod = true;
        if (world === 'common' && target === 'common') node.deps.push(resolve(dirname(file), imp.spec));
        if (world === 'src' && target === 'common') srcToCommon.push({ file, line: imp.line, target: resolve(dirname(file), imp.spec), spec: imp.spec });
      }
    }
  }
  const loadsZod = (path: string, seen = new Set<string>()): boolean => {
    const node = commonFiles.get(path);
    if (!node || seen.has(path)) return false;
    seen.add(path);
    return node.zod || node.deps.some((d) => loadsZod(d, seen));
  };
  for (const i of srcToCommon) {
    if (loadsZod(i.target)) problems.push(`${relative(root, i.file)}:${i.line}: src/ runs in the browser without zod (its eval probe breaks the CSP): this common/ file loads it; keep schemas in their own file (${i.spec})`);
  }
  return { files: count, problems };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const { files: n, problems } = checkBoundaries(root);
  if (problems.length) {
    console.error(`Import boundaries (docs/common.md): ${problems.length} violation(s)`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log(`Import boundaries: ${n} files in ${WORLDS.join('/, ')}/ keep them`);
}
