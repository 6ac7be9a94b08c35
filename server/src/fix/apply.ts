/**
 * Applying fixes to text: non-overlapping edit sets, and fix-all (every safe fix, re-linting until stable).
 * Pure: no file system, no LSP. The CLI (`lint --fix`) and the language server (`source.fixAll.dynalint`) share it.
 */
import type { Finding, Fix, TextEdit } from '../rules/types';

/** Two edits conflict when their ranges overlap, or both insert at the same point (their order would be ambiguous). */
export function editsConflict(a: TextEdit, b: TextEdit): boolean {
  const aEmpty = a.range.start === a.range.end;
  const bEmpty = b.range.start === b.range.end;
  if (aEmpty && bEmpty) return a.range.start === b.range.start;
  if (aEmpty) return a.range.start > b.range.start && a.range.start < b.range.end;
  if (bEmpty) return b.range.start > a.range.start && b.range.start < a.range.end;
  return a.range.start < b.range.end && b.range.start < a.range.end;
}

function sortEdits(edits: TextEdit[]): TextEdit[] {
  // Insertions at a point go before a replacement starting at the same point.
  return [...edits].sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end);
}

/** Apply edits given in offsets of `text`. Throws when two edits conflict (a bug in the fix that produced them). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = sortEdits(edits);
  let out = '';
  let pos = 0;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    if (i > 0 && editsConflict(sorted[i - 1], e)) throw new Error(`conflicting edits at offset ${e.range.start}`);
    if (e.range.start < pos || e.range.end > text.length || e.range.start > e.range.end) throw new Error(`edit out of range at offset ${e.range.start}`);
    out += text.slice(pos, e.range.start) + e.newText;
    pos = e.range.end;
  }
  return out + text.slice(pos);
}

function fixKey(fix: Fix): string {
  return JSON.stringify(sortEdits(fix.edits).map((e) => [e.range.start, e.range.end, e.newText]));
}

/** The fix fix-all would take for a finding: its preferred safe fix, else its first safe fix. */
export function safeFixOf(finding: Finding): Fix | undefined {
  const safe = (finding.fixes ?? []).filter((f) => f.safe && f.edits.length > 0);
  return safe.find((f) => f.preferred) ?? safe[0];
}

export interface FixPass {
  text: string;
  /** Fixes applied, in document order of their findings. */
  applied: { finding: Finding; fix: Fix }[];
  /** Safe fixes left out because they conflicted with one already chosen (a later pass may take them). */
  skipped: number;
}

/** One pass: apply every safe fix that does not conflict with one chosen before it; identical fixes count once. */
export function applySafeFixes(text: string, findings: Finding[]): FixPass {
  const chosen: TextEdit[] = [];
  const seen = new Set<string>();
  const applied: FixPass['applied'] = [];
  let skipped = 0;
  const ordered = [...findings].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  for (const finding of ordered) {
    const fix = safeFixOf(finding);
    if (!fix) continue;
    const key = fixKey(fix);
    if (seen.has(key)) continue;
    const own = sortEdits(fix.edits);
    const selfConflict = own.some((e, i) => i > 0 && editsConflict(own[i - 1], e));
    if (selfConflict || own.some((e) => chosen.some((c) => editsConflict(c, e)))) {
      skipped++;
      continue;
    }
    seen.add(key);
    for (const x of own) chosen.push(x);
    applied.push({ finding, fix });
  }
  return { text: chosen.length ? applyEdits(text, chosen) : text, applied, skipped };
}

export interface FixAllResult {
  text: string;
  /** Number of fixes applied over all passes. */
  fixed: number;
  passes: number;
  /** Findings of the final text (when a re-lint function was given), else undefined. */
  remaining?: Finding[];
}

/**
 * Fix-all: apply every safe fix of `findings`, then (when `relint` is given) lint the new text and apply again,
 * until no safe fix applies, a pass brings back a text seen before (fixes undoing each other), or `maxPasses` is
 * reached. Fixes that conflict in one pass (e.g. two fixes that both add to `ExpressionAttributeNames` of the same
 * request) land in the next, so a request with n distinct reserved words needs n passes: the cap is far above that.
 */
export function fixAll(text: string, findings: Finding[], relint?: (text: string) => Finding[], maxPasses = 100): FixAllResult {
  let current = text;
  let currentFindings = findings;
  let fixed = 0;
  let passes = 0;
  // Texts already produced, by hash (a repeat means fixes undo each other; a hash collision only stops early).
  const seen = new Set<string>([textHash(text)]);
  while (passes < maxPasses) {
    const pass = applySafeFixes(current, currentFindings);
    const hash = textHash(pass.text);
    if (pass.applied.length === 0 || seen.has(hash)) break;
    seen.add(hash);
    passes++;
    fixed += pass.applied.length;
    current = pass.text;
    if (!relint) return { text: current, fixed, passes };
    currentFindings = relint(current);
  }
  return { text: current, fixed, passes, remaining: relint ? currentFindings : undefined };
}

/** FNV-1a over the UTF-16 code units, with the length: enough to notice a text coming back. */
function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${h >>> 0}`;
}

/** The smallest single edit turning `before` into `after` (common prefix and suffix kept): for one-edit fix-all. */
export function minimalEdit(before: string, after: string): TextEdit {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before.charCodeAt(endB - 1) === after.charCodeAt(endA - 1)) {
    endB--;
    endA--;
  }
  return { range: { start, end: endB }, newText: after.slice(start, endA) };
}
