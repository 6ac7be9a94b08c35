/**
 * Report formats of `dynalint lint`: stylish (ESLint-like, for people), json (LSP-like 0-based ranges, for scripts),
 * sarif (2.1.0, for GitHub code scanning and other SARIF viewers).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { Range } from '../extract/model';
import type { Finding, Rule, Severity } from '../rules/types';
import { FINGERPRINT_KEY, fingerprints, ruleHelp } from './sarif-github';

export const FORMATS = ['stylish', 'json', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];

/** A file, or a part of one (`range`), that was not linted, and why. */
export interface NotLinted {
  reason: string;
  range?: Range;
}

/** One file's outcome. The text is not kept (a run over a large tree must not hold every file): only positions. */
export interface FileReport {
  /** Path relative to the working directory, with `/` separators. */
  file: string;
  findings: Finding[];
  notLinted?: NotLinted[];
  /** Line/character of every offset the formats print (finding, related and not-linted ranges). */
  positions: Map<number, Position>;
  /** SARIF partial fingerprints of `findings`, same order (see sarif-github.ts). */
  fingerprints?: string[];
}

/** A file's report, with the positions of the offsets it needs computed from its text (then dropped). */
export function fileReport(file: string, text: string, findings: Finding[], notLinted?: NotLinted[]): FileReport {
  const index = new LineIndex(text);
  const positions = new Map<number, Position>();
  const note = (r: Range | undefined) => {
    if (!r) return;
    for (const o of [r.start, r.end]) if (!positions.has(o)) positions.set(o, index.positionAt(o));
  };
  for (const f of findings) {
    note(f.range);
    for (const rel of f.related ?? []) note(rel.range);
  }
  for (const n of notLinted ?? []) note(n.range);
  const report: FileReport = { file, findings, positions };
  if (findings.length) report.fingerprints = fingerprints(file, text, findings);
  if (notLinted?.length) report.notLinted = notLinted;
  return report;
}

const at = (r: FileReport, offset: number): Position => r.positions.get(offset) ?? { line: 0, character: offset };
const rangeOf = (r: FileReport, range: Range) => ({ start: at(r, range.start), end: at(r, range.end) });

/** `path: not linted: reason` (with the line of a region). */
export function notLintedLines(reports: FileReport[]): string[] {
  return reports.flatMap((r) => (r.notLinted ?? []).map((n) => `${r.file}: not linted: ${n.reason}`));
}

export const countNotLinted = (reports: FileReport[]): number => reports.reduce((n, r) => n + (r.notLinted?.length ?? 0), 0);

export interface Position {
  line: number;
  character: number;
}

/** 0-based line/character (UTF-16) positions for offsets of one text; line starts computed once. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }
  positionAt(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }
  range(r: Range): { start: Position; end: Position } {
    return { start: this.positionAt(r.start), end: this.positionAt(r.end) };
  }
  /** The offset of a position, clamped to its line (and a line past the end to the text's end), as LSP's offsetAt. */
  offsetAt(p: Position, textLength: number): number {
    if (p.line >= this.starts.length) return textLength;
    const lineEnd = p.line + 1 < this.starts.length ? this.starts[p.line + 1] : textLength;
    return Math.min(this.starts[p.line] + Math.max(0, p.character), lineEnd);
  }
}

export interface Counts {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  fixableErrors: number;
  fixableWarnings: number;
}

export function countFindings(reports: FileReport[]): Counts {
  const c: Counts = { errors: 0, warnings: 0, infos: 0, hints: 0, fixableErrors: 0, fixableWarnings: 0 };
  for (const r of reports) {
    for (const f of r.findings) {
      const fixable = (f.fixes ?? []).some((x) => x.safe);
      if (f.severity === 'error') {
        c.errors++;
        if (fixable) c.fixableErrors++;
      } else if (f.severity === 'warning') {
        c.warnings++;
        if (fixable) c.fixableWarnings++;
      } else if (f.severity === 'info') c.infos++;
      else c.hints++;
    }
  }
  return c;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Text for a terminal: control characters (from the source, quoted in messages, or in file names) are shown escaped,
 * so a file cannot move the cursor, clear the screen or retitle the terminal of whoever reads the report.
 */
export function terminalSafe(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formatStylish(reports: FileReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (!r.findings.length) continue;
    const rows = sortFindings(r.findings).map((f) => {
      const p = at(r, f.range.start);
      return [`${p.line + 1}:${p.character + 1}`, f.severity, terminalSafe(f.message.replace(/\s*\n\s*/g, ' ')), f.ruleId];
    });
    const widths = [0, 1, 2].map((i) => rows.reduce((w, row) => Math.max(w, row[i].length), 0));
    lines.push(terminalSafe(r.file));
    for (const row of rows) lines.push(`  ${row[0].padEnd(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2].padEnd(widths[2])}  ${row[3]}`);
    lines.push('');
  }
  const skipped = notLintedLines(reports);
  if (skipped.length) {
    for (const l of skipped) lines.push(`⚠ ${terminalSafe(l)}`);
    lines.push('');
  }
  const c = countFindings(reports);
  const total = c.errors + c.warnings + c.infos + c.hints;
  if (total === 0) return lines.length ? lines.join('\n') + '\n' : '';
  const parts = [plural(c.errors, 'error'), plural(c.warnings, 'warning')];
  if (c.infos) parts.push(`${c.infos} info`);
  if (c.hints) parts.push(plural(c.hints, 'hint'));
  lines.push(`✖ ${plural(total, 'problem')} (${parts.join(', ')})`);
  if (c.fixableErrors + c.fixableWarnings > 0) {
    lines.push(`  ${plural(c.fixableErrors, 'error')} and ${plural(c.fixableWarnings, 'warning')} potentially fixable with the \`--fix\` option.`);
  }
  return lines.join('\n') + '\n';
}

function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
}

