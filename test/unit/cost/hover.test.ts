import { strict as assert } from 'node:assert';
import { costHover, formatUsd } from '../../../server/src/cost';
import { extract, initParsers, RequestSite } from '../../../server/src/extract';
import { DEFAULT_SETTINGS, DynalintSettings } from '../../../server/src/protocol/settings';
import { site } from './build';

const sitesOf = (text: string, languageId: string): RequestSite[] => extract(text, languageId).sites;
const hovers = (text: string, languageId: string, settings: DynalintSettings = DEFAULT_SETTINGS) =>
  sitesOf(text, languageId).map((s) => ({ api: s.api, name: text.slice(s.nameRange.start, s.nameRange.end), hover: costHover(s, settings) }));

const UPDATE_ASSUMED = '_Update: item size assumed 1 KB (UpdateItem pays the larger of the item before and after; neither is in the request)._';
const SHARD = (c: string) =>
  `- Counter \`${c}\`: a single item is capped by one partition's 1,000 WCU/s; for hot counters shard it over N items (\`…#0..N\`) and sum on read.`;
const TX = '- A transaction doubles the price of each item it touches (prepare + commit): 4 WCU here, 2 WCU as plain calls.';

/** The like: Put child (guarded) + ADD on the parent's counter, both under 1 KB -> 4 WCU, $2.50 per million. */
const LIKE_HOVER = [
  '**TransactWriteItems** · cost estimate · 2 items touched',
  '',
  '| operation | item size | units |',
  '|---|---|---|',
  '| Put `Likes` | 17 B | 2 WCU (transactional) |',
  '| Update `Posts` | 1 KB (assumed) | 2 WCU (transactional) |',
  '',
  '**Per call:** 4 WCU · **on-demand:** $2.50 per million calls (us-east-1)',
  '**Provisioned** for 1 call/s: $0.0026/hour ($1.90/month)',
  '',
  UPDATE_ASSUMED,
  '',
  SHARD('likes'),
  TX,
].join('\n');

