/**
 * The `@aws-appsync/utils/dynamodb` helpers of APPSYNC_JS resolvers read as the DynamoDB request the runtime sends:
 * `update({ key, update: { n: operations.increment(1), title: 'x', old: operations.remove() }, condition })`,
 * `put({ key, item, condition })`, `remove({ key, condition })`, `transactWrite({ items: [{ putItem: { table, key, item,
 * condition } }, { updateItem }, { deleteItem }, { conditionCheck }] })`, through named imports (aliases too) or a
 * namespace import (`ddb.update`, `ddb.operations.increment`).
 *
 * What the helpers build is not in any public source: the npm package (2.x) ships types only (its
 * `lib/dynamodb-helpers.js` is empty) and the runtime is AppSync's. So only what the documented contract fixes is read,
 * and the rest is unknown (silent):
 * - `update`: a value or `operations.replace(v)` sets the attribute (`SET #a = :v`; an object may be written key by key,
 *   which changes that attribute all the same),
 *   `operations.remove()` removes it (`REMOVE #a`), `operations.increment(n)` / `decrement(n)` change a number by `n`
 *   (default 1). The increment is read as `ADD #a :v` (`decrement` as `ADD #a :-n`): whether the runtime writes `ADD` or
 *   `SET #a = #a + :v` is not public, and `ADD` is the reading under which no rule claims more than both share (the
 *   counter, its amount, its floor); `set-without-if-not-exists` is never raised on a helper.
 *   `operations.add/append/prepend/updateListItem` (list and set semantics not public), `null`/`undefined` (removal or
 *   error?), a spread or a computed key make the whole update expression unknown.
 * - `condition` (`DynamoDBFilterObject`): `{ a: { attributeExists: false } }` -> `attribute_not_exists(#a)`,
 *   `eq/ne/lt/le/gt/ge`, `beginsWith`, `contains`, `notContains`, `between: [x, y]`, `and: [...]`, `or: [...]`,
 *   `not: {...}`; entries of one object AND-ed. Any other operator, or a condition held in a variable: unknown.
 * - `put`: `Item` = `key` entries + `item` entries (as AppSync's PutItem does).
 *
 * The request is DynamoDB's shape built from the helper's argument: generated expression strings whose characters map
 * to the entry they come from (a finding on `:likes` lands on `likes: operations.increment(1)`), placeholder names
 * `#<attribute>` / `:<attribute>`, values as written (document style). Nothing of it is written in the source as
 * DynamoDB fields, so no fix is offered (`sdk` = `appsync-js-helper`, refused by `fixableSite`).
 */
import ts from 'typescript';
import type { Api, ObjectNode, Property, Range, StringNode, VNode } from './model';
export { APPSYNC_HELPER_SDK } from './appsync-shape';

const MODULE = '@aws-appsync/utils/dynamodb';
const HELPERS: Record<string, Api> = { update: 'UpdateItem', put: 'PutItem', remove: 'DeleteItem', transactWrite: 'TransactWriteItems' };
/** `transactWrite` items: the helper each entry kind is read as, and the kind in DynamoDB's `TransactItems`. */
const TRANSACT: Record<string, [helper: string, kind: string]> = { putItem: ['put', 'Put'], updateItem: ['update', 'Update'], deleteItem: ['remove', 'Delete'], conditionCheck: ['conditionCheck', 'ConditionCheck'] };

/** How the file names the helpers: local name -> helper, the namespace names, the local names of `operations`. */
export interface HelperImports {
  calls: Map<string, string>;
  namespaces: Set<string>;
  operations: Set<string>;
}

export function helperImports(sf: ts.SourceFile): HelperImports | undefined {
  const out: HelperImports = { calls: new Map(), namespaces: new Set(), operations: new Set() };
  for (const s of sf.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || s.moduleSpecifier.text !== MODULE) continue;
    const b = s.importClause?.namedBindings;
    if (!b) continue;
    if (ts.isNamespaceImport(b)) out.namespaces.add(b.name.text);
    else
      for (const e of b.elements) {
        const imported = (e.propertyName ?? e.name).text;
        if (imported in HELPERS) out.calls.set(e.name.text, imported);
        else if (imported === 'operations') out.operations.add(e.name.text);
      }
  }
  return out.calls.size || out.namespaces.size || out.operations.size ? out : undefined;
}

