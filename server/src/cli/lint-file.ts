/**
 * One file of `dynalint lint`, from its path to its report: read (unless over the size limit), extract, run the rules,
 * fix if asked. Runs on the main thread or in a worker (cli/worker.ts); every input and output is plain data.
 */
import { chmodSync, closeSync, fstatSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { ensureParser, extract } from '../extract';
import { fixAll } from '../fix/apply';
import type { DynalintSettings } from '../protocol/settings';
import { runRules } from '../rules';
import type { Finding } from '../rules/types';
import { type TextFile, UnreadableFileError, readFailure, readTextFile } from '../io/read';
import { FileReport, LineIndex, NotLinted, type Position, fileReport } from './format';
import type { TableLookup } from '../tables';
import { extractTables, tableFileKind } from '../tables/extract';
import { pathToFileURL } from 'node:url';

export interface LintJob {
  /** Absolute path. */
  abs: string;
  /** Path as reported (relative to the working directory, `/` separators). */
  file: string;
  languageId: string;
  settings: DynalintSettings;
  fix: boolean;
  dryRun: boolean;
  /** The table index's problems in this file (definitions it could not read), reported by table-definition. */
  definitionProblems?: { message: string; range: { start: Position; end: Position } }[];
}

export interface LintOutcome {
  report: FileReport;
  /** `--fix-dry-run`: the unified diff of this file's safe fixes. */
  diff?: string;
  fixed: number;
  /** Lines for stderr (a rule that failed...). */
  messages: string[];
  /** The file could not be opened or read (it is reported as not linted; the run goes on and ends with exit 2). */
  unreadable?: string;
  /** `--fix`: the fixes were written to the file. */
  written?: boolean;
  /** `--fix`: fixes were found but not written, and why (read-only, changed during the run, the write failed). */
  notWritten?: string;
}

/** Lint one document's text: extraction then every enabled rule (suppressions and severities applied by runRules). */
export function lintText(
  text: string,
  languageId: string,
  settings: DynalintSettings,
  log: (message: string) => void,
  tables?: TableLookup,
  problems?: LintJob['definitionProblems'],
): Finding[] {
  return lintTextWithGaps(text, languageId, settings, log, tables, problems).findings;
}

/**
 * The table-definition problems of a file's text after `--fix` changed it: read again from that text (a fix never
 * edits a definition, but lines it inserts above one move it), so their ranges stay exact.
 */
function problemsAfterFix(job: LintJob, text: string): LintJob['definitionProblems'] {
  const kind = job.definitionProblems?.length ? tableFileKind(job.abs) : undefined;
  if (!kind) return undefined;
  return extractTables(pathToFileURL(job.abs).href, job.file, text, kind).problems.map((p) => ({ message: p.message, range: p.location.range }));
}

function lintTextWithGaps(
  text: string,
  languageId: string,
  settings: DynalintSettings,
  log: (message: string) => void,
  tables?: TableLookup,
  problems?: LintJob['definitionProblems'],
): { findings: Finding[]; notLinted: NotLinted[] } {
  const res = extract(text, languageId, { maxFileSize: settings.maxFileSize });
  if (res.skipped) return { findings: [], notLinted: [{ reason: res.skipped }] };
  const notLinted = (res.notLinted ?? []).map((r) => ({ reason: r.reason, range: { start: r.start, end: r.end } }));
  let definitionProblems;
  if (problems?.length) {
    const lines = new LineIndex(text);
    const at = (p: Position) => lines.offsetAt(p, text.length);
    definitionProblems = problems.map((p) => ({ message: p.message, range: { start: at(p.range.start), end: at(p.range.end) } }));
  }
  return { findings: runRules(text, languageId, res.sites, { fileRules: settings.rules, log, tables, definitionProblems }), notLinted };
}

/** `tables`: the table definitions of the linted tree (tables/scan.ts), for the key-schema rules. */
export async function lintFile(job: LintJob, tables?: TableLookup): Promise<LintOutcome> {
  const { abs, file, languageId, settings } = job;
  const messages: string[] = [];
  // Only a regular file of at most maxFileSize bytes of strict UTF-8 is read (a latin-1 file is reported and left
  // byte for byte as it was; a FIFO or a device is refused instead of hanging).
  let read: TextFile;
  try {
    read = readTextFile(abs, settings.maxFileSize);
  } catch (e) {
    if (e instanceof UnreadableFileError) {
      const reason = /^\d+ bytes, over the limit/.test(e.message) ? `file too large (${statSafe(abs)} bytes > max file size ${settings.maxFileSize})` : e.message;
      return { report: fileReport(file, '', [], [{ reason }]), fixed: 0, messages };
    }
    const reason = `cannot read: ${readFailure(e)}`;
    return { report: fileReport(file, '', [], [{ reason }]), fixed: 0, messages, unreadable: reason };
  }
  let text = read.text;
  await ensureParser(languageId);
  const log = (m: string) => messages.push(`${file}: ${m}`);
  let { findings, notLinted } = lintTextWithGaps(text, languageId, settings, log, tables, job.definitionProblems);
  let diff: string | undefined;
  let fixed = 0;
  let written: boolean | undefined;
  let notWritten: string | undefined;
  if ((job.fix || job.dryRun) && findings.some((f) => f.fixes?.some((x) => x.safe))) {
    const result = fixAll(text, findings, (t) => lintText(t, languageId, settings, log, tables, problemsAfterFix(job, t)));
    if (result.text !== text) {
      fixed = result.fixed;
      if (job.fix) {
        notWritten = writeFixed(abs, read, result.text);
        written = notWritten === undefined;
      } else diff = createTwoFilesPatch(`a/${file}`, `b/${file}`, text, result.text, undefined, undefined, { context: 3 }).replace(/^=+\n/, '');
      if (!notWritten) {
        text = result.text;
        ({ findings, notLinted } = result.remaining ? { findings: result.remaining, notLinted } : lintTextWithGaps(text, languageId, settings, log, tables, problemsAfterFix(job, text)));
      }
    }
  }
  const outcome: LintOutcome = { report: fileReport(file, text, findings, notLinted), diff, fixed: notWritten ? 0 : fixed, messages };
  if (written) outcome.written = true;
  if (notWritten) outcome.notWritten = notWritten;
  return outcome;
}

function statSafe(abs: string): number | string {
  try {
    return statSync(abs).size;
  } catch {
    return '?';
  }
}

/**
 * Replace a file with its fixed text, safely: not when it is read-only (its mode says so; root would write anyway)
 * or changed since it was read (size, modification time or bytes differ); else write a temporary file beside it with
 * the same mode and rename it over the original, so a crash leaves the old or the new file, never half of one. The
 * BOM the file had is kept. Undefined when written, else why not.
 */
export function writeFixed(abs: string, read: TextFile, fixedText: string): string | undefined {
  let mode: number;
  try {
    const st = statSync(abs);
    mode = st.mode & 0o7777;
    if ((mode & 0o222) === 0) return 'the file is read-only';
    if (!st.isFile()) return 'no longer a regular file';
    if (st.size !== read.size || st.mtimeMs !== read.mtimeMs) return 'the file changed during the run';
    const now = readTextFile(abs, read.size);
    if (now.text !== read.text || now.bom !== read.bom) return 'the file changed during the run';
  } catch (e) {
    return `the file changed during the run (${readFailure(e)})`;
  }
  const tmp = join(dirname(abs), `.${basename(abs)}.dynalint-${process.pid}-${Date.now()}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      const bytes = Buffer.from((read.bom ? '\uFEFF' : '') + fixedText, 'utf8');
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      fstatSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, mode);
    renameSync(tmp, abs);
    return undefined;
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* nothing was created */
    }
    return `the write failed (${readFailure(e)})`;
  }
}
