/**
 * Nothing is retained for a closed document, whatever the timing: documents opened, linted (pulled as VS Code does,
 * or pushed) and closed without waiting leave no analysis, extractor or settings behind, and the content-keyed
 * validation cache stays under its byte bound however large the requests were. Asserted through `dynalint/stats`.
 */
import assert from 'node:assert/strict';
import { type ServerStats, StatsRequest } from '../../server/src/protocol/lsp';
import { VALIDATED_CACHE_BYTES } from '../../server/src/rules/expression-rules';
import { LspClient } from '../support/lsp-client';
import { JSON_UPDATE, TS_UPDATE } from './fixtures';

const stats = (client: LspClient) => client.connection.sendRequest<ServerStats>(StatsRequest);

/** A JSON PutItem whose item carries `bytes` characters of a value unique to `n`, with a condition to validate. */
function bigPut(n: number, bytes: number): string {
  const payload = `${n}-`.padEnd(bytes, 'x');
  return JSON.stringify({ TableName: 'T', Item: { PK: { S: `P#${n}` }, SK: { S: 'META' }, blob: { S: payload } }, ConditionExpression: 'attribute_not_exists(PK)' });
}

describe('lsp: memory after closing documents', function () {
  this.timeout(120_000);

  it('requests for documents closed while the server waits for their settings leave nothing cached', async () => {
    const client = await LspClient.start({ pull: true });
    try {
      // Hold every workspace/configuration answer until the documents are closed: the server is then mid-request
      // (pull, code action, hover) for a document that no longer exists, which is the close storm VS Code makes.
      const asked = new Set<string | undefined>();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      client.connection.onRequest('workspace/configuration', async (p: { items: { scopeUri?: string }[] }) => {
        for (const i of p.items) asked.add(i.scopeUri);
        await gate;
        return p.items.map(() => ({}));
      });
      const pending: Promise<unknown>[] = [];
      const uris: string[] = [];
      for (let i = 0; i < 40; i++) {
        const uri = `file:///w/storm-${i}.${i % 2 ? 'ts' : 'json'}`;
        uris.push(uri);
        await client.open(uri, i % 2 ? 'typescript' : 'json', i % 2 ? TS_UPDATE : JSON_UPDATE);
        pending.push(client.pullDiagnostics(uri));
        pending.push(client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }));
        pending.push(client.hover(uri, { line: 0, character: 1 }));
      }
      const probe = new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + 60_000;
        const check = () => (uris.every((u) => asked.has(u)) ? resolve() : Date.now() > deadline ? reject(new Error(`settings asked for ${asked.size} of ${uris.length}`)) : setImmediate(check));
        check();
      });
      await probe;
      for (const uri of uris) await client.close(uri);
      // The closes are handled before the answers come (stats is answered after them, in order).
      assert.equal((await stats(client)).openDocuments, 0);
      release();
      await Promise.all(pending);
      const s = await stats(client);
      assert.deepEqual({ analyses: s.analyses, extractors: s.extractors, settings: s.settings }, { analyses: 0, extractors: 0, settings: 0 });
    } finally {
      await client.stop();
    }
  });

  it('pushed lints of documents closed while queued or mid-lint leave nothing cached', async () => {
    const client = await LspClient.start();
    try {
      for (let i = 0; i < 60; i++) {
        const uri = `file:///w/push-${i}.ts`;
        await client.open(uri, 'typescript', TS_UPDATE);
        await client.edit(uri, 0, 0, `// ${i}\n`);
        await client.close(uri);
      }
      // A document opened after the storm is linted: every earlier message has been handled by then.
      await client.open('file:///w/last.json', 'json', JSON_UPDATE);
      await client.diagnosticsFor('file:///w/last.json', 1);
      const s = await stats(client);
      assert.deepEqual({ open: s.openDocuments, analyses: s.analyses, extractors: s.extractors, settings: s.settings }, { open: 1, analyses: 1, extractors: 1, settings: 1 });
      await client.close('file:///w/last.json');
      const after = await stats(client);
      assert.deepEqual({ analyses: after.analyses, extractors: after.extractors, settings: after.settings }, { analyses: 0, extractors: 0, settings: 0 });
    } finally {
      await client.stop();
    }
  });

  it('the validation cache stays under its byte bound after many large requests', async () => {
    const client = await LspClient.start();
    try {
      const each = 600_000; // 40 requests of 600 KB: ~48 MB of keys were kept when the cache counted entries
      for (let i = 0; i < 40; i++) {
        const uri = `file:///w/big-${i}.json`;
        await client.open(uri, 'json', bigPut(i, each));
        await client.diagnosticsFor(uri, 1);
        await client.close(uri);
      }
      const s = await stats(client);
      assert.ok(s.validationCacheBytes <= VALIDATED_CACHE_BYTES, `validation cache holds ${s.validationCacheBytes} bytes`);
      assert.ok(s.validationCacheEntries > 0, 'requests were validated and cached');
    } finally {
      await client.stop();
    }
  });
});
