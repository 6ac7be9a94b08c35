/**
 * `dynalint reconcile --from-export <dir | s3://…/AWSDynamoDB/<id>/> …`: the reconcile of a table export (no read
 * capacity), `--emit-sql duckdb|athena|spark` for the same query beyond one machine, and `--from-result` to read that
 * query's result back. Same report, exit codes and repair as the live reconcile (cli/reconcile.ts); a repair writes
 * the counts found in the export, each conditioned on the exported value.
 */
import { AttributeValue } from '@aws-sdk/client-dynamodb';
import { readFileSync } from 'node:fs';
import { Connection, createClient, describeKeys, endpointProblem } from '../reconcile/client';
import { ExportOptions, ExportReport, describeExports, reconcileExport, reconcileResult, renderFor } from '../reconcile/export/engine';
import { DIALECTS, Dialect, RESULT_COLUMNS } from '../reconcile/export/query';
import { formatRepair, formatTable, toCsv } from '../reconcile/format';
import { repair } from '../reconcile/repair';
import { CounterPattern, DriftRow, ReconcileError, RepairReport } from '../reconcile/types';
import { planOf } from '../reconcile/engine';
import { CliIO, EXIT, UsageError, parseArgs } from './command';

export const RECONCILE_EXPORT_USAGE = `Usage: dynalint reconcile --from-export SRC [--from-export SRC …] --counter ATTR (--parent-sk SK --child-prefix P | ...) [options]
       dynalint reconcile --from-export SRC … --emit-sql duckdb|athena|spark [pattern]
       dynalint reconcile --from-result FILE [pattern] [--repair --table T]

Counts from a DynamoDB table export ("Export to S3") instead of the live table: no read capacity is used. Give the
full export and, optionally, incremental exports (NEW_AND_OLD_IMAGES), in DYNAMODB_JSON or ION, each as its folder: a
local copy of the prefix or s3://bucket/prefix/AWSDynamoDB/<export-id>/. The report is the live reconcile's, as of the
export's time. Counting needs DuckDB (npm install @duckdb/node-api); --emit-sql and --from-result do not.

Source:
  --from-export SRC       An export's folder or s3:// URL (repeatable: one full export, then incremental exports)
  --from-result FILE      The result of the --emit-sql query (CSV with a header, JSON lines or a JSON array)
  --emit-sql DIALECT      Print the DDL and the query for duckdb, athena (Trino) or spark, and exit
Pattern (as the live reconcile):
  --parent-sk SK          Sort key of the parent item holding the counter (e.g. META)
  --counter ATTR          Counter attribute (e.g. likeTally); a missing counter counts as 0
  --child-prefix P        Sort-key prefix of the children, each counting 1 (e.g. LIKE#)
  --shard-prefix P        Sort-key prefix of counter shards (see dynalint reconcile --help)
  --shard-counter ATTR    Counter attribute on the shards (default: --counter)
  --pk-attr NAME          Partition key attribute (default PK; with --table, the table's)
  --sk-attr NAME          Sort key attribute (default SK; with --table, the table's)
S3 (credentials: the AWS default chain):
  --s3-region R           The bucket's region (default: --region, then the environment / profile)
  --s3-endpoint URL       Custom S3 endpoint (https://, or http:// to a loopback host only)
  --profile P             Shared config profile, for S3 and DynamoDB
  --concurrency N         Data files downloaded at once (default 8)
  --work-dir DIR          Where data files are downloaded and DuckDB spills (default: the temp folder; removed after)
  --memory-limit SIZE     DuckDB's memory limit (default 1GB)
Repair (never by default):
  --repair                Write each drifted parent's counter as counted in the export, only if it still holds the
                          exported value: a parent changed since the export is skipped, never overwritten
  --table T               The live table to write (its key schema is read with DescribeTable)
  --region R              The table's region
  --endpoint URL          DynamoDB endpoint, as the live reconcile
  --yes                   Do not ask before writing (required when stdin is not a terminal)
Output:
  --format table|json|csv Report format (default: table; csv lists the drifted rows)
  --help                  Show this help

Exit: 0 no drift; 1 drift, or items with no parent (also after a repair); 2 an error, or a repair that stopped
part-way. Result columns of the query: ${RESULT_COLUMNS.join(', ')}.
`;

export interface ExportIO extends CliIO {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  signal?: AbortSignal;
  connection?: Pick<Connection, 'credentials' | 'region'>;
  /** Answers the repair question (the live command's prompt). */
  ask?: (question: string) => Promise<boolean | undefined>;
  /** Loads `@duckdb/node-api` instead of require() (tests: DuckDB not installed). */
  duckdb?: ExportOptions['duckdb'];
}

