/**
 * Incrementality, as a property: random edits inside every statement shape (handler arrows bound by `export const`,
 * `module.exports = {...}` methods, `exports.x = function`, class bodies, object literals of handlers, helper
 * functions, expression strings, constants read elsewhere; JSON members; Python functions and methods). After every
 * edit the incremental result must equal a fresh full extraction (sites, ranges, branch ids), and the update must have
 * taken the incremental path, re-parsing only the statement (or member) edited and the statements reading it. That an
 * edit inside one member of a class body or object literal re-extracts only that member is proved in
 * incremental-members.test.ts (which reads `TsDocument.lastMember`).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createDocumentExtractor, extract, initParsers, TextChange } from '../../../server/src/extract';
import { fcParameters } from '../../support/fc';
import { readdirSync } from 'node:fs';
import { TsDocument } from '../../../server/src/extract/typescript';
import { FIXTURES, assertSameExtraction, fixture } from './support';

/** A template with edit points: `§S` where a statement (or JSON property) may be inserted, `§Q` inside a string. */
interface Shape {
  languageId: string;
  template: string;
  statements: string[];
  strings: string[];
  /** The most units an edit may re-parse (the statement edited, plus readers of a constant it declares). */
  maxReparsed: number;
}

const TS: Shape = {
  languageId: 'typescript',
  template: `import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, PutCommand, TransactWriteCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
const client = new DynamoDBClient({});
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'Posts';
const params = { TableName: TABLE, Key: { id: 1 }, UpdateExpression: 'SET a = :a§Q' };

function helper(id: string) {
  §S
  return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id }, UpdateExpression: 'SET #n = :v§Q' }));
}

function update(p: UpdateCommandInput) {
  §S
  return doc.send(new UpdateCommand(p));
}

export const handler = async (event) => {
  §S
  if (event.x) {
    §S
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: event.id }, UpdateExpression: 'ADD n :one§Q' }));
  } else {
    await update({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET q = :q§Q' });
  }
  §S
};

module.exports = {
  async list(event) {
    §S
    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: 2 }, UpdateExpression: 'SET a = :b§Q' }));
  },
  other: async () => client.send(new UpdateItemCommand({ TableName: 'T', Key: { id: { S: 'x' } }, UpdateExpression: 'SET b = :c§Q' })),
};

exports.update = async function (event) {
  §S
  await doc.send(new UpdateCommand(params));
  await doc.send(new UpdateCommand(SENT_OP));
};

// Request-shaped literals passed to no call (a config map), and one a call of another statement takes.
export const OPS = {
  bump: { TableName: TABLE, Key: { id: 1 }, UpdateExpression: 'ADD n :one§Q' },
  guard: { Key: { id: 2 }, ConditionExpression: 'attribute_exists(id)§Q' },
  tx: { TransactItems: [{ Update: { TableName: TABLE, Key: { id: 3 }, UpdateExpression: 'SET t = :t§Q' } }] },
};
export const SENT_OP = { TableName: TABLE, Key: { id: 4 }, UpdateExpression: 'SET u = :u§Q' };

class Repo {
  constructor() {
    this.c = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  }
  async save(id) {
    §S
    return this.c.send(new PutCommand({ TableName: TABLE, Item: { id, n: 1 }, ConditionExpression: 'attribute_not_exists(id)§Q' }));
  }
}

export const wrapped = middy(async (event) => {
  §S
  await doc.send(new PutCommand({ TableName: TABLE, Item: { id: 1, fn: handler, w: wrapped, b: BYTES, s: SET }, ConditionExpression: 'attribute_not_exists(id)§Q' }));
});
const BYTES = Buffer.from('abc§Q');
const SET = docClient.createSet(['a§Q']);

class FlowDao {
  putRow = async (id) => {
    §S
    await doc.send(new PutCommand({ TableName: TABLE, Item: { id }, ConditionExpression: 'attribute_not_exists(id)§Q' }));
  };
  async run(found, id) {
    let p;
    §S
    if (found) {
      p = { TableName: TABLE, Key: { id }, UpdateExpression: 'ADD n :one§Q' };
    } else {
      p = { TableName: TABLE, Key: { id }, UpdateExpression: 'SET m = :m§Q', ...(id ? { ConditionExpression: 'attribute_exists(id)' } : {}) };
    }
    p.ReturnValues = 'ALL_NEW§Q';
    const items = [];
    items.push({ Put: { TableName: TABLE, Item: { id } } });
    §S
    await this.putRow(id);
    await doc.send(new UpdateCommand(p));
    await doc.send(new TransactWriteCommand({ TransactItems: items }));
    await this.updateItem({ id }, 'SET c = c + :inc§Q', { ':inc': 1 });
  }
}

const handlers = {
  a: async (e) => {
    §S
    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e.id }, UpdateExpression: 'SET c = :d§Q' }));
  },
};

// Many members calling each other (an edit in one member re-extracts that member alone: incremental-members.test.ts).
class FollowRepository {
  table = process.env.FOLLOWS;
  constructor() {
    this.ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  }
  async putFollow(a, b) {
    §S
    await this.ddb.send(new PutCommand({ TableName: this.table, Item: { a, b }, ConditionExpression: 'attribute_not_exists(a)§Q' }));
  }
  async follow(a, b) {
    §S
    await this.putFollow(a, b);
    await this.ddb.send(new UpdateCommand({ TableName: TABLE, Key: { id: a }, UpdateExpression: 'ADD followerCount :one§Q', ExpressionAttributeValues: { ':one': 1 } }));
  }
  async unfollow(a, b) {
    §S
    await this.ddb.send(new UpdateCommand({ TableName: TABLE, Key: { id: a }, UpdateExpression: 'ADD followerCount :m§Q', ExpressionAttributeValues: { ':m': -1 } }));
  }
}

exports.routes = {
  async get(e) {
    §S
    return this.load(e);
  },
  async load(e) {
    §S
    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e }, UpdateExpression: 'SET l = :l§Q' }));
  },
};
`,
  statements: [
    "await doc.send(new UpdateCommand({ TableName: 'X', Key: { id: 1 }, UpdateExpression: 'SET z = :z' }));",
    'if (Math.random()) { await doc.send(new PutCommand({ TableName: TABLE, Item: { id: 2 } })); } else { const y = 1; }',
    "const local = { TableName: TABLE, Key: { id: 3 }, UpdateExpression: 'REMOVE x' }; await doc.send(new UpdateCommand(local));",
    'const t = event ? 1 : 2;',
    '// a comment',
    "await update({ TableName: TABLE, Key: { id: 4 }, UpdateExpression: 'SET w = :w' });",
    "p = { TableName: 'Q', Key: { id: 5 }, UpdateExpression: 'SET q = :q' };",
    "items.push({ Delete: { TableName: TABLE, Key: { id: 6 } } });",
    'await this.putRow(7);',
    "const cfg = { go: { Key: { id: 8 }, UpdateExpression: 'SET g = :g' } };",
    "const built = { Key: { id: 9 }, UpdateExpression: 'SET h = :h' }; built.ExpressionAttributeValues = { ':h': 1 };",
    "let held = { Key: { id: 10 }, UpdateExpression: 'SET #r = :r' }; await run(held);",
  ],
  strings: [' x', ', #y = :y', ' + ', '#', 'é', 'ADD', ' :'],
  maxReparsed: 2,
};

