/**
 * Moving extracted sites after an edit. Sites are shifted in place (a document extractor hands back the same site
 * objects for statements the edit did not touch): allocating copies of every site after the edit cost more than the
 * re-parse itself (each copy survives one update, which is the worst case for a generational GC). In a TypeScript
 * document the compact nodes (maps, entries, unknowns, plain strings: most of a site) are not moved here at all: they
 * take the document's recorded moves when read (core/compact.ts `Moves`); `shiftSite` moves the rest of a site (its
 * own ranges, plain `Range` objects, offsets arrays, the enclosing function), `gather` lists only that.
 */
import { ObjectNode, Range, RequestSite, StringNode, UnknownNode, VNode } from './model';
import { cloneString, maxOffset, ownCopy, plainBase, shiftPlains, shiftString, stringParts } from '../core/strings';
import { Entry, Moves, ObjNode, Spanned, UnkNode } from '../core/compact';

/**
 * What shifting a site moves, gathered on its first shift: every Range object, offsets/ends array and plain string
 * (`stringParts`) its walk reaches, so later shifts are flat loops instead of a walk of the tree (the sites after an
 * edit are most of a document's sites, shifted at every edit). Valid while the site's tree is the one it was gathered
 * from: extractors build a site's tree before handing it out and nothing changes it afterwards (a re-extracted
 * statement gets new site objects); the top-level references are checked at each shift all the same. No two sites
 * share a Range or node (a copy of a site takes `ownParts`; tests in incremental.test.ts, hosts/robustness.test.ts and
 * remap.test.ts, over real-world fixtures with alternatives); were one reached twice, it would be listed twice, so
 * moved twice as a walk would move it (test/unit/extract/remap.test.ts: any sequence of shifts
 * equals moving every offset of the sites' JSON).
 *
 * The ranges are listed by the slot they sit in, each part moved by a loop of its own: Range objects of one kind of
 * slot share a hidden class and those of different slots mostly do not (8 among the sites of the bench's TS file),
 * and one loop over all of them was megamorphic, 6x slower. Measured on the 5,000-line shapes file, the ~410 sites
 * after an edit in its middle (~13,000 ranges): 0.50 -> 0.09 ms a shift when warm, 1.1-1.3 -> 0.5-0.6 ms right after
 * a burst of allocation (as between keystrokes: then it is the memory, one Range object a cache line, not the code).
 * Cost: ~4 MB kept for the 9,100 sites of a 50,000-line file, once every site was shifted.
 */
/**
 * The parts of a site a copy of it (a data-flow alternative, a helper's request seen at a call) must own: shifting
 * moves an object once per site holding it, so a receiver table or `forwarded.from` shared by two sites moved twice.
 */
export function ownParts(s: RequestSite): Pick<RequestSite, 'range' | 'nameRange' | 'receiverTable' | 'forwarded'> {
  const out: Pick<RequestSite, 'range' | 'nameRange' | 'receiverTable' | 'forwarded'> = { range: { ...s.range }, nameRange: { ...s.nameRange } };
  if (s.receiverTable) out.receiverTable = ownReceiver(s.receiverTable);
  if (s.forwarded) out.forwarded = { ...s.forwarded, ...(s.forwarded.from ? { from: { ...s.forwarded.from } } : {}) };
  return out;
}

/** A copy of a receiver table (a string, or an unknown with its text) that owns its ranges. */
export function ownReceiver(r: StringNode | UnknownNode): StringNode | UnknownNode {
  if (r.kind === 'string') return cloneString(r);
  return r instanceof UnkNode ? new UnkNode(r.text, r.type, r.s, r.e) : { ...r, range: { ...r.range } };
}

/** The parts of `Moved.items`, in order (see there). */
const PARTS = 11;

interface Moved {
  params: ObjectNode;
  receiverTable: StringNode | UnknownNode | undefined;
  forwardedFrom: Range | undefined;
  range: Range;
  nameRange: Range;
  /**
   * One list (one header to read per site, the entries side by side): first, for each part k, the index in `items`
   * where part k ends (`PARTS` numbers: no array of its own, which cost ~150 bytes a site); then the parts: the site's
   * own ranges (`range`, `nameRange`, `forwarded.from`), the keys' ranges, the entries', the strings', the objects',
   * the other nodes' (arrays, sets, numbers, unknowns...), the compact entries, maps and unknowns (their ranges are
   * number fields, core/compact.ts), the offsets/ends arrays, the plain strings.
   */
  items: (number | Range | number[] | StringNode | Entry | ObjNode | UnkNode)[];
}
const moved = new WeakMap<RequestSite, Moved>();

