/** Python data flow (issue 13): the shared flow layer bound to Python's statements (server/src/extract/python.ts). */
import { strict as assert } from 'node:assert';
import { RequestSite, exclusive, extract, initParsers, prop, str } from '../../../server/src/extract';
import { runRules } from '../../../server/src/rules';
import { assertOffsets, strings } from './support';

const HEAD = `import boto3\n\ntable = boto3.resource('dynamodb').Table('T')\nclient = boto3.client('dynamodb')\n\n`;

function sitesOf(body: string): { text: string; sites: RequestSite[] } {
  const text = HEAD + body;
  const sites = extract(text, 'python').sites;
  for (const s of sites) for (const x of strings(s.params)) assertOffsets(text, x);
  return { text, sites };
}

const rules = (text: string) => runRules(text, 'python', extract(text, 'python').sites).map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}${f.fixes?.length ? ' (fix)' : ''}`);
const expr = (s: RequestSite) => str(prop(s.params, 'UpdateExpression'));

describe('data flow (Python)', () => {
  before(() => initParsers());

  it('if/elif/else assignments: one site per alternative, exclusive, same range; an arm that returns adds nothing', () => {
    const { text, sites } = sitesOf(`def f(kind, pk):
    if kind == 'a':
        params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :v', 'ExpressionAttributeValues': {':v': 1}}
    elif kind == 'b':
        params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET size = :v', 'ExpressionAttributeValues': {':v': 1}}
    else:
        return None
    table.update_item(**params)
`);
    assert.equal(sites.length, 2);
    assert.deepEqual(sites.map((s) => s.alternative), [{ index: 0, count: 2 }, { index: 1, count: 2 }]);
    assert.deepEqual(sites[0].range, sites[1].range);
    assert.ok(exclusive(sites[0], sites[1]));
    assert.deepEqual(sites.map(expr), ['SET a = :v', 'SET size = :v']);
    assert.deepEqual(rules(text), ['reserved-word size']);
  });

  it('params["X"] = ... on one branch: each branch its own request (a value unused on the other is reported, no fix)', () => {
    const { text, sites } = sitesOf(`def f(pk, name):
    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a', 'ExpressionAttributeValues': {':a': 1, ':b': name}}
    if name:
        params['UpdateExpression'] = 'SET a = :a, b = :b'
    table.update_item(**params)
`);
    assert.deepEqual(sites.map(expr), ['SET a = :a, b = :b', 'SET a = :a']);
    assert.deepEqual(rules(text), ["unused-value ':b'"]);
  });

  it('params["X"] = ... and a nested entry params["A"][":v"] = ... before the call: the whole request, complete', () => {
    const { text, sites } = sitesOf(`def f(pk, name):
    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a, #n = :b', 'ExpressionAttributeValues': {':a': 1}}
    params['ExpressionAttributeValues'][':b'] = name
    params['ExpressionAttributeNames'] = {'#n': 'name'}
    table.update_item(**params)
`);
    assert.equal(sites.length, 1);
    assert.ok(sites[0].params.complete);
    assert.deepEqual(rules(text), []);
  });

  it('params.update({...}) and params.update(X=...) merge entries; an unused one is found and removed in place', () => {
    const { text, sites } = sitesOf(`def f(pk):
    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a'}
    params.update({'ExpressionAttributeValues': {':a': 1, ':b': 2}})
    params.update(ReturnValues='ALL_NEW')
    table.update_item(**params)
`);
    assert.equal(sites.length, 1);
    assert.equal(str(prop(sites[0].params, 'ReturnValues')), 'ALL_NEW');
    assert.deepEqual(rules(text), ["unused-value ':b' (fix)"]);
  });

  it('an early return before an entry is added: the request after it holds the entry', () => {
    const { text } = sitesOf(`def f(pk, name):
    values = {':a': 1}
    if not name:
        return
    values[':b'] = name
    table.update_item(Key={'pk': pk}, UpdateExpression='SET a = :a', ExpressionAttributeValues=values)
`);
    assert.deepEqual(rules(text).map((r) => r.replace(' (fix)', '')), ["unused-value ':b'"]);
  });

  it('items.append / extend / + / += build a transaction: loop appends are representatives, literal items counted', () => {
    const { sites } = sitesOf(`def f(pk, names):
    items = [{'ConditionCheck': {'TableName': 'T', 'Key': {'pk': {'S': pk}}, 'ConditionExpression': 'attribute_exists(pk)'}}]
    for n in names:
        items.append({'Put': {'TableName': 'T', 'Item': {'pk': {'S': n}}}})
    items.extend([{'Delete': {'TableName': 'T', 'Key': {'pk': {'S': 'x'}}}}])
    items = items + [{'Delete': {'TableName': 'T', 'Key': {'pk': {'S': 'y'}}}}]
    items += [{'Update': {'TableName': 'T', 'Key': {'pk': {'S': pk}}, 'UpdateExpression': 'ADD n :one', 'ExpressionAttributeValues': {':one': {'N': '1'}}}}]
    client.transact_write_items(TransactItems=items)
`);
    assert.equal(sites.length, 1);
    const list = prop(sites[0].params, 'TransactItems');
    assert.ok(list?.kind === 'array');
    assert.deepEqual(list.items.map((i) => (i.kind === 'object' ? i.properties[0].key : i.kind)), ['ConditionCheck', 'Put', 'Delete', 'Delete', 'Update']);
    assert.equal(list.samples, 1);
    assert.equal(list.complete, false);
  });

  it('unknown stays silent: a change the flow cannot read (a loop assigning it, a closure)', () => {
    for (const body of [
      `def f(pk, xs):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a'}\n    for x in xs:\n        params['ExpressionAttributeValues'] = {':a': x}\n    table.update_item(**params)\n`,
      `def f(pk):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a'}\n    def go():\n        table.update_item(**params)\n    params['ExpressionAttributeValues'] = {':a': 1}\n    go()\n`,
    ]) {
      const { text } = sitesOf(body);
      assert.deepEqual(rules(text).filter((r) => /undefined-value|unused-value/.test(r)), [], body);
    }
  });

  it('a parameter reassigned on one branch only: unknown on the other (silent)', () => {
    const { text } = sitesOf(`def f(pk, params):
    if not params:
        params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a'}
    table.update_item(**params)
`);
    assert.deepEqual(rules(text), []);
  });

  it('10,000 appends and 200 nested ifs stay linear and never throw', () => {
    const appends = Array.from({ length: 10_000 }, (_, i) => `    items.append({'Put': {'TableName': 'T', 'Item': {'pk': {'S': 'p${i}'}}}})\n`).join('');
    const a = sitesOf(`def f():\n    items = []\n${appends}    client.transact_write_items(TransactItems=items)\n`);
    assert.equal(a.sites.length, 1);
    let nested = '';
    for (let i = 0; i < 200; i++) nested += `${'    '.repeat(i + 1)}if c${i}:\n`;
    nested += `${'    '.repeat(201)}params['ConditionExpression'] = 'attribute_exists(pk)'\n`;
    const b = sitesOf(`def g(pk):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a', 'ExpressionAttributeValues': {':a': 1}}\n${nested}    table.update_item(**params)\n`);
    assert.ok(b.sites.length >= 1);
  });
});
