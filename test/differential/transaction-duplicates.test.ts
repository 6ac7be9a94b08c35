/**
 * Issue 14: "Transaction request cannot include multiple operations on one item", asked of DynamoDB Local and of the
 * `transaction-duplicate-item` rule (the validator sees one action at a time; the rule sees the transaction). Each
 * case pins Local's answer and requires the rule to report an Error exactly when Local rejects (a known gap is pinned as
 * such, so closing it shows here).
 */
import { strict as assert } from 'node:assert';
import { TransactGetItemsCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { LocalDynamo, createPkSkTable, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { lint, parsersReady } from '../unit/rules/check';

const TABLE = 'TxDup';
const MULTIPLE = 'Transaction request cannot include multiple operations on one item';
const key = (p: string, s = 'x') => ({ PK: { S: p }, SK: { S: s } });
const update = (p: string, s = 'x') => ({ Update: { TableName: TABLE, Key: key(p, s), UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': { S: 'a' } } } });

/** `gap`: the rule stays silent although Local rejects (it learns key attribute names from a Key or a table definition). */
const CASES: { name: string; get?: true; items: unknown[]; rejects: boolean; gap?: string }[] = [
  { name: 'two Puts of one item', items: [{ Put: { TableName: TABLE, Item: key('p1') } }, { Put: { TableName: TABLE, Item: key('p1') } }], rejects: true, gap: 'two Puts and no Key: the key attributes are unknown without a table definition' },
  { name: 'a Put and an Update of one item', items: [{ Put: { TableName: TABLE, Item: key('p2') } }, update('p2')], rejects: true },
  { name: 'a ConditionCheck and a Delete of one item', items: [{ ConditionCheck: { TableName: TABLE, Key: key('p3'), ConditionExpression: 'attribute_not_exists(a)' } }, { Delete: { TableName: TABLE, Key: key('p3') } }], rejects: true },
  { name: 'two Gets of one item', get: true, items: [{ Get: { TableName: TABLE, Key: key('p4') } }, { Get: { TableName: TABLE, Key: key('p4') } }], rejects: true },
  { name: 'two Updates of two items of one partition', items: [update('p5', 'a'), update('p5', 'b')], rejects: false },
  { name: 'two Gets of two items', get: true, items: [{ Get: { TableName: TABLE, Key: key('p6', 'a') } }, { Get: { TableName: TABLE, Key: key('p6', 'b') } }], rejects: false },
];

describe('differential: two actions on one item in a transaction', function () {
  this.timeout(120_000);
  let local: LocalDynamo | undefined;
  before(async () => {
    await parsersReady();
    local = await startDynamoDBLocal();
    await createPkSkTable(local.client, TABLE);
  });
  after(async () => {
    await local?.stop();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const input = { TransactItems: c.items } as never;
      let message: string | undefined;
      try {
        if (c.get) await local!.client.send(new TransactGetItemsCommand(input));
        else await local!.client.send(new TransactWriteItemsCommand(input));
      } catch (e) {
        message = `${(e as Error).name}: ${(e as Error).message}`;
      }
      if (c.rejects) assert.match(message ?? 'accepted', new RegExp(`ValidationException: ${MULTIPLE}`), 'DynamoDB Local answers as pinned');
      else assert.equal(message, undefined, 'DynamoDB Local answers as pinned');
      const found = lint(JSON.stringify({ TransactItems: c.items }, null, 2) + '\n', 'json').filter((f) => f.ruleId === 'transaction-duplicate-item');
      assert.deepEqual(found.map((f) => f.severity), c.rejects && !c.gap ? ['error'] : [], c.gap ?? 'transaction-duplicate-item agrees');
    });
  }
});
