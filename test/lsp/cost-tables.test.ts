/**
 * Cost hover with the table known (issue 14), over stdio: a workspace with a template defining an on-demand table with
 * a GSI (INCLUDE projection) and a handler writing to it through the environment variable the template sets. The
 * hover on the PutCommand shows the table's WCU, the index's WCU and the table's billing mode first.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient } from '../support/lsp-client';

const TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  PostsTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: posts
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - { AttributeName: postId, AttributeType: S }
        - { AttributeName: itemType, AttributeType: S }
        - { AttributeName: author, AttributeType: S }
      KeySchema:
        - { AttributeName: postId, KeyType: HASH }
        - { AttributeName: itemType, KeyType: RANGE }
      GlobalSecondaryIndexes:
        - IndexName: byAuthor
          KeySchema:
            - { AttributeName: author, KeyType: HASH }
          Projection:
            ProjectionType: INCLUDE
            NonKeyAttributes: [title]
  PostFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: src/handler.handler
      Environment:
        Variables:
          POSTS_TABLE: !Ref PostsTable
`;

const HANDLER = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = process.env.POSTS_TABLE!;

export const handler = async (event: { postId: string; author: string }) => {
  await doc.send(new PutCommand({ TableName: TABLE, Item: { postId: 'POST#1', itemType: 'META', author: 'ann', title: 'Hello', body: '${'x'.repeat(1500)}' } }));
  await doc.send(new TransactWriteCommand({ TransactItems: [
    { Put: { TableName: TABLE, Item: { postId: \`POST#\${event.postId}\`, itemType: \`LIKE#\${event.author}\` } } },
    { Update: { TableName: TABLE, Key: { postId: \`POST#\${event.postId}\`, itemType: 'META' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } },
  ] }));
};
`;

describe('lsp: cost hover and reconcile lens with the table defined in the workspace', function () {
  let client: LspClient;
  let dir: string;
  const handlerUri = () => pathToFileURL(join(dir, 'src', 'handler.ts')).href;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dynalint-cost-tables-'));
    writeFileSync(join(dir, 'template.yaml'), TEMPLATE);
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'handler.ts'), HANDLER);
    client = await LspClient.start({ folders: [pathToFileURL(dir).href] });
    await client.open(handlerUri(), 'typescript', HANDLER);
    // Lints await the workspace scan: the first diagnostics mean the index is in.
    await client.diagnosticsFor(handlerUri(), 1);
  });
  after(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hovers the PutCommand with the table WCU, the GSI WCU and the billing mode first', async () => {
    const h = (await client.hover(handlerUri(), client.positionOf(handlerUri(), 'PutCommand({', 2))) as Hover;
    const md = (h.contents as MarkupContent).value;
    // Item ~1.6 KB: 2 WCU in the table; byAuthor holds keys + title: 1 WCU.
    assert.match(md, /\| Put \| 1\.\d KB \| 2 WCU \|/);
    assert.match(md, /\| ↳ GSI `byAuthor` \(INCLUDE\) \| \d+ B \| 1 WCU \(put\) \|/);
    assert.match(md, /\*\*Per call:\*\* 3 WCU \(table 2 WCU \+ GSI 1 WCU\) · billing mode `PAY_PER_REQUEST`, `PostsTable \(template\.yaml:4\)`/);
    assert.match(md, /\n\*\*On-demand\*\* \(this table\): \$1\.88 per million calls \(us-east-1\)\nProvisioned instead/);
  });

  it('the reconcile lens carries the table name and key attributes of the definition', async () => {
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: handlerUri() } })) as CodeLens[];
    const args = lenses.map((l) => l.command?.arguments?.[0]);
    assert.deepEqual(args, [
      { table: 'posts', partitionKey: 'postId', sortKey: 'itemType', definedAt: 'PostsTable (template.yaml:4)', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' },
    ]);
  });
});
