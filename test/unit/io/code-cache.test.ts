/**
 * The V8 code cache the server loads the TypeScript compiler through (server/src/io/code-cache.ts), on scripts of its
 * own in a temporary folder: compiled from source and the cache written after use; loaded from a copy of that cache;
 * a damaged cache, and a cache of another source of the same length (V8 checks only the length), compiled from source
 * with the right exports; a cache that cannot be written leaves the script working.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { codeCacheFile, codeCachePending, codeCacheStates, registerCodeCache, writeCodeCaches } from '../../../server/src/io/code-cache';

/** A CommonJS script whose export is `answer`: every source of one `answer` length has the same length. */
const source = (answer: string) => `'use strict';\nconst path = require('node:path');\nexports.answer = ${JSON.stringify(answer)};\nexports.sep = path.sep;\nexports.self = __filename;\nexports.twice = (n) => n * 2;\n`;

describe('lsp: the code cache of the TypeScript compiler', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dynalint-code-cache-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const state = (file: string) => codeCacheStates().find((s) => s.file === file);
  /** A script at `name` with `text`, registered, then required (each name once per process). */
  const load = (name: string, text: string, cacheFrom?: string, damage = false) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    if (cacheFrom) {
      copyFileSync(codeCacheFile(cacheFrom), codeCacheFile(file));
      if (damage) {
        const b = readFileSync(codeCacheFile(file));
        b[b.length - 1] ^= 0xff;
        writeFileSync(codeCacheFile(file), b);
      }
    }
    registerCodeCache(file);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return { file, exports: require(file) as { answer: string; sep: string; self: string; twice: (n: number) => number } };
  };

  it('compiles from source, writes the cache after use, and a copy of the script loads from it', () => {
    const a = load('a.js', source('forty-two'));
    assert.deepEqual([a.exports.answer, a.exports.twice(21), a.exports.self, typeof a.exports.sep], ['forty-two', 42, a.file, 'string']);
    assert.deepEqual(state(a.file), { file: a.file, loaded: 'source', reason: 'no cache', written: false });
    assert.equal(codeCachePending(), true);
    writeCodeCaches();
    assert.equal(codeCachePending(), false);
    assert.equal(state(a.file)?.written, true);
    assert.ok(existsSync(codeCacheFile(a.file)));

    const b = load('b.js', source('forty-two'), a.file);
    assert.deepEqual(state(b.file), { file: b.file, loaded: 'cache', written: false });
    assert.deepEqual([b.exports.answer, b.exports.twice(4), b.exports.self], ['forty-two', 8, b.file]);
    assert.equal(codeCachePending(), false, 'a script loaded from its cache has nothing to write');
  });

  it('a damaged cache, or the cache of another source of the same length, is not used: the script is compiled from its source', () => {
    const damaged = load('c.js', source('forty-two'), join(dir, 'a.js'), true);
    assert.equal(state(damaged.file)?.loaded, 'source');
    assert.equal(state(damaged.file)?.reason, 'cache damaged');
    assert.equal(damaged.exports.answer, 'forty-two');

    const other = load('d.js', source('forty-one'), join(dir, 'a.js'));
    assert.equal(source('forty-one').length, source('forty-two').length);
    assert.equal(state(other.file)?.loaded, 'source');
    assert.equal(state(other.file)?.reason, 'cache of another source');
    assert.equal(other.exports.answer, 'forty-one');
    writeCodeCaches();
    assert.equal(state(other.file)?.written, true, 'the wrong cache is replaced');
  });

  it('a cache it cannot write (here a folder in its place): the script works, nothing is written or left pending', () => {
    const e = load('e.js', source('forty-two'));
    mkdirSync(codeCacheFile(e.file));
    writeCodeCaches();
    assert.equal(e.exports.answer, 'forty-two');
    assert.equal(state(e.file)?.written, false);
    assert.equal(codeCachePending(), false);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('e.js')).sort(), ['e.js', basename(codeCacheFile(e.file))], 'no temporary file left');
  });
});
