/**
 * The Go `expression` builder (aws-sdk-go-v2 `feature/dynamodb/expression`, aws-sdk-go v1 `service/dynamodb/expression`,
 * the same API) read as the expressions it builds, so the rules see `expression.Add(expression.Name("n"),
 * expression.Value(1))` as `ADD #0 :0` with `#0` = `n` and `:0` = `{N: "1"}`.
 *
 * Semantics follow the SDK's source: `Name("a.b[1]")` is split on dots into `#0.#1[1]`; `Key("k")` is not split;
 * names are aliased `#0, #1...` in order of first use (deduplicated), values `:0, :1...` in order (never
 * deduplicated); the trees of a `Builder` are rendered in the order of their type names (condition, filter,
 * keyCondition, projection, update), sharing the aliases; an update is `ADD ..\nDELETE ..\nREMOVE ..\nSET ..\n` (modes
 * sorted, each ended by a newline), its actions in the order they were added; conditions are `#0 = :0`, `(a) AND (b)`,
 * `NOT (a)`, `attribute_not_exists (#0)`, `begins_with (#0, :0)`, `size (#0)`, `#0 BETWEEN :0 AND :1`, `#0 IN (:0,
 * :1)`; set operands `#0 + :0`, `#0 - :0`, `list_append(#0, :0)`, `if_not_exists(#0, :0)`.
 *
 * `expression.Value(x)` is marshalled as attributevalue.Marshal does, as far as the type of x is known here: a
 * number literal or a name resolving to one (a constant) is `N`, a string `S`, a bool `BOOL`, a `-n` a number of sign
 * -1, an `&types.AttributeValueMemberN{...}` itself; anything else is unknown (silent).
 *
 * Ranges: each generated char points at the source that produced it, so findings land on the builder call: a `#k`
 * on the chars of its name in the `Name("...")` literal, a `:k` on the `expression.Value(...)` call, keywords and
 * operators on the builder call that adds them (`Set(...)`, `.Add(...)`, `AttributeNotExists(...)`).
 *
 * Whatever is not read exactly (an unknown builder call, a name that is not a literal, a builder held in a variable
 * assigned in a loop or in both arms of an if/else) makes the whole built expression unknown: the rules stay silent.
 * A builder variable extended inside an `if` without `else` (`if c { update = update.Set(..) }`) is read as the run
 * that takes the branch: a possible run, whose findings hold for it.
 */
import type { Node as TNode } from 'web-tree-sitter';
import type { ObjectNode, Property, Range, StringNode, UnknownNode, VNode } from './model';
import { stringRange } from './model';
import { kids } from './treehost';

/** Where a Go name is bound, as the host reads it (latest binding before the use, on the path to it). */
export type Binding = { value: TNode } | { tuple: TNode; index: number };

export interface BuilderHost {
  src(n: TNode): string;
  /** The value an identifier holds at its use (see go.ts `builderBinding`), or undefined when it cannot be read. */
  binding(id: TNode): Binding | undefined;
  /** The Go value of an expression (for `Value(x)`, `Name(x)`). */
  value(n: TNode): VNode;
  /** The function of this file a call names (a helper returning a built expression); records the dependency. */
  helper(name: string): TNode | undefined;
}

type Piece = { s: string; r: Range } | { name: string; r: Range; lit: Range } | { value: VNode; r: Range };

