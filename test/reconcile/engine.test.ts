import { strict as assert } from 'node:assert';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createClient, reconcile, ReconcileError, ReconcileReport } from '../../server/src/reconcile';
import { Item, createTable, likes, n, post, putItems, s, seedSocial, socialItems } from '../../server/src/reconcile/seed';
import { beforeSend, cuttableProxy, snapshot, tableName, useLocal } from './support';

const LIKES = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };
const PLAYS = { parentSk: 'STATS#TOTAL', counter: 'play_count', shardPrefix: 'STATS#TOTAL#' };

const rows = (r: ReconcileReport) => r.drifted.map((d) => ({ pk: d.key.PK, stored: d.stored, actual: d.actual, drift: d.drift }));
const expected = (xs: Array<{ pk: string; stored: number | null; actual: number }>) =>
  xs.map((x) => ({ ...x, drift: x.actual - (x.stored ?? 0) }));

describe('reconcile engine (DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  let client: DynamoDBClient;
  const social = tableName('Social');
  const seed = socialItems();

  before(async () => {
    client = createClient({ endpoint: local.get().endpoint });
    await seedSocial(local.get().client, social);
  });

  for (const segments of [1, 4]) {
    it(`finds over, under, missing-counter and childless drift over the whole table (${segments} segment(s))`, async () => {
      const r = await reconcile(client, { table: social, pattern: LIKES, scope: { kind: 'table', segments } });
      assert.deepEqual(rows(r), expected(seed.likeDrift));
      assert.equal(r.checked, seed.posts);
      assert.deepEqual(r.orphans, []);
      assert.equal(r.partial, undefined);
      assert.deepEqual(r.drifted[0].key, { PK: 'POST#c7d1', SK: 'META' });
      // A Scan reads (and bills) every item of the table, comments and videos included.
      assert.equal(r.itemsRead, seed.items.length);
      assert.ok(r.consumedRcu > 0);
    });
  }

  it('reads only the needed items for explicit keys, and reports a key without a parent as an orphan', async () => {
    const r = await reconcile(client, {
      table: social,
      pattern: LIKES,
      scope: { kind: 'keys', keys: ['POST#a91f', 'POST#b2c4', 'POST#d03e', 'POST#zz00'] },
    });
    assert.deepEqual(rows(r), [
      { pk: 'POST#b2c4', stored: 5, actual: 3, drift: -2 },
      { pk: 'POST#d03e', stored: null, actual: 2, drift: 2 },
    ]);
    assert.equal(r.checked, 3);
    assert.deepEqual(r.orphans, [{ key: { PK: 'POST#zz00' }, actual: 0 }]);
    // 3 parents + 3 + 3 + 2 likes; the comments in the same partitions are not read.
    assert.equal(r.itemsRead, 3 + 3 + 3 + 2);
  });

  it('finds partitions by key prefix up to the limit', async () => {
    const r = await reconcile(client, { table: social, pattern: LIKES, scope: { kind: 'prefix', prefix: 'POST#', limit: 4 } });
    assert.equal(r.checked, 4);
    const all = expected(seed.likeDrift);
    for (const row of rows(r)) assert.ok(all.some((e) => JSON.stringify(e) === JSON.stringify(row)), JSON.stringify(row));
    const none = await reconcile(client, { table: social, pattern: LIKES, scope: { kind: 'prefix', prefix: 'NOPE#', limit: 4 } });
    assert.equal(none.checked, 0);
  });

  it('checks a roll-up against the sum of its counter shards', async () => {
    const r = await reconcile(client, { table: social, pattern: PLAYS, scope: { kind: 'table', segments: 2 } });
    assert.deepEqual(rows(r), expected(seed.playDrift));
    assert.equal(r.checked, seed.videos);
    const byKey = await reconcile(client, { table: social, pattern: PLAYS, scope: { kind: 'keys', keys: ['VID#9f3a', 'VID#77aa'] } });
    assert.deepEqual(rows(byKey), expected(seed.playDrift));
    assert.equal(byKey.itemsRead, 2 + 8 + 4);
  });

  it('reports shard totals when nothing is compared with them', async () => {
    const r = await reconcile(client, { table: social, pattern: { counter: 'play_count', shardPrefix: 'STATS#TOTAL#' }, scope: { kind: 'table', segments: 1 } });
    assert.deepEqual(r.totals, [
      { key: { PK: 'VID#77aa' }, total: 12, shards: 4 },
      { key: { PK: 'VID#9f3a' }, total: 57, shards: 8 },
    ]);
    assert.deepEqual(r.drifted, []);
  });

  describe('with its own tables', () => {
    it('counts more than 1 MB of children across pages, sharded counts against children, and odd counters', async () => {
      const t = tableName('Big');
      await createTable(local.get().client, t);
      const items: Item[] = [
        post('big', 1000),
        ...likes('big', 1200, 1000), // ~1.2 MB of likes: several Query/Scan pages
        { PK: s('POST#str'), SK: s('META'), likeTally: s('3') },
        ...likes('str', 3),
        // A sharded like count (stored = sum of shards) against its children.
        { PK: s('POST#sh'), SK: s('COUNT#0'), likeTally: n(2) },
        { PK: s('POST#sh'), SK: s('COUNT#1'), likeTally: n(2) },
        ...likes('sh', 3),
        ...likes('orphan', 2),
      ];
      await putItems(local.get().client, t, items);
      const pages: string[] = [];
      const counting = createClient({ endpoint: local.get().endpoint });
      beforeSend(counting, (cmd) => void pages.push(cmd));
      const r = await reconcile(counting, { table: t, pattern: LIKES, scope: { kind: 'keys', keys: ['POST#big', 'POST#str', 'POST#orphan'] } });
      assert.deepEqual(rows(r), [
        { pk: 'POST#big', stored: 1000, actual: 1200, drift: 200 },
        { pk: 'POST#str', stored: null, actual: 3, drift: 3 },
      ]);
      assert.equal(r.drifted[1].note, 'counter holds S "3", not a number (never repaired)');
      assert.deepEqual(r.orphans, [{ key: { PK: 'POST#orphan' }, actual: 2 }]);
      assert.ok(pages.filter((c) => c === 'QueryCommand').length >= 3 + 1, `pages: ${pages.join(',')}`);
      const scan = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 3 } });
      assert.deepEqual(rows(scan), rows(r));
      assert.deepEqual(scan.orphans, [{ key: { PK: 'POST#orphan' }, actual: 2 }, { key: { PK: 'POST#sh' }, actual: 3 }]);

      // Stopped after the first 1 MB page: a partition cut by the stop is not reported with a partial count.
      const cut = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 1 }, maxRcu: 1 });
      assert.equal(cut.partial?.reason, 'budget');
      assert.equal(cut.requests, 1); // one Scan page, then the budget stops the run
      assert.ok(cut.checked < scan.checked);
      for (const row of rows(cut)) assert.ok(rows(scan).some((f) => JSON.stringify(f) === JSON.stringify(row)), JSON.stringify(row));

      const sharded = { counter: 'likeTally', shardPrefix: 'COUNT#', childPrefix: 'LIKE#' };
      const sh = await reconcile(client, { table: t, pattern: sharded, scope: { kind: 'keys', keys: ['POST#sh', 'POST#big'] } });
      assert.deepEqual(rows(sh), [
        { pk: 'POST#big', stored: null, actual: 1200, drift: 1200 },
        { pk: 'POST#sh', stored: 4, actual: 3, drift: -1 },
      ]);
      assert.deepEqual(sh.drifted[1].key, { PK: 'POST#sh' });
    });

    it('types numeric partition keys from the key schema', async () => {
      const t = tableName('Num');
      await createTable(local.get().client, t, 'N');
      await putItems(local.get().client, t, [
        { PK: n(7), SK: s('META'), likeTally: n(1) },
        { PK: n(7), SK: s('LIKE#a'), x: n(1) },
        { PK: n(7), SK: s('LIKE#b'), x: n(1) },
      ]);
      const r = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'keys', keys: ['7'] } });
      assert.deepEqual(r.drifted, [{ key: { PK: 7, SK: 'META' }, stored: 1, actual: 2, drift: 1 }]);
    });
  });

  it('costs twice the RCU with strongly consistent reads, the same items', async () => {
    const scope = { kind: 'keys' as const, keys: ['POST#a91f', 'POST#c7d1', 'VID#9f3a'] };
    const ev = await reconcile(client, { table: social, pattern: LIKES, scope });
    const st = await reconcile(client, { table: social, pattern: LIKES, scope, consistent: true });
    assert.equal(st.itemsRead, ev.itemsRead);
    assert.equal(st.consumedRcu, ev.consumedRcu * 2);
    assert.deepEqual(rows(st), rows(ev));
  });

  it('stops at the RCU budget with a partial report of finished partitions', async () => {
    const full = await reconcile(client, { table: social, pattern: LIKES, scope: { kind: 'keys', keys: seed.likeDrift.map((d) => d.pk) }, concurrency: 1 });
    const r = await reconcile(client, {
      table: social,
      pattern: LIKES,
      scope: { kind: 'keys', keys: seed.likeDrift.map((d) => d.pk) },
      concurrency: 1,
      maxRcu: 1.5,
    });
    assert.equal(r.partial?.reason, 'budget');
    assert.ok(r.consumedRcu >= 1.5 && r.consumedRcu < full.consumedRcu, `${r.consumedRcu} vs ${full.consumedRcu}`);
    assert.ok(r.checked >= 1 && r.checked < full.checked);
    for (const row of rows(r)) assert.ok(rows(full).some((f) => JSON.stringify(f) === JSON.stringify(row)));
  });

  it('retries throttled requests with backoff and reaches the same result', async () => {
    const flaky = createClient({ endpoint: local.get().endpoint });
    let sent = 0;
    beforeSend(flaky, (cmd) => {
      if (cmd !== 'DescribeTableCommand' && ++sent % 2 === 1) {
        throw Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException', $metadata: { httpStatusCode: 400 } });
      }
    });
    const r = await reconcile(flaky, { table: social, pattern: LIKES, scope: { kind: 'table', segments: 2 } });
    assert.deepEqual(rows(r), expected(seed.likeDrift));
    assert.ok(r.retries >= 2, `retries ${r.retries}`);
  });

  it('cancels on an AbortSignal and reports what finished', async () => {
    const ac = new AbortController();
    const before = await snapshot(local.get().client, social);
    let parents = 0;
    const r = await reconcile(client, {
      table: social,
      pattern: LIKES,
      scope: { kind: 'keys', keys: seed.likeDrift.map((d) => d.pk) },
      concurrency: 1,
      signal: ac.signal,
      onProgress: (p) => {
        parents = p.partitionsDone;
        if (p.partitionsDone === 2) ac.abort();
      },
    });
    assert.equal(r.partial?.reason, 'cancelled');
    assert.equal(parents, 2);
    assert.equal(r.checked, 2);
    assert.deepEqual(await snapshot(local.get().client, social), before);
  });

  it('fails with a clear error when the table is missing', async () => {
    await assert.rejects(
      reconcile(client, { table: 'NoSuchTable', pattern: LIKES, scope: { kind: 'table', segments: 1 } }),
      (e: unknown) => e instanceof ReconcileError && e.code === 'table-not-found' && e.message === 'Table "NoSuchTable" not found.',
    );
  });

  it('fails with "endpoint unreachable" when the endpoint goes down mid-scan, having written nothing', async () => {
    const before = await snapshot(local.get().client, social);
    const proxy = await cuttableProxy(local.get().port);
    const c = createClient({ endpoint: proxy.endpoint });
    let scans = 0;
    beforeSend(c, async (cmd) => {
      if (cmd === 'ScanCommand' && ++scans === 2) await proxy.cut();
    });
    await assert.rejects(
      reconcile(c, { table: social, pattern: LIKES, scope: { kind: 'table', segments: 2 } }),
      (e: unknown) => e instanceof ReconcileError && e.code === 'unreachable' && /^DynamoDB endpoint unreachable: (ECONNREFUSED|ECONNRESET)/.test(e.message),
    );
    assert.deepEqual(await snapshot(local.get().client, social), before);
  });

  it('rejects patterns that cannot be reconciled', async () => {
    for (const [pattern, msg] of [
      [{ counter: 'likeTally', parentSk: 'META' }, /child prefix/],
      [{ counter: 'likeTally', childPrefix: 'LIKE#' }, /parent sort key/],
      [{ counter: '', parentSk: 'META', childPrefix: 'LIKE#' }, /counter attribute is required/],
    ] as const) {
      await assert.rejects(reconcile(client, { table: social, pattern, scope: { kind: 'table', segments: 1 } }), msg);
    }
  });
});
