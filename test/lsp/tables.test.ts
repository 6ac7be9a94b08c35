/**
 * Schema-aware linting over stdio: a workspace folder with a SAM template and a handler reading the table's name
 * from the environment the template wires. Diagnostics name the definition (message and related information in the
 * template), go to definition and hover on the TableName, completion of index names, a template changed on disk
 * (didChangeWatchedFiles) re-lints the handler, and a template that cannot be read gets one information diagnostic.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Hover, Location, MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient } from '../support/lsp-client';

const TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  LikesTable:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - AttributeName: PK
          AttributeType: S
        - AttributeName: SK
          AttributeType: S
        - AttributeName: userId
          AttributeType: S
      KeySchema:
        - AttributeName: PK
          KeyType: HASH
        - AttributeName: SK
          KeyType: RANGE
      GlobalSecondaryIndexes:
        - IndexName: byUser
          KeySchema:
            - AttributeName: userId
              KeyType: HASH
          Projection:
            ProjectionType: KEYS_ONLY
  LikeFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: src/handler.handler
      Environment:
        Variables:
          LIKES_TABLE: !Ref LikesTable
`;

const HANDLER = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = process.env.LIKES_TABLE!;

export const handler = async (event: { postId: string; userId: string }) => {
  const post = await doc.send(new GetCommand({ TableName: TABLE, Key: { PK: event.postId } }));
  const mine = await doc.send(new QueryCommand({ TableName: TABLE, IndexName: 'byUser', KeyConditionExpression: 'userId = :u', ExpressionAttributeValues: { ':u': event.userId } }));
  return { post, mine };
};
`;

describe('lsp: table definitions from the workspace', function () {
  let client: LspClient;
  let dir: string;
  let templateUri: string;
  const handlerUri = () => pathToFileURL(join(dir, 'src', 'handler.ts')).href;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dynalint-tables-'));
    writeFileSync(join(dir, 'template.yaml'), TEMPLATE);
    writeFileSync(join(dir, 'broken.yaml'), 'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: !If [c, a, b]\n');
    templateUri = pathToFileURL(join(dir, 'template.yaml')).href;
    client = await LspClient.start({ folders: [pathToFileURL(dir).href] });
    await client.open(handlerUri(), 'typescript', HANDLER);
  });
  after(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a Key without the sort key, naming the template (message and related information)', async () => {
    const ds = await client.diagnosticsFor(handlerUri(), 1);
    const d = ds.find((x) => x.code === 'key-schema-mismatch');
    assert.ok(d, JSON.stringify(ds));
    assert.equal(client.slice(handlerUri(), d.range), '{ PK: event.postId }');
    assert.match(String(d.message), /lacks the sort key SK/);
    assert.match(String(d.message), /LikesTable, defined at template\.yaml:4; process\.env\.LIKES_TABLE is set by template\.yaml:33/);
    const there = d.relatedInformation?.find((r) => r.location.uri === templateUri);
    assert.ok(there, JSON.stringify(d.relatedInformation));
    assert.equal(there.location.range.start.line, 3);
    assert.deepEqual(ds.map((x) => x.code), ['key-schema-mismatch']);
  });

  it('goes to the definition from the TableName', async () => {
    const locs = (await client.connection.sendRequest('textDocument/definition', { textDocument: { uri: handlerUri() }, position: client.positionOf(handlerUri(), 'TableName: TABLE', 12) })) as Location[];
    assert.deepEqual(locs.map((l) => [l.uri, l.range.start.line]), [[templateUri, 3]]);
  });

  it('hovers the TableName with the key schema, indexes, billing and where it is defined', async () => {
    const h = (await client.hover(handlerUri(), client.positionOf(handlerUri(), 'TableName: TABLE', 12))) as Hover;
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /LikesTable/);
    assert.match(md, /`PK` \(S\) \(partition\) \+ `SK` \(S\) \(sort\)/);
    assert.match(md, /GSI `byUser`: `userId` \(S\); `KEYS_ONLY`/);
    assert.match(md, /billing: `PAY_PER_REQUEST`/);
    assert.match(md, /template\.yaml:4/);
    assert.match(md, /process\.env\.LIKES_TABLE/);
  });

  it('completes index names in IndexName and key attributes in Key', async () => {
    const items = await client.completion(handlerUri(), client.positionOf(handlerUri(), "'byUser'", 1));
    assert.deepEqual(items.map((i) => i.label), ['byUser']);
    const keys = await client.completion(handlerUri(), client.positionOf(handlerUri(), 'PK: event.postId', 0));
    assert.deepEqual(keys.map((i) => i.label), ['PK', 'SK']);
  });

  it('publishes one information diagnostic in a template whose table cannot be read', async () => {
    const uri = pathToFileURL(join(dir, 'broken.yaml')).href;
    const p = await client.waitFor(() => client.published.find((x) => x.uri === uri), 'broken.yaml diagnostics');
    assert.equal(p.diagnostics.length, 1);
    assert.equal(p.diagnostics[0].code, 'table-definition');
    assert.equal(p.diagnostics[0].severity, 3);
    assert.match(String(p.diagnostics[0].message), /KeySchema is not a literal/);
  });

  it('an open definition file reports that problem in its own lint (its one set of diagnostics); closed, it is pushed again', async () => {
    const uri = pathToFileURL(join(dir, 'broken.yaml')).href;
    const BROKEN = 'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: !If [c, a, b]\n';
    await client.open(uri, 'yaml', BROKEN);
    const ds = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(ds.map((d) => [d.code, d.range.start.line]), [['table-definition', 1]]);
    // A round trip: whatever the server pushed before answering has arrived; the last set for the file is the lint's.
    await client.hover(uri, { line: 0, character: 0 });
    const last = () => client.published.filter((x) => x.uri === uri).at(-1)!;
    assert.equal(last().version, 1, 'no versionless push from the table index replaced the lint');
    const before = client.published.length;
    await client.close(uri);
    const again = await client.waitFor(
      () => client.published.slice(before).find((x) => x.uri === uri && x.version === undefined && x.diagnostics.length),
      'the problem pushed again once the file is closed',
    );
    assert.deepEqual(again.diagnostics.map((d) => d.code), ['table-definition']);
  });

  it('re-lints open documents when a template changes on disk', async () => {
    const before = client.published.length;
    writeFileSync(join(dir, 'template.yaml'), TEMPLATE.replace('        - AttributeName: SK\n          KeyType: RANGE\n', ''));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: templateUri, type: 2 }] });
    const p = await client.waitFor(() => client.published.slice(before).find((x) => x.uri === handlerUri()), 'handler re-linted');
    assert.deepEqual(p.diagnostics.map((d) => d.code), []);
  });

  it('re-lints open documents when an open template is edited (typed, not saved), its latest text read once typing pauses', async () => {
    // On disk the template has no sort key now (the test before): the handler is clean. Typed back, one char at a time.
    const withoutSk = TEMPLATE.replace('        - AttributeName: SK\n          KeyType: RANGE\n', '');
    await client.open(templateUri, 'yaml', withoutSk);
    const typed = '        - AttributeName: SK\n          KeyType: RANGE\n';
    const at = withoutSk.indexOf('      GlobalSecondaryIndexes:');
    const before = client.published.length;
    for (let k = 0; k < typed.length; k++) await client.edit(templateUri, at + k, at + k, typed[k]);
    assert.equal(client.text(templateUri), TEMPLATE);
    // The table may be read mid-typing too (a slow machine): what counts is a re-lint against the whole sort key.
    const p = await client.waitFor(
      () => client.published.slice(before).find((x) => x.uri === handlerUri() && x.diagnostics.some((d) => /lacks the sort key SK\b/.test(String(d.message)))),
      'handler re-linted with the sort key back',
    );
    assert.deepEqual(p.diagnostics.map((d) => d.code), ['key-schema-mismatch']);
    await client.close(templateUri);
  });
});

describe('lsp: table definition problems with a client that pulls diagnostics', function () {
  let client: LspClient;
  let dir: string;
  const BROKEN = 'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: !If [c, a, b]\n';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dynalint-tables-pull-'));
    writeFileSync(join(dir, 'broken.yaml'), BROKEN);
    client = await LspClient.start({ folders: [pathToFileURL(dir).href], pull: true });
  });
  after(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pushed while closed; once open, in the pulled report and the pushed set cleared (not shown twice); closed, pushed again', async () => {
    const uri = pathToFileURL(join(dir, 'broken.yaml')).href;
    const pushed = (from = 0) => client.published.slice(from).filter((x) => x.uri === uri);
    await client.waitFor(() => pushed().find((x) => x.diagnostics.length), 'pushed while closed');
    let mark = client.published.length;
    await client.open(uri, 'yaml', BROKEN);
    await client.waitFor(() => pushed(mark).find((x) => x.diagnostics.length === 0), 'the pushed set cleared on open');
    const report = (await client.pullDiagnostics(uri)) as { kind: string; items: { code?: string | number }[] };
    assert.deepEqual(report.items.map((d) => d.code), ['table-definition']);
    mark = client.published.length;
    await client.close(uri);
    const again = await client.waitFor(() => pushed(mark).find((x) => x.diagnostics.length), 'pushed again once closed');
    assert.deepEqual(again.diagnostics.map((d) => d.code), ['table-definition']);
  });
});