function gather(s: RequestSite): Moved {
  const forwardedFrom = s.forwarded?.from;
  const keys: Range[] = [];
  const entries: Range[] = [];
  const strs: Range[] = [];
  const objects: Range[] = [];
  const leaves: Range[] = [];
  const compactEntries: Entry[] = [];
  const compactObjects: ObjNode[] = [];
  const compactUnknowns: UnkNode[] = [];
  const arrays: number[][] = [];
  const plains: StringNode[] = [];
  const stack: VNode[] = [s.params];
  if (s.receiverTable) stack.push(s.receiverTable);
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') stringParts(v, strs, arrays, plains);
    else if (v.kind === 'object') {
      // Compact nodes that take their document's moves when read (core/compact.ts `Moves`) are not listed.
      if (v instanceof ObjNode) {
        if (!v.lazy) compactObjects.push(v);
      } else objects.push(v.range);
      for (const p of v.properties) {
        if (p instanceof Entry) {
          if (!p.lazy) compactEntries.push(p);
        } else {
          keys.push(p.keyRange);
          entries.push(p.range);
        }
        stack.push(p.value);
      }
    } else if (v instanceof UnkNode) {
      if (!v.lazy) compactUnknowns.push(v);
    } else {
      leaves.push(v.range);
      if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
    }
  }
  const own: Range[] = forwardedFrom ? [s.range, s.nameRange, forwardedFrom] : [s.range, s.nameRange];
  const parts = [own, keys, entries, strs, objects, leaves, compactEntries, compactObjects, compactUnknowns, arrays, plains];
  const ends: number[] = [];
  let at = PARTS;
  for (const part of parts) ends.push((at += part.length));
  // concat: exactly as long as needed (pushing would leave up to a third of spare capacity, kept with the site).
  const items = (ends as Moved['items']).concat(...parts);
  return { params: s.params, receiverTable: s.receiverTable, forwardedFrom, range: s.range, nameRange: s.nameRange, items };
}

function movedOf(s: RequestSite): Moved {
  const m = moved.get(s);
  if (m && m.params === s.params && m.receiverTable === s.receiverTable && m.forwardedFrom === s.forwarded?.from && m.range === s.range && m.nameRange === s.nameRange) return m;
  const fresh = gather(s);
  moved.set(s, fresh);
  return fresh;
}

/**
 * Shift in place every document offset `>= from` of a site by `diff`. The reads of the site's own fields (`movedOf`,
 * `enclosingFunction`) are kept here, out of the loops (`shiftItems`, ~1,000 bytes of bytecode, too large to be inlined
 * here): sites come in several hidden classes, and a new one deoptimized the function holding those reads. When that
 * was the loops too, V8 threw their optimized code away and compiled it again on a worker, 40-100 ms each time, 10-11
 * times over 3 passes of the bench's shapes in one server (~1.2 s of compilation); now shiftItems is compiled 3 times and
 * what deoptimizes is small (server CPU per edit, main thread and V8's workers, 4 A/B runs: 9.9-10.2 -> 8.7-9.4 ms).
 */
export function shiftSite(s: RequestSite, from: number, diff: number): void {
  shiftItems(movedOf(s).items, from, diff);
  // Sites of one function share its enclosingFunction object: replace, never shift it (one replacement per object).
  const fn = s.enclosingFunction;
  if (fn && (fn.range.start >= from || fn.range.end >= from)) s.enclosingFunction = movedFunction(fn, from, diff);
}

/** Move the offsets `movedOf` listed (see `shiftSite`). */
function shiftItems(items: Moved['items'], from: number, diff: number): void {
  // One loop per part, written out: a shared function would share its inline caches (see Moved).
  let i = PARTS;
  for (let n = items[0] as number; i < n; i++) {
    const r = items[i] as Range;
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  }
  for (let n = items[1] as number; i < n; i++) {
    const r = items[i] as Range;
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  }
  for (let n = items[2] as number; i < n; i++) {
    const r = items[i] as Range;
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  }
  for (let n = items[3] as number; i < n; i++) {
    const r = items[i] as Range;
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  }
  for (let n = items[4] as number; i < n; i++) {
    const r = items[i] as Range;
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  }
  for (let n = items[5] as number; i < n; i++) {
    const r = items[i] as Range;
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  }
  for (let n = items[6] as number; i < n; i++) {
    (items[i] as Entry).shift(from, diff);
  }
  for (let n = items[7] as number; i < n; i++) {
    (items[i] as ObjNode).shift(from, diff);
  }
  for (let n = items[8] as number; i < n; i++) {
    (items[i] as UnkNode).shift(from, diff);
  }
  for (let n = items[9] as number; i < n; i++) {
    const a = items[i] as number[];
    for (let j = 0; j < a.length; j++) if (a[j] >= from) a[j] += diff;
  }
  shiftPlains(items, i, items[10] as number, from, diff);
}

/**
 * Move sites as an extractor moves what an edit left in place (tests, one-off callers): the move recorded once in the
 * moves of each document their lazy compact nodes take (core/compact.ts `Moves`: every such node of that document
 * takes it), the rest of each site shifted in place (`shiftSite`).
 */
export function moveSites(sites: readonly RequestSite[], from: number, diff: number): void {
  const logs = new Set<Moves>();
  forCompactNodes(sites, (n) => {
    if (n.lazy) logs.add(n.moves);
  });
  for (const m of logs) m.record(from, diff);
  for (const s of sites) shiftSite(s, from, diff);
}

