/**
 * Published diagnostics over stdio: code, range, severity, source, codeDescription and fix data in every host
 * language; settings pulled per resource and re-pulled on change; `.dynalintrc.json`; closing clears.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { DiagnosticData } from '../../server/src/protocol/lsp';
import { ruleById } from '../../server/src/rules';
import { LspClient } from '../support/lsp-client';
import { JSON_UPDATE, PY_UPDATE, TS_LIKE, TS_UPDATE } from './fixtures';

const ERROR = 1;
const WARNING = 2;
const INFO = 3;

/** [code, covered text, severity] of each diagnostic, in order. */
function summary(client: LspClient, uri: string, ds: Diagnostic[]): [string, string, number][] {
  return ds.map((d) => [String(d.code), client.slice(uri, d.range), d.severity!]);
}

function assertWellFormed(ds: Diagnostic[], version: number): void {
  for (const d of ds) {
    const id = String(d.code);
    assert.equal(d.source, 'dynalint');
    assert.equal(d.codeDescription?.href, ruleById(id)!.meta.docs);
    const message = typeof d.message === 'string' ? d.message : d.message.value;
    assert.ok(message.length > 0 && !message.includes(id), `message repeats the rule id: ${message}`);
    const data = d.data as DiagnosticData;
    assert.equal(data.ruleId, id);
    assert.equal(data.version, version);
  }
}

describe('lsp: published diagnostics', function () {
  let client: LspClient;
  const settingsByUri = new Map<string, unknown>();
  before(async () => {
    client = await LspClient.start({ settings: (uri) => settingsByUri.get(uri ?? '') ?? {} });
  });
  after(() => client?.stop());

  // Every test opens documents of its own (fresh URIs), so each passes alone and in any order.
  let n = 0;
  const fresh = (name: string) => `file:///work/${n++}-${name}`;

  const cases: { name: string; file: string; languageId: string; text: string; expected: [string, string, number][] }[] = [
    {
      name: 'TypeScript (SDK v3 low-level)',
      file: 'a.ts',
      languageId: 'typescript',
      text: TS_UPDATE,
      expected: [
        ['reserved-word', 'status', ERROR],
        ['reserved-word', 'total', ERROR],
        ['set-without-if-not-exists', 'total = total + :one', WARNING],
        ['reserved-word', 'total', ERROR],
      ],
    },
    {
      name: 'JSON (AWS CLI input)',
      file: 'b.json',
      languageId: 'json',
      text: JSON_UPDATE,
      expected: [
        ['add-on-non-number', ':one', ERROR],
        ['unused-value', '":extra"', ERROR],
      ],
    },
    {
      name: 'Python (boto3 resource)',
      file: 'c.py',
      languageId: 'python',
      text: PY_UPDATE,
      expected: [
        ['reserved-word', 'views', ERROR],
        // attribute_exists(PK) makes sure the item exists, not views: said as an assumption, at info.
        ['set-without-if-not-exists', 'views = views + :inc', INFO],
        ['reserved-word', 'views', ERROR],
      ],
    },
    {
      name: 'TypeScript like transaction (mission rule)',
      file: 'like.ts',
      languageId: 'typescript',
      text: TS_LIKE,
      expected: [['unguarded-add-in-transaction', 'Put', WARNING]],
    },
  ];

  for (const c of cases)
    it(`${c.name}: codes, ranges, severities, source, docs link and fix data`, async () => {
      const uri = fresh(c.file);
      await client.open(uri, c.languageId, c.text);
      const ds = await client.diagnosticsFor(uri, 1);
      assert.deepEqual(summary(client, uri, ds), c.expected);
      assertWellFormed(ds, 1);
      await client.close(uri);
    });

  it('marks unused placeholders as Unnecessary and carries each fix as LSP edits in data', async () => {
    const uri = fresh('b.json');
    await client.open(uri, 'json', JSON_UPDATE);
    const ds = await client.diagnosticsFor(uri, 1);
    const unused = ds.find((d) => d.code === 'unused-value')!;
    assert.deepEqual(unused.tags, [1]);
    const data = unused.data as DiagnosticData;
    assert.equal(data.fixes.length, 1);
    assert.equal(data.fixes[0].safe, true);
    const doc = client.doc(uri);
    const after = (await import('vscode-languageserver-textdocument')).TextDocument.applyEdits(doc, data.fixes[0].edits);
    assert.ok(after.includes('"ExpressionAttributeValues": {":one": {"S": "1"}, ":n": {"S": "x"}}'), after);
    await client.close(uri);
  });

  it('re-lints on change and publishes with the new version', async () => {
    const uri = fresh('c.py');
    await client.open(uri, 'python', PY_UPDATE);
    await client.diagnosticsFor(uri, 1);
    const at = client.text(uri).indexOf('views = views + :inc');
    const v = await client.edit(uri, at, at + 'views = views + :inc'.length, '#v = if_not_exists(#v, :zero) + :inc');
    const ds = await client.diagnosticsFor(uri, v);
    // #v and :zero are not defined yet: the validator names both, at their exact places.
    assert.deepEqual(summary(client, uri, ds), [
      ['undefined-name', '#v', ERROR],
      ['undefined-name', '#v', ERROR],
      ['undefined-value', ':zero', ERROR],
    ]);
    assertWellFormed(ds, v);
    await client.close(uri);
  });

  it('pulls settings per document (scopeUri) and re-pulls them after didChangeConfiguration', async () => {
    const a = fresh('settings-a.ts');
    const b = fresh('settings-b.ts');
    settingsByUri.set(b, { rules: { 'reserved-word': 'off', 'set-without-if-not-exists': 'error' } });
    await client.open(a, 'typescript', TS_UPDATE);
    await client.open(b, 'typescript', TS_UPDATE);
    assert.deepEqual(summary(client, a, await client.diagnosticsFor(a, 1)).map((x) => x[0]), ['reserved-word', 'reserved-word', 'set-without-if-not-exists', 'reserved-word']);
    assert.deepEqual(summary(client, b, await client.diagnosticsFor(b, 1)), [['set-without-if-not-exists', 'total = total + :one', ERROR]]);
    assert.ok(client.configurationRequests.includes(a) && client.configurationRequests.includes(b));

    settingsByUri.set(a, { enable: false });
    const before = client.published.length;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const cleared = await client.waitFor(() => client.published.slice(before).find((p) => p.uri === a), 'republish of a');
    assert.deepEqual(cleared.diagnostics, []);
    await client.close(a);
    await client.close(b);
  });

  it('reads rule severities from the nearest .dynalintrc.json, under the editor settings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dynalint-lsp-'));
    writeFileSync(join(dir, '.dynalintrc.json'), '{ // project policy\n  "rules": { "reserved-word": "warning", "set-without-if-not-exists": "off" }\n}\n');
    const uri = pathToFileURL(join(dir, 'src', 'x.ts')).href;
    await client.open(uri, 'typescript', TS_UPDATE);
    assert.deepEqual(summary(client, uri, await client.diagnosticsFor(uri, 1)), [
      ['reserved-word', 'status', WARNING],
      ['reserved-word', 'total', WARNING],
      ['reserved-word', 'total', WARNING],
    ]);
    settingsByUri.set(uri, { rules: { 'reserved-word': 'hint' } });
    const before = client.published.length;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const p = await client.waitFor(() => client.published.slice(before).find((x) => x.uri === uri), 'republish');
    assert.deepEqual(summary(client, uri, p.diagnostics).map((x) => x[2]), [4, 4, 4]);
    await client.close(uri);
  });

  it('reports an unused suppression comment even in a file without requests', async () => {
    const uri = fresh('suppress.ts');
    await client.open(uri, 'typescript', '// dynalint-disable-next-line reserved-word\nexport const x = 1;\n');
    const ds = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(summary(client, uri, ds), [['unused-suppression', 'reserved-word', 4]]);
    assert.deepEqual(ds[0].tags, [1]);
    await client.close(uri);
  });

  it('publishes empty diagnostics when a document closes', async () => {
    const uri = fresh('like.ts');
    await client.open(uri, 'typescript', TS_LIKE);
    assert.equal((await client.diagnosticsFor(uri, 1)).length, 1);
    const before = client.published.length;
    await client.close(uri);
    const p = await client.waitFor(() => client.published.slice(before).find((x) => x.uri === uri), 'clear on close');
    assert.deepEqual(p.diagnostics, []);
  });

  it('reports each lint to the client (dynalint/linted) with version and finding count', async () => {
    const uri = fresh('a.ts');
    await client.open(uri, 'typescript', TS_UPDATE);
    const l = await client.waitFor(() => client.linted.find((x) => x.uri === uri && x.version === 1), 'linted a.ts');
    assert.equal(l.findings, 4);
    assert.equal((await client.diagnosticsFor(uri, 1)).length, 4, 'the count is what was published');
    assert.equal(l.skipped, undefined);
    assert.ok(l.durationMs >= 0);
    await client.close(uri);
  });
});

