/**
 * A V8 code cache for the TypeScript compiler (dist/typescript.js, 3.6 MB minified), the one big script the server and
 * the CLI load. Compiling it from source costs the process ~17 MB of C++ heap that stays resident (V8's parser zones: malloc'd, freed,
 * never returned to the system) and ~160 ms; from a code cache V8 skips the parse: RSS with a 50,000-line TypeScript
 * file open 230 -> 214 MB, the compiler loaded in ~40 ms. Node 20 has no compile cache of its own (22 has
 * `module.enableCompileCache`), so the server and CLI entries register this loader for that one file (the CLI writes
 * the cache when a run ends, the server after its first TS lint).
 *
 * The cache sits next to the script (`typescript.js.<V8 version>-<arch>.v8cache`, written once after the first lint that used the compiler,
 * so the functions that lint compiled are in it; skipped when the folder is read-only). V8 accepts a cache only for its
 * own version and flags, but checks the source by length alone: the file starts with a SHA-1 of the source and one of
 * the cache, and anything that does not match is compiled from source and rewritten. Written to a temporary name and
 * renamed: two servers never read a half-written cache. `DYNALINT_CODE_CACHE=0` turns it off; set to a folder, the
 * cache is kept there instead (tests).
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What happened to a cached script in this process (reported by `dynalint/stats`). */
export interface CodeCacheState {
  file: string;
  /** `not loaded` yet; compiled from `source` (no cache, or it did not match); `cache` used; loading `failed`. */
  loaded: 'not loaded' | 'source' | 'cache' | 'failed';
  /** Why the cache was not used, when `loaded` is `source`. */
  reason?: string;
  /** The cache was (re)written by this process. */
  written: boolean;
}

interface Entry {
  state: CodeCacheState;
  cacheFile: string;
  sourceHash?: Buffer;
  script?: Script;
}

const entries: Entry[] = [];
const HASH = 20;
const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest();

/** The states of every script registered (empty when none is). */
export function codeCacheStates(): CodeCacheState[] {
  return entries.map((e) => ({ ...e.state }));
}

/**
 * Load `file` (an absolute path, CommonJS) through a code cache from now on. The caller must register it before the
 * first `require` of the file. Any failure of the cache falls back to Node's own loader.
 */
/**
 * Where the cache of `file` is kept: named after this V8 and architecture, so runtimes that cannot share one (VS Code's
 * Electron and the system's Node, on one checkout) each keep theirs instead of rejecting and rewriting the other's.
 */
export function codeCacheFile(file: string, where = process.env.DYNALINT_CODE_CACHE): string {
  const name = `${basename(file)}.${process.versions.v8}-${process.arch}.v8cache`;
  return where && where !== '0' ? join(where, name) : join(dirname(file), name);
}

export function registerCodeCache(file: string): void {
  const where = process.env.DYNALINT_CODE_CACHE;
  if (where === '0') return;
  const extensions = (Module as unknown as { _extensions?: Record<string, (module: NodeJS.Module, filename: string) => void> })._extensions;
  const js = extensions?.['.js'];
  if (!extensions || !js) return;
  const entry: Entry = { state: { file, loaded: 'not loaded', written: false }, cacheFile: codeCacheFile(file, where) };
  entries.push(entry);
  extensions['.js'] = function (module: NodeJS.Module, filename: string) {
    if (filename !== file || entry.state.loaded !== 'not loaded') return js.call(this, module, filename);
    let fn: ((...args: unknown[]) => void) | undefined;
    try {
      fn = compile(entry, filename);
    } catch (e) {
      entry.state.loaded = 'failed';
      entry.state.reason = String(e);
    }
    if (!fn) return js.call(this, module, filename);
    // What Node's loader passes a CommonJS module: exports, require, module, __filename, __dirname.
    fn.call(module.exports, module.exports, Module.createRequire(filename), module, filename, dirname(filename));
  };
}

function compile(entry: Entry, filename: string): ((...args: unknown[]) => void) | undefined {
  const bytes = readFileSync(filename);
  entry.sourceHash = sha1(bytes);
  let cachedData: Buffer | undefined;
  let reason: string | undefined;
  try {
    const file = readFileSync(entry.cacheFile);
    const data = file.subarray(2 * HASH);
    if (file.length <= 2 * HASH) reason = 'cache file too short';
    else if (!file.subarray(0, HASH).equals(entry.sourceHash)) reason = 'cache of another source';
    else if (!file.subarray(HASH, 2 * HASH).equals(sha1(data))) reason = 'cache damaged';
    else cachedData = data;
  } catch {
    reason = 'no cache';
  }
  const script = new Script(Module.wrap(bytes.toString('utf8')), { filename, cachedData });
  if (cachedData && script.cachedDataRejected) reason = 'cache rejected by V8 (another Node version or flags)';
  entry.state.loaded = cachedData && !script.cachedDataRejected ? 'cache' : 'source';
  if (entry.state.loaded === 'source') {
    entry.state.reason = reason;
    entry.script = script; // written after its first use (writeCodeCaches)
  }
  return script.runInThisContext() as (...args: unknown[]) => void;
}

/** Is a cache waiting to be written (a script compiled from source that has not been written yet)? */
export function codeCachePending(): boolean {
  return entries.some((e) => e.script);
}

/** Write the caches of scripts compiled from source in this process (once each; after they have done some work). */
export function writeCodeCaches(): void {
  for (const e of entries) {
    const script = e.script;
    if (!script || !e.sourceHash) continue;
    e.script = undefined;
    const tmp = `${e.cacheFile}.${process.pid}.tmp`;
    try {
      // A read-only install: not even the cache's data is made (several MB, on the server's thread).
      accessSync(dirname(e.cacheFile), constants.W_OK);
      const data = script.createCachedData();
      writeFileSync(tmp, Buffer.concat([e.sourceHash, sha1(data), data]));
      renameSync(tmp, e.cacheFile);
      e.state.written = true;
    } catch {
      // A read-only install: the compiler is compiled from source each time, as without a cache.
      try {
        unlinkSync(tmp);
      } catch {
        /* nothing was written */
      }
    }
  }
}
