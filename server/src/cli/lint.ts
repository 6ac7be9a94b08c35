/**
 * `dynalint lint [paths or globs] [--format stylish|text|json|sarif] [--max-warnings N] [--fix] [--fix-dry-run]
 * [--config path] [--max-file-size bytes] [--strict] [--jobs N]`
 *
 * Exit 0 when clean, 1 on errors (or more warnings than --max-warnings, or with --strict anything not linted), 2 on bad
 * usage, a file that could not be read, or fixes that could not be written (after the whole report: one file's failure
 * never stops the others). Files are linted one by one (their texts are not kept) on the main thread or in worker threads; the report
 * lists them in path order whatever the parallelism.
 */
import { join, relative, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { languageIdForPath } from '../extract';
import type { DynalintSettings } from '../protocol/settings';
import { allRules } from '../rules';
import { CliIO, EXIT, UsageError, parseArgs } from './command';
import { CliConfig } from './config';
import { collectFiles } from './files';
import { FORMATS, FileReport, Format, countFindings, countNotLinted, fileReport, formatReports } from './format';
import { type LintJob, type LintOutcome, lintFile } from './lint-file';
import { type JobMessage, LINT_WORKER } from './worker';
import { type TableIndex } from '../tables';
import { definitionProblemsByPath, treeTables } from './tables';

export { lintText } from './lint-file';

export const LINT_USAGE = `Usage: dynalint lint [paths or globs...] [options]

Lints DynamoDB requests in JSON, YAML, TypeScript/JavaScript, Python, Go, Java and VTL files (directories are
walked; .gitignore is respected; node_modules is skipped). Files and lines that are not linted (too large, binary, minified code) are
reported: a warning line (stylish), a "skipped" entry (json), a tool execution notification (sarif).

Options:
  --format stylish|json|sarif   Report format (default: stylish; text is the same as stylish)
  --max-warnings N              Exit 1 when there are more than N warnings
  --fix                         Apply safe fixes and write the files
  --fix-dry-run                 Print the safe fixes as a unified diff, write nothing
  --config path                 Use this .dynalintrc.json for every file (default: the nearest one above each file,
                                up to the repository root)
  --max-file-size bytes         Skip (and report) files larger than this (default: 2097152, or maxFileSize in the
                                config)
  --strict                      Exit 1 when any file or part of a file was not linted
  --jobs N                      Lint in N worker threads, at least 40 files each (default: 1, no workers); the
                                report is the same whatever N
  --help                        Show this help
`;

export const TOOL = { name: 'dynalint', version: '0.1.0', informationUri: 'https://github.com/dynalint/dynalint' };

interface LintOptions {
  format: Format;
  maxWarnings: number;
  fix: boolean;
  dryRun: boolean;
  config?: string;
  maxFileSize?: number;
  strict: boolean;
  jobs: number;
  paths: string[];
}

/** Fewer files than this per worker do not pay for a worker's start-up: fewer workers are started. */
const FILES_PER_WORKER = 40;

/**
 * Default parallelism: none. Measured on this 2-core machine (shared, load 6-11), 2 workers were slower than one
 * thread (each worker compiles the TypeScript compiler and warms its own JIT): see ARCHITECTURE.md, CLI.
 * `--jobs N` opts in.
 */
const DEFAULT_JOBS = 1;


/** Other names people use for a format. */
const FORMAT_ALIASES: Record<string, Format> = { text: 'stylish' };

function options(argv: string[]): LintOptions | 'help' {
  const a = parseArgs(argv, { values: ['format', 'max-warnings', 'config', 'max-file-size', 'jobs'], booleans: ['fix', 'fix-dry-run', 'strict', 'help'] });
  if (a.flags.has('help')) return 'help';
  const name = (a.values.get('format')?.[0] ?? 'stylish').toLowerCase();
  const format = (FORMAT_ALIASES[name] ?? name) as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (text = stylish)`);
  const mw = a.values.get('max-warnings')?.[0];
  if (mw !== undefined && !/^-?\d+$/.test(mw)) throw new UsageError('--max-warnings needs a whole number');
  if (a.flags.has('fix') && a.flags.has('fix-dry-run')) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  const mfs = a.values.get('max-file-size')?.[0];
  if (mfs !== undefined && !/^[1-9]\d*$/.test(mfs)) throw new UsageError('--max-file-size needs a number of bytes (1 or more)');
  const jobs = a.values.get('jobs')?.[0];
  if (jobs !== undefined && !/^[1-9]\d*$/.test(jobs)) throw new UsageError('--jobs needs a whole number (1 or more)');
  return {
    maxFileSize: mfs === undefined ? undefined : Number(mfs),
    strict: a.flags.has('strict'),
    jobs: jobs === undefined ? 0 : Number(jobs),
    format,
    maxWarnings: mw === undefined ? -1 : Number(mw),
    fix: a.flags.has('fix'),
    dryRun: a.flags.has('fix-dry-run'),
    config: a.values.get('config')?.[0],
    paths: a.positionals,
  };
}

const toPosix = (p: string): string => p.split(sep).join('/');

export async function lintCommand(argv: string[], io: CliIO): Promise<number> {
  let opts: LintOptions | 'help';
  try {
    opts = options(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`dynalint lint: ${e.message}\n\n${LINT_USAGE}`);
    return EXIT.usage;
  }
  if (opts === 'help') {
    io.stdout(LINT_USAGE);
    return EXIT.ok;
  }
  const { files, unmatched } = collectFiles(opts.paths, io.cwd, (f) => languageIdForPath(f) !== undefined);
  // Every file's configuration is read before anything is linted or fixed, so an invalid one stops the run untouched.
  let settingsOf: Map<string, DynalintSettings>;
  try {
    const config = new CliConfig(io.cwd, opts.config, (w) => io.stderr(`dynalint lint: ${w}\n`));
    settingsOf = new Map(files.map((f) => [f, config.settingsFor(f)]));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`dynalint lint: ${e.message}\n`);
    return EXIT.usage;
  }
  if (unmatched.length) {
    io.stderr(`dynalint lint: no files matching ${unmatched.map((u) => `"${u}"`).join(', ')}\n`);
    return EXIT.usage;
  }
  const jobs: (LintJob | FileReport)[] = [];
  for (const abs of files) {
    const file = toPosix(relative(io.cwd, abs)) || abs;
    const languageId = languageIdForPath(abs);
    const settings = settingsOf.get(abs)!;
    if (!languageId) {
      jobs.push(fileReport(file, '', [], [{ reason: 'not a file type Dynalint reads (JSON, TypeScript/JavaScript, Python, Go, Java, YAML, VTL)' }]));
      continue;
    }
    if (!settings.languages.includes(languageId)) continue;
    const s = opts.maxFileSize === undefined ? settings : { ...settings, maxFileSize: opts.maxFileSize };
    jobs.push({ abs, file, languageId, settings: s, fix: opts.fix, dryRun: opts.dryRun });
  }
  const todo = jobs.filter((j): j is LintJob => 'abs' in j);
  // Table definitions of the repository and of the linted paths, for the key-schema rules. A definition that could
  // not be read is a finding of its own file when that file is linted (like any finding: not of files not asked for).
  const tables = await treeTables(io.cwd, files, (m) => io.stderr(`dynalint lint: ${m}\n`));
  // Outside the linted files such a definition still changes how requests against it are linted: said on stderr.
  const problems = definitionProblemsByPath(tables);
  for (const j of todo) {
    const mine = problems.get(j.abs);
    if (mine) j.definitionProblems = mine.map(({ message, range }) => ({ message, range }));
    problems.delete(j.abs);
  }
  for (const list of problems.values()) for (const p of list) io.stderr(`dynalint lint: ${p.label}: ${p.message} (table-definition; that file is not linted)\n`);
  const workers = Math.min(opts.jobs || DEFAULT_JOBS, Math.max(1, Math.floor(todo.length / FILES_PER_WORKER)));
  const outcomes = new Map<LintJob, LintOutcome>();
  const failed = await runJobs(todo, workers, tables, (job, outcome) => {
    outcomes.set(job, outcome);
    for (const m of outcome.messages) io.stderr(`${m}\n`);
  });
  if (failed) {
    io.stderr(`dynalint lint: ${failed}\n`);
    return EXIT.usage;
  }
  const reports: FileReport[] = [];
  let diff = '';
  let fixedCount = 0;
  const written: string[] = [];
  const notWritten: string[] = [];
  const unreadable: string[] = [];
  for (const j of jobs) {
    if (!('abs' in j)) {
      reports.push(j);
      continue;
    }
    const o = outcomes.get(j)!;
    reports.push(o.report);
    diff += o.diff ?? '';
    fixedCount += o.fixed;
    if (o.written) written.push(j.file);
    if (o.notWritten) notWritten.push(`${j.file} (${o.notWritten})`);
    if (o.unreadable) unreadable.push(`${j.file} (${o.unreadable})`);
  }
  if (opts.dryRun) io.stdout(diff);
  else io.stdout(formatReports(opts.format, reports, allRules, io.cwd, TOOL));
  if (opts.fix || opts.dryRun) {
    const files = opts.fix ? ` in ${written.length} file${written.length === 1 ? '' : 's'}` : '';
    io.stderr(`dynalint lint: ${fixedCount} fix${fixedCount === 1 ? '' : 'es'} ${opts.fix ? 'applied' : 'would be applied'}${files}\n`);
  }
  // Say what was not done, after the report: nothing that failed for one file stopped the others.
  if (notWritten.length) io.stderr(`dynalint lint: fixes not written to ${notWritten.length} file${notWritten.length === 1 ? '' : 's'}: ${notWritten.join(', ')}\n`);
  if (unreadable.length) io.stderr(`dynalint lint: ${unreadable.length} file${unreadable.length === 1 ? '' : 's'} could not be read: ${unreadable.join(', ')}\n`);
  const c = countFindings(reports);
  const tooManyWarnings = opts.maxWarnings >= 0 && c.warnings > opts.maxWarnings;
  if (tooManyWarnings && opts.format === 'stylish' && !opts.dryRun) io.stdout(`dynalint found too many warnings (maximum: ${opts.maxWarnings}).\n`);
  const notLinted = countNotLinted(reports);
  if (opts.strict && notLinted > 0) io.stderr(`dynalint lint: --strict: ${notLinted} file${notLinted === 1 ? '' : 's'} or part${notLinted === 1 ? '' : 's'} not linted\n`);
  if (unreadable.length || notWritten.length) return EXIT.usage;
  return c.errors > 0 || tooManyWarnings || (opts.strict && notLinted > 0) ? EXIT.problems : EXIT.ok;
}

/** A lint worker: this bundle started again (dist/cli.js), or worker.ts through tsx when running from sources (tests). */
function startWorker(): Worker {
  if (!/\.ts$/.test(__filename)) return new Worker(__filename, { workerData: LINT_WORKER });
  const resolveAtRunTime = (id: string) => require.resolve(id); // not for the bundler: only sources run this
  const entry = `require(${JSON.stringify(resolveAtRunTime('tsx/cjs'))}); require(${JSON.stringify(join(__dirname, 'worker.ts'))});`;
  return new Worker(entry, { eval: true, workerData: LINT_WORKER });
}

/**
 * Lint every job, on this thread (`workers` = 1) or in worker threads, calling `done` for each; an error message when a
 * file could not be read or a worker failed (the run stops), else undefined. Each worker gets one file at a time,
 * so the load balances and at most `workers` outcomes are in flight.
 */
async function runJobs(jobs: LintJob[], workers: number, tables: TableIndex, done: (job: LintJob, outcome: LintOutcome) => void): Promise<string | undefined> {
  if (workers <= 1 || jobs.length <= 1) {
    for (const job of jobs) {
      done(job, await lintFile(job, tables));
    }
    return undefined;
  }
  let next = 0;
  let failure: string | undefined;
  const pool = Array.from({ length: Math.min(workers, jobs.length) }, startWorker);
  try {
    await Promise.all(
      pool.map(
        (w) =>
          new Promise<void>((resolve) => {
            let first = true;
            const send = () => {
              if (failure !== undefined || next >= jobs.length) return resolve();
              const id = next++;
              w.postMessage({ id, job: jobs[id], ...(first ? { tables: tables.snapshot() } : {}) } satisfies JobMessage);
              first = false;
            };
            w.on('message', (m: { id: number; outcome?: LintOutcome; failure?: string }) => {
              if (m.outcome) done(jobs[m.id], m.outcome);
              else failure ??= `lint of ${jobs[m.id].file} failed: ${m.failure}`;
              send();
            });
            w.on('error', (e) => {
              failure ??= `a lint worker failed: ${(e as Error)?.stack ?? String(e)}`;
              resolve();
            });
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return failure;
}
