/**
 * Our capacity estimate against DynamoDB Local's `ReturnConsumedCapacity: "TOTAL"`, on items built to exact sizes
 * (by our size model) around the 1 KB write and 4 KB read boundaries. Sizes the request cannot show (the stored item
 * for Get/Update/Delete/Query) are given to the estimator through `assumedItemSizeBytes`, as a user would set it.
 * Where Local departs from the documented rule (transactions), the test pins Local's figure and asserts the
 * documented one for ours.
 */
import { strict as assert } from 'node:assert';
import {
  AttributeValue,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { LocalDynamo, createPkSkTable, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { estimate, itemSize } from '../../server/src/cost';
import type { Api } from '../../server/src/extract/model';
import { DEFAULT_SETTINGS, DynalintSettings } from '../../server/src/protocol/settings';
import { site, v } from '../unit/cost/build';

const TABLE = 'CostDiff';
type Item = Record<string, AttributeValue>;

const assumed = (bytes: number): DynalintSettings => ({ ...DEFAULT_SETTINGS, cost: { ...DEFAULT_SETTINGS.cost, assumedItemSizeBytes: bytes } });
const sizeOf = (item: Item) => {
  const s = itemSize(v(item), 'low-level');
  assert.ok(s.known);
  return s.bytes;
};

let seq = 0;
/** An item of exactly `bytes` bytes by our model, in partition `pk`, with `extra` attributes, padded with a string. */
function sized(bytes: number, extra: Item = {}, pk = `p${++seq}`): Item {
  const base: Item = { PK: { S: pk }, SK: { S: `s${++seq}` }, ...extra, pad: { S: '' } };
  const pad = bytes - sizeOf(base);
  assert.ok(pad >= 0, `cannot build a ${bytes}-byte item`);
  return { ...base, pad: { S: 'x'.repeat(pad) } };
}

const keyOf = (item: Item): Item => ({ PK: item.PK, SK: item.SK });

describe('cost vs DynamoDB Local: consumed capacity', function () {
  this.timeout(120_000);
  let local: LocalDynamo;
  let client: DynamoDBClient;

  before(async () => {
    local = await startDynamoDBLocal();
    client = local.client;
    await createPkSkTable(client, TABLE);
  });
  after(async () => {
    await local?.stop();
  });

  /** Sends the request (with ReturnConsumedCapacity TOTAL) and returns Local's total capacity units. */
  async function consumed(api: Api, params: Record<string, unknown>): Promise<number> {
    const input = { ...params, ReturnConsumedCapacity: 'TOTAL' } as never;
    type Capacity = { CapacityUnits?: number };
    const send: Partial<Record<Api, () => Promise<{ ConsumedCapacity?: Capacity | Capacity[] }>>> = {
      PutItem: () => client.send(new PutItemCommand(input)),
      UpdateItem: () => client.send(new UpdateItemCommand(input)),
      DeleteItem: () => client.send(new DeleteItemCommand(input)),
      GetItem: () => client.send(new GetItemCommand(input)),
      Query: () => client.send(new QueryCommand(input)),
      BatchGetItem: () => client.send(new BatchGetItemCommand(input)),
      BatchWriteItem: () => client.send(new BatchWriteItemCommand(input)),
      TransactWriteItems: () => client.send(new TransactWriteItemsCommand(input)),
      TransactGetItems: () => client.send(new TransactGetItemsCommand(input)),
    };
    const out = await send[api]!();
    const cc = out.ConsumedCapacity;
    const list = Array.isArray(cc) ? cc : cc ? [cc] : [];
    return list.reduce((a, c) => a + (c.CapacityUnits ?? 0), 0);
  }

  function ours(api: Api, params: Record<string, unknown>, settings: DynalintSettings = DEFAULT_SETTINGS): number {
    const e = estimate(site(api, 'low-level', params), settings);
    return e.wcu + e.rcu;
  }

  async function put(item: Item): Promise<void> {
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item }));
  }

  describe('PutItem around the 1 KB boundary', () => {
    for (const bytes of [40, 1023, 1024, 1025, 2048, 2049, 4096, 4097, 10_240, 10_241]) {
      it(`${bytes}-byte item`, async () => {
        const params = { TableName: TABLE, Item: sized(bytes) };
        const expected = Math.ceil(bytes / 1024);
        assert.equal(ours('PutItem', params), expected);
        assert.equal(await consumed('PutItem', params), expected);
      });
    }
  });

  describe('item size of every attribute type, at the 1 KB boundary (1024 B -> 1 WCU, 1025 B -> 2 WCU)', () => {
    const values: [string, AttributeValue][] = [
      ...['0', '1', '99', '100', '123', '12345', '-1', '-12.5', '1.5', '0.005', '1.001', '1E-130', '9.9E125', '12345678901234567890123456789012345678', '-1.2345678901234567890123456789012345678'].map(
        (n): [string, AttributeValue] => [`N ${n}`, { N: n }],
      ),
      ['S multibyte', { S: 'é€😀' }],
      ['BOOL', { BOOL: false }],
      ['NULL', { NULL: true }],
      ['SS', { SS: ['a', 'bb', 'ccc'] }],
      ['NS', { NS: ['1', '-2.5', '300'] }],
      ['BS', { BS: [new Uint8Array([1, 2, 3]), new Uint8Array([4])] }],
      ['empty L', { L: [] }],
      ['empty M', { M: {} }],
      ['nested L/M', { M: { tags: { L: [{ S: 'ab' }, { N: '12' }, { M: { deep: { BOOL: true } } }] }, n: { N: '7' } } }],
    ];
    for (const [name, value] of values) {
      it(name, async () => {
        // Binary sets go to the SDK as bytes but to our model as base64 text (the JSON form).
        const modelValue: AttributeValue = value.BS ? { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) as never } : value;
        const at = (bytes: number) => {
          const modelItem = sized(bytes, { v: modelValue });
          return { model: modelItem, sent: { ...modelItem, v: value } };
        };
        for (const [bytes, wcu] of [[1024, 1], [1025, 2]]) {
          const { model, sent } = at(bytes);
          assert.equal(ours('PutItem', { TableName: TABLE, Item: model }), wcu);
          assert.equal(await consumed('PutItem', { TableName: TABLE, Item: sent }), wcu, `${bytes} bytes`);
        }
      });
    }
  });

  describe('UpdateItem pays the larger of before and after', () => {
    for (const [before, added] of [[1000, 10], [1020, 10], [1024, 0], [1025, 0], [2000, 100], [3000, 1100]]) {
      it(`${before}-byte item, update adding ${added} bytes`, async () => {
        const item = sized(before);
        await put(item);
        const extra = { S: 'y'.repeat(Math.max(0, added - 5)) }; // attribute `extra` (5) + value
        const params = {
          TableName: TABLE,
          Key: keyOf(item),
          UpdateExpression: added ? 'SET extra = :e' : 'REMOVE nothing',
          ...(added ? { ExpressionAttributeValues: { ':e': extra } } : {}),
        };
        const after = added ? sizeOf({ ...item, extra }) : before;
        assert.equal(ours('UpdateItem', params, assumed(Math.max(before, after))), Math.ceil(Math.max(before, after) / 1024));
        assert.equal(await consumed('UpdateItem', params), Math.ceil(Math.max(before, after) / 1024));
      });
    }
    it('an ADD counter on a missing item: 1 WCU', async () => {
      const params = { TableName: TABLE, Key: { PK: { S: 'counter' }, SK: { S: 'c' } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } };
      assert.equal(ours('UpdateItem', params, assumed(30)), 1);
      assert.equal(await consumed('UpdateItem', params), 1);
    });
  });

  describe('DeleteItem pays the deleted item size', () => {
    for (const bytes of [500, 1025, 3000]) {
      it(`${bytes}-byte item`, async () => {
        const item = sized(bytes);
        await put(item);
        const params = { TableName: TABLE, Key: keyOf(item) };
        assert.equal(ours('DeleteItem', params, assumed(bytes)), Math.ceil(bytes / 1024));
        assert.equal(await consumed('DeleteItem', params), Math.ceil(bytes / 1024));
      });
    }
  });

  describe('GetItem around the 4 KB boundary, strong and eventual', () => {
    for (const bytes of [100, 4095, 4096, 4097, 8192, 8193]) {
      for (const consistent of [true, false]) {
        it(`${bytes}-byte item, ConsistentRead ${consistent}`, async () => {
          const item = sized(bytes);
          await put(item);
          const params = { TableName: TABLE, Key: keyOf(item), ConsistentRead: consistent };
          const expected = Math.ceil(bytes / 4096) * (consistent ? 1 : 0.5);
          assert.equal(ours('GetItem', params, assumed(bytes)), expected);
          assert.equal(await consumed('GetItem', params), expected);
        });
      }
    }
  });

  describe('Query sums the items read, then rounds up to 4 KB (COUNT and filters still pay)', () => {
    for (const [count, bytes] of [[3, 1365], [3, 1366], [4, 1024], [5, 1024], [10, 4000]]) {
      it(`${count} items of ${bytes} bytes`, async () => {
        const pk = `q${++seq}`;
        for (let i = 0; i < count; i++) await put(sized(bytes, {}, pk));
        const expected = Math.ceil((count * bytes) / 4096);
        const base = { TableName: TABLE, KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: pk } }, Limit: count };
        for (const [extra, factor] of [
          [{ ConsistentRead: true }, 1],
          [{}, 0.5],
          [{ Select: 'COUNT', ConsistentRead: true }, 1],
          [{ FilterExpression: 'attribute_exists(nope)', ConsistentRead: true }, 1],
        ] as const) {
          const params = { ...base, ...extra };
          assert.equal(ours('Query', params, assumed(bytes)), expected * factor, JSON.stringify(extra));
          assert.equal(await consumed('Query', params), expected * factor, JSON.stringify(extra));
        }
      });
    }
  });

  describe('batches round per item', () => {
    it('BatchWriteItem of 500 B, 1025 B and 3.5 KB items: 1 + 2 + 4 WCU', async () => {
      const items = [sized(500), sized(1025), sized(3584)];
      const params = { RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } };
      assert.equal(ours('BatchWriteItem', params), 7);
      assert.equal(await consumed('BatchWriteItem', params), 7);
    });
    it('BatchGetItem of three 1.5 KB items: 3 × 1 RCU strong, 3 × 0.5 eventual', async () => {
      const items = [sized(1536), sized(1536), sized(1536)];
      for (const item of items) await put(item);
      for (const [consistent, expected] of [[true, 3], [false, 1.5]] as const) {
        const params = { RequestItems: { [TABLE]: { Keys: items.map(keyOf), ConsistentRead: consistent } } };
        assert.equal(ours('BatchGetItem', params, assumed(1536)), expected);
        assert.equal(await consumed('BatchGetItem', params), expected);
      }
    });
  });

  describe('transactions: the documented 2x per item; Local reports differently (pinned)', () => {
    it('a like (Put child + Update parent, both under 1 KB): documented 4 WCU', async () => {
      const parent = sized(200);
      await put(parent);
      const child = sized(120);
      const params = {
        TransactItems: [
          { Put: { TableName: TABLE, Item: child, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Update: { TableName: TABLE, Key: keyOf(parent), UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
        ],
      };
      assert.equal(ours('TransactWriteItems', params, assumed(210)), 4);
      assert.equal(await consumed('TransactWriteItems', params), LOCAL_TRANSACT_WRITE_LIKE);
    });
    it('three 1.5 KB writes: documented 3 × 2 × 2 = 12 WCU', async () => {
      const params = { TransactItems: [sized(1536), sized(1536), sized(1536)].map((Item) => ({ Put: { TableName: TABLE, Item } })) };
      assert.equal(ours('TransactWriteItems', params), 12);
      assert.equal(await consumed('TransactWriteItems', params), LOCAL_TRANSACT_WRITE_THREE);
    });
    it('three 500 B writes: documented 3 × 2 = 6 WCU', async () => {
      const params = { TransactItems: [sized(500), sized(500), sized(500)].map((Item) => ({ Put: { TableName: TABLE, Item } })) };
      assert.equal(ours('TransactWriteItems', params), 6);
      assert.equal(await consumed('TransactWriteItems', params), LOCAL_TRANSACT_WRITE_THREE_SMALL);
    });
    it('a 3 KB write with two 200 B writes: documented 6 + 2 + 2 = 10 WCU', async () => {
      const params = { TransactItems: [sized(3072), sized(200), sized(200)].map((Item) => ({ Put: { TableName: TABLE, Item } })) };
      assert.equal(ours('TransactWriteItems', params), 10);
      assert.equal(await consumed('TransactWriteItems', params), LOCAL_TRANSACT_WRITE_MIXED);
    });
    it('a ConditionCheck and a Put, both under 1 KB: documented 2 + 2 = 4 WCU', async () => {
      const checked = sized(300);
      await put(checked);
      const params = {
        TransactItems: [
          { ConditionCheck: { TableName: TABLE, Key: keyOf(checked), ConditionExpression: 'attribute_exists(PK)' } },
          { Put: { TableName: TABLE, Item: sized(300) } },
        ],
      };
      assert.equal(ours('TransactWriteItems', params, assumed(300)), 4);
      assert.equal(await consumed('TransactWriteItems', params), LOCAL_TRANSACT_CHECK_PUT);
    });
    it('TransactGetItems of three 5 KB items: documented 3 × 2 × 2 = 12 RCU', async () => {
      const items = [sized(5120), sized(5120), sized(5120)];
      for (const item of items) await put(item);
      const params = { TransactItems: items.map((item) => ({ Get: { TableName: TABLE, Key: keyOf(item) } })) };
      assert.equal(ours('TransactGetItems', params, assumed(5120)), 12);
      assert.equal(await consumed('TransactGetItems', params), LOCAL_TRANSACT_GET_THREE);
    });
  });
});

/**
 * What DynamoDB Local reports for the transaction cases above. For TransactWriteItems it does not follow the documented
 * "2 WCU per KB per item" (three 500 B puts: 4, not 6; three 1.5 KB puts: 8, not 12; 3 KB + 2 × 200 B: 16, not 10);
 * it agrees by coincidence on the two-item like (4). Its TransactGetItems figure follows the documented 2x rule.
 * Ours follows the documentation (asserted next to each pinned figure).
 */
const LOCAL_TRANSACT_WRITE_LIKE = 4;
const LOCAL_TRANSACT_WRITE_THREE = 8;
const LOCAL_TRANSACT_WRITE_THREE_SMALL = 4;
const LOCAL_TRANSACT_WRITE_MIXED = 16;
const LOCAL_TRANSACT_CHECK_PUT = 4;
const LOCAL_TRANSACT_GET_THREE = 12;
