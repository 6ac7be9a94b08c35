/**
 * Shared reading of requests for the rules: parsed expressions (cached per string node), resolved document paths,
 * counter updates, condition guards, key attributes and placeholder values.
 */
import { AttrType, ObjectNode, Property, Range, RequestSite, StringNode, VNode, attrType, prop, propEntry, scalarText, stringRange } from '../extract/model';
import { Operation, TransactionActions, operationsOf, transactionActions } from '../extract/operations';
import { parseExpression } from '../expression/parser';
import { Lru } from './lru';
import type {
  AddAction, Comparator, ConditionNode, ExpressionKind, FunctionNode, Operand, ParseResult, PathNode, SetAction, UpdateAction, UpdateClause, UpdateExpressionNode, ValueRefNode,
} from '../expression/ast';

/* ------------------------------------------------------------------------------------------------------------------ */
/* Operations                                                                                                         */

const operationsCache = new WeakMap<RequestSite, Operation[]>();

/**
 * `operationsOf`, memoized per site object. A document extractor hands back the same site for a statement an edit did
 * not touch, with only its offsets moved: operations hold references into the site, so they stay valid. Read-only.
 */
export function operations(site: RequestSite): Operation[] {
  let ops = operationsCache.get(site);
  if (!ops) operationsCache.set(site, (ops = transactionOf(site)?.ops ?? operationsOf(site)));
  return ops;
}

const transactionCache = new WeakMap<RequestSite, TransactionActions>();

/**
 * `transactionActions` (the actions read and the entries that could not be), memoized per site object; undefined for
 * a request that is no transaction. A rule about all of a transaction's actions reads `unread`/`listed` from here.
 */
