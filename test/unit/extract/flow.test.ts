/** Data flow (issue 13): a request followed through branches, later assignments, pushes, spreads and helpers. */
import { strict as assert } from 'node:assert';
import { RequestSite, exclusive, extract, initParsers, prop, str } from '../../../server/src/extract';
import { runRules } from '../../../server/src/rules';
import { assertOffsets, strings } from './support';

const HEAD = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand, DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';\nconst doc = DynamoDBDocumentClient.from(client);\n`;

function sitesOf(body: string, lang = 'typescript'): { text: string; sites: RequestSite[] } {
  const text = lang === 'python' ? body : HEAD + body;
  const sites = extract(text, lang).sites;
  for (const s of sites) for (const x of strings(s.params)) assertOffsets(text, x);
  return { text, sites };
}

const keys = (s: RequestSite) => s.params.properties.map((p) => p.key).sort().join(',');
const rules = (text: string, lang = 'typescript') => runRules(text, lang, extract(text, lang).sites).map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}`);

describe('data flow', () => {
  before(() => initParsers());

  it('a name assigned in both arms of an if: one site per alternative, exclusive, same range', () => {
    const { text, sites } = sitesOf(`export async function f(found: boolean, id: string) {
  let p;
  if (found) {
    p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET #c = :v' };
  } else {
    p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET size = :v' };
  }
  await doc.send(new UpdateCommand(p));
}`);
    assert.equal(sites.length, 2);
    assert.deepEqual(sites.map((s) => s.alternative), [{ index: 0, count: 2 }, { index: 1, count: 2 }]);
    assert.deepEqual(sites[0].range, sites[1].range);
    assert.ok(exclusive(sites[0], sites[1]));
    assert.deepEqual(sites.map((s) => str(prop(s.params, 'UpdateExpression'))), ['SET #c = :v', 'SET size = :v']);
    // The reserved word sits in one alternative only: found there, at its own characters.
    assert.ok(rules(text).includes('reserved-word size'));
  });

  it('switch cases, early returns and ternaries', () => {
    const { sites } = sitesOf(`export async function g(kind: string, id: string) {
  let p;
  switch (kind) {
    case 'a':
      p = { TableName: 'A', Key: { id }, UpdateExpression: 'SET a = :v' };
      break;
    case 'b':
      p = { TableName: 'B', Key: { id }, UpdateExpression: 'SET b = :v' };
      break;
    default:
      return;
  }
  await doc.send(new UpdateCommand(p));
}
export async function h(ok: boolean, id: string) {
  let q = { TableName: 'T', Key: { id }, UpdateExpression: 'SET x = :v' };
  if (!ok) {
    q = { TableName: 'T', Key: { id }, UpdateExpression: 'SET y = :v' };
    return;
  }
  await doc.send(new UpdateCommand(ok ? q : { TableName: 'T', Key: { id }, UpdateExpression: 'SET z = :v' }));
}`);
    assert.deepEqual(sites.map((s) => str(prop(s.params, 'TableName')) + ':' + str(prop(s.params, 'UpdateExpression'))), ['A:SET a = :v', 'B:SET b = :v', 'T:SET x = :v', 'T:SET z = :v']);
  });

  it('properties assigned after the literal, Object.assign, element assignment, delete', () => {
    const { text, sites } = sitesOf(`export async function f(id: string) {
  const params: any = { TableName: 'T', Key: { id } };
  params.UpdateExpression = 'SET likes = likes - :one';
  params['ExpressionAttributeValues'] = { ':one': 1 };
  Object.assign(params, { ReturnValues: 'ALL_NEW' });
  params.ExpressionAttributeValues[':zero'] = 0;
  params.Extra = 1;
  delete params.Extra;
  await doc.send(new UpdateCommand(params));
}`);
    assert.equal(sites.length, 1);
    assert.equal(keys(sites[0]), 'ExpressionAttributeValues,Key,ReturnValues,TableName,UpdateExpression');
    assert.ok(sites[0].params.complete);
    const upd = sites[0].params.properties.find((p) => p.key === 'UpdateExpression')!;
    assert.equal(text.slice(upd.keyRange.start, upd.keyRange.end), 'UpdateExpression');
    const found = rules(text);
    assert.ok(found.includes('decrement-without-floor likes = likes - :one'));
    assert.ok(found.some((f) => f.startsWith('unused-value')), 'the :zero added later is seen');
  });

  it('a conditional spread gives two known alternatives', () => {
    const { text, sites } = sitesOf(`export async function f(isRemove: boolean, id: string) {
  await doc.send(new UpdateCommand({ TableName: 'T', Key: { id }, UpdateExpression: 'SET likes = likes - :one', ExpressionAttributeValues: { ':one': 1, ':zero': 0 }, ...(isRemove ? { ConditionExpression: 'likes > :zero' } : {}) }));
}`);
    assert.equal(sites.length, 2);
    assert.deepEqual(sites.map((s) => !!prop(s.params, 'ConditionExpression')), [true, false]);
    // Without the condition, :zero is unused and the decrement has no floor: both hold on an alternative that runs.
    const found = rules(text);
    assert.ok(found.includes("unused-value ':zero'"));
    assert.ok(found.includes('decrement-without-floor likes = likes - :one'));
  });

  it('arrays built step by step: push, spreads of known arrays, concat, pushes in a loop', () => {
    const { sites } = sitesOf(`const BASE = [{ ConditionCheck: { TableName: 'U', Key: { id: 'u' }, ConditionExpression: 'attribute_exists(id)' } }];
