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
 * The `expression` builder (`expr.Update()`, `expr.Names()`...) is read as the expressions it builds (go-expression.ts).
 * A request's SDK (`sdk`: how fixes write values) is that of its type's package as the file imports it, so a file
 * importing both SDKs (a migration: `dynamodbv1 "github.com/aws/aws-sdk-go/service/dynamodb"` beside v2) reads each
 * request as its own; a type of another package there is unknown (no site). Imports are read from the tree's import
 * declarations, never the text (an import path in a comment changes nothing).
 */
import type { Node as TNode } from 'web-tree-sitter';
import { Op, State, applyAll, cloneTree, flatten, join, valueOf } from '../flow';
import { Api, ObjectNode, Property, Range, RequestSite, StringNode, UnknownNode, VNode } from './model';
import { GO_HOST } from './hosts';
import { Binding, GoBuilders, expressionAlias, isAbsent } from './go-expression';
import { decodeGo, decodeGoRaw } from './host-strings';
import { concatStrings } from '../core/strings';
import { TreeHost, branchOf, dependOnWholeFile, expandAlternatives, forwardedCopy, kids, objectAlternatives } from './treehost';

const MAX_VALUE_DEPTH = 64;
const MAX_RESOLVE = 16;
/** Statements the data flow may interpret per request (as in the other hosts). */
const FLOW_BUDGET = 200_000;
/** Local helper functions followed from a call (a helper calling a helper...). */
const MAX_FORWARD_DEPTH = 3;
const BUILTINS = /^(append|make|len|cap|new|panic|recover|delete|copy|close|print|println|string|int|int32|int64|float64|byte|rune|min|max|clear)$/;

const APIS = new Set<string>([
  'PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan', 'BatchWriteItem', 'BatchGetItem',
  'TransactWriteItems', 'TransactGetItems', 'ExecuteStatement', 'ExecuteTransaction', 'BatchExecuteStatement',
]);

/** aws-sdk-go-v2 attribute value members: `AttributeValueMemberN` -> N. */
const MEMBER = /AttributeValueMember(S|N|B|BOOL|NULL|M|L|SS|NS|BS)$/;
const FUNCS = new Set(['function_declaration', 'method_declaration']);
const ENV_TYPES = new Set(['package_clause', 'import_declaration', 'const_declaration', 'var_declaration', 'type_declaration']);
type GoSdk = 'aws-sdk-go' | 'aws-sdk-go-v2';
/** An import path of either SDK: v1 `github.com/aws/aws-sdk-go/...`, v2 `github.com/aws/aws-sdk-go-v2/...`. */
const SDK_PATH = /^github\.com\/aws\/aws-sdk-go(-v2)?\//;
/** DynamoDB's service package, where the `<Api>Input` types are. */
const DYNAMODB_PATH = /^github\.com\/aws\/aws-sdk-go(?:-v2)?\/service\/dynamodb$/;
/** Either SDK's `aws` package (`aws.String`...), imported under another name when the file has both (`awsv1`). */
const AWS_PATH = /^github\.com\/aws\/aws-sdk-go(?:-v2)?\/aws$/;

/** `aws.String(x)`, `aws.Int64(x)`...: the value of x. */
const AWS_WRAPPERS = /^(String|Int|Int32|Int64|Float32|Float64|Bool|StringSlice|Int64Slice)$/;

interface Decl {
  name: string;
  /** Where the name starts to hold the value (the declaration's end). */
  pos: number;
  value?: TNode;
  /** Declared but not bound to a value we can read (a parameter, a `for` variable, multi-value assignment). */
  opaque?: boolean;
  /** A parameter of the function (bound when it is followed from a call of this file). */
  param?: boolean;
  /** The statement binding it (`:=`, `=`). */
  node?: TNode;
  /** `a, b := f()`: the call whose `index`-th result it is. */
  tuple?: TNode;
  index?: number;
}

interface FlowCtx {
  name: string;
  use: TNode;
  mention: RegExp;
  depth: number;
  hops: number;
}

class GoHost implements TreeHost {
  private text = '';
  private consts = new Map<string, TNode>();
  /** Package-level `var` names: read only when nothing in the file writes them (`mutable`), a whole-file dependency. */
  private vars = new Set<string>();
  /** Package-level `var` names the file assigns (`x = ..`, `x += ..`, `x++`, `for x = range`) or takes the address of. */
  private mutable = new Set<string>();
  private fnDecls = new Map<number, Map<string, Decl[]>>();
  /**
   * The SDK of each name the file imports DynamoDB's service package as (`.` for a dot import; undefined when two
   * imports give one name different SDKs), and of a request type qualified otherwise (undefined: unknown).
   */
  private sdkPackages = new Map<string, GoSdk | undefined>();
  private sdkOther: GoSdk | undefined = 'aws-sdk-go-v2';
  /** Names of the `aws` package: `aws`, and the aliases either SDK's is imported as. */
  private awsNames = new Set<string>(['aws']);
  /** Functions and methods of the file by name (a helper is followed only when its name is unique). */
  private funcs = new Map<string, TNode[]>();
  /** Parameters of a helper followed from a call: function node id -> name -> the argument's value in the caller. */
  private bindings = new Map<number, Map<string, VNode>>();
  private flowBudget = FLOW_BUDGET;
  /** Other units (helpers) the last `sites` call read. */
  private read: { range: Range; name: string }[] = [];
  /** Names `sends` looked up for the unit being read (each is in `read` once, by name). */
  private looked = new Set<string>();
  /** The unit `sites` is reading. */
  private reading = -1;
  /** The `expression` builder reader, when the file imports the package. */
  private builders: GoBuilders | undefined;

