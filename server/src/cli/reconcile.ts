/**
 * `dynalint reconcile --table T --parent-sk META --counter likeTally --child-prefix LIKE# [...]`
 *
 * Exit 0: no drift. 1: drift found, or children/shards with no parent item, or a parent key that does not exist (also
 * after a repair fixed it: the report is of what was found).
 * 2: bad usage or an error (table missing, access denied, endpoint unreachable), or a partial run that found none,
 * or a repair that stopped part-way (the report still lists what was written, failed and not attempted) or whose
 * lost write a re-read did not find.
 */
import { createInterface } from 'node:readline';
import { CounterPattern, ReconcileError, ReconcileReport, RepairReport, Scope } from '../reconcile/types';
import { Connection, createClient, endpointProblem } from '../reconcile/client';
import { reconcile } from '../reconcile/engine';
import { repair } from '../reconcile/repair';
import { formatRepair, formatTable } from '../reconcile/format';
import { reconcileReportHtml } from '../reconcile/html-report';
import { CliIO, EXIT, UsageError, parseArgs } from './command';
import { isExportInvocation, reconcileExportCommand } from './reconcile-export';

export const RECONCILE_USAGE = `Usage: dynalint reconcile --table T --counter ATTR (--parent-sk SK --child-prefix P | ...) [options]

Finds reference counts that drifted from their children in a live table (reads only, unless --repair).

Connection:
  --table T               Table name (required)
  --region R              AWS region (default: from the environment / profile)
  --profile P             Shared config profile (credentials: the AWS default chain, SSO included)
  --endpoint URL          Custom endpoint: https://..., or http:// to a loopback host only (127.0.0.1, ::1,
                          localhost), e.g. http://127.0.0.1:8000 for DynamoDB Local
Pattern (items of one partition, told apart by sort key):
  --parent-sk SK          Sort key of the parent item holding the counter (e.g. META)
  --counter ATTR          Counter attribute (e.g. likeTally); a missing counter counts as 0
  --child-prefix P        Sort-key prefix of the children, each counting 1 (e.g. LIKE#)
  --shard-prefix P        Sort-key prefix of counter shards (e.g. STATS#TOTAL#); the count is the sum of the shards'
                          counters. With --parent-sk: the parent's roll-up is checked against that sum. Without it:
                          the sum is the stored count, checked against --child-prefix (or reported as totals)
  --shard-counter ATTR    Counter attribute on the shards (default: --counter)
Scope (default: the whole table):
  --parent-key PK         A parent's partition key value (repeatable)
  --pk-prefix P --limit N Up to N partitions whose key begins with P
  --segments N            Parallel Scan segments for the whole table (default 4)
Reading:
  --consistent            Strongly consistent reads (twice the RCU)
  --max-rcu N             Stop after N RCU with a partial report
Repair (never by default):
  --repair                Set each drifted parent's counter to its re-counted value, conditioned on the value read;
                          never creates a missing parent, never overwrites a counter that is not a number
  --yes                   Do not ask before writing (required when stdin is not a terminal)
Output:
  --format F              table, json or html (default: table; html: one self-contained page with the drift chart)
  --help                  Show this help
From a table export instead (no read capacity; dynalint reconcile --from-export X --help for its options):
  --from-export SRC       An export's folder or s3://…/AWSDynamoDB/<export-id>/ (full, then incremental exports)
  --emit-sql DIALECT      With --from-export: print the DDL and query for duckdb, athena or spark
  --from-result FILE      The result of that query, read back (then --repair --table T writes it)

Exit: 0 no drift; 1 drift, or items with no parent (also after a repair); 2 an error, a partial run with no drift,
or a repair that stopped part-way (its report lists what was written, failed and not attempted).
`;

/** CliIO plus what a reconcile run may need: a stdin to confirm on, and a signal to cancel (Ctrl-C). */
export interface ReconcileIO extends CliIO {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  signal?: AbortSignal;
  /** Overrides the connection the flags describe (the demo: its own emulator's placeholder credentials and region). */
  connection?: Pick<Connection, 'credentials' | 'region'>;
}

interface Options {
  table: string;
  region?: string;
  profile?: string;
  endpoint?: string;
  pattern: CounterPattern;
  scope: Scope;
  consistent: boolean;
  maxRcu?: number;
  repair: boolean;
  yes: boolean;
  format: 'table' | 'json' | 'html';
}

function positiveNumber(v: string | undefined, flag: string, integer: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(n > 0) || (integer && !Number.isInteger(n))) throw new UsageError(`${flag} needs a positive ${integer ? 'whole ' : ''}number`);
  return n;
}

