/**
 * Incremental rule results (rules/incremental.ts), as a property: the language service lints successive versions of a
 * document (its extractor re-extracts only the statements an edit touched, its rule cache reuses the findings of the
 * sites it handed back), and after every random edit the findings (rules, messages, ranges, related ranges, fixes)
 * must equal a fresh lint of the same text: a full extraction and every rule run without a cache. TypeScript, Python
 * and JSON; templates with findings of site rules, of rules comparing sites (separate-child-and-counter-writes,
 * set-without-if-not-exists with and without the Put that creates the item), constants shared by several requests,
 * suppression comments (used, unused, unknown), the key-schema rules against an in-memory table index and fixes that
 * add a Python import. Also: the cache really is used (most sites reused after an edit inside one statement).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { extract, initParsers } from '../../../server/src/extract';
import { DEFAULT_SETTINGS, type DynalintSettings } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import type { Finding } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';
import { TableIndex } from '../../../server/src/tables';
import { extractTables } from '../../../server/src/tables/extract';
import { fcParameters } from '../../support/fc';
import { jsonFile, tsFile } from '../../../scripts/bench/extract';
import { siteChange } from '../../../server/src/rules/incremental';

interface Shape {
  languageId: string;
  template: string;
  statements: string[];
  strings: string[];
}

const TS: Shape = {
  languageId: 'typescript',
  template: `import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, PutCommand, DeleteCommand, TransactWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
const client = new DynamoDBClient({});
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'likes';
const INCREMENT = 'SET #c = #c + :one';
const RESERVED = 'SET status = :s';

export async function like(postId: string, userId: string) {
  §S
  await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: \`POST#\${postId}\`, SK: \`LIKE#\${userId}\` } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: \`POST#\${postId}\`, SK: 'META' }, UpdateExpression: 'SET likes = likes + :one§Q', ExpressionAttributeValues: { ':one': 1 } }));
}

export const handler = async (event) => {
  §S
  // dynalint-disable-next-line reserved-word
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: event.id, SK: 'META' }, UpdateExpression: 'SET name = :n§Q', ExpressionAttributeValues: { ':n': 1, ':unused': 2 } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: event.id }, UpdateExpression: RESERVED, ExpressionAttributeValues: { ':s': 'x' } }));
  §S
};

class Repo {
  async save(id) {
    §S
    await client.send(new UpdateItemCommand({
      TableName: TABLE,
      Key: { PK: { S: id }, SK: { S: 'M' } },
      UpdateExpression: INCREMENT,
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':one': { S: '1§Q' } },
    }));
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: id, SK: 'X' }, UpdateExpression: RESERVED, ExpressionAttributeValues: { ':s': 'y' } }));
  }
}

module.exports = {
  async create(id) {
    §S
    await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: id, SK: 'META', likes: 0 } }));
    await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: { PK: id, SK: 'C#1' } } }, { Update: { TableName: TABLE, Key: { PK: id, SK: 'META' }, UpdateExpression: 'ADD likes :one§Q', ExpressionAttributeValues: { ':one': 1 } } }] }));
  },
};
// dynalint-disable-next-line set-without-if-not-exists
const unusedHere = 1; // dynalint-disable-line unknown-rule-id
`,
  statements: [
    "await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: 'a', SK: 'META' }, UpdateExpression: 'SET views = views + :one', ExpressionAttributeValues: { ':one': 1 } }));",
    "await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: 'a', SK: 'META', views: 0, likes: 1 } }));",
    "await doc.send(new DeleteCommand({ TableName: TABLE, Key: { PK: 'a', SK: 'C' } }));",
    '// dynalint-disable-next-line reserved-word',
    "await doc.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'SK = :s', ExpressionAttributeValues: { ':s': 'x' } }));",
    "await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: 'b', SK: 'S' }, UpdateExpression: RESERVED, ExpressionAttributeValues: { ':s': 'z' } }));",
    'const t = 1;',
    // Requests by shape inside a function (issue 13): a config map entry, one completed later.
    "const cfg = { go: { TableName: TABLE, Key: { PK: 'c' }, UpdateExpression: 'SET name = :n', ExpressionAttributeValues: { ':n': 1, ':u': 2 } } };",
    "let built = { Key: { PK: 'd' }, UpdateExpression: 'SET #x = :x' }; built.ExpressionAttributeNames = { '#x': 'x' };",
    // Alternatives from data flow, with fixes the alternatives agree on and one they do not.
    "let alt; if (t) { alt = { TableName: TABLE, Key: { PK: 'e' }, UpdateExpression: 'SET name = :n', ExpressionAttributeValues: { ':n': 1 } }; } else { alt = { TableName: TABLE, Key: { PK: 'f' }, UpdateExpression: 'SET a = :n', ExpressionAttributeValues: { ':n': 1, ':w': 2 }, ...(t ? { ConditionExpression: 'b = :w' } : {}) }; } await doc.send(new UpdateCommand(alt));",
  ],
  strings: [' x', ', size = :z', ' + ', '#', 'ADD', ' :', ' = count'],
};

const PY: Shape = {
  languageId: 'python',
  template: `import boto3

client = boto3.client("dynamodb")
table = boto3.resource("dynamodb").Table("likes")
TABLE = "likes"
RESERVED = "SET status = :s"


def helper(pid):
    §S
    client.update_item(TableName=TABLE, Key={"PK": {"S": pid}, "SK": {"S": "M"}}, UpdateExpression="SET a = a + :a§Q", ExpressionAttributeValues={":a": {"N": "1"}})


def handler(event, context):
    §S
    table.update_item(Key={"PK": event, "SK": "M"}, UpdateExpression="ADD n :v§Q", ExpressionAttributeValues={":v": "1.5"})
    table.update_item(Key={"PK": event, "SK": "N"}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "x"})
    # dynalint-disable-next-line reserved-word
    table.update_item(Key={"PK": event, "SK": "O"}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "y"})
    §S
    return None


def counted(pid):
    §S
    kw = {"Key": {"PK": pid}, "UpdateExpression": "ADD views :n§Q", "ExpressionAttributeValues": {":n": 1}}
    table.update_item(**kw)
    table.update_item(Key={"PK": pid, "SK": "P"}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "z"})
`,
  statements: [
    'table.put_item(Item={"PK": "a", "SK": "M", "a": 0})',
    'table.update_item(Key={"PK": "a", "SK": "M"}, UpdateExpression="SET b = b + :b", ExpressionAttributeValues={":b": "2.5"})',
    'table.delete_item(Key={"PK": "a", "SK": "C"})',
    'from decimal import Decimal',
    '# dynalint-disable-next-line add-on-non-number',
    'x = 1',
    'cfg = {"go": {"Key": {"PK": "c"}, "UpdateExpression": "SET name = :n", "ExpressionAttributeValues": {":n": 1, ":u": 2}}}',
    'built = {"Key": {"PK": "d"}, "UpdateExpression": "SET #x = :x"}; built["ExpressionAttributeNames"] = {"#x": "x"}',
    'alt = {"Key": {"PK": "e"}, "UpdateExpression": "SET a = :n", "ExpressionAttributeValues": {":n": 1, ":w": 2}}; alt["ConditionExpression"] = "b = :w" if x else "attribute_exists(PK)"; table.update_item(**alt)',
    // Source outside the call: a reserved word in a dict of the function, and one more user of the shared constant
    // (the constant's fix adds a mapping to every user, so its findings depend on who uses it).
    'kw = {"Key": {"PK": "f"}, "UpdateExpression": "SET name = :n", "ExpressionAttributeValues": {":n": 1}}; table.update_item(**kw)',
    'table.update_item(Key={"PK": "g"}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "w"})',
    'table.update_item(Key={"PK": "h"}, UpdateExpression=RESERVED, ExpressionAttributeValues={":s": "v"}, ExpressionAttributeNames={"#status": "status"})',
  ],
  strings: [' x', ', size = :z', '#', 'ADD', ' :'],
};

const JSON_ARRAY: Shape = {
  languageId: 'json',
  template: `[
  {§S "TableName": "likes", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET a = a + :a§Q", "ExpressionAttributeValues": {":a": {"S": "1"}}},
  {"note": "not a request§Q", "nested": {§S "TableName": "likes", "KeyConditionExpression": "SK = :p§Q", "ExpressionAttributeValues": {":p": {"S": "x"}}}},
  {§S "TableName": "likes", "Item": {"PK": {"S": "2"}, "SK": {"S": "M"}}, "ConditionExpression": "attribute_not_exists(name)§Q"}
]
`,
  statements: ['"x": 1,', '"ReturnValues": "ALL_NEW",', '"Key": {"PK": {"S": "k"}},', '"ExpressionAttributeNames": {"#u": "u"},'],
  strings: [' x', ', #y = :y', '#', 'é', '\\n', ' size'],
};

const TABLES = `Resources:
  Likes:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: likes
      AttributeDefinitions:
        - {AttributeName: PK, AttributeType: S}
        - {AttributeName: SK, AttributeType: S}
      KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: SK, KeyType: RANGE}]
`;

/** Every rule on (non-idempotent-counter is off by default). */
const SETTINGS: DynalintSettings = { ...DEFAULT_SETTINGS, rules: { 'non-idempotent-counter': 'info' } };

