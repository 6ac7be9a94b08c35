/**
 * A function declared to return a request input type (`(): UpdateCommandInput`, `Promise<PutItemCommandInput>`,
 * `DocumentClient.UpdateItemInput`) builds that request: every object literal it returns is extracted as one, with its
 * API and value style taken from the type. Returns of nested functions and untyped functions are not.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, extract, initParsers, prop, str } from '../../../server/src/extract';

const LIB = `import { UpdateCommandInput, QueryCommandInput } from '@aws-sdk/lib-dynamodb';\nimport type { PutItemCommandInput } from '@aws-sdk/client-dynamodb';\n`;

const CASES: { name: string; code: string; want: [string, string, string][] }[] = [
  {
    name: 'a function declaration returning a literal',
    code: `${LIB}export function build(id: string, qty: number): UpdateCommandInput {\n  return { TableName: 'Stock', Key: { id }, UpdateExpression: 'SET stock = stock - :q', ExpressionAttributeValues: { ':q': qty } };\n}\n`,
    want: [['UpdateItem', 'document', 'SET stock = stock - :q']],
  },
  {
    name: 'an arrow function with a concise body',
    code: `${LIB}const incr = (id: string): UpdateCommandInput => ({ TableName: 'T', Key: { id }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } });\n`,
    want: [['UpdateItem', 'document', 'ADD n :one']],
  },
  {
    name: 'an async method returning Promise<PutItemCommandInput> (low-level), two returns',
    code: `${LIB}class Repo {\n  async put(ok: boolean): Promise<PutItemCommandInput> {\n    if (ok) return { TableName: 'T', Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' };\n    return { TableName: 'T', Item: { pk: { S: 'b' } }, ConditionExpression: 'attribute_exists(pk)' };\n  }\n}\n`,
    want: [
      ['PutItem', 'low-level', 'attribute_not_exists(pk)'],
      ['PutItem', 'low-level', 'attribute_exists(pk)'],
    ],
  },
  {
    name: 'a nested untyped callback inside a typed function is not the typed return',
    code: `${LIB}export function q(): QueryCommandInput {\n  const pick = () => { return { TableName: 'Other', x: 1 }; };\n  pick();\n  return { TableName: 'T', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' } };\n}\n`,
    want: [['Query', 'document', 'pk = :p']],
  },
  {
    name: 'an untyped function returning a literal that is not a request stays silent',
    code: `${LIB}export function conf() {\n  return { TableName: 'T', retries: 3 };\n}\n`,
    want: [],
  },
  {
    name: 'a wrapper function with a typed parameter, called with a literal',
    code: `${LIB}async function update(params: UpdateCommandInput) {
  return doc.send(new UpdateCommand(params));
}
export async function close(id: string) {
  await update({ TableName: 'T', Key: { id }, UpdateExpression: 'SET status = :s', ExpressionAttributeValues: { ':s': 'closed' } });
}
`,
    want: [['UpdateItem', 'document', 'SET status = :s']],
  },
  {
    name: 'a const arrow wrapper (second parameter typed), called before its declaration is irrelevant: module scope',
    code: `${LIB}export const run = () => query(client, { TableName: 'T', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p2': 'a' } });
const query = (c: unknown, input: QueryCommandInput) => c;
`,
    want: [['Query', 'document', 'pk = :p']],
  },
  {
    name: 'a local function of the same name shadows nothing at module scope: an untyped function is no wrapper',
    code: `${LIB}function update(params: any) { return params; }
update({ TableName: 'T', UpdateExpression: 'SET a = :a' });
`,
    want: [],
  },
];

const exprOf = (p: Parameters<typeof prop>[0]) =>
  str(prop(p, 'UpdateExpression')) ?? str(prop(p, 'ConditionExpression')) ?? str(prop(p, 'KeyConditionExpression')) ?? '';

describe('extract: functions typed to return a request input', () => {
  before(() => initParsers());
  it('incremental edits of a wrapper signature and of a call agree with a fresh extraction', () => {
    const doc = createDocumentExtractor('typescript');
    let text = CASES[5].code;
    doc.update(text);
    const edit = (needle: string, insert: string, replace = 0) => {
      const at = text.indexOf(needle);
      assert.ok(at >= 0, needle);
      text = text.slice(0, at) + insert + text.slice(at + replace);
      const got = doc.update(text, [{ start: at, end: at + replace, text: insert }]);
      // As JSON: a compact node's offsets are private fields (core/compact.ts), which deepEqual does not see.
      assert.deepEqual(JSON.parse(JSON.stringify(got.sites)), JSON.parse(JSON.stringify(extract(text, 'typescript').sites)), `after inserting ${JSON.stringify(insert)}`);
      return got.sites.length;
    };
    assert.equal(edit('SET status', 'x', 0), 1); // inside the call: still a site
    assert.equal(edit('return doc.send', '  ', 0), 1); // inside the wrapper's body: incremental, the signature is the same
    assert.deepEqual(doc.stats, { full: 1, incremental: 2 });
    assert.equal(edit(': UpdateCommandInput)', ': any)', ': UpdateCommandInput)'.length), 0); // the wrapper loses its type
    assert.equal(edit(': any)', ': UpdateCommandInput)', ': any)'.length), 1); // and gets it back
  });
  for (const c of CASES) {
    it(c.name, () => {
      const sites = extract(c.code, 'typescript').sites;
      assert.deepEqual(
        sites.map((s) => [s.api, s.style, exprOf(s.params)]),
        c.want,
      );
    });
  }
});