function options(argv: string[]): Options | 'help' {
  const a = parseArgs(argv, {
    values: ['table', 'region', 'profile', 'endpoint', 'parent-sk', 'counter', 'child-prefix', 'shard-prefix', 'shard-counter', 'parent-key', 'pk-prefix', 'limit', 'segments', 'max-rcu', 'format'],
    booleans: ['consistent', 'repair', 'yes', 'help'],
    repeatable: ['parent-key'],
  });
  if (a.flags.has('help')) return 'help';
  if (a.positionals.length) throw new UsageError(`unexpected argument ${a.positionals[0]}`);
  const one = (k: string) => a.values.get(k)?.[0];
  const table = one('table');
  const counter = one('counter');
  if (!table) throw new UsageError('--table is required');
  if (!counter) throw new UsageError('--counter is required');
  const format = one('format') ?? 'table';
  if (format !== 'table' && format !== 'json' && format !== 'html') throw new UsageError('--format must be table, json or html');
  const keys = a.values.get('parent-key') ?? [];
  const prefix = one('pk-prefix');
  const limit = positiveNumber(one('limit'), '--limit', true);
  const segments = positiveNumber(one('segments'), '--segments', true);
  if (keys.length && prefix !== undefined) throw new UsageError('--parent-key and --pk-prefix cannot be combined');
  if (limit !== undefined && prefix === undefined) throw new UsageError('--limit goes with --pk-prefix');
  if (segments !== undefined && (keys.length || prefix !== undefined)) throw new UsageError('--segments is for a whole-table scan');
  if (prefix !== undefined && limit === undefined) throw new UsageError('--pk-prefix needs --limit N');
  const endpoint = one('endpoint');
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) throw new UsageError('--endpoint must be an http(s) URL, e.g. http://127.0.0.1:8000');
  const problem = endpoint !== undefined ? endpointProblem(endpoint) : undefined;
  if (problem) throw new UsageError(`--endpoint: ${problem}`);
  if (a.flags.has('yes') && !a.flags.has('repair')) throw new UsageError('--yes goes with --repair');
  const scope: Scope = keys.length
    ? { kind: 'keys', keys }
    : prefix !== undefined
      ? { kind: 'prefix', prefix, limit: limit! }
      : { kind: 'table', segments: segments ?? 4 };
  const pattern: CounterPattern = { counter };
  for (const [flag, field] of [['parent-sk', 'parentSk'], ['child-prefix', 'childPrefix'], ['shard-prefix', 'shardPrefix'], ['shard-counter', 'shardCounter']] as const) {
    const v = one(flag);
    if (v !== undefined) pattern[field] = v;
  }
  return {
    table,
    region: one('region'),
    profile: one('profile'),
    endpoint,
    pattern,
    scope,
    consistent: a.flags.has('consistent'),
    maxRcu: positiveNumber(one('max-rcu'), '--max-rcu', false),
    repair: a.flags.has('repair'),
    yes: a.flags.has('yes'),
    format,
  };
}

async function ask(io: ReconcileIO, question: string): Promise<boolean | undefined> {
  const stdin = io.stdin;
  if (!stdin || !stdin.isTTY) return undefined;
  io.stderr(question);
  const rl = createInterface({ input: stdin });
  try {
    const line = await new Promise<string | undefined>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(undefined));
    });
    return line !== undefined && /^\s*y(es)?\s*$/i.test(line);
  } finally {
    rl.close();
  }
}

/** Where writes go and as whom, for the confirmation: always both, defaults named as such. */
function target(o: Options): string {
  const endpoint = o.endpoint ?? `the AWS endpoint of region ${o.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? '(from the profile)'}`;
  const who = o.profile ? `profile ${o.profile}` : process.env.AWS_PROFILE ? `profile ${process.env.AWS_PROFILE} (AWS_PROFILE)` : 'the default credentials';
  return `${endpoint} with ${who}`;
}