/** The helper a call invokes (`update(...)`, `ddb.update(...)`), or undefined. */
export function helperOf(call: ts.CallExpression, imp: HelperImports): { helper: string; api: Api; name: ts.Node } | undefined {
  const e = call.expression;
  let helper: string | undefined;
  let name: ts.Node | undefined;
  if (ts.isIdentifier(e)) [helper, name] = [imp.calls.get(e.text), e];
  else if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) && imp.namespaces.has(e.expression.text) && e.name.text in HELPERS) [helper, name] = [e.name.text, e.name];
  return helper && name ? { helper, api: HELPERS[helper], name } : undefined;
}

/** `operations.increment` / `ddb.operations.increment` -> `increment`. */
function operationName(e: ts.Expression, imp: HelperImports): string | undefined {
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  const o = e.expression;
  if (ts.isIdentifier(o) && imp.operations.has(o.text)) return e.name.text;
  if (ts.isPropertyAccessExpression(o) && o.name.text === 'operations' && ts.isIdentifier(o.expression) && imp.namespaces.has(o.expression.text)) return e.name.text;
  return undefined;
}

/** What the caller provides: document-style values of expressions, ranges, a property key reader. */
export interface HelperReader {
  sf: ts.SourceFile;
  value(e: ts.Expression): VNode;
  range(n: ts.Node): Range;
  key(name: ts.PropertyName): string | undefined;
}

/** A generated expression: text pieces, each with the source range its characters stand for. */
class Expr {
  value = '';
  offsets: number[] = [];
  ends: number[] = [];
  add(text: string, r: Range): this {
    for (let i = 0; i < text.length; i++) {
      this.value += text[i];
      this.offsets.push(r.start);
      this.ends.push(r.end);
    }
    return this;
  }
  node(range: Range): StringNode {
    return { kind: 'string', value: this.value, offsets: this.offsets, ends: this.ends, range };
  }
}

/** Names and values the generated expressions use, shared by update and condition. */
class Maps {
  names: Property[] = [];
  values: Property[] = [];
  private readonly taken = new Set<string>();
  /** Attribute -> its `#name` (one per attribute). */
  private readonly named = new Map<string, string>();
  /** Base -> the suffix of the key last given for it: every key of that base before it is taken (linear, not n²). */
  private readonly next = new Map<string, number>();
  name(attr: string, r: Range): string {
    const known = this.named.get(attr);
    if (known !== undefined) return known;
    const key = this.fresh('#' + (/^\w+$/.test(attr) ? attr : 'a'));
    this.named.set(attr, key);
    const offsets = Array.from(attr, () => r.start);
    this.names.push({ key, keyRange: { ...r }, value: { kind: 'string', value: attr, offsets, ends: Array.from(attr, () => r.end), range: { ...r } }, range: { ...r } });
    return key;
  }
  value(attr: string, v: VNode, r: Range): string {
    const key = this.fresh(':' + (/^\w+$/.test(attr) ? attr : 'v'));
    this.values.push({ key, keyRange: { ...r }, value: v, range: { ...r } });
    return key;
  }
  /** The first of `base`, `base1`, `base2`... not taken. */
  private fresh(base: string): string {
    let i = this.next.get(base) ?? 0;
    let k = i ? base + i : base;
    while (this.taken.has(k)) k = base + ++i;
    this.next.set(base, i);
    this.taken.add(k);
    return k;
  }
}

const strip = (e: ts.Expression): ts.Expression => {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return e;
};

/** The entries of an object literal by key, or undefined when one is not a plain `key: value` / shorthand. */
function entries(r: HelperReader, o: ts.ObjectLiteralExpression): { key: string; node: ts.ObjectLiteralElementLike; value: ts.Expression }[] | undefined {
  const out: { key: string; node: ts.ObjectLiteralElementLike; value: ts.Expression }[] = [];
  for (const p of o.properties) {
    if (ts.isPropertyAssignment(p)) {
      const k = r.key(p.name);
      if (k === undefined) return undefined;
      out.push({ key: k, node: p, value: p.initializer });
    } else if (ts.isShorthandPropertyAssignment(p)) out.push({ key: p.name.text, node: p, value: p.name });
    else return undefined;
  }
  return out;
}

