/**
 * A sample of requests DynamoDB rejects (reserved words, undefined/unused placeholders, empty maps, repeated clauses,
 * redundant parentheses), fixed by Dynalint's quick fixes (fix-all for the safe ones; the invented-value fix applied
 * explicitly), then sent to DynamoDB Local: the request before is rejected with a ValidationException, the request
 * after is accepted.
 * Requests are AWS CLI JSON files (low-level AttributeValues), so the fixed text is the SDK input itself.
 */
import { strict as assert } from 'node:assert';
import {
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { LocalDynamo, createPkSkTable, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { extract } from '../../server/src/extract';
import { applyEdits } from '../../server/src/fix/apply';
import { fixAllExpressions, lintExpressions, ready } from '../unit/fixes/helpers';

const TABLE = 'Posts';

/** The AWS CLI JSON of each request (TableName added), before fixing. */
const CASES: { name: string; request: Record<string, unknown> }[] = [
  {
    name: 'several reserved words in update and condition',
    request: {
      Key: { PK: { S: 'POST#1' }, SK: { S: 'META' } },
      UpdateExpression: 'SET status = :s, name = :n REMOVE comment',
      ConditionExpression: 'attribute_not_exists(status) OR status <> :s',
      ExpressionAttributeValues: { ':s': { S: 'published' }, ':n': { S: 'First post' } },
    },
  },
  {
    name: 'nested reserved segments with an existing names map and a colliding placeholder',
    request: {
      Key: { PK: { S: 'POST#2' }, SK: { S: 'META' } },
      UpdateExpression: 'SET #status = :v, info.date = :d, info.year = :y',
      ExpressionAttributeNames: { '#status': 'state' },
      ExpressionAttributeValues: { ':v': { S: 'x' }, ':d': { S: '2026-11-30' }, ':y': { N: '2026' } },
    },
  },
  {
    name: 'unused value and unused name',
    request: {
      Key: { PK: { S: 'POST#3' }, SK: { S: 'META' } },
      UpdateExpression: 'SET title = :t',
      ExpressionAttributeNames: { '#gone': 'gone' },
      ExpressionAttributeValues: { ':t': { S: 'Hello' }, ':two': { N: '2' } },
    },
  },
  {
    name: 'undefined name',
    request: {
      Key: { PK: { S: 'POST#4' }, SK: { S: 'META' } },
      UpdateExpression: 'SET #likeTally = :zero',
      ExpressionAttributeValues: { ':zero': { N: '0' } },
    },
  },
  {
    name: 'undefined value in a counter (the invented number)',
    request: {
      Key: { PK: { S: 'POST#5' }, SK: { S: 'META' } },
      UpdateExpression: 'ADD views :inc',
      ExpressionAttributeValues: {},
    },
  },
  {
    name: 'placeholder typos (:titel for :title, #stat for #status): renamed, nothing removed or invented',
    request: {
      Key: { PK: { S: 'POST#10' }, SK: { S: 'META' } },
      UpdateExpression: 'SET title = :titel, #stat = :s',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':title': { S: 'Hello' }, ':s': { S: 'open' } },
    },
  },
  {
    name: 'reserved words in a Query projection and filter',
    request: {
      KeyConditionExpression: 'PK = :pk',
      ProjectionExpression: 'PK, SK, date, size',
      FilterExpression: 'size > :min',
      ExpressionAttributeValues: { ':pk': { S: 'POST#1' }, ':min': { N: '1' } },
    },
  },
  {
    name: 'reserved words in a GetItem projection',
    request: { Key: { PK: { S: 'POST#1' }, SK: { S: 'META' } }, ProjectionExpression: 'data.level, owner' },
  },
  {
    name: 'a Delete condition on a reserved word, with an empty names map',
    request: {
      Key: { PK: { S: 'POST#9' }, SK: { S: 'META' } },
      ConditionExpression: 'attribute_not_exists(owner)',
      ExpressionAttributeNames: {},
    },
  },
  {
    name: 'a Scan filter with a reserved word and an unused value',
    request: {
      FilterExpression: 'year > :y',
      ExpressionAttributeValues: { ':y': { N: '2000' }, ':unused': { S: 'x' } },
    },
  },
  {
    name: 'repeated clauses and redundant parentheses',
    request: {
      Key: { PK: { S: 'POST#7' }, SK: { S: 'META' } },
      UpdateExpression: 'SET a = :a REMOVE c SET b = :b',
      ConditionExpression: '((attribute_not_exists(a))) OR a <> :a',
      ExpressionAttributeValues: { ':a': { S: 'x' }, ':b': { N: '2' } },
    },
  },
  {
    name: 'a guarded like transaction with reserved words in both items',
    request: {
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { PK: { S: 'POST#6' }, SK: { S: 'LIKE#u1' }, date: { S: '2026-11-30' } },
            ConditionExpression: 'attribute_not_exists(PK) AND attribute_not_exists(date)',
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: { PK: { S: 'POST#6' }, SK: { S: 'META' } },
            UpdateExpression: 'SET count = if_not_exists(count, :zero) + :one',
            ExpressionAttributeValues: { ':zero': { N: '0' }, ':one': { N: '1' } },
          },
        },
      ],
    },
  },
];

