/**
 * Any client's language id: an empty or unexpected `languageId` (Neovim without filetype detection sends "") falls
 * back to an alias or the uri's file extension; `dynalint.languages` still applies to the resolved language. And what
 * is not linted is said in the output (window/logMessage) and in `dynalint/linted` (the status bar tooltip).
 */
import assert from 'node:assert/strict';
import { LspClient } from '../support/lsp-client';
import { JSON_UPDATE, PY_UPDATE, TS_UPDATE } from './fixtures';

describe('lsp: language ids and what is not linted', function () {
  let client: LspClient;
  let n = 0;
  before(async () => {
    client = await LspClient.start({ settings: (scope) => (scope?.includes('/nopython/') ? { languages: ['typescript', 'json'] } : {}) });
  });
  after(() => client?.stop());

  /** The same request linted as sent with the expected language id: the findings an unusual id must reproduce. */
  const expected = new Map<string, (string | number | undefined)[]>();
  async function codes(uri: string, languageId: string, text: string): Promise<(string | number | undefined)[]> {
    await client.open(uri, languageId, text);
    return (await client.diagnosticsFor(uri, 1)).map((d) => d.code);
  }
  before(async () => {
    expected.set('ts', await codes('file:///w/ref.ts', 'typescript', TS_UPDATE));
    expected.set('py', await codes('file:///w/ref.py', 'python', PY_UPDATE));
    expected.set('json', await codes('file:///w/ref.json', 'json', JSON_UPDATE));
    for (const [k, v] of expected) assert.ok(v.length > 0, `${k} reference has findings`);
  });

  const cases: { languageId: string; ext: string; text: string; as: string }[] = [
    { languageId: '', ext: 'ts', text: TS_UPDATE, as: 'ts' },
    { languageId: '', ext: 'mts', text: TS_UPDATE, as: 'ts' },
    { languageId: '', ext: 'cjs', text: TS_UPDATE.replace(/^import .*$/m, "const { UpdateItemCommand } = require('@aws-sdk/client-dynamodb');").replace(/export const/g, 'const'), as: 'ts' },
    { languageId: '', ext: 'py', text: PY_UPDATE, as: 'py' },
    { languageId: '', ext: 'pyi', text: PY_UPDATE, as: 'py' },
    { languageId: '', ext: 'json', text: JSON_UPDATE, as: 'json' },
    { languageId: 'js', ext: 'txt', text: TS_UPDATE.replace(/^import .*$/m, '').replace(/export const/g, 'const'), as: 'ts' },
    { languageId: 'ts', ext: 'txt', text: TS_UPDATE, as: 'ts' },
    { languageId: 'py', ext: 'txt', text: PY_UPDATE, as: 'py' },
    { languageId: 'TypeScript', ext: 'txt', text: TS_UPDATE, as: 'ts' },
    { languageId: 'plaintext', ext: 'jsonc', text: JSON_UPDATE, as: 'json' },
    // The AWS Toolkit's id for Step Functions definitions, and their `.asl` extension.
    { languageId: 'asl', ext: 'asl', text: JSON_UPDATE, as: 'json' },
    { languageId: '', ext: 'asl', text: JSON_UPDATE, as: 'json' },
  ];
  for (const c of cases)
    it(`languageId ${JSON.stringify(c.languageId)} on a .${c.ext} file is linted as ${c.as}`, async () => {
      const got = await codes(`file:///w/lang-${n++}.${c.ext}`, c.languageId, c.text);
      assert.deepEqual(got, expected.get(c.as));
    });

  it('a resolved language outside dynalint.languages is skipped and said so (log line and dynalint/linted)', async () => {
    const uri = `file:///w/nopython/x-${n++}.py`;
    assert.deepEqual(await codes(uri, '', PY_UPDATE), []);
    const linted = await client.waitFor(() => client.linted.find((l) => l.uri === uri), 'linted');
    assert.equal(linted.skipped, 'language python (the client sent "") is not in dynalint.languages');
    await client.waitFor(() => client.logs.find((l) => l === `skipped ${uri}: ${linted.skipped}`), 'skip log line');
  });

  it('an unknown language and extension: skipped, with a log line', async () => {
    const uri = `file:///w/notes-${n++}.md`;
    assert.deepEqual(await codes(uri, '', 'UpdateExpression: SET status = :s'), []);
    await client.waitFor(() => client.logs.find((l) => l.startsWith(`skipped ${uri}: language "" is not in dynalint.languages`)), 'skip log line');
  });

  it('a skipped document (binary) produces a log message and a skipped lint', async () => {
    const uri = `file:///w/binary-${n++}.ts`;
    assert.deepEqual(await codes(uri, 'typescript', TS_UPDATE + '\u0000'), []);
    await client.waitFor(() => client.logs.find((l) => l === `skipped ${uri}: binary or UTF-16 file (NUL bytes)`), 'skip log line');
    // dynalint/linted follows the diagnostics: waited for.
    const linted = await client.waitFor(() => client.linted.find((l) => l.uri === uri), 'linted');
    assert.equal(linted.skipped, 'binary or UTF-16 file (NUL bytes)');
  });

  it('a line of minified code: the rest is linted, the line is logged and listed in dynalint/linted', async () => {
    const uri = `file:///w/minified-${n++}.ts`;
    const text = `${TS_UPDATE}\n${'var a=function(b){return b+1};'.repeat(1_000)}\n${'//\n'.repeat(20_000)}`;
    assert.deepEqual(await codes(uri, 'typescript', text), expected.get('ts'));
    const line = TS_UPDATE.split('\n').length + 1;
    const reason = `line ${line} is minified code (30000 characters outside strings > 20000)`;
    await client.waitFor(() => client.logs.find((l) => l === `not linted in ${uri}: ${reason}`), 'not-linted log line');
    const linted = await client.waitFor(() => client.linted.find((l) => l.uri === uri), 'linted');
    assert.equal(linted.skipped, undefined);
    assert.deepEqual(linted.notLinted, [reason]);
  });
});