function where(o: Options): string {
  const parts = [o.endpoint ? `endpoint ${o.endpoint}` : '', o.region ? `region ${o.region}` : '', o.profile ? `profile ${o.profile}` : ''].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export async function reconcileCommand(argv: string[], io: ReconcileIO): Promise<number> {
  if (isExportInvocation(argv)) return reconcileExportCommand(argv, { ...io, ask: (q) => ask(io, q) });
  let o: Options | 'help';
  try {
    o = options(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`dynalint reconcile: ${e.message}\n\n${RECONCILE_USAGE}`);
    return EXIT.usage;
  }
  if (o === 'help') {
    io.stdout(RECONCILE_USAGE);
    return EXIT.ok;
  }
  const client = createClient({ region: o.region, profile: o.profile, endpoint: o.endpoint, ...io.connection });
  try {
    const report = await reconcile(client, { table: o.table, pattern: o.pattern, scope: o.scope, consistent: o.consistent, maxRcu: o.maxRcu, signal: io.signal });
    if (o.format === 'table') io.stdout(formatTable(report) + '\n');
    let repaired: RepairReport | undefined;
    let refusal: { message: string; code: number } | undefined;
    // Only rows without a note are written. A non-number counter (or shard) is shown, never written; a partition with
    // no parent item is listed as such: repair never creates an item. Neither is read again nor asked about.
    const writable = report.drifted.filter((d) => !d.note);
    if (o.repair && (report.drifted.length || report.orphans.length)) {
      if (o.pattern.parentSk === undefined) {
        refusal = { message: 'a sharded stored count (no --parent-sk) is reported, not repaired', code: EXIT.usage };
      } else if (report.partial) {
        refusal = { message: 'not repairing after a partial run: nothing written', code: EXIT.problems };
      } else if (!o.yes && writable.length) {
        const q = `Write ${o.pattern.counter} on ${writable.length} item(s) in ${o.table} at ${target(o)}, each only if it still holds the value read? [y/N] `;
        const answer = await ask(io, q);
        if (answer === undefined) refusal = { message: 'refusing to write without --yes: stdin is not a terminal', code: EXIT.usage };
        else if (!answer) refusal = { message: 'nothing written', code: EXIT.problems };
      }
      if (!refusal) {
        const parents = writable.map((d) => Object.values(d.key)[0]);
        repaired = parents.length
          ? await repair(client, { table: o.table, pattern: o.pattern, parents, signal: io.signal })
          : { results: [], written: 0, consumedRcu: 0, consumedWcu: 0, elapsedMs: 0 };
        for (const d of report.drifted) if (d.note) repaired.results.push({ key: d.key, outcome: { status: 'not-attempted', reason: d.note } });
        for (const d of report.orphans) repaired.results.push({ key: d.key, outcome: { status: 'no-parent' } });
      }
    }
    if (o.format === 'json') io.stdout(JSON.stringify(jsonReport(report, repaired), null, 2) + '\n');
    else if (o.format === 'html') io.stdout(reconcileReportHtml(report, repaired));
    else if (repaired) io.stdout(formatRepair(repaired) + '\n');
    if (repaired?.partial) {
      // The report above says what was written, what failed and what was not attempted; the exit says "incomplete".
      io.stderr(`dynalint reconcile: repair incomplete: ${repaired.partial.message}${repaired.partial.reason === 'error' ? where(o) : ''}\n`);
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
    if (report.drifted.length || report.orphans.length) return EXIT.problems;
    if (report.partial) {
      io.stderr(`dynalint reconcile: ${report.partial.message} No drift among the ${report.checked} checked; the rest is unknown.\n`);
      return EXIT.usage;
    }
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof ReconcileError)) throw e;
    io.stderr(`dynalint reconcile: ${e.message}${where(o)}\n`);
    return EXIT.usage;
  } finally {
    client.destroy();
  }
}

function jsonReport(r: ReconcileReport, repaired: RepairReport | undefined): object {
  return {
    table: r.table,
    pattern: r.pattern,
    scope: r.scope,
    consistent: r.consistent,
    drifted: r.drifted,
    checked: r.checked,
    orphans: r.orphans,
    ...(r.totals ? { totals: r.totals } : {}),
    itemsRead: r.itemsRead,
    consumedRcu: r.consumedRcu,
    requests: r.requests,
    retries: r.retries,
    elapsedMs: r.elapsedMs,
    ...(r.partial ? { partial: r.partial } : {}),
    ...(repaired ? { repair: repaired } : {}),
  };
}

/**
 * The entry the dispatcher uses: what `io` lacks is taken from the process — stdin to confirm a repair on, and Ctrl-C
 * to cancel (a second Ctrl-C exits at once).
 */
export async function runReconcileCli(argv: string[], io?: ReconcileIO): Promise<number> {
  const base: ReconcileIO = io ?? { cwd: process.cwd(), stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
  if (base.signal) return reconcileCommand(argv, { stdin: process.stdin, ...base });
  const ac = new AbortController();
  const onSigint = () => {
    if (ac.signal.aborted) process.exit(130);
    base.stderr('\nCancelling (Ctrl-C again to exit now)...\n');
    ac.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await reconcileCommand(argv, { stdin: process.stdin, ...base, signal: ac.signal });
  } finally {
    process.off('SIGINT', onSigint);
  }
}
