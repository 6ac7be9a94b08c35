/**
 * Source shared by several requests: a resolved constant (an expression string, a names/values object) lies outside
 * the requests that use it, so one edit to it changes all of them. The index maps such source back to the requests
 * using it, so a fix editing it can update each of them (reserved-word placeholders) or be withheld (run.ts).
 */
import { Range, RequestSite, StringNode, VNode, prop } from '../extract/model';
import type { Operation } from '../extract/operations';
import { plainBase } from '../core/strings';
import { operations } from './analysis';
import type { Fix, TextEdit } from './types';

export interface SharedSource {
  /** Requests (other than `op`'s own) that use source `op` resolves from outside itself. */
  sharers(op: Operation): Operation[];
  /** Every request using, from outside itself, source the range overlaps (in no particular order). */
  usersOf(range: Range): Operation[];
}

const within = (r: Range, e: Range) => e.start >= r.start && e.end <= r.end;

/** The document ranges of an operation's own request: its action object, and the whole call for a single action. */
export function insideOperation(op: Operation, r: Range): boolean {
  return within(op.params.range, r) || (op.params === op.site.params && within(op.site.range, r));
}

const sameRequest = (a: Operation, b: Operation) => a.params === b.params || (a.params.range.start === b.params.range.start && a.params.range.end === b.params.range.end && a.site.range.start === b.site.range.start);

/** A node an operation resolves from outside its own request (a constant, or a string with a constant piece). */
interface Outside {
  op: Operation;
  node: VNode;
}

const outsideCache = new WeakMap<RequestSite, Outside[]>();

/**
 * The nodes of a site's operations that lie outside them. Memoized per site object: which nodes are outside does not
 * change when a document extractor shifts an untouched site's offsets (the constant and the request move together or
 * not at all relative to each other's statements).
 */
function outsideOf(site: RequestSite): Outside[] {
  let out = outsideCache.get(site);
  if (out) return out;
  out = [];
  for (const op of operations(site)) {
    const stack: VNode[] = [op.params];
    while (stack.length) {
      const v = stack.pop() as VNode;
      if (v.kind === 'string') {
        // A single literal lies within its range; only one resolved from elsewhere or joined from pieces is looked into.
        if ((v.ends || !insideOperation(op, v.range)) && outsideChars(op, v).length) out.push({ op, node: v });
        continue;
      }
      if (v !== op.params && !insideOperation(op, v.range)) {
        out.push({ op, node: v });
        continue;
      }
      if (v.kind === 'object') for (const p of v.properties) stack.push(p.value);
      else if (v.kind === 'array' || v.kind === 'set') for (const x of v.items) stack.push(x);
    }
  }
  outsideCache.set(site, out);
  return out;
}

/** Document offsets of the characters of a string that lie outside the operation's request. */
function outsideChars(op: Operation, s: StringNode): number[] {
  const out: number[] = [];
  // A plain string's chars are at base + i: read so, its offsets array is never built (~15,000 were, 1.8 MB).
  const base = plainBase(s);
  const offsets = base === undefined ? s.offsets : undefined;
  for (let i = 0; i < s.value.length; i++) {
    const at = offsets ? offsets[i] : base! + i;
    if (!insideOperation(op, { start: at, end: at })) out.push(at);
  }
  return out;
}

class Index implements SharedSource {
  /** Document offset of a string character -> the requests resolving it from outside. */
  private readonly chars = new Map<number, Operation[]>();
  /** Non-string nodes (objects, arrays...) resolved from outside a request. */
  private readonly nodes: { range: Range; op: Operation }[] = [];
  /** Per request: the outside offsets and node ranges it resolves. */
  private readonly own = new Map<Operation, Range[]>();

  constructor(sites: readonly RequestSite[]) {
    for (const o of sites.flatMap(outsideOf)) {
      const mine = this.own.get(o.op) ?? [];
      this.own.set(o.op, mine);
      if (o.node.kind !== 'string') {
        this.nodes.push({ range: o.node.range, op: o.op });
        mine.push(o.node.range);
        continue;
      }
      for (const at of outsideChars(o.op, o.node)) {
        const list = this.chars.get(at);
        // One op's outside nodes come one after another (sites.flatMap(outsideOf)): a repeat is the last entry.
        if (!list) this.chars.set(at, [o.op]);
        else if (list[list.length - 1] !== o.op) list.push(o.op);
        mine.push({ start: at, end: at + 1 });
      }
    }
  }