/** `update: {...}` as an update expression, or undefined when any entry is not known. */
function updateExpression(r: HelperReader, imp: HelperImports, o: ts.ObjectLiteralExpression, maps: Maps): StringNode | undefined {
  const list = entries(r, o);
  if (!list || !list.length) return undefined;
  const clauses: Record<'SET' | 'REMOVE' | 'ADD', { text: string; range: Range }[]> = { SET: [], REMOVE: [], ADD: [] };
  for (const { key, node, value } of list) {
    const range = r.range(node);
    const v = strip(value);
    const op = ts.isCallExpression(v) ? operationName(v.expression, imp) : undefined;
    if (op && ts.isCallExpression(v)) {
      if (op === 'remove' && v.arguments.length === 0) clauses.REMOVE.push({ text: maps.name(key, range), range });
      else if (op === 'replace' && v.arguments.length === 1) clauses.SET.push({ text: `${maps.name(key, range)} = ${maps.value(key, r.value(v.arguments[0]), r.range(v.arguments[0]))}`, range });
      else if ((op === 'increment' || op === 'decrement') && v.arguments.length <= 1) {
        const amount = amountOf(r, v, op === 'decrement');
        clauses.ADD.push({ text: `${maps.name(key, range)} ${maps.value(key, amount, amount.range)}`, range });
      } else return undefined;
    } else if (v.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(v) && v.text === 'undefined') || op) return undefined;
    else clauses.SET.push({ text: `${maps.name(key, range)} = ${maps.value(key, r.value(v), r.range(v))}`, range });
  }
  const e = new Expr();
  const where = r.range(o);
  for (const kw of ['SET', 'REMOVE', 'ADD'] as const) {
    const actions = clauses[kw];
    if (!actions.length) continue;
    if (e.value) e.add(' ', actions[0].range);
    e.add(kw + ' ', actions[0].range);
    actions.forEach((a, i) => {
      if (i) e.add(', ', a.range);
      e.add(a.text, a.range);
    });
  }
  return e.node(where);
}

/** The number an increment/decrement changes by: the argument (negated for a decrement), 1 when none. */
function amountOf(r: HelperReader, call: ts.CallExpression, negate: boolean): VNode {
  const range = r.range(call.arguments[0] ?? call);
  if (!call.arguments.length) return { kind: 'number', text: negate ? '-1' : '1', range };
  const v = r.value(call.arguments[0]);
  // Only a number literal: what the runtime makes of a string or another value is not public.
  if (v.kind !== 'number') return { kind: 'unknown', range };
  if (!negate) return v;
  return { kind: 'number', text: v.text.startsWith('-') ? v.text.slice(1) : '-' + v.text, range };
}

const COMPARE: Record<string, string> = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' };

