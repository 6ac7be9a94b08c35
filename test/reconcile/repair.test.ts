import { strict as assert } from 'node:assert';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createClient, reconcile, ReconcileError, repair } from '../../server/src/reconcile';
import { createTable, likeTransaction, likes, post, putItems, seedSocial } from '../../server/src/reconcile/seed';
import { beforeSend, snapshot, tableName, useLocal } from './support';

const LIKES = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };

describe('reconcile repair (DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  let client: DynamoDBClient;
  before(() => {
    client = createClient({ endpoint: local.get().endpoint });
  });

  async function tally(table: string, pk: string, sk = 'META', attr = 'likeTally'): Promise<string | undefined> {
    const out = await local.get().client.send(new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: sk } }, ConsistentRead: true }));
    return out.Item?.[attr]?.N;
  }

  it('writes only the chosen parents, only their counter, conditioned on what it read', async () => {
    const t = tableName('Social');
    const seed = await seedSocial(local.get().client, t);
    const before = await snapshot(local.get().client, t);
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4', 'POST#d03e', 'POST#a91f', 'POST#none'] });
    assert.deepEqual(
      r.results.map((x) => [x.key.PK, x.outcome]),
      [
        ['POST#b2c4', { status: 'repaired', from: 5, to: 3 }],
        ['POST#d03e', { status: 'repaired', from: null, to: 2 }],
        ['POST#a91f', { status: 'already-correct', value: 3 }],
        ['POST#none', { status: 'no-parent' }],
      ],
    );
    assert.equal(r.written, 2);
    assert.ok(r.consumedWcu >= 2);
    const after = await snapshot(local.get().client, t);
    const changed = after.filter((x) => !before.includes(x));
    const gone = before.filter((x) => !after.includes(x));
    assert.equal(after.length, before.length);
    assert.equal(changed.length, 2);
    assert.deepEqual(
      gone.map((g) => JSON.parse(g).filter(([k]: [string]) => k !== 'likeTally')),
      changed.map((c) => JSON.parse(c).filter(([k]: [string]) => k !== 'likeTally')),
    );
    const report = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 1 } });
    assert.deepEqual(
      report.drifted.map((d) => d.key.PK),
      seed.likeDrift.map((d) => d.pk).filter((pk) => pk !== 'POST#b2c4' && pk !== 'POST#d03e'),
    );
  });

  it('repairs a roll-up from its shards', async () => {
    const t = tableName('Social');
    await seedSocial(local.get().client, t);
    const pattern = { parentSk: 'STATS#TOTAL', counter: 'play_count', shardPrefix: 'STATS#TOTAL#' };
    const r = await repair(client, { table: t, pattern, parents: ['VID#9f3a'] });
    assert.deepEqual(r.results[0].outcome, { status: 'repaired', from: 41, to: 57 });
    assert.equal(await tally(t, 'VID#9f3a', 'STATS#TOTAL', 'play_count'), '57');
  });

  it('refuses to repair a sharded stored count', async () => {
    await assert.rejects(
      repair(client, { table: 'Any', pattern: { counter: 'likeTally', shardPrefix: 'COUNT#', childPrefix: 'LIKE#' }, parents: ['POST#x'] }),
      (e: unknown) => e instanceof ReconcileError && e.code === 'unsupported',
    );
  });

  it('writes nothing when cancelled, and stops between parents', async () => {
    const t = tableName('Social');
    await seedSocial(local.get().client, t);
    const before = await snapshot(local.get().client, t);
    const ac = new AbortController();
    ac.abort();
    // Cancelled before the key schema was read: nothing to report, nothing written.
    await assert.rejects(
      repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4', 'POST#c7d1'], signal: ac.signal }),
      (e: unknown) => e instanceof ReconcileError && e.code === 'cancelled',
    );
    assert.deepEqual(await snapshot(local.get().client, t), before);

    const ac2 = new AbortController();
    const r2 = await repair(client, {
      table: t,
      pattern: LIKES,
      parents: ['POST#b2c4', 'POST#c7d1', 'POST#d03e'],
      signal: ac2.signal,
      onProgress: (done) => done === 1 && ac2.abort(),
    });
    assert.deepEqual(
      r2.results.map((x) => x.outcome.status),
      ['repaired', 'not-attempted', 'not-attempted'],
    );
    assert.equal(r2.written, 1);
    assert.equal(r2.partial?.reason, 'cancelled');
    assert.equal(await tally(t, 'POST#c7d1'), '1');
    assert.equal(await tally(t, 'POST#d03e'), undefined);
  });

  it('never loses a like that arrives while it repairs: every count ends exact', async () => {
    const t = tableName('Race');
    await createTable(local.get().client, t);
    const posts = Array.from({ length: 12 }, (_, i) => `p${i}`);
    // Each post drifted: likes written without the transaction, a counter too low or missing.
    await putItems(
      local.get().client,
      t,
      posts.flatMap((p, i) => [post(p, i % 3 === 0 ? undefined : i), ...likes(p, 5 + i)]),
    );
    // Likes keep arriving through the guarded transaction, from a separate client, during the whole repair.
    let stop = false;
    let arrived = 0;
    let user = 0;
    const stream = (async () => {
      while (!stop) {
        const p = posts[user % posts.length];
        if (await likeTransaction(local.get().client, t, p, `live${user++}`)) arrived++;
      }
    })();
    // And one like lands exactly between each parent's first count and its write: that write must be refused.
    const repairing = createClient({ endpoint: local.get().endpoint });
    const raced = new Set<string>();
    let updates = 0;
    beforeSend(repairing, async (cmd, input) => {
      if (cmd !== 'UpdateItemCommand') return;
      updates++;
      const pk = (input.Key as { PK: { S: string } }).PK.S;
      if (raced.has(pk)) return;
      raced.add(pk);
      assert.equal(await likeTransaction(local.get().client, t, pk.slice('POST#'.length), `race-${pk}`), true);
    });
    const first = await repair(repairing, { table: t, pattern: LIKES, parents: posts.map((p) => `POST#${p}`), attempts: 5 });
    stop = true;
    await stream;
    assert.ok(arrived > 0);
    assert.equal(raced.size, posts.length);
    assert.ok(updates >= 2 * posts.length, `updates ${updates}`);
    for (const x of first.results) assert.ok(['repaired', 'changed'].includes(x.outcome.status), JSON.stringify(x));
    // Parents skipped because likes kept changing them are repaired once the storm is over.
    const skipped = first.results.filter((x) => x.outcome.status === 'changed').map((x) => String(x.key.PK));
    if (skipped.length) {
      const second = await repair(client, { table: t, pattern: LIKES, parents: skipped });
      assert.deepEqual(second.results.map((x) => x.outcome.status), skipped.map(() => 'repaired'));
    }
    const after = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 2 }, consistent: true });
    assert.deepEqual(after.drifted, []);
    assert.equal(after.checked, posts.length);
    // Every like is counted: the seeded ones, the raced ones and the streamed ones.
    let total = 0;
    for (const p of posts) total += Number(await tally(t, `POST#${p}`));
    const seeded = posts.reduce((a, _, i) => a + 5 + i, 0);
    assert.equal(total, seeded + posts.length + arrived);
  });
});
