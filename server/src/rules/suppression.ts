/**
 * Suppression comments:
 *   // dynalint-disable-next-line <id>[, <id>]      (TS/JS/JSONC; `#` in Python)
 *   /* dynalint-disable <id>[, <id>] *\/            whole file; no ids = every rule (`# dynalint-disable ...` in Python)
 * Plain JSON has no comments, so nothing is suppressible there. Suppressions that suppress nothing are reported.
 */
import type { Range, RequestSite, VNode } from '../extract/model';
import type { Finding, TextEdit } from './types';

export const UNUSED_SUPPRESSION = 'unused-suppression';

export interface Suppression {
  kind: 'next-line' | 'file';
  /** Rule ids with their ranges in the comment; empty = all rules. */
  ids: { id: string; range: Range }[];
  /** The whole comment. */
  range: Range;
  /** The line (0-based) a next-line suppression applies to. */
  line: number;
}

type CommentStyle = 'slash' | 'hash' | 'none';

export function commentStyle(languageId: string): CommentStyle {
  if (languageId === 'python') return 'hash';
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

const DIRECTIVE = /dynalint-disable(-next-line)?(?![\w-])([^\n]*)/g;

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

/** Find suppression comments. */
export function parseSuppressions(text: string, languageId: string): Suppression[] {
  const style = commentStyle(languageId);
  if (style === 'none' || !text.includes('dynalint-disable')) return [];
  const starts = lineStarts(text);
  const out: Suppression[] = [];
  for (const m of text.matchAll(DIRECTIVE)) {
    const at = m.index!;
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    const before = text.slice(lineStart, at);
    let commentStart: number;
    let body = m[2];
    if (style === 'hash') {
      const hm = /#\s*$/.exec(before);
      if (!hm) continue;
      commentStart = lineStart + hm.index;
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
    const bodyStart = at + m[0].length - m[2].length;
    const ids: Suppression['ids'] = [];
    // Ids are separated by commas or spaces; `--` starts a free-text reason, as in ESLint.
    const reason = body.indexOf('--');
    const list = reason >= 0 ? body.slice(0, reason) : body;
    for (const im of list.matchAll(/[A-Za-z0-9][\w-]*/g)) ids.push({ id: im[0], range: { start: bodyStart + im.index!, end: bodyStart + im.index! + im[0].length } });
    const endOfComment = bodyStart + body.length + (text.startsWith('*/', bodyStart + body.length) ? 2 : 0);
    const kind = m[1] ? 'next-line' : 'file';
    out.push({ kind, ids, range: { start: commentStart, end: endOfComment }, line: lineOf(starts, at) + 1 });
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
): { kept: Finding[]; unused: Omit<Finding, 'severity'>[] } {
  const sups = parseSuppressions(text, languageId);
  if (!sups.length) return { kept: findings, unused: [] };
  const starts = lineStarts(text);
  const used = new Set<string>();
  const mark = (s: Suppression, i: number | 'all') => used.add(`${s.range.start}:${i}`);
  const kept = findings.filter((f) => {
    const line = lineOf(starts, f.range.start);
    const anchorLine = lineOf(starts, suppressionAnchor(sites, f.range.start));
    let suppressed = false;
    for (const s of sups) {
      if (s.kind === 'next-line' && s.line !== line && s.line !== anchorLine) continue;
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
    const what = s.kind === 'file' ? 'in this file' : 'on the next line';
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

/**
 * The edit behind "Disable <id> for this line": adds the id to a `dynalint-disable-next-line` comment on the line
 * above, or inserts one with the line's indentation. Undefined for plain JSON (no comments). Pass the document's
 * sites so a finding inside a multi-line string gets its comment above the string, not inside it.
 */
export function disableNextLineEdit(text: string, languageId: string, offset: number, ruleId: string, sites: readonly RequestSite[] = []): TextEdit | undefined {
  const style = commentStyle(languageId);
  if (style === 'none') return undefined;
  offset = suppressionAnchor(sites, offset);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const prev = lineStart > 0 ? parseSuppressions(text, languageId).find((s) => s.kind === 'next-line' && s.line === lineOf(lineStarts(text), offset)) : undefined;
  if (prev && prev.ids.length) {
    if (prev.ids.some((x) => x.id === ruleId)) return undefined;
    const end = prev.ids[prev.ids.length - 1].range.end;
    return { range: { start: end, end }, newText: `, ${ruleId}` };
  }
  const lead = style === 'hash' ? '#' : '//';
  return { range: { start: lineStart, end: lineStart }, newText: `${indent}${lead} dynalint-disable-next-line ${ruleId}\n` };
}

/** The edit behind "Disable <id> for this file": a file-level comment on the first line (after a shebang). */
export function disableFileEdit(text: string, languageId: string, ruleId: string): TextEdit | undefined {
  const style = commentStyle(languageId);
  if (style === 'none') return undefined;
  const at = text.startsWith('#!') ? text.indexOf('\n') + 1 || text.length : 0;
  const newText = style === 'hash' ? `# dynalint-disable ${ruleId}\n` : `/* dynalint-disable ${ruleId} */\n`;
  return { range: { start: at, end: at }, newText };
}