interface Point {
  at: number;
  kind: 'S' | 'Q';
  indent: string;
}

function prepare(template: string): { text: string; points: Point[] } {
  let text = '';
  const points: Point[] = [];
  const parts = template.split(/§([SQ])/);
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      text += parts[i];
      continue;
    }
    const line = text.slice(text.lastIndexOf('\n') + 1);
    points.push({ at: text.length, kind: parts[i] as 'S' | 'Q', indent: /^\s*/.exec(line)![0] });
  }
  return { text, points };
}

interface Change {
  start: number;
  end: number;
  text: string;
}

/** Findings as plain data, for a readable deep comparison. */
const plain = (fs: Finding[]) => JSON.parse(JSON.stringify(fs)) as unknown;

/** Lint `texts` one after another through one service (incremental) and compare each with a fresh lint. */
function lintsEqualFresh(shape: Shape, index: TableIndex, texts: Iterable<{ text: string; what: string }>, totals?: { reused: number; computed: number }): void {
  const service = new DynalintService();
  service.tables = index;
  const uri = `file:///w/doc.${shape.languageId === 'python' ? 'py' : shape.languageId === 'json' ? 'json' : 'ts'}`;
  let version = 0;
  for (const { text, what } of texts) {
    const got = service.analyze(TextDocument.create(uri, shape.languageId, ++version, text), SETTINGS);
    const fresh = extract(text, shape.languageId, { maxFileSize: SETTINGS.maxFileSize });
    const want = fresh.skipped ? [] : runRules(text, shape.languageId, fresh.sites, { settingsRules: SETTINGS.rules, tables: index });
    assert.deepEqual(plain(got.findings), plain(want), `${what}\n--- text ---\n${text}`);
    const stats = service.ruleCacheStats(uri);
    if (totals && stats && version > 1) {
      totals.reused += stats.reused;
      totals.computed += stats.computed;
    }
  }
}

