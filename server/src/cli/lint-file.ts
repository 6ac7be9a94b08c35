/**
 * One file of `dynalint lint`, from its path to its report: read (unless over the size limit), extract, run the rules,
 * fix if asked. Runs on the main thread or in a worker (cli/worker.ts); every input and output is plain data.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { ensureParser, extract } from '../extract';
import { fixAll } from '../fix/apply';
import type { DynalintSettings } from '../protocol/settings';
import { runRules } from '../rules';
import type { Finding } from '../rules/types';
import { FileReport, NotLinted, fileReport } from './format';

export interface LintJob {
  /** Absolute path. */
  abs: string;
  /** Path as reported (relative to the working directory, `/` separators). */
  file: string;
  languageId: string;
  settings: DynalintSettings;
  fix: boolean;
  dryRun: boolean;
}

export interface LintOutcome {
  report: FileReport;
  /** `--fix-dry-run`: the unified diff of this file's safe fixes. */
  diff?: string;
  fixed: number;
  /** Lines for stderr (a rule that failed...). */
  messages: string[];
  /** The file could not be read: a usage error that stops the run. */
  error?: string;
}

/** Lint one document's text: extraction then every enabled rule (suppressions and severities applied by runRules). */
export function lintText(text: string, languageId: string, settings: DynalintSettings, log: (message: string) => void): Finding[] {
  return lintTextWithGaps(text, languageId, settings, log).findings;
}

function lintTextWithGaps(text: string, languageId: string, settings: DynalintSettings, log: (message: string) => void): { findings: Finding[]; notLinted: NotLinted[] } {
  const res = extract(text, languageId, { maxFileSize: settings.maxFileSize });
  if (res.skipped) return { findings: [], notLinted: [{ reason: res.skipped }] };
  const notLinted = (res.notLinted ?? []).map((r) => ({ reason: r.reason, range: { start: r.start, end: r.end } }));
  return { findings: runRules(text, languageId, res.sites, { fileRules: settings.rules, log }), notLinted };
}

export async function lintFile(job: LintJob): Promise<LintOutcome> {
  const { abs, file, languageId, settings } = job;
  const messages: string[] = [];
  // Over the size limit: not even read (the size is in bytes; extraction also checks characters).
  let size: number;
  try {
    size = statSync(abs).size;
  } catch (e) {
    return { report: fileReport(file, '', []), fixed: 0, messages, error: `cannot read ${file}: ${(e as Error).message}` };
  }
  if (size > settings.maxFileSize) {
    return { report: fileReport(file, '', [], [{ reason: `file too large (${size} bytes > max file size ${settings.maxFileSize})` }]), fixed: 0, messages };
  }
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    return { report: fileReport(file, '', []), fixed: 0, messages, error: `cannot read ${file}: ${(e as Error).message}` };
  }
  await ensureParser(languageId);
  const log = (m: string) => messages.push(`${file}: ${m}`);
  let { findings, notLinted } = lintTextWithGaps(text, languageId, settings, log);
  let diff: string | undefined;
  let fixed = 0;
  if ((job.fix || job.dryRun) && findings.some((f) => f.fixes?.some((x) => x.safe))) {
    const result = fixAll(text, findings, (t) => lintText(t, languageId, settings, log));
    if (result.text !== text) {
      fixed = result.fixed;
      if (job.fix) writeFileSync(abs, result.text);
      else diff = createTwoFilesPatch(`a/${file}`, `b/${file}`, text, result.text, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
      text = result.text;
      ({ findings, notLinted } = result.remaining ? { findings: result.remaining, notLinted } : lintTextWithGaps(text, languageId, settings, log));
    }
  }
  return { report: fileReport(file, text, findings, notLinted), diff, fixed, messages };
}