/** A `DynamoDBFilterObject` as a condition expression, or undefined when any part is not known. */
function conditionExpression(r: HelperReader, o: ts.ObjectLiteralExpression, maps: Maps, depth = 0): Expr | undefined {
  const list = entries(r, o);
  if (!list || !list.length || depth > 32) return undefined;
  const parts: Expr[] = [];
  for (const { key, node, value } of list) {
    const range = r.range(node);
    const v = strip(value);
    if (key === 'and' || key === 'or') {
      if (!ts.isArrayLiteralExpression(v) || !v.elements.length) return undefined;
      const subs: Expr[] = [];
      for (const el of v.elements) {
        const s = strip(el as ts.Expression);
        const sub = ts.isObjectLiteralExpression(s) ? conditionExpression(r, s, maps, depth + 1) : undefined;
        if (!sub) return undefined;
        subs.push(sub);
      }
      const e = new Expr().add('(', range);
      subs.forEach((s, i) => {
        if (i) e.add(` ${key.toUpperCase()} `, range);
        append(e, s);
      });
      parts.push(e.add(')', range));
      continue;
    }
    if (key === 'not') {
      const sub = ts.isObjectLiteralExpression(v) ? conditionExpression(r, v, maps, depth + 1) : undefined;
      if (!sub) return undefined;
      const e = new Expr().add('NOT (', range);
      append(e, sub);
      parts.push(e.add(')', range));
      continue;
    }
    if (!ts.isObjectLiteralExpression(v)) return undefined;
    const ops = entries(r, v);
    if (!ops || !ops.length) return undefined;
    for (const op of ops) {
      const at = r.range(op.node);
      const x = strip(op.value);
      const name = () => maps.name(key, range);
      const val = (e: ts.Expression) => maps.value(key, r.value(e), r.range(e));
      if (op.key in COMPARE) parts.push(new Expr().add(`${name()} ${COMPARE[op.key]} ${val(x)}`, at));
      else if (op.key === 'beginsWith') parts.push(new Expr().add(`begins_with(${name()}, ${val(x)})`, at));
      else if (op.key === 'contains') parts.push(new Expr().add(`contains(${name()}, ${val(x)})`, at));
      else if (op.key === 'notContains') parts.push(new Expr().add(`NOT contains(${name()}, ${val(x)})`, at));
      else if (op.key === 'between' && ts.isArrayLiteralExpression(x) && x.elements.length === 2 && x.elements.every((el) => !ts.isSpreadElement(el))) parts.push(new Expr().add(`${name()} BETWEEN ${val(x.elements[0])} AND ${val(x.elements[1])}`, at));
      else if (op.key === 'attributeExists' && (x.kind === ts.SyntaxKind.TrueKeyword || x.kind === ts.SyntaxKind.FalseKeyword)) parts.push(new Expr().add(`${x.kind === ts.SyntaxKind.TrueKeyword ? 'attribute_exists' : 'attribute_not_exists'}(${name()})`, at));
      else return undefined;
    }
  }
  const out = new Expr();
  parts.forEach((p, i) => {
    if (i) out.add(' AND ', p.offsets.length ? { start: p.offsets[0], end: p.ends[0] } : r.range(o));
    append(out, p);
  });
  return out;
}

function append(into: Expr, from: Expr): void {
  into.value += from.value;
  // A loop, not push(...): a spread of a long expression's offsets overflows the stack.
  for (let i = 0; i < from.offsets.length; i++) {
    into.offsets.push(from.offsets[i]);
    into.ends.push(from.ends[i]);
  }
}

/**
 * The DynamoDB parameters of a helper call (`update`/`put`/`remove`/`transactWrite` with an object literal argument),
 * or undefined when the argument is not a literal (the request is then unknown: no site).
 */
export function helperRequest(r: HelperReader, call: ts.CallExpression, helper: string, imp: HelperImports): ObjectNode | undefined {
  const arg = call.arguments[0] && strip(call.arguments[0]);
  if (!arg || !ts.isObjectLiteralExpression(arg) || call.arguments.length !== 1) return undefined;
  return helper === 'transactWrite' ? transaction(r, arg, imp) : params(r, arg, helper, imp, false);
}

/** `transactWrite({ items: [{ putItem: {...} }, { updateItem: {...} }, ...] })` as `TransactItems`. */
function transaction(r: HelperReader, arg: ts.ObjectLiteralExpression, imp: HelperImports): ObjectNode {
  const list = entries(r, arg);
  const out: ObjectNode = { kind: 'object', properties: [], complete: !!list, range: r.range(arg) };
  for (const { key, node, value } of list ?? []) {
    const v = strip(value);
    if (key !== 'items') {
      out.complete = false;
      continue;
    }
    const keyRange = ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) ? r.range(node.name) : r.range(node);
    if (!ts.isArrayLiteralExpression(v)) {
      out.properties.push({ key: 'TransactItems', keyRange, value: { kind: 'unknown', range: r.range(v) }, range: r.range(node) });
      continue;
    }
    const items: VNode[] = [];
    let complete = true;
    for (const el of v.elements) {
      const e = strip(el as ts.Expression);
      const only = ts.isObjectLiteralExpression(e) ? entries(r, e) : undefined;
      const kind = only?.length === 1 ? TRANSACT[only[0].key] : undefined;
      const body = kind && strip(only![0].value);
      if (!kind || !body || !ts.isObjectLiteralExpression(body)) {
        complete = false;
        if (!ts.isSpreadElement(el) && !ts.isOmittedExpression(el)) items.push({ kind: 'unknown', range: r.range(el) });
        continue;
      }
      const entry = only![0].node;
      const name = ts.isPropertyAssignment(entry) ? r.range(entry.name) : r.range(entry);
      items.push({ kind: 'object', properties: [{ key: kind[1], keyRange: name, value: params(r, body, kind[0], imp, true), range: r.range(entry) }], complete: true, range: r.range(e) });
    }
    out.properties.push({ key: 'TransactItems', keyRange, value: { kind: 'array', items, complete, range: r.range(v) }, range: r.range(node) });
  }
  return out;
}

