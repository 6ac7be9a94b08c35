/**
 * Requests by shape inside functions (issue 13): an object literal / dict with a DynamoDB expression key and
 * TableName or a Key/Item map, passed to no call and held by no other site, is linted as the request its keys name
 * (a config map built in a function, a returned builder literal, a test's fixture list). Negatives: a literal a call
 * takes (directly, through a name, through data flow), one the function completes later, look-alikes.
 */
import { strict as assert } from 'node:assert';
import { lint, parsersReady, PRELUDE, slice } from './check';

const ts = PRELUDE['ts-doc'];
const py = PRELUDE['py-resource'];

interface ShapeCase {
  name: string;
  ts: string;
  py: string;
  /** `rule-id text-under-range` of every warning/error, in document order. */
  expect: string[];
}

const cases: ShapeCase[] = [
  {
    name: 'a config map built in a function: each entry is linted',
    ts: `export function ops(id: string) {\n  const byOp = { rename: { TableName: 'T', Key: { id }, UpdateExpression: 'SET name = :v', ExpressionAttributeValues: { ':v': 'x' } } };\n  return byOp;\n}\n`,
    py: `def ops(pk):\n    by_op = {'rename': {'TableName': 'T', 'Key': {'id': pk}, 'UpdateExpression': 'SET name = :v', 'ExpressionAttributeValues': {':v': 'x'}}}\n    return by_op\n`,
    expect: ['reserved-word name'],
  },
  {
    name: 'a literal a local builder returns: what it holds is checked, what it lacks the caller may add (no undefined-name)',
    ts: `export const build = (id: string) => ({ Key: { id }, UpdateExpression: 'SET #a = :v, name = :v', ExpressionAttributeValues: { ':v': 1 } });\n`,
    py: `def build(pk):\n    return {'Key': {'id': pk}, 'UpdateExpression': 'SET #a = :v, name = :v', 'ExpressionAttributeValues': {':v': 1}}\n`,
    expect: ['reserved-word name'],
  },
  {
    name: 'a literal returned through parentheses and a cast: the same',
    ts: `export function build(id: string) {\n  return ({ Key: { id }, UpdateExpression: 'SET #a = :v', ExpressionAttributeValues: { ':v': 1 } } as const);\n}\n`,
    py: `build = lambda pk: ({'Key': {'id': pk}, 'UpdateExpression': 'SET #a = :v', 'ExpressionAttributeValues': {':v': 1}})\n`,
    expect: [],
  },
  {
    name: 'a test fixture list in a function',
    ts: `export function cases() {\n  return [{ Key: { id: 1 }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1, ':b': 2 } }];\n}\n`,
    py: `def cases():\n    return [{'Key': {'id': 1}, 'UpdateExpression': 'SET a = :a', 'ExpressionAttributeValues': {':a': 1, ':b': 2}}]\n`,
    expect: ["unused-value ':b'"],
  },
  {
    name: 'completed later in the function (values assigned after the literal): what it lacks is unknown',
    ts: `export function build(id: string) {\n  const p = { Key: { id }, UpdateExpression: 'SET a = :a' };\n  p.ExpressionAttributeValues = { ':a': 1 };\n  return p;\n}\n`,
    py: `def build(pk):\n    p = {'Key': {'id': pk}, 'UpdateExpression': 'SET a = :a'}\n    p['ExpressionAttributeValues'] = {':a': 1}\n    return p\n`,
    expect: [],
  },
  {
    name: 'nested in a map completed later: every map in it may gain entries',
    ts: `export function build(id: string) {\n  const ops = { go: { Key: { id }, UpdateExpression: 'SET #n = :a' } };\n  ops.go.ExpressionAttributeNames = { '#n': 'n' };\n  return ops;\n}\n`,
    py: `def build(pk):\n    ops = {'go': {'Key': {'id': pk}, 'UpdateExpression': 'SET #n = :a'}}\n    ops['go']['ExpressionAttributeNames'] = {'#n': 'n'}\n    return ops\n`,
    expect: [],
  },
  {
    name: 'held by a name passed to a call we cannot identify: that call decides',
    ts: `export async function f(id: string) {\n  let p;\n  p = { Key: { id }, UpdateExpression: 'SET a = :a' };\n  await run(p);\n}\n`,
    py: `def f(pk):\n    p = {'Key': {'id': pk}, 'UpdateExpression': 'SET a = :a'}\n    run(p)\n`,
    expect: [],
  },
  {
    name: 'held by a name spread into another literal (the rest of the request comes there): not a request of its own',
    ts: `export function build(id: string) {\n  const base = { Key: { id }, UpdateExpression: 'SET a = :a' };\n  return { ...base, TableName: 'T', ExpressionAttributeValues: { ':a': 1 } };\n}\n`,
    py: `def build(pk):\n    base = {'Key': {'id': pk}, 'UpdateExpression': 'SET a = :a'}\n    return {**base, 'TableName': 'T', 'ExpressionAttributeValues': {':a': 1}}\n`,
    expect: [],
  },
  {
    name: 'held by a name given to another name or put in a list: it flows on, not a request of its own',
    ts: `export function build(id: string) {\n  const base = { Key: { id }, UpdateExpression: 'SET a = :a' };\n  const all = [base];\n  return all;\n}\n`,
    py: `def build(pk):\n    base = {'Key': {'id': pk}, 'UpdateExpression': 'SET a = :a'}\n    alias = base\n    return alias\n`,
    expect: [],
  },
  {
    name: 'held by a name that is returned: the builder\'s request, which the caller may complete (no undefined-name)',
    ts: `export function build(id: string) {\n  const p = { Key: { id }, UpdateExpression: 'SET #a = :a', ExpressionAttributeValues: { ':a': 1 } };\n  return p;\n}\n`,
    py: `def build(pk):\n    p = {'Key': {'id': pk}, 'UpdateExpression': 'SET #a = :a', 'ExpressionAttributeValues': {':a': 1}}\n    return p\n`,
    expect: [],
  },
  {
    name: 'control: held by a name that is not returned, what it lacks is missing',
    ts: `export function build(id: string) {\n  const p = { Key: { id }, UpdateExpression: 'SET #a = :a', ExpressionAttributeValues: { ':a': 1 } };\n  return 1;\n}\n`,
    py: `def build(pk):\n    p = {'Key': {'id': pk}, 'UpdateExpression': 'SET #a = :a', 'ExpressionAttributeValues': {':a': 1}}\n    return 1\n`,
    expect: ['undefined-name #a'],
  },
  {
    name: 'held by a name a DynamoDB call takes through data flow: reported once, on the call',
    ts: `export async function f(id: string, c: boolean) {\n  let p;\n  if (c) {\n    p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET #a = :v', ExpressionAttributeValues: { ':v': 1 } };\n    return;\n  }\n  p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET #b = :v', ExpressionAttributeValues: { ':v': 1 } };\n  await doc.send(new UpdateCommand(p));\n}\n`,
    py: `def f(pk, c):\n    if c:\n        p = {'Key': {'id': pk}, 'UpdateExpression': 'SET #a = :v', 'ExpressionAttributeValues': {':v': 1}}\n        return None\n    p = {'Key': {'id': pk}, 'UpdateExpression': 'SET #b = :v', 'ExpressionAttributeValues': {':v': 1}}\n    table.update_item(**p)\n`,
    expect: ['undefined-name #b'],
  },
  {
    name: 'transaction actions built in a function are one transaction\'s, not requests of their own',
    ts: `export function items(id: string) {\n  return [{ Put: { TableName: 'T', Item: { pk: id } } }, { Update: { TableName: 'T', Key: { pk: 'P' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } }];\n}\n`,
    py: `def items(pk):\n    return [{'Put': {'TableName': 'T', 'Item': {'pk': pk}}}, {'Update': {'TableName': 'T', 'Key': {'pk': 'P'}, 'UpdateExpression': 'ADD n :one', 'ExpressionAttributeValues': {':one': 1}}}]\n`,
    expect: [],
  },
  {
    name: 'a config map of a child Put and a counter update is not two separate calls (nothing is sent)',
    ts: `export function ops(id: string) {\n  const byOp = {\n    like: { TableName: 'T', Item: { pk: 'POST#1', sk: 'LIKE#' + id }, ConditionExpression: 'attribute_not_exists(pk)' },\n    bump: { TableName: 'T', Key: { pk: 'POST#1', sk: 'META' }, UpdateExpression: 'SET likeCount = if_not_exists(likeCount, :z) + :one', ExpressionAttributeValues: { ':one': 1, ':z': 0 } },\n  };\n  return byOp;\n}\n`,
    py: `def ops(pk):\n    by_op = {\n        'like': {'TableName': 'T', 'Item': {'pk': 'POST#1', 'sk': 'LIKE#' + pk}, 'ConditionExpression': 'attribute_not_exists(pk)'},\n        'bump': {'TableName': 'T', 'Key': {'pk': 'POST#1', 'sk': 'META'}, 'UpdateExpression': 'SET likeCount = if_not_exists(likeCount, :z) + :one', 'ExpressionAttributeValues': {':one': 1, ':z': 0}},\n    }\n    return by_op\n`,
    expect: [],
  },
  {
    name: 'look-alikes in a function: an S3 key, a UI state',
    ts: `export function f(key: string) {\n  const s3 = { Bucket: 'b', Key: key, ConditionExpression: 'x' };\n  const ui = { Key: { id: 1 }, UpdateExpression: 'live' };\n  return [s3, ui];\n}\n`,
    py: `def f(key):\n    s3 = {'Bucket': 'b', 'Key': key, 'ConditionExpression': 'x'}\n    ui = {'Key': {'id': 1}, 'UpdateExpression': 'live'}\n    return [s3, ui]\n`,
    expect: [],
  },
];

describe('requests by shape inside functions', () => {
  before(parsersReady);
  for (const c of cases) {
    for (const [lang, prelude, code] of [
      ['typescript', ts, c.ts],
      ['python', py, c.py],
    ] as const) {
      it(`${lang}: ${c.name}`, () => {
        const text = prelude + code;
        const got = lint(text, lang)
          .filter((f) => f.severity === 'error' || f.severity === 'warning')
          .map((f) => `${f.ruleId} ${slice(text, f)}`);
        assert.deepEqual(got, c.expect);
      });
    }
  }
});
