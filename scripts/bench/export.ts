/**
 * Reconcile from a table export (DuckDB, embedded): a generated export of 1,000,000 items in DynamoDB's format
 * (gzipped JSON lines), counted end to end (manifests, DuckDB, compare), against floors measured on the same files:
 * DuckDB's own count(*) over the same attributes, and gunzip alone. Each run is a child process, so its peak RSS is
 * its own; the same number of items under 10x more parents shows what the memory grows with (parents, not items).
 * The S3 path: the same export downloaded from s3rver on 127.0.0.1 vs read from disk.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { BenchRow } from '../bench';
import { writeLargeExport } from '../../test/reconcile/export-writer';

const ITEMS = 1_000_000;

interface Child {
  ms: number;
  maxRssKb: number;
  detail: { lines?: number; drifted?: number; checked?: number; bytes?: number };
}

/** One measured run in a child process (asynchronous: s3rver answers from this process meanwhile). */
function child(mode: string, src: string, endpoint?: string, env: NodeJS.ProcessEnv = process.env): Promise<Child> {
  const root = join(__dirname, '..', '..');
  const p = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/export-bench-child.ts'), mode, src, ...(endpoint ? [endpoint] : [])], { env });
  let out = '';
  let err = '';
  p.stdout.on('data', (c: Buffer) => (out += c));
  p.stderr.on('data', (c: Buffer) => (err += c));
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as Child) : reject(new Error(`export bench child ${mode}: ${err}`))));
  });
}

async function generate(root: string, parents: number): Promise<string> {
  const perParent = ITEMS / parents - 1;
  const w = await writeLargeExport({
    root,
    partitions: parents,
    exportTime: '2026-03-01T10:00:00.000Z',
    files: 16,
    make: (p, push) => {
      const pk = { S: `POST#${String(p).padStart(7, '0')}` };
      // Every tenth parent drifted by one.
      push({ PK: pk, SK: { S: 'META' }, title: { S: `Post ${p}` }, likeTally: { N: String(perParent + (p % 10 === 0 ? 1 : 0)) } });
      for (let i = 0; i < perParent; i++) push({ PK: pk, SK: { S: `LIKE#USER#u${String(i).padStart(6, '0')}` }, likedAt: { N: '1750636800' } });
    },
  });
  if (w.items !== ITEMS) throw new Error(`generated ${w.items} items`);
  return w.dir;
}

export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'dynalint-bench-export-'));
  try {
    const rows: BenchRow[] = [];
    const few = await generate(join(root, 'few'), 10_000);
    const many = await generate(join(root, 'many'), 100_000);
    const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
    const rate = (c: Child) => `${Math.round((ITEMS / c.ms) * 1000).toLocaleString('en-US')} items/s`;
    const ours = await child('reconcile', few);
    if (ours.detail.lines !== ITEMS || ours.detail.drifted !== 1000) throw new Error(`unexpected report ${JSON.stringify(ours.detail)}`);
    const count = await child('count', few);
    const gunzip = await child('gunzip', few);
    rows.push({
      area: 'export',
      name: `items reconciled/s, ${ITEMS.toLocaleString('en-US')} items, 10,000 parents (DuckDB)`,
      ours: rate(ours),
      baseline: `DuckDB count(*) ${rate(count)}`,
      ratio: count.ms / ours.ms,
      note: `ours ${(ours.ms / 1000).toFixed(2)} s incl. process start; gunzip alone ${rate(gunzip)}`,
    });
    const oursMany = await child('reconcile', many);
    rows.push({
      area: 'export',
      name: 'peak RSS, 1,000,000 items: 100,000 vs 10,000 parents',
      ours: mb(oursMany.maxRssKb),
      baseline: mb(ours.maxRssKb),
      ratio: oursMany.maxRssKb / ours.maxRssKb,
      note: `DuckDB count(*) alone ${mb(count.maxRssKb)}; 100,000 parents: ${rate(oursMany)}`,
    });

    // S3: the same export from s3rver (loopback) vs from disk.
    const store = join(root, 's3');
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: store, configureBuckets: [{ name: 'bench' }] });
    const { port } = await server.run();
    try {
      const env = { ...process.env, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
      const s3 = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      const id = few.split('/').pop()!;
      const names = ['manifest-summary.json', 'manifest-files.json', ...readdirSync(join(few, 'data')).map((f) => `data/${f}`)];
      for (const n of names) await s3.send(new PutObjectCommand({ Bucket: 'bench', Key: `AWSDynamoDB/${id}/${n}`, Body: readFileSync(join(few, n)) }));
      s3.destroy();
      const fromS3 = await child('s3', `s3://bench/AWSDynamoDB/${id}/`, `http://127.0.0.1:${port}`, env);
      rows.push({
        area: 'export',
        name: 'items reconciled/s from s3:// (s3rver, 16 files, 8 at once, downloaded then counted)',
        ours: rate(fromS3),
        baseline: `from disk ${rate(ours)}`,
        ratio: ours.ms / fromS3.ms,
        note: `peak RSS ${mb(fromS3.maxRssKb)} (streamed to disk, not held)`,
      });
    } finally {
      await server.close();
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