const PY: Shape = {
  languageId: 'python',
  template: `import boto3

client = boto3.client("dynamodb")
table = boto3.resource("dynamodb").Table("Posts")
TABLE = "Posts"


def helper(pid):
    §S
    client.update_item(TableName=TABLE, Key={"id": {"S": pid}}, UpdateExpression="SET a = :a§Q")


def handler(event, context):
    §S
    if event:
        table.update_item(Key={"id": 1}, UpdateExpression="ADD n :one§Q")
    §S
    return None


class Repo:
    def __init__(self):
        self.t = boto3.resource("dynamodb").Table("T")

    def save(self, i):
        §S
        self.t.put_item(Item={"id": i}, ConditionExpression="attribute_not_exists(id)§Q")

    TOUCH = {"Key": {"id": 2}, "UpdateExpression": "SET t = :t§Q"}


# A module-level config map (an edit inside a module-level assignment re-extracts everything: no edit point here).
OPS = {
    "bump": {"TableName": TABLE, "Key": {"id": 1}, "UpdateExpression": "ADD n :one"},
    "cases": [{"Key": {"id": 3}, "UpdateExpression": "SET c = :c"}],
}
`,
  statements: [
    'table.update_item(Key={"id": 2}, UpdateExpression="SET z = :z")',
    'if event:\n        client.put_item(TableName="T", Item={"id": {"S": "a"}})',
    'x = 1',
    '# a comment',
    'cfg = {"go": {"Key": {"id": 8}, "UpdateExpression": "SET g = :g"}}',
    'built = {"Key": {"id": 9}, "UpdateExpression": "SET h = :h"}; built["ExpressionAttributeValues"] = {":h": 1}',
    'held = {"Key": {"id": 10}, "UpdateExpression": "SET #r = :r"}; run(held)',
  ],
  strings: [' x', ', #y = :y', '#', 'é', 'ADD'],
  // The statement edited, plus module-level assignments and imports (always re-queried).
  maxReparsed: 6,
};

