/**
 * Extraction: full extraction vs the bare parse of the same text (TypeScript `createSourceFile`, tree-sitter parse,
 * `JSON.parse`), and the work after a one-character edit (incremental `update`) vs a full TypeScript parse.
 */
import ts from 'typescript';
import { Language, Parser } from 'web-tree-sitter';
import { createDocumentExtractor, extract, initParsers } from '../../server/src/extract';
import type { BenchRow } from "../bench";
import { timeMs } from '../bench';

const LINES = 5000;

function repeatUntil(header: string, block: (i: number) => string, lines: number): string {
  let text = header;
  let n = header.split('\n').length;
  for (let i = 0; n < lines; i++) {
    const b = block(i);
    text += b;
    n += b.split('\n').length - 1;
  }
  return text;
}

export function tsFile(lines = LINES): string {
  const header = `import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const client = new DynamoDBClient({});
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'Posts';
const INCREMENT = 'SET #likes = #likes + :one';
`;
  return repeatUntil(header, (i) => `
export async function like${i}(postId: string, userId: string): Promise<void> {
  const now = Date.now();
  await doc.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: TABLE, Item: { PK: \`POST#\${postId}\`, SK: \`LIKE#\${userId}\`, at: now }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: { TableName: TABLE, Key: { PK: \`POST#\${postId}\`, SK: 'META' }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': 1 } } },
    ],
  }));
  await client.send(new UpdateItemCommand({
    TableName: TABLE,
    Key: { PK: { S: postId } },
    UpdateExpression: INCREMENT,
    ExpressionAttributeNames: { '#likes': 'likes' },
    ExpressionAttributeValues: { ':one': { N: "1" } },
  }));
  const params = { TableName: TABLE, KeyConditionExpression: "PK = :pk AND begins_with(SK, :p)", ExpressionAttributeValues: { ':pk': postId, ':p': 'LIKE#' } };
  const res = await doc.send(new QueryCommand(params));
  if (res && now > ${i}) await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: postId }, UpdateExpression: 'SET seen = :t', ExpressionAttributeValues: { ':t': new Set(['a', 'b']) } }));
}
`, lines);
}

export function pyFile(lines = LINES): string {
  const header = `import boto3
from decimal import Decimal

client = boto3.client("dynamodb")
table = boto3.resource("dynamodb").Table("Posts")
TABLE = "Posts"
INCREMENT = "SET #likes = #likes + :one"
`;
  return repeatUntil(header, (i) => `

def like_${i}(post_id, user_id):
    client.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {"PK": {"S": f"POST#{post_id}"}, "SK": {"S": f"LIKE#{user_id}"}}, "ConditionExpression": "attribute_not_exists(PK)"}},
            {"Update": {"TableName": TABLE, "Key": {"PK": {"S": f"POST#{post_id}"}}, "UpdateExpression": INCREMENT, "ExpressionAttributeNames": {"#likes": "likes"}, "ExpressionAttributeValues": {":one": {"N": "1"}}}},
        ]
    )
    kw = {"Key": {"PK": post_id}, "UpdateExpression": "ADD views :n", "ExpressionAttributeValues": {":n": Decimal("1")}}
    table.update_item(**kw)
    res = table.query(KeyConditionExpression="PK = :pk", ExpressionAttributeValues={":pk": post_id})
    if res and ${i}:
        table.put_item(Item={"PK": post_id, "tags": {"a", "b"}, "n": Decimal(${i})})
`, lines);
}

export function jsonFile(bytes: number): string {
  const item = (i: number) =>
    `  {"TableName": "Posts", "Key": {"PK": {"S": "POST#${i}"}, "SK": {"S": "META"}}, "UpdateExpression": "SET #l = #l + :one, \\"x\\" = :s", "ConditionExpression": "attribute_exists(PK)", "ExpressionAttributeNames": {"#l": "likes"}, "ExpressionAttributeValues": {":one": {"N": "1"}, ":s": {"SS": ["a", "b"]}}, "ReturnValues": "UPDATED_NEW"}`;
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const s = item(i);
    parts.push(s);
    size += s.length + 2;
  }
  return `[\n${parts.join(',\n')}\n]\n`;
}

/** Median time of `update` after a one-character edit in the middle of the file (alternating insert / delete). */
function afterEdit(text: string, languageId: string, maxFileSize?: number): number {
  const doc = createDocumentExtractor(languageId, { maxFileSize });
  doc.update(text);
  const at = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
  const edited = text.slice(0, at) + ' ' + text.slice(at);
  let flip = false;
  const ms = timeMs(() => {
    flip = !flip;
    return flip ? doc.update(edited, [{ start: at, end: at, text: ' ' }]) : doc.update(text, [{ start: at, end: at + 1, text: '' }]);
  }, 21, 4);
  doc.dispose();
  return ms;
}

export async function run(): Promise<BenchRow[]> {
  await initParsers();
  const tsText = tsFile();
  const pyText = pyFile();
  const jsonText = jsonFile(10 * 1024 * 1024);
  const big = { maxFileSize: 64 * 1024 * 1024 };

  const tsParse = timeMs(() => ts.createSourceFile('f.tsx', tsText, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX));
  const tsFull = timeMs(() => extract(tsText, 'typescript'));
  const tsEdit = afterEdit(tsText, 'typescript');
  const tsSites = extract(tsText, 'typescript').sites.length;

  const parser = new Parser();
  parser.setLanguage(await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm')));
  const pyParse = timeMs(() => parser.parse(pyText)?.delete());
  const pyFull = timeMs(() => extract(pyText, 'python'));
  const pyEdit = afterEdit(pyText, 'python');
  const pySites = extract(pyText, 'python').sites.length;
  parser.delete();

  const jsonParse = timeMs(() => JSON.parse(jsonText), 5, 1);
  const jsonFull = timeMs(() => extract(jsonText, 'json', big), 5, 1);
  const jsonSites = extract(jsonText, 'json', big).sites.length;

  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const row = (name: string, ours: number, baseName: string, base: number, note: string): BenchRow => ({
    area: 'extract',
    name,
    ours: ms(ours),
    baseline: `${baseName} ${ms(base)}`,
    ratio: ours / base,
    note,
  });
  return [
    row(`full extraction, ${LINES}-line TS (${tsSites} requests)`, tsFull, 'ts.createSourceFile', tsParse, 'extract / bare parse'),
    row(`after a 1-char edit, ${LINES}-line TS`, tsEdit, 'ts.createSourceFile', tsParse, 'incremental update / full TS parse'),
    row(`full extraction, ${LINES}-line Python (${pySites} requests)`, pyFull, 'tree-sitter parse', pyParse, 'extract / bare parse'),
    row(`after a 1-char edit, ${LINES}-line Python`, pyEdit, 'ts.createSourceFile (TS file)', tsParse, `incremental update / full TS parse; ${(pyEdit / pyParse).toFixed(2)} of a full Python parse`),
    row(`full extraction, ${(jsonText.length / 1048576).toFixed(0)} MB JSON (${jsonSites} requests)`, jsonFull, 'JSON.parse', jsonParse, 'extract / bare parse'),
    row(`after a 1-char edit, 10 MB JSON (no incremental JSON parse)`, jsonFull, 'ts.createSourceFile (TS file)', tsParse, 'JSON re-extracts fully'),
  ];
}