interface Options {
  exports: string[];
  result?: string;
  emit?: Dialect;
  pattern: CounterPattern;
  keys?: { pk: string; sk: string };
  table?: string;
  region?: string;
  profile?: string;
  endpoint?: string;
  s3Region?: string;
  s3Endpoint?: string;
  concurrency?: number;
  workDir?: string;
  memoryLimit?: string;
  repair: boolean;
  yes: boolean;
  format: 'table' | 'json' | 'csv';
}

/** Whether argv asks for the export path (the live command hands it over). */
export function isExportInvocation(argv: string[]): boolean {
  return argv.some((a) => /^--(from-export|from-result|emit-sql)(=|$)/.test(a));
}

function url(flag: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!/^https?:\/\/[^/]/.test(v)) throw new UsageError(`${flag} must be an http(s) URL`);
  const problem = endpointProblem(v);
  if (problem) throw new UsageError(`${flag}: ${problem}`);
  return v;
}

function options(argv: string[]): Options | 'help' {
  const a = parseArgs(argv, {
    values: [
      'from-export', 'from-result', 'emit-sql', 'parent-sk', 'counter', 'child-prefix', 'shard-prefix', 'shard-counter', 'pk-attr', 'sk-attr',
      's3-region', 's3-endpoint', 'profile', 'concurrency', 'work-dir', 'memory-limit', 'table', 'region', 'endpoint', 'format',
    ],
    booleans: ['repair', 'yes', 'help'],
    repeatable: ['from-export'],
  });
  if (a.flags.has('help')) return 'help';
  if (a.positionals.length) throw new UsageError(`unexpected argument ${a.positionals[0]}`);
  const one = (k: string) => a.values.get(k)?.[0];
  const exports = a.values.get('from-export') ?? [];
  const result = one('from-result');
  const emit = one('emit-sql');
  if (exports.length && result !== undefined) throw new UsageError('--from-export and --from-result cannot be combined');
  if (!exports.length && result === undefined) throw new UsageError(emit !== undefined ? '--emit-sql needs --from-export (the query is written for those exports)' : '--from-export or --from-result is required');
  if (emit !== undefined && !DIALECTS.includes(emit as Dialect)) throw new UsageError(`--emit-sql must be ${DIALECTS.join(', ')}`);
  if (emit !== undefined && (a.flags.has('repair') || result !== undefined)) throw new UsageError('--emit-sql prints the query only: no --repair, no --from-result');
  const counter = one('counter');
  if (!counter) throw new UsageError('--counter is required');
  const format = one('format') ?? 'table';
  if (format !== 'table' && format !== 'json' && format !== 'csv') throw new UsageError('--format must be table, json or csv');
  if (a.flags.has('yes') && !a.flags.has('repair')) throw new UsageError('--yes goes with --repair');
  if (a.flags.has('repair') && !one('table')) throw new UsageError('--repair needs --table T (the live table to write)');
  const pattern: CounterPattern = { counter };
  for (const [flag, field] of [['parent-sk', 'parentSk'], ['child-prefix', 'childPrefix'], ['shard-prefix', 'shardPrefix'], ['shard-counter', 'shardCounter']] as const) {
    const v = one(flag);
    if (v !== undefined) pattern[field] = v;
  }
  const pk = one('pk-attr');
  const sk = one('sk-attr');
  const concurrency = one('concurrency');
  if (concurrency !== undefined && !(Number.isInteger(Number(concurrency)) && Number(concurrency) >= 1 && Number(concurrency) <= 64)) {
    throw new UsageError('--concurrency needs a whole number from 1 to 64');
  }
  const memoryLimit = one('memory-limit');
  if (memoryLimit !== undefined && !/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(memoryLimit)) throw new UsageError('--memory-limit takes a size such as 512MB or 4GB');
  return {
    exports,
    result,
    emit: emit as Dialect | undefined,
    pattern,
    ...(pk !== undefined || sk !== undefined ? { keys: { pk: pk ?? 'PK', sk: sk ?? 'SK' } } : {}),
    table: one('table'),
    region: one('region'),
    profile: one('profile'),
    endpoint: url('--endpoint', one('endpoint')),
    s3Region: one('s3-region'),
    s3Endpoint: url('--s3-endpoint', one('s3-endpoint')),
    concurrency: concurrency === undefined ? undefined : Number(concurrency),
    workDir: one('work-dir'),
    memoryLimit,
    repair: a.flags.has('repair'),
    yes: a.flags.has('yes'),
    format,
  };
}