const JSON_ARRAY: Shape = {
  languageId: 'json',
  template: `[
  {§S "TableName": "T", "Key": {"id": {"S": "1"}}, "UpdateExpression": "SET a = :a§Q", "ExpressionAttributeValues": {":a": {"N": "1"}}},
  {"note": "not a request§Q", "nested": {§S "TableName": "T", "KeyConditionExpression": "pk = :p§Q"}},
  {§S "TableName": "T", "Item": {"id": {"S": "2"}}, "ConditionExpression": "attribute_not_exists(id)§Q"}
]
`,
  statements: ['"x": 1,', '"ReturnValues": "ALL_NEW",', '"Key": {"id": {"S": "k"}},', '"a": [1, {"b": null}],'],
  strings: [' x', ', #y = :y', '#', 'é', '\\n', '\\u00e9'],
  maxReparsed: 1,
};

const JSON_OBJECT: Shape = {
  languageId: 'json',
  template: `{
  "first": {§S "TableName": "T", "Key": {"id": {"S": "1"}}, "UpdateExpression": "SET a = :a§Q"},
  "States": {"Put": {"Type": "Task", "Parameters": {§S "TableName": "T", "Item": {"id": {"S.$": "$.id"}}, "ConditionExpression": "attribute_not_exists(id)§Q"}}},
  "last": [{§S "TableName": "T", "KeyConditionExpression": "pk = :p§Q"}]
}
`,
  statements: JSON_ARRAY.statements,
  strings: JSON_ARRAY.strings,
  maxReparsed: 1,
};

interface Point {
  at: number;
  kind: 'S' | 'Q';
  indent: string;
  /** For `Q`: characters of the string before the point that an edit may delete. */
  room: number;
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
    const kind = parts[i] as 'S' | 'Q';
    const line = text.slice(text.lastIndexOf('\n') + 1);
    const quote = Math.max(line.lastIndexOf("'"), line.lastIndexOf('"'));
    points.push({ at: text.length, kind, indent: /^\s*/.exec(line)![0], room: kind === 'Q' ? line.length - quote - 1 : 0 });
  }
  return { text, points };
}

const edits = fc.array(fc.record({ point: fc.nat(), piece: fc.nat(), del: fc.nat({ max: 3 }), withChanges: fc.boolean() }), { minLength: 1, maxLength: 20 });

function check(shape: Shape, numRuns: number): void {
  fc.assert(
    fc.property(edits, (steps) => {
      let { text, points } = prepare(shape.template);
      const doc = createDocumentExtractor(shape.languageId);
      try {
        doc.update(text);
        steps.forEach((step, i) => {
          const p = points[step.point % points.length];
          let change: TextChange;
          if (p.kind === 'Q' && step.del > 0 && step.del <= p.room) change = { start: p.at - step.del, end: p.at, text: '' };
          else if (p.kind === 'Q') change = { start: p.at, end: p.at, text: shape.strings[step.piece % shape.strings.length] };
          else {
            const stmt = shape.statements[step.piece % shape.statements.length];
            change = { start: p.at, end: p.at, text: shape.languageId === 'json' ? stmt + ' ' : `${stmt}\n${p.indent}` };
          }
          text = text.slice(0, change.start) + change.text + text.slice(change.end);
          const diff = change.text.length - (change.end - change.start);
          // Deleting part of an escape would break the string: after one, nothing before the point is deleted.
          const room = (q: Point) => (q !== p ? q.room : change.text.includes('\\') ? 0 : q.room + diff);
          points = points.map((q) => (q.at > change.start || (q === p && q.kind === 'Q') ? { ...q, at: q.at + diff, room: room(q) } : q));
          const got = doc.update(text, step.withChanges ? [change] : undefined);
          assert.deepEqual(got, extract(text, shape.languageId), `after edit ${i}: ${JSON.stringify(change)}`);
          assert.equal(doc.last.update, 'incremental', `edit ${i} ${JSON.stringify(change)} took the full path`);
          assert.ok(doc.last.reparsed <= shape.maxReparsed, `edit ${i} re-parsed ${doc.last.reparsed} units`);
        });
      } finally {
        doc.dispose();
      }
    }),
    fcParameters({ numRuns }),
  );
}

