/**
 * Python via web-tree-sitter + tree-sitter-python: boto3 client calls (low-level), resource / Table calls (document),
 * `**kw` with kw bound to a dict literal, and dict literals that are clearly requests.
 */
import type { Language, Node as TNode, Query, Tree } from 'web-tree-sitter';
import { Api, ObjectNode, Property, Range, RequestSite, StringNode, UnknownNode, VNode, ValueStyle, prop, unreadEntries } from './model';
import { PY_METHODS, TABLE_APIS, inferApi, inferStyle, shapeApi, dropHeldShapes, looksLikeRequest, markIncomplete, markMutatedLater, mutatedLater } from './infer';
import { MAX_ALTERNATIVES, Op, State, applyAll, cloneTree, flatten, join, valueOf, variants } from '../flow';
import { concatStrings } from '../core/strings';
import { decodePython } from './strings';
import { detachStrings, maxRef, ownParts, shiftSite } from './remap';

const MAX_VALUE_DEPTH = 64;
const MAX_RESOLVE = 16;
/** Statements the data flow may interpret per extraction (then names fall back to their last assignment). */
const FLOW_BUDGET = 200_000;
/** What reading an assignment's value costs of FLOW_BUDGET (at most 2,000 reads a call). */
const RESOLVE_COST = 100;

/** What the flow of one name needs (see PyExtractor.flow). */
interface FlowCtx {
  name: string;
  mention: RegExp;
  use: TNode;
  depth: number;
  hops: number;
}

const QUERY = `
(call function: (attribute object: (_) @recv attribute: (identifier) @method) arguments: (argument_list) @args) @call
(assignment left: (_) @lhs right: (_) @rhs) @assign
(function_definition name: (identifier) @fname) @fn
(with_item value: (as_pattern (_) @rhs alias: (as_pattern_target (identifier) @lhs))) @assign
(dictionary (pair key: (string) @skey (#match? @skey "^.(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression|ProjectionExpression|TransactItems).$"))) @shape
`;

/** Sites of request-shaped dicts (`PyExtractor.shapeSite`): dropped when another site's parameters contain them. */
const shapeSites = new WeakSet<RequestSite>();

/** `return p` around a mention of a local name: the text before it, and after it (the value ends there). */
const PY_RETURN_BEFORE = /(?:^|[^\w.])return\s+\(?\s*$/;
const PY_RETURN_AFTER = /^\s*(?:[)\n#;]|$|\[|\.)/;


/** Is the node inside a call's arguments (up to its function, lambda or class)? Then that call decides what it is. */
function inCallArguments(n: TNode): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (p.type === 'argument_list') return true;
    if (p.type === 'function_definition' || p.type === 'lambda' || p.type === 'class_definition' || p.type === 'module') return false;
  }
  return false;
}

type Receiver = 'client' | 'resource' | 'table';
/** Capitalised keyword arguments only DynamoDB calls take; one of them makes an unknown receiver's call a request. */
const TABLE_FIELDS = ['Key', 'Item', 'UpdateExpression', 'KeyConditionExpression', 'ConditionExpression', 'FilterExpression', 'ProjectionExpression', 'AttributeUpdates'];

/** A DynamoDB field with a plausible value: maps for Key/Item, strings for expressions (or not statically known). */
function fieldFits(field: string, v: VNode | undefined): boolean {
  if (!v) return false;
  if (v.kind === 'unknown') return true;
  return field.endsWith('Expression') ? v.kind === 'string' : v.kind === 'object';
}

interface Assign {
  name: string;
  rhs: TNode;
  pos: number;
  scope: number;
}

interface Fn {
  name: string;
  range: Range;
}

/** `self.x = ...` / `cls.x = ...` in a method, or `x = ...Table(...)` in a class body: `lhs` finds the class. */
interface Member {
  name: string;
  lhs: TNode;
  rhs: TNode;
}

const SELF = new Set(['self', 'cls']);

/** Repository helpers named like a boto3 write (`self.update_item(...)`), and the request they send. */
const WRAPPERS: Record<string, Api> = { put_item: 'PutItem', update_item: 'UpdateItem', delete_item: 'DeleteItem' };
/** snake_case keywords of such helpers that name a DynamoDB parameter. */
const SNAKE_FIELDS: Record<string, string> = {
  key: 'Key',
  item: 'Item',
  update_expression: 'UpdateExpression',
  condition_expression: 'ConditionExpression',
  expression_attribute_values: 'ExpressionAttributeValues',
  expression_attribute_names: 'ExpressionAttributeNames',
};

/** Module-level assignments only (run with maxStartDepth 1: a fraction of a millisecond on any file). */
const ENV_QUERY = `(expression_statement (assignment left: (_) @lhs right: (_) @rhs)) @assign`;

export interface PyQueries {
  all: Query;
  env: Query;
}

export function pythonQueries(language: Language, make: (l: Language, src: string) => Query): PyQueries {
  return { all: make(language, QUERY), env: make(language, ENV_QUERY) };
}

/** One top-level statement's sites, kept between edits (offsets in the text they were computed for). */
interface PyUnit {
  start: number;
  end: number;
  env: boolean;
  sites: RequestSite[];
  /** Start offsets of dict literals its own calls took by name (`**kw`), each once. */
  consumed: number[];
  /** Largest document offset its sites mention. */
  maxRef: number;
  /**
   * Clients and tables its function-local assignments bind (`ddb = boto3.client(...)` in a function), in order: the
   * receiver of a call is looked up by name across the file (a client made in `setup()` is `handler()`'s receiver), so
   * a statement handed back still contributes them.
   */
  receivers: [string, Receiver][];
  /**
   * Names its calls looked up as receivers (found or not): the kind a name has is the last binding in the file, so a
   * statement handed back is read again when one of them changed (`ddb = boto3.client(...)` edited in `setup()`).
   */
  receiverReads: string[];
}

export interface PyState {
  units: PyUnit[];
  /** What every receiver name stood for after the run (the lookups `receiverReads` made). */
  receivers?: [string, Receiver][];
}

export interface Span {
  start: number;
  oldEnd: number;
  newEnd: number;
}

const ENV_TYPES = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);
const COMPOUND_TYPES = new Set(['if_statement', 'try_statement', 'with_statement', 'for_statement', 'while_statement', 'match_statement']);

class PyExtractor {
  private fns: Fn[] = [];
  private assigns = new Map<string, Assign[]>();
  private receivers = new Map<string, Receiver>();
  private consumed = new Set<number>();
  /** While a call is converted: the consumed list of its statement (every dict it takes, also one taken before). */
  private consumedBy?: number[];
  /** While a call is converted: the receiver names its statement looked up. */
  private readBy?: Set<string>;
  private members: Member[] = [];
  /** `members` by `<class start>:<name>`, built on first use. */
  private memberIndex?: Map<string, Member[]>;
  /** The definition node of each function, for its parameters (kept apart: `Fn` objects become sites' enclosingFunction). */
  private fnNodes = new WeakMap<Fn, TNode>();
  private paramCache = new Map<Fn, Set<string>>();
  /** Statements the data flow may still interpret. */
  private flowBudget = FLOW_BUDGET;
  /** Assignments whose value is being read (a name met again inside is a cycle: unknown). */
  private readonly resolving = new Set<Assign>();

  constructor(
    private text: string,
    private tree: Tree,
    private q: PyQueries,
  ) {}

