/**
 * Bad input never takes the server down: garbage, binary, huge, deeply nested and half-typed documents, and requests
 * at impossible positions or for unknown documents. After each, the server still lints a good document correctly.
 */
import assert from 'node:assert/strict';
import { LspClient } from '../support/lsp-client';
import { JSON_UPDATE, TS_UPDATE } from './fixtures';

/** Deterministic pseudo-random text (xorshift), mixing code-like characters and arbitrary code units. */
function garbage(length: number, seed: number): string {
  let x = seed;
  const alphabet = '{}[]()\'"`:,.#=+-*/\\\n \t$SETADDUpdateExpressionKey';
  let out = '';
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const r = x >>> 0;
    out += r % 4 === 0 ? String.fromCharCode(r % 0xd7ff) : alphabet[r % alphabet.length];
  }
  return out;
}

describe('lsp: crash resistance', function () {
  let client: LspClient;
  let n = 0;
  before(async () => {
    client = await LspClient.start();
  });
  after(() => client?.stop());

  /** After any abuse: a fresh good document gets its exact findings. */
  async function stillWorks(): Promise<void> {
    const uri = `file:///w/good-${n++}.json`;
    await client.open(uri, 'json', JSON_UPDATE);
    assert.deepEqual((await client.diagnosticsFor(uri, 1)).map((d) => d.code), ['add-on-non-number', 'unused-value']);
  }

  const inputs: { name: string; languageId: string; text: () => string }[] = [
    { name: 'garbage TypeScript', languageId: 'typescript', text: () => garbage(20_000, 7) },
    { name: 'garbage Python', languageId: 'python', text: () => garbage(20_000, 11) },
    { name: 'garbage JSON', languageId: 'json', text: () => garbage(20_000, 13) },
    { name: 'a half-typed request', languageId: 'typescript', text: () => TS_UPDATE.slice(0, TS_UPDATE.indexOf(':one') + 2) },
    { name: '10,000 nested arrays in JSON', languageId: 'json', text: () => '['.repeat(10_000) + '{"UpdateExpression": "SET a = :v"}' + ']'.repeat(10_000) },
    { name: '10,000 nested parentheses in TypeScript', languageId: 'typescript', text: () => 'const x = ' + '('.repeat(10_000) + "{ UpdateExpression: 'SET a = :v' }" + ')'.repeat(10_000) + ';\n' },
    { name: 'an expression of 4 KB of ((( ', languageId: 'json', text: () => `{"TableName": "T", "ConditionExpression": "${'('.repeat(4096)}", "Key": {"PK": {"S": "x"}}}` },
  ];

  for (const input of inputs)
    it(`survives ${input.name} (diagnostics published for its version, hover and completion answer)`, async () => {
      const uri = `file:///w/bad-${n++}.${input.languageId === 'python' ? 'py' : input.languageId === 'json' ? 'json' : 'ts'}`;
      await client.open(uri, input.languageId, input.text());
      const ds = await client.diagnosticsFor(uri, 1);
      assert.ok(ds.every((d) => d.source === 'dynalint'));
      const end = client.doc(uri).positionAt(client.text(uri).length);
      assert.ok(Array.isArray(await client.completion(uri, end)));
      const hover = await client.hover(uri, { line: 0, character: 1 });
      assert.ok(hover === null || typeof hover.contents === 'object');
      await stillWorks();
    });

  const skipped: { name: string; text: () => string; reason: RegExp }[] = [
    { name: 'a file over maxFileSize (3 MB)', text: () => TS_UPDATE.repeat(Math.ceil((3 * 1024 * 1024) / TS_UPDATE.length)), reason: /too large/ },
    { name: 'a binary file', text: () => TS_UPDATE + '\u0000\u0001\u0002'.repeat(100), reason: /binary/ },
    { name: 'a minified file', text: () => TS_UPDATE.replace(/\n/g, ' ').repeat(200), reason: /minified/ },
  ];

  for (const s of skipped)
    it(`skips ${s.name} with a log line and no findings`, async () => {
      const uri = `file:///w/skip-${n++}.ts`;
      await client.open(uri, 'typescript', s.text());
      assert.deepEqual(await client.diagnosticsFor(uri, 1), []);
      const log = await client.waitFor(() => client.logs.find((l) => l.includes(uri)), 'skip log line');
      assert.match(log, /^skipped file:\/\/\/w\/skip-\d+\.ts: /);
      assert.match(log, s.reason);
      // dynalint/linted and publishDiagnostics are separate notifications: wait for this one, whichever comes first.
      const linted = await client.waitFor(() => client.linted.find((l) => l.uri === uri && l.version === 1), 'linted (skipped)');
      assert.match(linted.skipped ?? '', s.reason);
      await stillWorks();
    });

  it('answers empty for unknown documents and impossible positions', async () => {
    const unknown = 'file:///w/not-open.ts';
    assert.deepEqual(await client.completion(unknown, { line: 0, character: 0 }), []);
    assert.equal(await client.hover(unknown, { line: 0, character: 0 }), null);
    const uri = `file:///w/pos-${n++}.ts`;
    await client.open(uri, 'typescript', TS_UPDATE);
    await client.diagnosticsFor(uri, 1);
    assert.deepEqual(await client.completion(uri, { line: 99_999, character: 99_999 }), []);
    assert.equal(await client.hover(uri, { line: 99_999, character: 0 }), null);
    assert.deepEqual(await client.codeActions(uri, { start: { line: 50, character: 0 }, end: { line: 60, character: 0 } }, [], ['quickfix']), []);
    await stillWorks();
  });

  it('ignores languages outside dynalint.languages', async () => {
    const uri = `file:///w/readme-${n++}.md`;
    await client.open(uri, 'markdown', 'UpdateExpression: SET status = :s');
    assert.deepEqual(await client.diagnosticsFor(uri, 1), []);
    const linted = await client.waitFor(() => client.linted.find((l) => l.uri === uri && l.version === 1), 'linted (skipped)');
    assert.equal(linted.skipped, 'language markdown is not in dynalint.languages');
  });
});