/** One request's parameters from a helper's argument (`inTransaction`: an item of `transactWrite`, with its `table`). */
function params(r: HelperReader, arg: ts.ObjectLiteralExpression, helper: string, imp: HelperImports, inTransaction: boolean): ObjectNode {
  const list = entries(r, arg);
  const out: ObjectNode = { kind: 'object', properties: [], complete: !!list, range: r.range(arg) };
  if (!list) return out;
  const maps = new Maps();
  let key: Property | undefined;
  let item: Property | undefined;
  for (const { key: k, node, value } of list) {
    const range = r.range(node);
    const keyRange = ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) ? r.range(node.name) : range;
    const v = strip(value);
    switch (k) {
      case 'key':
        key = { key: 'Key', keyRange, value: r.value(value), range };
        out.properties.push(key);
        break;
      case 'item':
        if (helper !== 'put') out.complete = false;
        else item = { key: 'Item', keyRange, value: r.value(value), range };
        break;
      case 'update': {
        if (helper !== 'update') {
          out.complete = false;
          break;
        }
        const s = ts.isObjectLiteralExpression(v) ? updateExpression(r, imp, v, maps) : undefined;
        out.properties.push({ key: 'UpdateExpression', keyRange, value: s ?? { kind: 'unknown', range: r.range(v) }, range });
        break;
      }
      case 'condition': {
        const e = ts.isObjectLiteralExpression(v) ? conditionExpression(r, v, maps) : undefined;
        out.properties.push({ key: 'ConditionExpression', keyRange, value: e ? e.node(r.range(v)) : { kind: 'unknown', range: r.range(v) }, range });
        break;
      }
      case 'table':
        if (inTransaction) out.properties.push({ key: 'TableName', keyRange, value: r.value(value), range });
        else out.complete = false;
        break;
      case 'customPartitionKey':
      case 'populateIndexFields':
      case '_version':
        break;
      default:
        out.complete = false;
    }
  }
  if (helper === 'put') {
    // AppSync's PutItem writes key + item as the Item.
    const kv = key?.value;
    const iv = item?.value;
    if (key) out.properties.splice(out.properties.indexOf(key), 1);
    if (kv?.kind === 'object' && iv?.kind === 'object')
      out.properties.unshift({ key: 'Item', keyRange: item!.keyRange, value: { kind: 'object', properties: [...kv.properties, ...iv.properties], complete: kv.complete && iv.complete, range: { ...iv.range } }, range: item!.range });
    else if (item || key) out.properties.unshift({ key: 'Item', keyRange: (item ?? key)!.keyRange, value: { kind: 'unknown', range: { ...(item ?? key)!.value.range } }, range: (item ?? key)!.range });
  }
  const where = r.range(arg);
  if (maps.names.length) out.properties.push({ key: 'ExpressionAttributeNames', keyRange: { start: where.start, end: where.start }, value: { kind: 'object', properties: maps.names, complete: true, range: { ...where } }, range: { ...where } });
  if (maps.values.length) out.properties.push({ key: 'ExpressionAttributeValues', keyRange: { start: where.start, end: where.start }, value: { kind: 'object', properties: maps.values, complete: true, range: { ...where } }, range: { ...where } });
  return out;
}
