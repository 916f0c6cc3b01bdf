// What the geometry command lines (npm run bite, teeth, autodesign) share: one-line failures
// with their exit codes (2: usage, 3: an input or output file), walking the arguments, reading
// the input files.
import { existsSync, readFileSync } from 'node:fs';

export function fail(code: number, message: string): never {
  console.error(message);
  process.exit(code);
}

/** Calls `visit` per argument; its `take(what)` is the value after that flag (a usage failure when there is none). */
export function eachArg(argv: readonly string[], usage: string, visit: (arg: string, take: (what: string) => string) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    visit(arg, (what) => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) fail(2, `${arg} needs ${what}\n${usage}`);
      return v;
    });
  }
}

/** An input file's bytes; a missing or unreadable one fails with exit code 3, naming `what`. */
export function readInput(what: string, path: string): Uint8Array {
  if (!existsSync(path)) fail(3, `${what}: ${path} does not exist`);
  try {
    return readFileSync(path);
  } catch (e) {
    fail(3, `${what}: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
