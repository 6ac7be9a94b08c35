/**
 * Reconcile from a table export instead of the live table: no read capacity used. The export's files (a folder, or
 * an s3:// export folder downloaded first) are counted by DuckDB, embedded, with the query model of query.ts; the
 * per-partition rows go through the live engine's `compare()`, so the report is the live report's, stated as of the
 * export's time. DuckDB keeps one aggregate row per partition (spilling to `workDir` past `memoryLimit`), never the
 * items.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { KeySchema } from '../client';
import { PartitionTally, compare, planOf } from '../engine';
import { CounterPattern, ReconcileError, ReconcileReport } from '../types';
import { convertIonFile } from './ion';
import { DataFile, ExportManifest, orderChain, parseManifest, tableOfArn } from './manifest';
import { Dialect, QuerySpec, RenderedQuery, render } from './query';
import { ResultRow, parseResult, tallyOfRow } from './rows';
import { S3Connection, S3Export, TransferStats, createS3Client, parseS3Url } from './s3';

type DuckDBModule = typeof import('@duckdb/node-api');

/** The line a user sees when DuckDB (an optional dependency) is not installed. */
export const DUCKDB_MISSING = 'reconcile --from-export counts with DuckDB, an optional dependency that is not installed: run npm install @duckdb/node-api (or use --emit-sql athena|spark to count elsewhere).';

/** Whether a require() failure means a DuckDB package (or its platform binding) is missing, not broken. */
function duckdbMissing(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === 'MODULE_NOT_FOUND' && /@duckdb\//.test(err.message ?? '');
}

/**
 * Load DuckDB (on first use: the language server and the extension never load the native binding). `load` replaces
 * the require (tests simulate a missing module with it).
 */
export function loadDuckDB(load?: () => DuckDBModule): DuckDBModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return load ? load() : (require('@duckdb/node-api') as DuckDBModule);
  } catch (e) {
    if (duckdbMissing(e)) throw new ReconcileError(DUCKDB_MISSING, 'unsupported', { cause: e });
    throw e;
  }
}

export interface ExportSource {
  location: string;
  kind: 'full' | 'incremental';
  time: string;
  fromTime?: string;
  exportArn?: string;
  itemCount?: number;
  files: number;
}

/** A reconcile report from an export (or from a query's result): the live report's rows, with where they came from. */
export interface ExportReport extends ReconcileReport {
  source: {
    kind: 'export' | 'result';
    /** The table's state the counts describe: the full export's time, or the last incremental export's end. */
    asOf?: string;
    exports: ExportSource[];
    /** Lines in the export's data files (items, and changes of incremental exports), from the manifests. */
    lines?: number;
    download?: TransferStats;
  };
}

export interface ExportOptions {
  /** Export folders or s3:// URLs of export folders: one full export, and incremental exports. */
  sources: string[];
  pattern: CounterPattern;
  /** Partition and sort key attribute names (default PK, SK; the table's when a table is described). */
  keys?: { pk: string; sk: string };
  s3?: S3Connection;
  /** An S3 client to use instead of one made from `s3` (tests). */
  s3Client?: S3Client;
  /** Where S3 data files are downloaded and DuckDB spills (default: the OS temp folder). Removed afterwards. */
  workDir?: string;
  /** Data files downloaded at once (default 8). */
  concurrency?: number;
  /** DuckDB's memory limit (default 1GB): past it, the aggregate spills to workDir. */
  memoryLimit?: string;
  threads?: number;
  signal?: AbortSignal;
  /** Keep downloaded files (tests, or reading the same export twice). */
  keepDownloads?: boolean;
  /** Loads `@duckdb/node-api` instead of require() (tests: a missing module). */
  duckdb?: () => DuckDBModule;
  onProgress?: (message: string) => void;
}

interface Loaded {
  manifest: ExportManifest;
  /** Local paths of the data files, in manifest order. */
  files: string[];
  s3?: S3Export;
}

const DEFAULT_KEYS = { pk: 'PK', sk: 'SK' };

function localManifest(dir: string): ExportManifest {
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ENOENT' && name === 'manifest-summary.json') {
        throw new ReconcileError(`${dir}: no manifest-summary.json: give the export's folder (…/AWSDynamoDB/<export-id>/).`, 'bad-options');
      }
      throw new ReconcileError(`${dir}: cannot read ${name} (${code ?? 'error'}).`, 'bad-options');
    }
  };
  return parseManifest(dir, read('manifest-summary.json'), read('manifest-files.json'));
}

/** Read every source's manifests (S3: two small GETs each) and put them in the order they apply. */
async function loadManifests(opts: ExportOptions): Promise<Array<{ manifest: ExportManifest; s3?: S3Export }>> {
  let client: S3Client | undefined = opts.s3Client;
  const loaded: Array<{ manifest: ExportManifest; s3?: S3Export }> = [];
  for (const src of opts.sources) {
    if (src.startsWith('s3://')) {
      client ??= createS3Client(opts.s3 ?? {});
      const s3 = new S3Export(client, src, parseS3Url(src), { signal: opts.signal });
      const summary = await s3.text('manifest-summary.json');
      const files = await s3.text('manifest-files.json');
      loaded.push({ manifest: parseManifest(src, summary, files), s3 });
    } else {
      loaded.push({ manifest: localManifest(src) });
    }
  }
  const chain = orderChain(loaded.map((l) => l.manifest));
  return chain.map((m) => loaded.find((l) => l.manifest === m)!);
}

