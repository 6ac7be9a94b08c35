/**
 * Extraction: full extraction vs the bare parse of the same text (TypeScript `createSourceFile`, tree-sitter parse,
 * `JSON.parse`), and the work after a one-character edit (incremental `update`) vs a full TypeScript parse.
 */
import ts from 'typescript';
import { Language, Parser } from 'web-tree-sitter';
import { createDocumentExtractor, extract, initParsers } from '../../server/src/extract';
import type { BenchRow } from "../bench";
import { median, timeMs } from '../bench';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import { DynalintService } from '../../server/src/service';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
export async function like${i}(postId: string, userId: string): Promise<void> {${likeBody(i, 0)}}
`, lines);
}

/** The body every generated request-making function has (as in `tsFile`), indented by two more spaces per `depth`. */
function likeBody(i: number, depth: number): string {
  const pad = '  '.repeat(depth);
  return `
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
`.replace(/\n/g, `\n${pad}`);
}

/**
 * The statement shapes of issue 11 in one file: helper functions, `export const handlerN = async (event) => {...}`,
 * classes with methods, and (in the middle) one `module.exports = {...}` of handlers, each with the `tsFile` body.
 * After it, a class of nine methods (eight calling a helper method) and an object literal of handlers bound by
 * `export const`. Edit points carry a marker comment: `/*helper*\/`, `/*handler*\/`, `/*class*\/`, `/*exports*\/`,
 * `/*classmany*\/`, `/*handlers*\/`.
 */
