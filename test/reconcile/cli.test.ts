import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../server/src/cli';
import { createTable, likes, post, putItems, seedSocial } from '../../server/src/reconcile/seed';
import { runReconcile, snapshot, tableName, useLocal } from './support';

/** Nothing ever listens on port 0: connecting to it is refused at once on Linux (no port to race for). */
const CLOSED_PORT = 0;
import { ownStderr } from '../support/stderr';

describe('dynalint reconcile (CLI, DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  const social = tableName('Social');
  let args: string[];

  before(async () => {
    await seedSocial(local.get().client, social);
    args = ['--endpoint', local.get().endpoint, '--table', social, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];
  });

  const run = runReconcile;

  it('exits 1 with the drifted rows as JSON', async () => {
    const r = await run([...args, '--format', 'json', '--segments', '2']);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(j.drifted, [
      { key: { PK: 'POST#c7d1', SK: 'META' }, stored: 1, actual: 4, drift: 3 },
      { key: { PK: 'POST#b2c4', SK: 'META' }, stored: 5, actual: 3, drift: -2 },
      { key: { PK: 'POST#d03e', SK: 'META' }, stored: null, actual: 2, drift: 2 },
      { key: { PK: 'POST#f101', SK: 'META' }, stored: 2, actual: 0, drift: -2 },
    ]);
    assert.equal(j.checked, 6);
    assert.equal(j.itemsRead, 36);
    assert.ok(j.consumedRcu > 0 && typeof j.elapsedMs === 'number');
  });

  it('exits 0 with a table report when the chosen parents match', async () => {
    const r = await run([...args, '--parent-key', 'POST#a91f', '--parent-key', 'POST#e55a']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^0 drifted of 2 checked; 5 items read, 1.5 RCU consumed, 4 requests, \d+\.\d\d s$/m);
  });

  it('prints the table with drift, stored "missing" and signs', async () => {
    const r = await run([...args, '--pk-prefix', 'POST#', '--limit', '10']);
    assert.equal(r.code, 1);
    const lines = r.out.split('\n');
    assert.equal(lines[0], `Reconcile ${social}: likeTally on SK=META vs count of LIKE#* children`);
    assert.deepEqual(lines.slice(1, 7), [
      'key                    stored  actual  drift',
      '--------------------  -------  ------  -----',
      'PK=POST#c7d1 SK=META        1       4     +3',
      'PK=POST#b2c4 SK=META        5       3     -2',
      'PK=POST#d03e SK=META  missing       2     +2',
      'PK=POST#f101 SK=META        2       0     -2',
    ]);
  });

  it('refuses to repair without --yes when stdin is not a terminal, writing nothing', async () => {
    const before = await snapshot(local.get().client, social);
    const r = await run([...args, '--repair'], { tty: false });
    assert.equal(r.code, 2);
    assert.equal(r.err, 'dynalint reconcile: refusing to write without --yes: stdin is not a terminal\n');
    const n = await run([...args, '--repair'], { tty: true, answer: 'n' });
    assert.equal(n.code, 1);
    assert.match(n.err, /Write likeTally on 4 item\(s\) in .*\? \[y\/N\] dynalint reconcile: nothing written\n$/);
    assert.deepEqual(await snapshot(local.get().client, social), before);
  });

  it('repairs after a "y" on the terminal, then exits 0 on the re-check', async () => {
    const t = tableName('Social');
    await seedSocial(local.get().client, t);
    const a = args.map((x) => (x === social ? t : x));
    const r = await run([...a, '--repair', '--format', 'json'], { tty: true, answer: 'y' });
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.repair.written, 4);
    assert.deepEqual(
      j.repair.results.map((x: { key: { PK: string }; outcome: unknown }) => [x.key.PK, x.outcome]),
      [
        ['POST#c7d1', { status: 'repaired', from: 1, to: 4 }],
        ['POST#b2c4', { status: 'repaired', from: 5, to: 3 }],
        ['POST#d03e', { status: 'repaired', from: null, to: 2 }],
        ['POST#f101', { status: 'repaired', from: 2, to: 0 }],
      ],
    );
    const again = await run([...a, '--consistent']);
    assert.equal(again.code, 0, again.out + again.err);
  });

  it('exits 2 with a clear message for a missing table, an unreachable endpoint and bad usage', async () => {
    const missing = await run(args.map((x) => (x === social ? 'NoSuchTable' : x)));
    assert.equal(missing.code, 2);
    assert.equal(missing.err, `dynalint reconcile: Table "NoSuchTable" not found. (endpoint ${local.get().endpoint})\n`);
    const port = CLOSED_PORT;
    const down = await run(args.map((x) => (x === local.get().endpoint ? `http://127.0.0.1:${port}` : x)));
    assert.equal(down.code, 2);
    assert.equal(down.err, `dynalint reconcile: DynamoDB endpoint unreachable: ECONNREFUSED (endpoint http://127.0.0.1:${port})\n`);
    for (const [argv, msg] of [
      [['--table', 'T'], '--counter is required'],
      [[...args, '--pk-prefix', 'POST#'], '--pk-prefix needs --limit N'],
      [[...args, '--parent-key', 'a', '--pk-prefix', 'b', '--limit', '1'], '--parent-key and --pk-prefix cannot be combined'],
      [[...args, '--yes'], '--yes goes with --repair'],
      [[...args, '--format', 'xml'], '--format must be table, json or html'],
      [[...args.slice(2), '--endpoint', '127.0.0.1:8000'], '--endpoint must be an http(s) URL, e.g. http://127.0.0.1:8000'],
      [['--table', 'T', '--counter', 'c', '--parent-sk', 'META', '--endpoint', local.get().endpoint], null],
    ] as const) {
      const r = await run([...argv]);
      assert.equal(r.code, 2, JSON.stringify(argv));
      if (msg) assert.ok(r.err.startsWith(`dynalint reconcile: ${msg}\n`), r.err);
      else assert.match(r.err, /child prefix/);
    }
  });

  it('exits 2 with one line when no region is configured anywhere', async () => {
    // useLocal() has cleared the AWS_* variables; this also points the config file at nothing, explicitly.
    const saved = { AWS_CONFIG_FILE: process.env.AWS_CONFIG_FILE };
    process.env.AWS_CONFIG_FILE = join(__dirname, 'no-such-aws-config');
    try {
      // Not a loopback endpoint, so no DynamoDB Local default region applies; the request never leaves.
      const r = await run([...args.slice(2), '--endpoint', 'https://dynamodb.invalid:8000']);
      assert.equal(r.code, 2);
      assert.equal(
        r.err,
        `dynalint reconcile: No AWS region: set one (--region or the connection's "region", AWS_REGION, or the profile's region). (endpoint https://dynamodb.invalid:8000)\n`,
      );
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('as a process: the error is the only line on stderr (no SDK warnings), exit 2', async function () {
    const port = CLOSED_PORT;
    const root = join(__dirname, '../..');
    const env = { ...process.env }; // AWS_* already cleared by useLocal()
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const p = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'server/src/cli.ts'), 'reconcile', ...args.slice(2), '--endpoint', `http://127.0.0.1:${port}`], {
      encoding: 'utf8',
      env,
      input: '',
    });
    // Node's own warnings (from a NODE_OPTIONS flag in the developer's environment) are not ours; an SDK warning is.
    assert.equal(ownStderr(p.stderr), `dynalint reconcile: DynamoDB endpoint unreachable: ECONNREFUSED (endpoint http://127.0.0.1:${port})\n`);
    assert.doesNotMatch(p.stderr, /AWS SDK|aws-sdk/i);
    assert.equal(p.stdout, '');
    assert.equal(p.status, 2);
  });

  it('exits 2 when a budget stops the run before any drift was seen', async () => {
    const t = tableName('Clean');
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, [post('x', 3), ...likes('x', 3), post('y', 0), post('z', 1), ...likes('z', 1)]);
    const a = args.map((x) => (x === social ? t : x));
    const r = await run([...a, '--parent-key', 'POST#x', '--parent-key', 'POST#y', '--parent-key', 'POST#z', '--max-rcu', '0.5']);
    assert.equal(r.code, 2);
    assert.match(r.out, /PARTIAL: RCU budget reached/);
    assert.match(r.err, /No drift among the \d checked; the rest is unknown/);
  });

  it('is dispatched by `dynalint reconcile`', async () => {
    let out = '';
    const code = await main(['reconcile', ...args, '--parent-key', 'POST#b2c4', '--format', 'json'], {
      cwd: process.cwd(),
      stdout: (t) => (out += t),
      stderr: () => undefined,
    });
    assert.equal(code, 1);
    assert.deepEqual(JSON.parse(out).drifted, [{ key: { PK: 'POST#b2c4', SK: 'META' }, stored: 5, actual: 3, drift: -2 }]);
  });
});
