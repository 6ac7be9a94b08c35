/**
 * Moving extracted sites after an edit. Sites are shifted in place (a document extractor hands back the same site
 * objects for statements the edit did not touch): allocating copies of every site after the edit cost more than the
 * re-parse itself (each copy survives one update, which is the worst case for a generational GC).
 */
import { Range, RequestSite, VNode } from './model';
import { maxOffset, ownCopy, shiftString } from '../core/strings';

// One `move` function for every shift (no closure per site: shifting the sites after an edit in a large document is
// the bulk of an incremental update, and per-site allocations were half of it).
let shiftFrom = 0;
let shiftDiff = 0;
const move = (o: number) => (o >= shiftFrom ? o + shiftDiff : o);
const pending: VNode[] = [];

function shiftRange(r: Range): void {
  if (r.start >= shiftFrom) r.start += shiftDiff;
  if (r.end >= shiftFrom) r.end += shiftDiff;
}

/** Shift in place every document offset `>= from` of a site by `diff`. */
export function shiftSite(s: RequestSite, from: number, diff: number): void {
  shiftFrom = from;
  shiftDiff = diff;
  shiftRange(s.range);
  shiftRange(s.nameRange);
  if (s.forwarded?.from) shiftRange(s.forwarded.from);
  // Sites of one function share its enclosingFunction object: replace, never shift it.
  const fn = s.enclosingFunction;
  if (fn && (fn.range.start >= from || fn.range.end >= from)) s.enclosingFunction = { name: fn.name, range: { start: move(fn.range.start), end: move(fn.range.end) } };
  const stack = pending;
  stack.length = 0;
  stack.push(s.params);
  if (s.receiverTable) stack.push(s.receiverTable);
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') {
      shiftString(v, move);
      continue;
    }
    shiftRange(v.range);
    if (v.kind === 'object')
      for (const p of v.properties) {
        shiftRange(p.keyRange);
        shiftRange(p.range);
        stack.push(p.value);
      }
    else if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
  }
}

/** The largest document offset a set of sites mentions (they may point into constants elsewhere in the file). */
export function maxRef(sites: RequestSite[]): number {
  let m = 0;
  const stack: VNode[] = [];
  for (const s of sites) {
    m = Math.max(m, s.range.end, s.enclosingFunction?.range.end ?? 0);
    stack.push(s.params);
    if (s.receiverTable) stack.push(s.receiverTable);
  }
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') m = Math.max(m, maxOffset(v));
    else if (v.kind === 'object') for (const p of v.properties) stack.push(p.value);
    else if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
  }
  return m;
}

/**
 * Give every string a site (or a unit holding sites) holds (values, keys, names, at any depth) its own memory. A slice of a string is a view
 * of the whole string in V8 (13 characters and more): a site built from a parse of the document (tree-sitter's node
 * text, `text.slice`) would keep that version of the whole document alive for as long as the site is kept, and an
 * incremental extractor keeps the sites of untouched statements across edits. The strings stay equal; no object is
 * replaced.
 */
export function detachStrings(roots: readonly object[]): void {
  const seen = new Set<object>();
  const stack: object[] = [...roots];
  while (stack.length) {
    const o = stack.pop()!;
    if (seen.has(o)) continue;
    seen.add(o);
    const rec = o as Record<string, unknown>;
    // Arrays by index (no key strings for offsets arrays of numbers).
    const keys: (string | number)[] | undefined = Array.isArray(o) ? undefined : Object.keys(rec);
    const n = keys ? keys.length : (o as unknown[]).length;
    for (let i = 0; i < n; i++) {
      const k = keys ? keys[i] : i;
      const v = rec[k];
      if (typeof v === 'string') {
        if (v.length >= 13) rec[k] = ownCopy(v);
      } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) stack.push(v);
    }
  }
}