describe('extract: edits inside any statement shape stay incremental and equal a full extraction', () => {
  before(() => initParsers());

  it('TypeScript: handler arrows, module.exports, exports.x = function, classes, objects of handlers, helpers, strings', () => check(TS, 60));
  it('JSON: members of a root array', () => check(JSON_ARRAY, 40));
  it('JSON: members of a root object', () => check(JSON_OBJECT, 40));
  it('Python: functions, methods and strings', () => check(PY, 40));

  for (const shape of [TS, JSON_ARRAY, JSON_OBJECT])
    it(`${shape.languageId}: edits anywhere (also breaking the syntax) still equal a full extraction`, () => {
      const pieces = ['x', '\n', '(', ')', "'", '"', '{', '}', ';', ',', 'const ', ' = ', '`', '//', 'async () => {', 'TABLE'];
      const anyEdits = fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 6 }), piece: fc.nat(), insert: fc.boolean(), withChanges: fc.boolean() }), { minLength: 1, maxLength: 15 });
      fc.assert(
        fc.property(anyEdits, (steps) => {
          let { text } = prepare(shape.template);
          const doc = createDocumentExtractor(shape.languageId);
          doc.update(text);
          steps.forEach((step, i) => {
            const start = step.at % (text.length + 1);
            const change: TextChange = { start, end: Math.min(text.length, start + step.del), text: step.insert ? pieces[step.piece % pieces.length] : '' };
            text = text.slice(0, change.start) + change.text + text.slice(change.end);
            assert.deepEqual(doc.update(text, step.withChanges ? [change] : undefined), extract(text, shape.languageId), `after edit ${i}: ${JSON.stringify(change)}`);
          });
        }),
        fcParameters({ numRuns: 60 }),
      );
    });

  it('an edit that changes what a statement declares (a name, a client, a wrapper signature) re-extracts the document', () => {
    const { text } = prepare(TS.template);
    const doc = createDocumentExtractor('typescript');
    doc.update(text);
    for (const [from, to] of [
      ['const TABLE', 'const TABLES'],
      ['function update(p: UpdateCommandInput)', 'function update(p: PutCommandInput)'],
      ['const doc = DynamoDBDocumentClient.from(client)', 'const doc = makeClient(client)'],
    ]) {
      const edited = text.replace(from, to);
      assertSameExtraction(doc.update(edited), extract(edited, 'typescript'));
      assert.equal(doc.last.update, 'full', `${from} -> ${to}`);
      assertSameExtraction(doc.update(text), extract(text, 'typescript'));
    }
  });

  it('an edit in a constant re-extracts the statements that read it, and only those', () => {
    const { text } = prepare(TS.template);
    const doc = createDocumentExtractor('typescript');
    doc.update(text);
    const edited = text.replace("UpdateExpression: 'SET a = :a'", "UpdateExpression: 'SET a = :a, b = :b'");
    const got = doc.update(edited);
    assertSameExtraction(got, extract(edited, 'typescript'));
    assert.deepEqual(doc.last, { update: 'incremental', reparsed: 2 });
    const site = got.sites.find((s) => s.enclosingFunction?.name === 'update' && s.range.start > edited.indexOf('exports.update'))!;
    assert.ok(JSON.stringify(site.params).includes('SET a = :a, b = :b'));
  });

  it('a large document parsed chunk by chunk gives the same sites as one parse (also with names declared after use)', () => {
    const late = `function early() {
  return doc.send(new UpdateCommand({ TableName: LATE, Key: { id: 1 }, UpdateExpression: 'SET a = :a' }));
}
function wrapped() {
  return put({ TableName: LATE, Item: { id: 1 } });
}
`;
    const tail = `
const LATE = 'Late';
function put(p: PutCommandInput) {
  return doc.send(new PutCommand(p));
}
`;
    const texts = readdirSync(FIXTURES)
      .filter((f) => /\.(ts|js)$/.test(f))
      .map((f) => [f, fixture(f)] as const);
    const { text } = prepare(TS.template);
    texts.push(['shapes', text], ['late names', late + text.replace(/^(import[^\n]*\n)+/, '') + tail + text.match(/^(import[^\n]*\n)+/)![0]]);
    let chunkedRuns = 0;
    for (const [name, t] of texts) {
      const languageId = name.endsWith('.js') ? 'javascript' : 'typescript';
      const host = languageId === 'javascript' ? 'javascript' : 'typescript';
      const one = new TsDocument(languageId, host, 1e9).full(t);
      const chunked = new TsDocument(languageId, host, 64);
      const spy = chunked as unknown as { fullChunked: (t: string) => unknown };
      const original = spy.fullChunked.bind(chunked);
      spy.fullChunked = (x: string) => {
        const r = original(x);
        if (r) chunkedRuns++;
        return r;
      };
      assertSameExtraction(chunked.full(t), one, name);
    }
    assert.ok(chunkedRuns >= 3, `chunked parses: ${chunkedRuns}`);
  });
});