function sourceOf(m: ExportManifest): ExportSource {
  return {
    location: m.location,
    kind: m.kind,
    time: m.time,
    ...(m.fromTime ? { fromTime: m.fromTime } : {}),
    ...(m.exportArn ? { exportArn: m.exportArn } : {}),
    ...(m.itemCount !== undefined ? { itemCount: m.itemCount } : {}),
    files: m.files.length,
  };
}

/** Open DuckDB, run the DDL and the query, hand the rows over chunk by chunk. */
export async function runDuckDB(
  q: RenderedQuery,
  onRows: (rows: ResultRow[]) => void,
  opts: { workDir?: string; memoryLimit?: string; threads?: number; signal?: AbortSignal; duckdb?: () => DuckDBModule } = {},
): Promise<void> {
  const { DuckDBInstance } = loadDuckDB(opts.duckdb);
  const config: Record<string, string> = { memory_limit: opts.memoryLimit ?? '1GB', preserve_insertion_order: 'false' };
  if (opts.threads) config.threads = String(opts.threads);
  if (opts.workDir) config.temp_directory = join(opts.workDir, 'duckdb.tmp');
  const db = await DuckDBInstance.create(':memory:', config);
  const conn = await db.connect();
  const onAbort = () => conn.interrupt();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (const s of q.ddl) await conn.run(s);
    const result = await conn.stream(q.query);
    for await (const chunk of result.yieldRowObjectJson()) {
      if (opts.signal?.aborted) throw new ReconcileError('Cancelled.', 'cancelled');
      onRows(chunk);
    }
  } catch (e) {
    if (opts.signal?.aborted) throw new ReconcileError('Cancelled.', 'cancelled');
    if (e instanceof ReconcileError) throw e;
    throw new ReconcileError(`DuckDB: ${String((e as Error)?.message ?? e).split('\n')[0].slice(0, 300)}`, 'aws', { cause: e });
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    conn.closeSync();
    db.closeSync();
  }
}

function keySchema(keys: { pk: string; sk: string }, tallies: PartitionTally[]): KeySchema {
  const first = tallies[0]?.pk;
  return { pk: keys.pk, sk: keys.sk, pkType: first?.N !== undefined ? 'N' : first?.B !== undefined ? 'B' : 'S' };
}

function report(
  tallies: PartitionTally[],
  keys: { pk: string; sk: string },
  pattern: CounterPattern,
  table: string,
  started: number,
  source: ExportReport['source'],
): ExportReport {
  const plan = planOf(pattern);
  return {
    ...compare(tallies, keySchema(keys, tallies), plan, false),
    table,
    pattern,
    scope: { kind: 'table', segments: 1 },
    // A point-in-time copy: neither an eventually nor a strongly consistent read of the live table.
    consistent: false,
    itemsRead: source.lines ?? 0,
    consumedRcu: 0,
    requests: source.download?.requests ?? 0,
    retries: source.download?.resumed ?? 0,
    elapsedMs: Date.now() - started,
    source,
  };
}

/** The manifests' view of the exports, without counting: for --emit-sql, and the first step of a run. */
export async function describeExports(opts: Pick<ExportOptions, 'sources' | 's3' | 's3Client' | 'signal'>): Promise<ExportManifest[]> {
  return (await loadManifests({ ...opts, pattern: { counter: 'x' } })).map((l) => l.manifest);
}

/** The query for these exports in one dialect: the DDL over each export's data/ folder, then the query. */
export function renderFor(manifests: ExportManifest[], pattern: CounterPattern, keys: { pk: string; sk: string } | undefined, dialect: Dialect): RenderedQuery {
  const k = keys ?? DEFAULT_KEYS;
  const ion = manifests.find((m) => m.outputFormat === 'ION');
  if (ion) {
    throw new ReconcileError(
      `${ion.location}: an ION export: the emitted SQL reads DYNAMODB_JSON data files. Reconcile it here with --from-export (its files are converted), or export the table as DYNAMODB_JSON.`,
      'unsupported',
    );
  }
  const folder = (m: ExportManifest) => (m.location.endsWith('/') ? m.location : m.location + '/');
  const spec: QuerySpec = {
    plan: planOf(pattern),
    pkAttr: k.pk,
    skAttr: k.sk,
    exports: manifests.map((m) => {
      const id = m.location.replace(/\/+$/, '').split('/').pop();
      if (!m.files.some((f) => f.shared)) return { kind: m.kind, id, files: m.files.length ? [`${folder(m)}data/*.json.gz`] : [], location: `${folder(m)}data/` };
      // Incremental exports share AWSDynamoDB/data/: name this export's own files (the folder holds the others' too).
      const shared = `${folder(m).replace(/[^/]+\/$/, '')}data/`;
      return {
        kind: m.kind,
        id,
        files: m.files.map((f) => (f.shared ? shared : `${folder(m)}data/`) + f.name),
        location: shared,
        only: m.files.map((f) => f.name),
      };
    }),
  };
  return render(spec, dialect);
}

