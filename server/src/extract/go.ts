/**
 * Go via web-tree-sitter + tree-sitter-go: aws-sdk-go-v2 (`&dynamodb.UpdateItemInput{...}`, `types.AttributeValueMemberN`)
 * and aws-sdk-go v1 (`&dynamodb.UpdateItemInput{...}`, `{N: aws.String("1")}`) request literals.
 *
 * Every composite literal whose type is `<Api>Input` (any package qualifier) is a request; its fields are DynamoDB's
 * own names, so the literal maps onto the value model as written: struct fields and map entries become object
 * properties, `aws.String(x)` is x, `&types.AttributeValueMemberN{Value: "1"}` is the low-level `{N: "1"}` (its key
 * range is the `N` of the type name), v1's `&dynamodb.AttributeValue{N: aws.String("1")}` is `{N: "1"}` already.
 * Names resolve through constants (`const`, `const (...)` blocks) and variables of the enclosing function (the
 * latest assignment before the use); `items = append(items, types.TransactWriteItem{...})` builds a slice.
 * The `feature/dynamodb/expression` builder yields expressions (`expr.Update()`) we do not evaluate: unknown, so the
 * rules stay silent about them.
 */
import type { Node as TNode } from 'web-tree-sitter';
import { Api, Property, Range, RequestSite, StringNode, VNode } from './model';
import { GO_HOST } from './hosts';
import { decodeGo, decodeGoRaw } from './host-strings';
import { concatStrings } from './strings';
import { TreeHost, branchOf, kids } from './treehost';

const MAX_VALUE_DEPTH = 64;
const MAX_RESOLVE = 16;

const APIS = new Set<string>([
  'PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan', 'BatchWriteItem', 'BatchGetItem',
  'TransactWriteItems', 'TransactGetItems', 'ExecuteStatement', 'ExecuteTransaction', 'BatchExecuteStatement',
]);

/** aws-sdk-go-v2 attribute value members: `AttributeValueMemberN` -> N. */
const MEMBER = /AttributeValueMember(S|N|B|BOOL|NULL|M|L|SS|NS|BS)$/;
const FUNCS = new Set(['function_declaration', 'method_declaration']);
const ENV_TYPES = new Set(['package_clause', 'import_declaration', 'const_declaration', 'var_declaration', 'type_declaration']);
/** `aws.String(x)`, `aws.Int64(x)`...: the value of x. */
const AWS_WRAPPERS = /^(String|Int|Int32|Int64|Float32|Float64|Bool|StringSlice|Int64Slice)$/;

interface Decl {
  name: string;
  /** Where the name starts to hold the value (the declaration's end). */
  pos: number;
  value?: TNode;
  /** Declared but not bound to a value we can read (a parameter, a `for` variable, multi-value assignment). */
  opaque?: boolean;
}

class GoHost implements TreeHost {
  private text = '';
  private consts = new Map<string, TNode>();
  private fnDecls = new Map<number, Map<string, Decl[]>>();
  private sdk = 'aws-sdk-go-v2';

  units(root: TNode): { node: TNode; env: boolean }[] {
    return kids(root).map((node) => ({ node, env: ENV_TYPES.has(node.type) }));
  }

  prepare(text: string, root: TNode): void {
    this.text = text;
    this.consts.clear();
    this.fnDecls.clear();
    this.sdk = text.includes('aws-sdk-go-v2') || !text.includes('github.com/aws/aws-sdk-go/') ? 'aws-sdk-go-v2' : 'aws-sdk-go';
    for (const top of kids(root)) {
      if (top.type !== 'const_declaration' && top.type !== 'var_declaration') continue;
      for (const spec of this.specs(top)) for (const d of this.specDecls(spec)) if (d.value) this.consts.set(d.name, d.value);
    }
  }