  units(root: TNode): { node: TNode; env: boolean; name?: string }[] {
    return kids(root).map((node) => {
      const name = FUNCS.has(node.type) ? node.childForFieldName('name') : null;
      return { node, env: ENV_TYPES.has(node.type), ...(name ? { name: name.text } : {}) };
    });
  }

  deps(): { range: Range; name: string }[] {
    return this.read;
  }

  prepare(text: string, root: TNode): void {
    this.text = text;
    this.consts.clear();
    this.vars.clear();
    this.mutable.clear();
    this.fnDecls.clear();
    this.funcs.clear();
    this.bindings.clear();
    for (const top of kids(root)) {
      const name = FUNCS.has(top.type) ? top.childForFieldName('name') : null;
      if (!name) continue;
      const list = this.funcs.get(this.src(name));
      if (list) list.push(top);
      else this.funcs.set(this.src(name), [top]);
    }
    const alias = this.readImports(root);
    this.builders = alias
      ? new GoBuilders(
          {
            src: (n) => this.src(n),
            binding: (id) => this.builderBinding(id),
            value: (n) => this.value(n, 1, 0),
            helper: (name) => this.helper(name),
          },
          alias,
        )
      : undefined;
    for (const top of kids(root)) {
      if (top.type !== 'const_declaration' && top.type !== 'var_declaration') continue;
      for (const spec of this.specs(top))
        for (const d of this.specDecls(spec)) {
          if (d.value) this.consts.set(d.name, d.value);
          if (top.type === 'var_declaration') this.vars.add(d.name);
        }
    }
    if (this.vars.size) this.writes(root);
  }

  /**
   * Package `var`s the file may change: the root name of every assignment's left side (`x`, `x.f`, `x[i]`), of `x++` /
   * `x--`, of a `for x = range` and of `&x` (a pointer can write it anywhere). A local of the same name counts too (silent).
   */
  private writes(root: TNode): void {
    const rootName = (e: TNode | null | undefined): string | undefined => {
      while (e && (e.type === 'selector_expression' || e.type === 'index_expression' || e.type === 'parenthesized_expression' || e.type === 'slice_expression'))
        e = e.type === 'selector_expression' ? e.childForFieldName('operand') : e.type === 'parenthesized_expression' ? kids(e)[0] : e.childForFieldName('operand');
      return e?.type === 'identifier' ? this.src(e) : undefined;
    };
    const mark = (e: TNode | null | undefined) => {
      const name = rootName(e);
      if (name !== undefined && this.vars.has(name)) this.mutable.add(name);
    };
    for (const n of root.descendantsOfType(['assignment_statement', 'inc_statement', 'dec_statement', 'unary_expression', 'range_clause'])) {
      if (!n) continue;
      if (n.type === 'assignment_statement') for (const l of kids(n.childForFieldName('left'))) mark(l);
      else if (n.type === 'inc_statement' || n.type === 'dec_statement') mark(kids(n)[0]);
      else if (n.type === 'unary_expression') {
        if (n.child(0)?.type === '&') mark(n.childForFieldName('operand'));
      } else if (n.children.some((c) => c?.type === '=')) for (const l of kids(n.childForFieldName('left'))) mark(l);
    }
  }

  sites(unit: TNode): RequestSite[] {
    this.read = [];
    this.looked.clear();
    this.reading = unit.id;
    return this.sitesIn(unit, MAX_FORWARD_DEPTH - 1, [unit.id]);
  }

