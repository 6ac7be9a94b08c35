/**
 * Moving extracted sites after an edit. Sites are shifted in place (a document extractor hands back the same site
 * objects for statements the edit did not touch): allocating copies of every site after the edit cost more than the
 * re-parse itself (each copy survives one update, which is the worst case for a generational GC).
 */
import { Range, RequestSite, VNode } from './model';
import { maxOffset, shiftString } from './strings';

/** Shift in place every document offset `>= from` of a site by `diff`. */
export function shiftSite(s: RequestSite, from: number, diff: number): void {
  const move = (o: number) => (o >= from ? o + diff : o);
  const shift = (r: Range) => {
    r.start = move(r.start);
    r.end = move(r.end);
  };
  shift(s.range);
  shift(s.nameRange);
  // Sites of one function share its enclosingFunction object: replace, never shift it.
  if (s.enclosingFunction) s.enclosingFunction = { name: s.enclosingFunction.name, range: { start: move(s.enclosingFunction.range.start), end: move(s.enclosingFunction.range.end) } };
  const stack: VNode[] = [s.params];
  if (s.receiverTable) stack.push(s.receiverTable);
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') {
      shiftString(v, move);
      continue;
    }
    shift(v.range);
    if (v.kind === 'object')
      for (const p of v.properties) {
        shift(p.keyRange);
        shift(p.range);
        stack.push(p.value);
      }
    else if (v.kind === 'array' || v.kind === 'set') stack.push(...v.items);
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
    else if (v.kind === 'array' || v.kind === 'set') stack.push(...v.items);
  }
  return m;
}