  private readonly users = new Map<string, Operation[]>();

  usersOf(range: Range): Operation[] {
    const key = `${range.start}:${range.end}`;
    let hit = this.users.get(key);
    if (!hit) this.users.set(key, (hit = this.collectUsers(range)));
    return hit;
  }

  private collectUsers(range: Range): Operation[] {
    const out = new Set<Operation>();
    const end = Math.max(range.end, range.start + 1);
    if (this.chars.size) for (let at = range.start; at < end; at++) for (const op of this.chars.get(at) ?? []) out.add(op);
    for (const n of this.nodes) if (range.start < n.range.end && n.range.start < end) out.add(n.op);
    return [...out];
  }

  /** The requests of `own` by params object and by request position (`sameRequest`'s two cases), and their order. */
  private requests?: { byParams: Map<VNode, Operation[]>; byKey: Map<string, Operation[]>; order: Map<Operation, number> };

  sharers(op: Operation): Operation[] {
    return this.answer(op).users;
  }

  answer(op: Operation): SharersAnswer {
    // The requests `sameRequest` as `op`, looked up (not compared with every request: sharers is asked per site), in
    // `own`'s order.
    if (!this.requests) {
      const r = { byParams: new Map<VNode, Operation[]>(), byKey: new Map<string, Operation[]>(), order: new Map<Operation, number>() };
      for (const o of this.own.keys()) {
        r.order.set(o, r.order.size);
        const p = r.byParams.get(o.params);
        if (p) p.push(o);
        else r.byParams.set(o.params, [o]);
        const k = requestKey(o);
        const q = r.byKey.get(k);
        if (q) q.push(o);
        else r.byKey.set(k, [o]);
      }
      this.requests = r;
    }
    const { byParams, byKey, order } = this.requests;
    const same = [...new Set([...(byParams.get(op.params) ?? []), ...(byKey.get(requestKey(op)) ?? [])])].sort((a, b) => order.get(a)! - order.get(b)!);
    const out = new Set<Operation>();
    for (const o of same) for (const r of this.own.get(o)!) for (const u of this.usersOf(r)) out.add(u);
    return { op, same, users: [...out].filter((o) => !sameRequest(o, op)) };
  }
}

/** Where a request is (`sameRequest`'s second case): its params' range and its site's start. */
const requestKey = (o: Operation) => `${o.params.range.start}:${o.params.range.end}:${o.site.range.start}`;

/**
 * `usersOf` by a scan of the sites' outside nodes (a fix's consistency check asks it once or twice per lint: building
 * the per-character index for that cost more than the rest of an incremental lint), `sharers` through the index,
 * built on first use.
 */
class Lazy implements SharedSource {
  private index?: Index;
  private readonly users = new Map<string, Operation[]>();

  constructor(private readonly sites: readonly RequestSite[]) {}

  sharers(op: Operation): Operation[] {
    return (this.index ??= new Index(this.sites)).sharers(op);
  }

  usersOf(range: Range): Operation[] {
    if (this.index) return this.index.usersOf(range);
    const key = `${range.start}:${range.end}`;
    let hit = this.users.get(key);
    if (!hit) this.users.set(key, (hit = scanUsers(range, this.sites)));
    return hit;
  }
}

/** The users of a range among some sites, by a scan of their outside nodes (the same answer as `Index.usersOf`). */
function scanUsers(range: Range, sites: readonly RequestSite[]): Operation[] {
  const out = new Set<Operation>();
  const end = Math.max(range.end, range.start + 1);
  for (const site of sites)
    for (const o of outsideOf(site)) {
      const n = o.node;
      if (n.kind !== 'string') {
        if (range.start < n.range.end && n.range.start < end) out.add(o.op);
        continue;
      }
      // A plain literal's characters lie within its range; a joined one's may be anywhere.
      if (!n.ends && (n.range.end < range.start || n.range.start >= end)) continue;
      if (out.has(o.op)) continue;
      const base = plainBase(n);
      if (base !== undefined) {
        // Chars at base + i: only those inside the range are looked at (no offsets array built).
        for (let at = Math.max(range.start, base), last = Math.min(end, base + n.value.length); at < last; at++)
          if (!insideOperation(o.op, { start: at, end: at })) {
            out.add(o.op);
            break;
          }
        continue;
      }
      const offsets = n.offsets;
      for (let i = 0; i < n.value.length; i++) {
        const at = offsets[i];
        if (at >= range.start && at < end && !insideOperation(o.op, { start: at, end: at })) {
          out.add(o.op);
          break;
        }
      }
    }
  return [...out];
}