export function tsShapesFile(lines = LINES): string {
  const header = tsFile(0);
  let text = header;
  let n = header.split('\n').length;
  let exportsDone = false;
  let classDone = false;
  let handlersDone = false;
  for (let i = 0; n < lines; i++) {
    let b: string;
    if (!exportsDone && n >= lines / 2) {
      exportsDone = true;
      b = '\nmodule.exports = {\n' + Array.from({ length: 8 }, (_, k) => `  async handle${k}(postId, userId) {\n    /*exports*/${likeBody(k, 1)}},\n`).join('') + '};\n';
    } else if (exportsDone && !classDone) {
      // A repository class of many methods calling a helper method (`this.save`), the edit point in one of them.
      classDone = true;
      b =
        `\nexport class PostRepository {\n  async save(postId: string, userId: string) {\n    await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: postId }, UpdateExpression: 'SET saved = :t', ExpressionAttributeValues: { ':t': userId } }));\n  }\n` +
        Array.from({ length: 8 }, (_, k) => `  async like${k}(postId: string, userId: string) {\n    ${k === 3 ? '/*classmany*/' : ''}await this.save(postId, userId);${likeBody(k, 1)}}\n`).join('') +
        '}\n';
    } else if (exportsDone && !handlersDone) {
      // An object literal of handlers bound by `export const`.
      handlersDone = true;
      b = '\nexport const handlers = {\n' + Array.from({ length: 8 }, (_, k) => `  async on${k}(postId, userId) {\n    ${k === 3 ? '/*handlers*/' : ''}${likeBody(k, 1)}},\n`).join('') + '};\n';
    } else if (i % 3 === 0) b = `\nexport async function like${i}(postId: string, userId: string): Promise<void> {\n  /*helper*/${likeBody(i, 0)}}\n`;
    else if (i % 3 === 1) b = `\nexport const handler${i} = async (event: { postId: string; userId: string }) => {\n  const { postId, userId } = event;\n  /*handler*/${likeBody(i, 0)}};\n`;
    else b = `\nexport class Repo${i} {\n  async save(postId: string, userId: string) {\n    /*class*/${likeBody(i, 1)}}\n}\n`;
    text += b;
    n += b.split('\n').length - 1;
  }
  return text;
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

/**
 * Median time of `update` after a one-character edit (alternating insert / delete) at `at`, by default the start of
 * the middle line; `path` receives which path the edits took and how many units they re-parsed.
 */
function afterEdit(text: string, languageId: string, maxFileSize?: number, at = text.indexOf('\n', Math.floor(text.length / 2)) + 1, path?: { update: string; reparsed: number }): number {
  const doc = createDocumentExtractor(languageId, { maxFileSize });
  doc.update(text);
  const edited = text.slice(0, at) + ' ' + text.slice(at);
  let flip = false;
  const ms = timeMs(() => {
    flip = !flip;
    return flip ? doc.update(edited, [{ start: at, end: at, text: ' ' }]) : doc.update(text, [{ start: at, end: at + 1, text: '' }]);
  }, 21, 4);
  if (path) Object.assign(path, doc.last);
  doc.dispose();
  return ms;
}

/** The offset just after a marker (or needle) found after the middle of the text, plus `skip`. */
export function middle(text: string, needle: string, skip = 0): number {
  const i = text.indexOf(needle, text.length >> 1);
  if (i < 0) throw new Error(`bench: no ${needle} after the middle`);
  return i + needle.length + skip;
}

/** One edit inside each statement shape of `tsShapesFile`, timed against a bare TypeScript parse of the same text. */
export const TS_SHAPE_EDITS: { name: string; needle: string; skip: number }[] = [
  { name: 'inside a helper function', needle: '/*helper*/', skip: 0 },
  { name: "inside a request's expression string", needle: "'ADD likes :", skip: 0 },
  { name: 'inside export const handler = async (event) => {...}', needle: '/*handler*/', skip: 0 },
  { name: 'inside module.exports = {...}', needle: '/*exports*/', skip: 0 },
  { name: 'inside a class body', needle: '/*class*/', skip: 0 },
  { name: 'inside one method of a class of 9 methods', needle: '/*classmany*/', skip: 0 },
  { name: 'inside one member of export const handlers = {...}', needle: '/*handlers*/', skip: 0 },
];

function shapeRows(ms: (x: number) => string): BenchRow[] {
  const text = tsShapesFile();
  const parse = timeMs(() => ts.createSourceFile('f.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS), 25, 3);
  return TS_SHAPE_EDITS.map((e) => {
    const path = { update: '', reparsed: 0 };
    const edit = afterEdit(text, 'typescript', undefined, middle(text, e.needle, e.skip), path);
    return {
      area: 'extract',
      name: `edit ${e.name}, ${LINES}-line TS`,
      ours: ms(edit),
      baseline: `ts.createSourceFile ${ms(parse)}`,
      ratio: edit / parse,
      note: `${path.update}, ${path.reparsed} statement(s) re-parsed; aim <= 0.25`,
    };
  });
}

/**
 * What an editor waits for after a 1-char edit in the 10 MB JSON, in process: the language service's analysis and LSP
 * diagnostics of the new version (`DynalintService.diagnostics`: incremental extraction, the rule cache, the findings
 * turned into diagnostics), against a `JSON.parse` of the same text measured right after each edit (medians).
 * The in-process parse depends on the heap the service left (young generation size, GC timing): the note also gives
 * the ratio to a `JSON.parse` of the same text in a fresh Node process, measured right after (`parseInFreshProcess`).
 */
export function jsonLintRow(text: string, maxFileSize: number): BenchRow {
  const settings = { ...DEFAULT_SETTINGS, maxFileSize };
  const service = new DynalintService();
  const doc = TextDocument.create('file:///bench/big.json', 'json', 1, text);
  const findings = service.diagnostics(doc, settings).length;
  const at = middle(text, '"SET #l', 2);
  const ours: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < 17; i++) {
    const change = i % 2 === 0 ? { range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: ' ' } : { range: { start: doc.positionAt(at), end: doc.positionAt(at + 1) }, text: '' };
    TextDocument.update(doc, [change], doc.version + 1);
    const t = process.hrtime.bigint();
    service.diagnostics(doc, settings);
    const edit = Number(process.hrtime.bigint() - t) / 1e6;
    const parse = timeMs(() => JSON.parse(doc.getText()), 1, 0);
    if (i >= 2) {
      ours.push(edit);
      parses.push(parse);
    }
  }
  const edit = median(ours);
  const parse = median(parses);
  const fresh = parseInFreshProcess(doc.getText(), 15);
  return {
    area: 'extract',
    name: `analysis + diagnostics after a 1-char edit, 10 MB JSON (${findings} findings)`,
    ours: `${edit.toFixed(1)} ms`,
    baseline: `JSON.parse ${parse.toFixed(1)} ms`,
    ratio: edit / parse,
    note: `DynalintService.diagnostics of the new version, in process; aim <= 1; JSON.parse in a fresh process ${fresh.toFixed(1)} ms (ratio ${(edit / fresh).toFixed(2)})`,
  };
}

/** Median of `runs` `JSON.parse` calls of `text` in a new Node process (its heap holds nothing else), after 2 warm-ups. */
export function parseInFreshProcess(text: string, runs: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'dynalint-bench-'));
  try {
    const file = join(dir, 'big.json');
    writeFileSync(file, text);
    const script = `const t = require('node:fs').readFileSync(process.argv[1], 'utf8'); const xs = [];
      for (let i = 0; i < ${runs + 2}; i++) { const s = process.hrtime.bigint(); JSON.parse(t); if (i >= 2) xs.push(Number(process.hrtime.bigint() - s) / 1e6); }
      xs.sort((a, b) => a - b); process.stdout.write(String(xs[xs.length >> 1]));`;
    const r = spawnSync(process.execPath, ['-e', script, file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`JSON.parse in a fresh process failed: ${r.stderr.trim().split('\n')[0]}`);
    return Number(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  const jsonPath = { update: '', reparsed: 0 };
  const jsonEdit = afterEdit(jsonText, 'json', big.maxFileSize, middle(jsonText, '"SET #l', 2), jsonPath);
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
    row(`after a 1-char edit, ${LINES}-line Python`, pyEdit, 'ts.createSourceFile (TS file)', tsParse, `incremental update / full TS parse`),
    row(`after a 1-char edit, ${LINES}-line Python`, pyEdit, 'tree-sitter parse', pyParse, 'incremental update / full tree-sitter parse of the same text'),
    row(`full extraction, ${(jsonText.length / 1048576).toFixed(0)} MB JSON (${jsonSites} requests)`, jsonFull, 'JSON.parse', jsonParse, 'extract / bare parse'),
    row(`after a 1-char edit in a string, 10 MB JSON`, jsonEdit, 'JSON.parse', jsonParse, `${jsonPath.update}, ${jsonPath.reparsed} member(s) re-visited; aim <= 1`),
    jsonLintRow(jsonText, big.maxFileSize),
    ...shapeRows(ms),
  ];
}