describe('lsp: multi-root workspace folders', () => {
  it('searches .dynalintrc.json up to the document\'s workspace folder, and follows folder changes', async () => {
    const outer = mkdtempSync(join(tmpdir(), 'dynalint-roots-'));
    writeFileSync(join(outer, '.dynalintrc.json'), '{ "rules": { "reserved-word": "off" } }');
    const inner = pathToFileURL(join(outer, 'inner')).href;
    const client = await LspClient.start({ folders: [inner, 'file:///elsewhere'] });
    try {
      assert.deepEqual(client.initializeResult.capabilities.workspace?.workspaceFolders, { supported: true, changeNotifications: true });
      const uri = `${inner}/src/a.ts`;
      await client.open(uri, 'typescript', TS_UPDATE);
      // The file above the folder is not this folder's configuration.
      assert.deepEqual((await client.diagnosticsFor(uri, 1)).map((d) => d.code), ['reserved-word', 'reserved-word', 'set-without-if-not-exists', 'reserved-word']);
      const before = client.published.length;
      await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
        event: { added: [{ uri: pathToFileURL(outer).href, name: 'outer' }], removed: [{ uri: inner, name: 'inner' }] },
      });
      const p = await client.waitFor(() => client.published.slice(before).find((x) => x.uri === uri), 'republish after folder change');
      assert.deepEqual(p.diagnostics.map((d) => d.code), ['set-without-if-not-exists']);
    } finally {
      await client.stop();
    }
  });
});
