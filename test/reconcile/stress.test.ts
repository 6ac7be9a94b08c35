/**
 * The reconcile engine and CLI on tables other people have: other key names, no sort key, numeric keys, counters
 * stored as strings, parents gone, parents changing under the repair, endpoints that are not DynamoDB.
 */
import { strict as assert } from 'node:assert';
import { createServer as createHttpServer, Server } from 'node:http';
import { createServer as createTcpServer, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import { DeleteItemCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createClient, formatRepair, reconcile, ReconcileError, ReconcileReport, repair, Scope } from '../../server/src/reconcile';
import { Item, createTable, likeTransaction, likes, n, post, putItems, s } from '../../server/src/reconcile/seed';
import { beforeSend, createKeyedTable, runReconcile, snapshot, tableName, useLocal } from './support';

const LIKES = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };

/** Every drifted row as JSON carries key, stored (number or null), actual and drift (numbers), drift = actual - stored. */
function assertRows(drifted: unknown[]): void {
  for (const row of drifted as Array<Record<string, unknown>>) {
    assert.equal(typeof row.key, 'object', JSON.stringify(row));
    assert.ok(row.stored === null || typeof row.stored === 'number', JSON.stringify(row));
    assert.equal(typeof row.actual, 'number', JSON.stringify(row));
    assert.equal(row.drift, (row.actual as number) - ((row.stored as number | null) ?? 0), JSON.stringify(row));
  }
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('reconcile on other people\'s tables (DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  let client: DynamoDBClient;
  const ep = () => local.get().endpoint;
  before(() => {
    client = createClient({ endpoint: ep() });
  });

  it('learns key names from DescribeTable (pk/sk, postId/itemType) in every scope, and repairs by those names', async () => {
    const lower = tableName('lower');
    await createKeyedTable(local.get().client, lower, ['pk', 'S'], ['sk', 'S']);
    await putItems(local.get().client, lower, [
      { pk: s('p1'), sk: s('META'), likeTally: n(1) },
      { pk: s('p1'), sk: s('LIKE#a') },
      { pk: s('p1'), sk: s('LIKE#b') },
      { pk: s('p5'), sk: s('META'), likeTally: n(1) },
      { pk: s('p5'), sk: s('LIKE#a') },
      { pk: s('p4'), sk: s('LIKE#a') },
      { pk: s('p4'), sk: s('LIKE#b') },
    ]);
    const scopes: Scope[] = [
      { kind: 'table', segments: 2 },
      { kind: 'keys', keys: ['p1', 'p5', 'p4'] },
      { kind: 'prefix', prefix: 'p', limit: 10 },
    ];
    for (const scope of scopes) {
      const r = await reconcile(client, { table: lower, pattern: LIKES, scope });
      assert.deepEqual(r.drifted, [{ key: { pk: 'p1', sk: 'META' }, stored: 1, actual: 2, drift: 1 }], scope.kind);
      // The prefix scope finds the partition whose parent is gone too, as the whole-table scan does.
      assert.deepEqual(r.orphans, [{ key: { pk: 'p4' }, actual: 2 }], scope.kind);
      assert.equal(r.checked, 2, scope.kind);
    }

    const posts = tableName('posts');
    await createKeyedTable(local.get().client, posts, ['postId', 'S'], ['itemType', 'S']);
    await putItems(local.get().client, posts, [
      { postId: s('x'), itemType: s('post'), likes: n(5) },
      ...['1', '2', '3'].map((u): Item => ({ postId: s('x'), itemType: s(`like#${u}`) })),
      { postId: s('y'), itemType: s('post'), likes: n(1) },
      { postId: s('y'), itemType: s('like#1') },
    ]);
    const args = ['--endpoint', ep(), '--table', posts, '--parent-sk', 'post', '--counter', 'likes', '--child-prefix', 'like#', '--format', 'json'];
    const found = await runReconcile(args);
    assert.equal(found.code, 1, found.err);
    assert.deepEqual(JSON.parse(found.out).drifted, [{ key: { postId: 'x', itemType: 'post' }, stored: 5, actual: 3, drift: -2 }]);
    const fixed = await runReconcile([...args, '--repair', '--yes']);
    assert.deepEqual(JSON.parse(fixed.out).repair.results, [{ key: { postId: 'x', itemType: 'post' }, outcome: { status: 'repaired', from: 5, to: 3 } }]);
    const after = await local.get().client.send(new GetItemCommand({ TableName: posts, Key: { postId: s('x'), itemType: s('post') }, ConsistentRead: true }));
    assert.deepEqual(after.Item?.likes, n(3));
    assert.equal((await runReconcile([...args, '--consistent'])).code, 0);
  });

  it('refuses a table without a string sort key, or a key prefix on a numeric key, in one line with exit 2', async () => {
    const hashOnly = tableName('hashonly');
    const numSk = tableName('numsk');
    const numPk = tableName('numpk');
    await createKeyedTable(local.get().client, hashOnly, ['id', 'S']);
    await createKeyedTable(local.get().client, numSk, ['pk', 'S'], ['ts', 'N']);
    await createTable(local.get().client, numPk, 'N');
    const base = ['--endpoint', ep(), '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];
    for (const [argv, message] of [
      [['--table', hashOnly], `Table "${hashOnly}" has no sort key: a parent and its children must share a partition, told apart by sort key.`],
      [['--table', numSk], `Sort key "ts" of table "${numSk}" is not a string: prefixes like LIKE# need a string sort key.`],
      [['--table', numPk, '--pk-prefix', '1', '--limit', '5'], 'A key prefix needs a string partition key; "PK" is N.'],
      [['--table', numPk, '--parent-key', 'POST#1'], 'Partition key value "POST#1" is not a number.'],
    ] as const) {
      const r = await runReconcile([...base, ...argv]);
      assert.deepEqual(r, { code: 2, out: '', err: `dynalint reconcile: ${message} (endpoint ${ep()})\n` });
    }
  });

  it('reports a counter that is not a number with a note and never repairs it', async () => {
    const t = tableName('Odd');
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, [
      post('str', undefined, { likeTally: s('3') }),
      ...likes('str', 1),
      post('bool', undefined, { likeTally: { BOOL: true } }),
      post('low', 1),
      ...likes('low', 2),
    ]);
    const r = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 1 } });
    // stored is null (there is no number), drift counts it as 0, the note says what is there.
    assert.deepEqual(r.drifted, [
      { key: { PK: 'POST#low', SK: 'META' }, stored: 1, actual: 2, drift: 1 },
      { key: { PK: 'POST#str', SK: 'META' }, stored: null, actual: 1, drift: 1, note: 'counter holds S "3", not a number (never repaired)' },
      { key: { PK: 'POST#bool', SK: 'META' }, stored: null, actual: 0, drift: 0, note: 'counter holds BOOL true, not a number (never repaired)' },
    ]);
    const direct = await repair(client, { table: t, pattern: LIKES, parents: ['POST#str'] });
    assert.deepEqual(direct.results[0].outcome, { status: 'not-attempted', reason: 'counter holds S "3", not a number (never repaired)' });
    assert.equal(direct.written, 0);

    const args = ['--endpoint', ep(), '--table', t, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];
    const before = await snapshot(local.get().client, t);
    // Nothing writable but the notes: no question asked, nothing written, the rows are listed as not attempted.
    const table = await runReconcile([...args, '--parent-key', 'POST#str', '--parent-key', 'POST#bool', '--repair'], { tty: false });
    assert.equal(table.code, 1, table.err);
    assert.equal(table.err, '');
    assert.deepEqual(table.out.split('\n').slice(3, 5), [
      'PK=POST#str SK=META   invalid       1     +1  counter holds S "3", not a number (never repaired)',
      'PK=POST#bool SK=META  invalid       0      0  counter holds BOOL true, not a number (never repaired)',
    ]);
    assert.match(table.out, /^2 drifted of 2 checked; /m);
    assert.deepEqual(await snapshot(local.get().client, t), before);
    const yes = await runReconcile([...args, '--repair', '--yes']);
    assert.equal(yes.code, 1);
    assert.deepEqual(yes.out.split('\n').slice(-5), [
      'repaired PK=POST#low SK=META: 1 -> 2',
      'not attempted PK=POST#str SK=META: counter holds S "3", not a number (never repaired)',
      'not attempted PK=POST#bool SK=META: counter holds BOOL true, not a number (never repaired)',
      '1 item(s) written; 2 RCU and 1 WCU consumed',
      '',
    ]);
    const after = await snapshot(local.get().client, t);
    assert.equal(after.filter((x) => !before.includes(x)).length, 1);
    assert.match(after.filter((x) => !before.includes(x))[0], /"POST#low".*"likeTally",\{"N":"2"\}/);
  });

  it('keeps numeric keys longer than a double exact from the report to the repair', async () => {
    const t = tableName('Num');
    await createKeyedTable(local.get().client, t, ['id', 'N'], ['k', 'S']);
    const long = '12345678901234567891';
    await putItems(local.get().client, t, [
      { id: { N: long }, k: s('META'), likeTally: n(1) },
      { id: { N: long }, k: s('LIKE#1') },
      { id: { N: long }, k: s('LIKE#2') },
      { id: { N: '1.50' }, k: s('META'), likeTally: n(0) },
      { id: { N: '1.50' }, k: s('LIKE#1') },
    ]);
    const r = await reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 2 } });
    assert.deepEqual(
      r.drifted.map((d) => d.key),
      [{ id: long, k: 'META' }, { id: 1.5, k: 'META' }],
    );
    const fixed = await repair(client, { table: t, pattern: LIKES, parents: r.drifted.map((d) => d.key.id) });
    assert.deepEqual(
      fixed.results.map((x) => x.outcome),
      [
        { status: 'repaired', from: 1, to: 2 },
        { status: 'repaired', from: 0, to: 1 },
      ],
    );
  });

  it('skips a parent that changes between read and write, and never recreates one deleted meanwhile', async () => {
    const t = tableName('Race');
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, [post('busy', 1), ...likes('busy', 3), post('gone', 0), ...likes('gone', 2)]);
    const racing = createClient({ endpoint: ep() });
    let user = 0;
    beforeSend(racing, async (cmd, input) => {
      if (cmd !== 'UpdateItemCommand') return;
      const pk = (input.Key as { PK: { S: string } }).PK.S;
      // Before every write: a like through the article's transaction on one parent, the other parent deleted.
      if (pk === 'POST#busy') assert.equal(await likeTransaction(local.get().client, t, 'busy', `race${user++}`), true);
      else await local.get().client.send(new DeleteItemCommand({ TableName: t, Key: { PK: s(pk), SK: s('META') } }));
    });
    const r = await repair(racing, { table: t, pattern: LIKES, parents: ['POST#busy', 'POST#gone'], attempts: 3 });
    assert.deepEqual(
      r.results.map((x) => [x.key.PK, x.outcome]),
      [
        ['POST#busy', { status: 'changed', attempts: 3 }],
        ['POST#gone', { status: 'no-parent' }],
      ],
    );
    assert.equal(r.written, 0);
    assert.deepEqual(formatRepair(r).split('\n'), [
      'skipped PK=POST#busy SK=META: the counter changed during each of 3 attempts (not overwritten)',
      'skipped PK=POST#gone SK=META: the parent item does not exist',
      `0 item(s) written; ${r.consumedRcu} RCU and 0 WCU consumed`,
    ]);
    const get = (id: string) => local.get().client.send(new GetItemCommand({ TableName: t, Key: { PK: s(`POST#${id}`), SK: s('META') }, ConsistentRead: true }));
    // The three raced likes were each added to the stored 1: the counter holds what the likes made of it, not ours.
    assert.deepEqual((await get('busy')).Item?.likeTally, n(4));
    assert.equal((await get('gone')).Item, undefined);
  });

  it('reports children with no parent item as a problem (exit 1); repair lists them and creates nothing', async () => {
    const t = tableName('Orphans');
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, [post('ok', 2), ...likes('ok', 2), ...likes('lost', 3)]);
    const args = ['--endpoint', ep(), '--table', t, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];
    const before = await snapshot(local.get().client, t);
    const r = await runReconcile([...args, '--format', 'json']);
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.deepEqual([j.drifted, j.orphans, j.checked], [[], [{ key: { PK: 'POST#lost' }, actual: 3 }], 1]);
    // Nothing to write, so no question even without a terminal; the missing parent is named, and not created.
    const fix = await runReconcile([...args, '--repair'], { tty: false });
    assert.equal(fix.code, 1, fix.err);
    const lines = fix.out.split('\n');
    assert.equal(lines[1], 'no parent item: PK=POST#lost (actual 3)');
    assert.match(lines[2], /^0 drifted of 1 checked, 1 without a parent item; /);
    assert.deepEqual(lines.slice(3), ['skipped PK=POST#lost: the parent item does not exist', '0 item(s) written; 0 RCU and 0 WCU consumed', '']);
    const missingKey = await runReconcile([...args, '--parent-key', 'POST#nope']);
    assert.equal(missingKey.code, 1);
    assert.match(missingKey.out, /^no parent item: PK=POST#nope \(actual 0\)$/m);
    assert.deepEqual(await snapshot(local.get().client, t), before);
  });

  describe('a table of several MB', () => {
    let big: string;
    let full: ReconcileReport;
    const sameAsFull = (r: ReconcileReport) => {
      const fullRows = new Set(full.drifted.map((d) => JSON.stringify(d)));
      for (const d of r.drifted) assert.ok(fullRows.has(JSON.stringify(d)), JSON.stringify(d));
      const fullOrphans = new Set(full.orphans.map((o) => JSON.stringify(o)));
      for (const o of r.orphans) assert.ok(fullOrphans.has(JSON.stringify(o)), JSON.stringify(o));
    };

    before(async () => {
      big = tableName('Big');
      await createTable(local.get().client, big);
      const items: Item[] = [];
      // ~5 MB: 1,000 posts with 5 padded likes (one in 7 over-counted), a post with 1.3 MB of likes, orphans.
      for (let i = 0; i < 1000; i++) items.push(post(`p${i}`, i % 7 === 0 ? 6 : 5), ...likes(`p${i}`, 5, 700));
      items.push(post('huge', 10), ...likes('huge', 1400, 900));
      for (let i = 0; i < 20; i++) items.push(...likes(`lost${i}`, 2));
      await putItems(local.get().client, big, items, 16);
      full = await reconcile(client, { table: big, pattern: LIKES, scope: { kind: 'table', segments: 4 } });
    });

    it('counts every partition, the 1.3 MB one across Query pages', async () => {
      assert.equal(full.checked, 1001);
      assert.equal(full.drifted.length, Math.ceil(1000 / 7) + 1);
      assert.deepEqual(full.drifted[0], { key: { PK: 'POST#huge', SK: 'META' }, stored: 10, actual: 1400, drift: 1390 });
      assert.equal(full.orphans.length, 20);
      let queries = 0;
      const counting = createClient({ endpoint: ep() });
      beforeSend(counting, (cmd) => void (cmd === 'QueryCommand' && queries++));
      const one = await reconcile(counting, { table: big, pattern: LIKES, scope: { kind: 'keys', keys: ['POST#huge'] } });
      assert.deepEqual(one.drifted, [full.drifted[0]]);
      assert.ok(queries >= 2, `queries ${queries}`);
    });

    it('stops a 4-segment scan at the RCU budget: partial, finished partitions only, the message tells the RCU reported', async () => {
      const r = await runReconcile(['--endpoint', ep(), '--table', big, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', '--segments', '4', '--max-rcu', '200', '--format', 'json']);
      assert.equal(r.code, 1, r.err);
      const j = JSON.parse(r.out) as ReconcileReport;
      assert.equal(j.partial?.reason, 'budget');
      assert.equal(j.partial?.message, `RCU budget reached: ${j.consumedRcu.toFixed(1)} of 200 consumed: only the partitions finished before the stop are reported.`);
      assert.ok(j.consumedRcu >= 200 && j.consumedRcu < full.consumedRcu, `${j.consumedRcu} of ${full.consumedRcu}`);
      assert.ok(j.checked > 0 && j.checked < full.checked, `${j.checked}`);
      assertRows(j.drifted);
      sameAsFull(j);
      // A partial run is never repaired.
      const fix = await runReconcile(['--endpoint', ep(), '--table', big, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', '--max-rcu', '200', '--repair', '--yes']);
      assert.equal(fix.code, 1);
      assert.equal(fix.err, 'dynalint reconcile: not repairing after a partial run: nothing written\n');
    });

    it('--pk-prefix with --limit checks exactly that many partitions, orphans included', async () => {
      for (const [prefix, limit] of [['POST#', 3], ['POST#lost', 5], ['POST#p1', 400]] as const) {
        const r = await reconcile(client, { table: big, pattern: LIKES, scope: { kind: 'prefix', prefix, limit } });
        const seen = [...r.drifted.map((d) => String(d.key.PK)), ...r.orphans.map((o) => String(o.key.PK))];
        assert.ok(seen.every((pk) => pk.startsWith(prefix)), seen.join());
        assert.equal(r.checked + r.orphans.length, prefix === 'POST#p1' ? 111 : limit, prefix);
        sameAsFull(r);
      }
      const json = await runReconcile(['--endpoint', ep(), '--table', big, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', '--pk-prefix', 'POST#p', '--limit', '50', '--format', 'json']);
      const j = JSON.parse(json.out) as ReconcileReport;
      assert.equal(j.checked, 50);
      assertRows(j.drifted);
    });
  });

  it('sharded counters: a roll-up on another attribute, a shard that is not a number, children-only partitions under a prefix', async () => {
    const t = tableName('Shards');
    await createTable(local.get().client, t);
    const shards = (pk: string, values: Array<Item[string] | undefined>, attr = 'cnt'): Item[] =>
      values.map((v, i) => ({ PK: s(pk), SK: s(`STATS#${i}`), ...(v ? { [attr]: v } : {}) }));
    await putItems(local.get().client, t, [
      { PK: s('V#1'), SK: s('STATS'), total: n(10) },
      ...shards('V#1', [n(3), n(4), n(5)]),
      { PK: s('V#2'), SK: s('STATS'), total: n(7) },
      ...shards('V#2', [n(3), s('4'), undefined]),
      ...shards('POST#a', [n(1), n(1)], 'likeTally'),
      ...likes('a', 3),
      ...likes('b', 2),
    ]);
    const args = ['--endpoint', ep(), '--table', t, '--format', 'json'];
    const roll = await runReconcile([...args, '--parent-sk', 'STATS', '--counter', 'total', '--shard-prefix', 'STATS#', '--shard-counter', 'cnt', '--pk-prefix', 'V#', '--limit', '10']);
    const rj = JSON.parse(roll.out) as ReconcileReport;
    assert.deepEqual(rj.drifted, [
      { key: { PK: 'V#2', SK: 'STATS' }, stored: 7, actual: 3, drift: -4, note: '1 shard(s) hold a non-number counter, not summed' },
      { key: { PK: 'V#1', SK: 'STATS' }, stored: 10, actual: 12, drift: 2 },
    ]);
    const fix = await repair(client, { table: t, pattern: { parentSk: 'STATS', counter: 'total', shardPrefix: 'STATS#', shardCounter: 'cnt' }, parents: ['V#2'] });
    assert.deepEqual(fix.results[0].outcome, { status: 'not-attempted', reason: '1 shard(s) hold a non-number counter' });
    // Shards alone: per-partition totals, a shard that is not a number named, not summed.
    const totals = await runReconcile([...args.slice(0, -2), '--counter', 'cnt', '--shard-prefix', 'STATS#', '--pk-prefix', 'V#', '--limit', '10']);
    assert.equal(totals.code, 0, totals.err);
    assert.deepEqual(totals.out.split('\n').slice(1, 5), [
      'key     total  shards  note',
      '------  -----  ------  ------------------------------------------------',
      'PK=V#1     12       3',
      'PK=V#2      3       3  1 shard(s) hold a non-number counter, not summed',
    ]);
    // The count kept in shards, checked against the children: a partition with children and no shards is found by prefix.
    for (const scope of [['--segments', '2'], ['--pk-prefix', 'POST#', '--limit', '10']]) {
      const r = await runReconcile([...args, '--counter', 'likeTally', '--shard-prefix', 'STATS#', '--child-prefix', 'LIKE#', ...scope]);
      const j = JSON.parse(r.out) as ReconcileReport;
      assert.deepEqual(j.drifted, [
        { key: { PK: 'POST#b' }, stored: null, actual: 2, drift: 2 },
        { key: { PK: 'POST#a' }, stored: 2, actual: 3, drift: 1 },
      ]);
      const refused = await runReconcile([...args, '--counter', 'likeTally', '--shard-prefix', 'STATS#', '--child-prefix', 'LIKE#', ...scope, '--repair', '--yes']);
      assert.equal(refused.err, 'dynalint reconcile: a sharded stored count (no --parent-sk) is reported, not repaired\n');
    }
  });

  describe('endpoints that are not DynamoDB', () => {
    const servers: Array<{ close: () => void }> = [];
    const sockets: Socket[] = [];
    after(() => {
      for (const x of sockets) x.destroy();
      for (const x of servers) x.close();
    });
    const args = (endpoint: string, extra: string[] = []) =>
      ['--endpoint', endpoint, '--table', 'Social', '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', ...extra];

    it('fail in one line, exit 2: an HTML page, an empty 404, a wrong region, an invalid region', async () => {
      for (const [status, type, body] of [
        [404, 'text/html', '<html><body>Not Found</body></html>'],
        [404, 'text/plain', ''],
        [403, 'text/plain', 'Forbidden'],
      ] as const) {
        const server = createHttpServer((_, res) => res.writeHead(status, { 'content-type': type }).end(body));
        servers.push(server);
        const endpoint = await listen(server);
        const r = await runReconcile(args(endpoint));
        assert.deepEqual(r, { code: 2, out: '', err: `dynalint reconcile: The endpoint did not answer as DynamoDB (HTTP ${status}): check --endpoint / --region. (endpoint ${endpoint})\n` });
      }
      // https:// to a plain-HTTP endpoint.
      const tls = await runReconcile(args(ep().replace('http:', 'https:')));
      assert.deepEqual(tls, {
        code: 2,
        out: '',
        err: `dynalint reconcile: DynamoDB endpoint unreachable: EPROTO (no TLS there: http:// rather than https://?) (endpoint ${ep().replace('http:', 'https:')})\n`,
      });
      // DynamoDB Local keeps one namespace per region: the table is not found there, as it would not be in AWS.
      const t = tableName('Region');
      await createTable(local.get().client, t);
      const wrong = await runReconcile([...args(ep(), ['--region', 'eu-west-3']).map((x) => (x === 'Social' ? t : x))]);
      assert.equal(wrong.err, `dynalint reconcile: Table "${t}" not found. (endpoint ${ep()}, region eu-west-3)\n`);
      const invalid = await runReconcile(args(ep(), ['--region', 'not a region']));
      assert.deepEqual(invalid, {
        code: 2,
        out: '',
        err: `dynalint reconcile: Not a valid AWS region: region="not a region" is not a valid hostname component. (endpoint ${ep()}, region not a region)\n`,
      });
    });

    it('gives up on an endpoint that accepts the connection and never answers', async () => {
      const server = createTcpServer((socket) => void sockets.push(socket));
      servers.push(server);
      const endpoint = await listen(server);
      await assert.rejects(
        reconcile(createClient({ endpoint, requestTimeoutMs: 300 }), { table: 'Social', pattern: LIKES, scope: { kind: 'table', segments: 1 } }),
        (e: unknown) => e instanceof ReconcileError && e.code === 'unreachable' && e.message === 'DynamoDB endpoint unreachable: no answer in time',
      );
    });
  });
});
