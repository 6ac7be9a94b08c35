/**
 * Sub-statement units (issue 11): an edit inside one function member of a class body, of `module.exports = {...}` /
 * `exports.x = {...}` / `export default {...}` or of `const x = {...}` re-extracts that member alone (`TsDocument.memberEdit`). As a property: after
 * random edits (statements typed into members, characters typed into strings, and edits anywhere, also breaking the
 * syntax) the result equals a fresh full extraction (sites, ranges, branch ids, enclosing functions, forwarded
 * copies); edits at points marked `§M` / `§Q` (members no other member calls, statements that change nothing the
 * other members see) took the member path, and every site outside the edited member is the same object as before
 * (the rule cache reuses it).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import ts from 'typescript';
import { RequestSite } from '../../../server/src/extract/model';
import { TsDocument } from '../../../server/src/extract/typescript';
import { fcParameters } from '../../support/fc';

/**
 * Edit points: `§M` a statement point in a member the member path must take, `§S` one where it may not (a helper other
 * members call, a constructor setting a client), `§Q` / `§q` the same inside a string.
 */
const TEMPLATE = `import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, PutCommand, DeleteCommand, QueryCommand, TransactWriteCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
const client = new DynamoDBClient({});
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'Posts';

function update(p: UpdateCommandInput) {
  return doc.send(new UpdateCommand(p));
}

module.exports = {
  async handle0(event) {
    §M
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: event.id }, UpdateExpression: 'ADD n :one§Q', ExpressionAttributeValues: { ':one': 1 } }));
  },
  async handle1(event) {
    §M
    await this.save(event.id);
    if (event.x) {
      §M
      await update({ TableName: TABLE, Key: { id: 1 }, UpdateExpression: 'SET q = :q§Q' });
    } else {
      await this.counter(event.id);
    }
  },
  async save(id) {
    §S
    return doc.send(new PutCommand({ TableName: TABLE, Item: { id }, ConditionExpression: 'attribute_not_exists(id)§q' }));
  },
  async counter(id) {
    §S
    if (id) await doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: 'c' }, UpdateExpression: 'ADD followerCount :one§q', ExpressionAttributeValues: { ':one': 1 } }));
    await this.save(id);
  },
  other: async (e) => client.send(new UpdateItemCommand({ TableName: 'T', Key: { id: { S: 'x' } }, UpdateExpression: 'SET b = :c§Q' })),
  handle2: async function (event) {
    §M
    const params = { TableName: TABLE, Key: { id: 1 }, UpdateExpression: 'SET a = :a§Q' };
    params.ExpressionAttributeValues = { ':a': 1 };
    await doc.send(new UpdateCommand(params));
  },
  shape: { Key: { id: 2 }, UpdateExpression: 'SET g = :g§q' },
};

exports.api = {
  async get(e) {
    §M
    const items = [];
    items.push({ Put: { TableName: TABLE, Item: { id: e } } });
    §M
    await doc.send(new TransactWriteCommand({ TransactItems: items }));
  },
  async put(e) {
    §M
    return doc.send(new PutCommand({ TableName: TABLE, Item: { id: e }, ConditionExpression: 'attribute_not_exists(id)§Q' }));
  },
};

export default {
  async fetch(e) {
    §M
    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e }, UpdateExpression: 'SET f = :f§Q' }));
  },
  scheduled: async (e) => {
    §M
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: { id: e }, ConditionExpression: 'attribute_exists(id)§Q' }));
  },
};

export class PostRepository {
  table = process.env.POSTS_TABLE;
  c = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  constructor(x) {
    §S
    this.other = DynamoDBDocumentClient.from(client);
  }
  putRow = async (id) => {
    §S
    await this.c.send(new PutCommand({ TableName: this.table, Item: { id }, ConditionExpression: 'attribute_not_exists(id)§q' }));
  };
  async like(id) {
    §M
    await this.putRow(id);
    await this.c.send(new UpdateCommand({ TableName: this.table, Key: { id }, UpdateExpression: 'ADD likes :one§Q', ExpressionAttributeValues: { ':one': 1 } }));
  }
  async unlike(id) {
    §M
    await this.c.send(new DeleteCommand({ TableName: this.table, Key: { id } }));
    await this.updateItem({ id }, 'SET c = c - :one§Q', { ':one': 1 });
  }
  async list(id) {
    let p;
    §M
    if (id) {
      p = { TableName: TABLE, KeyConditionExpression: 'pk = :p§Q', ExpressionAttributeValues: { ':p': id } };
    } else {
      p = { TableName: TABLE, KeyConditionExpression: 'pk = :q', ExpressionAttributeValues: { ':q': 1 } };
    }
    return this.c.send(new QueryCommand(p));
  }
  get name() {
    §M
    return 'posts§Q';
  }
  async count(id) {
    §M
    return this.other.update({ TableName: TABLE, Key: { id }, UpdateExpression: 'SET n = :n§Q' });
  }
}

class Shadow {
  // A local \`update\` is a helper name too (\`f:update\`): second's bare call makes first a called member.
  async first() {
    §S
    const update = (p) => p;
    return update(1);
  }
  async second() {
    §M
    await update({ TableName: TABLE, Key: { id: 3 }, UpdateExpression: 'SET s = :s§Q' });
  }
}

export const handlers = {
  a: async (e) => {
    §M
    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e.id }, UpdateExpression: 'SET c = :d§Q' }));
  },
  async b(e) {
    §M
    await this.c2(e);
    return doc.send(new PutCommand({ TableName: TABLE, Item: { id: e }, ConditionExpression: 'attribute_not_exists(id)§Q' }));
  },
  async c2(e) {
    §S
    return doc.send(new DeleteCommand({ TableName: TABLE, Key: { id: e }, ConditionExpression: 'attribute_exists(id)§q' }));
  },
  name: 'handlers§q',
};

// Read by its own members (what a member's request holds is the literal, with the other members' text): never member edits.
const selfish = {
  a: async (e) => doc.send(new PutCommand({ TableName: TABLE, Item: { id: e, h: selfish } })),
  b: async (e) => {
    §S
    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e }, UpdateExpression: 'SET b = :b§q' }));
  },
};

// Read by another statement (a value of its request): an edit in it re-extracts that statement too.
const routes = {
  async list(e) {
    §S
    return doc.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :p§q', ExpressionAttributeValues: { ':p': e } }));
  },
};

export async function register() {
  await doc.send(new PutCommand({ TableName: TABLE, Item: { id: 'routes', r: routes } }));
}
`;