export function transactionOf(site: RequestSite): TransactionActions | undefined {
  let tx = transactionCache.get(site);
  if (!tx) {
    tx = transactionActions(site);
    if (tx) transactionCache.set(site, tx);
  }
  return tx;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Expressions                                                                                                        */

/**
 * Parsed expressions by content (kind + text): a parse holds only offsets inside its string, so the many requests of a
 * document that write the same expression share one tree, and memory does not grow with the document (a tree per
 * string node of a 50,000-line file was tens of MB). Bounded; the rules' results are cached per site
 * (incremental.ts), so a parse is asked for again only when its site is re-extracted.
 */
const parseCache = new Lru<string, ParseResult>(4096);

export function parsed(node: StringNode, kind: ExpressionKind): ParseResult {
  const key = kind + '\u0000' + node.value;
  let r = parseCache.get(key);
  if (!r) parseCache.set(key, (r = parseExpression(kind, node.value)));
  return r;
}

/** Document range of an AST span inside an expression string. */
export function spanRange(node: StringNode, span: { start: number; end: number }): Range {
  return stringRange(node, span.start, span.end);
}

export interface UpdateInfo {
  node: StringNode;
  ast: UpdateExpressionNode;
}

/** The parsed UpdateExpression of an action, when it is a literal that parses. */
export function updateOf(params: ObjectNode): UpdateInfo | undefined {
  const node = prop(params, 'UpdateExpression');
  if (node?.kind !== 'string') return undefined;
  const r = parsed(node, 'update');
  return r.ast?.type === 'update' && !r.error ? { node, ast: r.ast } : undefined;
}

/** A ConditionExpression: absent, not statically known (variable, spread, syntax error), or parsed. */
export type ConditionState = { state: 'absent' } | { state: 'unknown' } | { state: 'parsed'; node: StringNode; ast: ConditionNode; entry: Property };

export function conditionOf(params: ObjectNode, field = 'ConditionExpression'): ConditionState {
  const entry = propEntry(params, field);
  if (!entry) return params.complete ? { state: 'absent' } : { state: 'unknown' };
  if (entry.value.kind !== 'string') return { state: 'unknown' };
  const r = parsed(entry.value, 'condition');
  if (!r.ast || r.error || r.ast.type === 'update' || r.ast.type === 'projection') return { state: 'unknown' };
  return { state: 'parsed', node: entry.value, ast: r.ast, entry };
}

/** The top-level AND-ed parts of a condition (parentheses opened). */
export function conjuncts(c: ConditionNode): ConditionNode[] {
  if (c.type === 'paren') return conjuncts(c.inner);
  if (c.type === 'and') return [...conjuncts(c.left), ...conjuncts(c.right)];
  return [c];
}

/** Every path a condition mentions (through functions, NOT and OR); `comparedOnly`: only operands of comparisons/BETWEEN. */
export function conditionPaths(c: ConditionNode, comparedOnly = false): PathNode[] {
  const out: PathNode[] = [];
  const operand = (o: Operand): void => {
    if (o.type === 'path') out.push(o);
    else if (o.type === 'function' && !comparedOnly) o.args.forEach(operand);
    else if (o.type === 'arithmetic') [o.left, o.right].forEach(operand);
    else if (o.type === 'parenOperand') operand(o.inner);
  };
  const walk = (n: ConditionNode): void => {
    switch (n.type) {
      case 'compare':
        return [n.left, n.right].forEach(operand);
      case 'between':
        return [n.operand, n.low, n.high].forEach(operand);
      case 'in':
        if (!comparedOnly) [n.operand, ...n.list].forEach(operand);
        return;
      case 'and':
      case 'or':
        return [n.left, n.right].forEach(walk);
      case 'not':
        return walk(n.operand);
      case 'paren':
        return walk(n.inner);
      case 'functionCondition':
        if (!comparedOnly) operand(n.fn);
        return;
    }
  };
  walk(c);
  return out;
}

const NEEDS_VALUE = new Set(['attribute_exists', 'attribute_type', 'begins_with', 'contains']);

/**
 * Attributes the condition cannot be true without (top-level AND conjuncts): compared with `=`, `<`, `<=`, `>`, `>=`,
 * BETWEEN or IN, or the first argument of attribute_exists / attribute_type / begins_with / contains. When one is
 * missing, DynamoDB fails the condition (ConditionalCheckFailedException) before evaluating the update.
 */
export function requiredAttributes(c: ConditionNode, names: Names): Set<string> {
  const out = new Set<string>();
  const add = (o: Operand) => {
    const u = unwrap(o);
    if (u.type === 'path') out.add(pathKey(u, names));
  };
  for (const part of conjuncts(c)) {
    if (part.type === 'compare' && part.op !== '<>') [part.left, part.right].forEach(add);
    else if (part.type === 'between') add(part.operand);
    else if (part.type === 'in') add(part.operand);
    else if (part.type === 'functionCondition' && NEEDS_VALUE.has(part.fn.name) && part.fn.args[0]) add(part.fn.args[0]);
  }
  return out;
}

/**
 * Attribute names a condition requires to exist / not exist as a top-level conjunct: `fn(path)`, `NOT opposite(path)`,
 * or an OR whose every branch is such a guard (on one of `keys`, when they are known).
 */
export function guardedAttributes(c: ConditionNode, fn: 'attribute_exists' | 'attribute_not_exists', names: Names, keys: string[] = []): string[] {
  const opposite = fn === 'attribute_exists' ? 'attribute_not_exists' : 'attribute_exists';
  /** The attribute one guard names: `fn(a)`, or `NOT opposite(a)`. */
  const single = (n: ConditionNode): string | undefined => {
    while (n.type === 'paren') n = n.inner;
    let name = fn;
    if (n.type === 'not') {
      n = n.operand;
      while (n.type === 'paren') n = n.inner;
      name = opposite;
    }
    if (n.type !== 'functionCondition' || n.fn.name !== name) return undefined;
    const arg = n.fn.args[0];
    return arg?.type === 'path' ? pathKey(arg, names) : undefined;
  };
  const disjuncts = (n: ConditionNode): ConditionNode[] =>
    n.type === 'paren' ? disjuncts(n.inner) : n.type === 'or' ? [...disjuncts(n.left), ...disjuncts(n.right)] : [n];
  const out: string[] = [];
  for (const part of conjuncts(c)) {
    const one = single(part);
    if (one !== undefined) {
      out.push(one);
      continue;
    }
    // `attribute_not_exists(PK) OR attribute_not_exists(SK)`: an item exists exactly when all its key attributes do, so
    // an OR of guards on key attributes is the same guard. Every branch must be one (on a key, when the keys are known).
    const branches = disjuncts(part).map(single);
    if (branches.length > 1 && branches.every((b) => b !== undefined && (!keys.length || keys.includes(b)))) for (const x of branches as string[]) out.push(x);
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Names, values and paths                                                                                            */

export type Names = Record<string, string>;

/** The literal entries of `ExpressionAttributeNames`. */
export function namesOf(params: ObjectNode): Names {
  const m = prop(params, 'ExpressionAttributeNames');
  const out: Names = {};
  if (m?.kind === 'object') for (const p of m.properties) if (p.value.kind === 'string') out[p.key] = p.value.value;
  return out;
}

/** A path as text with `#name` placeholders resolved where the names map says: `a.b[2]`. */
export function pathKey(path: PathNode, names: Names): string {
  return path.elements
    .map((e, i) => (e.type === 'index' ? `[${e.index}]` : (i ? '.' : '') + (e.placeholder ? (names[e.name] ?? e.name) : e.name)))
    .join('');
}

export function unwrap(o: Operand): Operand {
  return o.type === 'parenOperand' ? unwrap(o.inner) : o;
}

/** The `ExpressionAttributeValues` entry of a `:placeholder`. */
export function valueEntry(params: ObjectNode, name: string): Property | undefined {
  return propEntry(prop(params, 'ExpressionAttributeValues'), name);
}

export interface ValueFacts {
  type: AttrType;
  /** Literal numeric/string text. */
  text?: string;
  node?: VNode;
}

export function valueFacts(op: { params: ObjectNode; site: RequestSite }, ref: ValueRefNode): ValueFacts {
  const entry = valueEntry(op.params, ref.name);
  if (!entry) return { type: 'unknown' };
  return { type: attrType(entry.value, op.site.style), text: scalarText(entry.value, op.site.style), node: entry.value };
}

/** Sign of a literal number text: 1, -1 or 0 (zero or not a number). */
export function signOf(text: string | undefined): 1 | -1 | 0 {
  if (text === undefined) return 0;
  const n = Number(text);
  return Number.isNaN(n) || n === 0 ? 0 : n > 0 ? 1 : -1;
}

/** Sign of a value's number: its literal text, or an unknown magnitude of known sign (`-amount`, `UnknownNode.sign`). */
export function signOfFacts(f: ValueFacts, style: RequestSite['style']): 1 | -1 | 0 {
  if (f.text !== undefined) return signOf(f.text);
  const inner = style === 'low-level' && f.node?.kind === 'object' && f.node.properties.length === 1 ? f.node.properties[0].value : f.node;
  return inner?.kind === 'unknown' && inner.sign ? inner.sign : 0;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Counters                                                                                                           */

export interface CounterAction {
  action: AddAction | SetAction;
  form: 'add' | 'set';
  /** The attribute updated, placeholders resolved. */
  key: string;
  /** SET only: the operand reading the current value (`x` in `x + :n`, or the whole `if_not_exists(x, :z)`). */
  read?: Operand;
  /** SET only: the arithmetic operator. */
  op?: '+' | '-';
  /** The delta operand, when it is a `:value`. */
  delta?: ValueRefNode;
  /** 1 increment, -1 decrement, 0 unknown. */
  direction: 1 | -1 | 0;
}

/** The action as written, with its clause keyword: `ADD n :one`, `SET n = n + :one`. */
export function actionText(upd: UpdateInfo, c: CounterAction): string {
  return `${c.form === 'add' ? 'ADD' : 'SET'} ${upd.node.value.slice(c.action.start, c.action.end)}`;
}

function isIfNotExistsOf(o: Operand, key: string, names: Names): o is FunctionNode {
  return o.type === 'function' && o.name === 'if_not_exists' && o.args[0]?.type === 'path' && pathKey(o.args[0], names) === key;
}

/** Counter updates in an Update action: `ADD n :v` with a number (or a value not known to be a set), `SET n = n ± :v`. */
export function counterActions(op: { params: ObjectNode; site: RequestSite }, upd: UpdateInfo): CounterAction[] {
  const names = namesOf(op.params);
  const out: CounterAction[] = [];
  for (const clause of upd.ast.clauses) {
    for (const a of clause.actions) {
      if (a.type === 'ADD') {
        const key = pathKey(a.path, names);
        const v = unwrap(a.value);
        if (v.type !== 'value') continue;
        const f = valueFacts(op, v);
        if (f.type !== 'N' && f.type !== 'unknown') continue;
        out.push({ action: a, form: 'add', key, delta: v, direction: f.type === 'N' ? signOfFacts(f, op.site.style) : 0 });
      } else if (a.type === 'SET') {
        const key = pathKey(a.path, names);
        const v = unwrap(a.value);
        if (v.type !== 'arithmetic') continue;
        const left = unwrap(v.left);
        const right = unwrap(v.right);
        const readsSelf = (o: Operand) => (o.type === 'path' && pathKey(o, names) === key) || isIfNotExistsOf(o, key, names);
        let read: Operand | undefined;
        let other: Operand | undefined;
        if (readsSelf(left)) [read, other] = [left, right];
        else if (v.op === '+' && readsSelf(right)) [read, other] = [right, left];
        if (!read || !other) continue;
        const delta = other.type === 'value' ? other : undefined;
        const s = delta ? signOfFacts(valueFacts(op, delta), op.site.style) : 0;
        const direction = v.op === '+' ? s : s === 0 ? -1 : ((-s) as 1 | -1);
        out.push({ action: a, form: 'set', key, read, op: v.op, delta, direction });
      }
    }
  }
  return out;
}

/**
 * Move an update action to another clause: it leaves its clause (the clause goes when it empties) and joins the
 * `keyword` clause (`..., text`) or a new one appended (` KEYWORD text`). Returns the new expression string.
 */
export function moveAction(expr: string, clauses: UpdateClause[], action: UpdateAction, keyword: UpdateClause['keyword'], text: string): string {
  const clause = clauses.find((cl) => cl.actions.includes(action))!;
  const i = clause.actions.indexOf(action);
  let [a, b] = [action.start, action.end];
  if (clause.actions.length === 1) [a, b] = [clause.start, clause.end];
  else if (i < clause.actions.length - 1) b = clause.actions[i + 1].start;
  else a = clause.actions[i - 1].end;
  const right = /^\s*/.exec(expr.slice(b))![0].length;
  if (a === 0 || /\s$/.test(expr.slice(0, a))) b += right;
  const rest = expr.slice(0, a) + expr.slice(b);
  const target = clauses.find((cl) => cl.keyword === keyword && cl !== clause);
  if (target) {
    const at = target.end >= b ? target.end - (b - a) : target.end;
    return rest.slice(0, at) + `, ${text}` + rest.slice(at);
  }
  const kept = rest.trimEnd();
  return kept ? `${kept} ${keyword} ${text}` : `${keyword} ${text}`;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Keys                                                                                                               */

/** Attribute names of a literal `Key` map, in order (partition first by convention). */
export function keyNames(params: ObjectNode): string[] {
  const k = prop(params, 'Key');
  return k?.kind === 'object' ? k.properties.map((p) => p.key) : [];
}

/** A canonical text for a literal key (`PK=S:POST#1|SK=S:META`), or undefined when any part is not literal. */
export function literalKey(map: VNode | undefined, style: RequestSite['style'], attrs?: string[]): string | undefined {
  if (map?.kind !== 'object' || !map.complete) return undefined;
  const props = attrs ? attrs.map((a) => map.properties.find((p) => p.key === a)) : map.properties;
  const parts: string[] = [];
  for (const p of props) {
    if (!p) return undefined;
    const t = attrType(p.value, style);
    const v = scalarText(p.value, style);
    if (t === 'unknown' || v === undefined) return undefined;
    parts.push(`${p.key}=${t}:${v}`);
  }
  return parts.length ? parts.sort().join('|') : undefined;
}

/**
 * A key value as a pattern, `*` standing for what is filled in at run time: a literal (`VID#9f3a`), a template or
 * f-string (`` `VID#${id}` `` -> `VID#*`), a concatenation starting with a literal (`'VID#' + id` -> `VID#*`), anything
 * else (a variable, a Step Functions `.$` path) `*`.
 */
export function keyPattern(text: string, node: VNode, style: RequestSite['style']): string {
  const literal = scalarText(node, style);
  if (literal !== undefined) return literal.replace(/\*/g, '\\*');
  const inner = style === 'low-level' && node.kind === 'object' && node.properties.length === 1 ? node.properties[0].value : node;
  if (inner.kind !== 'unknown') return '*';
  const src = text.slice(inner.range.start, inner.range.end);
  const tpl = /^`([^`]*)`$/.exec(src);
  if (tpl) return tpl[1].replace(/\$\{[^}]*\}/g, '*');
  const fstr = /^[rR]?[fF][rR]?(['"])(.*)\1$/s.exec(src);
  if (fstr) return fstr[2].replace(/\{[^}]*\}/g, '*');
  const concat = /^(['"])([^'"\\]*)\1\s*\+/.exec(src);
  if (concat) return concat[2] + '*';
  return '*';
}

/**
 * A key value as comparable text: the literal string or number, else its source text (a low-level `{S: ...}` opened)
 * without quotes, backticks or blanks: `postId`, `POST#${postId}`.
 */
export function keyValueText(text: string, node: VNode, style: RequestSite['style']): string | undefined {
  const literal = scalarText(node, style);
  if (literal !== undefined) return literal;
  const inner = style === 'low-level' && node.kind === 'object' && node.properties.length === 1 ? node.properties[0].value : node;
  const src = text.slice(inner.range.start, inner.range.end).replace(/^[rbfu]*['"`]|['"`]$/gi, '').replace(/\s+/g, '');
  return src || undefined;
}

const WILD = /(?<!\\)\*/;
const plainPattern = (p: string) => p.replace(/\\\*/g, '*');
const meetCache = new Map<string, boolean>();
const MEET_CACHE_MAX = 4096;

/** Whether two key patterns (see `keyPattern`) can stand for the same value (memoized: few distinct patterns per workspace). */
export function patternsMeet(a: string, b: string): boolean {
  const key = `${a}\u0000${b}`;
  let hit = meetCache.get(key);
  if (hit === undefined) {
    if (meetCache.size >= MEET_CACHE_MAX) meetCache.clear();
    meetCache.set(key, (hit = meet(a, b)));
  }
  return hit;
}

function meet(a: string, b: string): boolean {
  const wild = (p: string) => WILD.test(p);
  const re = (p: string) => new RegExp('^' + p.split(WILD).map((x) => plainPattern(x).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's');
  if (!wild(a) && !wild(b)) return a === b;
  if (!wild(a)) return re(b).test(plainPattern(a));
  if (!wild(b)) return re(a).test(plainPattern(b));
  const [pa, pb] = [plainPattern(a.split(WILD)[0]), plainPattern(b.split(WILD)[0])];
  const [sa, sb] = [plainPattern(a.split(WILD).pop()!), plainPattern(b.split(WILD).pop()!)];
  return (pa.startsWith(pb) || pb.startsWith(pa)) && (sa.endsWith(sb) || sb.endsWith(sa));
}

/** Table identity for comparisons: the literal name, or the source text of the expression naming it. */
export function tableId(text: string, op: Operation): string | undefined {
  if (op.table) return op.table;
  const t = prop(op.params, 'TableName');
  if (t) return 'expr:' + text.slice(t.range.start, t.range.end);
  // No TableName and no resolvable boto3 Table receiver (`op.table` holds those): unknown, so compare as equal.
  return undefined;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Replays                                                                                                            */

/**
 * What an action leaves in an attribute, as its replay's condition sees it: `absent` (deleted, REMOVEd, or not in a
 * complete Put Item), `set` to a value written in the request (`SET x = :v`, a Put Item entry), `changed` by arithmetic
 * or ADD (a new value not written out), `present` (a key attribute of an Update: the item exists afterwards, value
 * unchanged), `kept` (not touched: what the condition saw still holds), `unknown` (a spread Item, an expression that is
 * not a literal).
 */
type Effect =
  | { kind: 'absent' | 'changed' | 'present' | 'kept' | 'unknown' }
  | { kind: 'set'; value: ValueIdentity };

/** A written value: the `:placeholder` that carries it and its literal text when known. */
interface ValueIdentity {
  ref?: string;
  text?: string;
}

/** What an action does to each attribute, read once per action. */
interface Effects {
  of(attr: string): Effect;
}

function effectsOf(op: { kind: string; params: ObjectNode; site: RequestSite }): Effects | undefined {
  const { params, site } = op;
  if (op.kind === 'Delete' || op.kind === 'BatchDelete') return { of: () => ({ kind: 'absent' }) };
  if (op.kind === 'ConditionCheck') return { of: () => ({ kind: 'kept' }) };
  if (op.kind === 'Put' || op.kind === 'BatchPut') {
    const item = prop(params, 'Item');
    if (item?.kind !== 'object') return undefined;
    return {
      of: (attr) => {
        const top = attr.split(/[.[]/)[0];
        const entry = propEntry(item, top);
        if (!entry) return item.complete ? { kind: 'absent' } : { kind: 'unknown' };
        if (top !== attr) return { kind: 'unknown' };
        const text = scalarText(entry.value, site.style);
        return { kind: 'set', value: { text: text === undefined ? undefined : `${attrType(entry.value, site.style)}:${text}` } };
      },
    };
  }
  if (op.kind !== 'Update') return undefined;
  const upd = updateOf(params);
  if (!upd) return undefined;
  const names = namesOf(params);
  const map = new Map<string, Effect>();
  for (const clause of upd.ast.clauses) {
    for (const a of clause.actions) {
      const key = pathKey(a.path, names);
      if (a.type === 'REMOVE') map.set(key, { kind: 'absent' });
      else if (a.type === 'ADD' || a.type === 'DELETE') map.set(key, { kind: 'changed' });
      else {
        const v = unwrap(a.value);
        if (v.type === 'value') map.set(key, { kind: 'set', value: identity({ params, site }, v) });
        else map.set(key, { kind: 'changed' });
      }
    }
  }
  const keys = new Set(keyNames(params));
  return { of: (attr) => map.get(attr) ?? (keys.has(attr) ? { kind: 'present' } : { kind: 'kept' }) };
}

function identity(op: { params: ObjectNode; site: RequestSite }, ref: ValueRefNode): ValueIdentity {
  const f = valueFacts(op, ref);
  return { ref: ref.name, text: f.text === undefined ? undefined : `${f.type}:${f.text}` };
}

/** Whether two written values are the same one: the same placeholder, or equal literals; undefined when unknown. */
function sameValue(a: ValueIdentity, b: ValueIdentity): boolean | undefined {
  if (a.ref && a.ref === b.ref) return true;
  if (a.text !== undefined && b.text !== undefined) return a.text === b.text;
  return undefined;
}

type Truth = 'false' | 'maybe' | 'unknown';

const FLIP: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '=': '=', '<>': '<>' };

/**
 * Whether a condition is surely false when the action runs again right after it succeeded, given what the action
 * left behind. `false` is proved; `maybe` may hold; `unknown` when what the action writes is not known.
 * `lease`: an OR of a proved-false branch and an expiry comparison (`attribute_not_exists(PK) OR expiresAt < :now`)
 * counts as false, the replay failing until the lease expires.
 */
function onReplay(c: ConditionNode, fx: Effects, op: { params: ObjectNode; site: RequestSite }, names: Names): { truth: Truth; lease?: boolean } {
  const attr = (o: Operand): string | undefined => {
    const u = unwrap(o);
    return u.type === 'path' ? pathKey(u, names) : undefined;
  };
  const fromEffect = (e: Effect, ifAbsent: Truth, ifPresent: Truth): Truth =>
    e.kind === 'unknown' ? 'unknown' : e.kind === 'absent' ? ifAbsent : e.kind === 'kept' ? 'maybe' : ifPresent;
  const compare = (c: Extract<ConditionNode, { type: 'compare' }>): Truth => {
    let path = attr(c.left);
    let other = unwrap(c.right);
    let cmp: string = c.op;
    if (path === undefined) {
      path = attr(c.right);
      other = unwrap(c.left);
      cmp = FLIP[c.op];
    }
    if (path === undefined) return 'maybe';
    const e = fx.of(path);
    if (e.kind === 'unknown') return 'unknown';
    // A missing attribute makes every comparison false but `<>`.
    if (e.kind === 'absent') return cmp === '<>' ? 'maybe' : 'false';
    if (e.kind === 'changed') return cmp === '=' && other.type === 'value' ? 'false' : 'maybe';
    if (e.kind !== 'set' || other.type !== 'value') return 'maybe';
    const same = sameValue(e.value, identity(op, other));
    if (cmp === '=') return same === true ? 'maybe' : 'false';
    if (cmp === '<>' || cmp === '<' || cmp === '>') return same === true ? 'false' : 'maybe';
    return 'maybe';
  };
  const fn = (f: FunctionNode, negated: boolean): Truth => {
    const a = f.args[0] ? attr(f.args[0]) : undefined;
    if (a === undefined) return 'maybe';
    const e = fx.of(a);
    const exists = (f.name === 'attribute_exists') !== negated;
    if (f.name === 'attribute_exists' || f.name === 'attribute_not_exists') {
      return exists ? fromEffect(e, 'false', 'maybe') : fromEffect(e, 'maybe', 'false');
    }
    // `NOT contains(seen, :id)` with `ADD seen :idSet` / `SET seen = list_append(...)`: the replay finds the id.
    if (f.name === 'contains' && negated) return e.kind === 'unknown' ? 'unknown' : e.kind === 'changed' ? 'false' : 'maybe';
    if (negated) return e.kind === 'unknown' ? 'unknown' : 'maybe';
    return NEEDS_VALUE.has(f.name) ? fromEffect(e, 'false', 'maybe') : 'maybe';
  };
  /** `expiresAt < :now`, `:now <= leaseUntil`: an ordering of an attribute against a value (an expiry, a lease). */
  const expiry = (n: ConditionNode): boolean => {
    while (n.type === 'paren') n = n.inner;
    if (n.type !== 'compare' || !['<', '<=', '>', '>='].includes(n.op)) return false;
    const [l, r] = [unwrap(n.left), unwrap(n.right)];
    return (l.type === 'path' && r.type === 'value') || (l.type === 'value' && r.type === 'path');
  };
  const walk = (n: ConditionNode, negated = false): { truth: Truth; lease?: boolean } => {
    switch (n.type) {
      case 'paren':
        return walk(n.inner, negated);
      case 'not':
        return walk(n.operand, !negated);
      case 'functionCondition':
        return { truth: fn(n.fn, negated) };
      case 'compare': {
        if (!negated) return { truth: compare(n) };
        const inverse: Record<string, Comparator> = { '=': '<>', '<>': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
        return { truth: compare({ ...n, op: inverse[n.op] }) };
      }
      case 'between':
      case 'in': {
        if (negated) return { truth: 'maybe' };
        const a = attr(n.operand);
        const e = a === undefined ? undefined : fx.of(a);
        return { truth: e ? fromEffect(e, 'false', 'maybe') : 'maybe' };
      }
      case 'and':
      case 'or': {
        // De Morgan: NOT (a AND b) = NOT a OR NOT b.
        const conj = (n.type === 'and') !== negated;
        const l = walk(n.left, negated);
        const r = walk(n.right, negated);
        const lease = l.lease || r.lease;
        if (conj) {
          if (l.truth === 'false' || r.truth === 'false') return { truth: 'false', lease: (l.truth === 'false' ? l.lease : r.lease) };
          return { truth: l.truth === 'unknown' || r.truth === 'unknown' ? 'unknown' : 'maybe' };
        }
        if (l.truth === 'false' && r.truth === 'false') return { truth: 'false', lease };
        if (!negated && ((l.truth === 'false' && expiry(n.right)) || (r.truth === 'false' && expiry(n.left)))) return { truth: 'false', lease: true };
        return { truth: l.truth === 'unknown' || r.truth === 'unknown' ? 'unknown' : 'maybe' };
      }
    }
  };
  return walk(c);
}

/** Whether an action's own condition stops a replay of it: `fails` (proved), `passes`, or `unknown` (not literal). */
export type ReplayVerdict = { verdict: 'fails'; lease?: boolean } | { verdict: 'passes' | 'unknown' };

/**
 * Whether running the same action again, right after it succeeded, fails its ConditionExpression: the action itself
 * falsified it. A Put guarded by attribute_not_exists of an attribute it writes, a Delete with any condition needing an
 * attribute, an Update conditioned on `#v = :seen` while it sets `#v = :next` (or ADDs to it), `attribute_exists(o)`
 * while it REMOVEs `o`, `#s <> :done` while it sets `#s = :done`, `NOT contains(seen, :id)` while it ADDs to `seen`.
 * A floor (`n > :zero`) or `attribute_exists(PK)` on an Update does not: the replay meets the same facts.
 */
export function replayOf(op: { kind: string; params: ObjectNode; site: RequestSite }): ReplayVerdict {
  const c = conditionOf(op.params);
  if (c.state === 'unknown') return { verdict: 'unknown' };
  if (c.state === 'absent') return { verdict: 'passes' };
  const fx = effectsOf(op);
  if (!fx) return { verdict: 'unknown' };
  const r = onReplay(c.ast, fx, op, namesOf(op.params));
  return r.truth === 'false' ? { verdict: 'fails', lease: r.lease } : { verdict: r.truth === 'unknown' ? 'unknown' : 'passes' };
}