const cache = new WeakMap<readonly RequestSite[], SharedSource>();

/** The shared-source index of one document's sites (built once per sites array, on first use). */
export function sharedSource(sites: readonly RequestSite[]): SharedSource {
  let idx = cache.get(sites);
  if (!idx) cache.set(sites, (idx = new Lazy(sites)));
  return idx;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Across lints (the language service's rule cache)                                                                   */

/**
 * A `sharers` answer and what it was read from: the requests `sameRequest` as the asking one (whose outside source was
 * looked up) and the users found. The rule cache keeps it with the findings built from it (rules/incremental.ts) and
 * reuses them while `TrackedSource.still` says a fresh answer would be the same.
 */
export interface SharersAnswer {
  op: Operation;
  same: Operation[];
  users: Operation[];
}

/**
 * Where a node's characters may lie, as half-open spans (a superset, never less): a non-string node or a string
 * without joined pieces within its range (at least one character wide, as `usersOf` reads an empty range), a joined
 * string at its offsets.
 */
function extentsOf(n: VNode, out: [number, number][]): void {
  if (n.kind !== 'string' || !n.ends) {
    out.push([n.range.start, Math.max(n.range.end, n.range.start + 1)]);
    return;
  }
  const offsets = n.offsets;
  let s = -1;
  let e = -1;
  for (let i = 0; i < n.value.length; i++) {
    const at = offsets[i];
    if (at === e) e++;
    else {
      if (s >= 0) out.push([s, e]);
      s = at;
      e = at + 1;
    }
  }
  if (s >= 0) out.push([s, e]);
}

/** Spans sorted and merged, asked whether a node may overlap them. */
class Extents {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(spans: [number, number][]) {
    spans.sort((a, b) => a[0] - b[0]);
    for (const [s, e] of spans) {
      const last = this.ends.length - 1;
      if (last >= 0 && s <= this.ends[last]) this.ends[last] = Math.max(this.ends[last], e);
      else {
        this.starts.push(s);
        this.ends.push(e);
      }
    }
  }

  get empty(): boolean {
    return this.starts.length === 0;
  }

  overlaps(n: VNode): boolean {
    if (this.empty) return false;
    if (n.kind !== 'string' || !n.ends) return this.overlapsSpan(n.range.start, Math.max(n.range.end, n.range.start + 1));
    const spans: [number, number][] = [];
    extentsOf(n, spans);
    return spans.some(([s, e]) => this.overlapsSpan(s, e));
  }

  overlapsSpan(s: number, e: number): boolean {
    if (this.empty) return false;
    // The last merged span starting before e: it (and only it) may reach past s.
    let lo = 0;
    let hi = this.starts.length - 1;
    if (this.starts[0] >= e) return false;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] < e) lo = mid;
      else hi = mid - 1;
    }
    return this.ends[lo] > s;
  }
}

/**
 * One lint's shared source in a document linted again and again (`SharedHistory.begin`): exact, as `sharedSource`,
 * but answers from the previous lint are carried over instead of looked up in an index of every site. What makes a
 * carried answer exact: the document extractor hands back a site only when no edit since touched its statement, with
 * its offsets moved by the edit's length change when it lies after it; the source a site resolves from outside itself
 * (a constant, a dict of its function) lies in an untouched statement too (an edit of a module-level statement
 * re-extracts every statement). So for two sites handed back, whether one's outside nodes overlap source of the
 * other is as it was (both moved alike, or lie on either side of the edit), and a range no edit came near overlaps
 * the same nodes of such sites as before: only the sites new since the last lint (the re-extracted statements') are
 * looked at.
 */