/**
 * Sites their document let go (a re-extracted statement's, a deferred candidate's of the last lint): their compact
 * nodes take the moves recorded so far and none after (core/compact.ts `Moves`), as sites no longer moved in place.
 */
export function freezeSites(sites: readonly RequestSite[]): void {
  forCompactNodes(sites, (n) => n.freeze());
}

/** Every compact node (map, entry, unknown, plain string) of the sites' values and receiver tables. */
function forCompactNodes(sites: readonly RequestSite[], visit: (n: Spanned) => void): void {
  const stack: VNode[] = [];
  for (const s of sites) {
    stack.push(s.params);
    if (s.receiverTable) stack.push(s.receiverTable);
  }
  while (stack.length) {
    const v = stack.pop()!;
    if (v instanceof Spanned) visit(v);
    if (v.kind === 'object')
      for (const p of v.properties) {
        if (p instanceof Entry) visit(p);
        stack.push(p.value);
      }
    else if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
  }
}

type EnclosingFunction = NonNullable<RequestSite['enclosingFunction']>;
/** The replacements made for the last shift's `from` / `diff` (see `movedFunction`). */
const fnMemo: { from: number; diff: number; map: Map<EnclosingFunction, EnclosingFunction> } = { from: NaN, diff: NaN, map: new Map() };

/**
 * An enclosing function moved by a shift: a new object (they are never changed), the same one for every site of that
 * function in a run of shifts by the same `from` / `diff` (what it gives depends on those and the object alone). A
 * copy per site was ~30 KB an edit on the 5,000-line TS shapes file, each living exactly one edit.
 */
function movedFunction(fn: EnclosingFunction, from: number, diff: number): EnclosingFunction {
  if (fnMemo.from !== from || fnMemo.diff !== diff) {
    fnMemo.from = from;
    fnMemo.diff = diff;
    fnMemo.map.clear();
  }
  let r = fnMemo.map.get(fn);
  if (!r) {
    r = { name: fn.name, range: { start: fn.range.start >= from ? fn.range.start + diff : fn.range.start, end: fn.range.end >= from ? fn.range.end + diff : fn.range.end } };
    fnMemo.map.set(fn, r);
  }
  return r;
}

/** Shift in place every document offset `>= from` of a value tree by `diff`, once (nothing is kept for a next shift). */
export function shiftTree(root: VNode, from: number, diff: number): void {
  const move = (o: number) => (o >= from ? o + diff : o);
  const stack: VNode[] = [root];
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') {
      shiftString(v, move);
      continue;
    }
    if (v instanceof ObjNode || v instanceof UnkNode) {
      v.s = move(v.s);
      v.e = move(v.e);
    } else {
      v.range.start = move(v.range.start);
      v.range.end = move(v.range.end);
    }
    if (v.kind === 'object')
      for (const p of v.properties) {
        if (p instanceof Entry) {
          p.ks = move(p.ks);
          p.ke = move(p.ke);
          p.s = move(p.s);
          p.e = move(p.e);
        } else {
          p.keyRange.start = move(p.keyRange.start);
          p.keyRange.end = move(p.keyRange.end);
          p.range.start = move(p.range.start);
          p.range.end = move(p.range.end);
        }
        stack.push(p.value);
      }
    else if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
  }
}

/**
 * The largest document offset a set of sites mentions (they may point into constants elsewhere in the file): every
 * offset `shiftSite` would move, over the same walk as `gather` (the site's own ranges, keys' and entries' ranges,
 * objects', unknowns', numbers', arrays' and sets' ranges, strings' ranges, offsets and ends, plain strings) and the
 * enclosing function. A unit's sites are shifted only when this is `>= from` (moveUnits): one it missed (a property's
 * key, an object or unknown value read from a statement further down) was never moved. Ranges end after they start,
 * so their ends are enough. Not from `movedOf`: that would gather (and keep) the lists for sites never shifted.
 */
export function maxRef(sites: RequestSite[]): number {
  let m = 0;
  const stack: VNode[] = [];
  for (const s of sites) {
    m = Math.max(m, s.range.end, s.nameRange.end, s.forwarded?.from?.end ?? 0, s.enclosingFunction?.range.end ?? 0);
    stack.push(s.params);
    if (s.receiverTable) stack.push(s.receiverTable);
  }
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') {
      const base = plainBase(v);
      m = Math.max(m, maxOffset(v), base ?? 0);
      if (base === undefined && v.ends) for (const o of v.ends) if (o > m) m = o;
      continue;
    }
    m = Math.max(m, v instanceof ObjNode || v instanceof UnkNode ? v.e : v.range.end);
    if (v.kind === 'object')
      for (const p of v.properties) {
        m = Math.max(m, p instanceof Entry ? Math.max(p.ke, p.e) : Math.max(p.keyRange.end, p.range.end));
        stack.push(p.value);
      }
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