function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The live report's table, with the export's time first and a summary of what was read instead of RCU. */
export function formatExportTable(r: ExportReport): string {
  const lines = formatTable(r).split('\n');
  const s = r.source;
  const head =
    s.kind === 'export'
      ? `From ${s.exports.length === 1 ? 'the export' : `${plural(s.exports.length, 'export')} (1 full + ${s.exports.length - 1} incremental)`} as of ${s.asOf}: ${s.exports[0].exportArn ?? s.exports[0].location}`
      : 'From a query result';
  const summary =
    `${r.drifted.length} drifted of ${r.checked} checked` +
    (r.orphans.length ? `, ${r.orphans.length} without a parent item` : '') +
    (s.kind === 'export'
      ? `; ${r.itemsRead} export lines, 0 RCU` + (s.download ? `, ${plural(s.download.files, 'file')} (${(s.download.bytes / 1e6).toFixed(1)} MB) from S3${s.download.resumed ? `, ${plural(s.download.resumed, 'transfer')} resumed` : ''}` : '')
      : '') +
    `, ${(r.elapsedMs / 1000).toFixed(2)} s`;
  return [head, ...lines.slice(0, -1), summary].join('\n');
}

function jsonReport(r: ExportReport, repaired: RepairReport | undefined): object {
  return {
    source: r.source,
    table: r.table,
    pattern: r.pattern,
    drifted: r.drifted,
    checked: r.checked,
    orphans: r.orphans,
    ...(r.totals ? { totals: r.totals } : {}),
    itemsRead: r.itemsRead,
    elapsedMs: r.elapsedMs,
    ...(repaired ? { repair: repaired } : {}),
  };
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function emitText(o: Options, dialect: Dialect, ddl: string[], query: string, asOf: string): string {
  const p = o.pattern;
  const flags = [
    ...(p.parentSk !== undefined ? ['--parent-sk', p.parentSk] : []),
    '--counter', p.counter,
    ...(p.childPrefix !== undefined ? ['--child-prefix', p.childPrefix] : []),
    ...(p.shardPrefix !== undefined ? ['--shard-prefix', p.shardPrefix] : []),
    ...(p.shardCounter !== undefined ? ['--shard-counter', p.shardCounter] : []),
    ...(o.keys ? ['--pk-attr', o.keys.pk, '--sk-attr', o.keys.sk] : []),
  ].map(shellWord).join(' ');
  const how: Record<Dialect, string[]> = {
    duckdb: [
      'DuckDB: run this file as it is (duckdb -f reconcile.sql; s3:// paths need the httpfs extension and credentials).',
      'Save the result: COPY (<the query>) TO \'result.csv\' (HEADER), or run it in the DuckDB CLI with .mode csv.',
    ],
    athena: [
      'Athena (engine version 3, Trino): run each CREATE statement once, then the query (one statement per run).',
      'The tables read the export\'s data/ folders in place; nothing is copied. Download the query\'s CSV result',
      '(console "Download results", or the OutputLocation of GetQueryExecution).',
    ],
    spark: [
      'Spark SQL (EMR, Glue 3+ / Spark 3.0+): spark-sql -f reconcile.sql, or spark.sql() each statement in order.',
      'Save the result as JSON lines: INSERT OVERWRITE DIRECTORY \'s3://bucket/dynalint-result/\' USING json <the query>,',
      'then concatenate the part-*.json files into result.json.',
    ],
  };
  return [
    `-- Dynalint reconcile, ${dialect}: one row per partition (${RESULT_COLUMNS.join(', ')}), as of ${asOf}.`,
    ...how[dialect].map((l) => `-- ${l}`),
    `-- Then: dynalint reconcile --from-result result.${dialect === 'spark' ? 'json' : 'csv'} ${flags} [--repair --table T]`,
    '',
    ...ddl.map((d) => d + '\n'),
    query + ';',
    '',
  ].join('\n');
}

async function runRepair(o: Options, io: ExportIO, report: ExportReport): Promise<{ repaired?: RepairReport; refusal?: { message: string; code: number } }> {
  const writable = report.drifted.filter((d) => !d.note);
  if (!report.drifted.length && !report.orphans.length) return {};
  if (o.pattern.parentSk === undefined) return { refusal: { message: 'a sharded stored count (no --parent-sk) is reported, not repaired', code: EXIT.usage } };
  if (!o.yes && writable.length) {
    const when = report.source.asOf ? ` as counted in the export of ${report.source.asOf}` : ' as counted in the result';
    const q = `Write ${o.pattern.counter} on ${writable.length} item(s) in ${o.table}${when}, each only if it still holds the exported value? [y/N] `;
    const answer = io.ask ? await io.ask(q) : undefined;
    if (answer === undefined) return { refusal: { message: 'refusing to write without --yes: stdin is not a terminal', code: EXIT.usage } };
    if (!answer) return { refusal: { message: 'nothing written', code: EXIT.problems } };
  }
  const client = createClient({ region: o.region, profile: o.profile, endpoint: o.endpoint, ...io.connection });
  try {
    const seenOf = (d: DriftRow): AttributeValue | undefined => (d.stored === null ? undefined : { N: String(d.stored) });
    const parents = writable.map((d) => Object.values(d.key)[0]);
    const repaired: RepairReport = parents.length
      ? await repair(client, { table: o.table!, pattern: o.pattern, parents, expected: writable.map((d) => ({ seen: seenOf(d), actual: d.actual })), signal: io.signal })
      : { results: [], written: 0, consumedRcu: 0, consumedWcu: 0, elapsedMs: 0 };
    for (const d of report.drifted) if (d.note) repaired.results.push({ key: d.key, outcome: { status: 'not-attempted', reason: d.note } });
    for (const d of report.orphans) repaired.results.push({ key: d.key, outcome: { status: 'no-parent' } });
    return { repaired };
  } finally {
    client.destroy();
  }
}

export async function reconcileExportCommand(argv: string[], io: ExportIO): Promise<number> {
  let o: Options | 'help';
  try {
    o = options(argv);
    if (o !== 'help') planOf(o.pattern);
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof ReconcileError)) throw e;
    io.stderr(`dynalint reconcile: ${e.message}\n\n${RECONCILE_EXPORT_USAGE}`);
    return EXIT.usage;
  }
  if (o === 'help') {
    io.stdout(RECONCILE_EXPORT_USAGE);
    return EXIT.ok;
  }
  const s3 = { region: o.s3Region ?? o.region, profile: o.profile, endpoint: o.s3Endpoint };
  try {
    // With a table, its key schema names the key attributes (one DescribeTable; nothing of the table is read).
    let keys = o.keys;
    if (o.table) {
      const client = createClient({ region: o.region, profile: o.profile, endpoint: o.endpoint, ...io.connection });
      try {
        const k = await describeKeys(client, o.table, io.signal);
        if (o.keys && (o.keys.pk !== k.pk || o.keys.sk !== k.sk)) {
          throw new ReconcileError(`Table "${o.table}" has keys ${k.pk}/${k.sk}, not ${o.keys.pk}/${o.keys.sk}.`, 'bad-options');
        }
        keys = { pk: k.pk, sk: k.sk };
      } finally {
        client.destroy();
      }
    }
    if (o.emit) {
      const manifests = await describeExports({ sources: o.exports, s3, signal: io.signal });
      const q = renderFor(manifests, o.pattern, keys, o.emit);
      io.stdout(emitText(o, o.emit, q.ddl, q.query, manifests[manifests.length - 1].time));
      return EXIT.ok;
    }
    let report: ExportReport;
    if (o.result !== undefined) {
      let body: string;
      try {
        body = readFileSync(o.result, 'utf8');
      } catch (e) {
        throw new ReconcileError(`${o.result}: cannot read (${(e as { code?: string }).code ?? 'error'}).`, 'bad-options');
      }
      report = reconcileResult(body, o.result, o.pattern, keys, o.table);
    } else {
      report = await reconcileExport({
        sources: o.exports,
        pattern: o.pattern,
        keys,
        s3,
        concurrency: o.concurrency,
        workDir: o.workDir,
        memoryLimit: o.memoryLimit,
        signal: io.signal,
        duckdb: io.duckdb,
      });
    }
    if (o.format === 'table') io.stdout(formatExportTable(report) + '\n');
    if (o.format === 'csv') io.stdout(toCsv(report));
    const { repaired, refusal } = o.repair ? await runRepair(o, io, report) : {};
    if (o.format === 'json') io.stdout(JSON.stringify(jsonReport(report, repaired), null, 2) + '\n');
    else if (repaired && o.format === 'table') io.stdout(formatRepair(repaired) + '\n');
    else if (repaired) io.stderr(formatRepair(repaired) + '\n');
    if (repaired?.partial) {
      io.stderr(`dynalint reconcile: repair incomplete: ${repaired.partial.message}\n`);
      return EXIT.usage;
    }
    if (repaired?.results.some((x) => x.outcome.status === 'possibly-written' && x.outcome.found !== 'written')) {
      io.stderr('dynalint reconcile: a write\'s answer was lost and a re-read did not find it written: see "possibly written" above\n');
      return EXIT.usage;
    }
    if (refusal) {
      io.stderr(`dynalint reconcile: ${refusal.message}\n`);
      return refusal.code;
    }
    return report.drifted.length || report.orphans.length ? EXIT.problems : EXIT.ok;
  } catch (e) {
    if (!(e instanceof ReconcileError)) throw e;
    io.stderr(`dynalint reconcile: ${e.message}\n`);
    return EXIT.usage;
  }
}