export class TrackedSource implements SharedSource {
  private index?: Index;
  private siteSet?: Set<RequestSite>;
  private freshInfo?: { extents: Extents; starts: Set<number> };
  /** `usersOf` answers of this lint, by offsets (carried to the next one by `SharedHistory`). */
  readonly answers = new Map<string, Operation[]>();
  private readonly asked = new Map<Operation, SharersAnswer>();

  constructor(
    private readonly sites: readonly RequestSite[],
    /** This lint's sites that were not the previous lint's, in order; undefined when there was none to carry from. */
    private readonly prev: readonly RequestSite[] | undefined,
    /** The previous lint's `usersOf` answers, keyed by their ranges moved to this text's offsets. */
    private readonly carried: ReadonlyMap<string, Operation[]>,
    /** `consistent` verdicts of the document's lints, per fix as first built (`fixOrigin`). */
    private readonly verdicts: WeakMap<Fix, Verdict>,
    /**
     * Whether a site is one of this lint's (`sites`) and the previous lint's sites that are not, when the caller can
     * tell without a set of them.
     */
    private readonly presence?: Presence,
  ) {}

  /** A previous answer's users that are still among this lint's sites (the same array when all are). */
  private kept(users: Operation[]): Operation[] {
    const gone = this.presence?.gone;
    if (!gone) return users.every((u) => this.has(u.site)) ? users : users.filter((u) => this.has(u.site));
    // Every user was the previous lint's: it is still one unless its site went (usually a few sites). Looked up per
    // operation of a gone site, not per user (an edit of a user's statement would read all of them, ~230 in the
    // 5,000-line bench file): a user is one of its site's `operations` (memoized per site object, read from them by
    // `outsideOf`), at most once in an answer (its users are distinct), and removing it keeps the others' order.
    let out: Operation[] | undefined;
    for (const site of gone)
      for (const op of operations(site)) {
        const i = (out ?? users).indexOf(op);
        if (i < 0) continue;
        out ??= users.slice();
        out.splice(i, 1);
      }
    return out ?? users;
  }

  private has(site: RequestSite): boolean {
    return this.presence ? this.presence.has(site) : this.now.has(site);
  }

  /**
   * `consistentForSharers` of a fix, reusing the verdict of the fix it was moved from (a finding the rule cache
   * reused) when every `usersOf` answer it read is the same answer object now: the carried answers are handed back as
   * they were exactly when no user changed. The rest it read is the fix's own text and the text under its edits (in
   * the finding's windows: untouched, or the finding would have been computed afresh) and the users' own requests.
   */
  consistent(text: string, fix: Fix): boolean {
    const origin = fixOrigin(fix);
    const memo = this.verdicts.get(origin);
    // A no stays a no while the user it failed for is still one of that edit's (a user handed back is untouched).
    if (memo?.failed) {
      const [i, user] = memo.failed;
      if (this.usersOf(fix.edits[i].range).includes(user)) return false;
    }
    if (memo) {
      // Each answer the same, or (the verdict a yes) the same users but for some that went and the new ones found:
      // only those are asked about.
      let carried = true;
      const now = new Map<number, Operation[]>();
      for (const [i, users] of memo.asked) {
        const current = this.usersOf(fix.edits[i].range);
        if (current === users) now.set(i, []);
        else if (memo.ok && provenance.get(current)?.from === users) now.set(i, provenance.get(current)!.added);
        else {
          carried = false;
          break;
        }
      }
      if (carried) {
        if (memo.asked.every(([i, users]) => this.usersOf(fix.edits[i].range) === users)) return memo.ok;
        return this.decide(text, fix, origin, (i, users) => now.get(i) ?? users);
      }
    }
    return this.decide(text, fix, origin, (_, users) => users);
  }

  /** Ask `consistentWith` about the users `ask` hands it (of each edit's `usersOf` answer) and remember the verdict. */
  private decide(text: string, fix: Fix, origin: Fix, ask: (i: number, users: Operation[]) => Operation[]): boolean {
    const asked: [number, Operation[]][] = [];
    let failed: [number, Operation] | undefined;
    const ok = consistentWith(
      text,
      fix,
      (e, i) => {
        const users = this.usersOf(e.range);
        asked.push([i, users]);
        return ask(i, users);
      },
      (i, u) => (failed = [i, u]),
    );
    this.verdicts.set(origin, { asked, ok, failed });
    return ok;
  }