function* statementEdits(shape: Shape, steps: { point: number; piece: number; del: number }[]): Generator<{ text: string; what: string }> {
  let { text, points } = prepare(shape.template);
  yield { text, what: 'the template' };
  for (const [i, step] of steps.entries()) {
    const p = points[step.point % points.length];
    let change: Change;
    if (p.kind === 'Q' && step.del > 0 && text[p.at - step.del - 1] !== '\\') change = { start: p.at - step.del, end: p.at, text: '' };
    else if (p.kind === 'Q') change = { start: p.at, end: p.at, text: shape.strings[step.piece % shape.strings.length] };
    else {
      const stmt = shape.statements[step.piece % shape.statements.length];
      change = { start: p.at, end: p.at, text: shape.languageId === 'json' ? stmt + ' ' : `${stmt}\n${p.indent}` };
    }
    text = text.slice(0, change.start) + change.text + text.slice(change.end);
    const diff = change.text.length - (change.end - change.start);
    points = points.map((q) => (q.at > change.start || (q === p && q.kind === 'Q') ? { ...q, at: q.at + diff } : q));
    yield { text, what: `after edit ${i}: ${JSON.stringify(change)}` };
  }
}

function* anyEdits(shape: Shape, steps: { at: number; del: number; piece: number; insert: boolean }[]): Generator<{ text: string; what: string }> {
  const pieces = ['x', '\n', '(', ')', "'", '"', '{', '}', ';', ',', ' ', '// dynalint-disable-next-line reserved-word\n', '#', 'TABLE', 'status'];
  let { text } = prepare(shape.template);
  yield { text, what: 'the template' };
  for (const [i, step] of steps.entries()) {
    const start = step.at % (text.length + 1);
    const change: Change = { start, end: Math.min(text.length, start + step.del), text: step.insert ? pieces[step.piece % pieces.length] : '' };
    text = text.slice(0, change.start) + change.text + text.slice(change.end);
    yield { text, what: `after edit ${i}: ${JSON.stringify(change)}` };
  }
}