  private sitesIn(unit: TNode, depth: number, stack: number[]): RequestSite[] {
    const out: RequestSite[] = [];
    const walk: TNode[] = [unit];
    while (walk.length) {
      const n = walk.pop()!;
      if (n.type === 'composite_literal') {
        const api = this.apiOf(n.childForFieldName('type'));
        if (api) {
          const s = this.site(n, api);
          if (s) for (const x of expandAlternatives(s.site, s.roots)) out.push(x);
          continue;
        }
      }
      if (n.type === 'call_expression' && depth >= 0) for (const x of this.forwardCall(n, depth, stack, FUNCS.has(unit.type) ? unit : undefined)) out.push(x);
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) walk.push(c);
      }
    }
    return out;
  }

  /**
   * A call of a function of this file (`save(ctx, item)`) or of a method on the enclosing method's receiver
   * (`r.bump(ctx, -n)`): the requests it sends, read with its parameters bound to the call's arguments, seen at the
   * call (`RequestSite.forwarded`). Followed MAX_FORWARD_DEPTH deep; recursion stops.
   */
  /**
   * Whether a function may send a request: its text builds one, or it calls a function of the file that may (every
   * function looked at is a dependency of the unit being read).
   */
  private sends(fn: TNode, seen: Set<number>): boolean {
    if (seen.has(fn.id)) return false;
    seen.add(fn.id);
    const text = this.src(fn);
    const name = fn.childForFieldName('name');
    if (name && fn.id !== this.reading) this.read.push({ range: this.range(fn), name: this.src(name) });
    if (/Input\s*\{|TransactWriteItem|AttributeValueMember/.test(text)) return true;
    for (const call of text.matchAll(/(?<![\w])(?:\w+\s*\.\s*)?([A-Za-z_]\w*)\s*\(/g)) {
      // The name is a dependency even when it resolves to no definition or several: one added later may send.
      if (!this.looked.has(call[1])) {
        this.looked.add(call[1]);
        this.read.push({ range: { start: -1, end: -1 }, name: call[1] });
      }
      const targets = this.funcs.get(call[1]);
      if (targets?.length === 1 && this.sends(targets[0], seen)) return true;
    }
    return false;
  }

  private forwardCall(call: TNode, depth: number, stack: number[], unitFn?: TNode): RequestSite[] {
    const f = call.childForFieldName('function');
    // The unit is the function holding the call (a func literal is not a unit of its own); none at package level.
    const fn = unitFn;
    if (!f || !fn || (f.type !== 'identifier' && f.type !== 'selector_expression')) return [];
    if (f.type === 'identifier' && BUILTINS.test(this.src(f))) return [];
    let name: string;
    let method = false;
    if (f.type === 'identifier') name = this.src(f);
    else if (f.type === 'selector_expression') {
      const recv = fn.type === 'method_declaration' ? kids(kids(fn.childForFieldName('receiver'))[0])?.find((c) => c.type === 'identifier') : undefined;
      const operand = f.childForFieldName('operand');
      if (!recv || operand?.type !== 'identifier' || this.src(operand) !== this.src(recv)) return [];
      name = this.src(f.childForFieldName('field')!);
      method = true;
    } else return [];
    // Whatever is found, this call's sites depend on the functions of that name (a helper typed later is followed then).
    if (!this.read.some((d) => d.name === name && d.range.start < 0)) this.read.push({ range: { start: -1, end: -1 }, name });
    const targets = this.funcs.get(name);
    if (!targets || targets.length !== 1 || stack.includes(targets[0].id) || (targets[0].type === 'method_declaration') !== method) return [];
    const target = targets[0];
    const formal = kids(target.childForFieldName('parameters'));
    if (formal.some((p) => p.type !== 'parameter_declaration')) return [];
    const names = formal.flatMap((p) => p.childrenForFieldName('name').filter((c): c is TNode => !!c).map((c) => this.src(c)));
    const args = kids(call.childForFieldName('arguments'));
    if (names.length !== args.length || /\.\.\.\s*\)$/.test(this.src(call))) return [];
    if (!this.sends(target, new Set())) return [];
    this.read.push({ range: this.range(target), name });
    this.flowBudget = FLOW_BUDGET;
    const bound = new Map<string, VNode>();
    names.forEach((p, i) => bound.set(p, this.value(args[i], 1, 0)));
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
    const nameNode = f.type === 'selector_expression' ? f.childForFieldName('field')! : f;
    const at = { range: this.range(call), nameRange: this.range(nameNode), fn: { name: fnName ? this.src(fnName) : '', range: this.range(fn) }, branch: branchOf(call, fn) };
    return inner.map((s) => forwardedCopy(s, at));
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

  private site(lit: TNode, api: Api): { site: RequestSite; roots: ObjectNode[] } | undefined {
    // A file importing both SDKs (a migration): the request is read as its type's package's; unknown: no site.
    const sdk = this.sdkOf(lit.childForFieldName('type'));
    if (!sdk) return undefined;
    this.flowBudget = FLOW_BUDGET;
    const served = this.builders?.served ?? 0;
    let params = this.value(lit, 0, 0);
    if (params.kind !== 'object') return undefined;
    let roots: ObjectNode[] = [params];
    const bound = this.boundName(lit);
    // `in := &dynamodb.UpdateItemInput{...}; if c { in.ConditionExpression = ... }; client.UpdateItem(ctx, in)`: the
    // request as of its first use (data flow: one site per alternative), else the literal, not whole when changed after it.
    const use = bound?.fn ? this.firstUse(bound.name, bound.after, bound.fn) : undefined;
    const flowed = use ? this.value(use, 0, 0) : undefined;
    const alts = flowed && objectAlternatives(flowed);
    const start = params.range.start;
    if (alts && alts.every((a) => a.range.start === start)) {
      roots = alts;
      params = alts[0];
    } else if (bound) this.markMutated(params, bound.name, bound.after, bound.fn);
    const s: RequestSite = {
      api,
      apiSource: 'call',
      style: 'low-level',
      host: GO_HOST,
      range: this.range(lit.parent?.type === 'unary_expression' && lit.parent.child(0)?.type === '&' ? lit.parent : lit),
      nameRange: this.range(this.typeName(lit.childForFieldName('type'))!),
      params,
      sdk,
    };
    // Expressions the `expression` builder makes are not written where a fix could edit them.
    if ((this.builders?.served ?? 0) !== served) s.built = true;
    const fn = this.functionOf(lit);
    if (fn) {
      const name = fn.childForFieldName('name');
      s.enclosingFunction = { name: name ? this.src(name) : '', range: this.range(fn) };
      const branch = branchOf(lit, fn);
      if (branch) s.branch = branch;
    }
    return { site: s, roots };
  }

  /**
   * Which SDK each import name stands for. A request type qualified by another name (a package of the project, or one
   * not imported) is read as the SDK whose DynamoDB package the file imports (else whose packages it imports; v2
   * when none: a snippet); unknown when it imports both. Returns the name of the `expression` package (the first imported).
   */
  private readImports(root: TNode): string | undefined {
    let expression: string | undefined;
    this.sdkPackages.clear();
    this.awsNames = new Set(['aws']);
    const dynamodb = new Set<GoSdk>();
    const any = new Set<GoSdk>();
    for (const decl of kids(root)) {
      if (decl.type !== 'import_declaration') continue;
      for (const c of kids(decl)) {
        for (const spec of c.type === 'import_spec_list' ? kids(c) : [c]) {
          if (spec.type !== 'import_spec') continue;
          const pathNode = spec.childForFieldName('path');
          const path = pathNode ? this.src(pathNode).slice(1, -1) : '';
          const m = SDK_PATH.exec(path);
          if (!m) continue;
          const sdk: GoSdk = m[1] ? 'aws-sdk-go-v2' : 'aws-sdk-go';
          any.add(sdk);
          const name = spec.childForFieldName('name');
          expression ??= expressionAlias(path, name ? (name.type === 'dot' ? '.' : this.src(name)) : undefined);
          if (name?.type === 'package_identifier' && AWS_PATH.test(path)) this.awsNames.add(this.src(name));
          if (!DYNAMODB_PATH.test(path)) continue;
          dynamodb.add(sdk);
          const alias = !name ? 'dynamodb' : name.type === 'dot' ? '.' : this.src(name);
          if (alias === '_') continue;
          this.sdkPackages.set(alias, this.sdkPackages.has(alias) && this.sdkPackages.get(alias) !== sdk ? undefined : sdk);
        }
      }
    }
    const gens = dynamodb.size ? dynamodb : any;
    this.sdkOther = gens.size === 0 ? 'aws-sdk-go-v2' : gens.size === 1 ? [...gens][0] : undefined;
    return expression;
  }

  /** The SDK of a request type: its package qualifier's import, a dot import for a bare name, else `sdkOther`. */
  private sdkOf(t: TNode | null): GoSdk | undefined {
    if (t?.type === 'generic_type') return this.sdkOf(t.childForFieldName('type'));
    const pkg = t?.type === 'qualified_type' ? t.childForFieldName('package') : null;
    const alias = pkg ? this.src(pkg) : '.';
    return this.sdkPackages.has(alias) ? this.sdkPackages.get(alias) : this.sdkOther;
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
      // Loops, not spreads: a spread of more than ~120,000 arguments throws a RangeError.
      if (x.kind === 'object') for (const p of x.properties) stack.push(p.value);
      else if (x.kind === 'array') for (const item of x.items) stack.push(item);
      if (x.kind === 'object' || x.kind === 'array') x.complete = false;
    }
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Names                                                                                                            */

  private specs(decl: TNode): TNode[] {
    const out: TNode[] = [];
    for (const c of kids(decl)) {
      if (c.type === 'const_spec' || c.type === 'var_spec') out.push(c);
      else if (c.type === 'var_spec_list' || c.type === 'const_spec_list') {
        for (const x of kids(c)) if (x.type === 'var_spec' || x.type === 'const_spec') out.push(x);
      }
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
        case 'variadic_parameter_declaration': {
          const param = n.type === 'parameter_declaration' && n.parent?.id === fn.childForFieldName('parameters')?.id;
          for (const id of n.childrenForFieldName('name')) if (id) found.push({ name: this.src(id), pos: n.startIndex, opaque: true, ...(param ? { param } : {}) });
          break;
        }
        case 'const_spec':
          for (const d of this.specDecls(n)) found.push(d);
          break;
        case 'var_spec': {
          // `var items []T`: a nil slice, which `append` grows like an empty one.
          const t = n.childForFieldName('type');
          if (!n.childForFieldName('value') && t?.type === 'slice_type') {
            for (const id of n.childrenForFieldName('name')) if (id) found.push({ name: this.src(id), pos: n.endIndex, value: t });
          } else for (const d of this.specDecls(n)) found.push(d);
          break;
        }
        case 'short_var_declaration':
        case 'assignment_statement': {
          const left = kids(n.childForFieldName('left'));
          const right = kids(n.childForFieldName('right'));
          const op = n.childForFieldName('operator');
          const plain = n.type === 'short_var_declaration' || !op || this.src(op) === '=';
          left.forEach((l, i) => {
            if (l.type !== 'identifier') return;
            const value = plain && right.length === left.length ? right[i] : undefined;
            const tuple = plain && right.length === 1 && left.length > 1 ? { tuple: right[0], index: i } : {};
            found.push({ name: this.src(l), pos: n.endIndex, value, opaque: !value, node: n, ...tuple });
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
    if (this.vars.has(name)) {
      // Whether another function writes it: any edit may add or remove such a write (the unit reads it again).
      dependOnWholeFile(this.read, this.text.length);
      if (this.mutable.has(name)) return undefined;
    }
    const c = this.consts.get(name);
    return c ? { value: c } : undefined;
  }

  /**
   * What a local holds for the `expression` builder reader: its latest binding before the use, when that binding runs
   * on every path to the use or inside an `if` without `else` (the run taking the branch); in a loop, a `switch` arm,
   * a closure or an `if` with an `else` (another arm may bind it too): undefined (unknown).
   */
  private builderBinding(id: TNode): Binding | undefined {
    const fn = this.functionOf(id);
    if (!fn) return undefined;
    const inside = (n: TNode | null) => !!n && n.startIndex <= id.startIndex && id.endIndex <= n.endIndex;
    // `x := ..` in a block that does not hold the use declares another x (it shadows ours only there).
    const list = this.declsOf(fn)
      .get(this.src(id))
      ?.filter((d) => d.pos <= id.startIndex && !(d.node?.type === 'short_var_declaration' && !inside(d.node.parent)));
    const d = list?.[list.length - 1];
    if (!d?.node || d.param) return undefined;
    for (let p = d.node.parent; p && p.id !== fn.id; p = p.parent) {
      if (inside(p)) break;
      if (p.type === 'if_statement' && !p.childForFieldName('alternative')) continue;
      if (p.type !== 'block' && p.type !== 'statement_list') return undefined;
    }
    for (let p = id.parent; p && p.id !== fn.id; p = p.parent) if (p.type === 'func_literal' && p.startIndex > d.node.startIndex) return undefined;
    if (d.tuple) return { tuple: d.tuple, index: d.index ?? 0 };
    return d.value ? { value: d.value } : undefined;
  }

  /** A function of the file by a unique name (a helper returning a built expression), recorded as read. */
  private helper(name: string): TNode | undefined {
    if (!this.read.some((d) => d.name === name && d.range.start < 0)) this.read.push({ range: { start: -1, end: -1 }, name });
    const targets = this.funcs.get(name);
    if (targets?.length !== 1 || targets[0].type !== 'function_declaration') return undefined;
    if (targets[0].id !== this.reading) this.read.push({ range: this.range(targets[0]), name });
    return targets[0];
  }

  private isAppendTo(v: TNode, name: string): boolean {
    if (v.type !== 'call_expression') return false;
    const f = v.childForFieldName('function');
    const first = kids(v.childForFieldName('arguments'))[0];
    return f?.type === 'identifier' && this.src(f) === 'append' && first?.type === 'identifier' && this.src(first) === name;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Values                                                                                                           */

  private unknown(n: TNode, type?: 'S'): UnknownNode {
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
        // `-n`: a negative number of unknown magnitude (a decrement).
        if (v.kind === 'unknown' && v.type !== 'S' && op === '-') return { ...this.unknown(n), sign: v.sign === -1 ? 1 : -1 };
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
        const bound = this.paramBinding(this.src(n), n);
        if (bound) return bound;
        const found = hops < MAX_RESOLVE ? this.lookup(this.src(n), n) : undefined;
        if (!found) return this.unknown(n);
        if (found.decl && found.fn && this.flowable(found.value)) {
          const v = this.flow(this.src(n), n, found.fn, depth, hops);
          if (v) return v;
        }
        const v = this.value(found.value, depth, hops + 1);
        if (found.decl && found.fn) {
          if (v.kind === 'array') return this.appended(v, this.src(n), found.decl.pos, n, found.fn, depth, hops);
          this.markMutated(v, this.src(n), found.decl.pos, found.fn);
        }
        return v;
      }
      case 'composite_literal':
        return this.composite(n, depth, hops);
      case 'slice_type':
        // `var items []T` (see declsOf): a nil slice.
        return { kind: 'array', items: [], complete: true, range };
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
    if (this.builders && f?.type === 'selector_expression' && !args.length) {
      const built = this.builders.getter(n);
      if (built) return built;
    }
    if (f?.type === 'selector_expression' && args.length === 1) {
      const pkg = f.childForFieldName('operand');
      const field = f.childForFieldName('field');
      // The wrapped literal keeps its own range: a fix rewriting the string writes a string there, not in place of the call.
      if (pkg?.type === 'identifier' && this.awsNames.has(this.src(pkg)) && field && AWS_WRAPPERS.test(this.src(field))) return this.value(args[0], depth, hops);
    }
    if (f?.type === 'identifier' && this.src(f) === 'string' && args.length === 1) {
      const v = this.value(args[0], depth + 1, hops);
      return v.kind === 'string' ? v : this.unknown(n, 'S');
    }
    const name = f?.type === 'selector_expression' ? this.src(f.childForFieldName('field')!) : f ? this.src(f) : '';
    if (f?.type === 'identifier' && name === 'make' && args.length) {
      // `make([]T, 0, n)`: an empty slice; `make(map[K]V)`: an empty map. `make([]T, n)` holds n zero values: unknown.
      const len = args[1] ? this.value(args[1], depth + 1, hops) : undefined;
      if (args[0].type === 'slice_type' && len?.kind === 'number' && Number(len.text) === 0) return { kind: 'array', items: [], complete: true, range: this.range(n) };
      if (args[0].type === 'map_type') return { kind: 'object', properties: [], complete: true, range: this.range(n) };
      return this.unknown(n);
    }
    if ((/^(Itoa|Sprint)$/.test(name) && args.length === 1) || (name === 'FormatInt' && args.length === 2 && this.src(args[1]).trim() === '10')) {
      // A string (`expression.Value(strconv.Itoa(n))` is an S), keeping the number's sign: as the Value of an
      // AttributeValueMemberN, `strconv.Itoa(-n)` is still a decrement.
      const v = this.value(args[0], depth + 1, hops);
      const num = v.kind === 'number' ? Number(v.text) : NaN;
      const sign = num < 0 ? -1 : num > 0 ? 1 : v.kind === 'unknown' && v.type !== 'S' ? v.sign : undefined;
      return sign ? { ...this.unknown(n, 'S'), sign } : this.unknown(n, 'S');
    }
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
      const value = this.value(v, depth + 1, hops);
      // `ConditionExpression: expr.Condition()` of an expression built without a condition: nil, not sent.
      if (isAbsent(value)) continue;
      properties.push({ key, keyRange: this.range(keyNode), value, range: this.range(e) });
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

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Data flow of a local (server/src/flow holds the model; this binds Go's statements to it)                         */

  /** A value the flow reads statement by statement: a composite literal (`&T{..}`, `[]T{}`, `map[..]..{}`), `make(...)`, a nil slice. */
  private flowable(v: TNode): boolean {
    let n = v;
    if (n.type === 'unary_expression' && n.child(0)?.type === '&') n = n.childForFieldName('operand') ?? n;
    if (n.type === 'composite_literal' || n.type === 'slice_type') return true;
    return n.type === 'call_expression' && n.childForFieldName('function')?.type === 'identifier' && this.src(n.childForFieldName('function')!) === 'make';
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

  /**
   * Where a request held in a local is sent: the first mention after `after` (targets of its own assignments `in.X = ..`
   * aside) passed to a client method (`c.UpdateItem(ctx, in)`), else the last mention (a local handed to another
   * function first is read after it: not whole).
   */
  private firstUse(name: string, after: number, fn: TNode): TNode | undefined {
    const walk: TNode[] = [fn];
    const uses: TNode[] = [];
    while (walk.length) {
      const n = walk.pop()!;
      if (n.endIndex <= after) continue;
      if (n.type === 'identifier' && n.startIndex >= after && this.src(n) === name) {
        let top: TNode = n;
        while ((top.parent?.type === 'selector_expression' || top.parent?.type === 'index_expression') && top.parent.childForFieldName('operand')?.id === top.id) top = top.parent;
        const target = top.id !== n.id && top.parent?.type === 'expression_list' && top.parent.parent?.type === 'assignment_statement' && top.parent.parent.childForFieldName('left')?.id === top.parent.id;
        if (!target) uses.push(n);
        continue;
      }
      for (let i = n.namedChildCount - 1; i >= 0; i--) {
        const c = n.namedChild(i);
        if (c) walk.push(c);
      }
    }
    uses.sort((x, y) => x.startIndex - y.startIndex);
    const sent = uses.find((u) => {
      const arg = u.parent?.type === 'unary_expression' ? u.parent : u;
      const call = arg.parent?.type === 'argument_list' ? arg.parent.parent : undefined;
      const f = call?.type === 'call_expression' ? call.childForFieldName('function') : undefined;
      const method = f?.type === 'selector_expression' ? f.childForFieldName('field') : undefined;
      return !!method && /^(\w+?)(WithContext|Request)?$/.test(this.src(method)) && APIS.has(/^(\w+?)(?:WithContext|Request)?$/.exec(this.src(method))![1]);
    });
    return sent ?? uses[uses.length - 1];
  }

  private stmtsOf(n: TNode): TNode[] {
    if (n.type !== 'block') return [n];
    const list = kids(n).find((c) => c.type === 'statement_list');
    return list ? kids(list) : kids(n);
  }

  /**
   * What the local `name` holds at `use`: its function's statements read in order up to the one holding the use
   * (`x := ..`, `var x []T`, `x = append(x, ..)`, `x.F = v`, `x["k"] = v`, `delete(x, "k")`, reassignment), `if`/`else`
   * arms joined as alternatives, arms ending in `return`/`panic` dropped, `for` bodies read as zero or more passes (an
   * `append` there is a representative: `samples`). Undefined when not readable (a use inside a closure, a name
   * declared again in a nested block, the budget spent): the caller falls back.
   */
  private flow(name: string, use: TNode, fn: TNode, depth: number, hops: number): VNode | undefined {
    const body = fn.childForFieldName('body');
    if (!body || hops >= MAX_RESOLVE || this.flowBudget <= 0) return undefined;
    for (let p = use.parent; p && p.id !== fn.id; p = p.parent) if (p.type === 'func_literal') return undefined;
    const f: FlowCtx = { name, use, mention: new RegExp(`(?<![\\w.])${name}(?!\\w)`), depth: depth + 1, hops: hops + 1 };
    const r = this.gSteps(this.stmtsOf(body), [], f, 0);
    if (!r.reached || r.state === 'dead' || r.state?.length === 0) return undefined;
    return valueOf(r.state, this.unknown(use));
  }

  private gSteps(stmts: TNode[], state: State | 'dead', f: FlowCtx, nest: number): { state: State | 'dead'; reached: boolean } {
    let s = state;
    for (const st of stmts) {
      if (s === 'dead') return { state: s, reached: false };
      if (st.startIndex <= f.use.startIndex && f.use.endIndex <= st.endIndex) return { state: this.gInto(st, s, f, nest), reached: true };
      const next = this.gStep(st, s, f, nest, false, false);
      s = next === 'shadow' ? s : next;
    }
    return { state: s, reached: false };
  }

  /** The state at the use, inside the statement holding it. */
  private gInto(st: TNode, s: State, f: FlowCtx, nest: number): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    const inside = (n: TNode | null | undefined) => !!n && n.startIndex <= f.use.startIndex && f.use.endIndex <= n.endIndex;
    switch (st.type) {
      case 'if_statement': {
        const cons = st.childForFieldName('consequence');
        const alt = st.childForFieldName('alternative');
        if (cons && inside(cons)) return this.gSteps(this.stmtsOf(cons), s, f, nest + 1).state;
        if (alt && inside(alt)) return this.gSteps(this.stmtsOf(alt), s, f, nest + 1).state;
        return s;
      }
      case 'block':
        return this.gSteps(this.stmtsOf(st), s, f, nest + 1).state;
      case 'for_statement': {
        // What the body changes may have run before (another pass); a local declared in the body starts afresh.
        const body = st.childForFieldName('body');
        const again = this.gChanges(this.src(st), f) ? this.gUnreadable(s, this.src(st), f) : s;
        if (body && inside(body)) return this.gSteps(this.stmtsOf(body), again, f, nest + 1).state;
        return again;
      }
      case 'expression_switch_statement':
      case 'type_switch_statement':
      case 'select_statement': {
        const again = this.gChanges(this.src(st), f) ? this.gUnreadable(s, this.src(st), f) : s;
        const clause = kids(st).find((c) => /_case$|^default_case$/.test(c.type) && inside(c));
        if (!clause) return again;
        const stmts = kids(clause).filter((c) => c.id !== clause.childForFieldName('value')?.id && c.type !== 'expression_list' && c.type !== 'type_identifier' && !/_type$/.test(c.type));
        return this.gSteps(stmts, again, f, nest + 1).state;
      }
      case 'labeled_statement': {
        const inner = kids(st).find((c) => inside(c) && c.type !== 'label_name');
        return inner ? this.gInto(inner, s, f, nest + 1) : s;
      }
      default:
        return s;
    }
  }

  /** The state after a statement that does not hold the use. */
  private gStep(st: TNode, s: State, f: FlowCtx, nest: number, loop: boolean, over = true): State | 'dead' | 'shadow' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    if (st.type === 'return_statement') return 'dead';
    const text = this.src(st);
    if (st.type === 'expression_statement' && /^panic\s*\(/.test(text)) return 'dead';
    if (!f.mention.test(text)) return s;
    switch (st.type) {
      case 'short_var_declaration':
      case 'var_declaration': {
        const decls = st.type === 'var_declaration' ? this.specs(st) : [st];
        for (const d of decls) {
          const names = d.type === 'short_var_declaration' ? kids(d.childForFieldName('left')) : d.childrenForFieldName('name').filter((c): c is TNode => !!c);
          const i = names.findIndex((x) => this.src(x) === f.name);
          if (i < 0) continue;
          // Declared again in a nested block stepped over: a new name shadowing ours until the block ends.
          if (nest > 0 && over) return 'shadow';
          const values = kids(d.childForFieldName(d.type === 'short_var_declaration' ? 'right' : 'value'));
          const t = d.childForFieldName('type');
          if (!values.length && t?.type === 'slice_type') return [{ kind: 'array', items: [], complete: true, range: this.range(t) }];
          if (values.length !== names.length || this.gChanges(this.src(values[i]), f)) return undefined;
          return flatten([this.value(values[i], f.depth, f.hops)]);
        }
        break;
      }
      case 'assignment_statement': {
        const op = this.gOp(st, f, loop);
        if (op === 'same') return s;
        if (op && 'state' in op) return op.state;
        if (op) return applyAll(s, op);
        break;
      }
      case 'expression_statement': {
        const e = kids(st)[0];
        const args = e?.type === 'call_expression' ? kids(e.childForFieldName('arguments')) : [];
        if (e?.type === 'call_expression' && this.src(e.childForFieldName('function')!) === 'delete' && args.length === 2 && this.src(args[0]) === f.name && !f.mention.test(this.src(args[1]))) {
          const k = this.value(args[1], f.depth, f.hops);
          return k.kind === 'string' && !loop ? applyAll(s, { kind: 'delete', path: [k.value] }) : applyAll(s, { kind: 'opaque', deep: false });
        }
        break;
      }
      case 'if_statement': {
        const cons = st.childForFieldName('consequence');
        const alt = st.childForFieldName('alternative');
        const head = cons ? this.text.slice(st.startIndex, cons.startIndex) : text;
        if (this.gChanges(head, f)) return this.gUnreadable(s, text, f);
        return join(cons ? this.gBlock(this.stmtsOf(cons), s, f, nest + 1, loop) : s, alt ? this.gBlock(this.stmtsOf(alt), s, f, nest + 1, loop) : s);
      }
      case 'block':
        return this.gBlock(this.stmtsOf(st), s, f, nest + 1, loop);
      case 'for_statement': {
        // Zero or more passes: an `append` is a representative, anything else makes the value not whole.
        const body = st.childForFieldName('body');
        const head = body ? this.text.slice(st.startIndex, body.startIndex) : text;
        if (!body || /\b(?:break|continue|goto)\b/.test(text) || this.gChanges(head, f)) return this.gUnreadable(s, text, f);
        const r = this.gBlock(this.stmtsOf(body), s, f, nest + 1, true);
        return r === 'dead' ? s : r;
      }
    }
    return this.gChanges(text, f) ? this.gUnreadable(s, text, f) : s;
  }

  /** A nested block stepped over; a declaration of the same name there shadows ours until the block ends. */
  private gBlock(stmts: TNode[], s: State, f: FlowCtx, nest: number, loop: boolean): State | 'dead' {
    let cur: State | 'dead' = s;
    for (const x of stmts) {
      if (cur === 'dead') break;
      const next = this.gStep(x, cur, f, nest, loop);
      if (next === 'shadow') return cur;
      cur = next;
    }
    return cur;
  }

  /** An assignment's change: an op, a new state (`x = ..`), `same` (another name), or undefined (not read). */
  private gOp(st: TNode, f: FlowCtx, loop: boolean): Op | { state: State } | 'same' | undefined {
    const left = kids(st.childForFieldName('left'));
    const right = kids(st.childForFieldName('right'));
    const op = st.childForFieldName('operator');
    const mentions = (n: TNode) => f.mention.test(this.src(n));
    if (left.length !== 1 || right.length !== 1 || !op || this.src(op) !== '=') return this.gChanges(this.src(st), f) ? undefined : 'same';
    const [l, r] = [left[0], right[0]];
    if (l.type === 'identifier' && this.src(l) === f.name) {
      if (this.isAppendTo(r, f.name)) {
        const args = kids(r.childForFieldName('arguments')).slice(1);
        if (args.some(mentions)) return undefined;
        let items: VNode[];
        let complete = true;
        let samples = 0;
        if (/\.\.\.\s*\)$/.test(this.src(r))) {
          const v = args.length === 1 ? this.value(args[0], f.depth, f.hops) : undefined;
          if (v?.kind !== 'array') return { kind: 'opaque', deep: false };
          items = v.items;
          complete = v.complete;
          samples = v.samples ?? 0;
        } else items = args.map((a) => this.value(a, f.depth, f.hops));
        return loop ? { kind: 'push', items, complete: false, samples: items.length } : { kind: 'push', items, complete, ...(samples ? { samples } : {}) };
      }
      if (mentions(r) || loop) return undefined;
      return { state: flatten([this.value(r, f.depth, f.hops)]) };
    }
    const path = this.gPath(l, f);
    if (!path) return this.gChanges(this.src(st), f) ? undefined : 'same';
    if (mentions(r)) return undefined;
    if (loop) return { kind: 'opaque', deep: path.keys.length > 1 };
    return { kind: 'set', path: path.keys, keyRange: path.keyRange, value: this.value(r, f.depth, f.hops), range: this.range(st) };
  }

  /** `x.F.G` / `x["k"]` rooted at the name, with field names or literal string keys. */
  private gPath(n: TNode, f: FlowCtx): { keys: string[]; keyRange: Range } | undefined {
    const keys: string[] = [];
    let keyRange: Range | undefined;
    let cur: TNode | null = n;
    while (cur && (cur.type === 'selector_expression' || cur.type === 'index_expression')) {
      let key: string | undefined;
      let at: TNode | null;
      if (cur.type === 'selector_expression') {
        at = cur.childForFieldName('field');
        key = at ? this.src(at) : undefined;
      } else {
        at = cur.childForFieldName('index');
        const k = at ? this.value(at, f.depth, f.hops) : undefined;
        key = k?.kind === 'string' ? k.value : undefined;
      }
      if (key === undefined || !at) return undefined;
      keys.unshift(key);
      keyRange ??= this.range(at);
      cur = cur.childForFieldName('operand');
    }
    return cur?.type === 'identifier' && this.src(cur) === f.name && keys.length && keyRange ? { keys, keyRange } : undefined;
  }

  /** Whether text may change the local: an assignment through it, `&x`, `delete(x, ..)`, passing it to a call (`len`/`cap` read). */
  private gChanges(text: string, f: FlowCtx): boolean {
    if (!f.mention.test(text)) return false;
    const n = f.name;
    const t = text.replace(new RegExp(`\\b(?:len|cap)\\(\\s*${n}\\s*\\)`, 'g'), '');
    return new RegExp(
      `(?<![\\w.])${n}\\s*(?:\\.\\s*\\w+|\\[[^\\]\\n]*\\])*\\s*(?:=(?!=)|:=|[-+*/|&^]=|\\+\\+|--)|&${n}\\b|\\bdelete\\(\\s*${n}\\b|\\bappend\\(\\s*${n}\\b|[(,]\\s*${n}\\s*(?:[,)]|\\.\\.\\.)|(?<![\\w.])${n}\\s*\\.\\s*\\w+\\s*\\(`,
    ).test(t);
  }

  /** A change the flow cannot read: the value is no longer whole (reassigned: unknown). */
  private gUnreadable(s: State, text: string, f: FlowCtx): State {
    if (new RegExp(`(?<![\\w.])${f.name}\\s*(?::=|=(?!=))`).test(text)) return undefined;
    return applyAll(s, { kind: 'opaque', deep: true });
  }
}

export function goHost(): TreeHost {
  return new GoHost();
}