export interface JsonDiagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  range: { start: Position; end: Position };
}

export interface JsonFile {
  file: string;
  diagnostics: JsonDiagnostic[];
  /** What was not linted in this file (no `range`: the whole file). Absent when everything was. */
  skipped?: { reason: string; range?: { start: Position; end: Position } }[];
}

export function toJson(reports: FileReport[]): JsonFile[] {
  return reports.map((r) => {
    const out: JsonFile = {
      file: r.file,
      diagnostics: sortFindings(r.findings).map((f) => ({ ruleId: f.ruleId, severity: f.severity, message: f.message, range: rangeOf(r, f.range) })),
    };
    if (r.notLinted?.length) out.skipped = r.notLinted.map((n) => (n.range ? { reason: n.reason, range: rangeOf(r, n.range) } : { reason: n.reason }));
    return out;
  });
}

export function formatJson(reports: FileReport[]): string {
  return JSON.stringify(toJson(reports), null, 2) + '\n';
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };

export interface ToolInfo {
  name: string;
  version: string;
  informationUri: string;
}

/**
 * A file under the working directory is a relative URI against SRCROOT (what code scanning maps to the repository);
 * one outside it is an absolute file URI. Segments are percent-encoded (a `#` or `?` in a name is not a fragment).
 */
function sarifArtifact(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file) || file === '..' || file.startsWith('../') || file.startsWith('..\\')) return { uri: pathToFileURL(resolve(cwd, file)).href };
  return { uri: file.split(/[\\/]/).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
}

/** SARIF 2.1.0 log: one run, the rules that exist (metadata for code scanning), one result per finding. */
export function toSarif(reports: FileReport[], rules: Rule[], cwd: string, tool: ToolInfo): Log {
  const used = new Set(reports.flatMap((r) => r.findings.map((f) => f.ruleId)));
  const known = new Map(rules.map((r) => [r.id, r]));
  const ids = [...new Set([...rules.map((r) => r.id), ...used])].sort();
  const descriptors: ReportingDescriptor[] = ids.map((id) => {
    const rule = known.get(id);
    if (!rule) return { id };
    const level = rule.meta.defaultSeverity === 'off' ? 'none' : SARIF_LEVEL[rule.meta.defaultSeverity];
    return {
      id,
      name: id.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase()),
      shortDescription: { text: rule.meta.description },
      helpUri: rule.meta.docs,
      fullDescription: { text: rule.meta.description },
      help: ruleHelp(rule),
      defaultConfiguration: { level, enabled: rule.meta.defaultSeverity !== 'off' },
      properties: { category: rule.meta.category, fixable: rule.meta.fixable, tags: ['dynamodb', rule.meta.category] },
    };
  });
  const ruleIndex = new Map(ids.map((id, i) => [id, i]));
  const results: Result[] = [];
  const notifications: Notification[] = [];
  for (const r of reports) {
    const artifactLocation = sarifArtifact(r.file, cwd);
    const region = (range: Range) => {
      const s = at(r, range.start);
      const e = at(r, range.end);
      return { startLine: s.line + 1, startColumn: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
    };
    const fingerprintOf = new Map(r.findings.map((f, i) => [f, r.fingerprints?.[i]]));
    for (const f of sortFindings(r.findings)) {
      const fingerprint = fingerprintOf.get(f);
      const result: Result = {
        ruleId: f.ruleId,
        ruleIndex: ruleIndex.get(f.ruleId),
        level: SARIF_LEVEL[f.severity],
        message: { text: f.message },
        locations: [{ physicalLocation: { artifactLocation, region: region(f.range) } }],
      };
      if (fingerprint) result.partialFingerprints = { [FINGERPRINT_KEY]: fingerprint };
      if (f.related?.length) {
        result.relatedLocations = f.related.map((rel, i) => ({
          id: i,
          message: { text: rel.message },
          physicalLocation: { artifactLocation, region: region(rel.range) },
        }));
      }
      if (f.fixes?.length) {
        result.fixes = f.fixes.map((fix) => ({
          description: { text: fix.title },
          artifactChanges: [
            {
              artifactLocation,
              replacements: fix.edits.map((e) => ({ deletedRegion: { charOffset: e.range.start, charLength: e.range.end - e.range.start }, insertedContent: { text: e.newText } })),
            },
          ],
        }));
      }
      results.push(result);
    }
    for (const n of r.notLinted ?? []) {
      notifications.push({
        level: 'warning',
        message: { text: `${r.file}: not linted: ${n.reason}` },
        locations: [{ physicalLocation: n.range ? { artifactLocation, region: region(n.range) } : { artifactLocation } }],
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: tool.name, version: tool.version, informationUri: tool.informationUri, rules: descriptors } },
        // SRCROOT is left for the consumer to bind (code scanning binds it to the checkout): the log does not carry
        // this machine's absolute working directory.
        originalUriBaseIds: { SRCROOT: { description: { text: 'The directory dynalint lint ran in (paths are relative to it).' } } },
        columnKind: 'utf16CodeUnits',
        // Files and parts of files not linted are tool execution notifications: the run succeeded, with gaps.
        invocations: [notifications.length ? { executionSuccessful: true, toolExecutionNotifications: notifications } : { executionSuccessful: true }],
        results,
      },
    ],
  };
}

export function formatReports(format: Format, reports: FileReport[], rules: Rule[], cwd: string, tool: ToolInfo): string {
  if (format === 'json') return formatJson(reports);
  if (format === 'sarif') return JSON.stringify(toSarif(reports, rules, cwd, tool), null, 2) + '\n';
  return formatStylish(reports);
}