/**
 * As `lintsEqualFresh`, but only the texts marked `lint` get their rules run: the others are extracted and given up
 * (as the language server does with a version a newer one superseded), so the cache sees several edits between lints.
 */
async function burstsEqualFresh(shape: Shape, texts: Iterable<{ text: string; what: string }>, lint: boolean[]): Promise<void> {
  const service = new DynalintService();
  const uri = `file:///w/doc.${shape.languageId === 'python' ? 'py' : 'ts'}`;
  let version = 0;
  for (const { text, what } of texts) {
    const doc = TextDocument.create(uri, shape.languageId, ++version, text);
    const last = version === 1 || lint[version % lint.length];
    const got = await service.analyzeUnlessSuperseded(doc, SETTINGS, () => last);
    if (!last) {
      assert.equal(got, undefined);
      continue;
    }
    const fresh = extract(text, shape.languageId, { maxFileSize: SETTINGS.maxFileSize });
    const want = fresh.skipped ? [] : runRules(text, shape.languageId, fresh.sites, { settingsRules: SETTINGS.rules });
    assert.deepEqual(plain(got!.findings), plain(want), `${what}\n--- text ---\n${text}`);
  }
}

const statementSteps = fc.array(fc.record({ point: fc.nat(), piece: fc.nat(), del: fc.nat({ max: 3 }) }), { minLength: 1, maxLength: 15 });
const anySteps = fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 6 }), piece: fc.nat(), insert: fc.boolean() }), { minLength: 1, maxLength: 12 });