interface NameB {
  t: 'name';
  /** `r`: where the alias points (the first part starts at the `Name(` call, the last ends at its `)`); `lit`: its chars. */
  parts: { name: string; r: Range; lit: Range; suffix?: { s: string; r: Range } }[];
  dots: Range[];
}
interface ValueB {
  t: 'value';
  value: VNode;
  r: Range;
}
interface SizeB {
  t: 'size';
  name: NameB;
  r: Range;
}
interface KeyB {
  t: 'key';
  name: string;
  r: Range;
  lit: Range;
}
interface SetValueB {
  t: 'setv';
  fmt: 'plus' | 'minus' | 'list_append' | 'if_not_exists';
  left: Operand;
  right: Operand;
  r: Range;
}
type Operand = NameB | ValueB | SizeB | KeyB | SetValueB;
interface CondB {
  t: 'cond';
  mode: string;
  conds: CondB[];
  operands: Operand[];
  r: Range;
}
interface KeyCondB {
  t: 'kcond';
  mode: string;
  conds: KeyCondB[];
  operands: Operand[];
  r: Range;
}
interface UpdateOp {
  name: NameB;
  value?: Operand;
  r: Range;
}
interface UpdateB {
  t: 'update';
  ops: Map<string, UpdateOp[]>;
}
interface ProjB {
  t: 'proj';
  names: NameB[];
  r: Range;
}
type Tree = CondB | KeyCondB | UpdateB | ProjB;
interface BuilderB {
  t: 'builder';
  trees: Map<string, Tree>;
}
/** A built Expression (`Build()`), or the zero `expression.Expression{}`. */
interface ExprB {
  t: 'expr';
  builder?: BuilderB;
}
type B = Operand | CondB | KeyCondB | UpdateB | ProjB | BuilderB | ExprB;

const COMPARE: Record<string, string> = { Equal: '=', NotEqual: '<>', LessThan: '<', LessThanEqual: '<=', GreaterThan: '>', GreaterThanEqual: '>=' };
const KEY_COMPARE: Record<string, string> = { KeyEqual: '=', KeyLessThan: '<', KeyLessThanEqual: '<=', KeyGreaterThan: '>', KeyGreaterThanEqual: '>=' };
const SET_OPS: Record<string, SetValueB['fmt']> = { Plus: 'plus', Minus: 'minus', ListAppend: 'list_append', IfNotExists: 'if_not_exists' };
const TREE_OF: Record<string, string> = { WithCondition: 'condition', WithFilter: 'filter', WithKeyCondition: 'keyCondition', WithProjection: 'projection', WithUpdate: 'update' };
/** `expr.Update()`... -> the tree it returns. */
export const GETTERS: Record<string, string> = { Condition: 'condition', Filter: 'filter', KeyCondition: 'keyCondition', Projection: 'projection', Update: 'update', Names: 'names', Values: 'values' };
const MAX_DEPTH = 48;
const MAX_NESTED = 4;

/** A getter of a zero value (`expr.Condition()` with no condition: nil): the field is not sent. */
const absentNodes = new WeakSet<VNode>();

export function isAbsent(v: VNode): boolean {
  return absentNodes.has(v);
}

/** The expression package's import path (v2 `feature/dynamodb/expression`, v1 `service/dynamodb/expression`). */
const EXPRESSION_PATH = /^github\.com\/aws\/aws-sdk-go(?:-v2)?\/(?:feature|service)\/dynamodb\/expression$/;

/**
 * The name the expression package is imported as (`name`: the import's own name, if any), or undefined when the
 * import is not it (or is `_` / `.`). Read from the file's import declarations (not its text: an import path in a
 * comment, or in an import the parser could not read, changes nothing, so an edit away from the imports never does).
 */
export function expressionAlias(path: string, name: string | undefined): string | undefined {
  if (!EXPRESSION_PATH.test(path)) return undefined;
  return name === '_' || name === '.' ? undefined : (name ?? 'expression');
}

export class GoBuilders {
  /** How many built values were handed out (a site reading one gets no fixes: its text is not where they are written). */
  served = 0;
  /** Getters being read (a `Value(e.Update())` reads another builder): nested at most MAX_NESTED deep. */
  private nested = 0;

  constructor(
    private readonly host: BuilderHost,
    private readonly pkg: string,
  ) {}

