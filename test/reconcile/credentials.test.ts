/**
 * Where credentials go: connections are the user's (application scope, restricted in untrusted workspaces), every
 * run names its endpoint and credentials, plain http goes to loopback only (extension and CLI alike), and what the
 * VS Code UI shows after a repair — partial or not — comes from plain functions that never reject.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectionDetail, connectionProblem, noticeText, repairNotice, rowOutcomes, settle } from '../../client/src/reconcile/present';
import { createClient, endpointProblem, isLoopbackHost, ReconcileError, RepairReport } from '../../server/src/reconcile';
import { runReconcile } from './support';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('reconcile: where credentials go', () => {
  it('dynalint.connections is application-scoped and restricted in untrusted workspaces', () => {
    assert.equal(pkg.contributes.configuration.properties['dynalint.connections'].scope, 'application');
    const u = pkg.capabilities?.untrustedWorkspaces;
    assert.equal(u?.supported, 'limited');
    assert.ok(u.restrictedConfigurations.includes('dynalint.connections'));
    assert.ok(typeof u.description === 'string' && u.description.length > 20);
    for (const key of u.restrictedConfigurations) assert.ok(pkg.contributes.configuration.properties[key], key);
  });

  it('the extension reads connections from user settings only', () => {
    const src = readFileSync(join(__dirname, '..', '..', 'client', 'src', 'reconcile', 'index.ts'), 'utf8');
    assert.match(src, /inspect<ConnectionSetting\[\]>\('connections'\)\?\.globalValue/);
    assert.doesNotMatch(src, /\.get<ConnectionSetting\[\]>\('connections'\)/);
    // One connection is no longer used without a picker that names its endpoint and credentials.
    assert.doesNotMatch(src, /list\.length === 1/);
  });

  it('names the endpoint and the credentials of every connection, defaults included', () => {
    assert.equal(connectionDetail({ name: 'prod', region: 'eu-west-1', profile: 'ops' }), 'AWS endpoint of region eu-west-1 · profile ops');
    assert.equal(connectionDetail({ name: 'x' }), 'AWS endpoint of the default region · default AWS credentials');
    assert.equal(connectionDetail({ name: 'l', endpoint: 'http://127.0.0.1:8000' }), 'http://127.0.0.1:8000 · default AWS credentials');
  });

  it('accepts plain http to loopback only', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '[::1]', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', '128.0.0.1', 'localhost.evil.example', 'evil.localhost', '127.0.0.1.nip.io', '0.0.0.0', '[::2]', '1270.0.0.1']) {
      assert.ok(!isLoopbackHost(h), h);
    }
    assert.equal(endpointProblem('http://127.0.0.1:8000'), undefined);
    assert.equal(endpointProblem('http://[::1]:8000'), undefined);
    assert.equal(endpointProblem('https://dynamodb.eu-west-1.amazonaws.com'), undefined);
    assert.equal(endpointProblem('http://10.0.0.1:8000'), 'Refusing plain http to 10.0.0.1: only a loopback endpoint (127.0.0.1, ::1, localhost) may be http; use https.');
    assert.match(endpointProblem('http://localhost.evil.example')!, /^Refusing plain http/);
    assert.match(endpointProblem('https://user:pw@dynamodb.example')!, /user name or password/);
    assert.match(endpointProblem('file:///etc/passwd')!, /not http/);
    assert.match(connectionProblem({ name: 'repo', endpoint: 'http://attacker.example:8000' })!, /^Refusing plain http to attacker\.example/);
    assert.equal(connectionProblem({ name: 'aws', region: 'us-east-1' }), undefined);
    assert.throws(() => createClient({ endpoint: 'http://10.0.0.1' }), (e: unknown) => e instanceof ReconcileError && e.code === 'bad-options');
  });

  it('the CLI refuses --endpoint http:// to a non-loopback host in one line, before any request', async () => {
    const r = await runReconcile(['--endpoint', 'http://10.0.0.1', '--table', 'T', '--counter', 'c', '--parent-sk', 'META', '--child-prefix', 'L#']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.equal(r.err.split('\n')[0], 'dynalint reconcile: --endpoint: Refusing plain http to 10.0.0.1: only a loopback endpoint (127.0.0.1, ::1, localhost) may be http; use https.');
  });
});

describe('reconcile in VS Code: what a repair shows', () => {
  const key = (pk: string) => ({ PK: pk, SK: 'META' });
  const partial: RepairReport = {
    results: [
      { key: key('a'), outcome: { status: 'repaired', from: 5, to: 3 } },
      { key: key('b'), outcome: { status: 'failed', error: 'Access denied to table "T"; endpoint said: "no"' } },
      { key: key('c'), outcome: { status: 'not-attempted', reason: 'stopped after the error at PK=b SK=META' } },
    ],
    written: 1,
    consumedRcu: 1,
    consumedWcu: 1,
    elapsedMs: 5,
    partial: { reason: 'error', message: 'Stopped at PK=b SK=META: Access denied to table "T"; endpoint said: "no"' },
  };

  it('shows each row of a partial repair and an error notification with the counts', () => {
    assert.deepEqual(rowOutcomes(partial, [4, 0, 2]), [
      { index: 4, text: '✔ 5 → 3', ok: true },
      { index: 0, text: 'failed: Access denied to table "T"; endpoint said: "no"', ok: false },
      { index: 2, text: 'not attempted (stopped after the error at PK=b SK=META)', ok: false },
    ]);
    assert.deepEqual(repairNotice(partial, 3), {
      level: 'error',
      text: 'Dynalint: 1 of 3 counter(s) written, 1 failed, 1 not attempted. Stopped at PK=b SK=META: Access denied to table "T"; endpoint said: "no"',
    });
  });

  it('shows a lost write by what the re-read found', () => {
    const r: RepairReport = {
      results: [{ key: key('a'), outcome: { status: 'possibly-written', from: 5, to: 3, found: 'not-written', now: 5, error: 'DynamoDB endpoint unreachable: ECONNRESET' } }],
      written: 0,
      consumedRcu: 1,
      consumedWcu: 0,
      elapsedMs: 1,
    };
    assert.deepEqual(rowOutcomes(r, [0]), [{ index: 0, text: 'possibly written (answer lost): a consistent re-read finds 5: not written', ok: false }]);
    assert.deepEqual(repairNotice(r, 1), { level: 'warning', text: 'Dynalint: 0 of 1 counter(s) written, 1 possibly written (answer lost; see the page).' });
  });

  it('notifications carry endpoint text without live links', () => {
    const t = noticeText('Dynalint: Access denied; endpoint said: "[fix it](https://evil.example) or [run](command:workbench.action.terminal.sendSequence)"');
    assert.doesNotMatch(t, /\]\(/);
    assert.equal(t.replace(/\u200b/g, ''), 'Dynalint: Access denied; endpoint said: "[fix it](https://evil.example) or [run](command:workbench.action.terminal.sendSequence)"');
    const partialLink: RepairReport = { ...partial, partial: { reason: 'error', message: 'Stopped: endpoint said: "[x](https://evil.example)"' } };
    assert.doesNotMatch(repairNotice(partialLink, 3).text, /\]\(/);
  });

  it('a repair that fails before any write settles with its error instead of rejecting', async () => {
    const out = await settle(() => Promise.reject(new ReconcileError('Table "T" not found.', 'table-not-found')));
    assert.deepEqual(out, { error: 'Table "T" not found.' });
  });
});
