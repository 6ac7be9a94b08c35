/**
 * Moving extracted sites after an edit. Sites are shifted in place (a document extractor hands back the same site
 * objects for statements the edit did not touch): allocating copies of every site after the edit cost more than the
 * re-parse itself (each copy survives one update, which is the worst case for a generational GC). In a TypeScript
 * document the compact nodes (maps, entries, unknowns, plain strings: most of a site) are not moved here at all: they
 * take the document's recorded moves when read (core/compact.ts `Moves`); `shiftSite` moves the rest of a site (its
 * own ranges, plain `Range` objects, offsets arrays, the enclosing function), `gather` lists only that.
 */
import type { Api, HostLanguage, ObjectNode, Range, RequestSite, StringNode, UnknownNode, ValueStyle, VNode } from './model';
import { cloneString, maxOffset, ownCopy, plainBase, shiftPlains, shiftString, stringParts } from '../core/strings';
import { Entry, FnSpan, Moves, ObjNode, Spanned, UnkNode } from '../core/compact';

/**
 * A site whose own ranges (`range`, `nameRange`) are number fields taking its document's moves when read (issue 11,
 * the TypeScript host, session 10), as its compact nodes do (core/compact.ts `Moves`): with those and its enclosing
 * function (`FnSpan`) lazy too, most sites after an edit hold nothing to move in place and the unit holding them is not
 * visited (`shiftSites`). `range` / `nameRange` hand out a fresh `Range` at each read (a caller may keep or change it:
 * the site does not move with it; compare by value, never by identity) and the setters copy one in. Its other fields
 * are plain own properties in the order of the literal it replaces; `toJSON` gives that literal (same keys, same
 * order). A spread copies the own fields, not the ranges: a copy names its `range` and `nameRange` (`forwardCall`,
 * `ownParts`).
 */
export class SiteSpan extends Spanned implements RequestSite {
  api: Api;
  apiSource: 'call' | 'inferred';
  style: ValueStyle;
  host: HostLanguage;
  params: ObjectNode;
  sdk: string;
  declare enclosingFunction?: RequestSite['enclosingFunction'];
  declare receiverTable?: RequestSite['receiverTable'];
  declare branch?: string;
  declare alternative?: RequestSite['alternative'];
  declare forwarded?: RequestSite['forwarded'];
  declare built?: true;
  #ns: number;
  #ne: number;

  constructor(api: Api, apiSource: 'call' | 'inferred', style: ValueStyle, host: HostLanguage, range: Range, nameRange: Range, params: ObjectNode, sdk: string) {
    super(range.start, range.end);
    this.#ns = nameRange.start;
    this.#ne = nameRange.end;
    this.api = api;
    this.apiSource = apiSource;
    this.style = style;
    this.host = host;
    this.params = params;
    this.sdk = sdk;
  }

