/**
 * Incremental rule results through the server: edits in different functions of a document (each waited for), the
 * diagnostics of every version equal those of a fresh service linting that text alone, and the server holds rule
 * results per site between edits (`dynalint/stats` `cachedSites`).
 */
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { initParsers } from '../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import { DynalintService } from '../../server/src/service';
import { LspClient } from '../support/lsp-client';

const expectedFor = (uri: string, version: number, text: string, languageId = 'typescript'): Diagnostic[] =>
  JSON.parse(JSON.stringify(new DynalintService().diagnostics(TextDocument.create(uri, languageId, version, text), DEFAULT_SETTINGS)));

const fn = (i: number) => `
export async function like${i}(postId: string) {
  await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: \`POST#\${postId}\`, SK: 'LIKE#${i}' } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: \`POST#\${postId}\`, SK: 'META' }, UpdateExpression: 'SET likes = likes + :one, status = :s', ExpressionAttributeValues: { ':one': 1, ':s': 'x', ':unused${i}': 2 } }));
}
`;

const BASE = `import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'Posts';
${Array.from({ length: 30 }, (_, i) => fn(i)).join('')}`;

/** Python: a reserved word in a shared constant (its fix maps it in every user) and in a dict outside each call. */
const pyFn = (i: number) => `

def like_${i}(post_id):
    table.update_item(Key={"PK": post_id}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "x"})
    kw = {"Key": {"PK": post_id, "SK": "LIKE#${i}"}, "UpdateExpression": "ADD views :n", "ExpressionAttributeValues": {":n": 1}}
    table.update_item(**kw)  # done ${i}
`;

const PY_BASE = `import boto3

table = boto3.resource("dynamodb").Table("Posts")
RESERVED = "SET status = :s"
${Array.from({ length: 30 }, (_, i) => pyFn(i)).join('')}`;

describe('lsp: incremental rule results', function () {
  let client: LspClient;
  before(async () => {
    await initParsers();
    client = await LspClient.start();
  });
  after(() => client?.stop());

  it('edits in different functions: every version equals a fresh lint of its text; results are kept per site', async () => {
    const uri = 'file:///w/incremental-rules.ts';
    await client.open(uri, 'typescript', BASE);
    assert.deepEqual(await client.diagnosticsFor(uri, 1, 60_000), expectedFor(uri, 1, BASE));
    const edits: [string, string][] = [
      ["'LIKE#3'", ' '],
      ['status = :s', ', #x = :s'],
      ["':unused20': 2", ', extra: 1'],
      ['export async function like10', '// dynalint-disable-next-line reserved-word\n'],
      ["'LIKE#29'", ' '],
    ];
    for (const [needle, insert] of edits) {
      const text = client.text(uri);
      const anchor = text.indexOf(needle);
      const at = needle.startsWith('export') ? anchor : anchor + needle.length;
      const v = await client.edit(uri, at, at, insert);
      assert.deepEqual(await client.diagnosticsFor(uri, v, 60_000), expectedFor(uri, v, client.text(uri)), `after inserting ${JSON.stringify(insert)} at ${needle}`);
    }
    const stats = (await client.connection.sendRequest('dynalint/stats')) as { cachedSites: number };
    assert.ok(stats.cachedSites >= 60, JSON.stringify(stats));
  });

  it('python, findings that depend on who else uses shared source: every version equals a fresh lint', async () => {
    const uri = 'file:///w/incremental-rules.py';
    await client.open(uri, 'python', PY_BASE);
    assert.deepEqual(await client.diagnosticsFor(uri, 1, 60_000), expectedFor(uri, 1, PY_BASE, 'python'));
    const edits: [string, string][] = [
      ['"LIKE#3"', ' '],
      // One more user of the constant in a new function (between two others, touching neither): the first user's fix
      // must map it too.
      ['# done 15\n\n', 'def extra(post_id):\n    table.update_item(Key={"PK": post_id}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "y"})\n\n\n'],
      ['"LIKE#20"', '}\n    kw = {"Key": {"PK": 1'],
      ['def like_10', '# dynalint-disable-next-line reserved-word\n'],
      ['"LIKE#29"', ' '],
    ];
    for (const [needle, insert] of edits) {
      const text = client.text(uri);
      const anchor = text.indexOf(needle, text.indexOf('def like_'));
      const at = needle.startsWith('def') ? anchor : anchor + needle.length;
      const v = await client.edit(uri, at, at, insert);
      const text2 = client.text(uri);
      assert.deepEqual(await client.diagnosticsFor(uri, v, 60_000), expectedFor(uri, v, text2, 'python'), `after inserting ${JSON.stringify(insert)} at ${needle}`);
      // The constant's fix (a mapping in every user) is in the code actions, not the diagnostics.
      const doc = TextDocument.create(uri, 'python', v, text2);
      const at2 = text2.indexOf('status');
      const range = { start: doc.positionAt(at2), end: doc.positionAt(at2 + 6) };
      const want = JSON.parse(JSON.stringify(new DynalintService().codeActions(doc, DEFAULT_SETTINGS, range))) as unknown[];
      assert.ok(want.length > 0);
      assert.deepEqual(await client.codeActions(uri, range), want, `code actions after inserting ${JSON.stringify(insert)} at ${needle}`);
    }
  });
});