export async function f(id: string, ids: string[]) {
  let items = [];
  items.push({ Put: { TableName: 'Likes', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(pk)' } });
  items.push(...BASE);
  items = items.concat([{ Update: { TableName: 'Posts', Key: { pk: id }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': 1 } } }]);
  const input: any = {};
  input['TransactItems'] = items;
  await doc.send(new TransactWriteCommand(input));
  const more = [];
  for (const x of ids) more.push({ Delete: { TableName: 'L', Key: { pk: x } } });
  await doc.send(new TransactWriteCommand({ TransactItems: more }));
}`);
    const items = prop(sites[0].params, 'TransactItems');
    assert.equal(items?.kind, 'array');
    if (items?.kind === 'array') {
      assert.deepEqual(items.items.map((i) => (i.kind === 'object' ? i.properties[0].key : '?')), ['Put', 'ConditionCheck', 'Update']);
      assert.ok(items.complete);
    }
    const more = prop(sites[1].params, 'TransactItems');
    assert.ok(more?.kind === 'array' && !more.complete && more.samples === 1 && more.items.length === 1);
  });

  it('a helper method sending a request is seen at each call, in the caller and its arms', () => {
    const { text, sites } = sitesOf(`export class LikesDao {
  private client = doc;
  private saveLike = async (postId: string, userId: string) => {
    await this.client.send(new PutCommand({ TableName: 'Likes', Item: { pk: postId, sk: userId } }));
  };
  async like(postId: string, userId: string) {
    if (postId) {
      await this.saveLike(postId, userId);
    }
    await this.client.send(new UpdateCommand({ TableName: 'Likes', Key: { pk: postId, sk: 'COUNT' }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': 1 } }));
  }
}`);
    const fwd = sites.find((s) => s.forwarded)!;
    assert.equal(fwd.api, 'PutItem');
    assert.equal(fwd.enclosingFunction?.name, 'like');
    assert.equal(text.slice(fwd.range.start, fwd.range.end), 'this.saveLike(postId, userId)');
    assert.equal(text.slice(fwd.nameRange.start, fwd.nameRange.end), 'saveLike');
    assert.ok(fwd.branch && /^\/\d+:t$/.test(fwd.branch));
    assert.equal(text.slice(fwd.forwarded!.from!.start, fwd.forwarded!.from!.end).slice(0, 15), 'new PutCommand(');
    assert.ok(rules(text).some((f) => f.startsWith('separate-child-and-counter-writes')));
  });

  it('repository helpers named like the API (not in the file) are read by argument', () => {
    const { text, sites } = sitesOf(`// DynamoDB repository
export class Counters extends BaseDynamoRepository {
  async bump(id: string) {
    await this.putItem({ PK: id, SK: 'ROW' });
    await this.updateItem({ PK: 'TOTAL', SK: 'ROW' }, 'SET total = total + :inc', { ':inc': 1 }, {});
  }
}`);
    assert.deepEqual(sites.map((s) => `${s.api} ${keys(s)} ${s.forwarded?.wrapper}`), ['PutItem Item putItem', 'UpdateItem ExpressionAttributeValues,Key,UpdateExpression updateItem']);
    assert.ok(sites.every((s) => !s.params.complete));
    assert.ok(rules(text).some((f) => f.startsWith('separate-child-and-counter-writes')));
    // The empty map handed to the helper is not an empty ExpressionAttributeNames: the helper may drop it.
    assert.ok(!rules(text).some((f) => f.startsWith('empty-attribute-map')));
  });

  it('Python repository helpers with snake_case keywords', () => {
    const text = `"""DynamoDB analytics."""
class Analytics(BaseRepository):
    def track(self, sid):
        self.update_item(pk="A", sk="V", update_expression="SET views = views + :one", expression_attribute_values={":one": 1}, expression_attribute_names={})
        self.put_item({"PK": sid, "SK": "S"})
`;
    const sites = extract(text, 'python').sites;
    assert.deepEqual(sites.map((s) => `${s.api} ${keys(s)} ${s.forwarded?.wrapper}`), ['UpdateItem ExpressionAttributeValues,Key,UpdateExpression update_item', 'PutItem Item put_item']);
    assert.ok(rules(text, 'python').some((f) => f.startsWith('separate-child-and-counter-writes')));
  });

  it('unknown stays silent: a let changed in a closure, a use in a closure, a loop assignment', () => {
    const { sites } = sitesOf(`export async function f(id: string, cb: any) {
  let p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET a = :v' };
  cb(() => { p = other; });
  await doc.send(new UpdateCommand(p));
  const q: any = { TableName: 'T', Key: { id }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: {} };
  for (const x of [1]) q.ExpressionAttributeValues[':v'] = x;
  await doc.send(new UpdateCommand(q));
}`);
    // p: the closure may reassign it (not a request the flow can know); q: changed in a loop, so not whole.
    for (const s of sites) if (str(prop(s.params, 'TableName')) === 'T' && prop(s.params, 'ExpressionAttributeValues')) assert.equal((prop(s.params, 'ExpressionAttributeValues') as { complete: boolean }).complete, false);
  });

  it('bad input: cycles, self-spreads, 10,000 pushes, deep branches never throw and stay bounded', () => {
    const pushes = Array.from({ length: 10_000 }, (_, i) => `  items.push({ Put: { TableName: 'T', Item: { pk: '${i}' } } });`).join('\n');
    let nested = `p = { TableName: 'T', Key: { id: 'x' }, UpdateExpression: 'SET a = :v' };`;
    for (let i = 0; i < 200; i++) nested = `if (c${i}) { ${nested} } else { p = { TableName: 'T${i}', Key: { id: 'y' }, UpdateExpression: 'SET b = :v' }; }`;
    const text = `${HEAD}export async function f(c: any) {
  let a: any = b; let b: any = a; a = b; b = a;
  await doc.send(new UpdateCommand(a));
  let s: any = { TableName: 'T' }; s = { ...s, ...s };
  await doc.send(new UpdateCommand(s));
  const items = [];
${pushes}
  await doc.send(new TransactWriteCommand({ TransactItems: items }));
  let p;
  ${nested}
  await doc.send(new UpdateCommand(p));
}`;
    const sites = extract(text, 'typescript').sites;
    const tx = sites.find((s) => s.api === 'TransactWriteItems')!;
    const items = prop(tx.params, 'TransactItems');
    assert.ok(items?.kind === 'array' && !items.complete && items.items.length <= 256);
    // Past the cap the alternatives stay unknown: no site guesses one of them.
    assert.ok(sites.filter((s) => s.api === 'UpdateItem').length <= 16);
  });
});