  get nameRange(): Range {
    if (this.pending) this.catchUp();
    return { start: this.#ns, end: this.#ne };
  }

  set nameRange(r: Range) {
    if (this.pending) this.catchUp();
    this.#ns = r.start;
    this.#ne = r.end;
  }

  protected override move(from: number, diff: number): void {
    if (this.#ns >= from) this.#ns += diff;
    if (this.#ne >= from) this.#ne += diff;
    super.move(from, diff);
  }

  protected override reach(): number {
    return Math.max(this.#ns, this.#ne, super.reach());
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { api: this.api, apiSource: this.apiSource, style: this.style, host: this.host, range: this.range, nameRange: this.nameRange };
    const own = this as unknown as Record<string, unknown>;
    for (const k of Object.keys(this)) if (!(k in out)) out[k] = own[k];
    return out;
  }
}

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
const PARTS = 12;

interface Moved {
  params: ObjectNode;
  receiverTable: StringNode | UnknownNode | undefined;
  forwardedFrom: Range | undefined;
  /** The site's own range objects (undefined for a `SiteSpan`: its ranges are number fields). */
  range: Range | undefined;
  nameRange: Range | undefined;
  /**
   * One list (one header to read per site, the entries side by side): first, for each part k, the index in `items`
   * where part k ends (`PARTS` numbers: no array of its own, which cost ~150 bytes a site); then the parts: the site's
   * own ranges (`range`, `nameRange`, `forwarded.from`), the keys' ranges, the entries', the strings', the objects',
   * the other nodes' (arrays, sets, numbers, unknowns...), the compact entries, maps and unknowns (their ranges are
   * number fields, core/compact.ts), the offsets/ends arrays, the plain strings, the `SiteSpan`s moved in place.
   */
  items: (number | Range | number[] | StringNode | Entry | ObjNode | UnkNode | SiteSpan)[];
}
const moved = new WeakMap<RequestSite, Moved>();

function gather(s: RequestSite): Moved {
  const spanned = s instanceof SiteSpan;
  return { params: s.params, receiverTable: s.receiverTable, forwardedFrom: s.forwarded?.from, range: spanned ? undefined : s.range, nameRange: spanned ? undefined : s.nameRange, items: gatherItems([s]) };
}

/** What shifting `sites` moves in place, as `Moved.items` (see there): one list for all of them. */
function gatherItems(sites: readonly RequestSite[]): Moved['items'] {
  const own: Range[] = [];
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
  const spans: SiteSpan[] = [];
  const stack: VNode[] = [];
  for (const s of sites) {
    // A site whose own ranges are number fields takes its document's moves when read (or is moved by `shift`).
    if (s instanceof SiteSpan) {
      if (!s.lazy) spans.push(s);
    } else {
      own.push(s.range, s.nameRange);
    }
    const forwardedFrom = s.forwarded?.from;
    if (forwardedFrom) own.push(forwardedFrom);
    stack.push(s.params);
    if (s.receiverTable) stack.push(s.receiverTable);
  }
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
  const parts = [own, keys, entries, strs, objects, leaves, compactEntries, compactObjects, compactUnknowns, arrays, plains, spans];
  const ends: number[] = [];
  let at = PARTS;
  for (const part of parts) ends.push((at += part.length));
  // concat: exactly as long as needed (pushing would leave up to a third of spare capacity, kept with the site).
  return (ends as Moved['items']).concat(...parts);
}

function movedOf(s: RequestSite): Moved {
  const m = moved.get(s);
  if (m && m.params === s.params && m.receiverTable === s.receiverTable && m.forwardedFrom === s.forwarded?.from && (m.range === undefined ? s instanceof SiteSpan : m.range === s.range && m.nameRange === s.nameRange)) return m;
  const fresh = gather(s);
  moved.set(s, fresh);
  return fresh;
}

/** Whether an enclosing function takes its document's moves when read (never replaced by a shift). */
function lazyFn(fn: NonNullable<RequestSite['enclosingFunction']>): boolean {
  return fn instanceof FnSpan && fn.lazy;
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
  if (fn && !lazyFn(fn) && (fn.range.start >= from || fn.range.end >= from)) s.enclosingFunction = movedFunction(fn, from, diff);
}

/**
 * What `shiftSites` moves for one sites array: the items of all its sites in one list (`gatherItems`) and the sites
 * whose enclosing function is replaced by a shift (a plain one; a `FnSpan` takes the document's moves). Empty for most
 * units of a TypeScript document: their sites are then not visited at all.
 */
interface UnitMoved {
  items: Moved['items'];
  fnSites: RequestSite[];
}
const unitMoved = new WeakMap<readonly RequestSite[], UnitMoved>();

/**
 * Shift in place every document offset `>= from` of the sites of one sites array (a unit's: `TsDocument.moveUnits`) by
 * `diff`, as `shiftSite` on each. What it moves is gathered once per array, not per site, and not checked again: valid
 * while the array and its sites' `params`, `receiverTable`, `forwarded`, `range` and `nameRange` objects stay those
 * it was gathered from — a unit's sites array is built whole and replaced, never changed, and nothing assigns those
 * fields of a site once its extractor handed it out (a re-extracted statement gets new site objects). Only the
 * enclosing function is replaced (here and by `shiftSite`), read at each shift.
 */
export function shiftSites(sites: readonly RequestSite[], from: number, diff: number): void {
  let m = unitMoved.get(sites);
  if (!m) {
    const fnSites: RequestSite[] = [];
    for (const s of sites) if (s.enclosingFunction && !lazyFn(s.enclosingFunction)) fnSites.push(s);
    m = { items: gatherItems(sites), fnSites };
    unitMoved.set(sites, m);
  }
  if (m.items.length > PARTS) shiftItems(m.items, from, diff);
  for (const s of m.fnSites) {
    const fn = s.enclosingFunction!;
    if (fn.range.start >= from || fn.range.end >= from) s.enclosingFunction = movedFunction(fn, from, diff);
  }
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
  for (i = items[10] as number; i < (items[11] as number); i++) {
    (items[i] as SiteSpan).shift(from, diff);
  }
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
  for (const s of sites) if (s.enclosingFunction instanceof FnSpan && s.enclosingFunction.lazy) logs.add(s.enclosingFunction.moves);
  for (const m of logs) m.record(from, diff);
  for (const s of sites) shiftSite(s, from, diff);
}

/**
 * Sites their document let go (a re-extracted statement's, a deferred candidate's of the last lint): their compact
 * nodes and own ranges take the moves recorded so far and none after (core/compact.ts `Moves`), as sites no longer
 * moved in place. An enclosing function taking its document's moves (`FnSpan`) may be shared with sites still in use:
 * it is not frozen, the site gets a plain copy of it as it is now.
 */
export function freezeSites(sites: readonly RequestSite[]): void {
  forCompactNodes(sites, (n) => n.freeze());
  for (const s of sites) {
    const fn = s.enclosingFunction;
    if (fn && lazyFn(fn)) s.enclosingFunction = { name: fn.name, range: fn.range };
  }
}

/**
 * Every compact node (map, entry, unknown, plain string) of the sites' values and receiver tables, and the sites and
 * enclosing functions whose ranges are number fields (`SiteSpan`, `FnSpan`; one shared by several sites is visited once
 * per site).
 */
function forCompactNodes(sites: readonly RequestSite[], visit: (n: Spanned) => void): void {
  const stack: VNode[] = [];
  for (const s of sites) {
    if (s instanceof SiteSpan) visit(s);
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