/** Statements that change nothing another member sees: typed at a `§M` point, the member path must be taken. */
const SAFE = [
  "doc.send(new UpdateCommand({ TableName: 'X', Key: { id: 1 }, UpdateExpression: 'SET z = :z' }));",
  'if (Math.random()) { doc.send(new PutCommand({ TableName: TABLE, Item: { id: 2 } })); } else { const y = 1; }',
  "const local = { TableName: TABLE, Key: { id: 3 }, UpdateExpression: 'REMOVE x' }; doc.send(new UpdateCommand(local));",
  '// a comment',
  "update({ TableName: TABLE, Key: { id: 4 }, UpdateExpression: 'SET w = :w' });",
  'this.putRow(7);',
  'this.save(8);',
  'this.counter(9);',
  "const cfg = { go: { Key: { id: 8 }, UpdateExpression: 'SET g = :g' } };",
  "this.updateItem({ id: 9 }, 'SET h = h + :one', { ':one': 1 });",
  'const t = Math.random() ? 1 : 2;',
];

/** Statements that may change what other members see (a wrapper's name declared locally, a client, a require, repository words). */
const RISKY = [
  'const update = (p) => p;',
  'this.other = DynamoDBDocumentClient.from(client);',
  "const { PutCommand: P } = require('@aws-sdk/lib-dynamodb');",
  'dynamoTable();',
  'function save() {}',
];

const STRINGS = [' x', ', #y = :y', ' + ', '#', 'é', 'ADD', ' :'];

interface Point {
  at: number;
  kind: 'M' | 'S' | 'Q' | 'q';
  indent: string;
  room: number;
}

function prepare(template: string): { text: string; points: Point[] } {
  let text = '';
  const points: Point[] = [];
  const parts = template.split(/§([MSQq])/);
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      text += parts[i];
      continue;
    }
    const kind = parts[i] as Point['kind'];
    const line = text.slice(text.lastIndexOf('\n') + 1);
    const quote = Math.max(line.lastIndexOf("'"), line.lastIndexOf('"'));
    points.push({ at: text.length, kind, indent: /^\s*/.exec(line)![0], room: kind === 'Q' || kind === 'q' ? line.length - quote - 1 : 0 });
  }
  return { text, points };
}

