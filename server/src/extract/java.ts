/**
 * Java via web-tree-sitter + tree-sitter-java: the AWS SDK for Java 2.x request builders
 * (`UpdateItemRequest.builder().tableName(t).key(...).updateExpression("...").build()`, transactions of
 * `TransactWriteItem.builder().put(Put.builder()...build()).build()`) and the Enhanced Client's condition
 * `Expression.builder().expression("...").putExpressionValue(":v", av).build()` on `Put|Update|DeleteItemEnhancedRequest`.
 *
 * A builder chain is an object whose properties are its calls: `.tableName(x)` is `TableName: x` (its range the call
 * from its dot, its key range the method name), so rules read the same fields as everywhere. Attribute values:
 * `AttributeValue.builder().n("1").build()` and `AttributeValue.fromN("1")` are the low-level `{N: "1"}` (key range
 * `n` / the `N` of `fromN`). Maps: `Map.of(k, v, ...)`, `Map.ofEntries(Map.entry(k, v))`, `ImmutableMap.of`, and a
 * `new HashMap<>()` filled by `m.put(k, v)` statements before the use (incomplete when a put is conditional or in a
 * loop). Names resolve through local variables (latest before the use) and fields (`static final String`).
 */
import type { Node as TNode } from 'web-tree-sitter';
import { Op, State, applyAll, cloneTree, flatten, join, valueOf } from '../flow';
import { Api, ObjectNode, Property, Range, RequestSite, StringNode, UnknownNode, VNode } from './model';
import { JAVA_HOST } from './hosts';
import { decodeJava, decodeJavaTextBlock } from './host-strings';
import { concatStrings } from '../core/strings';
import { TreeHost, branchOf, dependOnWholeFile, expandAlternatives, forwardedCopy, kids, objectAlternatives } from './treehost';

const MAX_VALUE_DEPTH = 64;
const MAX_RESOLVE = 16;
/** Statements the data flow may interpret per request (as in the TS and Python hosts). */
const FLOW_BUDGET = 200_000;
/** Local helper methods followed from a call (a helper calling a helper...). */
const MAX_FORWARD_DEPTH = 3;
/** SDK for Java 1.x model classes built with `new X()` and `withY(...)` / `setY(...)`. */
const V1_MODELS = /^(\w+Request|TransactWriteItem|TransactGetItem|Put|Update|Delete|ConditionCheck|Get|AttributeValue|KeysAndAttributes|WriteRequest|PutRequest|DeleteRequest)$/;
/** SDK for Java 1.x chain calls: `withY(..)`, `addYEntry(k, v)`. */
const V1_CALL = /^(?:with[A-Z]\w*|add[A-Z]\w*Entry)$/;
/** Methods that only read a list, a map or a builder. */
const READS = /^(get|size|isEmpty|contains|containsKey|containsValue|stream|toString|build|equals|hashCode|iterator|keySet|values|entrySet|getOrDefault|indexOf|copy|toBuilder)$/;

const APIS = new Set<string>([
  'PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan', 'BatchWriteItem', 'BatchGetItem',
  'TransactWriteItems', 'TransactGetItems', 'ExecuteStatement', 'ExecuteTransaction', 'BatchExecuteStatement',
]);
const ENHANCED: Record<string, Api> = { PutItemEnhancedRequest: 'PutItem', UpdateItemEnhancedRequest: 'UpdateItem', DeleteItemEnhancedRequest: 'DeleteItem' };
/** `AttributeValue.builder()` methods and `AttributeValue.fromX` suffixes -> the low-level type key. */
const AV_METHODS: Record<string, string> = { s: 'S', n: 'N', b: 'B', bool: 'BOOL', nul: 'NULL', m: 'M', l: 'L', ss: 'SS', ns: 'NS', bs: 'BS' };
const FUNCS = new Set(['method_declaration', 'constructor_declaration']);
const TYPES = new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration']);
const LIST_FACTORIES = /^(List\.of|Arrays\.asList|Collections\.singletonList|ImmutableList\.of|Stream\.of)$/;
const MAP_FACTORIES = /^(Map\.of|ImmutableMap\.of|Collections\.singletonMap)$/;

const upperFirst = (s: string) => s[0].toUpperCase() + s.slice(1);
/** Client methods taking a consumer of the request builder: `ddb.updateItem(b -> b.tableName(t)...)`. */
const LAMBDA_APIS = new Map([...APIS].map((a) => [a[0].toLowerCase() + a.slice(1), a as Api]));

interface Decl {
  pos: number;
  value?: TNode;
  /** A formal parameter (bound when the method is followed from a call of this file). */
  param?: boolean;
}

/** How a local's statements change it: a list (`add`), a map (`put`), a v2 builder (`b.x(..)`), a v1 model (`setX`/`withX`). */
type Mode = { kind: 'list' } | { kind: 'map' } | { kind: 'builder'; cls: string } | { kind: 'v1'; cls: string };

interface FlowCtx {
  name: string;
  mode: Mode;
  use: TNode;
  mention: RegExp;
  depth: number;
  hops: number;
}

class JavaHost implements TreeHost {
  private text = '';
  /** Field initializers by name; null for a name declared more than once in the file (in two classes: ambiguous). */
  private fields = new Map<string, TNode | null>();
  /** Fields declared `final` (never written after their initializer). */
  private finals = new Set<string>();
  /** Names the file assigns (`x = ..`, `this.x += ..`, `X.y = ..`, `x++`): a field of that name that is not final is unknown. */
  private assigned = new Set<string>();
  private fnDecls = new Map<number, Map<string, Decl[]>>();
  /** Methods of the file's types by name (a helper is followed only when its name is unique). */
  private methods = new Map<string, TNode[]>();
  /** Parameters of a helper followed from a call: method node id -> name -> the argument's value in the caller. */
  private bindings = new Map<number, Map<string, VNode>>();
  private flowBudget = FLOW_BUDGET;
  /** Other units (helpers) the last `sites` call read. */
  private read: { range: Range; name: string }[] = [];
  /** Names `sends` looked up for the unit being read (each is in `read` once, by name). */
  private looked = new Set<string>();
  /** The unit `sites` is reading. */
  private reading = -1;

  /** Members of top-level types (methods are units; fields, nested types and the rest bind names: env). */
  units(root: TNode): { node: TNode; env: boolean; name?: string }[] {
    const out: { node: TNode; env: boolean; name?: string }[] = [];
    for (const top of kids(root)) {
      const body = TYPES.has(top.type) ? top.childForFieldName('body') : null;
      if (!body) {
        out.push({ node: top, env: true });
        continue;
      }
      for (const m of kids(body)) {
        const name = m.type === 'method_declaration' ? m.childForFieldName('name') : null;
        out.push({ node: m, env: !FUNCS.has(m.type), ...(name ? { name: name.text } : {}) });
      }
    }
    return out;
  }

