import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { reconcileExport } from '../../server/src/reconcile/export/engine';
import { PATTERNS, stateA, stateB } from './export-fixtures';
import { ExportWritten, diff, writeFullExport, writeIncrementalExport } from './export-writer';
import { runReconcile } from './support';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const LIKES = ['--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];

/**
 * An HTTP proxy in front of s3rver on 127.0.0.1 that logs every request and, while `cutNext` is set, answers the next
 * whole-object GET of a data file with its headers and half its body, then drops the connection.
 */
async function proxy(target: number): Promise<{ endpoint: string; log: string[]; cutNext: { on: boolean; done: number }; server: Server }> {
  const log: string[] = [];
  const cutNext = { on: false, done: 0 };
  const server = createServer((req, res) => {
    const range = req.headers.range;
    log.push(`${req.method} ${decodeURIComponent((req.url ?? '').split('?')[0])}${range ? ` ${range}` : ''}`);
    const cut = cutNext.on && req.method === 'GET' && !range && /\/data\//.test(req.url ?? '');
    if (cut) cutNext.on = false;
    const up = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (!cut) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
          cutNext.done++;
          res.socket?.destroy();
        });
      });
    });
    up.on('error', () => res.socket?.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  return { endpoint: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, log, cutNext, server };
}

describe('reconcile --from-export s3:// (s3rver on 127.0.0.1)', function () {
  this.timeout(120_000);
  let dir: string;
  let s3rver: S3rver;
  let px: Awaited<ReturnType<typeof proxy>>;
  let full: ExportWritten;
  let inc: ExportWritten;
  let exportsRoot: string;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    for (const k of Object.keys(process.env).filter((k) => k.startsWith('AWS_') && !k.startsWith('AWS_SDK_'))) {
      saved[k] = process.env[k];
      delete process.env[k];
    }
    // s3rver's dummy account: static credentials through the default chain (env).
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    dir = mkdtempSync(join(tmpdir(), 'dynalint-s3rver-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 'store'), configureBuckets: [{ name: 'exports' }] });
    const { port } = await s3rver.run();
    px = await proxy(port);
    exportsRoot = join(dir, 'local');
    full = writeFullExport({ root: exportsRoot, items: stateA(), exportTime: T0, files: 6 });
    inc = writeIncrementalExport({ root: exportsRoot, changes: diff(stateA(), stateB()), from: T0, to: T1 });
    const client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true });
    for (const key of [...full.keys, ...inc.keys]) {
      await client.send(new PutObjectCommand({ Bucket: 'exports', Key: `team/2026/${key}`, Body: readFileSync(join(exportsRoot, key)) }));
    }
    client.destroy();
  });

  after(async () => {
    await new Promise<void>((r) => px?.server.close(() => r()));
    await s3rver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  });

  const url = (w: ExportWritten) => `s3://exports/team/2026/AWSDynamoDB/${w.id}/`;

  it('gives the same report as the local copy, reading the manifests and the data files only', async () => {
    px.log.length = 0;
    const r = await runReconcile(['--from-export', url(full), '--from-export', url(inc), '--s3-endpoint', px.endpoint, ...LIKES, '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const local = await reconcileExport({ sources: [full.dir, inc.dir], pattern: PATTERNS.likes });
    const j = JSON.parse(r.out);
    assert.deepEqual([j.drifted, j.orphans, j.checked], [local.drifted, local.orphans, local.checked]);
    assert.equal(j.source.asOf, T1);
    assert.equal(j.source.download.files, 6 + 2);
    const wanted = [...full.keys, ...inc.keys].filter((k) => /manifest-(summary|files)\.json$|\/data\//.test(k)).map((k) => `GET /exports/team/2026/${k}`);
    assert.deepEqual([...px.log].sort(), wanted.sort());
  });

  it('resumes a data file cut mid-transfer from where it stopped (ranged GET), checking its MD5', async () => {
    px.log.length = 0;
    px.cutNext.on = true;
    const r = await reconcileExport({ sources: [url(full)], pattern: PATTERNS.likes, s3: { endpoint: px.endpoint } });
    assert.equal(px.cutNext.done, 1);
    assert.equal(r.source.download?.resumed, 1);
    assert.equal(px.log.filter((l) => / bytes=\d+-$/.test(l)).length, 1, px.log.join('\n'));
    const local = await reconcileExport({ sources: [full.dir], pattern: PATTERNS.likes });
    assert.deepEqual([r.drifted, r.orphans, r.checked], [local.drifted, local.orphans, local.checked]);
  });

  it('--emit-sql athena reads the manifests only and points each table at the export\'s data/ folder (an incremental one: at its files in the shared folder)', async () => {
    px.log.length = 0;
    const r = await runReconcile(['--from-export', url(full), '--from-export', url(inc), '--s3-endpoint', px.endpoint, ...LIKES, '--emit-sql', 'athena']);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.includes(`LOCATION '${url(full)}data/';`), r.out);
    // An incremental export's files are in the data folder incremental exports share: its table reads its own only.
    const shared = url(inc).replace(/[^/]+\/$/, '') + 'data/';
    assert.ok(r.out.includes(`LOCATION '${shared}';`), r.out);
    const own = inc.keys.filter((k) => k.includes('/data/')).map((k) => `'${shared}${k.split('/').pop()}'`);
    assert.equal(own.length, 2);
    assert.equal(r.out.split(`"$path" IN (${own.join(', ')})`).length - 1, 2, r.out);
    assert.ok(px.log.every((l) => /manifest-(summary|files)\.json$/.test(l)), px.log.join('\n'));
  });

  it('exits 2 with one line on wrong credentials, a missing export and a plain-http remote endpoint', async () => {
    // s3rver checks the key id (SigV4 signatures it does not verify).
    process.env.AWS_ACCESS_KEY_ID = 'NOT-A-KEY';
    try {
      const denied = await runReconcile(['--from-export', url(full), '--s3-endpoint', px.endpoint, ...LIKES]);
      assert.equal(denied.code, 2);
      assert.match(denied.err, /^dynalint reconcile: s3:\/\/exports\/team\/2026\/AWSDynamoDB\/[^ ]+\/manifest-summary\.json: access denied; endpoint said: ".*"\n$/);
    } finally {
      process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    }
    const missing = await runReconcile(['--from-export', 's3://exports/team/2026/AWSDynamoDB/nope/', '--s3-endpoint', px.endpoint, ...LIKES]);
    assert.equal(missing.code, 2);
    assert.equal(missing.err, 'dynalint reconcile: s3://exports/team/2026/AWSDynamoDB/nope/manifest-summary.json: not found.\n');
    const remote = await runReconcile(['--from-export', url(full), '--s3-endpoint', 'http://10.0.0.1:9000', ...LIKES]);
    assert.equal(remote.code, 2);
    assert.match(remote.err, /^dynalint reconcile: --s3-endpoint: Refusing plain http to 10\.0\.0\.1/);
  });
});