  sites(unit: TNode): RequestSite[] {
    const out: RequestSite[] = [];
    const stack: TNode[] = [unit];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'composite_literal') {
        const api = this.apiOf(n.childForFieldName('type'));
        if (api) {
          const s = this.site(n, api);
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

  private typeName(t: TNode | null): TNode | undefined {
    if (!t) return undefined;
    if (t.type === 'qualified_type') return t.childForFieldName('name') ?? undefined;
    if (t.type === 'type_identifier') return t;
    if (t.type === 'generic_type') return this.typeName(t.childForFieldName('type'));
    return undefined;
  }

  private apiOf(t: TNode | null): Api | undefined {
    const name = this.typeName(t);
    const m = name ? /^(\w+)Input$/.exec(this.src(name)) : null;
    return m && APIS.has(m[1]) ? (m[1] as Api) : undefined;
  }

  private site(lit: TNode, api: Api): RequestSite | undefined {
    const params = this.value(lit, 0, 0);
    if (params.kind !== 'object') return undefined;
    const bound = this.boundName(lit);
    if (bound) this.markMutated(params, bound.name, bound.after, bound.fn);
    const s: RequestSite = {
      api,
      apiSource: 'call',
      style: 'low-level',
      host: GO_HOST,
      range: this.range(lit.parent?.type === 'unary_expression' && lit.parent.child(0)?.type === '&' ? lit.parent : lit),
      nameRange: this.range(this.typeName(lit.childForFieldName('type'))!),
      params,
      sdk: this.sdk,
    };
    const fn = this.functionOf(lit);
    if (fn) {
      const name = fn.childForFieldName('name');
      s.enclosingFunction = { name: name ? this.src(name) : '', range: this.range(fn) };
      const branch = branchOf(lit, fn);
      if (branch) s.branch = branch;
    }
    return s;
  }

  private functionOf(n: TNode): TNode | undefined {
    for (let p = n.parent; p; p = p.parent) if (FUNCS.has(p.type)) return p;
    return undefined;
  }

  /** `x := &T{...}` / `var x = T{...}` / `x = T{...}`: the name bound to the literal, for later mutations. */
  private boundName(lit: TNode): { name: string; after: number; fn: TNode | undefined } | undefined {
    let n: TNode = lit;
    if (n.parent?.type === 'unary_expression') n = n.parent;
    const list = n.parent;
    const decl = list?.parent;
    if (list?.type !== 'expression_list' || !decl) return undefined;
    const idx = kids(list).findIndex((c) => c.id === n.id);
    let left: TNode | null = null;
    if (decl.type === 'short_var_declaration' || decl.type === 'assignment_statement') left = decl.childForFieldName('left');
    else if (decl.type === 'var_spec') {
      const names = decl.childrenForFieldName('name').filter((c): c is TNode => !!c);
      return names[idx] ? { name: this.src(names[idx]), after: decl.endIndex, fn: this.functionOf(decl) } : undefined;
    }
    const target = left ? kids(left)[idx] : undefined;
    return target?.type === 'identifier' ? { name: this.src(target), after: decl.endIndex, fn: this.functionOf(decl) } : undefined;
  }

  /** A struct or map changed after its literal (`in.ConditionExpression = ...`, `vals[":v"] = ...`) is not whole. */
  private markMutated(v: VNode, name: string, after: number, fn: TNode | undefined): void {
    if (v.kind !== 'object' && v.kind !== 'array') return;
    const rest = this.text.slice(after, fn ? fn.endIndex : this.text.length);
    const n = name.replace(/[$]/g, '\\$');
    const top = new RegExp(`(?<![\\w.])${n}\\s*(?:\\.\\s*\\w+|\\[[^\\]\\n]*\\])\\s*(?:=(?!=)|\\+=)|(?<![\\w.])${n}\\s*=\\s*append\\(|\\bdelete\\(\\s*${n}\\b|&${n}\\b`);
    if (!top.test(rest)) return;
    v.complete = false;
    const nested = new RegExp(`(?<![\\w.])${n}(?:\\s*(?:\\.\\s*\\w+|\\[[^\\]\\n]*\\]))+\\s*(?:\\[[^\\]\\n]*\\]|\\.\\s*\\w+)\\s*=(?!=)|\\bdelete\\(\\s*${n}\\s*\\.|&${n}\\b`);
    if (!nested.test(rest)) return;
    const stack: VNode[] = [v];
    for (let x = stack.pop(); x; x = stack.pop()) {
      if (x.kind === 'object') stack.push(...x.properties.map((p) => p.value));
      else if (x.kind === 'array') stack.push(...x.items);
      if (x.kind === 'object' || x.kind === 'array') x.complete = false;
    }
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Names                                                                                                            */

  private specs(decl: TNode): TNode[] {
    const out: TNode[] = [];
    for (const c of kids(decl)) {
      if (c.type === 'const_spec' || c.type === 'var_spec') out.push(c);
      else if (c.type === 'var_spec_list' || c.type === 'const_spec_list') out.push(...kids(c).filter((x) => x.type === 'var_spec' || x.type === 'const_spec'));
    }
    return out;
  }

  /** `a, b = 1, 2` in a const/var spec: each name with its value (a spec without values repeats nothing we read). */
  private specDecls(spec: TNode): Decl[] {
    const names = spec.childrenForFieldName('name').filter((c): c is TNode => !!c);
    const values = kids(spec.childForFieldName('value'));
    return names.map((n, i) => ({ name: this.src(n), pos: spec.endIndex, value: values.length === names.length ? values[i] : undefined, opaque: values.length !== names.length }));
  }

  /** Every name a function binds, in document order: parameters, receivers, `:=`, `var`, `const`, `=`, range/for variables. */
  private declsOf(fn: TNode): Map<string, Decl[]> {
    let m = this.fnDecls.get(fn.id);
    if (m) return m;
    m = new Map();
    const add = (d: Decl) => {
      const list = m!.get(d.name);
      if (list) list.push(d);
      else m!.set(d.name, [d]);
    };
    const stack: TNode[] = [fn];
    const found: Decl[] = [];
    while (stack.length) {
      const n = stack.pop()!;
      switch (n.type) {
        case 'parameter_declaration':
        case 'variadic_parameter_declaration':
          for (const id of n.childrenForFieldName('name')) if (id) found.push({ name: this.src(id), pos: n.startIndex, opaque: true });
          break;
        case 'const_spec':
        case 'var_spec':
          found.push(...this.specDecls(n));
          break;
        case 'short_var_declaration':
        case 'assignment_statement': {
          const left = kids(n.childForFieldName('left'));
          const right = kids(n.childForFieldName('right'));
          const op = n.childForFieldName('operator');
          const plain = n.type === 'short_var_declaration' || !op || this.src(op) === '=';
          left.forEach((l, i) => {
            if (l.type !== 'identifier') return;
            const value = plain && right.length === left.length ? right[i] : undefined;
            found.push({ name: this.src(l), pos: n.endIndex, value, opaque: !value });
          });
          break;
        }
        case 'range_clause':
          for (const l of kids(n.childForFieldName('left'))) if (l.type === 'identifier') found.push({ name: this.src(l), pos: n.startIndex, opaque: true });
          break;
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) stack.push(c);
      }
    }
    found.sort((a, b) => a.pos - b.pos);
    for (const d of found) add(d);
    this.fnDecls.set(fn.id, m);
    return m;
  }

  /** The value node a name holds at `pos`: the latest binding before it in its function, else a package constant. */
  private lookup(name: string, at: TNode): { value: TNode; decl?: Decl; fn?: TNode } | undefined {
    const fn = this.functionOf(at);
    if (fn) {
      const list = this.declsOf(fn).get(name);
      if (list) {
        const before = list.filter((d) => d.pos <= at.startIndex);
        // `x = append(x, ...)` grows the value bound before it (see `appended`): look through to that binding.
        let i = before.length - 1;
        while (i > 0 && before[i].value && this.isAppendTo(before[i].value!, name)) i--;
        const d = before[i];
        if (d) return d.value && !d.opaque ? { value: d.value, decl: d, fn } : undefined;
      }
    }
    const c = this.consts.get(name);
    return c ? { value: c } : undefined;
  }

  private isAppendTo(v: TNode, name: string): boolean {
    if (v.type !== 'call_expression') return false;
    const f = v.childForFieldName('function');
    const first = kids(v.childForFieldName('arguments'))[0];
    return f?.type === 'identifier' && this.src(f) === 'append' && first?.type === 'identifier' && this.src(first) === name;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Values                                                                                                           */

  private unknown(n: TNode, type?: 'S'): VNode {
    return { kind: 'unknown', range: this.range(n), text: this.text.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 120)), ...(type ? { type } : {}) };
  }

  private value(n: TNode, depth: number, hops: number): VNode {
    while (n.type === 'parenthesized_expression' || n.type === 'literal_element') {
      const inner = kids(n)[0];
      if (!inner) break;
      n = inner;
    }
    if (depth > MAX_VALUE_DEPTH) return this.unknown(n);
    const range = this.range(n);
    switch (n.type) {
      case 'interpreted_string_literal':
      case 'raw_string_literal':
        return this.string(n);
      case 'int_literal':
      case 'float_literal': {
        const t = this.src(n).replace(/_/g, '');
        if (/^0[xXoObB]/.test(t) && /^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$/.test(t)) return { kind: 'number', text: BigInt(t).toString(), range };
        if (/^0[0-7]+$/.test(t)) return { kind: 'number', text: BigInt('0o' + t.slice(1)).toString(), range };
        return /^[0-9.eE+-]+$/.test(t) ? { kind: 'number', text: t, range } : this.unknown(n);
      }
      case 'true':
      case 'false':
        return { kind: 'bool', value: n.type === 'true', range };
      case 'unary_expression': {
        const op = n.child(0)?.type;
        const operand = n.childForFieldName('operand');
        if (!operand) return this.unknown(n);
        // `&T{...}`: the literal's own node (an object's range stays its braces, where entries are inserted).
        if (op === '&') return this.value(operand, depth, hops);
        const v = this.value(operand, depth + 1, hops);
        if (v.kind === 'number' && (op === '-' || op === '+')) return { kind: 'number', text: (op === '-' ? '-' : '') + v.text, range };
        return this.unknown(n);
      }
      case 'binary_expression': {
        if (n.childForFieldName('operator')?.type !== '+') return this.unknown(n);
        const l = this.value(n.childForFieldName('left')!, depth + 1, hops);
        const r = this.value(n.childForFieldName('right')!, depth + 1, hops);
        if (l.kind === 'string' && r.kind === 'string') return concatStrings([l, r], range);
        return l.kind === 'string' || r.kind === 'string' || (l.kind === 'unknown' && l.type === 'S') || (r.kind === 'unknown' && r.type === 'S') ? this.unknown(n, 'S') : this.unknown(n);
      }
      case 'identifier': {
        const found = hops < MAX_RESOLVE ? this.lookup(this.src(n), n) : undefined;
        if (!found) return this.unknown(n);
        const v = this.value(found.value, depth, hops + 1);
        if (found.decl && found.fn) {
          if (v.kind === 'array') return this.appended(v, this.src(n), found.decl.pos, n, found.fn, depth, hops);
          this.markMutated(v, this.src(n), found.decl.pos, found.fn);
        }
        return v;
      }
      case 'composite_literal':
        return this.composite(n, depth, hops);
      case 'literal_value':
        return this.literal(n, depth, hops, undefined);
      case 'call_expression':
        return this.call(n, depth, hops);
      case 'type_conversion_expression': {
        const t = n.childForFieldName('type');
        const operand = n.childForFieldName('operand');
        if (t && /^\[\]\s*(byte|uint8)$/.test(this.src(t))) {
          const v = operand ? this.value(operand, depth + 1, hops) : undefined;
          return { kind: 'binary', range, ...(v?.kind === 'string' ? { length: Buffer.byteLength(v.value, 'utf8') } : {}) };
        }
        if (t && this.src(t) === 'string' && operand) {
          const v = this.value(operand, depth + 1, hops);
          return v.kind === 'string' ? v : this.unknown(n, 'S');
        }
        return this.unknown(n);
      }
      default:
        return this.unknown(n);
    }
  }

  private string(n: TNode): VNode {
    const s = this.src(n);
    const body = s.length >= 2 ? s.slice(1, -1) : '';
    const r = this.range(n);
    const v: StringNode | undefined = n.type === 'raw_string_literal' ? decodeGoRaw(body, n.startIndex + 1, r) : decodeGo(body, n.startIndex + 1, r);
    return v ?? this.unknown(n, 'S');
  }

  /** `aws.String(x)` -> x; `string(x)` is a conversion (parsed as a call when x is not a literal); else unknown. */
  private call(n: TNode, depth: number, hops: number): VNode {
    const f = n.childForFieldName('function');
    const args = kids(n.childForFieldName('arguments'));
    if (f?.type === 'selector_expression' && args.length === 1) {
      const pkg = f.childForFieldName('operand');
      const field = f.childForFieldName('field');
      // The wrapped literal keeps its own range: a fix rewriting the string writes a string there, not in place of the call.
      if (pkg?.type === 'identifier' && this.src(pkg) === 'aws' && field && AWS_WRAPPERS.test(this.src(field))) return this.value(args[0], depth, hops);
    }
    if (f?.type === 'identifier' && this.src(f) === 'string' && args.length === 1) {
      const v = this.value(args[0], depth + 1, hops);
      return v.kind === 'string' ? v : this.unknown(n, 'S');
    }
    const name = f?.type === 'selector_expression' ? this.src(f.childForFieldName('field')!) : f ? this.src(f) : '';
    if (/^(Sprintf|Sprint|Join|Itoa|FormatInt|FormatFloat|ToUpper|ToLower|TrimSpace|Replace|ReplaceAll)$/.test(name)) return this.unknown(n, 'S');
    return this.unknown(n);
  }

  private composite(n: TNode, depth: number, hops: number): VNode {
    const t = n.childForFieldName('type');
    const body = n.childForFieldName('body');
    if (!body) return this.unknown(n);
    const name = this.typeName(t);
    const m = name ? MEMBER.exec(this.src(name)) : null;
    if (m && name) {
      // `&types.AttributeValueMemberN{Value: "1"}` -> {N: "1"}: its key is the N of the type name.
      const fields = kids(body).filter((c) => c.type === 'keyed_element');
      const value = fields.find((f) => this.src(kids(f)[0]) === 'Value');
      const keyRange = { start: name.endIndex - m[1].length, end: name.endIndex };
      if (!value) return this.unknown(n);
      const inner = this.value(kids(value)[1], depth + 1, hops);
      return { kind: 'object', properties: [{ key: m[1], keyRange, value: inner, range: this.range(value) }], complete: true, range: this.range(n) };
    }
    const kind = t?.type === 'map_type' ? 'map' : t?.type === 'slice_type' || t?.type === 'array_type' ? 'list' : 'struct';
    const v = this.literal(body, depth, hops, kind);
    return v;
  }

  /** A `{...}` body: keyed -> object (struct fields or map entries), unkeyed -> list. */
  private literal(body: TNode, depth: number, hops: number, kind: 'map' | 'list' | 'struct' | undefined): VNode {
    const elems = kids(body);
    const keyed = elems.some((e) => e.type === 'keyed_element');
    const range = this.range(body);
    if (kind === 'list' || (kind === undefined && !keyed && elems.length)) {
      const items: VNode[] = [];
      let complete = true;
      for (const e of elems) {
        if (e.type === 'keyed_element') {
          complete = false; // `[]T{3: x}`: indexed elements
          continue;
        }
        items.push(this.value(e, depth + 1, hops));
      }
      return { kind: 'array', items, complete, range };
    }
    const properties: Property[] = [];
    let complete = true;
    for (const e of elems) {
      if (e.type !== 'keyed_element') {
        complete = false;
        continue;
      }
      const [k, v] = kids(e);
      if (!k || !v) {
        complete = false;
        continue;
      }
      const keyNode = kids(k)[0] ?? k;
      let key: string | undefined;
      if (kind !== 'map' && keyNode.type === 'identifier' && keyed) key = this.src(keyNode);
      else {
        const kv = this.value(keyNode, depth + 1, hops);
        key = kv.kind === 'string' ? kv.value : kv.kind === 'number' ? kv.text : undefined;
      }
      if (key === undefined) {
        complete = false;
        continue;
      }
      properties.push({ key, keyRange: this.range(keyNode), value: this.value(v, depth + 1, hops), range: this.range(e) });
    }
    return { kind: 'object', properties, complete, range };
  }

  /**
   * A slice variable grown by `x = append(x, a, b)` between its literal and the use: the appended literals are its
   * items; inside a loop they stand for zero or more (samples), under a condition the list is not whole.
   */
  private appended(v: VNode & { kind: 'array' }, name: string, from: number, use: TNode, fn: TNode, depth: number, hops: number): VNode {
    const body = fn.childForFieldName('body');
    if (!body) return v;
    const out = { ...v, items: [...v.items] };
    let samples = v.samples ?? 0;
    const stack: TNode[] = [body];
    const calls: TNode[] = [];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.endIndex <= from || n.startIndex >= use.startIndex) continue;
      if (n.type === 'assignment_statement') {
        const l = kids(n.childForFieldName('left'));
        const r = kids(n.childForFieldName('right'));
        if (l.length === 1 && r.length === 1 && this.src(l[0]) === name && r[0].type === 'call_expression' && this.src(r[0].childForFieldName('function')!) === 'append') calls.push(r[0]);
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) stack.push(c);
      }
    }
    // A reference to the slice other than these appends (passed to a function, `&x`, `x[i] = ...`) may change it.
    const others = this.text.slice(from, use.startIndex).match(new RegExp(`(?<![\\w.])${name.replace(/[$]/g, '\\$')}\\b`, 'g'))?.length ?? 0;
    if (others > calls.length * 2) out.complete = false;
    for (const c of calls.sort((a, b) => a.startIndex - b.startIndex)) {
      const args = kids(c.childForFieldName('arguments'));
      if (args.length < 2 || this.src(args[0]) !== name || c.childForFieldName('arguments')!.text.trimEnd().endsWith('...)')) {
        out.complete = false;
        continue;
      }
      let loop = false;
      let cond = false;
      for (let p = c.parent; p && p.id !== fn.id; p = p.parent) {
        if (p.type === 'for_statement') loop = true;
        if (p.type === 'if_statement' || p.type === 'expression_switch_statement' || p.type === 'type_switch_statement' || p.type === 'select_statement') cond = true;
      }
      for (const a of args.slice(1)) {
        out.items.push(this.value(a, depth + 1, hops));
        if (loop) samples++;
      }
      if (loop || cond) out.complete = false;
    }
    return samples ? { ...out, samples } : out;
  }
}

export function goHost(): TreeHost {
  return new GoHost();
}

