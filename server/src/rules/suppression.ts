/**
 * Suppression comments (`//` or `/* *\/` in TS/JS/JSONC, `#` in Python and YAML, `##` or `#* *#` in VTL mapping
 * templates, where `//` is template text and a lone `#` starts a directive; plain JSON has no comments):
 *   dynalint-disable-next-line <id>[, <id>]   the next line
 *   dynalint-disable-line <id>[, <id>]        the comment's own line (a trailing comment, as ESLint's eslint-disable-line)
 *   dynalint-disable <id>[, <id>]             the whole file; no ids = every rule
 * A line directive covers the findings that start on its target line, those inside a multi-line string starting on
 * that line, and every finding inside a request site (call, request object) whose range starts on that line: so a
 * comment above `await doc.send(new UpdateCommand({` covers the whole call. Suppressions that suppress nothing, and
 * unknown `dynalint-disable-*` / `dynalint-enable*` directives, are reported.
 */
import type { Range, RequestSite, VNode } from '../extract/model';
import { lineBreakOf } from './edit';
import type { Finding, TextEdit } from './types';

export const UNUSED_SUPPRESSION = 'unused-suppression';

export interface Suppression {
  /** `unknown`: a misspelt or unsupported directive (e.g. `dynalint-disable-lines`, `dynalint-enable`), reported only. */
  kind: 'next-line' | 'line' | 'file' | 'unknown';
  /** Rule ids with their ranges in the comment; empty = all rules. */
  ids: { id: string; range: Range }[];
  /** The whole comment. */
  range: Range;
  /** The line (0-based) a line or next-line suppression applies to. */
  line: number;
  /** The directive word (`dynalint-disable-next-line`). */
  directive: Range;
}

type CommentStyle = 'slash' | 'hash' | 'vtl' | 'none';

export function commentStyle(languageId: string): CommentStyle {
  if (languageId === 'python' || languageId === 'yaml') return 'hash';
  if (languageId === 'vtl' || languageId === 'velocity') return 'vtl';
  if (languageId === 'json') return 'none';
  return 'slash';
}

/** Offsets at which each line starts. */
export function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

export function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const DIRECTIVE = /dynalint-(?:disable|enable)[\w-]*([^\n]*)/g;
const KINDS: Record<string, Suppression['kind']> = { 'dynalint-disable': 'file', 'dynalint-disable-next-line': 'next-line', 'dynalint-disable-line': 'line' };

/**
 * Where a finding counts as being, for next-line suppressions: the start of the string literal holding it when that
 * literal spans lines (a comment cannot go inside a multi-line string), else the finding's own start.
 */
export function suppressionAnchor(sites: readonly RequestSite[], offset: number): number {
  let best = offset;
  const visit = (n: VNode): void => {
    if (n.range.end < offset || n.range.start > offset) return;
    if (n.kind === 'string') best = Math.min(best, n.range.start);
    else if (n.kind === 'object') n.properties.forEach((p) => visit(p.value));
    else if (n.kind === 'array' || n.kind === 'set') n.items.forEach(visit);
  };
  for (const s of sites) visit(s.params);
  return best;
}

/**
 * The lines a line directive (next-line or same-line) may target to cover a finding: the finding's first line, the
 * first line of the multi-line string holding it, and the first line of every request site containing it.
 */
export function coveredLines(starts: number[], sites: readonly RequestSite[], range: Range): Set<number> {
  const lines = new Set([lineOf(starts, range.start), lineOf(starts, suppressionAnchor(sites, range.start))]);
  for (const s of sites) if (s.range.start <= range.start && range.end <= s.range.end) lines.add(lineOf(starts, s.range.start));
  return lines;
}

/**
 * Where the directives of a text are (a match of DIRECTIVE: at most one per line, the first on it, as a global match
 * takes the rest of its line), between the starts of lines `from` and `to` (both line starts or the text's ends).
 * Each is read from its own line alone (`suppressionsAt`), so a document linted again and again keeps these offsets
 * and re-reads only the lines an edit touched (rules/incremental.ts).
 */
export function directiveOffsets(text: string, from = 0, to = text.length): number[] {
  const out: number[] = [];
  // The region alone (a regular expression would search on past its end for the next match).
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  if (!part.includes('dynalint-')) return out;
  for (const m of part.matchAll(DIRECTIVE)) out.push(from + m.index!);
  return out;
}

/** Find suppression comments. */
export function parseSuppressions(text: string, languageId: string): Suppression[] {
  if (commentStyle(languageId) === 'none' || !text.includes('dynalint-')) return [];
  return suppressionsAt(text, languageId, directiveOffsets(text));
}