type Outcome = 'ok' | 'conditional-check-failed' | `validation: ${string}`;

async function send(client: DynamoDBClient, api: string, input: Record<string, unknown>): Promise<Outcome> {
  const commands: Record<string, (i: never) => Promise<unknown>> = {
    UpdateItem: (i) => client.send(new UpdateItemCommand(i)),
    PutItem: (i) => client.send(new PutItemCommand(i)),
    DeleteItem: (i) => client.send(new DeleteItemCommand(i)),
    GetItem: (i) => client.send(new GetItemCommand(i)),
    Query: (i) => client.send(new QueryCommand(i)),
    Scan: (i) => client.send(new ScanCommand(i)),
    TransactWriteItems: (i) => client.send(new TransactWriteItemsCommand(i)),
  };
  const sendAs = commands[api];
  assert.ok(sendAs, `no command for ${api}`);
  try {
    await sendAs(input as never);
    return 'ok';
  } catch (e) {
    const err = e as { name?: string; message?: string };
    if (err.name === 'ConditionalCheckFailedException') return 'conditional-check-failed';
    if (err.name === 'ValidationException') return `validation: ${err.message}`;
    throw e;
  }
}

/**
 * Safe fixes by fix-all, then the offered-only fixes of undefined placeholders that are left (the preferred one: the
 * rename of a typo, else the invented value), then fix-all again.
 */
function fixEverything(text: string): string {
  let current = fixAllExpressions(text, 'json').text;
  for (let guard = 0; guard < 10; guard++) {
    const f = lintExpressions(current, 'json').find((x) => /^undefined-(value|name)$/.test(x.ruleId) && x.fixes?.length);
    if (!f) break;
    current = applyEdits(current, (f.fixes!.find((x) => x.preferred) ?? f.fixes![0]).edits);
  }
  return fixAllExpressions(current, 'json').text;
}

describe('differential: fixed requests are accepted by DynamoDB Local', function () {
  this.timeout(120_000);
  let local: LocalDynamo;

  before(async () => {
    await ready();
    local = await startDynamoDBLocal();
    await createPkSkTable(local.client, TABLE);
    // POST#2 holds the `info` map its nested SETs write into.
    await local.client.send(new PutItemCommand({ TableName: TABLE, Item: { PK: { S: 'POST#2' }, SK: { S: 'META' }, info: { M: {} } } }));
  });
  after(async () => local?.stop());

  for (const c of CASES) {
    it(c.name, async () => {
      const before = JSON.stringify(c.request.TransactItems ? c.request : { TableName: TABLE, ...c.request }, null, 2) + '\n';
      const sites = extract(before, 'json').sites;
      assert.equal(sites.length, 1, 'one request extracted');
      const api = sites[0].api;
      const errorsBefore = lintExpressions(before, 'json').filter((f) => f.severity === 'error');
      assert.ok(errorsBefore.length > 0, 'the request has expression errors before the fix');
      const rejected = await send(local.client, api, JSON.parse(before));
      assert.match(rejected, /^validation: /, 'DynamoDB Local rejects the request before the fix');

      const after = fixEverything(before);
      assert.deepEqual(
        lintExpressions(after, 'json').filter((f) => f.severity === 'error').map((f) => `${f.ruleId}: ${f.message}`),
        [],
        `errors left after fixing:\n${after}`,
      );
      const outcome = await send(local.client, api, JSON.parse(after));
      assert.ok(outcome === 'ok' || outcome === 'conditional-check-failed', `DynamoDB Local rejected the fixed request (${outcome}):\n${after}`);
    });
  }
});
