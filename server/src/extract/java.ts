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
import { Api, ObjectNode, Property, Range, RequestSite, StringNode, VNode } from './model';
import { JAVA_HOST } from './hosts';
import { decodeJava, decodeJavaTextBlock } from './host-strings';
import { concatStrings } from './strings';
import { TreeHost, branchOf, kids } from './treehost';

const MAX_VALUE_DEPTH = 64;
const MAX_RESOLVE = 16;

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
}

class JavaHost implements TreeHost {
  private text = '';
  private fields = new Map<string, TNode>();
  private fnDecls = new Map<number, Map<string, Decl[]>>();

  /** Members of top-level types (methods are units; fields, nested types and the rest bind names: env). */
  units(root: TNode): { node: TNode; env: boolean }[] {
    const out: { node: TNode; env: boolean }[] = [];
    for (const top of kids(root)) {
      const body = TYPES.has(top.type) ? top.childForFieldName('body') : null;
      if (!body) {
        out.push({ node: top, env: true });
        continue;
      }
      for (const m of kids(body)) out.push({ node: m, env: !FUNCS.has(m.type) });
    }
    return out;
  }

  prepare(text: string, root: TNode): void {
    this.text = text;
    this.fields.clear();
    this.fnDecls.clear();
    const stack: TNode[] = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'field_declaration') {
        for (const d of n.childrenForFieldName('declarator')) {
          const name = d?.childForFieldName('name');
          const value = d?.childForFieldName('value');
          if (name && value) this.fields.set(this.src(name), value);
        }
        continue;
      }
      if (n.type === 'program' || TYPES.has(n.type) || n.type === 'class_body' || n.type === 'interface_body' || n.type === 'enum_body' || n.type === 'enum_body_declarations')
        for (const c of kids(n)) stack.push(c);
      else if (TYPES.has(n.parent?.type ?? '')) for (const c of kids(n)) stack.push(c);
    }
  }

  sites(unit: TNode): RequestSite[] {
    const out: RequestSite[] = [];
    const stack: TNode[] = [unit];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'method_invocation' && LAMBDA_APIS.has(this.name(n))) {
        const s = this.lambdaSite(n);
        if (s) {
          out.push(s);
          continue;
        }
      }
      if (n.type === 'method_invocation' && this.name(n) === 'build') {
        const root = this.builderRoot(n);
        const cls = root ? this.builderClass(root) : undefined;
        const api = cls ? this.apiOf(cls) : undefined;
        if (api && cls) {
          const s = this.site(n, api, cls);
          if (s) out.push(s);
          continue;
        }
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) stack.push(c);
      }
    }
    return out;
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
    const name = this.src(cls);
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
    const fn = this.functionOf(call);
    if (fn) {
      const name = fn.childForFieldName('name');
      s.enclosingFunction = { name: name ? this.src(name) : '', range: this.range(fn) };
      const branch = branchOf(call, fn);
      if (branch) s.branch = branch;
    }
    return s;
  }

  private site(build: TNode, api: Api, cls: TNode): RequestSite | undefined {
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
    const fn = this.functionOf(build);
    if (fn) {
      const name = fn.childForFieldName('name');
      s.enclosingFunction = { name: name ? this.src(name) : '', range: this.range(fn) };
      const branch = branchOf(build, fn);
      if (branch) s.branch = branch;
    }
    return s;
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
        if (id) found.push([this.src(id.type === 'variable_declarator' ? id.childForFieldName('name')! : id), { pos: n.startIndex }]);
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

  private lookup(name: string, at: TNode): { value: TNode; decl?: Decl; fn?: TNode } | undefined {
    const fn = this.functionOf(at);
    if (fn) {
      const list = this.declsOf(fn).get(name);
      const before = list?.filter((d) => d.pos <= at.startIndex) ?? [];
      const d = before[before.length - 1];
      if (d) return d.value ? { value: d.value, decl: d, fn } : undefined;
      if (list?.length) return undefined; // declared later in a scope we cannot order: unknown
    }
    const f = this.fields.get(name);
    return f ? { value: f } : undefined;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Values                                                                                                           */

  private unknown(n: TNode, type?: 'S'): VNode {
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
        const found = hops < MAX_RESOLVE ? this.lookup(this.src(n), n) : undefined;
        if (!found) return this.unknown(n);
        if (found.decl && found.fn && found.value.type === 'object_creation_expression') return this.hashMap(found.value, this.src(n), found.decl.pos, n, found.fn, depth, hops);
        return this.value(found.value, depth, hops + 1);
      }
      case 'field_access': {
        // `Constants.TABLE` / `this.table`: a field of this file by its name.
        const f = n.childForFieldName('field');
        const v = f && hops < MAX_RESOLVE ? this.fields.get(this.src(f)) : undefined;
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
    return { key: key.value, keyRange: this.range(k), value: this.value(v, depth + 1, hops), range };
  }

  /**
   * A builder chain `X.builder().a(1).b(2).build()`: `{A: 1, B: 2}` (AttributeValue's: `{N: ...}`; the Enhanced
   * Client's `putExpressionValue(k, v)` / `putExpressionName(k, v)` gather into maps).
   */
  private chain(build: TNode, depth: number, hops: number, param?: string): VNode {
    const calls: TNode[] = [];
    let root: TNode | undefined;
    // With `param` (a consumer lambda's builder), every call down to the parameter is a field, `build` included.
    let n: TNode | null = param ? build : build.childForFieldName('object');
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
      const obj = c.childForFieldName('object')!;
      const dot = this.text.indexOf('.', obj.endIndex);
      const range = { start: dot >= 0 && dot < nameNode.startIndex ? dot : nameNode.startIndex, end: c.endIndex };
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
          map = { kind: 'object', properties: [], complete: true, range };
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
      let value: VNode;
      if (!args.length) value = this.unknown(c);
      else if (args.length > 1) value = { kind: 'array', items: args.map((a) => this.value(a, depth + 1, hops)), complete: true, range: { start: args[0].startIndex, end: args[args.length - 1].endIndex } };
      else {
        value = this.value(args[0], depth + 1, hops);
        // `.transactItems(item)` (varargs of one) is a list of one.
        if (/^(transactItems|transactStatements|statements)$/.test(name) && value.kind === 'object') value = { kind: 'array', items: [value], complete: true, range: value.range };
      }
      properties.push({ key: upperFirst(name), keyRange: this.range(nameNode), value, range });
    }
    return { kind: 'object', properties, complete, range: { start: root.startIndex, end: build.endIndex } };
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
}

export function javaHost(): TreeHost {
  return new JavaHost();
}