/** The member of a top-level class body or `x = {...}` holding an offset: its span in the text. */
function memberSpan(text: string, at: number): { start: number; end: number } | undefined {
  const sf = ts.createSourceFile('f.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const st of sf.statements) {
    const init = ts.isVariableStatement(st) ? st.declarationList.declarations[0].initializer : undefined;
    const members =
      ts.isClassDeclaration(st) ? st.members
      : ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression) && ts.isObjectLiteralExpression(st.expression.right) ? st.expression.right.properties
      : ts.isExportAssignment(st) && ts.isObjectLiteralExpression(st.expression) ? st.expression.properties
      : init && ts.isObjectLiteralExpression(init) ? init.properties
      : undefined;
    for (const m of members ?? []) if (m.pos <= at && at < m.end) return { start: m.pos, end: m.end };
  }
  return undefined;
}

function statementIndex(text: string, at: number): number {
  const sf = ts.createSourceFile('f.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return sf.statements.findIndex((st) => st.pos <= at && at < st.end);
}

const fresh = (text: string) => new TsDocument('typescript', 'typescript').full(text);
/** Sites as JSON: a compact node's offsets are private fields (core/compact.ts), which deepEqual does not see. */
const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

describe('extract: an edit inside one member of a class body or object literal re-extracts that member alone', () => {
  it('equals a full extraction, takes the member path where it may and hands back the other members\' sites', () => {
    const steps = fc.array(fc.record({ point: fc.nat(), piece: fc.nat(), del: fc.nat({ max: 3 }), risky: fc.nat({ max: 4 }) }), { minLength: 1, maxLength: 20 });
    let memberEdits = 0;
    fc.assert(
      fc.property(steps, (edits) => {
        let { text, points } = prepare(TEMPLATE);
        const doc = new TsDocument('typescript', 'typescript');
        let prev = doc.full(text);
        const log: string[] = [];
        // Top-level statements a risky statement was typed into: their members may stay on the statement path.
        const tainted = new Set<number>();
        edits.forEach((step, i) => {
          const p = points[step.point % points.length];
          const string = p.kind === 'Q' || p.kind === 'q';
          const risky = !string && step.risky === 0;
          let change: { start: number; end: number; text: string };
          if (string && step.del > 0 && step.del <= p.room) change = { start: p.at - step.del, end: p.at, text: '' };
          else if (string) change = { start: p.at, end: p.at, text: STRINGS[step.piece % STRINGS.length] };
          else change = { start: p.at, end: p.at, text: `${(risky ? RISKY : SAFE)[step.piece % (risky ? RISKY : SAFE).length]}\n${p.indent}` };
          text = text.slice(0, change.start) + change.text + text.slice(change.end);
          const diff = change.text.length - (change.end - change.start);
          points = points.map((q) => (q.at > change.start || (q === p && string) ? { ...q, at: q.at + diff, room: q === p ? q.room + diff : q.room } : q));
          const got = doc.update(text, { start: change.start, oldEnd: change.end, newEnd: change.start + change.text.length });
          const what = `edit ${i} ${JSON.stringify(change)}`;
          assert.deepEqual(json(got), json(fresh(text)), `after ${what}; before: ${log.join(' / ')}`);
          assert.ok(doc.lastWasIncremental, `${what} took the full path`);
          if (risky) tainted.add(statementIndex(text, change.start));
          if (((p.kind === 'M' && !risky) || p.kind === 'Q') && !tainted.has(statementIndex(text, change.start))) assert.ok(doc.lastMember, `${what} did not take the member path; before: ${log.join(' / ')}`);
          if (doc.lastMember) {
            memberEdits++;
            const span = memberSpan(text, change.start)!;
            const before = new Set<RequestSite>(prev);
            for (const s of got) if (s.range.start < span.start || s.range.start >= span.end) assert.ok(before.has(s), `${what}: a site outside the member is a new object`);
          }
          log.push(`${what} member path: ${doc.lastMember}`);
          prev = got;
        });
      }),
      fcParameters({ numRuns: 80 }),
    );
    assert.ok(memberEdits > 100, `member edits: ${memberEdits}`);
  });

  it('edits anywhere (also breaking the syntax, joining or splitting members) still equal a full extraction', () => {
    const pieces = ['x', '\n', '(', ')', "'", '"', '{', '}', ';', ',', 'const ', ' = ', '`', '/*', 'async () => {', 'TABLE', '}, async m() {', 'this.save(1);', 'save'];
    // Few edits per run: once a string is left open a literal swallows the rest of the file, and every extraction of
    // that text takes ~1-2 s here (the data flow re-reads the swallowed text per name; so before sub-statement units).
    const anyEdits = fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 6 }), piece: fc.nat(), insert: fc.boolean() }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(anyEdits, (steps) => {
        let { text } = prepare(TEMPLATE);
        const doc = new TsDocument('typescript', 'typescript');
        doc.full(text);
        steps.forEach((step, i) => {
          const start = step.at % (text.length + 1);
          const change = { start, end: Math.min(text.length, start + step.del), text: step.insert ? pieces[step.piece % pieces.length] : '' };
          text = text.slice(0, change.start) + change.text + text.slice(change.end);
          assert.deepEqual(doc.update(text, { start: change.start, oldEnd: change.end, newEnd: change.start + change.text.length }), fresh(text), `after edit ${i}: ${JSON.stringify(change)}`);
        });
      }),
      fcParameters({ numRuns: 25 }),
    );
  });

  it('a member another member calls is re-extracted with its statement (the callers\' forwarded copies change)', () => {
    const { text } = prepare(TEMPLATE);
    const doc = new TsDocument('typescript', 'typescript');
    doc.full(text);
    const at = text.indexOf("attribute_not_exists(id)'") + 'attribute_not_exists(id)'.length;
    const edited = `${text.slice(0, at)} AND attribute_not_exists(sk)${text.slice(at)}`;
    const got = doc.update(edited, { start: at, oldEnd: at, newEnd: at + ' AND attribute_not_exists(sk)'.length });
    assert.deepEqual(json(got), json(fresh(edited)));
    assert.ok(doc.lastWasIncremental && !doc.lastMember);
    const copies = got.filter((s) => s.forwarded?.from && JSON.stringify(s.params).includes('attribute_not_exists(sk)'));
    // handle1 -> save, counter -> save, handle1 -> counter -> save.
    assert.equal(copies.length, 3);
  });

  it('a member calling another member forwards that member\'s requests (also two helpers deep) when re-extracted alone', () => {
    const { text } = prepare(TEMPLATE);
    const doc = new TsDocument('typescript', 'typescript');
    doc.full(text);
    const at = text.indexOf('await this.save(event.id);');
    const edited = `${text.slice(0, at)}// x\n    ${text.slice(at)}`;
    const got = doc.update(edited, { start: at, oldEnd: at, newEnd: at + '// x\n    '.length });
    assert.deepEqual(json(got), json(fresh(edited)));
    assert.ok(doc.lastMember);
    const handle1 = got.filter((s) => s.enclosingFunction?.name === 'handle1' && s.forwarded?.from);
    assert.deepEqual(handle1.map((s) => s.api).sort(), ['PutItem', 'PutItem', 'UpdateItem']);
  });

  it('const x = {...}: a member edit keeps the declaration other statements read up to date; read by another statement, the statement path', () => {
    let { text } = prepare(TEMPLATE);
    const doc = new TsDocument('typescript', 'typescript');
    doc.full(text);
    const edit = (from: string, to: string) => {
      const at = text.indexOf(from);
      assert.ok(at >= 0, from);
      text = text.slice(0, at) + to + text.slice(at + from.length);
      const got = doc.update(text, { start: at, oldEnd: at + from.length, newEnd: at + to.length });
      assert.deepEqual(json(got), json(fresh(text)), `${from} -> ${to}`);
      return got;
    };
    // Inside handlers.a (nobody reads handlers): the member path, the statement parsed again for its declaration.
    edit("UpdateExpression: 'SET c = :d'", "UpdateExpression: 'SET c = :d, e = :e'");
    assert.ok(doc.lastMember);
    edit('return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e.id }', 'const extra = 1;\n    return doc.send(new UpdateCommand({ TableName: TABLE, Key: { id: e.id }');
    assert.ok(doc.lastMember);
    // Another statement starts reading it: what it reads is the literal as it is now (the member's new text).
    const got = edit("Item: { id: 'routes', r: routes }", "Item: { id: 'routes', r: routes, h: handlers }");
    assert.ok(doc.lastWasIncremental);
    assert.ok(JSON.stringify(got.find((s) => s.enclosingFunction?.name === 'register')!.params).includes('const extra = 1'));
    // Now read: an edit inside it re-extracts the reader as well.
    edit("UpdateExpression: 'SET c = :d, e = :e'", "UpdateExpression: 'SET c = :d'");
    assert.ok(doc.lastWasIncremental && !doc.lastMember);
    assert.equal(doc.lastReparsed, 2);
    // routes is read by register from the start.
    edit("'pk = :p', ExpressionAttributeValues: { ':p': e }", "'pk = :p AND sk = :s', ExpressionAttributeValues: { ':p': e }");
    assert.ok(doc.lastWasIncremental && !doc.lastMember);
    assert.equal(doc.lastReparsed, 2);
  });
});