describe('rules: incremental lint (service, successive versions) equals a fresh lint', () => {
  let index: TableIndex;
  before(async () => {
    await initParsers();
    index = TableIndex.from([extractTables('file:///w/template.yaml', 'template.yaml', TABLES, 'yaml')]);
  });

  for (const shape of [TS, PY, JSON_ARRAY]) {
    it(`${shape.languageId}: edits inside statements and strings`, () => {
      const totals = { reused: 0, computed: 0 };
      fc.assert(
        fc.property(statementSteps, (steps) => lintsEqualFresh(shape, index, statementEdits(shape, steps), totals)),
        fcParameters({ numRuns: 25 }),
      );
      // Sites handed back untouched by an edit inside one statement have their findings reused.
      assert.ok(totals.reused > 0, `reused ${totals.reused}, computed ${totals.computed}`);
    });

    it(`${shape.languageId}: edits anywhere (also breaking the syntax)`, () => {
      fc.assert(
        fc.property(anySteps, (steps) => lintsEqualFresh(shape, index, anyEdits(shape, steps))),
        fcParameters({ numRuns: 25 }),
      );
    });
  }

  for (const shape of [TS, PY])
    it(`${shape.languageId}: several edits between lints (extracted, not linted): suppression comments, Puts and users of constants added and removed`, async () => {
      await fc.assert(
        fc.asyncProperty(statementSteps, anySteps, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), async (steps, more, lint) => {
          await burstsEqualFresh(shape, statementEdits(shape, steps), lint);
          await burstsEqualFresh(shape, anyEdits(shape, more), lint);
        }),
        fcParameters({ numRuns: 20 }),
      );
    });

  it('nothing is kept per version: the sites of earlier versions can be collected after edits in other statements', async () => {
    // A full collection on demand (mocha runs without --expose-gc).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Functions using a shared constant with a fix (carried usersOf answers), Puts (the Put index built from the one
    // before) and counters (separate-child-and-counter-writes' count).
    let text = tsFile(120);
    const service = new DynalintService();
    const uri = 'file:///w/versions.ts';
    let version = 0;
    const lint = () => service.analyze(TextDocument.create(uri, 'typescript', ++version, text), SETTINGS);
    const early: WeakRef<object>[] = [];
    const sites: WeakRef<object>[] = [];
    let from = 0;
    for (let i = 0; i < 8; i++) {
      const at = text.indexOf("'ADD likes :", from) + 4;
      from = at + 2000;
      text = text.slice(0, at) + ' ' + text.slice(at);
      const a = lint();
      if (i < 3) early.push(new WeakRef(a.sites));
      if (i < 3) for (const site of a.sites) sites.push(new WeakRef(site));
    }
    const last = new Set<object>(lint().sites);
    // A WeakRef's target is kept until the job that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    gc();
    assert.deepEqual(
      early.map((w) => w.deref() === undefined),
      [true, true, true],
    );
    // The sites of the statements edited since (replaced by the re-extraction) are let go too, but for one generation:
    // the function the last edit replaced (tsFile's functions hold four requests) is still what the last lint went from.
    const kept = sites.filter((w) => {
      const site = w.deref();
      return site !== undefined && !last.has(site);
    });
    assert.ok(kept.length <= 4, `${kept.length} of ${sites.length}`);
  });

  it('an edit inside one function of a large file recomputes only that function\'s sites', () => {
    const text = tsFile(2000);
    const service = new DynalintService();
    const uri = 'file:///w/big.ts';
    const first = service.analyze(TextDocument.create(uri, 'typescript', 1, text), SETTINGS);
    const at = text.indexOf("'ADD likes :one'", text.length >> 1) + 4;
    const edited = text.slice(0, at) + ' ' + text.slice(at);
    const got = service.analyze(TextDocument.create(uri, 'typescript', 2, edited), SETTINGS);
    assert.deepEqual(plain(got.findings), plain(runRules(edited, 'typescript', extract(edited, 'typescript').sites, { settingsRules: SETTINGS.rules })));
    const stats = service.ruleCacheStats(uri)!;
    // tsFile's functions hold four requests each: the edited one's are re-extracted, every other site is reused.
    assert.ok(stats.computed <= 4, JSON.stringify(stats));
    assert.equal(stats.reused, first.sites.length - stats.computed, JSON.stringify(stats));
    assert.equal(stats.volatile, 0);
  });

  it('set-without-if-not-exists: a Put that creates the item appears, changes and goes in another statement (cached updates asked again)', () => {
    const head = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
`;
    const update = (i: number) => `export async function bump${i}(id) {
  await doc.send(new UpdateCommand({ TableName: 'likes', Key: { PK: id, SK: 'META' }, UpdateExpression: 'SET views = views + :one', ExpressionAttributeValues: { ':one': 1 } }));
}
`;
    const put = (sk: string, extra = '') => `export async function create(id) {
  await doc.send(new PutCommand({ TableName: 'likes', Item: { PK: id, SK: '${sk}', views: 0 } }));${extra}
}
`;
    const updates = [0, 1, 2, 3].map(update).join('\n');
    const versions = [
      head + updates + put('OTHER'),
      head + updates + put('META'),
      head + updates + put('META', '\n  // edited'),
      head + updates + put('OTHER'),
      head + updates,
      head + updates + put('META'),
      // The creating Put goes and no other comes (the Put index built from the one before drops it).
      head + updates,
      head + updates + put('META') + put('OTHER').replace('create', 'other'),
      head + updates + put('OTHER').replace('create', 'other'),
    ];
    // The service's lints one after another (each Put index takes over the answers of the one before), then fresh ones.
    const service = new DynalintService();
    const got = versions.map((text, i) => plain(service.analyze(TextDocument.create('file:///w/puts.ts', 'typescript', i + 1, text), SETTINGS).findings));
    const want = versions.map((text) => runRules(text, 'typescript', extract(text, 'typescript').sites, { settingsRules: SETTINGS.rules }));
    assert.deepEqual(got, want.map(plain));
    // The creating Put silences all four updates; without it each is reported.
    assert.deepEqual(
      want.map((fs) => fs.filter((f) => f.ruleId === 'set-without-if-not-exists').length),
      [4, 0, 0, 4, 4, 0, 4, 0, 4],
    );
  });

  it('a fix writing a placeholder into a shared constant: users added and removed in other statements (carried answers)', () => {
    const head = `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const INCREMENT = 'SET likes = likes + :one';
`;
    const user = (name: string, zero: boolean, expression = 'INCREMENT') => `export async function ${name}(id) {
  await doc.send(new UpdateCommand({ TableName: 't', Key: { PK: id }, UpdateExpression: ${expression}, ExpressionAttributeValues: { ':one': 1${zero ? ", ':zero': 0" : ''} } }));
}
`;
    // The fix of the first request wraps the read in if_not_exists(likes, :zero) inside INCREMENT: every request
    // using INCREMENT must define :zero, so a user without it (c) withholds the fix, and c no longer using it gives
    // it back (every edit stays inside one statement after the first request's: its finding and fix are reused).
    const versions = [
      head + user('a', false) + user('b', true) + user('c', true),
      head + user('a', false) + user('b', true) + user('c', false),
      head + user('a', false) + user('b', true, 'INCREMENT ') + user('c', false),
      head + user('a', false) + user('b', true) + user('c', false, "'SET likes = likes + :one'"),
      head + user('a', false) + user('b', true) + user('c', false, "'SET likes = likes + :one' "),
      head + user('a', false) + user('b', true) + user('c', false),
    ];
    const service = new DynalintService();
    const got = versions.map((text, i) => plain(service.analyze(TextDocument.create('file:///w/shared.ts', 'typescript', i + 1, text), SETTINGS).findings));
    const want = versions.map((text) => runRules(text, 'typescript', extract(text, 'typescript').sites, { settingsRules: SETTINGS.rules }));
    assert.deepEqual(got, want.map(plain));
    const wraps = (fs: Finding[]) => fs.some((f) => f.ruleId === 'set-without-if-not-exists' && f.fixes?.some((x) => x.title.startsWith('Wrap')));
    assert.deepEqual(want.map(wraps), [true, false, false, true, true, false]);
  });

  it('python: the fix of a shared constant with a reserved word, users added, edited and removed in other functions (kept sharers answers)', () => {
    const head = `import boto3

table = boto3.resource("dynamodb").Table("likes")
RESERVED = "SET status = :s"
`;
    const user = (name: string, extra = '', expression = 'RESERVED') => `

def ${name}(pk):
    table.update_item(Key={"PK": pk}, UpdateExpression=${expression}, ExpressionAttributeValues={":s": "x"})${extra}
`;
    // A reserved word in a dict outside the call: its fix asks who else uses the dict (nobody), every lint.
    const kw = (name: string, extra = '') => `

def ${name}(pk):
    kw = {"Key": {"PK": pk}, "UpdateExpression": "SET views = :v", "ExpressionAttributeValues": {":v": 1}}
    table.update_item(**kw)${extra}
`;
    // The first user's finding carries the fix for RESERVED, with a mapping added to every user: each version adds,
    // edits or removes a user (or edits elsewhere) in another function, so the first user's site comes back each time.
    const versions = [
      head + user('a') + user('b') + kw('c'),
      head + user('a') + user('b') + kw('c') + user('d'),
      head + user('a') + user('b', '\n    x = 1') + kw('c') + user('d'),
      head + user('a') + user('b', '\n    x = 1') + kw('c', '\n    y = 2') + user('d'),
      head + user('a') + user('b', '\n    x = 1') + kw('c', '\n    y = 2') + user('d', '', '"SET x = :s"'),
      head + user('a') + user('b', '\n    x = 1') + kw('c', '\n    y = 2') + user('d') + kw('e'),
      head + user('a') + kw('c', '\n    y = 2') + user('d') + kw('e'),
      head + user('a') + kw('c', '\n    y = 2') + user('d', '', 'RESERVED, ExpressionAttributeNames={"#status": "status"}') + kw('e'),
    ];
    const service = new DynalintService();
    let dependent = 0;
    const got = versions.map((text, i) => {
      const findings = plain(service.analyze(TextDocument.create('file:///w/shared.py', 'python', i + 1, text), SETTINGS).findings);
      dependent += service.ruleCacheStats('file:///w/shared.py')!.dependent;
      return findings;
    });
    const want = versions.map((text) => runRules(text, 'python', extract(text, 'python').sites, { settingsRules: SETTINGS.rules }));
    assert.deepEqual(got, want.map(plain));
    // The constant's fix edits one place per user: the constant, then a names map for each user without one.
    const edits = (fs: Finding[]) => fs.find((f) => f.ruleId === 'reserved-word' && f.range.start === head.indexOf('status'))?.fixes?.[0]?.edits.length;
    assert.deepEqual(want.map(edits), [3, 4, 4, 4, 3, 4, 3, 3]);
    // The sites whose findings depend on who else uses their source were reused (and checked), not recomputed.
    assert.ok(dependent >= 10, `dependent ${dependent}`);
  });

  it('a change of the table definitions, of the settings or a CRLF document relints what the cache held', () => {
    const service = new DynalintService();
    const idx = TableIndex.from([extractTables('file:///w/template.yaml', 'template.yaml', TABLES, 'yaml')]);
    service.tables = idx;
    const { text } = prepare(TS.template);
    const uri = 'file:///w/a.ts';
    const fresh = (t: string, settings: DynalintSettings) => plain(runRules(t, 'typescript', extract(t, 'typescript').sites, { settingsRules: settings.rules, tables: idx }));
    let v = 0;
    const lint = (t: string, settings = SETTINGS) => plain(service.analyze(TextDocument.create(uri, 'typescript', ++v, t), settings).findings);
    assert.deepEqual(lint(text), fresh(text, SETTINGS));
    idx.removeFile('file:///w/template.yaml');
    assert.deepEqual(lint(text), fresh(text, SETTINGS));
    const off: DynalintSettings = { ...SETTINGS, rules: { 'reserved-word': 'off', 'set-without-if-not-exists': 'error' } };
    assert.deepEqual(lint(text, off), fresh(text, off));
    const crlf = text.replace(/\n/g, '\r\n');
    assert.deepEqual(lint(crlf), fresh(crlf, SETTINGS));
    assert.deepEqual(lint(text), fresh(text, SETTINGS));
  });

  it('siteChange after edits: fresh and gone are exactly the sites new since the last lint and those not handed back (the cache walks the last sites in order)', () => {
    const settings = { ...DEFAULT_SETTINGS, maxFileSize: 16 << 20 };
    for (const [languageId, start] of [['typescript', tsFile(400)], ['json', jsonFile(40_000)]] as const) {
      const svc = new DynalintService();
      const doc = TextDocument.create(`file:///walk.${languageId}`, languageId, 1, start);
      let prev = svc.analyze(doc, settings).sites;
      let seed = 7;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
      const pieces = [' ', '', '\n', '}', '{', '"', "'", 'x', '\n\n'];
      for (let i = 0; i < 40; i++) {
        const text = doc.getText();
        // Mostly one-character edits, sometimes a line moved up (sites reordered) or a block deleted.
        const at = rand(text.length);
        if (i % 9 === 8) {
          const a = text.lastIndexOf('\n', at) + 1;
          const b = text.indexOf('\n', at) + 1 || text.length;
          const line = text.slice(a, b);
          TextDocument.update(doc, [{ range: { start: doc.positionAt(a), end: doc.positionAt(b) }, text: '' }], doc.version + 1);
          const to = Math.max(0, doc.getText().lastIndexOf('\n', Math.max(0, a - 2000)) + 1);
          TextDocument.update(doc, [{ range: { start: doc.positionAt(to), end: doc.positionAt(to) }, text: line }], doc.version + 1);
        } else {
          const del = i % 7 === 6 ? rand(400) : rand(2);
          TextDocument.update(doc, [{ range: { start: doc.positionAt(at), end: doc.positionAt(Math.min(text.length, at + del)) }, text: pieces[rand(pieces.length)] }], doc.version + 1);
        }
        const sites = svc.analyze(doc, settings).sites;
        const change = siteChange(sites);
        if (sites === prev) continue;
        assert.ok(change, `v${doc.version}: a change`);
        assert.equal(change.prev, prev);
        const before = new Set(prev);
        const now = new Set(sites);
        assert.deepEqual(new Set(change.fresh), new Set(sites.filter((s) => !before.has(s))), `v${doc.version}: fresh`);
        assert.deepEqual(new Set(change.gone), new Set(prev.filter((s) => !now.has(s))), `v${doc.version}: gone`);
        assert.equal(new Set(change.gone).size, change.gone.length, `v${doc.version}: gone listed once`);
        prev = sites;
      }
    }
  });
});