  /**
   * Sites of the tree. With `prev` (the state after the previous text and the span edited since), top-level statements
   * the edit did not touch keep their sites (moved by the edit's length change) unless a module-level assignment or
   * import changed; only the others are queried and converted.
   */
  run(prev?: { state: PyState; span: Span }): { sites: RequestSite[]; state: PyState; reparsed: number } | undefined {
    const root = this.tree.rootNode;
    const units: (PyUnit & { node: TNode })[] = [];
    for (const n of root.namedChildren) {
      if (!n) continue;
      // A module-level name bound inside a compound statement (`try:`/`if`/`with` at the top) is looked up by every
      // statement, like a plain module-level assignment: the statement is part of the environment too. So is an
      // assignment tree-sitter wrapped in an ERROR (`X = "..."}` while typing): its value is still read.
      const env =
        ENV_TYPES.has(n.type) ||
        (n.type === 'expression_statement' && n.namedChild(0)?.type === 'assignment') ||
        ((COMPOUND_TYPES.has(n.type) || n.type === 'ERROR') && n.descendantsOfType('assignment').length > 0);
      units.push({ start: n.startIndex, end: n.endIndex, env, sites: [], consumed: [], maxRef: 0, receivers: [], receiverReads: [], node: n });
    }
    const reused = prev ? this.reuse(prev.state, prev.span, units) : undefined;
    const dicts: Assign[] = [];
    for (const m of this.q.env.matches(root, { maxStartDepth: 1 })) {
      const c = captures(m.captures);
      this.noteAssign(c.lhs, c.rhs, dicts);
    }
    const fresh = units.filter((_, i) => !reused?.[i]);
    const calls: Record<string, TNode>[] = [];
    const assigns: Record<string, TNode>[] = [];
    const shapes = new Map<number, TNode>();
    for (const top of reused ? fresh.map((u) => u.node) : [root])
      for (const m of this.q.all.matches(top)) {
        const c = captures(m.captures);
        if (c.call) {
          if (PY_METHODS.has(this.src(c.method))) calls.push(c);
        } else if (c.fn) {
          const fn = { name: this.src(c.fname), range: this.range(c.fn) };
          this.fns.push(fn);
          this.fnNodes.set(fn, c.fn);
        } else if (c.assign && c.assign.parent?.parent?.type !== 'module') assigns.push(c);
        else if (c.shape) shapes.set(c.shape.startIndex, c.shape);
      }
    this.fns.sort((a, b) => a.range.start - b.range.start);
    const unitAt = (pos: number) => {
      let lo = 0;
      let hi = units.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (units[mid].start <= pos) lo = mid;
        else hi = mid - 1;
      }
      return units[lo];
    };
    // In document order, as a full run notes them: a statement handed back adds the receivers it noted then.
    const local: Assign[] = [];
    const assignsOf = new Map<PyUnit, Record<string, TNode>[]>();
    for (const c of assigns) {
      const u = unitAt(c.assign.startIndex);
      const list = assignsOf.get(u);
      if (list) list.push(c);
      else assignsOf.set(u, [c]);
    }
    units.forEach((u, i) => {
      if (reused?.[i]) {
        for (const [name, kind] of u.receivers) this.receivers.set(name, kind);
        return;
      }
      u.receivers = [];
      for (const c of assignsOf.get(u) ?? []) this.noteAssign(c.lhs, c.rhs, local, u.receivers);
    });
    // A statement handed back read receiver names whose binding (another statement's) may have changed with the edit:
    // then its calls are read again, with everything else (a full run; rare: an edit of a client/table binding).
    if (reused && prev) {
      const was = new Map(prev.state.receivers ?? []);
      const changed = new Set<string>();
      for (const [name, kind] of was) if (this.receivers.get(name) !== kind) changed.add(name);
      for (const [name, kind] of this.receivers) if (was.get(name) !== kind) changed.add(name);
      if (changed.size && units.some((u, i) => reused[i] && u.receiverReads.some((n) => changed.has(n)))) return undefined;
    }
    const reads = new Map<PyUnit, Set<string>>();
    for (const c of calls) {
      const u = unitAt(c.call.startIndex);
      // Per statement, what its own calls took (a statement handed back adds exactly its own; a copy of everything
      // taken so far grew quadratically with the statements and kept other statements' offsets).
      this.consumedBy = u.consumed;
      let read = reads.get(u);
      if (!read) reads.set(u, (read = new Set()));
      this.readBy = read;
      const s = this.callSites(c.call, c.recv, this.src(c.method), c.args);
      this.consumedBy = undefined;
      this.readBy = undefined;
      for (const x of s) u.sites.push(x);
    }
    for (const [u, read] of reads) u.receiverReads = [...read];
    if (reused) for (let i = 0; i < units.length; i++) if (reused[i]) for (const p of units[i].consumed) this.consumed.add(p);
    for (const d of local) {
      const s = this.dictSite(d);
      if (s) unitAt(d.rhs.startIndex).sites.push(s);
    }
    // Request-shaped dicts passed to no call (config maps, fixtures, class attributes), after every call consumed its own.
    for (const n of shapes.values()) {
      const s = this.shapeSite(n);
      if (s) unitAt(n.startIndex).sites.push(s);
    }
    const sites: RequestSite[] = [];
    for (const u of units) for (const x of u.sites) sites.push(x);
    // Module-level dicts depend on every statement's calls: never cached.
    for (const d of dicts) {
      const s = this.dictSite(d);
      if (s) sites.push(s);
    }
    for (let i = 0; i < units.length; i++)
      if (!reused?.[i]) {
        units[i].consumed = [...new Set(units[i].consumed)];
        units[i].maxRef = units[i].consumed.reduce((m, p) => Math.max(m, p), maxRef(units[i].sites));
        // Kept across edits: they must not keep this version of the text alive (the first, full run's may: one text).
        if (reused) detachStrings(units[i].sites);
      }
    return { sites: dropHeldShapes(sites, (s) => shapeSites.has(s)).sort((a, b) => a.range.start - b.range.start), state: { units: units.map(({ node: _node, ...u }) => u), receivers: [...this.receivers] }, reparsed: fresh.length };
  }

  /** Fill units the edit left alone from the previous state; undefined when everything must be recomputed. */
  private reuse(state: PyState, span: Span, units: (PyUnit & { node: TNode })[]): boolean[] | undefined {
    const touches = (a: number, b: number, s: number, e: number) => a <= e && b >= s;
    if (state.units.some((u) => u.env && touches(u.start, u.end, span.start, span.oldEnd))) return undefined;
    if (units.some((u) => u.env && touches(u.start, u.end, span.start, span.newEnd))) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const old = new Map(state.units.map((u) => [`${u.start}:${u.end}`, u]));
    const map = (o: number) => (o >= span.oldEnd ? o + diff : o);
    // The same environment statements elsewhere: a re-parse of broken code can swallow one far from the edit into an
    // ERROR (or give one back), and the statements that read its names would keep what they read.
    const envAt = new Set<string>();
    for (const u of units) if (u.env) envAt.add(`${u.start}:${u.end}`);
    for (const u of state.units) if (u.env && !envAt.delete(`${map(u.start)}:${map(u.end)}`)) return undefined;
    if (envAt.size) return undefined;
    return units.map((u) => {
      if (u.env || touches(u.start, u.end, span.start, span.newEnd)) return false;
      const back = (o: number) => (o >= span.newEnd ? o - diff : o);
      const was = old.get(`${back(u.start)}:${back(u.end)}`);
      if (!was || was.env) return false;
      // Only what lies after the edit moves.
      const moves = diff !== 0 && was.maxRef >= span.oldEnd;
      if (moves) for (const site of was.sites) shiftSite(site, span.oldEnd, diff);
      u.sites = was.sites;
      u.receivers = was.receivers;
      u.receiverReads = was.receiverReads;
      u.consumed = moves ? was.consumed.map(map) : was.consumed;
      u.maxRef = moves ? map(was.maxRef) : was.maxRef;
      return true;
    });
  }

  private consume(at: number): void {
    this.consumed.add(at);
    this.consumedBy?.push(at);
  }

  private noteAssign(l: TNode, r: TNode, dicts: Assign[], receivers?: [string, Receiver][]): void {
    const target = this.dotted(l);
    if (!target) return;
    const name = target[target.length - 1];
    const kind = this.receiverOf(r);
    if (kind) {
      this.receivers.set(name, kind);
      receivers?.push([name, kind]);
    }
    if (target.length === 2 && SELF.has(target[0])) this.members.push({ name, lhs: l, rhs: r });
    if (l.type !== 'identifier') return;
    if (kind === 'table' && l.parent?.parent?.parent?.parent?.type === 'class_definition') this.members.push({ name, lhs: l, rhs: r });
    const a: Assign = { name, rhs: r, pos: l.startIndex, scope: this.scopeAt(l.startIndex) };
    const list = this.assigns.get(name);
    if (list) list.push(a);
    else this.assigns.set(name, [a]);
    if (r.type === 'dictionary' && this.text.slice(r.startIndex, r.endIndex).includes('TableName')) dicts.push(a);
  }

  /* ---------------------------------------------------------------------------------------------------------------- */

  private src(n: TNode): string {
    return this.text.slice(n.startIndex, n.endIndex);
  }

  private range(n: TNode): Range {
    return { start: n.startIndex, end: n.endIndex };
  }

  private dotted(n: TNode): string[] | undefined {
    if (n.type === 'identifier') return [this.src(n)];
    if (n.type !== 'attribute') return undefined;
    const obj = n.childForFieldName('object');
    const attr = n.childForFieldName('attribute');
    const head = obj ? this.dotted(obj) : undefined;
    return head && attr ? [...head, this.src(attr)] : undefined;
  }

  /** Innermost function (index into fns) containing pos, or -1 for module level. */
  private scopeAt(pos: number): number {
    for (let i = this.fns.length - 1; i >= 0; i--) if (this.fns[i].range.start <= pos && pos < this.fns[i].range.end) return i;
    return -1;
  }

  private lookup(name: string, pos: number): Assign | undefined {
    const list = this.assigns.get(name);
    if (!list) return undefined;
    // Python scoping: the innermost enclosing function that assigns the name, else module level.
    for (let s = this.scopeAt(pos); ; s = this.outerOf(s)) {
      const inScope = list.filter((a) => a.scope === s);
      if (inScope.length) return [...inScope].reverse().find((a) => a.pos < pos) ?? (s === -1 ? inScope[0] : undefined);
      // A parameter is local too: its value comes from the caller.
      if (s === -1 || this.paramsOf(this.fns[s]).has(name)) return undefined;
    }
  }

  private paramsOf(fn: Fn): Set<string> {
    let names = this.paramCache.get(fn);
    if (names) return names;
    names = new Set();
    for (const p of this.fnNodes.get(fn)?.childForFieldName('parameters')?.namedChildren ?? []) {
      if (!p) continue;
      const id = p.type === 'identifier' ? p : p.type === 'default_parameter' || p.type === 'typed_default_parameter' ? p.childForFieldName('name') : p.namedChild(0);
      if (id?.type === 'identifier') names.add(this.src(id));
    }
    this.paramCache.set(fn, names);
    return names;
  }

  private outerOf(i: number): number {
    if (i < 0) return -1;
    const r = this.fns[i].range;
    for (let j = i - 1; j >= 0; j--) if (this.fns[j].range.start <= r.start && r.end <= this.fns[j].range.end) return j;
    return -1;
  }

  /** What `boto3.client('dynamodb')`, `boto3.resource('dynamodb')`, `x.Table('t')`, `x.meta.client` create. */
  private receiverOf(n: TNode): Receiver | undefined {
    if (n.type === 'attribute') {
      const d = this.dotted(n);
      if (d && d.length >= 2 && d[d.length - 1] === 'client' && d[d.length - 2] === 'meta') return 'client';
      return undefined;
    }
    if (n.type === 'await') return n.namedChild(0) ? this.receiverOf(n.namedChild(0)!) : undefined;
    if (n.type !== 'call') return undefined;
    const fnNode = n.childForFieldName('function');
    const name = fnNode?.type === 'attribute' ? this.src(fnNode.childForFieldName('attribute')!) : fnNode ? this.dotted(fnNode)?.pop() : undefined;
    if (name === 'Table') return 'table';
    if (name !== 'client' && name !== 'resource') return undefined;
    const args = n.childForFieldName('arguments');
    const first = args?.namedChild(0);
    const service = first?.type === 'keyword_argument' ? first.childForFieldName('value') : first;
    if (!service || service.type !== 'string' || !this.src(service).includes('dynamodb')) return undefined;
    return name;
  }

  private receiverKind(recv: TNode): Receiver | undefined {
    const d = this.dotted(recv);
    const own = recv.type === 'attribute' ? this.receiverOf(recv) : undefined;
    if (own || !d) return own ?? this.receiverOf(recv);
    const name = d[d.length - 1];
    this.readBy?.add(name);
    return this.receivers.get(name);
  }

  /**
   * The literal table name a `Table` receiver stands for: `ddb.Table('X')` / `Table(name=X)` with X resolvable, a
   * variable bound to one (Python scoping), `self.t` / `cls.t` when every assignment of `t` in the class names the same
   * table. Undefined for anything else (environment, parameters, f-strings with substitutions): never a guess.
   */
  private tableOf(n: TNode, hops = 0, members = true): StringNode | UnknownNode | undefined {
    while (n.type === 'parenthesized_expression' || n.type === 'await') {
      const inner = n.namedChildren.find((c) => !!c && c.type !== 'comment');
      if (!inner) return undefined;
      n = inner;
    }
    if (hops > MAX_RESOLVE) return undefined;
    if (n.type === 'call') {
      const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((c): c is TNode => !!c && c.type !== 'comment');
      if (this.receiverOf(n) !== 'table' || args.length !== 1) return undefined;
      const arg = args[0].type === 'keyword_argument' && this.src(args[0].childForFieldName('name')!) === 'name' ? args[0].childForFieldName('value') : args[0];
      const v = arg && arg.type !== 'keyword_argument' ? this.value(arg, 1, 0) : undefined;
      // An unknown keeps its source text (`os.environ["TABLE"]`): the table index resolves environment reads.
      return v?.kind === 'string' || (v?.kind === 'unknown' && v.text) ? v : undefined;
    }
    if (n.type === 'identifier') {
      const a = this.lookup(this.src(n), n.startIndex);
      return a ? this.tableOf(a.rhs, hops + 1) : undefined;
    }
    const d = this.dotted(n);
    if (!members || d?.length !== 2 || !SELF.has(d[0])) return undefined;
    const cls = classOf(n);
    if (!cls) return undefined;
    const found = (this.memberMap().get(`${cls.startIndex}:${d[1]}`) ?? []).map((m) => this.tableOf(m.rhs, hops + 1, false));
    const first = found[0];
    const same = (t: StringNode | UnknownNode | undefined) => !!t && (t.kind === 'string' ? first?.kind === 'string' && t.value === first.value : first?.kind === 'unknown' && t.text === first.text);
    return first && found.every(same) ? first : undefined;
  }

  private memberMap(): Map<string, Member[]> {
    if (this.memberIndex) return this.memberIndex;
    this.memberIndex = new Map();
    for (const m of this.members) {
      const key = `${classOf(m.lhs)?.startIndex}:${m.name}`;
      const list = this.memberIndex.get(key);
      if (list) list.push(m);
      else this.memberIndex.set(key, [m]);
    }
    return this.memberIndex;
  }

  private enclosing(pos: number): Fn | undefined {
    for (let s = this.scopeAt(pos); s >= 0; s = this.outerOf(s)) if (this.fns[s].name) return this.fns[s];
    return undefined;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */

  /**
   * Sites of a call, one per alternative its parameters may be (data flow: `**params` assigned in the arms of an `if`,
   * an entry set on one branch): each its own tree, `alternative` set and its own arm in `branch`.
   */
  private callSites(call: TNode, recv: TNode, method: string, args: TNode): RequestSite[] {
    // The budget is per call: a call's sites do not depend on what the flow read elsewhere (incremental = full).
    this.flowBudget = FLOW_BUDGET;
    const first = this.callSite(call, recv, method, args);
    if (!first) return [];
    const all = (splatAlternatives.get(first.params) ?? [first.params]).flatMap((p) => variants(p)).filter((v): v is ObjectNode => v.kind === 'object');
    if (all.length > MAX_ALTERNATIVES) return [first];
    if (all.length < 2) return [first];
    const fn = first.enclosingFunction;
    return all.map((params, index) => {
      const site: RequestSite = { ...first, ...ownParts(first), params: cloneTree(params) as ObjectNode, alternative: { index, count: all.length } };
      if (fn) site.branch = `${first.branch ?? ''}/a${first.range.start - fn.range.start}:${index}`;
      return site;
    });
  }

  private callSite(call: TNode, recv: TNode, method: string, args: TNode): RequestSite | undefined {
    const api = PY_METHODS.get(method) as Api;
    const params = this.kwargs(args);
    const kind = this.receiverKind(recv);
    let style: ValueStyle;
    if (kind === 'client') style = 'low-level';
    else if (kind === 'table') {
      if (!TABLE_APIS.has(api)) return undefined;
      style = 'document';
    } else if (kind === 'resource') {
      if (api !== 'BatchGetItem' && api !== 'BatchWriteItem') return undefined;
      style = 'document';
    } else {
      // Unknown receiver: a client call names its table; a Table call never does. boto3's DynamoDB parameters are all
      // CapitalCase: a call passing `item_id=3` is some other library's `update_item`.
      if (params.properties.some((p) => /^[a-z_]/.test(p.key))) return this.wrapperSite(call, recv, method, args);
      if (prop(params, 'TableName')) style = 'low-level';
      else if (TABLE_APIS.has(api) && TABLE_FIELDS.some((f) => fieldFits(f, prop(params, f)))) style = 'document';
      else if (looksLikeRequest(params, api)) style = inferStyle(params, 'low-level');
      else return this.wrapperSite(call, recv, method, args);
    }
    const fnNode = call.childForFieldName('function')!;
    const site: RequestSite = {
      api,
      apiSource: 'call',
      style,
      host: 'python',
      range: this.range(call),
      nameRange: this.range(fnNode.childForFieldName('attribute')!),
      params,
      sdk: style === 'low-level' ? 'boto3-client' : 'boto3-resource',
    };
    const fn = this.enclosing(call.startIndex);
    if (fn) site.enclosingFunction = fn;
    const branch = branchOf(call);
    if (branch) site.branch = branch;
    const table = kind === 'table' ? this.tableOf(recv) : undefined;
    if (table) site.receiverTable = table;
    return site;
  }

  /**
   * `self.update_item(pk=.., update_expression="SET ..", expression_attribute_values={..})`, `self.put_item({...})` in a
   * repository class (its text says DynamoDB, repository or DAO) whose method of that name is not in the file (an
   * inherited helper): the
   * request read from the arguments by name (snake_case keywords of DynamoDB's parameters, a positional dict as the
   * Item/Key). Incomplete (what the helper adds is unknown); `forwarded.wrapper` says so.
   */
  private wrapperSite(call: TNode, recv: TNode, method: string, args: TNode): RequestSite | undefined {
    const api = WRAPPERS[method];
    const cls = classOf(call);
    if (!api || !cls || this.src(recv) !== 'self' || !/dynamo|repositor|dao/i.test(this.src(cls)) || new RegExp(`\\bdef\\s+${method}\\s*\\(`).test(this.src(cls))) return undefined;
    const properties: Property[] = [];
    let positional = 0;
    for (const a of args.namedChildren) {
      if (!a || a.type === 'comment') continue;
      if (a.type === 'keyword_argument') {
        const k = a.childForFieldName('name');
        const v = a.childForFieldName('value');
        const key = k && SNAKE_FIELDS[this.src(k)];
        // An empty map handed to a helper says nothing of what it sends (helpers often drop falsy maps).
        const value = k && v && key ? this.value(v, 1, 0) : undefined;
        if (value && !((value.kind === 'object' || value.kind === 'array') && !(value.kind === 'object' ? value.properties : value.items).length)) properties.push({ key: key!, keyRange: this.range(k!), value, range: this.range(a) });
      } else if (a.type !== 'list_splat' && a.type !== 'dictionary_splat' && positional++ === 0) {
        const v = this.value(a, 1, 0);
        if (v.kind === 'object') properties.push({ key: api === 'PutItem' ? 'Item' : 'Key', keyRange: this.range(a), value: v, range: this.range(a) });
      }
    }
    // `pk=..`, `sk=..` keywords: the key's values, under the helper's own attribute names (a partial Key, never complete).
    if (!properties.some((p) => p.key === 'Key')) {
      const parts: Property[] = [];
      for (const a of args.namedChildren) {
        const k = a?.type === 'keyword_argument' ? a.childForFieldName('name') : null;
        const v = k && a!.childForFieldName('value');
        if (k && v && /^(pk|sk)$/.test(this.src(k))) parts.push({ key: this.src(k), keyRange: this.range(k), value: this.value(v, 1, 0), range: this.range(a!) });
      }
      if (parts.length) properties.push({ key: 'Key', keyRange: parts[0].keyRange, value: { kind: 'object', properties: parts, complete: false, range: { start: parts[0].range.start, end: parts[parts.length - 1].range.end } }, range: { start: parts[0].range.start, end: parts[parts.length - 1].range.end } });
    }
    const must = api === 'PutItem' ? 'Item' : api === 'UpdateItem' ? 'UpdateExpression' : 'Key';
    if (!prop({ kind: 'object', properties, complete: false, range: this.range(args) }, must)) return undefined;
    const params: ObjectNode = { kind: 'object', properties, complete: false, range: this.range(args) };
    const style = inferStyle(params, 'document');
    const fnNode = call.childForFieldName('function')!;
    const site: RequestSite = { api, apiSource: 'inferred', style, host: 'python', range: this.range(call), nameRange: this.range(fnNode.childForFieldName('attribute')!), params, sdk: style === 'low-level' ? 'boto3-client' : 'boto3-resource', forwarded: { wrapper: method } };
    const fn = this.enclosing(call.startIndex);
    if (fn) site.enclosingFunction = fn;
    const branch = branchOf(call);
    if (branch) site.branch = branch;
    return site;
  }

  private dictSite(a: Assign): RequestSite | undefined {
    this.flowBudget = FLOW_BUDGET;
    if (this.consumed.has(a.rhs.startIndex)) return undefined;
    const params = this.value(a.rhs, 0, 0);
    if (params.kind !== 'object') return undefined;
    const api = inferApi(params);
    if (!api) return undefined;
    this.markHolderMutated(a.rhs, params);
    const site: RequestSite = {
      api,
      apiSource: 'inferred',
      style: inferStyle(params, 'low-level'),
      host: 'python',
      range: { ...params.range },
      nameRange: { start: a.pos, end: a.pos + a.name.length },
      params,
      sdk: 'boto3-client',
    };
    site.sdk = site.style === 'low-level' ? 'boto3-client' : 'boto3-resource';
    const fn = this.enclosing(a.pos);
    if (fn) site.enclosingFunction = fn;
    return site;
  }

  /**
   * The local name a dict inside a function is bound to (`p = {...}`, `self.p = {...}`, also nested: `ops = {'bump':
   * {...}}`), with the outermost literal holding it and its function. Undefined for a dict no name holds (returned, an
   * expression statement).
   */
  private holderOf(n: TNode): { name: string; top: TNode; fn: Fn } | undefined {
    const fn = this.enclosing(n.startIndex);
    if (!fn) return undefined;
    let top = n;
    for (let p = n.parent; p && (p.type === 'pair' || p.type === 'dictionary' || p.type === 'list' || p.type === 'tuple' || p.type === 'parenthesized_expression' || p.type === 'conditional_expression'); p = p.parent) if (p.type !== 'pair') top = p;
    const holder = top.parent;
    if (holder?.type !== 'assignment' || holder.childForFieldName('right')?.startIndex !== top.startIndex) return undefined;
    const left = holder.childForFieldName('left');
    if (!left || (left.type !== 'identifier' && left.type !== 'attribute')) return undefined;
    return { name: this.src(left), top, fn };
  }

  /** Per function (by its range, for this text): where each identifier occurs, and where inside a call's arguments. */
  private mentions?: { text: string; byFn: Map<string, { all: Map<string, number[]>; args: Map<string, number[]> }> };

  private mentionsIn(fn: Fn): { all: Map<string, number[]>; args: Map<string, number[]> } {
    if (this.mentions?.text !== this.text) this.mentions = { text: this.text, byFn: new Map() };
    const key = `${fn.range.start}:${fn.range.end}`;
    let m = this.mentions.byFn.get(key);
    if (m) return m;
    m = { all: new Map(), args: new Map() };
    this.mentions.byFn.set(key, m);
    const fnNode = this.fnNodes.get(fn);
    if (!fnNode) return m;
    const add = (into: Map<string, number[]>, k: string, at: number) => {
      const list = into.get(k);
      if (list) list.push(at);
      else into.set(k, [at]);
    };
    for (const id of fnNode.descendantsOfType('identifier')) {
      if (!id) continue;
      const name = this.src(id);
      add(m.all, name, id.startIndex);
      for (let p = id.parent; p && p.startIndex >= fnNode.startIndex && p.id !== fnNode.id; p = p.parent)
        if (p.type === 'argument_list') {
          add(m.args, name, id.startIndex);
          break;
        }
    }
    return m;
  }

  /**
   * Whether the held dict flows on after it: its name mentioned in a call's arguments (`table.update_item(**p)`,
   * `run(p)`: that call's business), or anywhere else but a `return` of it or a change to it (`{**p, 'X': ...}`,
   * `q = p`, `[p]`: part of another value, which may complete it). Then it is no request of its own.
   */
  private flowsOn(h: { name: string; top: TNode; fn: Fn }): boolean {
    const last = h.name.slice(h.name.lastIndexOf('.') + 1);
    const m = this.mentionsIn(h.fn);
    const from0 = h.top.endIndex;
    if ((m.args.get(last) ?? []).some((at) => at >= from0)) return true;
    const start = h.name.length - last.length;
    return (m.all.get(last) ?? []).some((at) => {
      if (at < from0) return false;
      const from = at - start;
      if (this.text.slice(from, at + last.length) !== h.name) return true;
      const before = this.text.slice(Math.max(from0, from - 16), from);
      const after = this.text.slice(at + last.length, Math.min(h.fn.range.end, at + last.length + 400));
      if (PY_RETURN_BEFORE.test(before) && PY_RETURN_AFTER.test(after)) return false;
      if (/(?:^|[^\w.])del\s+$/.test(before)) return false;
      return !mutatedLater(h.name, h.name + after, 'python');
    });
  }

  /** Whether the function returns the name holding a dict (`return p`): the caller may then add to it. */
  private returnedBy(h: { name: string; top: TNode; fn: Fn }): boolean {
    if (h.name.includes('.') || h.name.includes('[')) return false;
    const from0 = h.top.endIndex;
    return (this.mentionsIn(h.fn).all.get(h.name) ?? []).some(
      (at) => at >= from0 && PY_RETURN_BEFORE.test(this.text.slice(Math.max(from0, at - 16), at)) && PY_RETURN_AFTER.test(this.text.slice(at + h.name.length, Math.min(h.fn.range.end, at + h.name.length + 400))),
    );
  }

  /**
   * A dict held by a name that the function changes afterwards (`p['ExpressionAttributeValues'] = ...`,
   * `p.update(...)`, `ops['bump']['X'] = ...`) is not the whole request: marked incomplete (nested: every map in it), so
   * what the change may add is unknown, never missing. A returned one is incomplete too (`shapeSite`).
   * Only the text around each later mention of the name is read (a change starts there): linear in the mentions.
   */
  private markHolderMutated(n: TNode, params: VNode, h = this.holderOf(n)): void {
    if (!h) return;
    const last = h.name.slice(h.name.lastIndexOf('.') + 1);
    const from = h.top.endIndex;
    const around = (this.mentionsIn(h.fn).all.get(last) ?? [])
      .filter((at) => at >= from)
      .map((at) => this.text.slice(Math.max(from, at - h.name.length - 8), Math.min(h.fn.range.end, at + 400)));
    const rest = around.join('\n\n');
    if (!around.length || !mutatedLater(h.name, rest, 'python')) return;
    if (h.top === n) markMutatedLater(params, h.name, rest, 'python');
    else markIncomplete(params);
  }

  /** A dict literal that is a request by its shape alone (`shapeApi`) and that no call took. */
  private shapeSite(n: TNode): RequestSite | undefined {
    // Never in a call's arguments (the call's business); inside a function, one a call reached through data flow is
    // dropped as held by that call's site (`dropHeldShapes`).
    if (this.consumed.has(n.startIndex) || inCallArguments(n)) return undefined;
    // One action of a transaction built elsewhere (`{"Update": {...}}` in a function): not a request sent on its own.
    const key = n.parent?.type === 'pair' ? n.parent.childForFieldName('key') : undefined;
    if (key && this.enclosing(n.startIndex) && /^[rRbBuU]*(['"])(Put|Update|Delete|ConditionCheck|Get)\1$/.test(this.src(key))) return undefined;
    this.flowBudget = FLOW_BUDGET;
    const params = this.value(n, 0, 0);
    if (params.kind !== 'object') return undefined;
    const api = shapeApi(params);
    if (!api) return undefined;
    // Held by a name that flows on (to a call, into another value): where it goes decides.
    const h = this.holderOf(n);
    if (h && this.flowsOn(h)) return undefined;
    this.markHolderMutated(n, params, h);
    // Returned (`return {...}`, a lambda's body, `return p`): the caller may add to it (a names map, a condition), so
    // what it lacks is unknown, not missing; what it holds is still checked.
    let up = n.parent;
    while (up?.type === 'parenthesized_expression') up = up.parent;
    if (h ? this.returnedBy(h) : up?.type === 'return_statement' || up?.type === 'lambda') params.complete = false;
    const style = inferStyle(params, 'low-level');
    const p = n.parent;
    const named = p?.type === 'pair' ? p.childForFieldName('key') : p?.type === 'assignment' ? p.childForFieldName('left') : undefined;
    const site: RequestSite = { api, apiSource: 'inferred', style, host: 'python', range: { ...params.range }, nameRange: named ? this.range(named) : { ...params.properties[0].keyRange }, params, sdk: style === 'low-level' ? 'boto3-client' : 'boto3-resource' };
    const fn = this.enclosing(n.startIndex);
    if (fn) site.enclosingFunction = fn;
    shapeSites.add(site);
    return site;
  }

  /** Keyword arguments (and `**name` bound to a dict) as the request's parameters. */
  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Data flow of a local name (server/src/flow holds the model; this binds Python's statements to it)               */

  /**
   * What the local assigned by `a` holds at `use`: the statements of its function read in order up to the one holding
   * the use (`p = {...}`, `p['X'] = v`, `p['A'][':v'] = v`, `p.update({...})` / `p.update(X=v)`, `p.append(x)`,
   * `p.extend([...])`, `p += [...]`, `p = p + [...]`, `del p['X']`, `p.pop('X')`), `if`/`elif`/`else` arms joined as
   * alternatives, arms ending in `return`/`raise` dropped, loops read as zero or more passes. A path on which the name
   * is not assigned yet raises before the use: it adds nothing. Undefined when the flow cannot be read (module level,
   * a use in a nested function or lambda, `global`/`nonlocal`, the budget spent): the caller falls back.
   */
  private flow(a: Assign, use: TNode, depth: number, hops: number): VNode | undefined {
    if (a.scope < 0 || hops >= MAX_RESOLVE || this.flowBudget <= 0) return undefined;
    const fnNode = this.fnNodes.get(this.fns[a.scope]);
    const body = fnNode?.childForFieldName('body');
    if (!fnNode || !body) return undefined;
    for (let p = use.parent; p && p.id !== fnNode.id; p = p.parent) if (p.type === 'lambda' || p.type === 'function_definition' || p.type === 'list_comprehension' || p.type === 'generator_expression' || p.type === 'dictionary_comprehension') return undefined;
    const name = a.name;
    const bodyText = this.src(body);
    if (new RegExp(`\\b(?:global|nonlocal)\\s[^\\n]*\\b${name}\\b`).test(bodyText)) return undefined;
    const f: FlowCtx = { name, mention: new RegExp(`(?<![\\w.])${name}(?!\\w)`), use, depth, hops };
    // A parameter holds the caller's value until assigned: unknown on a path that does not assign it.
    const init: State = this.paramsOf(this.fns[a.scope]).has(name) ? undefined : [];
    const r = this.pySteps(stmtsOf(body), init, f, 0);
    if (!r.reached || r.state === 'dead' || r.state?.length === 0) return undefined;
    // Reached, but unknown on some path (a parameter not reassigned there, a change not read): silent.
    return valueOf(r.state, this.unknown(use));
  }

  private pySteps(stmts: TNode[], state: State | 'dead', f: FlowCtx, nest: number): { state: State | 'dead'; reached: boolean } {
    let s = state;
    for (const st of stmts) {
      if (s === 'dead') return { state: s, reached: false };
      if (st.startIndex <= f.use.startIndex && f.use.endIndex <= st.endIndex) return { state: this.pyInto(st, s, f, nest), reached: true };
      s = this.pyStep(st, s, f, nest);
    }
    return { state: s, reached: false };
  }

  /** The state at the use, inside the statement holding it. */
  private pyInto(st: TNode, s: State, f: FlowCtx, nest: number): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    const inside = (n: TNode | null | undefined) => !!n && n.startIndex <= f.use.startIndex && f.use.endIndex <= n.endIndex;
    if (st.type === 'if_statement') {
      const cond = st.childForFieldName('condition');
      if (inside(cond)) return s;
      const cons = st.childForFieldName('consequence');
      if (inside(cons)) return this.pySteps(stmtsOf(cons!), s, f, nest + 1).state;
      for (const alt of st.childrenForFieldName('alternative')) {
        if (!alt) continue;
        const block = alt.type === 'else_clause' ? alt.childForFieldName('body') : alt.childForFieldName('consequence');
        if (inside(alt)) return inside(block) ? this.pySteps(stmtsOf(block!), s, f, nest + 1).state : s;
      }
      return s;
    }
    if (st.type === 'with_statement' || st.type === 'try_statement') {
      const body = st.childForFieldName('body');
      if (inside(body)) return this.pySteps(stmtsOf(body!), s, f, nest + 1).state;
      if (st.type === 'with_statement') return s;
    }
    if (st.type === 'expression_statement' || st.type === 'return_statement' || st.type === 'if_statement' || st.type === 'with_statement') return s;
    // A loop, an `except`/`finally`, a `match` holding the use: what its body changes may have run before (another pass).
    const text = this.src(st);
    return this.pyChanges(text, f) ? this.pyUnreadable(s, text, f) : s;
  }

  /** The state after a statement that does not hold the use. */
  private pyStep(st: TNode, s: State, f: FlowCtx, nest: number, loop = false): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    if (st.type === 'return_statement' || st.type === 'raise_statement') return 'dead';
    const text = this.src(st);
    if (!f.mention.test(text)) return s;
    switch (st.type) {
      case 'if_statement': {
        const cond = st.childForFieldName('condition');
        if (cond && this.pyChanges(this.src(cond), f)) return this.pyUnreadable(s, text, f);
        const arms: (State | 'dead')[] = [];
        const cons = st.childForFieldName('consequence');
        arms.push(cons ? this.pyBlock(stmtsOf(cons), s, f, nest + 1, loop) : s);
        let hasElse = false;
        for (const alt of st.childrenForFieldName('alternative')) {
          if (!alt) continue;
          if (alt.type === 'else_clause') {
            hasElse = true;
            const body = alt.childForFieldName('body');
            arms.push(body ? this.pyBlock(stmtsOf(body), s, f, nest + 1, loop) : s);
          } else {
            const c = alt.childForFieldName('condition');
            if (c && this.pyChanges(this.src(c), f)) return this.pyUnreadable(s, text, f);
            const body = alt.childForFieldName('consequence');
            arms.push(body ? this.pyBlock(stmtsOf(body), s, f, nest + 1, loop) : s);
          }
        }
        if (!hasElse) arms.push(s);
        return join(...arms);
      }
      case 'for_statement':
      case 'while_statement': {
        // Zero or more passes: appends become representatives, anything else makes the value unreadable. An `else`
        // clause or a `break`/`continue` inside: not read.
        if (st.childForFieldName('alternative') || /\b(?:break|continue)\b/.test(text)) return this.pyUnreadable(s, text, f);
        const body = st.childForFieldName('body');
        const r = body ? this.pyBlock(stmtsOf(body), s, f, nest + 1, true) : s;
        return r === 'dead' ? s : r;
      }
      case 'with_statement': {
        const body = st.childForFieldName('body');
        const head = body ? this.text.slice(st.startIndex, body.startIndex) : text;
        // A change inside a `with` is not read (a fix removing its only statement would leave an empty block).
        if (!body || f.mention.test(head) || this.pyChanges(this.src(body), f)) return this.pyUnreadable(s, text, f);
        return s;
      }
      case 'expression_statement': {
        const e = st.namedChild(0);
        const op = e ? this.pyOp(e, s, f, loop) : undefined;
        if (op === 'same') return s;
        if (op && 'state' in op) return op.state;
        if (op) return applyAll(s, op);
        break;
      }
    }
    return this.pyChanges(text, f) ? this.pyUnreadable(s, text, f) : s;
  }

  private pyBlock(stmts: TNode[], s: State, f: FlowCtx, nest: number, loop: boolean): State | 'dead' {
    let cur: State | 'dead' = s;
    for (const x of stmts) {
      if (cur === 'dead') break;
      cur = this.pyStep(x, cur, f, nest, loop);
    }
    return cur;
  }

  /** The change an expression statement makes: an `Op`, a new state (`p = ...`), `same` (only reads), or undefined (not read). */
  private pyOp(e: TNode, s: State, f: FlowCtx, loop: boolean): Op | { state: State } | 'same' | undefined {
    const depth = f.depth + 1;
    const hops = f.hops + 1;
    const mentions = (n: TNode | null | undefined) => !!n && f.mention.test(this.src(n));
    if (e.type === 'assignment') {
      const l = e.childForFieldName('left');
      const r = e.childForFieldName('right');
      if (!l || !r || e.childForFieldName('type')) return undefined;
      if (l.type === 'identifier' && this.src(l) === f.name) {
        if (loop) return undefined;
        // `p = p + [...]`: a push; any other self-reference: unreadable.
        if (r.type === 'binary_operator' && r.child(1)?.type === '+' && this.src(r.childForFieldName('left')!) === f.name && !mentions(r.childForFieldName('right'))) {
          const v = this.value(r.childForFieldName('right')!, depth, hops);
          return v.kind === 'array' ? { kind: 'push', items: v.items, complete: v.complete, ...(v.samples ? { samples: v.samples } : {}) } : undefined;
        }
        if (mentions(r)) return undefined;
        // A dict the flow read for the name is that request's, even on a path that returns before the use.
        if (r.type === 'dictionary') this.consume(r.startIndex);
        return { state: flatten([this.value(r, depth, hops)]) };
      }
      const path = this.pyPath(l, f);
      if (path && !mentions(r)) {
        if (loop) return { kind: 'opaque', deep: path.keys.length > 1 };
        return { kind: 'set', path: path.keys, keyRange: path.keyRange, value: this.value(r, depth, hops), range: this.range(e) };
      }
      return undefined;
    }
    if (e.type === 'augmented_assignment') {
      const l = e.childForFieldName('left');
      const r = e.childForFieldName('right');
      if (l?.type === 'identifier' && this.src(l) === f.name && e.child(1)?.type === '+=' && r && !mentions(r)) {
        const v = this.value(r, depth, hops);
        if (v.kind !== 'array') return undefined;
        return loop ? { kind: 'push', items: v.items, complete: false, samples: v.items.length } : { kind: 'push', items: v.items, complete: v.complete, ...(v.samples ? { samples: v.samples } : {}) };
      }
      return undefined;
    }
    if (e.type === 'call') {
      const fn = e.childForFieldName('function');
      const args = e.childForFieldName('arguments');
      const obj = fn?.type === 'attribute' ? fn.childForFieldName('object') : undefined;
      const method = fn?.type === 'attribute' ? fn.childForFieldName('attribute') : undefined;
      if (!obj || !method || !args || obj.type !== 'identifier' || this.src(obj) !== f.name) return this.pyChanges(this.src(e), f) ? undefined : 'same';
      const list = args.namedChildren.filter((c): c is TNode => !!c && c.type !== 'comment');
      if (list.some((c) => mentions(c))) return undefined;
      switch (this.src(method)) {
        case 'update': {
          if (loop) return { kind: 'opaque', deep: true };
          if (list.length === 1 && list[0].type !== 'keyword_argument' && list[0].type !== 'dictionary_splat') return { kind: 'merge', value: this.value(list[0], depth, hops) };
          if (list.length && list.every((c) => c.type === 'keyword_argument')) return { kind: 'merge', value: this.kwargs(args) };
          return { kind: 'opaque', deep: true };
        }
        case 'append':
          if (list.length !== 1 || list[0].type === 'keyword_argument') return undefined;
          return loop ? { kind: 'push', items: [this.value(list[0], depth, hops)], complete: false, samples: 1 } : { kind: 'push', items: [this.value(list[0], depth, hops)], complete: true };
        case 'extend': {
          if (list.length !== 1 || list[0].type === 'keyword_argument') return undefined;
          const v = this.value(list[0], depth, hops);
          if (v.kind !== 'array') return { kind: 'opaque', deep: false };
          return loop ? { kind: 'push', items: v.items, complete: false, samples: v.items.length } : { kind: 'push', items: v.items, complete: v.complete, ...(v.samples ? { samples: v.samples } : {}) };
        }
        case 'pop': {
          const k = list.length >= 1 ? this.value(list[0], depth, hops) : undefined;
          if (k?.kind === 'string' && !loop && s?.every((v) => v.kind === 'object')) return { kind: 'delete', path: [k.value] };
          return { kind: 'opaque', deep: false };
        }
        case 'get':
        case 'copy':
        case 'keys':
        case 'values':
        case 'items':
        case 'index':
        case 'count':
          return 'same';
        default:
          return undefined;
      }
    }
    return this.pyChanges(this.src(e), f) ? undefined : 'same';
  }

  /** `p['A']`, `p['A'][':v']` rooted at the name, with literal string keys: the keys and the last key's range. */
  private pyPath(n: TNode, f: FlowCtx): { keys: string[]; keyRange: Range } | undefined {
    const keys: string[] = [];
    let keyRange: Range | undefined;
    let cur: TNode | null = n;
    while (cur && cur.type === 'subscript') {
      const subs = cur.childrenForFieldName('subscript').filter((c): c is TNode => !!c);
      if (subs.length !== 1) return undefined;
      const k = this.value(subs[0], f.depth + 1, f.hops + 1);
      if (k.kind !== 'string') return undefined;
      keys.unshift(k.value);
      keyRange ??= this.range(subs[0]);
      cur = cur.childForFieldName('value');
    }
    return cur?.type === 'identifier' && this.src(cur) === f.name && keys.length && keyRange ? { keys, keyRange } : undefined;
  }

  /** Whether text may change the name: a mutation through it, or an assignment to it. */
  private pyChanges(text: string, f: FlowCtx): boolean {
    if (!f.mention.test(text)) return false;
    if (mutatedLater(f.name, text, 'python')) return true;
    return new RegExp(`(?<![\\w.])${f.name}\\s*(?:[-+*/%&|^@]|//|\\*\\*|>>|<<)?=(?!=)|\\bdel\\s+${f.name}\\b|\\bfor\\s+${f.name}\\b|\\bas\\s+${f.name}\\b`).test(text);
  }

  /** A change the flow cannot read: the value is no longer whole (reassigned somewhere: unknown). */
  private pyUnreadable(s: State, text: string, f: FlowCtx): State {
    if (new RegExp(`(?<![\\w.])${f.name}\\s*=(?!=)|\\bfor\\s+${f.name}\\b|\\bas\\s+${f.name}\\b`).test(text)) return undefined;
    return applyAll(s, { kind: 'opaque', deep: mutatedLater(f.name, text, 'python', true) });
  }

  private kwargs(args: TNode): ObjectNode {
    const properties: Property[] = [];
    let complete = true;
    const splats: ObjectNode[][] = [];
    for (const a of args.namedChildren) {
      if (!a) continue;
      if (a.type === 'keyword_argument') {
        const k = a.childForFieldName('name');
        const v = a.childForFieldName('value');
        if (k && v) properties.push({ key: this.src(k), keyRange: this.range(k), value: this.value(v, 1, 0), range: this.range(a) });
      } else if (a.type === 'dictionary_splat') {
        const inner = a.namedChild(0);
        const v = inner ? this.value(inner, 1, 0, true) : undefined;
        if (v?.kind === 'object') {
          for (const x of v.properties) properties.push(x);
          complete &&= v.complete;
        } else if (v && variants(v).length > 1 && variants(v).every((x) => x.kind === 'object')) {
          // `**params` with alternatives (assigned in the arms of an `if`): one object per alternative (splatChoices).
          splats.push(variants(v) as ObjectNode[]);
        } else complete = false;
      } else if (a.type !== 'comment') complete = false;
    }
    const out: ObjectNode = { kind: 'object', properties, complete, range: this.range(args) };
    return splats.length ? splatChoices(out, splats) : out;
  }

  private unknown(n: TNode): VNode {
    return { kind: 'unknown', range: this.range(n), text: this.text.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 120)) };
  }

  private value(n: TNode, depth: number, hops: number, consume = false): VNode {
    let type = n.type;
    while (type === 'parenthesized_expression') {
      const inner = n.namedChildren.find((c) => !!c && c.type !== 'comment');
      if (!inner) break;
      n = inner;
      type = n.type;
    }
    if (depth > MAX_VALUE_DEPTH) return this.unknown(n);
    const range = this.range(n);
    switch (type) {
      case 'string':
      case 'concatenated_string':
        return this.string(n);
      case 'integer':
      case 'float': {
        const t = this.src(n).replace(/_/g, '');
        if (/[jJ]$/.test(t)) return this.unknown(n);
        return { kind: 'number', text: /^0[xXoObB]/.test(t) ? BigInt(t).toString() : t, range };
      }
      case 'unary_operator': {
        const op = n.child(0);
        const inner = n.namedChild(0) ? this.value(n.namedChild(0)!, depth + 1, hops) : undefined;
        if (inner?.kind === 'number' && op && (op.type === '-' || op.type === '+')) return { kind: 'number', text: (op.type === '-' ? '-' : '') + inner.text, range };
        return this.unknown(n);
      }
      case 'true':
      case 'false':
        return { kind: 'bool', value: type === 'true', range };
      case 'none':
        return { kind: 'null', range };
      case 'identifier': {
        const a = hops < MAX_RESOLVE ? this.lookup(this.src(n), n.startIndex) : undefined;
        if (!a) return this.unknown(n);
        if (consume) this.consume(a.rhs.startIndex);
        // A local name: what the data flow says it holds here (branches, early returns, item assignments, updates).
        const flowed = this.flow(a, n, depth, hops);
        if (flowed) return flowed;
        // Read inside its own value (`b = {"x": b}`), or by names that read each other (`c = {"x": d}; d = {"y": c}`):
        // nothing known (as in typescript.ts). Each read is paid from the call's flow budget: names that reuse each
        // other without a cycle are read once per use, 4 uses x 10 levels took 41 s and 400 MB.
        if (this.resolving.has(a) || (a.rhs.startIndex <= n.startIndex && n.endIndex <= a.rhs.endIndex)) return this.unknown(n);
        this.flowBudget -= RESOLVE_COST;
        if (this.flowBudget <= 0) return this.unknown(n);
        this.resolving.add(a);
        let v: VNode;
        try {
          v = this.value(a.rhs, depth, hops + 1);
        } finally {
          this.resolving.delete(a);
        }
        // A dict/list changed after its literal (`params["X"] = ...`, `params.update(...)`) is not the whole value.
        const scopeEnd = a.scope >= 0 ? this.fns[a.scope].range.end : this.text.length;
        return markMutatedLater(v, a.name, this.text.slice(a.rhs.endIndex, scopeEnd), 'python');
      }
      case 'list':
      case 'tuple':
      case 'set': {
        const kids = n.namedChildren.filter((c): c is TNode => !!c && c.type !== 'comment');
        if (type === 'set') {
          const items = kids.filter((c) => c.type !== 'list_splat').map((c) => this.value(c, depth + 1, hops));
          return items.length === kids.length ? { kind: 'set', items, range } : this.unknown(n);
        }
        const items: VNode[] = [];
        let complete = true;
        let samples = 0;
        // Entries nothing shows (a splat of an unknown list): said apart from representatives (`unread`).
        let unread = false;
        for (const c of kids) {
          if (c.type !== 'list_splat') items.push(this.value(c, depth + 1, hops));
          else {
            // `[*[{'Put': ...} for u in users], {...}]` or `*CONST_ITEMS`: what is known of the splatted list is in it.
            const inner = c.namedChildren.find((x): x is TNode => !!x && x.type !== 'comment');
            const v = inner ? this.value(inner, depth + 1, hops) : undefined;
            if (v?.kind === 'array') {
              for (const x of v.items) items.push(x);
              samples += v.samples ?? 0;
            }
            complete &&= v?.kind === 'array' && v.complete;
            unread ||= v?.kind !== 'array' || unreadEntries(v);
          }
        }
        return { kind: 'array', items, complete, range, ...(samples ? { samples, ...(unread ? { unread: true as const } : {}) } : {}) };
      }
      case 'list_comprehension': {
        // `[{'Update': {...}} for vid in video_ids]`: a list of unknown length whose every element is built by the
        // body, known up to the loop's variables (unknown): one representative element.
        const body = n.childForFieldName('body');
        return body ? { kind: 'array', items: [this.value(body, depth + 1, hops)], complete: false, samples: 1, range } : { kind: 'array', items: [], complete: false, range };
      }
      case 'dictionary':
        return this.dict(n, depth, hops);
      case 'call':
        return this.callValue(n, depth, hops);
      case 'binary_operator': {
        if (n.child(1)?.type !== '+') return this.unknown(n);
        const l = this.value(n.childForFieldName('left')!, depth + 1, hops);
        const r = this.value(n.childForFieldName('right')!, depth + 1, hops);
        return l.kind === 'string' && r.kind === 'string' ? concatStrings([l, r], range) : this.unknown(n);
      }
      default:
        return this.unknown(n);
    }
  }

  /** A string, implicit concatenation of strings; bytes -> binary; f-strings with substitutions -> unknown. */
  private string(n: TNode): VNode {
    const parts = n.type === 'concatenated_string' ? n.namedChildren.filter((c): c is TNode => c?.type === 'string') : [n];
    const pieces: StringNode[] = [];
    let bytes = false;
    for (const p of parts) {
      // Read the literal from the source (prefix, quotes, body): no per-child calls into the WASM tree.
      const start = p.startIndex;
      const src = this.text.slice(start, p.endIndex);
      const m = /^([A-Za-z]*)("""|'''|"|')/.exec(src);
      if (!m) return this.unknown(n);
      const prefix = m[1];
      bytes ||= /b/i.test(prefix);
      const open = m[1].length + m[2].length;
      const close = src.length - open >= m[2].length && src.endsWith(m[2]) ? m[2].length : 0;
      const s = decodePython(src.slice(open, src.length - close), start + open, prefix, { start, end: p.endIndex });
      // An f-string with substitutions (or a `\N{…}` escape): unknown text, but a str all the same (bytes aside).
      if (!s) return bytes ? this.unknown(n) : { kind: 'unknown', range: this.range(n), text: this.text.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 120)), type: 'S' };
      pieces.push(s);
    }
    if (bytes) {
      // A bytes literal holds only code points 0..255 after decoding, one byte each.
      const length = pieces.reduce((sum, piece) => sum + piece.value.length, 0);
      const ok = pieces.every((piece) => [...piece.value].every((ch) => ch.charCodeAt(0) <= 0xff));
      return { kind: 'binary', range: this.range(n), ...(ok ? { length } : {}) };
    }
    return concatStrings(pieces, this.range(n));
  }

  private dict(n: TNode, depth: number, hops: number): VNode {
    const properties: Property[] = [];
    let complete = true;
    for (const p of n.namedChildren) {
      if (!p || p.type === 'comment') continue;
      if (p.type === 'pair') {
        const [k, v] = p.namedChildren.filter((c): c is TNode => !!c && c.type !== 'comment');
        const key = k ? this.value(k, depth + 1, hops) : undefined;
        if (!k || !v || (key?.kind !== 'string' && key?.kind !== 'number')) {
          complete = false;
          continue;
        }
        properties.push({ key: key.kind === 'string' ? key.value : key.text, keyRange: this.range(k), value: this.value(v, depth + 1, hops), range: this.range(p) });
      } else if (p.type === 'dictionary_splat' && p.namedChild(0)) {
        const v = this.value(p.namedChild(0)!, depth + 1, hops);
        if (v.kind === 'object') {
          for (const x of v.properties) properties.push(x);
          complete &&= v.complete;
        } else complete = false;
      } else complete = false;
    }
    return { kind: 'object', properties, complete, range: this.range(n) };
  }

  /** `Decimal(...)`, `set(...)`, `frozenset(...)`, `Binary(...)`, `bytes(...)`, `dict(k=v)`. */
  private callValue(n: TNode, depth: number, hops: number): VNode {
    const f = n.childForFieldName('function');
    const name = f ? this.dotted(f)?.pop() : undefined;
    const args = n.childForFieldName('arguments');
    const argList = (args?.namedChildren ?? []).filter((c): c is TNode => !!c && c.type !== 'comment');
    const range = this.range(n);
    if (!args || args.type !== 'argument_list') return this.unknown(n);
    if (name === 'Decimal' && argList.length === 1) {
      const v = this.value(argList[0], depth + 1, hops);
      const t = v.kind === 'string' ? v.value.trim() : v.kind === 'number' ? v.text : undefined;
      return t !== undefined && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? { kind: 'number', text: t.replace(/^\+/, ''), range } : this.unknown(n);
    }
    if (name === 'set' || name === 'frozenset') {
      if (!argList.length) return { kind: 'set', items: [], range };
      const v = this.value(argList[0], depth + 1, hops);
      if (v.kind === 'array' && v.complete) return { kind: 'set', items: v.items, range };
      if (v.kind === 'set') return { ...v, range };
      return this.unknown(n);
    }
    if (name === 'Binary' || name === 'bytes' || name === 'bytearray') {
      // Binary(b'..'), bytes([1, 2]), bytearray(16): the length when the argument spells it out.
      const v = argList.length === 1 && argList[0].type !== 'keyword_argument' ? this.value(argList[0], depth + 1, hops) : undefined;
      const length =
        v?.kind === 'binary' ? v.length
        : v?.kind === 'array' && v.complete && v.items.every((i) => i.kind === 'number') ? v.items.length
        : v?.kind === 'number' && name !== 'Binary' && /^\d+$/.test(v.text) ? Number(v.text)
        : !argList.length && name !== 'Binary' ? 0
        : undefined;
      return { kind: 'binary', range, ...(length !== undefined ? { length } : {}) };
    }
    if (name === 'dict' && argList.every((a) => a.type === 'keyword_argument')) {
      const o = this.kwargs(args);
      return { ...o, range };
    }
    return this.unknown(n);
  }
}

/** The statements of a block (comments aside). */
function stmtsOf(block: TNode): TNode[] {
  return block.namedChildren.filter((c): c is TNode => !!c && c.type !== 'comment');
}

/**
 * Keyword arguments holding `**splat`s with alternatives: one object per combination (at most MAX_ALTERNATIVES, then
 * the call's own arguments only, not complete): the first, the others recorded in `splatAlternatives` (one site each).
 */
function splatChoices(base: ObjectNode, splats: ObjectNode[][]): ObjectNode {
  let combos: ObjectNode[] = [base];
  for (const choices of splats) {
    if (combos.length * choices.length > MAX_ALTERNATIVES) return { ...base, complete: false };
    combos = combos.flatMap((c) => choices.map((o) => ({ ...c, properties: [...o.properties, ...c.properties], complete: c.complete && o.complete })));
  }
  const first = combos[0];
  if (combos.length > 1) splatAlternatives.set(first, combos);
  return first;
}

/** Keyword arguments with alternatives (see splatChoices): the first combination -> all of them. */
const splatAlternatives = new WeakMap<ObjectNode, ObjectNode[]>();

/** The innermost class whose body holds n (through methods and nested blocks). */
function classOf(n: TNode): TNode | undefined {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'class_definition') return p;
  return undefined;
}

function captures(list: { name: string; node: TNode }[]): Record<string, TNode> {
  const c: Record<string, TNode> = {};
  for (const cap of list) c[cap.name] = cap.node;
  return c;
}

export function extractPythonTree(text: string, tree: Tree, q: PyQueries, prev?: { state: PyState; span: Span }): { sites: RequestSite[]; state: PyState; reparsed: number } {
  // Undefined: a statement handed back read a receiver whose binding the edit changed; everything is read again.
  return (prev && new PyExtractor(text, tree, q).run(prev)) || new PyExtractor(text, tree, q).run()!;
}

/**
 * `RequestSite.branch` of a call: the `if`/`elif`/`else` arms and conditional-expression arms between it and its
 * function, outermost first, each `<offset of the if from the function>:<arm>`. Empty outside any conditional and at
 * module level (offsets relative to a function stay the same when edits elsewhere shift the function).
 */
function branchOf(call: TNode): string {
  const arms: [TNode, string][] = [];
  let child: TNode = call;
  let n = call.parent;
  // Up to the function_definition the site reports as its enclosing function (a lambda stays inside it).
  while (n && n.type !== 'function_definition') {
    if (n.type === 'if_statement') {
      if (n.childForFieldName('consequence')?.id === child.id) arms.push([n, 't']);
      else if (child.type === 'elif_clause' || child.type === 'else_clause') arms.push([n, String(child.startIndex - n.startIndex)]);
    } else if (n.type === 'conditional_expression') {
      // `a if c else b`: the named children are a, c, b.
      const named = n.namedChildren;
      if (named[0]?.id === child.id) arms.push([n, 't']);
      else if (named[2]?.id === child.id) arms.push([n, 'e']);
    }
    child = n;
    n = n.parent;
  }
  if (!n) return '';
  const fnStart = n.startIndex;
  return arms
    .reverse()
    .map(([node, arm]) => `/${node.startIndex - fnStart}:${arm}`)
    .join('');
}
