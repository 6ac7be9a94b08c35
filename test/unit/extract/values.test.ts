import { strict as assert } from 'node:assert';
import { attrType, extract, initParsers, prop, scalarText } from '../../../server/src/extract';
import { dropHeldShapes, markIncomplete } from '../../../server/src/extract/infer';
import { MAX_ITEMS } from '../../../server/src/flow';

/** Each case: ExpressionAttributeValues written in a host language, and the attribute type of each placeholder. */
const CASES: { name: string; lang: string; text: string; style: string; types: Record<string, string>; scalars?: Record<string, string> }[] = [
  {
    name: 'lib-dynamodb native values',
    lang: 'typescript',
    text: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
const ONE = 1;
new UpdateCommand({ TableName: 't', Key: { id: 'a' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: {
  ':a': 1, ':b': '1', ':c': true, ':d': null, ':e': new Set([1, 2]), ':f': new Set(['x']), ':g': Buffer.from('x'),
  ':h': [1, 'a'], ':i': { x: 1 }, ':j': -2.5, ':k': new Uint8Array(2), ':l': someVariable, ':m': ONE, ':n': 1_000, ':o': 0x10,
  ':p': new Set(), ':q': \`text\`, ':r': false } });`,
    style: 'document',
    types: { ':a': 'N', ':b': 'S', ':c': 'BOOL', ':d': 'NULL', ':e': 'NS', ':f': 'SS', ':g': 'B', ':h': 'L', ':i': 'M', ':j': 'N', ':k': 'B', ':l': 'unknown', ':m': 'N', ':n': 'N', ':o': 'N', ':p': 'unknown', ':q': 'S', ':r': 'BOOL' },
    scalars: { ':a': '1', ':j': '-2.5', ':m': '1', ':n': '1000', ':o': '16' },
  },
  {
    name: 'SDK v3 AttributeValues',
    lang: 'typescript',
    text: `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
new UpdateItemCommand({ TableName: 't', Key: { id: { S: 'a' } }, UpdateExpression: 'ADD a :a', ExpressionAttributeValues: {
  ':a': { N: '1' }, ':b': { SS: ['x'] }, ':c': { BOOL: true }, ':d': { S: "1" }, ':e': { NULL: true }, ':f': { M: {} } } });`,
    style: 'low-level',
    types: { ':a': 'N', ':b': 'SS', ':c': 'BOOL', ':d': 'S', ':e': 'NULL', ':f': 'M' },
    scalars: { ':a': '1', ':d': '1' },
  },
  {
    name: 'SDK v2 DocumentClient createSet',
    lang: 'javascript',
    text: `const AWS = require('aws-sdk'); const dc = new AWS.DynamoDB.DocumentClient();
dc.update({ TableName: 't', Key: { id: 'a' }, UpdateExpression: 'ADD s :s', ExpressionAttributeValues: { ':s': dc.createSet(['a', 'b']), ':n': dc.createSet([1]) } });`,
    style: 'document',
    types: { ':s': 'SS', ':n': 'NS' },
  },
  {
    name: 'boto3 resource native values',
    lang: 'python',
    text: `from decimal import Decimal
import boto3
table = boto3.resource('dynamodb').Table('t')
ONE = Decimal("1")
table.update_item(Key={'id': 'a'}, UpdateExpression='SET a = :a', ExpressionAttributeValues={
  ':a': Decimal("1"), ':b': Decimal(2), ':c': "1", ':d': True, ':e': None, ':f': {1, 2}, ':g': set(["a"]), ':h': b"x",
  ':i': Binary(b"x"), ':j': [1], ':k': {"a": 1}, ':l': some_var, ':m': ONE, ':n': -3, ':o': 2.5, ':p': (1, 2), ':q': set(), ':r': frozenset({"a"}) })`,
    style: 'document',
    types: { ':a': 'N', ':b': 'N', ':c': 'S', ':d': 'BOOL', ':e': 'NULL', ':f': 'NS', ':g': 'SS', ':h': 'B', ':i': 'B', ':j': 'L', ':k': 'M', ':l': 'unknown', ':m': 'N', ':n': 'N', ':o': 'N', ':p': 'L', ':q': 'unknown', ':r': 'SS' },
    scalars: { ':a': '1', ':b': '2', ':n': '-3', ':o': '2.5' },
  },
  {
    name: 'boto3 client AttributeValues',
    lang: 'python',
    text: `import boto3
c = boto3.client('dynamodb')
c.update_item(TableName='t', Key={'id': {'S': 'a'}}, UpdateExpression='ADD a :a', ExpressionAttributeValues={':a': {'N': '1'}, ':b': {'NS': ['1']}, ':c': {'B': b'x'}})`,
    style: 'low-level',
    types: { ':a': 'N', ':b': 'NS', ':c': 'B' },
  },
  {
    name: 'JSON AttributeValues',
    lang: 'json',
    text: `{"TableName": "t", "UpdateExpression": "ADD a :a", "ExpressionAttributeValues": {":a": {"N": "1"}, ":b": {"S": "x"}, ":c": {"BOOL": false}, ":d": 5}}`,
    style: 'low-level',
    types: { ':a': 'N', ':b': 'S', ':c': 'BOOL', ':d': 'unknown' },
  },
];

describe('extract: value typing', () => {
  before(() => initParsers());
  for (const c of CASES)
    it(c.name, () => {
      const sites = extract(c.text, c.lang).sites;
      assert.equal(sites.length, 1);
      assert.equal(sites[0].style, c.style);
      const values = prop(sites[0].params, 'ExpressionAttributeValues');
      assert.equal(values?.kind, 'object');
      const got = Object.fromEntries(Object.keys(c.types).map((k) => [k, attrType(prop(values, k), sites[0].style)]));
      assert.deepEqual(got, c.types);
      for (const [k, v] of Object.entries(c.scalars ?? {})) assert.equal(scalarText(prop(values, k), sites[0].style), v, k);
    });

  it('marks spreads, computed keys and **kwargs that cannot be read as incomplete', () => {
    const ts = extract(`import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
const base = { TableName: 't' };
new UpdateCommand({ ...base, Key: { id: 1 }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ...other, ':a': 1 } });`, 'typescript').sites[0];
    assert.equal(ts.params.complete, true, 'a spread of a known object is merged');
    assert.deepEqual(ts.params.properties.map((p) => p.key), ['TableName', 'Key', 'UpdateExpression', 'ExpressionAttributeValues']);
    const vals = prop(ts.params, 'ExpressionAttributeValues');
    assert.equal(vals?.kind === 'object' && vals.complete, false);
    const py = extract(`client = boto3.client('dynamodb')\nclient.update_item(TableName='t', UpdateExpression='SET a = :a', **extra)`, 'python').sites[0];
    assert.equal(py.params.complete, false);
    assert.equal(py.style, 'low-level');
  });

  it('leaves unresolvable names and substitutions unknown, with their text', () => {
    const site = extract(`new UpdateItemCommand({ TableName: tableName, UpdateExpression: \`SET \${field} = :v\`, Key: k });`, 'typescript').sites;
    assert.deepEqual(site.map((x) => `${x.api} ${x.style}`), ['UpdateItem low-level'], 'without an import, trusted because it names a table');
    const s = extract(`import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
new UpdateItemCommand({ TableName: tableName, UpdateExpression: \`SET \${field} = :v\`, Key: k });`, 'typescript').sites[0];
    assert.deepEqual(['TableName', 'UpdateExpression', 'Key'].map((k) => prop(s.params, k)?.kind), ['unknown', 'unknown', 'unknown']);
    const u = prop(s.params, 'UpdateExpression');
    assert.equal(u?.kind === 'unknown' && u.text, '`SET ${field} = :v`');
    const py = extract(`table = boto3.resource('dynamodb').Table('t')\ntable.update_item(Key=k, UpdateExpression=f"SET {f} = :v")`, 'python').sites[0];
    assert.equal(prop(py.params, 'UpdateExpression')?.kind, 'unknown');
  });
});

describe('value trees longer than a call takes arguments', () => {
  // stack.push(...items) over 150,000 items overflows V8's stack: the walks over a tree use loops.
  const text = `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
new UpdateCommand({ TableName: 't', Key: { id: 'a' }, UpdateExpression: 'SET a = :l', ExpressionAttributeValues: { ':l': [[0]] } });
`;
  const big = () => {
    const site = extract(text, 'typescript').sites[0];
    const outer = prop(prop(site.params, 'ExpressionAttributeValues'), ':l');
    assert.ok(outer?.kind === 'array' && outer.items.length === 1);
    for (let i = 1; i < 150_000; i++) outer.items.push({ ...outer.items[0] });
    return { site, outer };
  };

  it('markIncomplete marks a list of 150,000 items and the lists in it', () => {
    const { site, outer } = big();
    markIncomplete(site.params);
    assert.equal(outer.kind === 'array' && outer.complete, false);
    const inner = outer.kind === 'array' ? outer.items[149_999] : undefined;
    assert.equal(inner?.kind === 'array' && inner.complete, false);
  });

  // A spread of a constant of 150,000 entries (one a line: a long line reads as minified code).
  it('TypeScript: { ...BIG, id } with BIG an object of 150,000 entries', () => {
    const big = Array.from({ length: 150_000 }, (_, i) => `k${i.toString(36)}: 1,`).join('\n');
    const src = `import { PutCommand } from '@aws-sdk/lib-dynamodb';\nconst BIG = {\n${big}\n};\nexport async function f() {\n  await doc.send(new PutCommand({ TableName: 'T', Item: { ...BIG, id: 'x' } }));\n}\n`;
    const item = prop(extract(src, 'typescript').sites[0]?.params, 'Item');
    assert.equal(item?.kind === 'object' && item.properties.length, 150_001);
  });

  it('TypeScript: a list [...BIG] and tags.push(...BIG) with BIG an array of 150,000 entries', () => {
    const big = Array.from({ length: 150_000 }, (_, i) => `${i % 10},`).join('\n');
    const src =
      `import { PutCommand } from '@aws-sdk/lib-dynamodb';\nconst BIG = [\n${big}\n];\nexport async function f() {\n` +
      `  await doc.send(new PutCommand({ TableName: 'T', Item: { id: 'a', tags: [...BIG] } }));\n` +
      `  const tags = [];\n  tags.push(...BIG);\n  await doc.send(new PutCommand({ TableName: 'T', Item: { id: 'b', tags } }));\n}\n`;
    const sites = extract(src, 'typescript').sites;
    const lengths = sites.map((s) => {
      const l = prop(prop(s.params, 'Item'), 'tags');
      return l?.kind === 'array' && l.items.length;
    });
    // (The data flow keeps the first MAX_ITEMS of a list grown by push, the rest unknown.)
    assert.deepEqual(lengths, [150_000, MAX_ITEMS]);
  });

  it('Python: {**BIG, "id": ...} with BIG a dict of 150,000 entries', async () => {
    await initParsers();
    const big = Array.from({ length: 150_000 }, (_, i) => `  "k${i.toString(36)}": 1,`).join('\n');
    const src = `import boto3\ntable = boto3.resource('dynamodb').Table('T')\nBIG = {\n${big}\n}\ndef f():\n    table.put_item(Item={**BIG, 'id': 'x'})\n`;
    const item = prop(extract(src, 'python').sites[0]?.params, 'Item');
    assert.equal(item?.kind === 'object' && item.properties.length, 150_001);
  });

  it('dropHeldShapes looks through a site holding a list of 150,000 items', () => {
    const { site } = big();
    const shape = { ...site, range: { start: site.range.start + 1, end: site.range.end - 1 } };
    assert.deepEqual(dropHeldShapes([site, shape], (s) => s === shape), [site]);
  });
});