  get now(): ReadonlySet<RequestSite> {
    return (this.siteSet ??= new Set(this.sites));
  }

  /** The sites not handed back since the previous lint. */
  private get fresh(): readonly RequestSite[] {
    return this.prev ?? this.sites;
  }

  /** Whether to answer from an index of every site: nothing to carry from, or most sites are new. */
  private get whole(): boolean {
    return this.index !== undefined || !this.prev || this.fresh.length * 8 > this.sites.length;
  }

  sharers(op: Operation): Operation[] {
    return this.answer(op).users;
  }

  /** `sharers` with what it was read from (memoized for this lint). */
  answer(op: Operation): SharersAnswer {
    let a = this.asked.get(op);
    if (a) return a;
    if (this.whole) a = (this.index ??= new Index(this.sites)).answer(op);
    else {
      // An index of the sites that may hold a user (their outside source may overlap the asking request's) and of the
      // asking request's own: the same answer as one of every site, in the same order (the sites keep theirs).
      const same = new Set<Operation>();
      const spans: [number, number][] = [];
      for (const site of this.sites)
        for (const o of outsideOf(site))
          if (sameRequest(o.op, op)) {
            same.add(o.op);
            extentsOf(o.node, spans);
          }
      const source = new Extents(spans);
      const some = this.sites.filter((s) => outsideOf(s).some((o) => same.has(o.op) || source.overlaps(o.node)));
      a = new Index(some).answer(op);
    }
    this.asked.set(op, a);
    return a;
  }

  /**
   * Whether `sharers(a.op)` asked now would give `a` again (then it is kept as this lint's answer): the asking
   * request, the requests the same as it and every user are among the sites handed back, and no new site is at the
   * same place or resolves source overlapping theirs.
   */
  still(a: SharersAnswer): boolean {
    if (!this.has(a.op.site) || !a.same.every((s) => this.has(s.site)) || !a.users.every((u) => this.has(u.site))) return false;
    if (this.fresh.length) {
      const info = (this.freshInfo ??= this.freshSource());
      // A new request at the same place (`sameRequest`'s second case) would start its site where one of these does.
      if (info.starts.has(a.op.site.range.start)) return false;
      for (const s of a.same) {
        if (info.starts.has(s.site.range.start)) return false;
        for (const o of outsideOf(s.site)) if (o.op === s && info.extents.overlaps(o.node)) return false;
      }
    }
    this.asked.set(a.op, a);
    return true;
  }

  private freshSource(): { extents: Extents; starts: Set<number> } {
    const spans: [number, number][] = [];
    const starts = new Set<number>();
    for (const site of this.fresh) {
      starts.add(site.range.start);
      for (const o of outsideOf(site)) extentsOf(o.node, spans);
    }
    return { extents: new Extents(spans), starts };
  }

  usersOf(range: Range): Operation[] {
    const key = `${range.start}:${range.end}`;
    let hit = this.answers.get(key);
    if (hit) return hit;
    const prev = this.carried.get(key);
    // The previous users handed back are still users; the new sites' are new objects (no duplicates), looked for only
    // when their outside source may reach the range.
    if (prev) {
      hit = this.kept(prev);
      const info = (this.freshInfo ??= this.freshSource());
      let added: Operation[] = [];
      if (info.extents.overlapsSpan(range.start, Math.max(range.end, range.start + 1))) {
        added = scanUsers(range, this.fresh);
        hit = hit.concat(added);
      }
      if (hit !== prev) {
        // One generation only (the previous answer's own provenance would keep every earlier answer).
        provenance.delete(prev);
        provenance.set(hit, { from: prev, added });
      }
    }
    else if (this.index) hit = this.index.usersOf(range);
    else hit = scanUsers(range, this.sites);
    this.answers.set(key, hit);
    return hit;
  }
}

/**
 * This lint's sites as the caller knows them (the rule cache, from its entries, without a set of every site): whether a
 * site is one of them, and those that were not among the previous lint's (in order).
 */
export interface Presence {
  has(site: RequestSite): boolean;
  fresh: readonly RequestSite[];
  /** The previous lint's sites not among this lint's. */
  gone: readonly RequestSite[];
}

/**
 * The shared-source answers of one document from one lint to the next: the language service's rule cache begins a
 * `TrackedSource` per lint, with the edits since the previous one (`move`: a range's offsets after them, undefined
 * when an edit came within a character of it).
 */
