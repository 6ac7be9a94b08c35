/**
 * The bundled server loads the TypeScript compiler (dist/typescript.js) through a V8 code cache (io/code-cache.ts):
 * a server compiles it from source or from the cache next to it, writes the cache after its first TS lint when it had
 * none, and the next server loads it from that cache with the same findings. `DYNALINT_CODE_CACHE=0` turns it off. The
 * cache is kept in a folder of this test's own (`DYNALINT_CODE_CACHE=<folder>`): no other run's cache interferes.
 * Asserted through `dynalint/stats`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheFile } from '../../server/src/io/code-cache';
import { type ServerStats, StatsRequest } from '../../server/src/protocol/lsp';
import { LspClient, ROOT } from '../support/lsp-client';
import { TS_UPDATE } from './fixtures';

const COMPILER = join(ROOT, 'dist', 'typescript.js');

/** Start a server, lint one TS document; its findings and what the server says of the compiler's cache. */
async function lintOnce(env: Record<string, string | undefined> = {}) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let client: LspClient;
  try {
    client = await LspClient.start();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    const uri = 'file:///w/cache.ts';
    await client.open(uri, 'typescript', TS_UPDATE);
    const diagnostics = await client.diagnosticsFor(uri, 1, 60_000);
    const stats = await client.connection.sendRequest<ServerStats>(StatsRequest);
    return { findings: diagnostics.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`), cache: stats.codeCache };
  } finally {
    await client.stop();
  }
}

describe('lsp: the TypeScript compiler through a code cache', function () {
  this.timeout(120_000);

  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'dynalint-lsp-code-cache-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a server writes the cache when it had none; the next one loads the compiler from it, with the same findings', async () => {
    const first = await lintOnce({ DYNALINT_CODE_CACHE: dir });
    assert.deepEqual(first.cache, [{ file: COMPILER, loaded: 'source', reason: 'no cache', written: true }]);
    assert.ok(existsSync(codeCacheFile(COMPILER, dir)), 'named after this V8 and architecture');
    assert.ok(first.findings.length > 0);

    const second = await lintOnce({ DYNALINT_CODE_CACHE: dir });
    assert.deepEqual(second.cache, [{ file: COMPILER, loaded: 'cache', written: false }]);
    assert.deepEqual(second.findings, first.findings);
  });

  it('DYNALINT_CODE_CACHE=0: the compiler is loaded by Node itself, with the same findings', async () => {
    const cached = await lintOnce({ DYNALINT_CODE_CACHE: dir });
    const off = await lintOnce({ DYNALINT_CODE_CACHE: '0' });
    assert.deepEqual(off.cache, []);
    assert.deepEqual(off.findings, cached.findings);
  });
});