  prepare(text: string, root: TNode): void {
    this.text = text;
    this.fields.clear();
    this.finals.clear();
    this.assigned.clear();
    this.fnDecls.clear();
    this.methods.clear();
    this.bindings.clear();
    const stack: TNode[] = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'method_declaration') {
        const name = n.childForFieldName('name');
        if (name) {
          const list = this.methods.get(this.src(name));
          if (list) list.push(n);
          else this.methods.set(this.src(name), [n]);
        }
        continue;
      }
      if (n.type === 'field_declaration') {
        const final = kids(n).some((c) => c.type === 'modifiers' && c.children.some((m) => m?.type === 'final'));
        for (const d of n.childrenForFieldName('declarator')) {
          const name = d?.childForFieldName('name');
          if (!name) continue;
          const key = this.src(name);
          const value = d?.childForFieldName('value');
          this.fields.set(key, this.fields.has(key) || !value ? null : value);
          if (final) this.finals.add(key);
        }
        continue;
      }
      if (n.type === 'program' || n.type === 'ERROR' || TYPES.has(n.type) || n.type === 'class_body' || n.type === 'interface_body' || n.type === 'enum_body' || n.type === 'enum_body_declarations')
        for (const c of kids(n)) stack.push(c);
      else if (TYPES.has(n.parent?.type ?? '')) for (const c of kids(n)) stack.push(c);
    }
    if ([...this.fields.keys()].some((k) => !this.finals.has(k))) this.writes(root);
  }

  /** Names the file writes: the left side of every assignment and the operand of `++` / `--` (a name, `this.x`, `A.x`). */
  private writes(root: TNode): void {
    const mark = (e: TNode | null | undefined) => {
      while (e?.type === 'parenthesized_expression') e = kids(e)[0];
      const name = e?.type === 'identifier' ? e : e?.type === 'field_access' ? e.childForFieldName('field') : undefined;
      if (name) this.assigned.add(this.src(name));
    };
    for (const n of root.descendantsOfType(['assignment_expression', 'update_expression'])) {
      if (n?.type === 'assignment_expression') mark(n.childForFieldName('left'));
      else if (n) mark(kids(n)[0]);
    }
  }

  /**
   * A field's initializer, when the field is declared once in the file and is final or never written in it. Whether
   * a method writes it can change with an edit anywhere: the unit reading it depends on the whole file.
   */
  private field(name: string): TNode | undefined {
    const f = this.fields.get(name);
    if (!f || this.finals.has(name)) return f ?? undefined;
    dependOnWholeFile(this.read, this.text.length);
    return this.assigned.has(name) ? undefined : f;
  }

  sites(unit: TNode): RequestSite[] {
    this.read = [];
    this.looked.clear();
    this.reading = unit.id;
    return this.sitesIn(unit, MAX_FORWARD_DEPTH - 1, [unit.id]);
  }

  /** Helpers (other units) the last `sites` call followed: their ranges and names. */
  deps(): { range: Range; name: string }[] {
    return this.read;
  }

  private sitesIn(unit: TNode, depth: number, stack: number[]): RequestSite[] {
    const out: RequestSite[] = [];
    const walk: TNode[] = [unit];
    while (walk.length) {
      const n = walk.pop()!;
      if (n.type === 'method_invocation') {
        const name = this.name(n);
        if (LAMBDA_APIS.has(name)) {
          const s = this.lambdaSite(n);
          if (s) {
            for (const x of expandAlternatives(s)) out.push(x);
            continue;
          }
        }
        if (name === 'build') {
          const root = this.builderRoot(n);
          const cls = root ? this.builderClass(root) : undefined;
          const api = cls ? this.apiOf(cls) : undefined;
          const s = api && cls ? this.site(n, api, cls) : undefined;
          const v = s ? undefined : this.builderVarSite(n);
          if (s || v) {
            for (const x of s ? expandAlternatives(s) : expandAlternatives(v!.site, v!.roots)) out.push(x);
            continue;
          }
        }
        if (V1_CALL.test(name) && !this.inChain(n)) {
          const s = this.v1Site(n);
          if (s) {
            for (const x of expandAlternatives(s.site, s.roots)) out.push(x);
            continue;
          }
        }
        if (depth >= 0) for (const x of this.forwardCall(n, depth, stack, FUNCS.has(unit.type) ? unit : undefined)) out.push(x);
      } else if (n.type === 'object_creation_expression' && !this.inChain(n)) {
        const s = this.v1Site(n);
        if (s) {
          for (const x of expandAlternatives(s.site, s.roots)) out.push(x);
          continue;
        }
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) walk.push(c);
      }
    }
    return out;
  }

  /**
   * Whether a method may send a request: its text builds one, or it calls a method of the file that may (every method
   * looked at is a dependency of the unit being read).
   */
  private sends(m: TNode, seen: Set<number>): boolean {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    const text = this.src(m);
    const name = m.childForFieldName('name');
    if (name && m.id !== this.reading) this.read.push({ range: this.range(m), name: this.src(name) });
    if (/Request|TransactWriteItem|\.builder\s*\(|\.(putItem|updateItem|deleteItem|transactWriteItems)\s*\(/.test(text)) return true;
    for (const call of text.matchAll(/(?<![\w.])(?:this\s*\.\s*)?([a-z_$][\w$]*)\s*\(/g)) {
      // The name is a dependency even when it resolves to no definition or several: one added later may send.
      if (!this.looked.has(call[1])) {
        this.looked.add(call[1]);
        this.read.push({ range: { start: -1, end: -1 }, name: call[1] });
      }
      const targets = this.methods.get(call[1]);
      if (targets?.length === 1 && this.sends(targets[0], seen)) return true;
    }
    return false;
  }

  /** Whether a call or creation is the receiver of a call (not the outermost link of its chain). */
  private inChain(n: TNode): boolean {
    const p = n.parent;
    return p?.type === 'method_invocation' && p.childForFieldName('object')?.id === n.id;
  }

  /** The innermost receiver of a chain `a.b().c().d()`: `a` (or the creation / call it starts with). */
  private chainBase(n: TNode): TNode {
    let cur = n;
    for (let i = 0; cur.type === 'method_invocation' && i < 500; i++) {
      const o = cur.childForFieldName('object');
      if (!o) break;
      cur = o;
    }
    return cur;
  }

  /** `new X()` / `new X<..>()`: the class name node. */
  private creationClass(n: TNode): TNode | undefined {
    let t = n.childForFieldName('type');
    if (t?.type === 'generic_type') t = kids(t)[0] ?? null;
    if (t?.type === 'scoped_type_identifier') t = kids(t).reverse()[0] ?? null;
    return t?.type === 'type_identifier' ? t : undefined;
  }

  /**
   * SDK for Java 1.x: `new UpdateItemRequest().withTableName(t).withUpdateExpression("...")` (or a bare `new
   * XRequest()` bound to a local and filled by `setY(...)` / `withY(...)` statements): the request as of its first use.
   */
  private v1Site(top: TNode): { site: RequestSite; roots: ObjectNode[] } | undefined {
    const base = this.chainBase(top);
    if (base.type !== 'object_creation_expression' || kids(base.childForFieldName('arguments')).length) return undefined;
    const cls = this.creationClass(base);
    const m = cls ? /^(\w+)Request$/.exec(this.src(cls)) : null;
    if (!cls || !m || !APIS.has(m[1])) return undefined;
    this.flowBudget = FLOW_BUDGET;
    const params = this.value(top, 0, 0);
    if (params.kind !== 'object') return undefined;
    let roots = [params];
    const bound = this.boundLocal(top);
    const use = bound && this.firstUse(bound.name, bound.after, bound.fn);
    const alts = use ? objectAlternatives(this.value(use, 0, 0)) : undefined;
    if (alts && alts.every((a) => a.range.start === params.range.start)) roots = alts;
    return { site: this.finish({ api: m[1] as Api, apiSource: 'call', style: 'low-level', host: JAVA_HOST, range: this.range(top), nameRange: this.range(cls), params: roots[0], sdk: 'aws-sdk-java-v1' }, top), roots };
  }

  /** `var r = <n>;` / `r = <n>;`: the local bound to it. */
  private boundLocal(n: TNode): { name: string; after: number; fn: TNode } | undefined {
    const p = n.parent;
    const fn = this.functionOf(n);
    if (!fn) return undefined;
    if (p?.type === 'variable_declarator' && p.childForFieldName('value')?.id === n.id) {
      const id = p.childForFieldName('name');
      return id ? { name: this.src(id), after: p.endIndex, fn } : undefined;
    }
    if (p?.type === 'assignment_expression' && p.childForFieldName('right')?.id === n.id && p.childForFieldName('left')?.type === 'identifier') return { name: this.src(p.childForFieldName('left')!), after: p.endIndex, fn };
    return undefined;
  }

  /**
   * Where a request held in a local is sent: the first mention after `after` (its own setter statements aside) passed
   * to a client method (`dynamo.updateItem(r)`), else the last mention (a local handed to another method first is read
   * after it: not whole).
   */
  private firstUse(name: string, after: number, fn: TNode): TNode | undefined {
    const walk: TNode[] = [fn];
    const uses: TNode[] = [];
    while (walk.length) {
      const n = walk.pop()!;
      if (n.endIndex <= after) continue;
      if (n.type === 'identifier' && n.startIndex >= after && this.src(n) === name) {
        const call = n.parent;
        const setter = call?.type === 'method_invocation' && call.childForFieldName('object')?.id === n.id && /^(set|with|add)[A-Z]/.test(this.name(call)) && call.parent?.type === 'expression_statement';
        if (!setter) uses.push(n);
        continue;
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) walk.push(c);
      }
    }
    uses.sort((x, y) => x.startIndex - y.startIndex);
    const sent = uses.find((u) => {
      const call = u.parent?.type === 'argument_list' ? u.parent.parent : undefined;
      return call?.type === 'method_invocation' && LAMBDA_APIS.has(this.name(call).replace(/Async$/, ''));
    });
    return sent ?? uses[uses.length - 1];
  }

  /** `b.build()` on a local builder (`UpdateItemRequest.Builder b = UpdateItemRequest.builder()...`, then `b.x(..);`). */
  private builderVarSite(build: TNode): { site: RequestSite; roots: ObjectNode[] } | undefined {
    if (kids(build.childForFieldName('arguments')).length) return undefined;
    const v = this.builderVarValue(build);
    if (!v) return undefined;
    const api = this.apiName(v.cls);
    if (!api) return undefined;
    const enhanced = ENHANCED[v.cls] !== undefined;
    const roots = enhanced ? v.alts.map((a) => this.enhanced(a)) : v.alts;
    return { site: this.finish({ api, apiSource: 'call', style: 'low-level', host: JAVA_HOST, range: this.range(build), nameRange: this.range(v.base), params: roots[0], sdk: enhanced ? 'aws-sdk-java-v2-enhanced' : 'aws-sdk-java-v2' }, build), roots };
  }

  /**
   * `b.build()` / `b.x(..).build()` on a local builder: its value at the chain (data flow), the chain's own calls
   * after it; the class whose builder it is.
   */
  private builderVarValue(build: TNode): { alts: ObjectNode[]; cls: string; base: TNode } | undefined {
    const calls: TNode[] = [];
    let base: TNode | null = build.childForFieldName('object');
    for (; base?.type === 'method_invocation'; base = base.childForFieldName('object')) calls.push(base);
    if (base?.type !== 'identifier') return undefined;
    const mode = this.modeAt(this.src(base), base);
    if (mode?.kind !== 'builder' || calls.some((c) => READS.test(this.name(c)))) return undefined;
    this.flowBudget = FLOW_BUDGET;
    let state: State = objectAlternatives(this.value(base, 0, 0));
    if (!state) return undefined;
    const f: FlowCtx = { name: this.src(base), mode, use: base, mention: /$^/, depth: 1, hops: 1 };
    for (const c of calls.reverse()) {
      const op = this.modeOp(c, this.name(c), kids(c.childForFieldName('arguments')), f, false);
      if (!op) return undefined;
      state = applyAll(state, op);
    }
    const alts = state && objectAlternatives(valueOf(state, this.unknown(base)));
    return alts ? { alts, cls: mode.cls, base } : undefined;
  }

  /** A site of the function around `at`: its enclosing function and the conditional arms it sits in. */
  private finish(s: RequestSite, at: TNode): RequestSite {
    const fn = this.functionOf(at);
    if (fn) {
      const name = fn.childForFieldName('name');
      s.enclosingFunction = { name: name ? this.src(name) : '', range: this.range(fn) };
      const branch = branchOf(at, fn);
      if (branch) s.branch = branch;
    }
    return s;
  }

  /**
   * A call of a method of this file (`updateCredits(apiKey, -amount)`, `this.save(item)`): the requests it sends, read
   * with its parameters bound to the call's arguments, seen at the call (`RequestSite.forwarded`), in the caller's
   * function and arms. Followed MAX_FORWARD_DEPTH deep; recursion stops.
   */
  private forwardCall(call: TNode, depth: number, stack: number[], unitFn?: TNode): RequestSite[] {
    const obj = call.childForFieldName('object');
    if (obj && obj.type !== 'this') return [];
    const name = this.name(call);
    // Whatever is found, this call's sites depend on the methods of that name (a helper typed later is followed then).
    if (!this.read.some((d) => d.name === name && d.range.start < 0)) this.read.push({ range: { start: -1, end: -1 }, name });
    const targets = this.methods.get(name);
    if (!targets) return [];
    const fn = unitFn ?? this.functionOf(call);
    if (!fn || !targets || targets.length !== 1 || stack.includes(targets[0].id)) return [];
    const target = targets[0];
    const formal = kids(target.childForFieldName('parameters'));
    const args = kids(call.childForFieldName('arguments'));
    if (formal.length !== args.length || formal.some((p) => p.type !== 'formal_parameter')) return [];
    if (!this.sends(target, new Set())) return [];
    this.read.push({ range: this.range(target), name });
    this.flowBudget = FLOW_BUDGET;
    const bound = new Map<string, VNode>();
    formal.forEach((p, i) => {
      const id = p.childForFieldName('name');
      if (id) bound.set(this.src(id), this.value(args[i], 1, 0));
    });
    const prev = this.bindings.get(target.id);
    this.bindings.set(target.id, bound);
    let inner: RequestSite[];
    try {
      inner = this.sitesIn(target, depth - 1, [...stack, target.id]);
    } finally {
      if (prev) this.bindings.set(target.id, prev);
      else this.bindings.delete(target.id);
    }
    const fnName = fn.childForFieldName('name');
    const at = { range: this.range(call), nameRange: this.range(call.childForFieldName('name')!), fn: { name: fnName ? this.src(fnName) : '', range: this.range(fn) }, branch: branchOf(call, fn) };
    return inner.map((s) => forwardedCopy(s, at));
  }

  /* ---------------------------------------------------------------------------------------------------------------- */

  private src(n: TNode): string {
    return this.text.slice(n.startIndex, n.endIndex);
  }

  private range(n: TNode): Range {
    return { start: n.startIndex, end: n.endIndex };
  }

  private name(call: TNode): string {
    const n = call.childForFieldName('name');
    return n ? this.src(n) : '';
  }

  /** The `X.builder(...)` call a chain `X.builder().a(..).b(..).build()` starts with. */
  private builderRoot(build: TNode): TNode | undefined {
    let n: TNode | null = build.childForFieldName('object');
    for (let i = 0; n && n.type === 'method_invocation' && i < 500; i++) {
      if (this.name(n) === 'builder') return n;
      n = n.childForFieldName('object');
    }
    return undefined;
  }

  /** The class whose builder it is: `UpdateItemRequest` of `UpdateItemRequest.builder()` (qualified names too). */
  private builderClass(root: TNode): TNode | undefined {
    const o = root.childForFieldName('object');
    if (!o) return undefined;
    if (o.type === 'identifier') return o;
    if (o.type === 'field_access') return o.childForFieldName('field') ?? undefined;
    return undefined;
  }

  private apiOf(cls: TNode): Api | undefined {
    return this.apiName(this.src(cls));
  }

  private apiName(name: string): Api | undefined {
    const m = /^(\w+)Request$/.exec(name);
    if (m && APIS.has(m[1])) return m[1] as Api;
    return ENHANCED[name];
  }

  /** `ddb.updateItem(b -> b.tableName(t).key(k)...)`: the lambda's chain on its parameter is the request. */
  private lambdaSite(call: TNode): RequestSite | undefined {
    const args = kids(call.childForFieldName('arguments'));
    const lambda = args.length === 1 && args[0].type === 'lambda_expression' ? args[0] : undefined;
    const params = lambda?.childForFieldName('parameters');
    const body = lambda?.childForFieldName('body');
    const param = params?.type === 'identifier' ? params : params && kids(params).length === 1 && kids(params)[0].type === 'identifier' ? kids(params)[0] : undefined;
    if (!lambda || !param || body?.type !== 'method_invocation') return undefined;
    this.flowBudget = FLOW_BUDGET;
    const v = this.chain(body, 0, 0, this.src(param));
    if (v.kind !== 'object' || !v.properties.length) return undefined;
    const nameNode = call.childForFieldName('name')!;
    const s: RequestSite = {
      api: LAMBDA_APIS.get(this.name(call))!,
      apiSource: 'call',
      style: 'low-level',
      host: JAVA_HOST,
      range: this.range(call),
      nameRange: this.range(nameNode),
      params: v,
      sdk: 'aws-sdk-java-v2',
    };
    return this.finish(s, call);
  }

  private site(build: TNode, api: Api, cls: TNode): RequestSite | undefined {
    this.flowBudget = FLOW_BUDGET;
    const enhanced = ENHANCED[this.src(cls)] !== undefined;
    let params = this.chain(build, 0, 0);
    if (params.kind !== 'object') return undefined;
    if (enhanced) params = this.enhanced(params);
    const s: RequestSite = {
      api,
      apiSource: 'call',
      style: 'low-level',
      host: JAVA_HOST,
      range: this.range(build),
      nameRange: this.range(cls),
      params,
      sdk: enhanced ? 'aws-sdk-java-v2-enhanced' : 'aws-sdk-java-v2',
    };
    return this.finish(s, build);
  }

  /**
   * An Enhanced Client request: its condition `Expression` becomes the request's ConditionExpression and maps; the
   * item's own attributes are not written out, so the request is incomplete.
   */
  private enhanced(o: ObjectNode): ObjectNode {
    const properties: Property[] = [];
    const expr = o.properties.find((p) => p.key === 'ConditionExpression');
    if (expr && expr.value.kind === 'object') {
      for (const p of expr.value.properties) {
        const key = p.key === 'Expression' ? 'ConditionExpression' : p.key === 'ExpressionValues' ? 'ExpressionAttributeValues' : p.key === 'ExpressionNames' ? 'ExpressionAttributeNames' : undefined;
        if (key) properties.push({ ...p, key });
      }
    } else if (expr) properties.push({ ...expr, value: { kind: 'unknown', range: expr.value.range, text: 'Expression' } });
    for (const p of o.properties) if (p.key === 'ReturnValues' || p.key === 'Key') properties.push(p);
    return { kind: 'object', properties, complete: false, range: o.range };
  }

  private functionOf(n: TNode): TNode | undefined {
    for (let p = n.parent; p; p = p.parent) if (FUNCS.has(p.type)) return p;
    return undefined;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Names                                                                                                            */

  private declsOf(fn: TNode): Map<string, Decl[]> {
    let m = this.fnDecls.get(fn.id);
    if (m) return m;
    m = new Map();
    const found: [string, Decl][] = [];
    const stack: TNode[] = [fn];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'formal_parameter' || n.type === 'spread_parameter' || n.type === 'catch_formal_parameter') {
        const id = n.childForFieldName('name') ?? kids(n).reverse().find((c) => c.type === 'identifier' || c.type === 'variable_declarator');
        if (id) found.push([this.src(id.type === 'variable_declarator' ? id.childForFieldName('name')! : id), { pos: n.startIndex, param: n.type === 'formal_parameter' }]);
      } else if (n.type === 'variable_declarator') {
        const name = n.childForFieldName('name');
        const value = n.childForFieldName('value');
        if (name) found.push([this.src(name), { pos: n.endIndex, value: value ?? undefined }]);
      } else if (n.type === 'assignment_expression') {
        const l = n.childForFieldName('left');
        const r = n.childForFieldName('right');
        const op = n.childForFieldName('operator');
        if (l?.type === 'identifier') found.push([this.src(l), { pos: n.endIndex, value: op && this.src(op) === '=' ? r ?? undefined : undefined }]);
      } else if (n.type === 'enhanced_for_statement' || n.type === 'lambda_expression') {
        for (const c of kids(n)) if (c.type === 'identifier') found.push([this.src(c), { pos: n.startIndex }]);
        const params = n.childForFieldName('parameters');
        if (params) for (const c of [params, ...kids(params)]) if (c.type === 'identifier') found.push([this.src(c), { pos: n.startIndex }]);
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) stack.push(c);
      }
    }
    found.sort((a, b) => a[1].pos - b[1].pos);
    for (const [name, d] of found) {
      const list = m.get(name);
      if (list) list.push(d);
      else m.set(name, [d]);
    }
    this.fnDecls.set(fn.id, m);
    return m;
  }

  /** The argument a followed helper's parameter is bound to, while its latest binding before `at` is the parameter. */
  private paramBinding(name: string, at: TNode): VNode | undefined {
    // Only while a helper is followed (node parents are costly in web-tree-sitter: not walked otherwise).
    if (!this.bindings.size) return undefined;
    const fn = this.functionOf(at);
    const bound = fn && this.bindings.get(fn.id)?.get(name);
    if (!fn || !bound) return undefined;
    const before = this.declsOf(fn).get(name)?.filter((d) => d.pos <= at.startIndex) ?? [];
    return before[before.length - 1]?.param ? cloneTree(bound) : undefined;
  }

  private lookup(name: string, at: TNode): { value: TNode; decl?: Decl; fn?: TNode } | undefined {
    const fn = this.functionOf(at);
    if (fn) {
      const list = this.declsOf(fn).get(name);
      const before = list?.filter((d) => d.pos <= at.startIndex) ?? [];
      const d = before[before.length - 1];
      if (d) return d.value ? { value: d.value, decl: d, fn } : undefined;
      if (list?.length) return undefined; // declared later in a scope we cannot order: unknown
    }
    const f = this.field(name);
    return f ? { value: f } : undefined;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Values                                                                                                           */

  private unknown(n: TNode, type?: 'S'): UnknownNode {
    return { kind: 'unknown', range: this.range(n), text: this.text.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 120)), ...(type ? { type } : {}) };
  }

  private value(n: TNode, depth: number, hops: number): VNode {
    while (n.type === 'parenthesized_expression' || n.type === 'cast_expression') {
      const inner = n.type === 'cast_expression' ? n.childForFieldName('value') : kids(n)[0];
      if (!inner) break;
      n = inner;
    }
    if (depth > MAX_VALUE_DEPTH) return this.unknown(n);
    const range = this.range(n);
    switch (n.type) {
      case 'string_literal':
        return this.string(n);
      case 'decimal_integer_literal':
      case 'hex_integer_literal':
      case 'octal_integer_literal':
      case 'binary_integer_literal':
      case 'decimal_floating_point_literal': {
        const t = this.src(n).replace(/_/g, '').replace(/[lLfFdD]$/, '');
        if (n.type === 'decimal_integer_literal' || n.type === 'decimal_floating_point_literal') return /^[0-9.eE+-]+$/.test(t) ? { kind: 'number', text: t, range } : this.unknown(n);
        try {
          return { kind: 'number', text: BigInt(n.type === 'octal_integer_literal' ? '0o' + t.slice(1) : t).toString(), range };
        } catch {
          return this.unknown(n);
        }
      }
      case 'true':
      case 'false':
        return { kind: 'bool', value: n.type === 'true', range };
      case 'unary_expression': {
        const op = n.childForFieldName('operator');
        const operand = n.childForFieldName('operand');
        const v = operand ? this.value(operand, depth + 1, hops) : undefined;
        if (v?.kind === 'number' && op && (this.src(op) === '-' || this.src(op) === '+')) return { kind: 'number', text: (this.src(op) === '-' ? '-' : '') + v.text, range };
        // `-amount`: a negative number of unknown magnitude (a decrement); `+x` keeps x's sign.
        if (v?.kind === 'unknown' && v.type !== 'S' && op && this.src(op) === '-') return { ...this.unknown(n), sign: v.sign === -1 ? 1 : -1 };
        if (v?.kind === 'unknown' && v.type !== 'S' && v.sign && op && this.src(op) === '+') return { ...this.unknown(n), sign: v.sign };
        return this.unknown(n);
      }
      case 'binary_expression': {
        const op = n.childForFieldName('operator');
        if (!op || this.src(op) !== '+') return this.unknown(n);
        const l = this.value(n.childForFieldName('left')!, depth + 1, hops);
        const r = this.value(n.childForFieldName('right')!, depth + 1, hops);
        if (l.kind === 'string' && r.kind === 'string') return concatStrings([l, r], range);
        return l.kind === 'string' || r.kind === 'string' || (l.kind === 'unknown' && l.type === 'S') || (r.kind === 'unknown' && r.type === 'S') ? this.unknown(n, 'S') : this.unknown(n);
      }
      case 'identifier': {
        const bound = this.paramBinding(this.src(n), n);
        if (bound) return bound;
        const found = hops < MAX_RESOLVE ? this.lookup(this.src(n), n) : undefined;
        if (!found) return this.unknown(n);
        const mode = found.decl && found.fn ? this.modeAt(this.src(n), n) : undefined;
        if (mode && found.fn) {
          const v = this.flow(this.src(n), mode, n, found.fn, depth, hops);
          if (v) return v;
          // Not readable statement by statement: a map read as before (puts before the use), anything else unknown.
          if (mode.kind !== 'map') return this.unknown(n);
        }
        if (found.decl && found.fn && found.value.type === 'object_creation_expression') return this.hashMap(found.value, this.src(n), found.decl.pos, n, found.fn, depth, hops);
        return this.value(found.value, depth, hops + 1);
      }
      case 'object_creation_expression':
        return this.creation(n, depth, hops);
      case 'field_access': {
        // `Constants.TABLE` / `this.table`: a field of this file by its name.
        const f = n.childForFieldName('field');
        const v = f && hops < MAX_RESOLVE ? this.field(this.src(f)) : undefined;
        return v ? this.value(v, depth, hops + 1) : this.unknown(n);
      }
      case 'method_invocation':
        return this.call(n, depth, hops);
      default:
        return this.unknown(n);
    }
  }

  private string(n: TNode): VNode {
    const s = this.src(n);
    const r = this.range(n);
    if (s.startsWith('"""')) {
      const end = s.length >= 6 && s.endsWith('"""') ? s.length - 3 : s.length;
      return decodeJavaTextBlock(s.slice(3, end), n.startIndex + 3, r) ?? this.unknown(n, 'S');
    }
    const body = s.length >= 2 && s.endsWith('"') ? s.slice(1, -1) : s.slice(1);
    const v: StringNode | undefined = decodeJava(body, n.startIndex + 1, r);
    return v ?? this.unknown(n, 'S');
  }

  /** Dotted text of a call's receiver and name (`Map.of`, `AttributeValue.fromN`) when the receiver is a plain name. */
  private callee(call: TNode): string {
    const o = call.childForFieldName('object');
    const name = this.name(call);
    if (!o) return name;
    return o.type === 'identifier' || o.type === 'field_access' ? `${this.src(o).replace(/\s+/g, '')}.${name}` : `?.${name}`;
  }

  private call(n: TNode, depth: number, hops: number): VNode {
    const name = this.name(n);
    const args = kids(n.childForFieldName('arguments'));
    const callee = this.callee(n).replace(/^java\.util\./, '');
    if (name === 'build' && this.builderRoot(n)) return this.chain(n, depth, hops);
    const obj = n.childForFieldName('object');
    // `b.build()` / `b.x(..).build()` of a local builder filled statement by statement.
    if (name === 'build' && !args.length && obj) {
      const v = this.builderVarValue(n);
      if (v) return valueOf(v.alts, this.unknown(n));
    }
    if (V1_CALL.test(name)) {
      const base = this.chainBase(n);
      const cls = base.type === 'object_creation_expression' && !kids(base.childForFieldName('arguments')).length ? this.creationClass(base) : undefined;
      if (cls && V1_MODELS.test(this.src(cls))) return this.v1Chain(n, this.src(cls), depth, hops);
    }
    if (/^(String\.valueOf|Integer\.toString|Long\.toString|Double\.toString|Objects\.toString)$/.test(callee) && args.length === 1) {
      // The number's text keeps its sign: `String.valueOf(-amount)` is still a decrement.
      const v = this.value(args[0], depth + 1, hops);
      if (v.kind === 'number') return v;
      return v.kind === 'unknown' && v.sign ? { ...this.unknown(n, 'S'), sign: v.sign } : this.unknown(n, 'S');
    }
    // AttributeValue.fromN("1") -> {N: "1"} (key range: the N).
    const from = /^(?:[\w.]*\.)?AttributeValue\.from(S|N|B|Bool|Nul|M|L|Ss|Ns|Bs)$/.exec(callee);
    if (from && args.length === 1) {
      const type = AV_METHODS[from[1].toLowerCase()];
      const nameNode = n.childForFieldName('name')!;
      const keyRange = { start: nameNode.endIndex - from[1].length, end: nameNode.endIndex };
      return { kind: 'object', properties: [{ key: type, keyRange, value: this.avInner(type, args, depth, hops), range: this.range(n) }], complete: true, range: this.range(n) };
    }
    if (MAP_FACTORIES.test(callee)) {
      if (args.length % 2) return this.unknown(n);
      const properties: Property[] = [];
      let complete = true;
      for (let i = 0; i < args.length; i += 2) {
        const p = this.entry(args[i], args[i + 1], { start: args[i].startIndex, end: args[i + 1].endIndex }, depth, hops);
        if (p) properties.push(p);
        else complete = false;
      }
      return { kind: 'object', properties, complete, range: this.range(n) };
    }
    if (callee === 'Map.ofEntries') {
      const properties: Property[] = [];
      let complete = true;
      for (const a of args) {
        const inner = a.type === 'method_invocation' && /^(Map\.entry|entry|AbstractMap\.SimpleEntry)$/.test(this.callee(a)) ? kids(a.childForFieldName('arguments')) : [];
        const p = inner.length === 2 ? this.entry(inner[0], inner[1], this.range(a), depth, hops) : undefined;
        if (p) properties.push(p);
        else complete = false;
      }
      return { kind: 'object', properties, complete, range: this.range(n) };
    }
    if (LIST_FACTORIES.test(callee)) return { kind: 'array', items: args.map((a) => this.value(a, depth + 1, hops)), complete: true, range: this.range(n) };
    if (/^(String\.valueOf|String\.format|Integer\.toString|Long\.toString|String\.join|\?\.toString)$/.test(callee)) return this.unknown(n, 'S');
    return this.unknown(n);
  }

  private avInner(type: string, args: TNode[], depth: number, hops: number): VNode {
    if ((type === 'SS' || type === 'NS' || type === 'BS') && args.length !== 1) return { kind: 'array', items: args.map((a) => this.value(a, depth + 1, hops)), complete: true, range: { start: args[0]?.startIndex ?? 0, end: args[args.length - 1]?.endIndex ?? 0 } };
    const v = this.value(args[0], depth + 1, hops);
    if (type === 'B' && v.kind === 'unknown') return { kind: 'binary', range: v.range };
    return v;
  }

  private entry(k: TNode, v: TNode, range: Range, depth: number, hops: number): Property | undefined {
    const key = this.value(k, depth + 1, hops);
    if (key.kind !== 'string') return undefined;
    // A copy: the caller's range is also the gathering map's property range (ranges are shifted in place).
    return { key: key.value, keyRange: this.range(k), value: this.value(v, depth + 1, hops), range: { ...range } };
  }

  /**
   * A builder chain `X.builder().a(1).b(2).build()`: `{A: 1, B: 2}` (AttributeValue's: `{N: ...}`; the Enhanced
   * Client's `putExpressionValue(k, v)` / `putExpressionName(k, v)` gather into maps).
   */
  private chain(build: TNode, depth: number, hops: number, param?: string, open = false): VNode {
    const calls: TNode[] = [];
    let root: TNode | undefined;
    // With `param` (a consumer lambda's builder), every call down to the parameter is a field, `build` included; an
    // `open` chain (a builder held in a local, not built yet) has no `build` at its end.
    let n: TNode | null = param || open ? build : build.childForFieldName('object');
    for (; n && n.type === 'method_invocation'; n = n.childForFieldName('object')) {
      if (!param && this.name(n) === 'builder') {
        root = n;
        break;
      }
      calls.push(n);
    }
    if (param) {
      if (n?.type !== 'identifier' || this.src(n) !== param) return this.unknown(build);
      root = n;
    }
    if (!root) return this.unknown(build);
    calls.reverse();
    const cls = param ? undefined : this.builderClass(root);
    const av = cls && this.src(cls) === 'AttributeValue';
    const properties: Property[] = [];
    const gathered = new Map<string, ObjectNode>();
    let complete = true;
    for (const c of calls) {
      const nameNode = c.childForFieldName('name')!;
      const name = this.src(nameNode);
      const args = kids(c.childForFieldName('arguments'));
      // From the dot before the method name to the closing parenthesis.
      const range = this.callRange(c);
      if (av) {
        const type = AV_METHODS[name];
        if (!type || !args.length) {
          complete = false;
          continue;
        }
        properties.push({ key: type, keyRange: this.range(nameNode), value: this.avInner(type, args, depth, hops), range });
        continue;
      }
      const put = /^put(ExpressionValue|ExpressionName)$/.exec(name);
      if (put && args.length === 2) {
        const key = put[1] === 'ExpressionValue' ? 'ExpressionValues' : 'ExpressionNames';
        let map = gathered.get(key);
        if (!map) {
          map = { kind: 'object', properties: [], complete: true, range: { ...range } };
          gathered.set(key, map);
          properties.push({ key, keyRange: this.range(nameNode), value: map, range });
        }
        const p = this.entry(args[0], args[1], range, depth, hops);
        if (p) map.properties.push(p);
        else map.complete = false;
        map.range = { start: map.range.start, end: range.end };
        continue;
      }
      if (name === 'overrideConfiguration' || name === 'returnConsumedCapacity' || name === 'returnItemCollectionMetrics') {
        properties.push({ key: upperFirst(name), keyRange: this.range(nameNode), value: this.unknown(c), range });
        continue;
      }
      properties.push({ key: upperFirst(name), keyRange: this.range(nameNode), value: this.argValue(c, name, args, depth, hops), range });
    }
    return { kind: 'object', properties, complete, range: { start: root.startIndex, end: build.endIndex } };
  }

  /** The value a builder call sets: its argument (several: a list; `.transactItems(item)`, varargs of one: a list of one). */
  private argValue(c: TNode, name: string, args: TNode[], depth: number, hops: number): VNode {
    if (!args.length) return this.unknown(c);
    if (args.length > 1) return { kind: 'array', items: args.map((a) => this.value(a, depth + 1, hops)), complete: true, range: { start: args[0].startIndex, end: args[args.length - 1].endIndex } };
    const value = this.value(args[0], depth + 1, hops);
    if (/^(transactItems|transactStatements|statements)$/i.test(name) && value.kind === 'object') return { kind: 'array', items: [value], complete: true, range: { ...value.range } };
    return value;
  }

  /** From the dot before a call's name to its closing parenthesis (a builder entry's range). */
  private callRange(c: TNode): Range {
    const nameNode = c.childForFieldName('name')!;
    const obj = c.childForFieldName('object');
    const dot = obj ? this.text.indexOf('.', obj.endIndex) : -1;
    return { start: dot >= 0 && dot < nameNode.startIndex ? dot : nameNode.startIndex, end: c.endIndex };
  }

  /**
   * SDK for Java 1.x: `new X().withA(1).withB(2)` -> `{A: 1, B: 2}`; `new AttributeValue().withN("1")` -> `{N: "1"}`
   * (key range `withN`, whose `N` a type fix rewrites); `addAEntry(k, v)` gathers into map A.
   */
  private v1Chain(top: TNode, cls: string, depth: number, hops: number): VNode {
    const calls: TNode[] = [];
    let n: TNode | null = top;
    for (; n && n.type === 'method_invocation'; n = n.childForFieldName('object')) calls.push(n);
    if (!n) return this.unknown(top);
    calls.reverse();
    const properties: Property[] = [];
    const gathered = new Map<string, ObjectNode>();
    let complete = true;
    for (const c of calls) {
      const nameNode = c.childForFieldName('name')!;
      const name = this.src(nameNode);
      const args = kids(c.childForFieldName('arguments'));
      const range = this.callRange(c);
      const entry = /^add(\w+)Entry$/.exec(name);
      if (entry && args.length === 2) {
        let map = gathered.get(entry[1]);
        if (!map) {
          map = { kind: 'object', properties: [], complete: true, range: { ...range } };
          gathered.set(entry[1], map);
          properties.push({ key: entry[1], keyRange: this.range(nameNode), value: map, range });
        }
        const p = this.entry(args[0], args[1], range, depth, hops);
        if (p) map.properties.push(p);
        else map.complete = false;
        map.range = { start: map.range.start, end: range.end };
        continue;
      }
      const m = /^with([A-Z]\w*)$/.exec(name);
      if (!m || !args.length) {
        complete = false;
        continue;
      }
      properties.push({ key: cls === 'AttributeValue' ? m[1].toUpperCase() : m[1], keyRange: this.range(nameNode), value: this.argValue(c, m[1], args, depth, hops), range });
    }
    return { kind: 'object', properties, complete, range: this.range(top) };
  }

  /** `new ArrayList<>()`, `new HashMap<>(m)`, v1 `new UpdateItemRequest()` / `new AttributeValue("x")`. */
  private creation(n: TNode, depth: number, hops: number): VNode {
    const cls = this.creationClass(n);
    const name = cls ? this.src(cls) : '';
    const args = kids(n.childForFieldName('arguments'));
    if (n.childForFieldName('body')) return this.unknown(n);
    const range = this.range(n);
    if (/^(ArrayList|LinkedList|Vector|CopyOnWriteArrayList)$/.test(name)) {
      if (!args.length) return { kind: 'array', items: [], complete: true, range };
      const v = args.length === 1 ? this.value(args[0], depth + 1, hops) : undefined;
      if (v?.kind === 'array') return { ...v, range };
      return v?.kind === 'number' ? { kind: 'array', items: [], complete: true, range } : this.unknown(n);
    }
    if (/^(HashMap|LinkedHashMap|TreeMap|ConcurrentHashMap)$/.test(name)) {
      if (!args.length) return { kind: 'object', properties: [], complete: true, range };
      const v = args.length === 1 ? this.value(args[0], depth + 1, hops) : undefined;
      if (v?.kind === 'object') return { ...v, range };
      return v?.kind === 'number' ? { kind: 'object', properties: [], complete: true, range } : this.unknown(n);
    }
    if (name === 'AttributeValue' && args.length === 1) {
      // v1 `new AttributeValue("x")` is a string attribute.
      return { kind: 'object', properties: [{ key: 'S', keyRange: this.range(cls!), value: this.value(args[0], depth + 1, hops), range: { ...range } }], complete: true, range };
    }
    if (V1_MODELS.test(name) && !args.length) return { kind: 'object', properties: [], complete: true, range };
    return this.unknown(n);
  }

  /**
   * `Map<..> m = new HashMap<>(); m.put(k, v); ...` before the use: the puts are the entries (each entry's range is its
   * statement). A put under a condition or in a loop, or any other use of `m` in between, makes the map incomplete.
   */
  private hashMap(creation: TNode, name: string, from: number, use: TNode, fn: TNode, depth: number, hops: number): VNode {
    const type = creation.childForFieldName('type');
    if (!type || !/^(HashMap|LinkedHashMap|TreeMap)\b/.test(this.src(type)) || kids(creation.childForFieldName('arguments')).length) return this.unknown(use);
    const properties: Property[] = [];
    let complete = true;
    const stack: TNode[] = [fn];
    const puts: TNode[] = [];
    let mentions = 0;
    while (stack.length) {
      const n = stack.pop()!;
      if (n.endIndex <= from || n.startIndex >= use.startIndex) continue;
      if (n.type === 'identifier' && this.src(n) === name && n.startIndex >= from) mentions++;
      if (n.type === 'method_invocation' && this.name(n) === 'put' && n.childForFieldName('object')?.type === 'identifier' && this.src(n.childForFieldName('object')!) === name) puts.push(n);
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) stack.push(c);
      }
    }
    if (mentions !== puts.length) complete = false;
    for (const p of puts.sort((a, b) => a.startIndex - b.startIndex)) {
      const args = kids(p.childForFieldName('arguments'));
      const stmt = p.parent?.type === 'expression_statement' ? p.parent : p;
      for (let q = p.parent; q && q.id !== fn.id; q = q.parent)
        if (/^(if_statement|for_statement|enhanced_for_statement|while_statement|do_statement|switch_expression|ternary_expression|lambda_expression|try_statement)$/.test(q.type)) complete = false;
      const e = args.length === 2 ? this.entry(args[0], args[1], this.range(stmt), depth, hops) : undefined;
      if (e) properties.push(e);
      else complete = false;
    }
    return { kind: 'object', properties, complete, range: this.range(creation) };
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Data flow of a local (server/src/flow holds the model; this binds Java's statements to it)                       */

  /** The kind of a local at `at`: from its latest binding that is not its own chain (`b = b.x(..)` keeps b's kind). */
  private modeAt(name: string, at: TNode): Mode | undefined {
    const fn = this.functionOf(at);
    const list = fn ? this.declsOf(fn).get(name)?.filter((d) => d.pos <= at.startIndex) : undefined;
    for (let i = (list?.length ?? 0) - 1; i >= 0; i--) {
      const v = list![i].value;
      if (!v) return undefined;
      const base = this.chainBase(v);
      if (v.type === 'method_invocation' && base.type === 'identifier' && this.src(base) === name) continue;
      return this.modeOf(v);
    }
    return undefined;
  }

  /** How statements change a local initialised with `init`, or undefined when the flow does not read it. */
  private modeOf(init: TNode): Mode | undefined {
    if (init.type === 'object_creation_expression') {
      const cls = this.creationClass(init);
      const name = cls ? this.src(cls) : '';
      if (/^(ArrayList|LinkedList|Vector|CopyOnWriteArrayList)$/.test(name)) return { kind: 'list' };
      if (/^(HashMap|LinkedHashMap|TreeMap|ConcurrentHashMap)$/.test(name)) return { kind: 'map' };
      if (V1_MODELS.test(name) && !kids(init.childForFieldName('arguments')).length) return { kind: 'v1', cls: name };
      return undefined;
    }
    if (init.type !== 'method_invocation') return undefined;
    const callee = this.callee(init).replace(/^java\.util\./, '');
    if (LIST_FACTORIES.test(callee)) return { kind: 'list' };
    const base = this.chainBase(init);
    if (base.type === 'object_creation_expression' && V1_CALL.test(this.name(init))) {
      const cls = this.creationClass(base);
      return cls && V1_MODELS.test(this.src(cls)) && !kids(base.childForFieldName('arguments')).length ? { kind: 'v1', cls: this.src(cls) } : undefined;
    }
    if (this.name(init) === 'build') return undefined;
    const root = this.name(init) === 'builder' ? init : this.builderRoot(init);
    const cls = root ? this.builderClass(root) : undefined;
    return cls ? { kind: 'builder', cls: this.src(cls) } : undefined;
  }

  /**
   * What the local `name` holds at `use`: its method's statements read in order up to the one holding the use (its
   * declaration, `add`/`addAll`, `put`/`putAll`, builder calls `b.x(..)`, v1 `setX`/`withX`, reassignment), `if`/`else`
   * arms joined as alternatives, arms ending in `return`/`throw` dropped, loops read as zero or more passes (an `add`
   * there is a representative: `samples`). Undefined when not readable (a use inside a lambda or local class, the budget
   * spent): the caller falls back.
   */
  private flow(name: string, mode: Mode, use: TNode, fn: TNode, depth: number, hops: number): VNode | undefined {
    const body = fn.childForFieldName('body');
    if (!body || hops >= MAX_RESOLVE || this.flowBudget <= 0) return undefined;
    for (let p = use.parent; p && p.id !== fn.id; p = p.parent) if (p.type === 'lambda_expression' || p.type === 'class_body') return undefined;
    const f: FlowCtx = { name, mode, use, mention: new RegExp(`(?<![\\w.$])${name.replace(/\$/g, '\\$')}(?![\\w$])`), depth: depth + 1, hops: hops + 1 };
    const r = this.jSteps(kids(body), [], f, 0);
    if (!r.reached || r.state === 'dead' || r.state?.length === 0) return undefined;
    return valueOf(r.state, this.unknown(use));
  }

  private jSteps(stmts: TNode[], state: State | 'dead', f: FlowCtx, nest: number): { state: State | 'dead'; reached: boolean } {
    let s = state;
    for (const st of stmts) {
      if (s === 'dead') return { state: s, reached: false };
      if (st.startIndex <= f.use.startIndex && f.use.endIndex <= st.endIndex) return { state: this.jInto(st, s, f, nest), reached: true };
      s = this.jStep(st, s, f, nest, false);
    }
    return { state: s, reached: false };
  }

  /** The state at the use, inside the statement holding it. */
  private jInto(st: TNode, s: State, f: FlowCtx, nest: number): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    const inside = (n: TNode | null | undefined) => !!n && n.startIndex <= f.use.startIndex && f.use.endIndex <= n.endIndex;
    const block = (n: TNode) => (n.type === 'block' ? kids(n) : [n]);
    switch (st.type) {
      case 'if_statement': {
        const cons = st.childForFieldName('consequence');
        const alt = st.childForFieldName('alternative');
        if (cons && inside(cons)) return this.jSteps(block(cons), s, f, nest + 1).state;
        if (alt && inside(alt)) return this.jSteps(block(alt), s, f, nest + 1).state;
        return s;
      }
      case 'block':
        return this.jSteps(kids(st), s, f, nest + 1).state;
      case 'try_statement':
      case 'try_with_resources_statement': {
        const body = st.childForFieldName('body');
        if (body && inside(body)) return this.jSteps(kids(body), s, f, nest + 1).state;
        return this.jChanges(this.src(st), f) ? undefined : s;
      }
      case 'for_statement':
      case 'enhanced_for_statement':
      case 'while_statement':
      case 'do_statement': {
        // What the body changes may have run before (another pass); a local declared in the body starts afresh.
        const body = st.childForFieldName('body');
        const again = this.jChanges(this.src(st), f) ? this.jUnreadable(s, this.src(st), f) : s;
        if (body && inside(body)) return this.jSteps(block(body), again, f, nest + 1).state;
        return again;
      }
      case 'local_variable_declaration':
      case 'expression_statement':
      case 'return_statement':
      case 'throw_statement':
        return s;
      default:
        return this.jChanges(this.src(st), f) ? this.jUnreadable(s, this.src(st), f) : s;
    }
  }

  /** The state after a statement that does not hold the use. */
  private jStep(st: TNode, s: State, f: FlowCtx, nest: number, loop: boolean): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    if (st.type === 'return_statement' || st.type === 'throw_statement') return 'dead';
    const text = this.src(st);
    if (!f.mention.test(text)) return s;
    const block = (n: TNode) => (n.type === 'block' ? kids(n) : [n]);
    switch (st.type) {
      case 'local_variable_declaration': {
        for (const d of st.childrenForFieldName('declarator')) {
          const id = d?.childForFieldName('name');
          if (!d || !id || this.src(id) !== f.name) continue;
          const v = d.childForFieldName('value');
          return v ? flatten([this.initValue(v, f)]) : [];
        }
        break;
      }
      case 'expression_statement': {
        const e = kids(st)[0];
        const op = e ? this.jOp(e, f, loop) : undefined;
        if (op === 'same') return s;
        if (op && 'state' in op) return op.state;
        if (op) {
          let cur = s;
          for (const o of op) cur = applyAll(cur, o);
          return cur;
        }
        break;
      }
      case 'if_statement': {
        const cond = st.childForFieldName('condition');
        if (cond && this.jChanges(this.src(cond), f)) return this.jUnreadable(s, text, f);
        const cons = st.childForFieldName('consequence');
        const alt = st.childForFieldName('alternative');
        return join(cons ? this.jBlock(block(cons), s, f, nest + 1, loop) : s, alt ? this.jBlock(block(alt), s, f, nest + 1, loop) : s);
      }
      case 'block':
        return this.jBlock(kids(st), s, f, nest + 1, loop);
      case 'for_statement':
      case 'enhanced_for_statement':
      case 'while_statement':
      case 'do_statement': {
        // Zero or more passes: an `add` is a representative, anything else makes the value not whole. `break`/`continue`
        // inside: not read.
        const body = st.childForFieldName('body');
        const head = body ? this.text.slice(st.startIndex, body.startIndex) : text;
        if (!body || /\b(?:break|continue)\b/.test(text) || this.jChanges(head, f)) return this.jUnreadable(s, text, f);
        const r = this.jBlock(block(body), s, f, nest + 1, true);
        return r === 'dead' ? s : r;
      }
    }
    return this.jChanges(text, f) ? this.jUnreadable(s, text, f) : s;
  }

  private jBlock(stmts: TNode[], s: State, f: FlowCtx, nest: number, loop: boolean): State | 'dead' {
    let cur: State | 'dead' = s;
    for (const x of stmts) {
      if (cur === 'dead') break;
      cur = this.jStep(x, cur, f, nest, loop);
    }
    return cur;
  }

  /** A local's value from its initialiser (a builder not built yet: its calls so far). */
  private initValue(v: TNode, f: FlowCtx): VNode {
    if (f.mode.kind === 'builder' && v.type === 'method_invocation' && this.name(v) !== 'build') return this.chain(v, f.depth, f.hops, undefined, true);
    return this.value(v, f.depth, f.hops);
  }

  /** The changes an expression statement makes: ops, a new state (`x = ...`), `same` (only reads), undefined (not read). */
  private jOp(e: TNode, f: FlowCtx, loop: boolean): Op[] | { state: State } | 'same' | undefined {
    const mentions = (n: TNode | null | undefined) => !!n && f.mention.test(this.src(n));
    if (e.type === 'assignment_expression') {
      const l = e.childForFieldName('left');
      const r = e.childForFieldName('right');
      const op = e.childForFieldName('operator');
      if (l?.type !== 'identifier' || this.src(l) !== f.name) return this.jChanges(this.src(e), f) ? undefined : 'same';
      if (!r || !op || this.src(op) !== '=' || loop) return undefined;
      // `b = b.x(..)`: the builder's own calls.
      if (mentions(r)) return r.type === 'method_invocation' ? this.chainOps(r, f, loop) : undefined;
      return { state: flatten([this.initValue(r, f)]) };
    }
    if (e.type === 'method_invocation') {
      const base = this.chainBase(e);
      if (base.type !== 'identifier' || this.src(base) !== f.name) return this.jChanges(this.src(e), f) ? undefined : 'same';
      return this.chainOps(e, f, loop);
    }
    return this.jChanges(this.src(e), f) ? undefined : 'same';
  }

  /** The calls of a chain on the local (`items.add(x)`, `b.tableName(t).key(k)`, `r.withX(..)`) as ops. */
  private chainOps(top: TNode, f: FlowCtx, loop: boolean): Op[] | 'same' | undefined {
    const calls: TNode[] = [];
    for (let n: TNode | null = top; n && n.type === 'method_invocation'; n = n.childForFieldName('object')) calls.push(n);
    calls.reverse();
    const ops: Op[] = [];
    const chained = f.mode.kind === 'builder' || f.mode.kind === 'v1';
    for (const [i, c] of calls.entries()) {
      const args = kids(c.childForFieldName('arguments'));
      if (args.some((a) => f.mention.test(this.src(a)))) return undefined;
      const name = this.name(c);
      // A list's or map's call returns something else: the rest of the chain does not change the local.
      if (i > 0 && !chained) break;
      if (READS.test(name)) {
        if (chained && name !== 'build' && name !== 'toBuilder' && !/^get/.test(name)) return undefined;
        break;
      }
      const op = this.modeOp(c, name, args, f, loop);
      if (!op) return undefined;
      ops.push(op);
    }
    return ops.length ? ops : 'same';
  }

  private modeOp(c: TNode, name: string, args: TNode[], f: FlowCtx, loop: boolean): Op | undefined {
    const { depth, hops } = f;
    const stmt = c.parent?.type === 'expression_statement' ? c.parent : c;
    switch (f.mode.kind) {
      case 'list': {
        if (name === 'add' && args.length === 1) {
          const item = this.value(args[0], depth, hops);
          return loop ? { kind: 'push', items: [item], complete: false, samples: 1 } : { kind: 'push', items: [item], complete: true };
        }
        if (name === 'addAll' && args.length === 1) {
          const v = this.value(args[0], depth, hops);
          if (v.kind !== 'array') return { kind: 'opaque', deep: false };
          return loop ? { kind: 'push', items: v.items, complete: false, samples: v.items.length } : { kind: 'push', items: v.items, complete: v.complete, ...(v.samples ? { samples: v.samples } : {}) };
        }
        return undefined;
      }
      case 'map': {
        if (name === 'put' && args.length === 2) {
          const k = this.value(args[0], depth, hops);
          if (k.kind !== 'string' || loop) return { kind: 'opaque', deep: false };
          return { kind: 'set', path: [k.value], keyRange: this.range(args[0]), value: this.value(args[1], depth, hops), range: this.range(stmt) };
        }
        if (name === 'putAll' && args.length === 1 && !loop) return { kind: 'merge', value: this.value(args[0], depth, hops) };
        return undefined;
      }
      case 'builder':
      case 'v1': {
        if (loop) return { kind: 'opaque', deep: false };
        const nameNode = c.childForFieldName('name')!;
        let key: string | undefined;
        if (f.mode.kind === 'v1') {
          const m = /^(?:with|set)([A-Z]\w*)$/.exec(name);
          key = m ? (f.mode.cls === 'AttributeValue' ? m[1].toUpperCase() : m[1]) : undefined;
        } else key = f.mode.cls === 'AttributeValue' ? AV_METHODS[name] : /^put(ExpressionValue|ExpressionName)$/.test(name) ? undefined : upperFirst(name);
        if (!key || !args.length) return undefined;
        const value = f.mode.cls === 'AttributeValue' ? this.avInner(key, args, depth, hops) : this.argValue(c, name, args, depth, hops);
        return { kind: 'set', path: [key], keyRange: this.range(nameNode), value, range: c.parent?.type === 'expression_statement' && this.chainBase(c).id === c.childForFieldName('object')?.id ? this.range(stmt) : this.callRange(c) };
      }
    }
  }

  /** Whether text may change the local: a mention that is not a read-only call on it (`x.get(..)`, `b.build()`). */
  private jChanges(text: string, f: FlowCtx): boolean {
    const all = text.match(new RegExp(f.mention.source, 'g'))?.length ?? 0;
    if (!all) return false;
    const reads = text.match(new RegExp(`${f.mention.source}\\s*\\.\\s*(?:${READS.source.slice(2, -2)})\\s*\\(`, 'g'))?.length ?? 0;
    return all > reads;
  }

  /** A change the flow cannot read: the value is no longer whole (reassigned: unknown). */
  private jUnreadable(s: State, text: string, f: FlowCtx): State {
    if (new RegExp(`${f.mention.source}\\s*=(?!=)`).test(text)) return undefined;
    return applyAll(s, { kind: 'opaque', deep: true });
  }
}

export function javaHost(): TreeHost {
  return new JavaHost();
}