/** The suppression comments at the given directive offsets (`directiveOffsets`, in order). */
export function suppressionsAt(text: string, languageId: string, offsets: readonly number[]): Suppression[] {
  const style = commentStyle(languageId);
  if (style === 'none' || !offsets.length) return [];
  const starts = lineStarts(text);
  const out: Suppression[] = [];
  const re = new RegExp(DIRECTIVE.source, 'y');
  for (const at of offsets) {
    re.lastIndex = at;
    const m = re.exec(text)!;
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const before = text.slice(lineStart, at);
    let commentStart: number;
    let body = m[1];
    if (style === 'hash') {
      const hm = /#\s*$/.exec(before);
      if (!hm) continue;
      commentStart = lineStart + hm.index;
    } else if (style === 'vtl') {
      const vm = /(##|#\*)\s*$/.exec(before);
      if (!vm) continue;
      commentStart = lineStart + vm.index;
      if (vm[1] === '#*') {
        const close = body.indexOf('*#');
        if (close < 0) continue;
        body = body.slice(0, close);
      }
    } else {
      const sm = /(\/\/|\/\*)\s*$/.exec(before);
      if (!sm) continue;
      commentStart = lineStart + sm.index;
      if (sm[1] === '/*') {
        const close = body.indexOf('*/');
        if (close < 0) continue;
        body = body.slice(0, close);
      }
    }
    const bodyStart = at + m[0].length - m[1].length;
    const ids: Suppression['ids'] = [];
    // Ids are separated by commas or spaces; `--` starts a free-text reason, as in ESLint.
    const reason = body.indexOf('--');
    const list = reason >= 0 ? body.slice(0, reason) : body;
    for (const im of list.matchAll(/[A-Za-z0-9][\w-]*/g)) ids.push({ id: im[0], range: { start: bodyStart + im.index!, end: bodyStart + im.index! + im[0].length } });
    const endOfComment = bodyStart + body.length + (text.startsWith(style === 'vtl' ? '*#' : '*/', bodyStart + body.length) ? 2 : 0);
    const word = m[0].slice(0, m[0].length - m[1].length);
    const kind = KINDS[word] ?? 'unknown';
    const line = lineOf(starts, at) + (kind === 'next-line' ? 1 : 0);
    out.push({ kind, ids, range: { start: commentStart, end: endOfComment }, line, directive: { start: at, end: at + word.length } });
  }
  return out;
}

/**
 * Drop suppressed findings and add an `unused-suppression` finding (without severity: the caller resolves it) for
 * every suppression, or listed id, that suppressed nothing. Ids of rules that did not run (`enabledIds` lacks them:
 * turned off here, maybe on elsewhere) are not reported.
 */
export function applySuppressions(
  text: string,
  languageId: string,
  findings: Finding[],
  knownIds: ReadonlySet<string>,
  sites: readonly RequestSite[] = [],
  enabledIds: ReadonlySet<string> = knownIds,
  /** The text's suppression comments when the caller has them (`parseSuppressions`' answer, kept across edits). */
  parsed?: Suppression[],
): { kept: Finding[]; unused: Omit<Finding, 'severity'>[] } {
  const sups = parsed ?? parseSuppressions(text, languageId);
  if (!sups.length) return { kept: findings, unused: [] };
  const starts = lineStarts(text);
  const used = new Set<string>();
  const mark = (s: Suppression, i: number | 'all') => used.add(`${s.range.start}:${i}`);
  const kept = findings.filter((f) => {
    const lines = coveredLines(starts, sites, f.range);
    let suppressed = false;
    for (const s of sups) {
      if (s.kind === 'unknown' || (s.kind !== 'file' && !lines.has(s.line))) continue;
      if (!s.ids.length) {
        mark(s, 'all');
        suppressed = true;
        continue;
      }
      s.ids.forEach((x, i) => {
        if (x.id === f.ruleId) {
          mark(s, i);
          suppressed = true;
        }
      });
    }
    return !suppressed;
  });
  const unused: Omit<Finding, 'severity'>[] = [];
  for (const s of sups) {
    if (s.kind === 'unknown') {
      const word = text.slice(s.directive.start, s.directive.end);
      const message = `Unknown suppression directive ${word}: use dynalint-disable-next-line, dynalint-disable-line or dynalint-disable.`;
      unused.push({ ruleId: UNUSED_SUPPRESSION, message, range: s.directive });
      continue;
    }
    const what = s.kind === 'file' ? 'in this file' : s.kind === 'line' ? 'on this line' : 'on the next line';
    if (!s.ids.length) {
      if (!used.has(`${s.range.start}:all`))
        unused.push({ ruleId: UNUSED_SUPPRESSION, message: `Unused suppression: no finding ${what} to disable.`, range: s.range, unnecessary: true, fixes: [removeFix(text, s, [])] });
      continue;
    }
    const unusedIds = s.ids.filter((x, i) => !used.has(`${s.range.start}:${i}`) && (!knownIds.has(x.id) || enabledIds.has(x.id)));
    for (const x of unusedIds) {
      const message = knownIds.has(x.id) ? `Unused suppression: no ${x.id} finding ${what}.` : `Unknown rule id in suppression: ${x.id}.`;
      unused.push({ ruleId: UNUSED_SUPPRESSION, message, range: x.range, unnecessary: true, fixes: [removeFix(text, s, [x.id])] });
    }
  }
  return { kept, unused };
}

/** Remove ids from a suppression comment, or the whole comment (and its line when it stands alone). */
function removeFix(text: string, s: Suppression, remove: string[]): { title: string; edits: TextEdit[]; safe: boolean } {
  const rest = s.ids.filter((x) => !remove.includes(x.id));
  if (remove.length && rest.length) {
    const first = s.ids[0].range.start;
    const last = s.ids[s.ids.length - 1].range.end;
    return { title: `Remove ${remove.join(', ')} from the suppression`, edits: [{ range: { start: first, end: last }, newText: rest.map((x) => x.id).join(', ') }], safe: true };
  }
  const lineStart = text.lastIndexOf('\n', s.range.start - 1) + 1;
  const nl = text.indexOf('\n', s.range.end);
  const lineEnd = nl < 0 ? text.length : nl + 1;
  const alone = /^\s*$/.test(text.slice(lineStart, s.range.start)) && /^\s*$/.test(text.slice(s.range.end, nl < 0 ? text.length : nl));
  let start = s.range.start;
  while (!alone && start > lineStart && /[ \t]/.test(text[start - 1])) start--;
  const range = alone ? { start: lineStart, end: lineEnd } : { start, end: s.range.end };
  return { title: 'Remove the unused suppression', edits: [{ range, newText: '' }], safe: true };
}

/** One code-action request asks for many findings of one text: parse its comments and lines once (one-entry cache). */
let lastParsed: { text: string; languageId: string; suppressions: ReturnType<typeof parseSuppressions>; starts: ReturnType<typeof lineStarts> } | undefined;
function parsedFor(text: string, languageId: string) {
  if (lastParsed?.text !== text || lastParsed.languageId !== languageId) lastParsed = { text, languageId, suppressions: parseSuppressions(text, languageId), starts: lineStarts(text) };
  return lastParsed;
}

/**
 * The edit behind "Disable <id> for this line": adds the id to a `dynalint-disable-next-line` comment on the line
 * above (or a `dynalint-disable-line` comment on the line itself), or inserts a next-line comment with the line's
 * indentation. Undefined for plain JSON (no comments). Pass the document's
 * sites so a finding inside a multi-line string gets its comment above the string, not inside it.
 */
export function disableNextLineEdit(text: string, languageId: string, offset: number, ruleId: string, sites: readonly RequestSite[] = []): TextEdit | undefined {
  const style = commentStyle(languageId);
  if (style === 'none') return undefined;
  offset = suppressionAnchor(sites, offset);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indentRe = /[ \t]*/y;
  indentRe.lastIndex = lineStart;
  const indent = indentRe.exec(text)![0];
  const parsed = parsedFor(text, languageId);
  const line = lineOf(parsed.starts, offset);
  const prev = parsed.suppressions.find((s) => (s.kind === 'next-line' || s.kind === 'line') && s.line === line);
  if (prev && prev.ids.length) {
    if (prev.ids.some((x) => x.id === ruleId)) return undefined;
    const end = prev.ids[prev.ids.length - 1].range.end;
    return { range: { start: end, end }, newText: `, ${ruleId}` };
  }
  const lead = style === 'hash' ? '#' : style === 'vtl' ? '##' : '//';
  return { range: { start: lineStart, end: lineStart }, newText: `${indent}${lead} dynalint-disable-next-line ${ruleId}${lineBreakOf(text)}` };
}

/** The edit behind "Disable <id> for this file": a file-level comment on the first line (after a shebang). */
export function disableFileEdit(text: string, languageId: string, ruleId: string): TextEdit | undefined {
  const style = commentStyle(languageId);
  if (style === 'none') return undefined;
  const at = text.startsWith('#!') ? text.indexOf('\n') + 1 || text.length : 0;
  const eol = lineBreakOf(text);
  const newText = style === 'hash' ? `# dynalint-disable ${ruleId}${eol}` : style === 'vtl' ? `## dynalint-disable ${ruleId}${eol}` : `/* dynalint-disable ${ruleId} */${eol}`;
  return { range: { start: at, end: at }, newText };
}
