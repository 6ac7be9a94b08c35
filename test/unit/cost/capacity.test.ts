import { strict as assert } from 'node:assert';
import { estimate, readUnits, writeUnits } from '../../../server/src/cost';
import { DEFAULT_SETTINGS, DynalintSettings } from '../../../server/src/protocol/settings';
import { UNKNOWN, site } from './build';

const KB = 1024;
const withCost = (cost: Partial<DynalintSettings['cost']>): DynalintSettings => ({ ...DEFAULT_SETTINGS, cost: { ...DEFAULT_SETTINGS.cost, ...cost } });

/** An item of exactly `bytes` bytes: `pk` (2 + its value) + `pad` (3 + its value). */
const padLength = (bytes: number, pk: string) => bytes - 2 - pk.length - 3;
const lowItem = (bytes: number, pk = 'a') => ({ pk: { S: pk }, pad: { S: 'x'.repeat(padLength(bytes, pk)) } });
const docItem = (bytes: number, pk = 'a') => ({ pk, pad: 'x'.repeat(padLength(bytes, pk)) });

describe('cost: the AWS developer guide\'s capacity examples', () => {
  // "Read/write capacity mode" and "Item sizes" examples.
  it('reading an 8 KB item: 2 RCU strong, 1 eventual, 4 transactional', () => {
    assert.deepEqual([readUnits(8 * KB, 'strong'), readUnits(8 * KB, 'eventual'), readUnits(8 * KB, 'transactional')], [2, 1, 4]);
  });
  it('a 3.5 KB read is rounded up to 4 KB', () => assert.equal(readUnits(3.5 * KB, 'strong'), 1));
  it('BatchGetItem of a 1.5 KB and a 6.5 KB item rounds each: 4 KB + 8 KB = 3 RCU, not 2', () => {
    assert.equal(readUnits(1.5 * KB, 'strong') + readUnits(6.5 * KB, 'strong'), 3);
  });
  it('a Query returning 10 items of 40.8 KB in total is rounded to 44 KB: 11 RCU', () => {
    assert.equal(readUnits(40.8 * KB, 'strong'), 11);
  });
  it('a Query reading 1,500 items of 64 bytes: 96 KB, 24 RCU strong, 12 eventual', () => {
    assert.deepEqual([readUnits(1500 * 64, 'strong'), readUnits(1500 * 64, 'eventual')], [24, 12]);
  });
  it('writes: 1 WCU per KB rounded per item; BatchWrite of 500 B + 3.5 KB is 1 + 4 = 5 WCU', () => {
    assert.deepEqual([writeUnits(500), writeUnits(1 * KB), writeUnits(1 * KB + 1), writeUnits(3 * KB)], [1, 1, 2, 3]);
    assert.equal(writeUnits(500) + writeUnits(3.5 * KB), 5);
  });
  it('transactional writes: 2 WCU per KB (1 KB -> 2, 3 KB -> 6)', () => {
    assert.deepEqual([writeUnits(1 * KB, true), writeUnits(3 * KB, true)], [2, 6]);
  });
  it('touching a missing item still pays the minimum unit', () => {
    assert.deepEqual([writeUnits(0), readUnits(0, 'strong'), readUnits(0, 'eventual')], [1, 1, 0.5]);
  });
});

