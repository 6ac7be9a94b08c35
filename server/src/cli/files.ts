/**
 * Which files `dynalint lint` reads: explicit files, directories walked recursively, and globs; `.gitignore` files
 * (from the repository root down, nested ones relative to their own directory, negations included) are respected,
 * `node_modules` and `.git` are never entered.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { CONFIG_FILE_MAX_BYTES, readTextFile } from '../io/read';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { Ignore } from 'ignore';
import { minimatch } from 'minimatch';

const ALWAYS_SKIPPED = new Set(['node_modules', '.git']);

interface IgnoreLayer {
  base: string;
  rules: Ignore;
}

const toPosix = (p: string): string => p.split(sep).join('/');

function loadGitignore(dir: string): IgnoreLayer | undefined {
  const file = join(dir, '.gitignore');
  if (!existsSync(file)) return undefined;
  try {
    return { base: dir, rules: ignore().add(readTextFile(file, CONFIG_FILE_MAX_BYTES).text) };
  } catch {
    return undefined;
  }
}

/** The directory holding `.git` above `dir`, if any. */
function gitRoot(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** `.gitignore` layers that apply to `dir` from above it: from the repository root (or `dir` itself) down. */
function layersFor(dir: string): IgnoreLayer[] {
  const root = gitRoot(dir) ?? dir;
  const chain: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    chain.unshift(d);
    if (d === root || dirname(d) === d) break;
  }
  return chain.map(loadGitignore).filter((l): l is IgnoreLayer => l !== undefined);
}

/** Git's verdict: the deepest layer with an opinion wins (a later `!pattern` un-ignores). */
function isIgnored(path: string, isDir: boolean, layers: IgnoreLayer[]): boolean {
  let ignored = false;
  for (const layer of layers) {
    const rel = toPosix(relative(layer.base, path));
    if (!rel || rel.startsWith('..')) continue;
    const verdict = layer.rules.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

function walk(dir: string, layers: IgnoreLayer[], accept: (file: string) => boolean, out: Set<string>): void {
  const own = loadGitignore(dir);
  const here = own && !layers.some((l) => l.base === dir) ? [...layers, own] : layers;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (ALWAYS_SKIPPED.has(e.name)) continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!isIgnored(full, true, here)) walk(full, here, accept, out);
    } else if (e.isFile() && !isIgnored(full, false, here) && accept(full)) out.add(full);
  }
}

const MAGIC = /[*?[\]{}!]/;

/** The leading directory of a glob that has no wildcard in it (`src/**\/*.ts` -> `src`). */
function globBase(pattern: string): string {
  const parts = toPosix(pattern).split('/');
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (MAGIC.test(part)) break;
    fixed.push(part);
  }
  return fixed.join('/') || '.';
}

export interface CollectResult {
  files: string[];
  /** Arguments that matched no file (a usage error). */
  unmatched: string[];
}

/**
 * Resolve CLI path arguments to the absolute paths of lintable files, sorted.
 * `lintable(path)` says whether a file's extension is one the linter reads (it filters directory walks and globs;
 * an explicitly named file is always taken).
 */
export function collectFiles(args: string[], cwd: string, lintable: (file: string) => boolean): CollectResult {
  const out = new Set<string>();
  const unmatched: string[] = [];
  for (const arg of args.length ? args : ['.']) {
    const abs = resolve(cwd, arg);
    if (existsSync(abs)) {
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs, layersFor(abs), lintable, out);
      else out.add(abs); // named explicitly: taken whatever it is (a FIFO or a device is then reported as not linted)
    } else if (MAGIC.test(arg)) {
      const base = resolve(cwd, globBase(arg));
      const pattern = toPosix(relative(cwd, resolve(cwd, arg)));
      const matched = new Set<string>();
      if (existsSync(base) && statSync(base).isDirectory()) {
        walk(base, layersFor(base), (f) => lintable(f) && minimatch(toPosix(relative(cwd, f)), pattern, { dot: false }), matched);
      }
      if (matched.size === 0) unmatched.push(arg);
      for (const f of matched) out.add(f);
    } else unmatched.push(arg);
  }
  return { files: [...out].sort(), unmatched };
}
