/**
 * `dynalint lint [paths or globs] [--format stylish|text|json|sarif] [--max-warnings N] [--fix] [--fix-dry-run] [--config path]`
 *
 * Exit 0 when clean, 1 on errors (or more warnings than --max-warnings), 2 on bad usage.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { extract, initParsers, languageIdForPath } from '../extract';
import { fixAll } from '../fix/apply';
import type { DynalintSettings } from '../protocol/settings';
import { allRules, runRules } from '../rules';
import type { Finding } from '../rules/types';
import { CliIO, EXIT, UsageError, parseArgs } from './command';
import { CliConfig } from './config';
import { collectFiles } from './files';
import { FORMATS, FileReport, Format, countFindings, formatReports } from './format';

export const LINT_USAGE = `Usage: dynalint lint [paths or globs...] [options]

Lints DynamoDB requests in JSON, TypeScript/JavaScript and Python files (directories are walked; .gitignore is
respected; node_modules is skipped).

Options:
  --format stylish|json|sarif   Report format (default: stylish; text is the same as stylish)
  --max-warnings N              Exit 1 when there are more than N warnings
  --fix                         Apply safe fixes and write the files
  --fix-dry-run                 Print the safe fixes as a unified diff, write nothing
  --config path                 Use this .dynalintrc.json for every file (default: the nearest one above each file,
                                up to the repository root)
  --help                        Show this help
`;

export const TOOL = { name: 'dynalint', version: '0.1.0', informationUri: 'https://github.com/dynalint/dynalint' };

/** Lint one document's text: extraction then every enabled rule (suppressions and severities applied by runRules). */
export function lintText(text: string, languageId: string, settings: DynalintSettings, log: (message: string) => void): Finding[] {
  const res = extract(text, languageId, { maxFileSize: settings.maxFileSize });
  return res.skipped ? [] : runRules(text, languageId, res.sites, { fileRules: settings.rules, log });
}

interface LintOptions {
  format: Format;
  maxWarnings: number;
  fix: boolean;
  dryRun: boolean;
  config?: string;
  paths: string[];
}

/** Other names people use for a format. */
const FORMAT_ALIASES: Record<string, Format> = { text: 'stylish' };

function options(argv: string[]): LintOptions | 'help' {
  const a = parseArgs(argv, { values: ['format', 'max-warnings', 'config'], booleans: ['fix', 'fix-dry-run', 'help'] });
  if (a.flags.has('help')) return 'help';
  const name = (a.values.get('format')?.[0] ?? 'stylish').toLowerCase();
  const format = (FORMAT_ALIASES[name] ?? name) as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (text = stylish)`);
  const mw = a.values.get('max-warnings')?.[0];
  if (mw !== undefined && !/^-?\d+$/.test(mw)) throw new UsageError('--max-warnings needs a whole number');
  if (a.flags.has('fix') && a.flags.has('fix-dry-run')) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  return {
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
  await initParsers();
  const reports: FileReport[] = [];
  let diff = '';
  let fixedCount = 0;
  for (const abs of files) {
    const file = toPosix(relative(io.cwd, abs)) || abs;
    const languageId = languageIdForPath(abs);
    const settings = settingsOf.get(abs)!;
    if (!languageId) {
      io.stderr(`dynalint lint: skipping ${file}: not a JSON, TypeScript/JavaScript or Python file\n`);
      continue;
    }
    if (!settings.languages.includes(languageId)) continue;
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch (e) {
      io.stderr(`dynalint lint: cannot read ${file}: ${(e as Error).message}\n`);
      return EXIT.usage;
    }
    const lint = (t: string) => lintText(t, languageId, settings, (m) => io.stderr(`${file}: ${m}\n`));
    let findings = lint(text);
    if ((opts.fix || opts.dryRun) && findings.some((f) => f.fixes?.some((x) => x.safe))) {
      const result = fixAll(text, findings, lint);
      if (result.text !== text) {
        fixedCount += result.fixed;
        if (opts.fix) writeFileSync(abs, result.text);
        else diff += createTwoFilesPatch(`a/${file}`, `b/${file}`, text, result.text, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
        text = result.text;
        findings = result.remaining ?? lint(text);
      }
    }
    reports.push({ file, text, findings });
  }
  if (opts.dryRun) io.stdout(diff);
  else io.stdout(formatReports(opts.format, reports, allRules, io.cwd, TOOL));
  if (opts.fix || opts.dryRun) io.stderr(`dynalint lint: ${fixedCount} fix${fixedCount === 1 ? '' : 'es'} ${opts.fix ? 'applied' : 'would be applied'}\n`);
  const c = countFindings(reports);
  const tooManyWarnings = opts.maxWarnings >= 0 && c.warnings > opts.maxWarnings;
  if (tooManyWarnings && opts.format === 'stylish' && !opts.dryRun) io.stdout(`dynalint found too many warnings (maximum: ${opts.maxWarnings}).\n`);
  return c.errors > 0 || tooManyWarnings ? EXIT.problems : EXIT.ok;
}