export class SharedHistory {
  private last?: TrackedSource;
  private verdicts = new WeakMap<Fix, Verdict>();

  begin(sites: readonly RequestSite[], move: (start: number, end: number) => Range | undefined, presence?: Presence): TrackedSource {
    const last = this.last;
    const carried = new Map<string, Operation[]>();
    if (last)
      for (const [key, users] of last.answers) {
        const colon = key.indexOf(':');
        const r = move(Number(key.slice(0, colon)), Number(key.slice(colon + 1)));
        if (r) carried.set(`${r.start}:${r.end}`, users);
      }
    let prev: readonly RequestSite[] | undefined;
    if (last && presence) prev = presence.fresh;
    else if (last) {
      const before = last.now;
      prev = sites.filter((s) => !before.has(s));
    }
    return (this.last = new TrackedSource(sites, prev, carried, this.verdicts, last ? presence : undefined));
  }

  /** Forget everything (the document was extracted afresh: no site comes back). */
  clear(): void {
    this.last = undefined;
    this.verdicts = new WeakMap();
  }
}

const PLACEHOLDER = /[#:][A-Za-z0-9_]+/g;

/**
 * A `usersOf` answer carried from the previous lint's (`from`) without some users whose sites went, plus the users
 * found among the new sites (`added`): a verdict that held for every user of `from` needs asking only about `added`.
 */
const provenance = new WeakMap<readonly Operation[], { from: readonly Operation[]; added: Operation[] }>();

/** A fix's consistency verdict and the `usersOf` answers it read (per edit index). */
interface Verdict {
  asked: [number, Operation[]][];
  ok: boolean;
  /** For a no: the edit (index) and the user it failed for. */
  failed?: [number, Operation];
}

/** Fixes moved by the rule cache (rules/incremental.ts) -> the fix as first built. */
const origins = new WeakMap<Fix, Fix>();

/** Record that `copy` is `from` with its offsets moved (the same fix, for `TrackedSource.consistent`). */
export function movedFix(copy: Fix, from: Fix): void {
  origins.set(copy, origins.get(from) ?? from);
}

function fixOrigin(fix: Fix): Fix {
  return origins.get(fix) ?? fix;
}

/** Whether the request defines the placeholder in its ExpressionAttributeNames (`#x`) / ExpressionAttributeValues (`:x`). */
function defines(op: Operation, placeholder: string): boolean {
  const m = prop(op.params, placeholder.startsWith('#') ? 'ExpressionAttributeNames' : 'ExpressionAttributeValues');
  return m?.kind === 'object' && m.properties.some((p) => p.key === placeholder);
}

/**
 * Whether a fix keeps every request that uses source it edits valid: a placeholder the edit introduces into shared
 * source must be defined by each request using it, already or by an edit of the fix inside that request. A fix
 * editing a constant for one request only (a new `#name`/`:value` defined in one map) fails this; removing `((x))`
 * parentheses or merging clauses introduces no placeholder and passes.
 */
export function consistentForSharers(text: string, fix: Fix, shared: SharedSource | (() => SharedSource)): boolean {
  return consistentWith(text, fix, (e) => (typeof shared === 'function' ? shared() : shared).usersOf(e.range));
}

/** `consistentForSharers`, the users of an edit's range asked of `usersOf` (with the edit's index). */
function consistentWith(text: string, fix: Fix, usersOf: (e: TextEdit, index: number) => Operation[], failed?: (index: number, user: Operation) => void): boolean {
  for (let i = 0; i < fix.edits.length; i++) {
    const e = fix.edits[i];
    const introduced = e.newText.match(PLACEHOLDER);
    if (!introduced) continue;
    const had = new Set(text.slice(e.range.start, e.range.end).match(PLACEHOLDER) ?? []);
    const added = introduced.filter((p) => !had.has(p));
    if (!added.length) continue;
    const users = usersOf(e, i);
    const ok = (u: Operation) => fix.edits.some((x: TextEdit) => x !== e && insideOperation(u, x.range)) || added.every((p) => defines(u, p));
    const bad = users.find((u) => !ok(u));
    if (bad) {
      failed?.(i, bad);
      return false;
    }
  }
  return true;
}