describe('cost: capacity per operation', () => {
  it('PutItem at the 1 KB boundary, both value styles', () => {
    for (const [bytes, wcu] of [[1024, 1], [1025, 2], [2048, 2], [2049, 3]]) {
      assert.equal(estimate(site('PutItem', 'low-level', { TableName: 'T', Item: lowItem(bytes) }), DEFAULT_SETTINGS).wcu, wcu, `low-level ${bytes}`);
      assert.equal(estimate(site('PutItem', 'document', { TableName: 'T', Item: docItem(bytes) }), DEFAULT_SETTINGS).wcu, wcu, `document ${bytes}`);
    }
  });
  it('PutItem with a non-literal attribute uses the assumed size, keeping the shown bytes as a lower bound', () => {
    const small = estimate(site('PutItem', 'document', { Item: { ...docItem(100), body: UNKNOWN } }), DEFAULT_SETTINGS);
    assert.deepEqual([small.wcu, small.operations[0].size], [1, { bytes: 1024, source: 'assumed', shownBytes: 104 }]);
    assert.deepEqual(small.assumptions, ['Put: item size assumed 1 KB (the item is not fully literal).']);
    const big = estimate(site('PutItem', 'document', { Item: { ...docItem(3000), body: UNKNOWN } }), DEFAULT_SETTINGS);
    assert.deepEqual([big.wcu, big.operations[0].size], [3, { bytes: 3004, source: 'assumed', shownBytes: 3004 }]);
    assert.deepEqual(big.assumptions, ['Put: the item is not fully literal; priced on the 2.9 KB it shows (a lower bound).']);
  });
  it('UpdateItem is priced on the assumed size (before/after unknown) and says so', () => {
    const e = estimate(site('UpdateItem', 'low-level', { TableName: 'Posts', Key: { pk: { S: 'P#1' } }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': { N: '1' } } }), withCost({ assumedItemSizeBytes: 1500 }));
    assert.equal(e.wcu, 2);
    assert.deepEqual(e.operations[0].size, { bytes: 1500, source: 'assumed', shownBytes: 5 });
    assert.match(e.assumptions[0], /^Update: item size assumed 1\.5 KB \(UpdateItem pays the larger of the item before and after/);
  });
  it('DeleteItem and GetItem use the assumed size; GetItem is eventual unless ConsistentRead is true', () => {
    const s = withCost({ assumedItemSizeBytes: 5000 });
    assert.equal(estimate(site('DeleteItem', 'document', { Key: { pk: 'a' } }), s).wcu, 5);
    assert.equal(estimate(site('GetItem', 'document', { Key: { pk: 'a' } }), s).rcu, 1);
    assert.equal(estimate(site('GetItem', 'document', { Key: { pk: 'a' }, ConsistentRead: true }), s).rcu, 2);
    assert.equal(estimate(site('GetItem', 'document', { Key: { pk: 'a' }, ConsistentRead: false }), s).rcu, 1);
  });
  it('Query/Scan sum the items read then round; Limit is the item count, else 100 items are assumed', () => {
    const s = withCost({ assumedItemSizeBytes: 1500 });
    const q = (extra: Record<string, unknown>) => estimate(site('Query', 'low-level', { TableName: 'T', KeyConditionExpression: 'pk = :p', ...extra }), s);
    assert.equal(q({ Limit: 3 }).rcu, 1); // 4500 B -> 2 RCU strong -> 1 eventual
    assert.equal(q({ Limit: 3, ConsistentRead: true }).rcu, 2);
    const open = q({});
    assert.deepEqual([open.rcu, open.operations[0].items, open.operations[0].itemsKnown], [Math.ceil((100 * 1500) / 4096) / 2, 100, false]);
    assert.ok(open.assumptions.includes('Query: the number of items read is unknown; priced per 100 items read.'));
    assert.equal(estimate(site('Scan', 'document', { TableName: 'T', Limit: 10 }), s).rcu, 2); // 15000 B -> 4 RCU -> 2 eventual
  });
  it('Select COUNT and filters still pay for every item read, with advice', () => {
    const s = withCost({ assumedItemSizeBytes: 400 });
    const count = estimate(site('Query', 'document', { KeyConditionExpression: 'pk = :p', Select: 'COUNT', Limit: 50 }), s);
    assert.equal(count.rcu, readUnits(50 * 400, 'eventual'));
    assert.deepEqual(count.advice, ['Query with `Select: COUNT` pays for every item it reads: keep a count on the parent item instead.']);
    const filtered = estimate(site('Scan', 'document', { FilterExpression: 'x = :x', Limit: 50 }), s);
    assert.equal(filtered.rcu, count.rcu);
    assert.deepEqual(filtered.advice, ['Scan with a FilterExpression pays for every item read, including the ones the filter drops.']);
  });
  it('BatchGetItem rounds per key; BatchWriteItem per request', () => {
    const s = withCost({ assumedItemSizeBytes: 1500 });
    const get = estimate(site('BatchGetItem', 'document', { RequestItems: { A: { Keys: [{ pk: '1' }, { pk: '2' }, { pk: '3' }] }, B: { Keys: [{ pk: '1' }], ConsistentRead: true } } }), s);
    assert.deepEqual(get.operations.map((o) => [o.table, o.items, o.units]), [['A', 3, 1.5], ['B', 1, 1]]);
    assert.equal(get.rcu, 2.5);
    const write = estimate(
      site('BatchWriteItem', 'low-level', {
        RequestItems: { T: [{ PutRequest: { Item: lowItem(500) } }, { PutRequest: { Item: lowItem(3584) } }, { DeleteRequest: { Key: { pk: { S: 'z' } } } }] },
      }),
      s,
    );
    assert.deepEqual(write.operations.map((o) => o.units), [1, 4, 2]);
    assert.equal(write.wcu, 7);
  });
  it('"a like is about 4 WCU": Put child + Update parent under 1 KB in one TransactWriteItems', () => {
    const like = site('TransactWriteItems', 'low-level', {
      TransactItems: [
        { Put: { TableName: 'Likes', Item: { pk: { S: 'POST#1' }, sk: { S: 'LIKE#u1' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: 'Posts', Key: { pk: { S: 'POST#1' } }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
      ],
    });
    const e = estimate(like, DEFAULT_SETTINGS);
    assert.deepEqual(e.operations.map((o) => [o.kind, o.units]), [['Put', 2], ['Update', 2]]);
    assert.equal(e.wcu, 4);
    assert.equal(e.rcu, 0);
    assert.equal(e.onDemand.perMillion, 2.5);
    assert.ok(Math.abs(e.provisioned.perHour - 0.0026) < 1e-12);
    assert.ok(Math.abs(e.provisioned.perMonth - 1.898) < 1e-9);
  });
  it('ConditionCheck in a transaction is a transactional write of the checked item; TransactGetItems reads 2x', () => {
    const tw = estimate(
      site('TransactWriteItems', 'document', {
        TransactItems: [{ ConditionCheck: { TableName: 'T', Key: { pk: 'a' }, ConditionExpression: 'attribute_exists(pk)' } }, { Delete: { TableName: 'T', Key: { pk: 'b' } } }],
      }),
      DEFAULT_SETTINGS,
    );
    assert.deepEqual(tw.operations.map((o) => [o.kind, o.unit, o.units]), [['ConditionCheck', 'WCU', 2], ['Delete', 'WCU', 2]]);
    const tg = estimate(site('TransactGetItems', 'document', { TransactItems: [{ Get: { TableName: 'T', Key: { pk: 'a' } } }, { Get: { TableName: 'T', Key: { pk: 'b' } } }] }), withCost({ assumedItemSizeBytes: 5000 }));
    assert.deepEqual(tg.operations.map((o) => [o.consistency, o.units]), [['transactional', 4], ['transactional', 4]]);
    assert.equal(tg.rcu, 8);
  });
  it('PartiQL requests are not estimated', () => {
    const e = estimate(site('ExecuteStatement', 'low-level', { Statement: 'SELECT * FROM T' }), DEFAULT_SETTINGS);
    assert.deepEqual([e.estimated, e.wcu, e.rcu, e.operations.length], [false, 0, 0, 0]);
  });
});

describe('cost: counter advice', () => {
  const update = (expr: string, values: Record<string, unknown>, names?: Record<string, string>) =>
    estimate(site('UpdateItem', 'low-level', { Key: { pk: { S: 'a' } }, UpdateExpression: expr, ExpressionAttributeValues: values, ...(names ? { ExpressionAttributeNames: names } : {}) }), DEFAULT_SETTINGS);
  const cases: [string, string, Record<string, unknown>, string[], Record<string, string>?][] = [
    ['ADD a number', 'ADD views :n', { ':n': { N: '1' } }, ['views']],
    ['SET x = x + :n', 'SET views = views + :n', { ':n': { N: '1' } }, ['views']],
    ['SET x = :n + x', 'SET views = :n + views', { ':n': { N: '1' } }, ['views']],
    ['SET x = if_not_exists(x, :z) - :n, through #names', 'SET #s = if_not_exists(#s, :z) - :n', { ':n': { N: '1' }, ':z': { N: '0' } }, ['stock'], { '#s': 'stock' }],
    ['two counters', 'ADD a :n, b :n', { ':n': { N: '1' } }, ['a', 'b']],
    ['a plain SET is no counter', 'SET title = :t', { ':t': { S: 'x' } }, []],
    ['SET x = :a + :b is no counter', 'SET total = :a + :b', { ':a': { N: '1' }, ':b': { N: '2' } }, []],
    ['ADD to a string set is no counter', 'ADD tags :s', { ':s': { SS: ['a'] } }, []],
  ];
  for (const [name, expr, values, counters, names] of cases) {
    it(name, () => {
      const e = update(expr, values, names);
      assert.deepEqual(e.operations[0].counters, counters);
      assert.equal(e.advice.length, counters.length ? 1 : 0);
      if (counters.length) assert.ok(e.advice[0].startsWith(`Counter ${counters.map((c) => `\`${c}\``).join(', ')}: a single item is capped by one partition's 1,000 WCU/s`));
    });
  }
});

describe('cost: prices', () => {
  const put = site('PutItem', 'document', { Item: docItem(100) });
  it('us-east-1 on-demand and provisioned defaults', () => {
    const e = estimate(put, DEFAULT_SETTINGS);
    assert.deepEqual([e.prices.region, e.prices.source, e.onDemand.perMillion, e.onDemand.perCall, e.provisioned.perHour], ['us-east-1', 'built-in', 0.625, 0.625e-6, 0.00065]);
  });
  it('settings override a region field by field', () => {
    const e = estimate(put, withCost({ prices: { 'us-east-1': { writeRequestPerMillion: 1.25 } } }));
    assert.deepEqual([e.prices.source, e.onDemand.perMillion, e.prices.table.readRequestPerMillion], ['settings', 1.25, 0.125]);
  });
  it('an unknown region falls back to us-east-1 prices unless the settings give all four', () => {
    const fallback = estimate(put, withCost({ region: 'eu-west-1' }));
    assert.deepEqual([fallback.prices.region, fallback.prices.source, fallback.onDemand.perMillion], ['eu-west-1', 'fallback', 0.625]);
    const full = estimate(put, withCost({ region: 'eu-west-1', prices: { 'eu-west-1': { writeRequestPerMillion: 0.7, readRequestPerMillion: 0.14, wcuHour: 0.0007, rcuHour: 0.00014 } } }));
    assert.deepEqual([full.prices.source, full.onDemand.perMillion], ['settings', 0.7]);
  });
  it('ignores invalid price overrides', () => {
    const e = estimate(put, withCost({ prices: { 'us-east-1': { writeRequestPerMillion: -1, wcuHour: Number.NaN } } }));
    assert.deepEqual([e.prices.source, e.onDemand.perMillion, e.provisioned.perHour], ['built-in', 0.625, 0.00065]);
  });
});