/**
 * A local export's data file: in its own data/ folder, or in the AWSDynamoDB/data/ folder next to it that incremental
 * exports share, as its manifest says; found in the other place too (a copy that put it there).
 */
function localDataFile(location: string, f: DataFile): string {
  const own = join(location, 'data', f.name);
  const shared = join(location, '..', 'data', f.name);
  const [first, second] = f.shared ? [shared, own] : [own, shared];
  for (const p of [first, second]) {
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // try the other place
    }
  }
  throw new ReconcileError(`${first}: listed in manifest-files.json but missing: the export is incomplete.`, 'bad-options');
}

/** Run `task(0..n-1)`, at most `limit` at once; the first failure stops new tasks and is thrown. */
async function eachLimit(n: number, limit: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: { e: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < n) {
      const i = next++;
      try {
        await task(i);
      } catch (e) {
        failure ??= { e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, n)) }, worker));
  if (failure) throw failure.e;
}

/** Reconcile from exports: manifests, (S3) download, DuckDB, compare. Reads nothing of the live table. */
export async function reconcileExport(opts: ExportOptions): Promise<ExportReport> {
  const started = Date.now();
  const plan = planOf(opts.pattern);
  const keys = opts.keys ?? DEFAULT_KEYS;
  // Before any download: without DuckDB nothing can be counted.
  loadDuckDB(opts.duckdb);
  const chain = await loadManifests(opts);
  const work = mkdtempSync(join(opts.workDir ?? tmpdir(), 'dynalint-export-'));
  try {
    const loaded: Loaded[] = [];
    const download: TransferStats = { files: 0, bytes: 0, resumed: 0, requests: 0 };
    for (let i = 0; i < chain.length; i++) {
      const { manifest, s3 } = chain[i];
      if (s3) {
        opts.onProgress?.(`downloading ${manifest.files.length} data file(s) of ${manifest.location}`);
        const files = await s3.download(manifest.files, join(work, `export-${i}`), opts.concurrency ?? 8);
        download.files += s3.stats.files;
        download.bytes += s3.stats.bytes;
        download.resumed += s3.stats.resumed;
        download.requests += s3.stats.requests;
        loaded.push({ manifest, files, s3 });
      } else {
        loaded.push({ manifest, files: manifest.files.map((f) => localDataFile(manifest.location, f)) });
      }
    }
    // ION: each data file converted to the DYNAMODB_JSON lines the query reads, in the work folder (ion.ts).
    for (let i = 0; i < loaded.length; i++) {
      const l = loaded[i];
      if (l.manifest.outputFormat !== 'ION') continue;
      opts.onProgress?.(`converting ${l.files.length} Ion data file(s) of ${l.manifest.location}`);
      const dir = join(work, `json-${i}`);
      mkdirSync(dir, { recursive: true });
      const out = l.files.map((_, j) => join(dir, `${j}.json.gz`));
      await eachLimit(l.files.length, 2, (j) => convertIonFile(l.files[j], out[j], l.files[j], opts.signal));
      l.files = out;
    }
    const spec: QuerySpec = {
      plan,
      pkAttr: keys.pk,
      skAttr: keys.sk,
      exports: loaded.map((l) => ({ kind: l.manifest.kind, files: l.files, location: l.manifest.location })),
    };
    opts.onProgress?.('counting');
    const tallies: PartitionTally[] = [];
    let n = 0;
    await runDuckDB(render(spec, 'duckdb'), (rows) => {
      for (const r of rows) tallies.push(tallyOfRow(r, `row ${++n}`));
    }, { workDir: work, memoryLimit: opts.memoryLimit, threads: opts.threads, signal: opts.signal, duckdb: opts.duckdb });
    const manifests = loaded.map((l) => l.manifest);
    const lines = manifests.reduce((a, m) => a + (m.itemCount ?? m.files.reduce((b, f) => b + (f.itemCount ?? 0), 0)), 0);
    const last = manifests[manifests.length - 1];
    return report(tallies, keys, opts.pattern, tableOfArn(manifests[0].tableArn) ?? '(export)', started, {
      kind: 'export',
      asOf: last.time,
      exports: manifests.map(sourceOf),
      lines,
      ...(loaded.some((l) => l.s3) ? { download } : {}),
    });
  } finally {
    if (!opts.keepDownloads) rmSync(work, { recursive: true, force: true });
  }
}

/** The report from a result file that Athena or Spark wrote from the emitted query. */
export function reconcileResult(body: string, name: string, pattern: CounterPattern, keys?: { pk: string; sk: string }, table = '(result)'): ExportReport {
  const started = Date.now();
  planOf(pattern);
  const rows = parseResult(body, name);
  const tallies = rows.map((r, i) => tallyOfRow(r, `${name} row ${i + 1}`));
  return report(tallies, keys ?? DEFAULT_KEYS, pattern, table, started, { kind: 'result', exports: [] });
}