  /** `expr.Update()`, `expr.Names()`...: the built value, an absent marker (nil), or undefined when not a builder getter. */
  getter(call: TNode): VNode | undefined {
    const f = call.childForFieldName('function');
    if (f?.type !== 'selector_expression' || kids(call.childForFieldName('arguments')).length) return undefined;
    const which = GETTERS[this.host.src(f.childForFieldName('field')!)];
    const operand = f.childForFieldName('operand');
    if (!which || operand?.type !== 'identifier' || this.nested >= MAX_NESTED) return undefined;
    let b: B | undefined;
    this.nested++;
    try {
      b = this.eval(operand, 0);
    } finally {
      this.nested--;
    }
    if (b?.t !== 'expr') return undefined;
    const range = { start: call.startIndex, end: call.endIndex };
    const built = b.builder && render(b.builder, range);
    if (b.builder && !built) return undefined;
    this.served++;
    const v = built?.[which];
    if (v) return v;
    const nil: UnknownNode = { kind: 'unknown', range, text: this.host.src(call) };
    absentNodes.add(nil);
    return nil;
  }

  private eval(n: TNode, depth: number): B | undefined {
    if (depth > MAX_DEPTH) return undefined;
    while (n.type === 'parenthesized_expression') {
      const inner = kids(n)[0];
      if (!inner) return undefined;
      n = inner;
    }
    if (n.type === 'identifier') {
      const b = this.host.binding(n);
      if (!b) return undefined;
      if ('value' in b) return this.eval(b.value, depth + 1);
      return b.index === 0 ? this.tuple(b.tuple, depth + 1) : undefined;
    }
    if (n.type === 'composite_literal') {
      const type = n.childForFieldName('type');
      const t = type ? this.host.src(type).replace(/\s+/g, '') : '';
      const body = n.childForFieldName('body');
      if (body && kids(body).length) return undefined;
      if (t === `${this.pkg}.UpdateBuilder`) return { t: 'update', ops: new Map() };
      if (t === `${this.pkg}.Expression`) return { t: 'expr' };
      if (t === `${this.pkg}.Builder`) return { t: 'builder', trees: new Map() };
      return undefined;
    }
    if (n.type !== 'call_expression') return undefined;
    const f = n.childForFieldName('function');
    const args = kids(n.childForFieldName('arguments'));
    if (/\.\.\.\s*\)$/.test(this.host.src(n))) return undefined;
    if (f?.type !== 'selector_expression') return undefined;
    const operand = f.childForFieldName('operand')!;
    const field = this.host.src(f.childForFieldName('field')!);
    if (operand.type === 'identifier' && this.host.src(operand) === this.pkg) return this.fn(field, args, { start: n.startIndex, end: n.endIndex }, depth);
    const recv = this.eval(operand, depth + 1);
    return recv && this.method(recv, field, args, { start: f.childForFieldName('field')!.startIndex, end: n.endIndex }, depth);
  }

  /** The first result of a call returning two (`b.Build()`, a helper of the file returning `builder.Build()`). */
  private tuple(call: TNode, depth: number): B | undefined {
    if (depth > MAX_DEPTH || call.type !== 'call_expression') return undefined;
    const f = call.childForFieldName('function');
    if (f?.type === 'selector_expression') {
      const b = this.eval(call, depth);
      return b?.t === 'expr' ? b : undefined;
    }
    if (f?.type !== 'identifier') return undefined;
    const fn = this.host.helper(this.host.src(f));
    const body = fn?.childForFieldName('body');
    if (!body) return undefined;
    // Its returns, outside closures: the zero Expression{} aside (the caller gets no expression: nothing to read), one.
    const returns: TNode[] = [];
    const stack: TNode[] = [body];
    while (stack.length) {
      const x = stack.pop()!;
      if (x.type === 'func_literal') continue;
      if (x.type === 'return_statement') returns.push(x);
      else for (const c of kids(x)) stack.push(c);
    }
    const built: ExprB[] = [];
    for (const r of returns) {
      const list = kids(r)[0];
      const first = list?.type === 'expression_list' ? kids(list)[0] : list;
      if (!first) return undefined;
      const b = kids(list!).length === 1 ? this.tuple(first, depth + 1) : this.eval(first, depth + 1);
      if (b?.t !== 'expr') return undefined;
      if (b.builder) built.push(b);
    }
    return built.length === 1 ? built[0] : undefined;
  }

  private name(arg: TNode | undefined, split: boolean, call: Range): NameB | undefined {
    const v = arg && this.host.value(arg);
    if (v?.kind !== 'string' || !v.value) return undefined;
    const words = split ? v.value.split('.') : [v.value];
    const parts: NameB['parts'] = [];
    const dots: Range[] = [];
    let at = 0;
    for (const w of words) {
      if (parts.length) dots.push(stringRange(v, at - 1, at));
      const close = w.indexOf(']');
      if (!w || (close >= 0 && close !== w.length - 1)) return undefined;
      const open = w.endsWith(']') ? w.indexOf('[') : -1;
      const word = open >= 0 ? w.slice(0, open) : w;
      if (!word) return undefined;
      const lit = stringRange(v, at, at + word.length);
      parts.push({ name: word, r: { ...lit }, lit, ...(open >= 0 ? { suffix: { s: w.slice(open), r: stringRange(v, at + open, at + w.length) } } : {}) });
      at += w.length + 1;
    }
    // The operand is the whole call: an action or a comparison spans from its first `Name(` to its last `)`.
    parts[0].r.start = call.start;
    const last = parts[parts.length - 1];
    if (last.suffix) last.suffix.r.end = call.end;
    else last.r.end = call.end;
    return { t: 'name', parts, dots };
  }

  /** `expression.Value(x)`: x as attributevalue.Marshal writes it, as far as its Go type is known. */
  private value(arg: TNode | undefined, r: Range, asString = false): ValueB | undefined {
    if (!arg) return undefined;
    const v = this.host.value(arg);
    const text = this.host.src(arg);
    const av = (key: string, inner: VNode): VNode => ({ kind: 'object', properties: [{ key, keyRange: { start: r.start, end: r.start }, value: inner, range: { ...r } }], complete: true, range: { ...r } });
    let out: VNode;
    if (asString) out = av('S', v.kind === 'string' ? v : { kind: 'unknown', range: v.range, type: 'S' });
    else if (v.kind === 'object' && /AttributeValueMember\w+\s*\{|AttributeValue\s*\{/.test(text) && v.properties.length === 1) out = v;
    else if (v.kind === 'number') out = av('N', v);
    else if (v.kind === 'string') out = av('S', v);
    else if (v.kind === 'bool') out = av('BOOL', v);
    // A string first: `expression.Value(strconv.Itoa(-n))` is an S whatever the number's sign.
    else if (v.kind === 'unknown' && v.type === 'S') out = av('S', v);
    else if (v.kind === 'unknown' && v.sign) out = av('N', v);
    else out = { kind: 'unknown', range: { ...r }, text: text.slice(0, 120) };
    return { t: 'value', value: out, r };
  }

  private operand(n: TNode | undefined, depth: number): Operand | undefined {
    const b = n && this.eval(n, depth + 1);
    return b && (b.t === 'name' || b.t === 'value' || b.t === 'size' || b.t === 'key' || b.t === 'setv') ? b : undefined;
  }

  private cond(n: TNode | undefined, depth: number): CondB | undefined {
    const b = n && this.eval(n, depth + 1);
    return b?.t === 'cond' ? b : undefined;
  }

  private kcond(n: TNode | undefined, depth: number): KeyCondB | undefined {
    const b = n && this.eval(n, depth + 1);
    return b?.t === 'kcond' ? b : undefined;
  }

  private all<T>(xs: (T | undefined)[]): T[] | undefined {
    return xs.every((x) => x !== undefined) ? (xs as T[]) : undefined;
  }

  /** `expression.F(args)`. */
  private fn(field: string, args: TNode[], r: Range, depth: number): B | undefined {
    const op = (i: number) => this.operand(args[i], depth);
    switch (field) {
      case 'Name':
        return args.length === 1 ? this.name(args[0], true, r) : undefined;
      case 'NameNoDotSplit':
        return args.length === 1 ? this.name(args[0], false, r) : undefined;
      case 'Value':
        return args.length === 1 ? this.value(args[0], r) : undefined;
      case 'Key': {
        const v = args.length === 1 ? this.host.value(args[0]) : undefined;
        return v?.kind === 'string' && v.value ? { t: 'key', name: v.value, r, lit: stringRange(v, 0, v.value.length) } : undefined;
      }
      case 'Size': {
        const n = op(0);
        return n?.t === 'name' && args.length === 1 ? { t: 'size', name: n, r } : undefined;
      }
      case 'NewBuilder':
        return args.length === 0 ? { t: 'builder', trees: new Map() } : undefined;
      case 'NamesList': {
        const names = this.all(args.map((_, i) => op(i)));
        return names?.length && names.every((x) => x.t === 'name') ? { t: 'proj', names: names as NameB[], r } : undefined;
      }
      case 'Set':
      case 'Add':
      case 'Delete':
      case 'Remove':
        return this.method({ t: 'update', ops: new Map() }, field, args, r, depth);
      case 'And':
      case 'Or': {
        const conds = this.all(args.map((a) => this.cond(a, depth)));
        return conds && conds.length >= 2 ? { t: 'cond', mode: field.toUpperCase(), conds, operands: [], r } : undefined;
      }
      case 'Not': {
        const c = this.cond(args[0], depth);
        return c && args.length === 1 ? { t: 'cond', mode: 'NOT', conds: [c], operands: [], r } : undefined;
      }
      case 'KeyAnd': {
        const conds = this.all(args.map((a) => this.kcond(a, depth)));
        return conds && conds.length === 2 ? { t: 'kcond', mode: 'AND', conds, operands: [], r } : undefined;
      }
      case 'KeyBetween':
      case 'KeyBeginsWith': {
        const key = op(0);
        if (key?.t !== 'key') return undefined;
        if (field === 'KeyBeginsWith') {
          const v = args.length === 2 ? this.value(args[1], { start: args[1].startIndex, end: args[1].endIndex }, true) : undefined;
          return v && { t: 'kcond', mode: 'begins_with', conds: [], operands: [key, v], r };
        }
        const lo = op(1);
        const hi = op(2);
        return args.length === 3 && lo?.t === 'value' && hi?.t === 'value' ? { t: 'kcond', mode: 'BETWEEN', conds: [], operands: [key, lo, hi], r } : undefined;
      }
    }
    if (KEY_COMPARE[field]) {
      const key = op(0);
      const v = op(1);
      return args.length === 2 && key?.t === 'key' && v?.t === 'value' ? { t: 'kcond', mode: KEY_COMPARE[field], conds: [], operands: [key, v], r } : undefined;
    }
    if (SET_OPS[field]) {
      const [left, right] = [op(0), op(1)];
      if (args.length !== 2 || !left || !right || (field === 'IfNotExists' && left.t !== 'name')) return undefined;
      return { t: 'setv', fmt: SET_OPS[field], left, right, r };
    }
    // Condition functions: the first argument is the operand their method form is called on.
    const first = op(0);
    return first && (first.t === 'name' || first.t === 'value' || first.t === 'size') ? this.method(first, field, args.slice(1), r, depth) : undefined;
  }

  /** `recv.M(args)`. */
  private method(recv: B, field: string, args: TNode[], r: Range, depth: number): B | undefined {
    const op = (i: number) => this.operand(args[i], depth);
    switch (recv.t) {
      case 'name':
      case 'value':
      case 'size': {
        if (COMPARE[field]) {
          const right = op(0);
          return args.length === 1 && right ? { t: 'cond', mode: COMPARE[field], conds: [], operands: [recv, right], r } : undefined;
        }
        if (field === 'Between') {
          const [lo, hi] = [op(0), op(1)];
          return args.length === 2 && lo && hi ? { t: 'cond', mode: 'BETWEEN', conds: [], operands: [recv, lo, hi], r } : undefined;
        }
        if (field === 'In') {
          const rest = this.all(args.map((_, i) => op(i)));
          return rest?.length ? { t: 'cond', mode: 'IN', conds: [], operands: [recv, ...rest], r } : undefined;
        }
        if (recv.t === 'size') return undefined;
        if (SET_OPS[field]) {
          const right = op(0);
          if (args.length !== 1 || !right || (field === 'IfNotExists' && recv.t !== 'name')) return undefined;
          return { t: 'setv', fmt: SET_OPS[field], left: recv, right, r };
        }
        if (recv.t !== 'name') return undefined;
        if (field === 'Size' && !args.length) return { t: 'size', name: recv, r };
        if ((field === 'AttributeExists' || field === 'AttributeNotExists') && !args.length)
          return { t: 'cond', mode: field === 'AttributeExists' ? 'attribute_exists' : 'attribute_not_exists', conds: [], operands: [recv], r };
        if ((field === 'BeginsWith' || field === 'Contains') && args.length === 1) {
          const v = this.value(args[0], { start: args[0].startIndex, end: args[0].endIndex }, true);
          return v && { t: 'cond', mode: field === 'BeginsWith' ? 'begins_with' : 'contains', conds: [], operands: [recv, v], r };
        }
        if (field === 'AttributeType' && args.length === 1) {
          const v: ValueB = { t: 'value', value: { kind: 'object', properties: [{ key: 'S', keyRange: { start: r.start, end: r.start }, value: { kind: 'unknown', range: { start: args[0].startIndex, end: args[0].endIndex }, type: 'S' }, range: { start: args[0].startIndex, end: args[0].endIndex } }], complete: true, range: { start: args[0].startIndex, end: args[0].endIndex } }, r: { start: args[0].startIndex, end: args[0].endIndex } };
          return { t: 'cond', mode: 'attribute_type', conds: [], operands: [recv, v], r };
        }
        return undefined;
      }
      case 'key': {
        if (COMPARE[field] && field !== 'NotEqual') {
          const v = op(0);
          return args.length === 1 && v?.t === 'value' ? { t: 'kcond', mode: COMPARE[field], conds: [], operands: [recv, v], r } : undefined;
        }
        if (field === 'BeginsWith' && args.length === 1) {
          const v = this.value(args[0], { start: args[0].startIndex, end: args[0].endIndex }, true);
          return v && { t: 'kcond', mode: 'begins_with', conds: [], operands: [recv, v], r };
        }
        if (field === 'Between' && args.length === 2) {
          const [lo, hi] = [op(0), op(1)];
          return lo?.t === 'value' && hi?.t === 'value' ? { t: 'kcond', mode: 'BETWEEN', conds: [], operands: [recv, lo, hi], r } : undefined;
        }
        return undefined;
      }
      case 'kcond': {
        const right = field === 'And' && args.length === 1 ? this.kcond(args[0], depth) : undefined;
        return right && { t: 'kcond', mode: 'AND', conds: [recv, right], operands: [], r };
      }
      case 'cond': {
        if (field === 'Not' && !args.length) return { t: 'cond', mode: 'NOT', conds: [recv], operands: [], r };
        if (field !== 'And' && field !== 'Or') return undefined;
        const rest = this.all(args.map((a) => this.cond(a, depth)));
        return rest?.length ? { t: 'cond', mode: field.toUpperCase(), conds: [recv, ...rest], operands: [], r } : undefined;
      }
      case 'update': {
        const mode = { Set: 'SET', Add: 'ADD', Delete: 'DELETE', Remove: 'REMOVE' }[field];
        if (!mode) return undefined;
        const name = op(0);
        if (name?.t !== 'name' || args.length !== (mode === 'REMOVE' ? 1 : 2)) return undefined;
        let value: Operand | undefined;
        if (mode !== 'REMOVE') {
          value = op(1);
          if (!value || (mode !== 'SET' && value.t !== 'value')) return undefined;
        }
        const ops = new Map(recv.ops);
        ops.set(mode, [...(ops.get(mode) ?? []), { name, ...(value ? { value } : {}), r }]);
        return { t: 'update', ops };
      }
      case 'proj': {
        if (field !== 'AddNames') return undefined;
        const names = this.all(args.map((_, i) => op(i)));
        return names && names.every((x) => x.t === 'name') ? { t: 'proj', names: [...recv.names, ...(names as NameB[])], r: recv.r } : undefined;
      }
      case 'builder': {
        if (field === 'Build' && !args.length) return recv.trees.size ? { t: 'expr', builder: recv } : undefined;
        const tree = TREE_OF[field];
        if (!tree || args.length !== 1) return undefined;
        const b = this.eval(args[0], depth + 1);
        const want = tree === 'update' ? 'update' : tree === 'projection' ? 'proj' : tree === 'keyCondition' ? 'kcond' : 'cond';
        if (b?.t !== want) return undefined;
        const trees = new Map(recv.trees);
        trees.set(tree, b as Tree);
        return { t: 'builder', trees };
      }
      default:
        return undefined;
    }
  }
}

/* -------------------------------------------------------------------------------------------------------------------- */
/* Rendering (the SDK's fmtExpr templates)                                                                            */

function text(s: string, r: Range): Piece {
  return { s, r };
}

/** Pieces widened so that they span their builder call: from its start (or its receiver's) to its closing paren. */
function spanning(pieces: Piece[], r: Range): Piece[] {
  if (!pieces.length) return pieces;
  const out = [...pieces];
  // A loop, not Math.min(...): a spread of more than ~120,000 arguments throws a RangeError.
  let start = r.start;
  let end = r.end;
  for (const p of pieces) {
    if (p.r.start < start) start = p.r.start;
    if (p.r.end > end) end = p.r.end;
  }
  const first = out[0];
  out[0] = { ...first, r: { start, end: first.r.end } };
  const last = out[out.length - 1];
  out[out.length - 1] = { ...last, r: { start: last.r.start, end } };
  return out;
}

function operandPieces(o: Operand): Piece[] {
  switch (o.t) {
    case 'name': {
      const out: Piece[] = [];
      o.parts.forEach((p, i) => {
        if (i) out.push(text('.', o.dots[i - 1]));
        out.push({ name: p.name, r: p.r, lit: p.lit });
        if (p.suffix) out.push(text(p.suffix.s, p.suffix.r));
      });
      return out;
    }
    case 'value':
      return [{ value: o.value, r: o.r }];
    case 'key':
      return [{ name: o.name, r: o.r, lit: o.lit }];
    case 'size':
      return [text('size (', o.r), ...operandPieces(o.name), text(')', o.r)];
    case 'setv': {
      const [l, rr] = [operandPieces(o.left), operandPieces(o.right)];
      if (o.fmt === 'plus' || o.fmt === 'minus') return spanning([...l, text(o.fmt === 'plus' ? ' + ' : ' - ', o.r), ...rr], o.r);
      return [text(`${o.fmt}(`, o.r), ...l, text(', ', o.r), ...rr, text(')', o.r)];
    }
  }
}

function condPieces(c: CondB | KeyCondB): Piece[] {
  return spanning(condParts(c), c.r);
}

function condParts(c: CondB | KeyCondB): Piece[] {
  const kids = [...c.conds.map((x) => condPieces(x)), ...c.operands.map(operandPieces)];
  const t = (s: string) => text(s, c.r);
  switch (c.mode) {
    case 'AND':
    case 'OR':
      return kids.flatMap((k, i) => [t(i ? `) ${c.mode} (` : '('), ...k, ...(i === kids.length - 1 ? [t(')')] : [])]);
    case 'NOT':
      return [t('NOT ('), ...kids[0], t(')')];
    case 'BETWEEN':
      return [...kids[0], t(' BETWEEN '), ...kids[1], t(' AND '), ...kids[2]];
    case 'IN':
      return [...kids[0], t(' IN ('), ...kids.slice(1).flatMap((k, i) => [...(i ? [t(', ')] : []), ...k]), t(')')];
    case 'attribute_exists':
    case 'attribute_not_exists':
      return [t(`${c.mode} (`), ...kids[0], t(')')];
    case 'begins_with':
    case 'contains':
    case 'attribute_type':
      return [t(`${c.mode} (`), ...kids[0], t(', '), ...kids[1], t(')')];
    default:
      return [...kids[0], t(` ${c.mode} `), ...kids[1]];
  }
}

function updatePieces(u: UpdateB): Piece[] {
  const out: Piece[] = [];
  for (const mode of [...u.ops.keys()].sort()) {
    const ops = u.ops.get(mode)!;
    out.push(text(`${mode} `, ops[0].r));
    ops.forEach((op, i) => {
      if (i) out.push(text(', ', op.r));
      for (const p of operandPieces(op.name)) out.push(p);
      if (op.value) {
        out.push(text(mode === 'SET' ? ' = ' : ' ', op.r));
        for (const p of operandPieces(op.value)) out.push(p);
      }
    });
    out.push(text('\n', ops[ops.length - 1].r));
  }
  return out;
}

function treePieces(t: Tree): Piece[] {
  if (t.t === 'update') return updatePieces(t);
  if (t.t === 'proj') return t.names.flatMap((n, i) => [...(i ? [text(', ', t.r)] : []), ...operandPieces(n)]);
  return condPieces(t);
}

/** The Expression a builder builds: each tree's string, `names` and `values` (undefined entries when empty: nil). */
function render(b: BuilderB, range: Range): Record<string, VNode | undefined> | undefined {
  const names: { name: string; lit: Range }[] = [];
  const values: { value: VNode; r: Range }[] = [];
  const out: Record<string, VNode | undefined> = {};
  for (const type of [...b.trees.keys()].sort()) {
    const pieces = treePieces(b.trees.get(type)!);
    let value = '';
    const offsets: number[] = [];
    const ends: number[] = [];
    const emit = (s: string, r: Range) => {
      value += s;
      for (let i = 0; i < s.length; i++) {
        offsets.push(r.start);
        ends.push(r.end);
      }
    };
    for (const p of pieces) {
      if ('s' in p) emit(p.s, p.r);
      else if ('name' in p) {
        let i = names.findIndex((n) => n.name === p.name);
        if (i < 0) i = names.push({ name: p.name, lit: p.lit }) - 1;
        emit(`#${i}`, p.r);
      } else emit(`:${values.push({ value: p.value, r: p.r }) - 1}`, p.r);
    }
    if (!value) return undefined;
    offsets.push(ends[ends.length - 1]);
    const node: StringNode = { kind: 'string', value, offsets, ends, range: { ...range } };
    out[type] = node;
  }
  if (names.length) {
    const properties: Property[] = names.map((n, i) => ({ key: `#${i}`, keyRange: { ...n.lit }, value: nameString(n.name, n.lit), range: { ...n.lit } }));
    out.names = { kind: 'object', properties, complete: true, range: { ...range } } satisfies ObjectNode;
  }
  if (values.length) {
    const properties: Property[] = values.map((v, i) => ({ key: `:${i}`, keyRange: { ...v.r }, value: v.value, range: { ...v.r } }));
    out.values = { kind: 'object', properties, complete: true, range: { ...range } } satisfies ObjectNode;
  }
  return out;
}

/** A name's string, each char at the literal's char when the lengths agree (no escapes), else all at its range. */
function nameString(name: string, r: Range): StringNode {
  const direct = r.end - r.start === name.length;
  const offsets = Array.from({ length: name.length + 1 }, (_, i) => (direct ? r.start + i : i < name.length ? r.start : r.end));
  return direct ? { kind: 'string', value: name, offsets, range: { ...r } } : { kind: 'string', value: name, offsets, ends: Array.from({ length: name.length }, () => r.end), range: { ...r } };
}