describe('cost hover over extracted requests', () => {
  before(() => initParsers());

  it('JSON (AWS CLI --cli-input-json): the like transaction, whole hover', () => {
    const text = `{
  "TransactItems": [
    { "Put": { "TableName": "Likes", "Item": { "PK": { "S": "POST#1" }, "SK": { "S": "LIKE#u1" } }, "ConditionExpression": "attribute_not_exists(PK)" } },
    { "Update": { "TableName": "Posts", "Key": { "PK": { "S": "POST#1" }, "SK": { "S": "POST" } }, "UpdateExpression": "ADD likes :one", "ExpressionAttributeValues": { ":one": { "N": "1" } } } }
  ]
}`;
    const [h] = hovers(text, 'json');
    assert.equal(h.api, 'TransactWriteItems');
    assert.equal(h.hover, LIKE_HOVER);
  });

  it('TypeScript lib-dynamodb: the same like in document style gives the same hover', () => {
    const text = `import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
export async function like(doc, postId, userId) {
  await doc.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: 'Likes', Item: { PK: 'POST#1', SK: 'LIKE#u1' }, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: { TableName: 'Posts', Key: { PK: 'POST#1', SK: 'POST' }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': 1 } } },
    ],
  }));
}`;
    const [h] = hovers(text, 'typescript');
    assert.equal(h.name, 'TransactWriteCommand');
    assert.equal(h.hover, LIKE_HOVER);
  });

  it('TypeScript: a SET counter through a #name, and a COUNT query', () => {
    const text = `import { UpdateCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
await doc.send(new UpdateCommand({ TableName: 'Videos', Key: { PK: 'VIDEO#1' }, UpdateExpression: 'SET #p = #p + :one', ExpressionAttributeNames: { '#p': 'plays' }, ExpressionAttributeValues: { ':one': 1 } }));
await doc.send(new QueryCommand({ TableName: 'Likes', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'POST#1' }, Select: 'COUNT' }));
`;
    const [update, query] = hovers(text, 'typescript');
    assert.deepEqual(update.hover.split('\n').slice(4, 9), [
      '| Update `Videos` | 1 KB (assumed) | 1 WCU |',
      '',
      '**Per call:** 1 WCU · **on-demand:** $0.625 per million calls (us-east-1)',
      '**Provisioned** for 1 call/s: $0.00065/hour ($0.474/month)',
      '',
    ]);
    assert.ok(update.hover.endsWith(SHARD('plays')));
    assert.equal(
      query.hover,
      [
        '**Query** · cost estimate · ~100 items touched',
        '',
        '| operation | item size | units |',
        '|---|---|---|',
        '| Query `Likes` | ~100 × 1 KB (assumed) | 12.5 RCU (eventual) |',
        '',
        '**Per call:** 12.5 RCU · **on-demand:** $1.56 per million calls (us-east-1)',
        '**Provisioned** for 1 call/s: $0.00162/hour ($1.19/month)',
        '',
        '_Query: item size assumed 1 KB (the items read are not in the request)._',
        '_Query: the number of items read is unknown; priced per 100 items read._',
        '',
        '- Query with `Select: COUNT` pays for every item it reads: keep a count on the parent item instead.',
      ].join('\n'),
    );
  });

  it('Python boto3 client and resource: the like, a consistent get, a resource counter', () => {
    const text = `import boto3
client = boto3.client("dynamodb")
client.transact_write_items(TransactItems=[
    {"Put": {"TableName": "Likes", "Item": {"PK": {"S": "POST#1"}, "SK": {"S": "LIKE#u1"}}, "ConditionExpression": "attribute_not_exists(PK)"}},
    {"Update": {"TableName": "Posts", "Key": {"PK": {"S": "POST#1"}, "SK": {"S": "POST"}}, "UpdateExpression": "ADD likes :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}},
])
client.get_item(TableName="Posts", Key={"PK": {"S": "POST#1"}}, ConsistentRead=True)
table = boto3.resource("dynamodb").Table("Posts")
table.update_item(Key={"PK": "POST#1"}, UpdateExpression="SET likes = likes - :one", ExpressionAttributeValues={":one": 1})
`;
    const [like, get, counter] = hovers(text, 'python');
    assert.equal(like.name, 'transact_write_items');
    assert.equal(like.hover, LIKE_HOVER);
    assert.deepEqual(get.hover.split('\n').slice(4, 7), ['| Get `Posts` | 1 KB (assumed) | 1 RCU (strong) |', '', '**Per call:** 1 RCU · **on-demand:** $0.125 per million calls (us-east-1)']);
    assert.equal(counter.api, 'UpdateItem');
    assert.ok(counter.hover.includes('| Update `Posts` | 1 KB (assumed) | 1 WCU |'), 'names the Table the call is made on');
    assert.ok(counter.hover.endsWith(SHARD('likes')));
  });

  it('follows the region and price settings, and says when it falls back to us-east-1 prices', () => {
    const text = '{ "TableName": "T", "Item": { "PK": { "S": "a" } } }';
    const cost = (c: Partial<DynalintSettings['cost']>) => hovers(text, 'json', { ...DEFAULT_SETTINGS, cost: { ...DEFAULT_SETTINGS.cost, ...c } })[0].hover;
    assert.ok(cost({ region: 'eu-west-1' }).includes('$0.625 per million calls (us-east-1 prices; no prices known for eu-west-1)'));
    assert.ok(cost({ region: 'eu-west-1', prices: { 'eu-west-1': { writeRequestPerMillion: 0.7, readRequestPerMillion: 0.14, wcuHour: 0.0007, rcuHour: 0.00014 } } }).includes('$0.70 per million calls (eu-west-1)'));
  });
});

describe('cost hover over hand-built sites', () => {
  it('a BatchGetItem over two tables', () => {
    const h = costHover(site('BatchGetItem', 'document', { RequestItems: { A: { Keys: [{ pk: '1' }, { pk: '2' }] }, B: { Keys: [{ pk: '1' }], ConsistentRead: true } } }), DEFAULT_SETTINGS);
    assert.deepEqual(h.split('\n').slice(0, 8), [
      '**BatchGetItem** · cost estimate · 3 items touched',
      '',
      '| operation | item size | units |',
      '|---|---|---|',
      '| BatchGet `A` | 2 × 1 KB (assumed) | 1 RCU (eventual) |',
      '| BatchGet `B` | 1 KB (assumed) | 1 RCU (strong) |',
      '',
      '**Per call:** 2 RCU · **on-demand:** $0.25 per million calls (us-east-1)',
    ]);
  });
  it('a PartiQL statement is not priced', () => {
    assert.equal(
      costHover(site('ExecuteStatement', 'low-level', { Statement: 'SELECT * FROM T' }), DEFAULT_SETTINGS),
      '**ExecuteStatement** · cost estimate · 0 items touched\n\n_The request shows no item-level operations to price (PartiQL statements or unreadable items)._',
    );
  });
  it('formats money with meaningful digits', () => {
    assert.deepEqual([0, 2.5, 0.7, 1234.567, 0.0625, 0.00065, 0.0000025, 0.000000125].map(formatUsd), ['$0', '$2.50', '$0.70', '$1234.57', '$0.0625', '$0.00065', '$0.0000025', '$0.000000125']);
  });
});
