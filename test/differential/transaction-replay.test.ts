/**
 * What makes a transaction safe from double counting, asked of DynamoDB Local: each scenario sends one
 * TransactWriteItems twice (a replay: an application retry after a timeout, a double click, a redelivered message) and
 * reads the counter. Pinned per scenario: whether the replay fails (TransactionCanceledException, with
 * ConditionalCheckFailed for the action whose condition the first run falsified), the counter afterwards, and what
 * unguarded-add-in-transaction says about the same request written as JSON (nothing when Local shows the replay
 * cannot count twice; a finding, at the pinned severity, when it does).
 */
import { strict as assert } from 'node:assert';
import { AttributeValue, DynamoDBClient, GetItemCommand, PutItemCommand, TransactWriteItemsCommand, TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import { LocalDynamo, createPkSkTable, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { lint, parsersReady } from '../unit/rules/check';

const TABLE = 'Replay';
type Item = Record<string, AttributeValue>;
type Items = NonNullable<TransactWriteItemsCommandInput['TransactItems']>;

interface Scenario {
  name: string;
  /** Items written before the first run, in the scenario's own partition `p`. */
  seed?: (p: string) => Item[];
  /** The transaction, for a scenario's own partition `p`. */
  tx: (p: string) => Items;
  token?: string;
  /** Cancellation reason codes of the replay, in action order; undefined when the replay succeeds. */
  replayReasons?: string[];
  /** The counter (`likeTally` of `p`/META) after the replay. */
  counter: number;
  /** What the rule says about the request: nothing, or a finding of this severity. */
  rule: 'none' | 'warning' | 'info';
}

const N = (n: number): AttributeValue => ({ N: String(n) });
const S = (s: string): AttributeValue => ({ S: s });
const META = (p: string) => ({ PK: S(p), SK: S('META') });
const LIKE = (p: string) => ({ PK: S(p), SK: S('LIKE#USER#7c20') });
const add = (p: string, delta = 1, extra: Record<string, unknown> = {}) => ({
  Update: { TableName: TABLE, Key: META(p), UpdateExpression: 'ADD likeTally :d', ...extra, ExpressionAttributeValues: { ':d': N(delta), ...((extra.ExpressionAttributeValues as Item) ?? {}) } },
});

const SCENARIOS: Scenario[] = [
  {
    name: 'like: a Put guarded by attribute_not_exists(SK)',
    tx: (p) => [{ Put: { TableName: TABLE, Item: LIKE(p), ConditionExpression: 'attribute_not_exists(SK)' } }, add(p)],
    replayReasons: ['ConditionalCheckFailed', 'None'],
    counter: 1,
    rule: 'none',
  },
  {
    name: 'like: an unguarded Put counts the replay twice',
    tx: (p) => [{ Put: { TableName: TABLE, Item: LIKE(p) } }, add(p)],
    counter: 2,
    rule: 'warning',
  },
  {
    name: 'one guarded Put is enough: an unguarded reverse index next to it',
    tx: (p) => [{ Put: { TableName: TABLE, Item: { PK: S(`USER#${p}`), SK: S('LIKE') } } }, { Put: { TableName: TABLE, Item: LIKE(p), ConditionExpression: 'attribute_not_exists(SK)' } }, add(p)],
    replayReasons: ['None', 'ConditionalCheckFailed', 'None'],
    counter: 1,
    rule: 'none',
  },
  {
    // Within the 10-minute window the same token and parameters are answered without writing again.
    name: 'a ClientRequestToken replay within its window is idempotent',
    tx: (p) => [{ Put: { TableName: TABLE, Item: LIKE(p) } }, add(p)],
    token: 'like-7c20-replay',
    counter: 1,
    rule: 'info',
  },
  {
    name: 'unlike: a Delete guarded by an owner condition (the replay finds no item)',
    seed: (p) => [{ ...LIKE(p), userId: S('USER#7c20') }, { ...META(p), likeTally: N(1) }],
    tx: (p) => [{ Delete: { TableName: TABLE, Key: LIKE(p), ConditionExpression: 'userId = :me', ExpressionAttributeValues: { ':me': S('USER#7c20') } } }, add(p, -1)],
    replayReasons: ['ConditionalCheckFailed', 'None'],
    counter: 0,
    rule: 'none',
  },
  {
    name: 'a version condition on the counter item (SET #v = :next IF #v = :seen)',
    seed: (p) => [{ ...META(p), version: N(7) }],
    tx: (p) => [
      { Put: { TableName: TABLE, Item: LIKE(p) } },
      add(p, 1, { UpdateExpression: 'SET #v = :next ADD likeTally :d', ConditionExpression: '#v = :seen', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':next': N(8), ':seen': N(7) } }),
    ],
    replayReasons: ['None', 'ConditionalCheckFailed'],
    counter: 1,
    rule: 'none',
  },
  {
    name: 'a condition the transaction falsifies (#s = :active while it sets #s = :closed)',
    seed: (p) => [{ PK: S(p), SK: S('POLL'), status: S('ACTIVE') }],
    tx: (p) => [
      { Update: { TableName: TABLE, Key: { PK: S(p), SK: S('POLL') }, UpdateExpression: 'SET #s = :closed', ConditionExpression: '#s = :active', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':closed': S('CLOSED'), ':active': S('ACTIVE') } } },
      add(p),
    ],
    replayReasons: ['ConditionalCheckFailed', 'None'],
    counter: 1,
    rule: 'none',
  },
  {
    name: 'a monotonic sequence (attribute_not_exists(lastSeq) OR lastSeq < :seq, SET lastSeq = :seq)',
    tx: (p) => [add(p, 1, { UpdateExpression: 'SET lastSeq = :seq ADD likeTally :d', ConditionExpression: 'attribute_not_exists(lastSeq) OR lastSeq < :seq', ExpressionAttributeValues: { ':seq': N(1042) } })],
    replayReasons: ['ConditionalCheckFailed'],
    counter: 1,
    rule: 'none',
  },
  {
    name: 'a lease (attribute_not_exists(PK) OR expiresAt < :now) fails the replay before it expires',
    tx: (p) => [{ Put: { TableName: TABLE, Item: { ...LIKE(p), expiresAt: N(4102444800) }, ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now', ExpressionAttributeValues: { ':now': N(1750636800) } } }, add(p)],
    replayReasons: ['ConditionalCheckFailed', 'None'],
    counter: 1,
    rule: 'none',
  },
  {
    name: 'counter-only with a floor (likeTally > :zero): the floor holds again, the replay decrements twice',
    seed: (p) => [{ ...META(p), likeTally: N(5) }],
    tx: (p) => [add(p, -1, { ConditionExpression: 'likeTally > :zero', ExpressionAttributeValues: { ':zero': N(0) } })],
    counter: 3,
    rule: 'warning',
  },
  {
    name: 'a ConditionCheck holds again on the replay',
    seed: (p) => [LIKE(p)],
    tx: (p) => [{ ConditionCheck: { TableName: TABLE, Key: LIKE(p), ConditionExpression: 'attribute_exists(SK)' } }, add(p)],
    counter: 2,
    rule: 'warning',
  },
];

/** The reason codes of a TransactionCanceledException, or undefined when the call succeeded. */
async function reasonsOf(client: DynamoDBClient, input: TransactWriteItemsCommandInput): Promise<string[] | undefined> {
  try {
    await client.send(new TransactWriteItemsCommand(input));
    return undefined;
  } catch (e) {
    const err = e as { name?: string; CancellationReasons?: { Code?: string }[] };
    assert.equal(err.name, 'TransactionCanceledException', String(e));
    return (err.CancellationReasons ?? []).map((r) => r.Code ?? '');
  }
}

describe('transaction replays vs DynamoDB Local: what makes a counter transaction safe', function () {
  this.timeout(120_000);
  let local: LocalDynamo;

  before(async () => {
    await parsersReady();
    local = await startDynamoDBLocal();
    await createPkSkTable(local.client, TABLE);
  });
  after(async () => {
    await local?.stop();
  });

  SCENARIOS.forEach((s, i) => {
    it(s.name, async () => {
      const p = `p${i + 1}`;
      for (const item of s.seed?.(p) ?? []) await local.client.send(new PutItemCommand({ TableName: TABLE, Item: item }));
      const input: TransactWriteItemsCommandInput = { TransactItems: s.tx(p), ...(s.token ? { ClientRequestToken: s.token } : {}) };
      assert.equal(await reasonsOf(local.client, input), undefined, 'the first run succeeds');
      assert.deepEqual(await reasonsOf(local.client, input), s.replayReasons, 'the replay');
      const got = await local.client.send(new GetItemCommand({ TableName: TABLE, Key: META(p), ConsistentRead: true }));
      assert.equal(Number(got.Item?.likeTally?.N ?? 0), s.counter, 'the counter after the replay');

      const text = JSON.stringify({ ...input, TransactItems: s.tx('POST#a91f') }, null, 2) + '\n';
      const found = lint(text, 'json').filter((f) => f.ruleId === 'unguarded-add-in-transaction');
      assert.deepEqual(found.map((f) => f.severity), s.rule === 'none' ? [] : [s.rule], `unguarded-add-in-transaction on:\n${text}`);
      // A rule that calls the transaction safe must be right about it: the replay failed or changed nothing.
      if (s.rule === 'none') assert.ok(s.replayReasons || s.counter <= 1);
    });
  });
});
