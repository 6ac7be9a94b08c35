/**
 * Code actions over stdio: each rule's quick fix, "disable for this line" and source.fixAll.dynalint, checked by
 * applying the returned edit to the document (the exact text after), and by the re-lint that follows.
 */
import assert from 'node:assert/strict';
import type { CodeAction, Range } from 'vscode-languageserver-protocol';
import { LspClient } from '../support/lsp-client';
import { JSON_UPDATE, PY_UPDATE, TS_LIKE, TS_UPDATE } from './fixtures';

describe('lsp: code actions', function () {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
    await client.open('file:///w/u.ts', 'typescript', TS_UPDATE);
    await client.open('file:///w/u.json', 'json', JSON_UPDATE);
    await client.open('file:///w/u.py', 'python', PY_UPDATE);
    await client.open('file:///w/like.ts', 'typescript', TS_LIKE);
    await Promise.all(['u.ts', 'u.json', 'u.py', 'like.ts'].map((f) => client.diagnosticsFor(`file:///w/${f}`, 1)));
  });
  after(() => client?.stop());

  const rangeOf = (uri: string, needle: string, nth = 0): Range => {
    const start = client.positionOf(uri, needle, 0, nth);
    return { start, end: { line: start.line, character: start.character + needle.length } };
  };
  const titled = (actions: CodeAction[], title: string) => {
    const a = actions.find((x) => x.title === title);
    assert.ok(a, `no action '${title}' in ${JSON.stringify(actions.map((x) => x.title))}`);
    return a;
  };

  it('offers the rule fixes, a disable comment and fix-all at a reserved word (TypeScript)', async () => {
    const uri = 'file:///w/u.ts';
    const actions = await client.codeActions(uri, rangeOf(uri, 'status'));
    assert.deepEqual(
      actions.map((a) => [a.kind, a.title]),
      [
        ['quickfix', 'Use placeholder #status for "status"'],
        ['quickfix', 'Use placeholders #status for "status", #total for "total"'],
        ['quickfix', 'Disable reserved-word for this line'],
        ['source.fixAll.dynalint', 'Fix all auto-fixable Dynalint problems'],
      ],
    );
    assert.equal(actions[0].isPreferred, true);
    assert.deepEqual(actions[0].diagnostics?.map((d) => d.code), ['reserved-word']);
    assert.equal(
      client.applied(uri, actions[0].edit),
      TS_UPDATE.replace("'SET status", "'SET #status").replace(
        "{ N: '1' } },\n",
        "{ N: '1' } },\n  ExpressionAttributeNames: { '#status': 'status' },\n",
      ),
    );
    assert.equal(
      client.applied(uri, titled(actions, 'Disable reserved-word for this line').edit),
      TS_UPDATE.replace("  UpdateExpression:", '  // dynalint-disable-next-line reserved-word\n  UpdateExpression:'),
    );
  });

  it('marks exactly one action preferred where two findings overlap (auto-fix needs a single preferred one)', async () => {
    const uri = 'file:///w/stock.ts';
    const text = [
      `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
      `export const take = (id: string, q: number) => new UpdateCommand({ TableName: 'Stock', Key: { PK: id }, UpdateExpression: 'SET stock = stock - :q', ExpressionAttributeValues: { ':q': q } });`,
      ``,
    ].join('\n');
    await client.open(uri, 'typescript', text);
    const diagnostics = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(diagnostics.map((d) => d.code).sort(), ['decrement-without-floor', 'set-without-if-not-exists']);
    const actions = await client.codeActions(uri, rangeOf(uri, 'stock = stock - :q'));
    const fixers = new Set(actions.filter((a) => !a.title.startsWith('Disable')).flatMap((a) => a.diagnostics?.map((d) => d.code) ?? []));
    assert.deepEqual([...fixers].sort(), ['decrement-without-floor', 'set-without-if-not-exists'], 'both rules offer their fixes');
    assert.equal(actions.filter((a) => a.isPreferred).length, 1, JSON.stringify(actions.map((a) => [a.title, a.isPreferred])));
  });

  it('source.fixAll.dynalint applies every safe fix in one edit, and only it answers an only=[source.fixAll] request', async () => {
    const uri = 'file:///w/u.ts';
    const actions = await client.codeActions(uri, rangeOf(uri, 'cmd'), [], ['source.fixAll']);
    assert.deepEqual(actions.map((a) => a.kind), ['source.fixAll.dynalint']);
    assert.equal(
      client.applied(uri, actions[0].edit),
      TS_UPDATE.replace("'SET status = :s, total = total + :one'", "'SET #status = :s, #total = if_not_exists(#total, :zero) + :one'").replace(
        "{ N: '1' } },\n",
        "{ N: '1' }, ':zero': { N: '0' } },\n  ExpressionAttributeNames: { '#status': 'status', '#total': 'total' },\n",
      ),
    );
    const quick = await client.codeActions(uri, rangeOf(uri, 'status'), [], ['quickfix']);
    assert.ok(quick.length > 0 && quick.every((a) => a.kind === 'quickfix'));
  });

  it('JSON: fixes the value type, removes an unused value, and offers no comment (plain JSON has none)', async () => {
    const uri = 'file:///w/u.json';
    const actions = await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 7, character: 0 } }, [], ['quickfix']);
    assert.deepEqual(actions.map((a) => a.title), ['Send :one as the number 1', 'Remove unused :extra from ExpressionAttributeValues']);
    assert.equal(client.applied(uri, actions[0].edit), JSON_UPDATE.replace('{":one": {"S": "1"}', '{":one": {"N": "1"}'));
    assert.equal(client.applied(uri, actions[1].edit), JSON_UPDATE.replace(', ":extra": {"S": "y"}', ''));
  });

  it('Python: wraps the counter in if_not_exists with a Decimal zero, and disables with a # comment', async () => {
    const uri = 'file:///w/u.py';
    const actions = await client.codeActions(uri, rangeOf(uri, 'views = views + :inc'), [], ['quickfix']);
    const wrap = titled(actions, 'Wrap views in if_not_exists(views, :zero)');
    assert.equal(
      client.applied(uri, wrap.edit),
      PY_UPDATE.replace('views = views + :inc', 'views = if_not_exists(views, :zero) + :inc')
        .replace('{":inc": 1}', '{":inc": 1, ":zero": Decimal(0)}')
        .replace('import boto3\n', 'import boto3\nfrom decimal import Decimal\n'),
    );
    assert.equal(
      client.applied(uri, titled(actions, 'Disable set-without-if-not-exists for this line').edit),
      PY_UPDATE.replace('        UpdateExpression=', '        # dynalint-disable-next-line set-without-if-not-exists\n        UpdateExpression='),
    );
  });

  it('the mission fix guards the child Put, and the re-lint after applying it is clean', async () => {
    const uri = 'file:///w/like.ts';
    const actions = await client.codeActions(uri, rangeOf(uri, 'Put'), [], ['quickfix']);
    const fix = titled(actions, 'Add the condition attribute_not_exists(SK) to the Put');
    const after = client.applied(uri, fix.edit);
    assert.ok(after.includes("ConditionExpression: 'attribute_not_exists(SK)'"), after);
    const v = await client.edit(uri, 0, client.text(uri).length, after);
    assert.deepEqual(await client.diagnosticsFor(uri, v), []);
    assert.deepEqual(await client.codeActions(uri, rangeOf(uri, 'Put')), []);
  });

  it('puts a reconcile code lens on a counter transaction, with the pattern read from the code', async () => {
    const uri = 'file:///w/lens.ts';
    await client.open(uri, 'typescript', TS_LIKE);
    const lenses: { range: Range; command?: { title: string; command: string; arguments?: unknown[] } }[] = await client.connection.sendRequest(
      'textDocument/codeLens',
      { textDocument: { uri } },
    );
    assert.deepEqual(
      lenses.map((l) => [client.slice(uri, l.range), l.command]),
      [
        [
          'TransactWriteItemsCommand',
          {
            title: 'Reconcile likeTally with its LIKE# children',
            command: 'dynalint.reconcile',
            arguments: [{ table: 'Social', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' }],
          },
        ],
      ],
    );
    const none = await client.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: 'file:///w/u.json' } });
    assert.deepEqual(none, []);
  });

  it('answers [] for a document it does not know', async () => {
    assert.deepEqual(await client.codeActions('file:///w/never-opened.ts', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }), []);
  });
});
