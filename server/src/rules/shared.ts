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
      else if (v.kind === 'array' || v.kind === 'set') stack.push(...v.items);
    }
  }
  outsideCache.set(site, out);
  return out;
}

/** Document offsets of the characters of a string that lie outside the operation's request. */
function outsideChars(op: Operation, s: StringNode): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.value.length; i++) if (!insideOperation(op, { start: s.offsets[i], end: s.offsets[i] })) out.push(s.offsets[i]);
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
    return [...out].filter((o) => !sameRequest(o, op));
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
    if (!hit) this.users.set(key, (hit = this.carriedOrScanned(range)));
    return hit;
  }

  private siteSet?: Set<RequestSite>;

  /**
   * The users of a range asked about in the previous lint too (the same Range object, at the same offsets: a fix of a
   * finding the rule cache reused unmoved) are that answer's users whose site came back, plus the users among the
   * sites that are new since (the re-extracted statements'). Exact: a site handed back is untouched by the edit, and
   * the edit moved none of the offsets that decide whether one of its nodes overlaps the range (an overlapping char
   * lies in the range, which did not move; a node that moved lies beyond the edit, so beyond the range). Otherwise
   * every site is scanned.
   */
  private carriedOrScanned(range: Range): Operation[] {
    const now = (this.siteSet ??= new Set(this.sites));
    const prev = carried.get(range);
    let users: Operation[];
    if (prev && prev.start === range.start && prev.end === range.end) {
      users = prev.users.filter((u) => now.has(u.site)).concat(this.scan(range, this.sites.filter((s) => !prev.sites.has(s))));
    } else users = this.scan(range, this.sites);
    carried.set(range, { start: range.start, end: range.end, sites: now, users });
    return users;
  }

  private scan(range: Range, sites: readonly RequestSite[]): Operation[] {
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
}

/** `usersOf` answers per Range object, kept from one lint to the next (see `carriedOrScanned`). */
const carried = new WeakMap<Range, { start: number; end: number; sites: ReadonlySet<RequestSite>; users: Operation[] }>();

const cache = new WeakMap<readonly RequestSite[], SharedSource>();

/** The shared-source index of one document's sites (built once per sites array, on first use). */
export function sharedSource(sites: readonly RequestSite[]): SharedSource {
  let idx = cache.get(sites);
  if (!idx) cache.set(sites, (idx = new Lazy(sites)));
  return idx;
}

const PLACEHOLDER = /[#:][A-Za-z0-9_]+/g;

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
  for (const e of fix.edits) {
    const introduced = e.newText.match(PLACEHOLDER);
    if (!introduced) continue;
    const had = new Set(text.slice(e.range.start, e.range.end).match(PLACEHOLDER) ?? []);
    const added = introduced.filter((p) => !had.has(p));
    if (!added.length) continue;
    const users = (typeof shared === 'function' ? shared() : shared).usersOf(e.range);
    const ok = (u: Operation) => fix.edits.some((x: TextEdit) => x !== e && insideOperation(u, x.range)) || added.every((p) => defines(u, p));
    if (!users.every(ok)) return false;
  }
  return true;
}
