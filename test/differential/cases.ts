/**
 * Differential cases: requests sent both to DynamoDB Local and to our validator. Generated as families x variants;
 * every case pins what DynamoDB Local answered when it was recorded (see README.md).
 *
 * Verdicts:
 * - `OK`: Local accepts the request (success or ConditionalCheckFailedException on the missing item);
 * - `rej(fragment)`: ValidationException whatever the item holds, message containing `fragment`;
 * - `onItem(fragment)`: a ValidationException that depends on the stored item (e.g. `SET x = x + :n` when `x` is missing);
 *   companion cases with a `seed` item show such requests succeeding once the item holds what they read. Not a rejection.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Op = 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'GetItem' | 'Query' | 'Scan';
export type Item = Record<string, AttributeValue>;

export interface DiffRequest {
  op: Op;
  UpdateExpression?: string;
  ConditionExpression?: string;
  KeyConditionExpression?: string;
  FilterExpression?: string;
  ProjectionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Item;
  /** PutItem: attributes besides the key. */
  item?: Item;
  /** The Key (or the Item's key attributes) instead of the case's own `diff#<index>` key. */
  key?: Item;
  /** Other request parameters sent as written: legacy ones (KeyConditions, Expected...), Select, IndexName. */
  params?: Record<string, unknown>;
}

export interface Verdict {
  rejects: boolean;
  /** Fragment of Local's ValidationException message (a rejection, or an item-dependent error when rejects is false). */
  message?: string;
}

export interface DiffCase {
  name: string;
  family: string;
  request: DiffRequest;
  /** DynamoDB Local's answer, pinned. */
  local: Verdict;
  /** Stored (under the case's own key) before the request is sent. */
  seed?: Item;
  /** Local departs from AWS's documentation here; the validator must give the documented (opposite) verdict. */
  documentedDeparture?: true;
  note?: string;
}

export const OK: Verdict = { rejects: false };
export const rej = (message: string): Verdict => ({ rejects: true, message });
export const onItem = (message: string): Verdict => ({ rejects: false, message });

const SYNTAX = 'Syntax error';
const MISSING_ATTR = 'The provided expression refers to an attribute that does not exist in the item';
const BAD_PATH = 'The document path provided in the update expression is invalid for update';
const ARITY = 'Incorrect number of operands for operator or function';
const OPERAND_TYPE = 'Incorrect operand type for operator or function';
const NEEDS_PATH = 'Operator or function requires a document path';
const OVERLAP = 'Two document paths overlap with each other';
const CONFLICT = 'Two document paths conflict with each other';
const RESERVED = 'Attribute name is a reserved keyword';
const UNDEFINED_VALUE = 'An expression attribute value used in expression is not defined';
const UNDEFINED_NAME = 'An expression attribute name used in the document path is not defined';
const UNUSED_VALUE = 'Value provided in ExpressionAttributeValues unused in expressions';
const UNUSED_NAME = 'Value provided in ExpressionAttributeNames unused in expressions';
const IDENTICAL = 'The first operand must be distinct from the remaining operands';
const REDUNDANT = 'The expression has redundant parentheses';
const EMPTY = 'The expression can not be empty';
const KEY_UPDATE = 'This attribute is part of the key';
const BAD_FUNCTION = 'Invalid function name';
const MISUSED_FUNCTION = 'The function is not allowed to be used this way in an expression';
const NOT_IN_UPDATE = 'The function is not allowed in an update expression';
const NOT_IN_CONDITION = 'The function is not allowed in a condition expression';
const INDEX_RANGE = 'List index is not within the allowable range';
const ONE_PER_KEY = 'KeyConditionExpressions must only contain one condition per key';
const LONG_KEY = 'The expression attribute map contains a key that is too long';

/* ------------------------------------------------------------------------------------------------------------------ */
/* Request builders: placeholders used in the expressions are defined automatically unless a case says otherwise.      */

const BYTES = new Uint8Array([1, 2, 3]);

/** Default value of a placeholder, chosen by its name: `:n…` number, `:ss…` string set, `:list…` list, ... */
export function defaultValue(placeholder: string): AttributeValue {
  const n = placeholder.slice(1).toLowerCase();
  if (n.startsWith('ss')) return { SS: ['a', 'b'] };
  if (n.startsWith('ns')) return { NS: ['1', '2'] };
  if (n.startsWith('bs')) return { BS: [BYTES] };
  if (n.startsWith('bool')) return { BOOL: true };
  if (n.startsWith('null')) return { NULL: true };
  if (n.startsWith('map')) return { M: { k: { S: 'v' } } };
  if (n.startsWith('list')) return { L: [{ S: 'v' }] };
  if (n.startsWith('bin')) return { B: BYTES };
  if (/^(n\d*|num.*|z)$/.test(n)) return { N: n === 'z' ? '0' : '1' };
  return { S: 'v' };
}

interface Opts {
  /** Extra or overriding values / names (merged over the automatic ones). */
  values?: Item;
  names?: Record<string, string>;
  /** Placeholders to leave undefined. */
  omit?: string[];
  /** Use exactly these maps (`null`: send no map). */
  exactValues?: Item | null;
  exactNames?: Record<string, string> | null;
  item?: Item;
}

type Fields = Pick<DiffRequest, 'UpdateExpression' | 'ConditionExpression' | 'KeyConditionExpression' | 'FilterExpression' | 'ProjectionExpression'>;

function build(op: Op, fields: Fields, o: Opts = {}): DiffRequest {
  const text = Object.values(fields).join(' ');
  const names: Record<string, string> = {};
  const values: Item = {};
  for (const m of text.matchAll(/#[A-Za-z0-9_]+/g)) names[m[0]] = m[0].slice(1);
  for (const m of text.matchAll(/:[A-Za-z0-9_]+/g)) values[m[0]] = defaultValue(m[0]);
  for (const p of o.omit ?? []) {
    delete names[p];
    delete values[p];
  }
  Object.assign(names, o.names);
  Object.assign(values, o.values);
  const req: DiffRequest = { op, ...fields };
  const n = o.exactNames !== undefined ? o.exactNames : Object.keys(names).length ? names : null;
  const v = o.exactValues !== undefined ? o.exactValues : Object.keys(values).length ? values : null;
  if (n) req.ExpressionAttributeNames = n;
  if (v) req.ExpressionAttributeValues = v;
  if (o.item) req.item = o.item;
  return req;
}

export const update = (UpdateExpression: string, o?: Opts) => build('UpdateItem', { UpdateExpression }, o);
const updateIf = (UpdateExpression: string, ConditionExpression: string, o?: Opts) =>
  build('UpdateItem', { UpdateExpression, ConditionExpression }, o);
const put = (ConditionExpression: string, o?: Opts) => build('PutItem', { ConditionExpression }, o);
const del = (ConditionExpression: string, o?: Opts) => build('DeleteItem', { ConditionExpression }, o);
const scan = (FilterExpression: string, o?: Opts) => build('Scan', { FilterExpression }, o);
const query = (KeyConditionExpression: string, o?: Opts & { filter?: string; projection?: string }) =>
  build('Query', { KeyConditionExpression, FilterExpression: o?.filter, ProjectionExpression: o?.projection }, o);
const get = (ProjectionExpression: string, o?: Opts) => build('GetItem', { ProjectionExpression }, o);
const scanProjection = (ProjectionExpression: string, o?: Opts) => build('Scan', { ProjectionExpression }, o);

/** The five places a condition can go. */
const CONDITION_CONTEXTS: [string, (cond: string, o?: Opts) => DiffRequest][] = [
  ['put', put],
  ['delete', del],
  ['update', (c, o) => updateIf('SET zz = :zz', c, o)],
  ['scan filter', scan],
  ['query filter', (c, o) => query('PK = :pk', { ...o, filter: c })],
];

/* ------------------------------------------------------------------------------------------------------------------ */

export const CASES: DiffCase[] = [];
let family = '';

/** A readable, single-line case name: control characters escaped, long expressions shortened. */
function caseName(text: string): string {
  const line = text.replace(/[\t\r\n]/g, (c) => JSON.stringify(c).slice(1, -1));
  return line.length <= 90 ? line : `${line.slice(0, 60)}… (${line.length} chars)`;
}

function add(name: string, request: DiffRequest, local: Verdict, extra: Partial<DiffCase> = {}): void {
  CASES.push({ name: `${family}: ${caseName(name)}`, family, request, local, ...extra });
}

/** Add one update case per [expression, verdict, opts?] row. */
function updates(rows: [string, Verdict, (Opts & { seed?: Item })?][]): void {
  for (const [expr, verdict, o] of rows) add(expr, update(expr, o), verdict, o?.seed ? { seed: o.seed } : {});
}

/** Conditions spread round-robin over the five contexts; `everywhere` rows go to all of them. */
function conditions(rows: [string, Verdict, Opts?][], everywhere = false): void {
  rows.forEach(([expr, verdict, o], i) => {
    const ctxs = everywhere ? CONDITION_CONTEXTS : [CONDITION_CONTEXTS[i % CONDITION_CONTEXTS.length]];
    for (const [ctx, mk] of ctxs) add(`[${ctx}] ${expr}`, mk(expr, o), verdict);
  });
}

/* SET basics ------------------------------------------------------------------------------------------------------- */
family = 'update-set';
updates([
  ['SET a = :v', OK],
  ['set a = :v', OK],
  ['SeT a = :v', OK],
  ['SET a = :v, b = :w', OK],
  ['SET a=:v,b=:w', OK],
  ['  SET   a   =   :v  ', OK],
  ['SET\ta\n=\r\n:v', OK],
  ['SET _a = :v', rej(SYNTAX)],
  ['SET a_1 = :v', OK],
  ['SET A = :v, a = :w', OK],
  ['SET #a = :v', OK],
  ['SET a = :v, b = :v', OK],
  ['SET a = :v,', rej(SYNTAX)],
  ['SET a :v', rej(SYNTAX)],
  ['SET = :v', rej(SYNTAX)],
  ['SET a =', rej(SYNTAX)],
  ['SET', rej(SYNTAX)],
  ['SET a = :v b = :w', rej(SYNTAX)],
  ['SET a = :v AND b = :w', rej(SYNTAX)],
  ['SET a == :v', rej(SYNTAX)],
  ['SET a = :v;', rej(SYNTAX)],
  ['SET a = "x"', rej(SYNTAX)],
  ["SET a = 'x'", rej(SYNTAX)],
  ['SET a = 5', rej(SYNTAX)],
  ['SET 1a = :v', rej(SYNTAX)],
  ['SET a-b = :v', rej(SYNTAX)],
  ['SET é = :v', rej(SYNTAX)],
  ['SET :v = :w', rej(SYNTAX)],
  ['UPDATE a = :v', rej(SYNTAX)],
  ['a = :v', rej(SYNTAX)],
  ['SET a = :v, , b = :w', rej(SYNTAX)],
  ['SET a = b', onItem(MISSING_ATTR)],
  ['SET a = b ', OK, { seed: { b: { S: 'x' } } }],
  ['SET a = #b', onItem(MISSING_ATTR)],
  ['SET a.b = :v', onItem(BAD_PATH)],
  ['SET a.b = :v ', OK, { seed: { a: { M: {} } } }],
  ['SET a[0] = :v', onItem(BAD_PATH)],
  ['SET a[0] = :v ', OK, { seed: { a: { L: [{ S: 'x' }] } } }],
  ['SET #a.#b = :v', OK, { seed: { a: { M: {} } } }],
  ['SET a = :n-w', onItem(MISSING_ATTR)],
  ['SET a = :n-w ', OK, { seed: { w: { N: '1' } } }],
  ['', rej(EMPTY)],
  ['   ', rej(SYNTAX)],
]);

/* SET arithmetic ------------------------------------------------------------------------------------------------------ */
family = 'update-arithmetic';
updates([
  ['SET a = :n + :n2', OK],
  ['SET a = :n - :n2', OK],
  ['SET a = :n+:n2', OK],
  ['SET a = a + :n', onItem(MISSING_ATTR)],
  ['SET a = a + :n ', OK, { seed: { a: { N: '5' } } }],
  ['SET a = :n + a', onItem(MISSING_ATTR)],
  ['SET a = :n + a ', OK, { seed: { a: { N: '2' } } }],
  ['SET a = a - :n', onItem(MISSING_ATTR)],
  ['SET a = if_not_exists(a, :z) + :n', OK],
  ['SET a = :n + if_not_exists(a, :z)', OK],
  ['SET a = if_not_exists(a, :z) - :n', OK],
  ['SET a = :n + :n2 + :n3', rej(SYNTAX)],
  ['SET a = :n + :n2 - :n3', rej(SYNTAX)],
  ['SET a = (:n + :n2)', OK],
  ['SET a = :n + (:n2)', OK],
  ['SET a = ((:n + :n2))', rej(REDUNDANT)],
  ['SET a = (if_not_exists(a, :z)) + :n', OK],
  ['SET a = :n +', rej(SYNTAX)],
  ['SET a = + :n', rej(SYNTAX)],
  ['SET a = :n * :n2', rej(SYNTAX)],
  ['SET a = :n - - :n2', rej(SYNTAX)],
  ['SET a = :s + :n', rej(OPERAND_TYPE)],
  ['SET a = :n + :bool', rej(OPERAND_TYPE)],
  ['SET a = :ss - :n', rej(OPERAND_TYPE)],
  ['SET a = :list + :n', rej(OPERAND_TYPE)],
  ['SET a = a + a', onItem(MISSING_ATTR)],
  ['SET a = a + a ', OK, { seed: { a: { N: '2' } } }],
  ['SET a = b + c', onItem(MISSING_ATTR)],
  ['SET a = b + c ', OK, { seed: { b: { N: '1' }, c: { N: '2' } } }],
]);

/* Functions in update expressions --------------------------------------------------------------------------------- */
family = 'update-functions';
updates([
  ['SET a = if_not_exists(a, :v)', OK],
  ['SET a = if_not_exists(b, :v)', OK],
  ['SET a = IF_NOT_EXISTS(a, :v)', rej(BAD_FUNCTION)],
  ['SET a = If_Not_Exists(a, :v)', rej(BAD_FUNCTION)],
  ['SET a = if_not_exists(a.b, :v)', OK],
  ['SET a = if_not_exists (a, :v)', OK],
  ['SET a = if_not_exists(a)', rej(ARITY)],
  ['SET a = if_not_exists(a, :v, :w)', rej(ARITY)],
  ['SET a = if_not_exists()', rej(SYNTAX)],
  ['SET a = if_not_exists(:v, :w)', rej(NEEDS_PATH)],
  ['SET a = if_not_exists(a, b)', onItem(MISSING_ATTR)],
  ['SET a = if_not_exists(a, b) ', OK, { seed: { b: { S: 'x' } } }],
  ['SET a = if_not_exists(a, if_not_exists(b, :v))', OK],
  ['SET if_not_exists(a, :v) = :w', rej(SYNTAX)],
  ['SET l = list_append(:list, :list2)', OK],
  ['SET l = list_append(l, :list)', onItem(MISSING_ATTR)],
  ['SET l = list_append(l, :list) ', OK, { seed: { l: { L: [] } } }],
  ['SET l = list_append(if_not_exists(l, :list), :list2)', OK],
  ['SET l = LIST_APPEND(:list, :list2)', rej(BAD_FUNCTION)],
  ['SET l = list_append(:list)', rej(ARITY)],
  ['SET l = list_append(:list, :list2, :list3)', rej(ARITY)],
  ['SET l = list_append(:s, :list)', rej(OPERAND_TYPE)],
  ['SET l = list_append(:list, :n)', rej(OPERAND_TYPE)],
  ['SET l = list_append(:list, :map)', rej(OPERAND_TYPE)],
  ['SET l = list_append(list_append(:list, :list2), :list3)', rej(MISUSED_FUNCTION)],
  ['SET l = list_append(:list, :list2) + :n', rej(MISUSED_FUNCTION)],
  ['SET a = size(b)', rej(NOT_IN_UPDATE)],
  ['SET a = attribute_exists(b)', rej(NOT_IN_UPDATE)],
  ['SET a = attribute_not_exists(b)', rej(NOT_IN_UPDATE)],
  ['SET a = attribute_type(b, :t)', rej(NOT_IN_UPDATE), { values: { ':t': { S: 'S' } } }],
  ['SET a = begins_with(b, :s)', rej(NOT_IN_UPDATE)],
  ['SET a = contains(b, :s)', rej(NOT_IN_UPDATE)],
  ['SET a = foo(:v)', rej(BAD_FUNCTION)],
  ['SET a = ifnotexists(a, :v)', rej(BAD_FUNCTION)],
  ['SET a = if_not_exist(a, :v)', rej(BAD_FUNCTION)],
  ['ADD a if_not_exists(a, :n)', rej(SYNTAX)],
  ['REMOVE if_not_exists(a, :v)', rej(SYNTAX)],
]);

/* ADD / DELETE with each value type ------------------------------------------------------------------------------- */
family = 'update-add-delete';
const VALUE_TYPES: [string, AttributeValue][] = [
  ['N', { N: '1' }],
  ['SS', { SS: ['a'] }],
  ['NS', { NS: ['1'] }],
  ['BS', { BS: [BYTES] }],
  ['S', { S: 'x' }],
  ['BOOL', { BOOL: true }],
  ['NULL', { NULL: true }],
  ['M', { M: { k: { N: '1' } } }],
  ['L', { L: [{ N: '1' }] }],
  ['B', { B: BYTES }],
];
for (const [t, v] of VALUE_TYPES) {
  add(`ADD a :x with ${t}`, update('ADD a :x', { values: { ':x': v } }), ['N', 'SS', 'NS', 'BS'].includes(t) ? OK : rej(OPERAND_TYPE));
  add(`DELETE a :x with ${t}`, update('DELETE a :x', { values: { ':x': v } }), ['SS', 'NS', 'BS'].includes(t) ? OK : rej(OPERAND_TYPE));
}
updates([
  ['ADD a :n, b :ss', OK],
  ['add a :n', OK],
  ['Add a :n', OK],
  ['delete a :ss', OK],
  ['ADD #a :n', OK],
  ['ADD a, :n', rej(SYNTAX)],
  ['ADD a = :n', rej(SYNTAX)],
  ['ADD a', rej(SYNTAX)],
  ['ADD :n a', rej(SYNTAX)],
  ['ADD a :n + :n2', rej(SYNTAX)],
  ['ADD a :n,', rej(SYNTAX)],
  ['DELETE a', rej(SYNTAX)],
  ['DELETE a = :ss', rej(SYNTAX)],
  ['ADD a b', rej(SYNTAX)],
  ['DELETE a b', rej(SYNTAX)],
  ['ADD a :n, a :n2', rej(OVERLAP)],
  ['DELETE a :ss, a :ss2', rej(OVERLAP)],
  ['ADD a :n DELETE a :ss', rej(OVERLAP)],
  ['ADD a :n ADD b :n2', rej('"ADD" section can only be used once')],
  ['DELETE a :ss DELETE b :ss2', rej('"DELETE" section can only be used once')],
]);
// ADD/DELETE on nested paths: the API reference says top-level attributes only; DynamoDB Local accepts them.
const NESTED_NOTE = 'AWS API reference: ADD and DELETE support only top-level attributes; DynamoDB Local accepts nested paths.';
for (const [expr, seed] of [
  ['ADD a.b :n', { a: { M: {} } }],
  ['ADD a[0] :n', { a: { L: [{ N: '1' }] } }],
  ['ADD #a.#b :n', { a: { M: {} } }],
  ['DELETE a.b :ss', { a: { M: { b: { SS: ['a', 'z'] } } } }],
  ['DELETE a[0] :ns', { a: { L: [{ NS: ['1', '3'] }] } }],
] as [string, Item][])
  add(expr, update(expr), OK, { seed, documentedDeparture: true, note: NESTED_NOTE });

/* REMOVE and clause combinations ---------------------------------------------------------------------------------- */
family = 'update-clauses';
updates([
  ['REMOVE a', OK],
  ['REMOVE a, b', OK],
  ['REMOVE a[0]', onItem(BAD_PATH)],
  ['REMOVE a[0] ', OK, { seed: { a: { L: [] } } }],
  ['REMOVE a.b', onItem(BAD_PATH)],
  ['REMOVE a.b ', OK, { seed: { a: { M: {} } } }],
  ['remove a', OK],
  ['REMOVE #a', OK],
  ['REMOVE a[0], a[1]', OK, { seed: { a: { L: [] } } }],
  ['REMOVE', rej(SYNTAX)],
  ['REMOVE :v', rej(SYNTAX)],
  ['REMOVE a = :v', rej(SYNTAX)],
  ['REMOVE a b', rej(SYNTAX)],
  ['REMOVE a,', rej(SYNTAX)],
  ['SET a = :v REMOVE b', OK],
  ['REMOVE b SET a = :v', OK],
  ['SET a = :v REMOVE b ADD c :n DELETE d :ss', OK],
  ['DELETE d :ss ADD c :n REMOVE b SET a = :v', OK],
  ['ADD c :n SET a = :v DELETE d :ss REMOVE b', OK],
  ['set a = :v remove b add c :n delete d :ss', OK],
  ['SET a = :v, b = :w REMOVE c, d', OK],
  ['SET a = :v, REMOVE b', rej(SYNTAX)],
  ['SET a = :v SET b = :w', rej('"SET" section can only be used once')],
  ['SET a = :v set b = :w', rej('"SET" section can only be used once')],
  ['SET a = :v REMOVE c SET b = :w', rej('"SET" section can only be used once')],
  ['REMOVE a REMOVE b', rej('"REMOVE" section can only be used once')],
  ['REMOVE a remove b', rej('"REMOVE" section can only be used once')],
  ['SET a = :v REMOVE a', rej(OVERLAP)],
  ['SET a = :v ADD a :n', rej(OVERLAP)],
  ['SET a.b = :v REMOVE a', rej(OVERLAP)],
  ['REMOVE a DELETE a :ss', rej(OVERLAP)],
]);

/* Overlapping and conflicting paths (REMOVE pairs: no item needed) ------------------------------------------------- */
family = 'update-paths';
const MAP: Item = { a: { M: { b: { M: {} } } }, b: { M: {} } };
const LIST: Item = { a: { L: [{ M: {} }] } };
for (const [p1, p2, verdict, o] of [
  ['a', 'a', rej(OVERLAP)],
  ['a', 'a.b', rej(OVERLAP)],
  ['a.b', 'a', rej(OVERLAP)],
  ['a.b', 'a.c', OK, { seed: MAP }],
  ['a.b', 'a.b.c', rej(OVERLAP)],
  ['a.b.c', 'a.b.d', OK, { seed: MAP }],
  ['a[0]', 'a[1]', OK, { seed: LIST }],
  ['a[0]', 'a[0]', rej(OVERLAP)],
  ['a[0]', 'a[0].b', rej(OVERLAP)],
  ['a[0]', 'a.b', rej(CONFLICT)],
  ['a.b', 'a[0]', rej(CONFLICT)],
  ['a[0][1]', 'a[0].b', rej(CONFLICT)],
  ['a[0].b', 'a[0].c', OK, { seed: LIST }],
  ['a', 'b', OK],
  ['a.b', 'b.a', OK, { seed: MAP }],
  ['ab', 'a', OK],
  ['a[1]', 'a[01]', rej(SYNTAX)],
  ['#a', 'a', rej(OVERLAP)],
  ['#a', '#b', rej(OVERLAP), { names: { '#a': 'x', '#b': 'x' } }],
  ['#a.#b', 'a.b', rej(OVERLAP)],
  ['#ab', 'a.b', OK, { names: { '#ab': 'a.b' }, seed: MAP }],
] as [string, string, Verdict, (Opts & { seed?: Item })?][])
  add(`REMOVE ${p1}, ${p2}`, update(`REMOVE ${p1}, ${p2}`, o), verdict, o?.seed ? { seed: o.seed } : {});
updates([
  ['SET a = :v, a.b = :w', rej(OVERLAP)],
  ['SET a[1] = :v, a.b = :w', rej(CONFLICT)],
  ['SET a.b = :v, a.c = :w', OK, { seed: { a: { M: {} } } }],
  ['SET a[0] = :v, a[1] = :w', OK, { seed: { a: { L: [{ S: 'x' }] } } }],
  ['SET a = :v, A = :w', OK],
]);

/* Key attributes --------------------------------------------------------------------------------------------------- */
family = 'update-key';
updates([
  ['SET PK = :v', rej(KEY_UPDATE)],
  ['SET SK = :v', rej(KEY_UPDATE)],
  ['REMOVE PK', rej(KEY_UPDATE)],
  ['REMOVE SK', rej(KEY_UPDATE)],
  ['ADD PK :ss', rej(KEY_UPDATE)],
  ['DELETE SK :ss', rej(KEY_UPDATE)],
  ['SET #k = :v', rej(KEY_UPDATE), { names: { '#k': 'PK' } }],
  ['SET #k = :v ', rej(KEY_UPDATE), { names: { '#k': 'SK' } }],
  ['SET PK.x = :v', rej(KEY_UPDATE)],
  ['SET SK[0] = :v', rej(KEY_UPDATE)],
  ['SET a = :v, SK = :w', rej(KEY_UPDATE)],
  ['SET pk = :v', OK],
  ['SET Sk = :v', OK],
  ['SET PKX = :v', OK],
  ['SET a = PK', OK],
  ['SET a = if_not_exists(SK, :v)', OK],
]);
add('condition on the key', updateIf('SET a = :v', 'PK = :pk'), OK);

/* Placeholders: defined, undefined, unused, malformed ------------------------------------------------------------- */
family = 'placeholders';
add('undefined value in update', update('SET a = :v', { omit: [':v'] }), rej(UNDEFINED_VALUE));
add('undefined name in update', update('SET #a = :v', { omit: ['#a'] }), rej(UNDEFINED_NAME));
add('unused value in update', update('SET a = :v', { values: { ':u': { S: 'x' } } }), rej(UNUSED_VALUE));
add('unused name in update', update('SET #a = :v', { names: { '#u': 'u' } }), rej(UNUSED_NAME));
add('names map but no name used', update('SET a = :v', { names: { '#u': 'u' } }), rej(UNUSED_NAME));
add('values map but no value used', update('REMOVE a', { values: { ':u': { S: 'x' } } }), rej(UNUSED_VALUE));
add('empty values map', update('REMOVE a', { exactValues: {} }), rej('ExpressionAttributeValues must not be empty'));
add('empty names map', update('SET a = :v', { exactNames: {} }), rej('ExpressionAttributeNames must not be empty'));
add('value key without colon', update('SET a = :v', { values: { v: { S: 'x' } } }), rej('ExpressionAttributeValues contains invalid key'));
add('name key without hash', update('SET #a = :v', { names: { a: 'a' } }), rej('ExpressionAttributeNames contains invalid key'));
add('value placeholder case differs', update('SET a = :v', { exactValues: { ':V': { S: 'x' } } }), rej(UNDEFINED_VALUE));
add('name placeholder case differs', update('SET #a = :v', { exactNames: { '#A': 'a' } }), rej(UNDEFINED_NAME));
add('name maps to empty string', update('SET #a = :v', { names: { '#a': '' } }), rej('ExpressionAttributeNames contains invalid value'));
add('name maps to a dotted name', update('SET #a = :v', { names: { '#a': 'a.b' } }), OK);
add('name maps to a reserved word', update('SET #a = :v', { names: { '#a': 'status' } }), OK);
add('value used in update and condition', updateIf('SET a = :v', 'b <> :v'), OK);
add('value used only in condition', updateIf('REMOVE a', 'b = :v'), OK);
add('name used only in condition', updateIf('REMOVE a', 'attribute_exists(#b)'), OK);
add('unused value with condition', updateIf('REMOVE a', 'b = :v', { values: { ':u': { N: '1' } } }), rej(UNUSED_VALUE));
add('undefined value in condition', updateIf('SET a = :v', 'b = :w', { omit: [':w'] }), rej(UNDEFINED_VALUE));
add('names without any expression', build('GetItem', {}, { exactNames: { '#a': 'a' } }), rej('ExpressionAttributeNames can only be specified when using expressions'));
add('values without any expression', build('Scan', {}, { exactValues: { ':v': { S: 'x' } } }), rej('ExpressionAttributeValues can only be specified when using expressions'));
add('values with only a projection', scanProjection('a', { values: { ':v': { S: 'x' } } }), rej('ExpressionAttributeValues can only be specified when using expressions'));
updates([
  ['SET a = :v1', OK],
  ['SET a = :V', OK],
  ['SET a = :_v', OK],
  ['SET a = :1', OK],
  ['SET #1 = :v', OK],
  ['SET #_ = :v', OK],
  ['SET #a_b = :v', OK],
  ['SET a = :', rej(SYNTAX), { exactValues: null }],
  ['SET # = :v', rej(SYNTAX)],
  ['SET # a = :v', rej(SYNTAX), { exactNames: null }],
  ['SET a = : v', rej(SYNTAX), { exactValues: null }],
  ['SET #a.b = :v', OK, { seed: { a: { M: {} } } }],
  ['SET a = :n-:n2', OK],
]);
for (const [ctx, mk] of CONDITION_CONTEXTS) {
  add(`[${ctx}] undefined value`, mk('a = :v', { omit: [':v'] }), rej(UNDEFINED_VALUE));
  add(`[${ctx}] undefined name`, mk('#a = :v', { omit: ['#a'] }), rej(UNDEFINED_NAME));
  add(`[${ctx}] unused value`, mk('a = :v', { values: { ':u': { N: '1' } } }), rej(UNUSED_VALUE));
  add(`[${ctx}] unused name`, mk('a = :v', { names: { '#u': 'u' } }), rej(UNUSED_NAME));
}
add('[query] value only in filter', query('PK = :pk', { filter: 'a = :v' }), OK);
add('[query] name only in projection', query('PK = :pk', { projection: '#a' }), OK);
add('[query] name shared by key condition and projection', query('#pk = :pk', { projection: '#pk, a', names: { '#pk': 'PK' } }), OK);
add('[query] unused name with projection', query('PK = :pk', { projection: 'a', names: { '#u': 'u' } }), rej(UNUSED_NAME));
add('[get] undefined name in projection', get('#a', { omit: ['#a'] }), rej(UNDEFINED_NAME));
add('[get] unused name in projection', get('a', { names: { '#u': 'u' } }), rej(UNUSED_NAME));
add('[scan] undefined name in projection', scanProjection('a, #b', { omit: ['#b'] }), rej(UNDEFINED_NAME));

/* Reserved words ---------------------------------------------------------------------------------------------------- */
family = 'reserved-words';
/** Every 15th word of AWS's list of 573 (a spread over the alphabet), next to the words people actually hit. */
const SAMPLED = 'ABORT ARRAY AVG BREADTH CHARACTER COMBINE CONSUMED DEPTH DOUBLE ESCAPE EXPORT GENERAL HEAP INTEGER LARGE LOAD MATERIALIZED MODULE NULL OPTION PARAMETER POSITION PUT REDUCE RESET ROLLBACK SEARCH SHARD SPARSE STORE SYSTEM TOKEN USAGE VIEW WRITE'.split(' ');
const COMMON = ['status', 'name', 'date', 'data', 'count', 'year', 'user', 'group', 'order', 'value', 'key', 'type', 'timestamp', 'comment', 'source', 'owner', 'hash', 'range', 'items', 'url', 'region', 'path', 'total', 'first', 'last', 'level', 'role', 'zone'];
const WORDS = [...new Set([...COMMON, ...SAMPLED.map((w) => w.toLowerCase())])].filter((w) => w !== 'size' && w !== 'convert');
WORDS.forEach((w, i) => {
  const cased = [w, w.toUpperCase(), w[0].toUpperCase() + w.slice(1)][i % 3];
  add(`SET ${cased} = :v`, update(`SET ${cased} = :v`), rej(RESERVED));
});
updates([
  ['SET a.status = :v', rej(RESERVED)],
  ['SET a[0].name = :v', rej(RESERVED)],
  ['SET status.a = :v', rej(RESERVED)],
  ['SET a.b.c.Date = :v', rej(RESERVED)],
  ['REMOVE status', rej(RESERVED)],
  ['REMOVE a.status', rej(RESERVED)],
  ['ADD count :n', rej(RESERVED)],
  ['DELETE tags, :ss', rej(SYNTAX)],
  ['DELETE group :ss', rej(RESERVED)],
  ['SET a = if_not_exists(count, :n)', rej(RESERVED)],
  ['SET a = list_append(items, :list)', rej(RESERVED)],
  ['SET a = :n + total', rej(RESERVED)],
  ['SET sTaTuS = :v', rej(RESERVED)],
  ['SET #s = :v', OK, { names: { '#s': 'status' } }],
  ['SET a.#s = :v', OK, { names: { '#s': 'status' }, seed: { a: { M: {} } } }],
  ['SET statuses = :v', OK],
  ['SET status_ = :v', OK],
  ['SET _status = :v', rej(SYNTAX)],
  ['SET mystatus = :v', OK],
  ['SET id = :v', OK],
  ['SET email = :v', OK],
  ['REMOVE a.statuses', OK, { seed: { a: { M: {} } } }],
  ['SET bool = :v', OK],
]);
conditions(
  [
    ['attribute_exists(status)', rej(RESERVED)],
    ['name = :v', rej(RESERVED)],
    ['a.date = :v', rej(RESERVED)],
    ['size(data) > :n', rej(RESERVED)],
    ['begins_with(Comment, :s)', rej(RESERVED)],
    ['a[1].YEAR < :n', rej(RESERVED)],
    ['contains(tags, :s) AND user = :v', rej(RESERVED)],
    ['a IN (value, :v)', rej(RESERVED)],
    ['a BETWEEN :n AND timestamp', rej(RESERVED)],
    ['attribute_exists(#s)', OK, { names: { '#s': 'status' } }],
  ],
  true,
);
add('[get] projection name', get('a, name'), rej(RESERVED));
add('[get] projection nested a.status', get('a.status'), rej(RESERVED));
add('[get] projection DATE', get('DATE'), rej(RESERVED));
add('[scan] projection b[0].owner', scanProjection('b[0].owner'), rej(RESERVED));
add('[query] projection key', query('PK = :pk', { projection: 'key' }), rej(RESERVED));
add('[get] projection #n -> name', get('#n', { names: { '#n': 'name' } }), OK);
// `size` and `convert`: reserved per the documented list, but DynamoDB Local lets them through bare.
const SIZE_NOTE = 'The AWS reserved-word list includes SIZE and CONVERT; DynamoDB Local accepts them bare as attribute names.';
for (const [name, r] of [
  ['SET size = :v', update('SET size = :v')],
  ['SET convert = :v', update('SET convert = :v')],
  ['SET SIZE = :v', update('SET SIZE = :v')],
  ['SET a.convert = :v', update('SET a.convert = :v')],
  ['[put] attribute_exists(size)', put('attribute_exists(size)')],
  ['[scan] convert = :v', scan('convert = :v')],
  ['[get] projection size', get('size')],
  ['[scan] size(size) > :n', scan('size(size) > :n')],
] as [string, DiffRequest][])
  add(name, r, OK, { documentedDeparture: true, note: SIZE_NOTE, seed: { a: { M: {} } } });

/* Condition functions ---------------------------------------------------------------------------------------------- */
family = 'condition-functions';
const TYPE_CODES = ['S', 'SS', 'N', 'NS', 'B', 'BS', 'BOOL', 'NULL', 'L', 'M'];
const BAD_CODES = ['X', 's', 'STRING', '', 'bool', 'Bool', 'LIST', 'B S'];
conditions([
  ['attribute_exists(a)', OK],
  ['attribute_not_exists(a)', OK],
  ['attribute_exists(a.b[0])', OK],
  ['attribute_exists(#a)', OK],
  ['ATTRIBUTE_EXISTS(a)', rej(BAD_FUNCTION)],
  ['Attribute_Not_Exists(a)', rej(BAD_FUNCTION)],
  ['attribute_exists()', rej(SYNTAX)],
  ['attribute_exists(a, b)', rej(ARITY)],
  ['attribute_exists(:v)', rej(NEEDS_PATH)],
  ['attribute_not_exists(a, b)', rej(ARITY)],
  ['attribute_not_exists(:v)', rej(NEEDS_PATH)],
  ['attribute_type(a)', rej(ARITY)],
  ['attribute_type(a, :t, :t2)', rej(ARITY)],
  ['attribute_type(:t, :t2)', OK, { values: { ':t': { S: 'S' }, ':t2': { S: 'N' } } }],
  ['attribute_type(a, :n)', rej(OPERAND_TYPE)],
  ['attribute_type(a, b)', rej(OPERAND_TYPE)],
  ['begins_with(a, :s)', OK],
  ['begins_with(a, b)', OK],
  ['BEGINS_WITH(a, :s)', rej(BAD_FUNCTION)],
  ['begins_with(a, :n)', rej(OPERAND_TYPE)],
  ['begins_with(a, :bin)', OK],
  ['begins_with(:s, a)', OK],
  ['begins_with(:s, :s2)', OK],
  ['begins_with(a)', rej(ARITY)],
  ['begins_with(a, :s, :s2)', rej(ARITY)],
  ['begins_with(a, :bool)', rej(OPERAND_TYPE)],
  ['contains(a, :s)', OK],
  ['contains(a, :n)', OK],
  ['contains(a, b)', OK],
  ['Contains(a, :s)', rej(BAD_FUNCTION)],
  ['contains(a)', rej(ARITY)],
  ['contains(a, :s, :s2)', rej(ARITY)],
  ['contains(:s, a)', OK],
  ['contains(a, :ss)', OK],
  ['contains(a, :list)', OK],
  ['size(a) > :n', OK],
  ['size(a) = :n', OK],
  ['SIZE(a) <= :n', rej(BAD_FUNCTION)],
  ['size(a) BETWEEN :n AND :n2', OK, { values: { ':n2': { N: '5' } } }],
  ['size(a) IN (:n, :n2)', OK],
  [':n < size(a)', OK],
  ['size(a) > size(b)', OK],
  ['size(a)', rej(MISUSED_FUNCTION)],
  ['size(a, b) > :n', rej(ARITY)],
  ['size() > :n', rej(SYNTAX)],
  ['size(:s) > :n', OK],
  ['size(size(a)) > :n', rej(OPERAND_TYPE)],
  ['size(a) > :s', OK],
  ['size (a) > :n', OK],
  ['attribute_exists(a) = :bool', rej(MISUSED_FUNCTION)],
  ['begins_with(a, :s) = :bool', rej(MISUSED_FUNCTION)],
  ['begins_with(a, :s) AND size(a) > :n', OK],
  ['NOT attribute_exists(a)', OK],
  ['NOT contains(a, :s)', OK],
  ['if_not_exists(a, :v) = :v', rej(NOT_IN_CONDITION)],
  ['a = if_not_exists(b, :v)', rej(NOT_IN_CONDITION)],
  ['list_append(a, :list) = :list', rej(NOT_IN_CONDITION)],
  ['foo(a)', rej(BAD_FUNCTION)],
  ['exists(a)', rej(BAD_FUNCTION)],
  ['attribute_exist(a)', rej(BAD_FUNCTION)],
  ['attribute_exists(a) OR foo(b)', rej(BAD_FUNCTION)],
  ['attribute_exists(a.b.c[2][3].d)', OK],
]);
TYPE_CODES.forEach((code, i) => {
  const [ctx, mk] = CONDITION_CONTEXTS[i % CONDITION_CONTEXTS.length];
  add(`[${ctx}] attribute_type code ${code}`, mk('attribute_type(a, :t)', { values: { ':t': { S: code } } }), OK);
});
BAD_CODES.forEach((code, i) => {
  const [ctx, mk] = CONDITION_CONTEXTS[i % CONDITION_CONTEXTS.length];
  add(`[${ctx}] attribute_type code ${JSON.stringify(code)}`, mk('attribute_type(a, :t)', { values: { ':t': { S: code } } }), rej('Invalid attribute type name found'));
});

/* Each value type in each place a value can go ---------------------------------------------------------------------- */
family = 'value-types';
const ORDERED = ['N', 'S', 'B'];
const SIZED = ['S', 'B', 'SS', 'NS', 'BS', 'L', 'M'];
VALUE_TYPES.forEach(([t, v], i) => {
  const ctx = (k: number) => CONDITION_CONTEXTS[(i + k) % CONDITION_CONTEXTS.length];
  const values = { ':x': v };
  add(`SET a = :x with ${t}`, update('SET a = :x', { values }), OK);
  add(`SET a = if_not_exists(a, :x) with ${t}`, update('SET a = if_not_exists(a, :x)', { values }), OK);
  const rows: [string, Verdict][] = [
    ['a = :x', OK],
    ['a < :x', ORDERED.includes(t) ? OK : rej(OPERAND_TYPE)],
    ['begins_with(a, :x)', t === 'S' || t === 'B' ? OK : rej(OPERAND_TYPE)],
    ['contains(a, :x)', OK],
    ['size(:x) > :n', SIZED.includes(t) ? OK : rej(OPERAND_TYPE)],
    ['a IN (:x, :n)', OK],
  ];
  rows.forEach(([cond, verdict], k) => {
    const [label, mk] = ctx(k);
    add(`[${label}] ${cond} with ${t}`, mk(cond, { values }), verdict);
  });
});

/* Conditions on key attributes (guards) and Scan filters on keys: allowed -------------------------------------------- */
family = 'key-guards';
add('[put] attribute_not_exists(PK)', put('attribute_not_exists(PK)'), OK);
add('[put] attribute_not_exists(PK) AND attribute_not_exists(SK)', put('attribute_not_exists(PK) AND attribute_not_exists(SK)'), OK);
add('[put] attribute_not_exists(#pk)', put('attribute_not_exists(#pk)', { names: { '#pk': 'PK' } }), OK);
add('[delete] attribute_exists(SK)', del('attribute_exists(SK)'), OK);
add('[update] attribute_exists(PK) with SET', updateIf('SET a = :v', 'attribute_exists(PK)'), OK);
add('[scan] filter PK = :pk', scan('PK = :pk'), OK);
add('[scan] filter begins_with(SK, :s)', scan('begins_with(SK, :s)'), OK);
add('[scan] filter on a key with OR', scan('PK = :pk OR SK <> :s'), OK);
add('[put] condition PK = PK', put('PK = PK'), rej(IDENTICAL));

/* Comparators, identical operands, literal types -------------------------------------------------------------------- */
family = 'comparators';
conditions([
  ['a = :v', OK],
  ['a <> :v', OK],
  ['a < :n', OK],
  ['a <= :n', OK],
  ['a > :n', OK],
  ['a >= :n', OK],
  ['a=:v', OK],
  ['a = b', OK],
  [':v = :w', OK],
  ['a == :v', rej(SYNTAX)],
  ['a != :v', rej(SYNTAX)],
  ['a =< :v', rej(SYNTAX)],
  ['a => :v', rej(SYNTAX)],
  ['a >< :v', rej(SYNTAX)],
  ['a = = :v', rej(SYNTAX)],
  ['a < > :v', rej(SYNTAX)],
  ['a = :v = :w', rej(SYNTAX)],
  ['a', rej(SYNTAX)],
  [':v', rej(SYNTAX)],
  ['a = :v :w', rej(SYNTAX)],
  ['= :v', rej(SYNTAX)],
  ['a = a', rej(IDENTICAL)],
  ['a <> a', rej(IDENTICAL)],
  ['a < a', rej(IDENTICAL)],
  ['a >= a', rej(IDENTICAL)],
  ['a.b = a.b', rej(IDENTICAL)],
  ['a[0] = a[0]', rej(IDENTICAL)],
  [':v = :v', OK],
  ['#a = a', rej(IDENTICAL)],
  ['#a = #b', rej(IDENTICAL), { names: { '#a': 'x', '#b': 'x' } }],
  ['size(a) = size(a)', OK],
  ['a = :v AND a = :v', OK],
  ['a = A', OK],
  ['a = :ss', OK],
  ['a < :bool', rej(OPERAND_TYPE)],
  ['a < :list', rej(OPERAND_TYPE)],
  ['a > :null', rej(OPERAND_TYPE)],
  ['a <= :map', rej(OPERAND_TYPE)],
  ['a >= :ss', rej(OPERAND_TYPE)],
  ['a < :bin', OK],
  ['a = :null', OK],
  ['a <> :map', OK],
  ['a = :v -- x', rej(SYNTAX)],
  ['a = :v;', rej(SYNTAX)],
  ['a = @v', rej(SYNTAX)],
  ['a = "x"', rej(SYNTAX)],
  ["a = 'x'", rej(SYNTAX)],
  ['a = 5', rej(SYNTAX)],
  ['a = true', rej(RESERVED)],
  ['a..b = :v', rej(SYNTAX)],
  ['.a = :v', rej(SYNTAX)],
  ['a. = :v', rej(SYNTAX)],
  ['a[ = :v', rej(SYNTAX)],
  ['a] = :v', rej(SYNTAX)],
  ['a[1.5] = :v', rej(SYNTAX)],
  ['a[-1] = :v', rej(SYNTAX)],
  ['a[x] = :v', rej(SYNTAX)],
  ['a[] = :v', rej(SYNTAX)],
  ['a [0] = :v', OK],
  ['a . b = :v', OK],
  ['a\n=\t:v', OK],
  ['a.#b = :v', OK],
  ['#a[0] = :v', OK],
  ['a[0][1].b[2] = :v', OK],
  ['a[4294967296] = :v', rej(INDEX_RANGE)],
  ['a[2147483647] = :v', OK],
  ['a[2147483648] = :v', rej(INDEX_RANGE)],
  ['a[99999999999999999999] = :v', rej(INDEX_RANGE)],
  ['', rej(EMPTY)],
  ['   ', rej(SYNTAX)],
]);

/* BETWEEN ---------------------------------------------------------------------------------------------------------- */
family = 'between';
const BETWEEN_BOUNDS: [string, AttributeValue, AttributeValue, Verdict][] = [
  ['N 1..2', { N: '1' }, { N: '2' }, OK],
  ['N 2..1', { N: '2' }, { N: '1' }, rej('BETWEEN operator requires upper bound to be greater than or equal to lower bound')],
  ['N 1..1', { N: '1' }, { N: '1' }, OK],
  ['N 9..10', { N: '9' }, { N: '10' }, OK],
  ['N 10..9', { N: '10' }, { N: '9' }, rej('upper bound to be greater than or equal to lower bound')],
  ['N -5..3', { N: '-5' }, { N: '3' }, OK],
  ['N 3..-5', { N: '3' }, { N: '-5' }, rej('upper bound to be greater than or equal to lower bound')],
  ['N 99..1e2', { N: '99' }, { N: '1e2' }, OK],
  ['N 1e2..99', { N: '1e2' }, { N: '99' }, rej('upper bound to be greater than or equal to lower bound')],
  ['N 1.0..1', { N: '1.0' }, { N: '1' }, OK],
  ['S a..b', { S: 'a' }, { S: 'b' }, OK],
  ['S b..a', { S: 'b' }, { S: 'a' }, rej('upper bound to be greater than or equal to lower bound')],
  ['S a..a', { S: 'a' }, { S: 'a' }, OK],
  ['S B..a', { S: 'B' }, { S: 'a' }, OK],
  ['S a..B', { S: 'a' }, { S: 'B' }, rej('upper bound to be greater than or equal to lower bound')],
  ['S 10..9', { S: '10' }, { S: '9' }, OK],
  ['S/N', { S: 'a' }, { N: '1' }, rej('BETWEEN operator requires same data type for lower and upper bounds')],
  ['N/S', { N: '1' }, { S: 'a' }, rej('same data type')],
  ['B 01..02', { B: new Uint8Array([1]) }, { B: new Uint8Array([2]) }, OK],
  ['B 02..01', { B: new Uint8Array([2]) }, { B: new Uint8Array([1]) }, rej('upper bound to be greater than or equal to lower bound')],
  ['BOOL', { BOOL: false }, { BOOL: true }, rej(OPERAND_TYPE)],
  ['SS', { SS: ['a'] }, { SS: ['b'] }, rej(OPERAND_TYPE)],
  ['NULL', { NULL: true }, { NULL: true }, rej(OPERAND_TYPE)],
];
BETWEEN_BOUNDS.forEach(([label, lo, hi, verdict], i) => {
  const [ctx, mk] = CONDITION_CONTEXTS[i % CONDITION_CONTEXTS.length];
  add(`[${ctx}] a BETWEEN ${label}`, mk('a BETWEEN :lo AND :hi', { values: { ':lo': lo, ':hi': hi } }), verdict);
});
conditions([
  ['a BETWEEN b AND c', OK],
  ['a BETWEEN :n AND b', OK],
  ['a between :n and :n2', OK],
  ['a BeTwEeN :n AnD :n2', OK],
  ['a BETWEEN :n AND :n', OK],
  [':n BETWEEN a AND b', OK],
  ['a BETWEEN :n', rej(SYNTAX)],
  ['a BETWEEN :n AND', rej(SYNTAX)],
  ['a BETWEEN AND :n', rej(SYNTAX)],
  ['a BETWEEN :n OR :n2', rej(SYNTAX)],
  ['a BETWEEN :n AND :n2 AND b = :v', OK],
  ['a BETWEEN a AND :n', rej(IDENTICAL)],
  ['a BETWEEN :n AND a', rej(IDENTICAL)],
  ['BETWEEN :n AND :n2', rej(SYNTAX)],
  ['a BETWEEN (:n AND :n2)', rej(SYNTAX)],
]);

/* IN ----------------------------------------------------------------------------------------------------------------- */
family = 'in';
const inList = (n: number) => Array.from({ length: n }, (_, i) => `:i${i}`).join(', ');
conditions([
  ['a IN (:v)', OK],
  ['a IN (:v, :w)', OK],
  ['a IN (b, c)', OK],
  ['a in (:v)', OK],
  ['a IN (:v) AND b IN (:w)', OK],
  [':v IN (a, b)', OK],
  ['size(a) IN (:n)', OK],
  ['a IN (:v, :v)', OK],
  ['a IN ()', rej(SYNTAX)],
  ['a IN :v', rej(SYNTAX)],
  ['a IN (:v,)', rej(SYNTAX)],
  ['a IN (:v', rej(SYNTAX)],
  ['IN (:v)', rej(SYNTAX)],
  ['a IN (a)', rej(IDENTICAL)],
  ['a IN (:v, a)', rej(IDENTICAL)],
  ['a NOT IN (:v)', rej(SYNTAX)],
]);
conditions(
  [
    [`a IN (${inList(100)})`, OK],
    [`a IN (${inList(101)})`, rej('The IN operator is provided with too many operands')],
  ],
  true,
);

/* AND / OR / NOT / parentheses --------------------------------------------------------------------------------------- */
family = 'logic';
conditions([
  ['a = :v AND b = :w', OK],
  ['a = :v OR b = :w', OK],
  ['a = :v and b = :w', OK],
  ['a = :v AnD b = :w oR c = :x', OK],
  ['NOT a = :v', OK],
  ['not a = :v', OK],
  ['NOT NOT a = :v', OK],
  ['NOT (a = :v)', OK],
  ['(a = :v)', OK],
  ['((a = :v))', rej(REDUNDANT)],
  ['(((a = :v)))', rej(REDUNDANT)],
  ['(a = :v) AND (b = :w)', OK],
  ['((a = :v) AND (b = :w))', OK],
  ['(a = :v OR b = :w) AND c = :x', OK],
  ['((a = :v OR b = :w)) AND c = :x', rej(REDUNDANT)],
  ['NOT ((a = :v))', rej(REDUNDANT)],
  ['a = :v AND ((b = :w))', rej(REDUNDANT)],
  ['(a) = :v', OK],
  ['a = (:v)', OK],
  ['((a)) = :v', rej(REDUNDANT)],
  ['(size(a)) > :n', OK],
  ['a = :v AND b = :w OR c = :x AND d = :y', OK],
  ['NOT a = :v AND NOT b = :w', OK],
  ['a = :v AND', rej(SYNTAX)],
  ['AND a = :v', rej(SYNTAX)],
  ['a = :v OR', rej(SYNTAX)],
  ['a = :v AND OR b = :w', rej(SYNTAX)],
  ['NOT', rej(SYNTAX)],
  ['a = :v NOT b = :w', rej(SYNTAX)],
  ['(a = :v', rej(SYNTAX)],
  ['a = :v)', rej(SYNTAX)],
  ['()', rej(SYNTAX)],
  ['a = :v ANDb = :w', rej(SYNTAX)],
  ['a = :v XOR b = :w', rej(SYNTAX)],
  ['a = :v && b = :w', rej(SYNTAX)],
  ['NOT a', rej(SYNTAX)],
]);

/* KeyConditionExpression ------------------------------------------------------------------------------------------- */
family = 'key-condition';
for (const [kc, verdict, o] of [
  ['PK = :pk', OK],
  ['PK = :pk AND SK = :sk', OK],
  ['SK = :sk AND PK = :pk', OK],
  ['PK = :pk AND SK < :sk', OK],
  ['PK = :pk AND SK <= :sk', OK],
  ['PK = :pk AND SK > :sk', OK],
  ['PK = :pk AND SK >= :sk', OK],
  ['PK = :pk AND SK BETWEEN :sa AND :sb', OK, { values: { ':sa': { S: 'a' }, ':sb': { S: 'b' } } }],
  ['PK = :pk AND begins_with(SK, :sk)', OK],
  ['pk = :pk', rej('Query condition missed key schema element')],
  ['#pk = :pk AND #sk = :sk', OK, { names: { '#pk': 'PK', '#sk': 'SK' } }],
  ['(PK = :pk)', OK],
  ['PK = :pk AND (SK = :sk)', OK],
  ['(PK = :pk AND SK = :sk)', OK],
  ['((PK = :pk))', rej(REDUNDANT)],
  [':pk = PK', OK],
  ['PK = :pk and SK = :sk', OK],
  ['PK = :pk AND BEGINS_WITH(SK, :sk)', rej(BAD_FUNCTION)],
  ['PK = :pk AND SK <> :sk', rej('Invalid operator used in KeyConditionExpression: <>')],
  ['PK = :pk OR SK = :sk', rej('Invalid operator used in KeyConditionExpression: OR')],
  ['NOT PK = :pk', rej('Invalid operator used in KeyConditionExpression: NOT')],
  ['PK IN (:pk)', rej('Invalid operator used in KeyConditionExpression: IN')],
  ['PK < :pk', rej('Query key condition not supported')],
  ['PK BETWEEN :pk AND :pk2', rej('Query key condition not supported'), { values: { ':pk2': { S: 'w' } } }],
  ['begins_with(PK, :pk)', rej('Query key condition not supported')],
  ['PK = :pk AND size(SK) > :n', rej('KeyConditionExpressions cannot contain nested operations')],
  ['PK = :pk AND begins_with(:sk, SK)', rej('begins_with operator must have the key attribute as its first operand')],
  ['PK = :pk AND contains(SK, :sk)', rej('Invalid operator used in KeyConditionExpression: contains')],
  ['PK = :pk AND attribute_exists(SK)', rej('Invalid operator used in KeyConditionExpression: attribute_exists')],
  ['SK = :sk', rej('Query condition missed key schema element')],
  ['PK = :pk AND x = :x', rej('Query condition missed key schema element')],
  ['PK = :pk AND other = :o', rej(RESERVED)],
  ['PK = :pk AND PK = :pk2', rej(ONE_PER_KEY), { values: { ':pk2': { S: 'w' } } }],
  ['PK = :pk AND SK = :sk AND SK = :sk2', rej(ONE_PER_KEY)],
  ['PK = :pk AND SK > :sk AND SK < :sk2', rej(ONE_PER_KEY)],
  ['PK = PK', rej(IDENTICAL)],
  ['PK = :pk AND SK = SK', rej(IDENTICAL)],
  ['PK = :pk AND SK BETWEEN :sb AND :sa', rej('upper bound to be greater than or equal to lower bound'), { values: { ':sa': { S: 'a' }, ':sb': { S: 'b' } } }],
  ['PK = :pk AND', rej(SYNTAX)],
  ['PK = :pk SK = :sk', rej(SYNTAX)],
  ['PK == :pk', rej(SYNTAX)],
  ['', rej(EMPTY)],
  ['PK = :pk AND SK = :sk', rej(UNDEFINED_VALUE), { omit: [':sk'] }],
  ['PK = :pk', rej(UNUSED_VALUE), { values: { ':u': { S: 'u' } } }],
  ['PK = :pk AND SK = a', rej('Multiple attribute names used in one condition')],
  ['PK = :pk AND SK = :sk OR SK = :sk2', rej('Invalid operator used in KeyConditionExpression: OR')],
] as [string, Verdict, Opts?][])
  add(`${kc}${o?.omit || o?.values?.[':u'] ? ` (${o.omit ? 'omit ' + o.omit : 'unused :u'})` : ''}`, query(kc, o), verdict);

add('[update] condition without an update expression', build('UpdateItem', { ConditionExpression: 'attribute_exists(a)' }), OK);
add('[update] names used only by the condition, no update expression', build('UpdateItem', { ConditionExpression: 'attribute_not_exists(#a)' }), OK);

/* Query: filter and projection together ---------------------------------------------------------------------------- */
family = 'query-filter';
for (const [label, o, verdict] of [
  ['filter on a non-key attribute', { filter: 'a > :n' }, OK],
  ['filter on PK', { filter: 'PK = :pk2' }, rej('Filter Expression can only contain non-primary key attributes')],
  ['filter on SK', { filter: 'begins_with(SK, :s)' }, rej('Filter Expression can only contain non-primary key attributes')],
  ['filter on #sk placeholder', { filter: 'attribute_exists(#sk)', names: { '#sk': 'SK' } }, rej('non-primary key attributes')],
  ['filter sharing a value with the key condition', { filter: 'a = :pk' }, OK],
  ['filter with functions', { filter: 'attribute_exists(a) AND size(b) < :n AND contains(c, :s)' }, OK],
  ['filter syntax error', { filter: 'a = ' }, rej(SYNTAX)],
  ['filter with update function', { filter: 'a = if_not_exists(b, :v)' }, rej(NOT_IN_CONDITION)],
  ['filter empty', { filter: '' }, rej(EMPTY)],
  ['projection with key attributes', { projection: 'PK, SK, a' }, OK],
  ['projection and filter', { projection: 'a, b.c', filter: 'd <> :v' }, OK],
  ['projection overlap', { projection: 'a, a.b' }, rej(OVERLAP)],
  ['projection reserved', { projection: 'a, status' }, rej(RESERVED)],
  ['filter nested in a key attribute', { filter: 'PK.a = :v' }, rej('Key attributes must be scalars')],
  ['filter identical operands', { filter: 'a = a' }, rej(IDENTICAL)],
  ['filter redundant parentheses', { filter: '((a = :v))' }, rej(REDUNDANT)],
] as [string, Opts & { filter?: string; projection?: string }, Verdict][])
  add(label, query('PK = :pk', o), verdict);

/* ProjectionExpression ----------------------------------------------------------------------------------------------- */
family = 'projection';
const PROJECTIONS: [string, Verdict, Opts?][] = [
  ['a', OK],
  ['a, b', OK],
  ['a.b, c[0]', OK],
  ['a[0].b', OK],
  ['#a', OK],
  ['a ,  b', OK],
  ['A, a', OK],
  ['a[0], a[1]', OK],
  ['a.b, a.c', OK],
  ['a, a', rej(OVERLAP)],
  ['a, a.b', rej(OVERLAP)],
  ['a.b, a[0]', rej(CONFLICT)],
  ['#a, a', rej(OVERLAP)],
  ['a,', rej(SYNTAX)],
  [',a', rej(SYNTAX)],
  ['a b', rej(SYNTAX)],
  ['a, :v', rej(SYNTAX), { exactValues: null }],
  ['size(a)', rej(SYNTAX)],
  ['a = :v', rej(SYNTAX)],
  ['', rej(EMPTY)],
  ['a[-1]', rej(SYNTAX)],
  ['a[x]', rej(SYNTAX)],
  ['a.', rej(SYNTAX)],
  ['a..b', rej(SYNTAX)],
  ['(a)', rej(SYNTAX)],
  ['a; b', rej(SYNTAX)],
  ['a[0][0][0]', OK],
  ['PK, SK', OK],
];
PROJECTIONS.forEach(([p, verdict, o], i) => {
  const [label, mk] = (
    [
      ['get', get],
      ['scan', scanProjection],
      ['query', (x: string, oo?: Opts) => query('PK = :pk', { ...oo, projection: x })],
    ] as [string, (p: string, o?: Opts) => DiffRequest][]
  )[i % 3];
  add(`[${label}] ${JSON.stringify(p)}`, mk(p, o), verdict);
});

/* Limits ----------------------------------------------------------------------------------------------------------- */
family = 'limits';
const TOO_BIG = 'Expression size has exceeded the maximum allowed size';
/** `head` padded with spaces before `tail` to exactly `bytes` bytes. */
const padded = (head: string, tail: string, bytes: number) => head + ' '.repeat(bytes - head.length - tail.length) + tail;
for (const size of [4096, 4097]) {
  const v = size === 4096 ? OK : rej(TOO_BIG);
  add(`update of ${size} bytes`, update(padded('SET a =', ':v', size)), v);
  add(`put condition of ${size} bytes`, put(padded('a =', ':v', size)), v);
  add(`delete condition of ${size} bytes`, del(padded('attribute_exists(', 'a)', size)), v);
  add(`key condition of ${size} bytes`, query(padded('PK =', ':pk', size)), v);
  add(`filter of ${size} bytes`, scan(padded('a <>', ':v', size)), v);
  add(`projection of ${size} bytes`, get(padded('a,', 'b', size)), v);
}
for (const len of [255, 256]) {
  const v = len === 255 ? OK : rej(LONG_KEY);
  const value = ':' + 'v'.repeat(len - 1);
  const name = '#' + 'n'.repeat(len - 1);
  add(`value placeholder of ${len} bytes`, update(`SET a = ${value}`), v);
  add(`name placeholder of ${len} bytes`, update(`SET ${name} = :v`), v);
  add(`value placeholder of ${len} bytes in a filter`, scan(`a = ${value}`), v);
  add(`name placeholder of ${len} bytes in a projection`, get(`${name}, b`), v);
}
/** `SET a0=:n+:n, a1=:n+:n, ...`: one `+` per action. */
const plusActions = (n: number) => 'SET ' + Array.from({ length: n }, (_, i) => `a${i}=:n+:n`).join(',');
add('300 operators in an update', update(plusActions(300)), OK);
add('301 operators in an update', update(plusActions(301)), rej('The expression contains too many operators'));
/** Three-letter attribute names (`xaa`...), so 150 actions with a function and a `+` still fit in 4 KB. */
const fnActions = (n: number) => Array.from({ length: n }, (_, i) => `x${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}=if_not_exists(b,:n)+:n`);
add('150 SET actions with a function and + (300 operators)', update('SET ' + fnActions(150).join(',')), OK);
add('150 SET actions with a function and + plus one more +', update('SET ' + [...fnActions(150), 'zz=:n+:n'].join(',')), rej('The expression contains too many operators'));
add('100 list_append calls', update('SET ' + Array.from({ length: 100 }, (_, i) => `a${i}=list_append(:list,:list)`).join(',')), OK);
/** `a=:v AND a=:v AND ...` with `n` comparisons. */
const comparisons = (n: number) => Array.from({ length: n }, () => 'a=:v').join(' AND ');
add('condition with 150 comparisons and 149 ANDs', put(comparisons(150)), OK);
add('filter with 150 comparisons and 149 ANDs', scan(comparisons(150)), OK);
// Not a departure: the quota page names UpdateExpression, but AWS's own example "Count expression operators in DynamoDB"
// (developer guide, example_dynamodb_Scenario_ExpressionOperatorCounting_section) builds a FilterExpression of comparisons
// joined by AND/OR to hit the same 300-operator limit, which is what Local enforces.
const OPS_NOTE = 'Comparators and AND/OR count against the 300 operators in conditions and filters too (AWS example "Count expression operators in DynamoDB").';
add('condition with 151 comparisons and 150 ANDs', put(comparisons(151)), rej('The expression contains too many operators'), { note: OPS_NOTE });
add('filter with 151 comparisons and 150 ANDs', scan(comparisons(151)), rej('The expression contains too many operators'), { note: OPS_NOTE });
add('filter with 101 comparisons and 100 ORs', scan(Array.from({ length: 101 }, () => 'a=:v').join(' OR ')), OK);
add('filter with 100 NOTs, 100 comparisons and 99 ANDs', scan(Array.from({ length: 100 }, () => 'NOT a=:v').join(' AND ')), OK);
add('filter with 101 NOTs, 101 comparisons and 100 ANDs', scan(Array.from({ length: 101 }, () => 'NOT a=:v').join(' AND ')), rej('The expression contains too many operators'), { note: OPS_NOTE });
add('condition with 150 BETWEENs and 149 ANDs', put(Array.from({ length: 150 }, () => 'a BETWEEN :n AND :n').join(' AND ')), OK);
add('condition with 151 BETWEENs and 150 ANDs', put(Array.from({ length: 151 }, () => 'a BETWEEN :n AND :n').join(' AND ')), rej('The expression contains too many operators'), { note: OPS_NOTE });
add('filter with 151 INs and 150 ANDs', scan(Array.from({ length: 151 }, () => 'a IN (:v)').join(' AND ')), rej('The expression contains too many operators'), { note: OPS_NOTE });
add('condition with 150 functions and 149 ORs', put(Array.from({ length: 150 }, () => 'attribute_exists(a)').join(' OR ')), OK);
add('condition with 151 functions and 150 ORs', put(Array.from({ length: 151 }, () => 'attribute_exists(a)').join(' OR ')), rej('The expression contains too many operators'), { note: OPS_NOTE });
const dotted = (depth: number) => Array.from({ length: depth }, (_, i) => `p${i}`).join('.');
const indexed = (depth: number) => 'p' + '[0]'.repeat(depth - 1);
/** An item where `dotted(depth)` / `indexed(depth)` exist up to the parent of the last element. */
const nestedMaps = (i: number): AttributeValue => (i === 32 ? { S: 'x' } : { M: { [`p${i}`]: nestedMaps(i + 1) } });
const nestedLists = (depth: number): AttributeValue => (depth === 0 ? { S: 'x' } : { L: [nestedLists(depth - 1)] });
for (const depth of [32, 33]) {
  const v = depth === 32 ? OK : rej('The document path has too many nesting levels');
  add(`REMOVE path of depth ${depth}`, update(`REMOVE ${dotted(depth)}`), v, { seed: { p0: nestedMaps(1) } });
  add(`REMOVE indexed path of depth ${depth}`, update(`REMOVE ${indexed(depth)}`), v, { seed: { p: nestedLists(31) } });
  add(`condition path of depth ${depth}`, put(`attribute_exists(${dotted(depth)})`), v);
  add(`filter path of depth ${depth}`, scan(`${indexed(depth)} = :v`), v);
  add(`projection path of depth ${depth}`, get(dotted(depth)), v);
}
const DIGITS = 'DynamoDB only supports precision up to 38 digits';
for (const [label, n, verdict] of [
  ['38 digits', '1'.repeat(38), OK],
  ['39 digits', '1'.repeat(39), rej(DIGITS)],
  ['negative 38 digits', '-' + '9'.repeat(38), OK],
  ['negative 39 digits', '-' + '9'.repeat(39), rej(DIGITS)],
  ['38 digits after the point', '0.' + '1'.repeat(38), OK],
  ['39 digits after the point', '0.' + '1'.repeat(39), rej(DIGITS)],
  ['38 digits with leading zeros', '000' + '1'.repeat(38), OK],
  ['1 followed by 38 zeros', '1' + '0'.repeat(38), OK],
  ['38 digits then zeros after the point', '1'.repeat(38) + '.000', OK],
  ['1e125', '1e125', OK],
  ['1e126', '1e126', rej('Number overflow')],
  ['1e-130', '1e-130', OK],
  ['1e-131', '1e-131', rej('Number underflow')],
  ['not a number', 'abc', rej('A value provided cannot be converted into a number')],
  ['empty number', '', rej('A value provided cannot be converted into a number')],
  ['number with + sign', '+1', OK],
  ['number with exponent sign', '1E+2', OK],
  ['number with a leading space', ' 5', rej('A value provided cannot be converted into a number')],
  ['number with a trailing space', '5 ', rej('A value provided cannot be converted into a number')],
  ['number with leading zeros', '007', OK],
  ['number with a leading point', '.5', OK],
  ['number with a trailing point', '5.', OK],
  ['number 1e400', '1e400', rej('Number overflow')],
  ['hexadecimal number', '0x10', rej('A value provided cannot be converted into a number')],
  ['number with a thousands separator', '1,000', rej('A value provided cannot be converted into a number')],
  ['Infinity', 'Infinity', rej('A value provided cannot be converted into a number')],
  ['NaN', 'NaN', rej('A value provided cannot be converted into a number')],
  ['lone point', '.', rej('A value provided cannot be converted into a number')],
  ['number with an empty exponent', '1e', rej('A value provided cannot be converted into a number')],
] as [string, string, Verdict][]) {
  add(`number ${label}`, update('SET a = :n', { values: { ':n': { N: n } } }), verdict);
}
/* Literal values: sets, collections, numbers inside them ------------------------------------------------------------- */
family = 'values';
const D39 = '7'.repeat(39);
for (const [label, x, verdict] of [
  ['empty string', { S: '' }, OK],
  ['empty binary', { B: new Uint8Array([]) }, OK],
  ['empty list', { L: [] }, OK],
  ['empty map', { M: {} }, OK],
  ['empty string set', { SS: [] }, rej('may not be empty')],
  ['empty number set', { NS: [] }, rej('may not be empty')],
  ['empty binary set', { BS: [] }, rej('Binary sets should not be empty')],
  ['empty set inside a list', { L: [{ SS: [] }] }, rej('may not be empty')],
  ['empty set inside a map', { M: { k: { NS: [] } } }, rej('may not be empty')],
  ['string set with duplicates', { SS: ['a', 'a'] }, rej('contains duplicates')],
  ['number set with duplicates', { NS: ['1', '1'] }, rej('contains duplicates')],
  ['number set 1 and 1.0', { NS: ['1', '1.0'] }, rej('contains duplicates')],
  ['binary set with duplicates', { BS: [BYTES, new Uint8Array([1, 2, 3])] }, rej('contains duplicates')],
  ['string set with an empty string', { SS: ['', 'a'] }, OK],
  ['number set with 39 digits', { NS: ['1', D39] }, rej(DIGITS)],
  ['number set with a non-number', { NS: ['1', 'x'] }, rej('A value provided cannot be converted into a number')],
  ['list with 39 digits', { L: [{ S: 'a' }, { N: D39 }] }, rej(DIGITS)],
  ['map with 39 digits', { M: { k: { N: D39 } } }, rej(DIGITS)],
  ['nested list in map with 39 digits', { M: { k: { L: [{ N: D39 }] } } }, rej(DIGITS)],
  ['list with 38 digits', { L: [{ N: '7'.repeat(38) }] }, OK],
] as [string, AttributeValue, Verdict][]) {
  add(`SET a = :x with ${label}`, update('SET a = :x', { values: { ':x': x } }), verdict);
}
add('ADD a :x with a 39-digit number set', update('ADD a :x', { values: { ':x': { NS: [D39] } } }), rej(DIGITS));
add('contains(a, :x) with an empty string set', put('contains(a, :x)', { values: { ':x': { SS: [] } } }), rej('may not be empty'));
add('39-digit number in a condition', del('a = :n', { values: { ':n': { N: '2'.repeat(39) } } }), rej(DIGITS));
add('39-digit number in a filter', scan('a < :n', { values: { ':n': { N: '3'.repeat(39) } } }), rej(DIGITS));

/* Deep nesting and long chains ----------------------------------------------------------------------------------------- */
family = 'nesting';
const wrap = (n: number, inner: string) => '('.repeat(n) + inner + ')'.repeat(n);
/** `a0=:v AND (a1=:v AND (a2=:v ...))`: every parenthesis needed, depth n. */
const rightNested = (n: number) => Array.from({ length: n }, (_, i) => `a${i}=:v`).join(' AND (') + ')'.repeat(n - 1);
add('4096 bytes of (', put('('.repeat(4096)), rej(SYNTAX));
add('1000 balanced parentheses around a comparison', scan(wrap(1000, 'a = :v')), rej(REDUNDANT));
add('1500 unbalanced parentheses', scan('('.repeat(1500) + 'a = :v'), rej(SYNTAX));
add('2000 closing parentheses', scan('a = :v' + ')'.repeat(2000)), rej(SYNTAX));
add('needed parentheses, depth 100', scan(rightNested(100)), OK);
add('needed parentheses, depth 150', put(rightNested(150)), OK);
add('needed parentheses, depth 151 (301 operators)', put(rightNested(151)), rej('The expression contains too many operators'));
add('299 NOTs', scan('NOT '.repeat(299) + 'a = :v'), OK);
add('300 NOTs', scan('NOT '.repeat(300) + 'a = :v'), rej('The expression contains too many operators'));
add('1000 NOTs', del('NOT '.repeat(1000) + 'a = :v'), rej('The expression contains too many operators'));
add('if_not_exists nested 100 deep', update('SET a = ' + 'if_not_exists(a,'.repeat(100) + ':v' + ')'.repeat(100)), OK);
add('if_not_exists nested 200 deep', update('SET a = ' + 'if_not_exists(a,'.repeat(200) + ':v' + ')'.repeat(200)), OK);
add('list_append of if_not_exists nested 50 deep', update('SET l = list_append(' + 'if_not_exists(l,'.repeat(50) + ':list' + ')'.repeat(50) + ', :list2)'), OK);
add('parentheses around a path, 3 deep', put('(((a))) = :v'), rej(REDUNDANT));
add('parentheses around a value in SET, 2 deep', update('SET a = ((:v))'), rej(REDUNDANT));
add('parentheses around a projection path', get('(a)'), rej(SYNTAX));
add('unterminated index', put('a[1 = :v'), rej(SYNTAX));
add('unterminated function call', put('attribute_exists(a'), rej(SYNTAX));
add('unterminated IN list', scan('a IN (:v, :w'), rej(SYNTAX));
add('dangling dot in update', update('SET a. = :v'), rej(SYNTAX));

/* Requests as people write them --------------------------------------------------------------------------------------- */
family = 'realistic';
const LIKES = { '#likes': 'likeTally', '#ts': 'updatedAt' };
updates([
  ['SET #likes = if_not_exists(#likes, :z) + :n, #ts = :now', OK, { names: LIKES }],
  ['SET #likes = #likes + :n', onItem(MISSING_ATTR), { names: { '#likes': 'likeTally' } }],
  ['SET #likes = #likes - :n', OK, { names: { '#likes': 'likeTally' }, seed: { likeTally: { N: '3' } } }],
  ['ADD likeTally :n SET lastLikedAt = :now', OK],
  ['ADD likeTally :num REMOVE pendingLike', OK],
  ['SET #items = list_append(if_not_exists(#items, :list), :list2)', OK],
  ['SET #data.#count = :n', rej(UNDEFINED_NAME), { omit: ['#count'] }],
  ['SET #data.#count = :n ', OK, { seed: { data: { M: {} } } }],
  ['SET address.city = :s, address.zip = :s2', OK, { seed: { address: { M: {} } } }],
  ['SET orders[0].total = :n', rej(RESERVED)],
  ['SET orders[0].amount = :n REMOVE orders[1]', OK, { seed: { orders: { L: [{ M: {} }, { M: {} }] } } }],
  ['SET views = views + :n, #status = :s', rej(RESERVED), { names: { '#status': 'status' } }],
  ['SET #views = #views + :n, #status = :s', onItem(MISSING_ATTR), { names: { '#status': 'status', '#views': 'views' } }],
  ['SET updatedAt = :now, version = version + :n', onItem(MISSING_ATTR)],
  ['SET updatedAt = :now, #v = #v + :n', onItem(MISSING_ATTR), { names: { '#v': 'version' } }],
  ['REMOVE #ttl, tempToken', OK, { names: { '#ttl': 'ttl' } }],
  ['DELETE tags :ss ADD tagCount :num', OK],
]);
add('[put] guarded child write', put('attribute_not_exists(PK) AND attribute_not_exists(SK)'), OK);
add('[delete] guarded unlike', del('attribute_exists(PK)'), OK);
add('[update] optimistic lock', updateIf('SET #v = :n2, payload = :s', '#v = :n', { names: { '#v': 'version' } }), OK);
add('[update] optimistic lock, bare version', updateIf('SET payload = :s', 'version = :n'), OK);
add('[update] counter guarded by existence', updateIf('ADD likeTally :n', 'attribute_exists(PK)'), OK);
add('[scan] active and recent', scan('#status = :active AND #ts < :cutoff', { names: { '#status': 'status', '#ts': 'ts' } }), OK);
add('[scan] tag or prefix', scan('contains(#tags, :tag) OR begins_with(title, :prefix)'), OK);
add('[query] children by prefix', query('#pk = :pk AND begins_with(#sk, :prefix)', { names: { '#pk': 'PK', '#sk': 'SK' }, filter: 'attribute_not_exists(deletedAt)' }), OK);
add('[query] page with projection (total is reserved)', query('PK = :pk AND SK BETWEEN :from AND :to', { values: { ':from': { S: 'LIKE#0' }, ':to': { S: 'LIKE#9' } }, projection: 'PK, SK, #name, address.city, orders[0].total', names: { '#name': 'name' } }), rej(RESERVED));
add('[query] sort key range reversed', query('PK = :pk AND SK BETWEEN :from AND :to', { values: { ':from': { S: 'LIKE#9' }, ':to': { S: 'LIKE#0' } } }), rej('upper bound to be greater than or equal to lower bound'));
add('[get] profile fields', get('#name, email, #loc.city', { names: { '#name': 'name', '#loc': 'location' } }), OK);
add('[get] profile fields bare', get('name, email, location.city'), rej(RESERVED));

/* Request parameters next to the expressions: legacy parameters, Select (issue 14) ------------------------------------ */
family = 'legacy-with-expression';
const MIX = 'Can not use both expression and non-expression parameters in the same request';
const PK_EQ = { PK: { ComparisonOperator: 'EQ', AttributeValueList: [{ S: 'diff#legacy' }] } };
const A_NULL = { a: { ComparisonOperator: 'NULL' } };
const A_ABSENT = { a: { Exists: false } };
const B_PUT = { b: { Action: 'PUT', Value: { S: 'x' } } };
const LEGACY_NOTE = 'Developer guide, "Legacy conditional parameters": do not combine legacy parameters and expression parameters in a single call, or DynamoDB returns a ValidationException; DynamoDB Local accepts KeyConditions next to FilterExpression or ProjectionExpression.';
const withParams = (r: DiffRequest, params: Record<string, unknown>): DiffRequest => ({ ...r, params });
const legacyQuery = (params: Record<string, unknown>, fields: Fields = {}, o: Opts = {}): DiffRequest => withParams(build('Query', fields, o), { KeyConditions: PK_EQ, ...params });
const legacyScan = (params: Record<string, unknown>, fields: Fields = {}, o: Opts = {}): DiffRequest => withParams(build('Scan', fields, o), params);
add('Query KeyConditionExpression + KeyConditions', withParams(query('PK = :pk'), { KeyConditions: PK_EQ }), rej(MIX));
add('Query KeyConditionExpression + QueryFilter', withParams(query('PK = :pk'), { QueryFilter: A_NULL }), rej(MIX));
add('Query KeyConditionExpression + AttributesToGet', withParams(query('PK = :pk'), { AttributesToGet: ['a'] }), rej(MIX));
add('Query KeyConditionExpression + ConditionalOperator', withParams(query('PK = :pk'), { ConditionalOperator: 'AND' }), rej(MIX));
add('Query KeyConditions + QueryFilter + FilterExpression', legacyQuery({ QueryFilter: A_NULL }, { FilterExpression: 'a = :v' }), rej(MIX));
add('Query KeyConditions + FilterExpression', legacyQuery({}, { FilterExpression: 'a = :v' }), OK, { documentedDeparture: true, note: LEGACY_NOTE });
add('Query KeyConditions + ProjectionExpression', legacyQuery({}, { ProjectionExpression: 'a' }), OK, { documentedDeparture: true, note: LEGACY_NOTE });
add('Query KeyConditions alone', legacyQuery({}), OK);
add('Query KeyConditions + QueryFilter + AttributesToGet', legacyQuery({ QueryFilter: A_NULL, AttributesToGet: ['a'] }), OK);
add('Scan FilterExpression + ScanFilter', withParams(scan('a = :v'), { ScanFilter: A_NULL }), rej(MIX));
add('Scan FilterExpression + AttributesToGet', withParams(scan('a = :v'), { AttributesToGet: ['a'] }), rej(MIX));
add('Scan ProjectionExpression + AttributesToGet', withParams(scanProjection('a'), { AttributesToGet: ['a'] }), rej(MIX));
add('Scan ScanFilter alone', legacyScan({ ScanFilter: A_NULL }), OK);
add('Scan ScanFilter + ExpressionAttributeNames', legacyScan({ ScanFilter: A_NULL }, {}, { exactNames: { '#a': 'a' } }), rej('ExpressionAttributeNames can only be specified when using expressions'));
add('Scan ScanFilter + ExpressionAttributeValues', legacyScan({ ScanFilter: A_NULL }, {}, { exactValues: { ':a': { S: 'a' } } }), rej('ExpressionAttributeValues can only be specified when using expressions'));
add('Scan ExpressionAttributeNames alone', legacyScan({}, {}, { exactNames: { '#a': 'a' } }), rej('ExpressionAttributeNames can only be specified when using expressions'));
add('GetItem ProjectionExpression + AttributesToGet', withParams(get('a'), { AttributesToGet: ['a'] }), rej(MIX));
add('GetItem AttributesToGet alone', withParams(build('GetItem', {}), { AttributesToGet: ['a'] }), OK);
add('GetItem AttributesToGet + ExpressionAttributeNames', withParams(build('GetItem', {}, { exactNames: { '#a': 'a' } }), { AttributesToGet: ['a'] }), rej('ExpressionAttributeNames can only be specified when using expressions'));
add('PutItem ConditionExpression + Expected', withParams(put('attribute_not_exists(a)'), { Expected: A_ABSENT }), rej(MIX));
add('PutItem ConditionExpression + ConditionalOperator', withParams(put('attribute_not_exists(a)'), { ConditionalOperator: 'AND' }), rej(MIX));
add('PutItem Expected alone', withParams(build('PutItem', {}), { Expected: A_ABSENT }), OK);
add('PutItem Expected + ExpressionAttributeNames', withParams(build('PutItem', {}, { exactNames: { '#a': 'a' } }), { Expected: A_ABSENT }), rej('ExpressionAttributeNames can only be specified when using expressions'));
add('UpdateItem UpdateExpression + AttributeUpdates', withParams(update('SET a = :v'), { AttributeUpdates: B_PUT }), rej(MIX));
add('UpdateItem UpdateExpression + Expected', withParams(update('SET a = :v'), { Expected: A_ABSENT }), rej(MIX));
add('UpdateItem ConditionExpression + AttributeUpdates', withParams(build('UpdateItem', { ConditionExpression: 'attribute_not_exists(a)' }), { AttributeUpdates: B_PUT }), rej(MIX));
add('UpdateItem two expressions + AttributeUpdates and Expected', withParams(updateIf('SET a = :v', 'attribute_not_exists(q)'), { AttributeUpdates: B_PUT, Expected: A_ABSENT }), rej(MIX));
add('UpdateItem AttributeUpdates + Expected', withParams(build('UpdateItem', {}), { AttributeUpdates: B_PUT, Expected: A_ABSENT }), OK);
add('DeleteItem ConditionExpression + Expected', withParams(del('attribute_not_exists(a)'), { Expected: A_ABSENT }), rej(MIX));
add('DeleteItem Expected alone', withParams(build('DeleteItem', {}), { Expected: A_ABSENT }), OK);

family = 'select';
const NOT_WITH = (what: string) => `Cannot specify the ProjectionExpression when choosing to get ${what}`;
const SPECIFIC_NEEDS = 'Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES';
const SELECT_VALUE = 'Select must be ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or SPECIFIC_ATTRIBUTES';
const selectScan = (Select: string, fields: Fields = {}, extra: Record<string, unknown> = {}) => withParams(build('Scan', fields), { Select, ...extra });
const selectQuery = (Select: string, fields: Fields = {}) => withParams(query('PK = :pk', { projection: fields.ProjectionExpression, filter: fields.FilterExpression }), { Select });
add('Scan ALL_ATTRIBUTES + ProjectionExpression', selectScan('ALL_ATTRIBUTES', { ProjectionExpression: 'a' }), rej(NOT_WITH('ALL_ATTRIBUTES')));
add('Scan COUNT + ProjectionExpression', selectScan('COUNT', { ProjectionExpression: 'a' }), rej(NOT_WITH('only the Count')));
add('Scan ALL_PROJECTED_ATTRIBUTES + ProjectionExpression', selectScan('ALL_PROJECTED_ATTRIBUTES', { ProjectionExpression: 'a' }), rej(NOT_WITH('ALL_PROJECTED_ATTRIBUTES')));
add('Query COUNT + ProjectionExpression', selectQuery('COUNT', { ProjectionExpression: 'a' }), rej(NOT_WITH('only the Count')));
add('Query ALL_ATTRIBUTES + ProjectionExpression', selectQuery('ALL_ATTRIBUTES', { ProjectionExpression: 'a, b' }), rej(NOT_WITH('ALL_ATTRIBUTES')));
add('Scan ALL_PROJECTED_ATTRIBUTES without IndexName', selectScan('ALL_PROJECTED_ATTRIBUTES'), rej('ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName'));
add('Query ALL_PROJECTED_ATTRIBUTES without IndexName', selectQuery('ALL_PROJECTED_ATTRIBUTES'), rej('ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName'));
add('Scan SPECIFIC_ATTRIBUTES without a projection', selectScan('SPECIFIC_ATTRIBUTES'), rej(SPECIFIC_NEEDS));
add('Query SPECIFIC_ATTRIBUTES without a projection', selectQuery('SPECIFIC_ATTRIBUTES', { FilterExpression: 'a = :v' }), rej(SPECIFIC_NEEDS));
add('Scan SPECIFIC_ATTRIBUTES + ProjectionExpression', selectScan('SPECIFIC_ATTRIBUTES', { ProjectionExpression: 'a' }), OK);
add('Scan SPECIFIC_ATTRIBUTES + AttributesToGet', selectScan('SPECIFIC_ATTRIBUTES', {}, { AttributesToGet: ['a'] }), OK);
add('Scan ALL_ATTRIBUTES', selectScan('ALL_ATTRIBUTES'), OK);
add('Scan COUNT', selectScan('COUNT'), OK);
add('Query COUNT + FilterExpression', selectQuery('COUNT', { FilterExpression: 'a = :v' }), OK);
add('Scan ALL_ATTRIBUTES + AttributesToGet', selectScan('ALL_ATTRIBUTES', {}, { AttributesToGet: ['a'] }), rej('Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES'));
add('Query COUNT + AttributesToGet', legacyQuery({ Select: 'COUNT', AttributesToGet: ['a'] }), rej('Cannot specify the AttributesToGet when choosing to get only the Count'));
add('Scan Select ALL', selectScan('ALL'), rej(SELECT_VALUE));
add('Scan Select count (lower case)', selectScan('count'), rej(SELECT_VALUE));

/* Malformed attribute values (low-level) ------------------------------------------------------------------------------ */
family = 'attribute-values';
const EMPTY_AV = 'Supplied AttributeValue is empty, must contain exactly one of the supported datatypes';
const TWO_TYPES = 'Supplied AttributeValue has more than one datatypes set';
const NULL_FALSE = 'Null attribute value types must have the value of true';
const av = (x: unknown) => x as AttributeValue;
for (const [label, x, verdict] of [
  ['{}', av({}), rej(EMPTY_AV)],
  ['two types', av({ S: 'a', N: '1' }), rej(TWO_TYPES)],
  ['an unknown type key', av({ X: 'a' }), rej(EMPTY_AV)],
  ['a lower-case type key', av({ s: 'a' }), rej(EMPTY_AV)],
  ['NULL: false', av({ NULL: false }), rej(NULL_FALSE)],
  ['NULL: true', { NULL: true }, OK],
  ['{} inside a list', av({ L: [{}] }), rej(EMPTY_AV)],
  ['two types inside a map', av({ M: { b: { S: 'x', BOOL: true } } }), rej(TWO_TYPES)],
  ['NULL: false inside a map', av({ M: { b: { NULL: false } } }), rej(NULL_FALSE)],
  ['BOOL: "true" (a string)', av({ BOOL: 'true' }), OK],
  ['S: 5 (a JSON number)', av({ S: 5 }), OK],
] as [string, AttributeValue, Verdict][]) {
  add(`PutItem Item attribute ${label}`, build('PutItem', {}, { item: { a: x } }), verdict);
  if (label.includes('inside') || label.includes('JSON')) continue; // one context is enough for these
  add(`UpdateItem SET a = :v with ${label}`, update('SET a = :v', { values: { ':v': x } }), verdict);
}
add('PutItem Item attribute {} with a failing condition', put('attribute_exists(zz)', { item: { a: av({}) } }), rej(EMPTY_AV));
add('UpdateItem SET a = :v with {} and a failing condition', updateIf('SET a = :v', 'attribute_exists(zz)', { values: { ':v': av({}) } }), rej(EMPTY_AV));
add('Query key condition value {}', query('PK = :pk', { values: { ':pk': av({}) } }), rej(EMPTY_AV));
add('Scan filter value NULL: false', scan('a = :v', { values: { ':v': av({ NULL: false }) } }), rej(NULL_FALSE));
add('UpdateItem Key value {}', { ...update('SET a = :v'), key: { PK: av({}), SK: { S: 'x' } } }, rej(EMPTY_AV));
add('UpdateItem Key value with two types', { ...update('SET a = :v'), key: { PK: av({ S: 'a', N: '1' }), SK: { S: 'x' } } }, rej(TWO_TYPES));
add('GetItem Key value NULL: false', { ...build('GetItem', {}), key: { PK: av({ NULL: false }), SK: { S: 'x' } } }, rej(NULL_FALSE));
add('GetItem Key value with an unknown type key', { ...build('GetItem', {}), key: { PK: av({ X: 'a' }), SK: { S: 'x' } } }, rej(EMPTY_AV));
add('DeleteItem Key value {} with a failing condition', { ...del('attribute_exists(zz)'), key: { PK: av({ X: 'y' }), SK: { S: 'x' } } }, rej(EMPTY_AV));

/* SET arithmetic on two literal numbers ------------------------------------------------------------------------------- */
family = 'literal-arithmetic';
const N38 = '9'.repeat(38);
const nums = (a: string, b: string): Opts => ({ values: { ':x': { N: a }, ':y': { N: b } } });
updates([
  ['SET a = :x + :y', rej(DIGITS), nums(N38, N38)],
  ['SET a = :x - :y', rej(DIGITS), nums(N38, '0.5')],
  ['SET a = :x + :y ', rej(DIGITS), nums('1' + '0'.repeat(37), '0.1')],
  ['SET a = :x + :y  ', OK, nums('5', '5')],
  ['SET a = :x + :y   ', OK, nums('0.1', '1e-37')],
  ['SET a = :x + :y    ', OK, nums('0.1', '1e-38')],
  ['SET a = :x + :y     ', rej(DIGITS), nums('1e100', '1e-100')],
  ['SET a = :x - :y ', OK, nums(N38, N38)],
  ['SET a = :x + :y      ', rej('Number overflow'), nums('9e125', '9e125')],
  ['SET a = :x - :y  ', rej('Number underflow'), nums('2e-130', '1.5e-130')],
  ['SET a = :x + :x', rej(DIGITS), { values: { ':x': { N: N38 } } }],
  ['SET a = (:x) + :x', rej(DIGITS), { values: { ':x': { N: N38 } } }],
  ['SET c = :s, a = :x + :y', rej(DIGITS), nums(N38, N38)],
  ['SET a = if_not_exists(a, :x) + :y', OK, nums(N38, '1')],
]);
add('SET a = :x + :y past 38 digits, failing condition', updateIf('SET a = :x + :y', 'attribute_exists(zz)', nums(N38, N38)), OK);
add('SET a = :x + :y past 38 digits, condition holding on this item', updateIf('SET a = :x + :y', 'attribute_not_exists(zz)', nums(N38, N38)), onItem(DIGITS));

/* Values nested deeper than 32 levels --------------------------------------------------------------------------------- */
family = 'value-depth';
const TOO_DEEP = 'Nesting Levels have exceeded supported limits';
/** `n` nested lists around a string / around an empty list / around a number set. */
const lists = (n: number): AttributeValue => (n === 0 ? { S: 'x' } : { L: [lists(n - 1)] });
const emptyLists = (n: number): AttributeValue => (n === 1 ? { L: [] } : { L: [emptyLists(n - 1)] });
const setInLists = (n: number): AttributeValue => (n === 0 ? { NS: ['1'] } : { L: [setInLists(n - 1)] });
const maps = (n: number): AttributeValue => (n === 0 ? { S: 'x' } : { M: { a: maps(n - 1) } });
add('PutItem attribute with 31 nested lists', build('PutItem', {}, { item: { a: lists(31) } }), OK);
add('PutItem attribute with 32 nested lists', build('PutItem', {}, { item: { a: lists(32) } }), rej(TOO_DEEP));
add('PutItem attribute with 32 nested maps', build('PutItem', {}, { item: { a: maps(32) } }), rej(TOO_DEEP));
add('PutItem attribute with 32 nested lists, failing condition', put('attribute_exists(zz)', { item: { a: lists(32) } }), rej(TOO_DEEP));
add('SET a = :v with 31 nested lists', update('SET a = :v', { values: { ':v': lists(31) } }), OK);
add('SET a = :v with 32 nested lists', update('SET a = :v', { values: { ':v': lists(32) } }), rej(TOO_DEEP));
add('SET a = :v with 33 nested lists', update('SET a = :v', { values: { ':v': lists(33) } }), rej(TOO_DEEP));
add('SET a = :v with 32 nested lists, the last empty', update('SET a = :v', { values: { ':v': emptyLists(32) } }), rej(TOO_DEEP));
add('SET a = :v with 33 nested lists, the last empty', update('SET a = :v', { values: { ':v': emptyLists(33) } }), rej(TOO_DEEP));
add('SET a = :v with a set in 31 nested lists', update('SET a = :v', { values: { ':v': setInLists(31) } }), OK);
add('SET a = :v with a set in 32 nested lists', update('SET a = :v', { values: { ':v': setInLists(32) } }), rej(TOO_DEEP));
add('SET a = :v with 32 nested lists, failing condition', updateIf('SET a = :v', 'attribute_exists(zz)', { values: { ':v': lists(32) } }), OK);
add('SET a = :v with 33 nested lists, failing condition', updateIf('SET a = :v', 'attribute_exists(zz)', { values: { ':v': lists(33) } }), rej(TOO_DEEP));
add('SET a = if_not_exists(a, :v) with 32 nested lists', update('SET a = if_not_exists(a, :v)', { values: { ':v': lists(32) } }), onItem(TOO_DEEP));
add('SET a = if_not_exists(a, :v) with 32 nested lists, a present', update('SET a = if_not_exists(a, :v)', { values: { ':v': lists(32) } }), OK, { seed: { a: { S: 'x' } } });
add('SET a = list_append(:v, :w) with 31 nested lists each', update('SET a = list_append(:v, :w)', { values: { ':v': lists(31), ':w': lists(31) } }), OK);
add('condition value with 32 nested lists', updateIf('SET b = :s', 'a <> :v', { values: { ':v': lists(32) } }), OK);
add('condition value with 33 nested lists', updateIf('SET b = :s', 'a <> :v', { values: { ':v': lists(33) } }), rej(TOO_DEEP));
add('filter value with 32 nested lists', scan('a = :v', { values: { ':v': lists(32) } }), OK);
add('filter value with 33 nested lists', scan('a = :v', { values: { ':v': lists(33) } }), rej(TOO_DEEP));
add('PutItem condition value with 33 nested lists', put('a <> :v', { values: { ':v': lists(33) } }), rej(TOO_DEEP));

/* Item size ---------------------------------------------------------------------------------------------------------- */
family = 'item-size';
const TOO_LARGE = 'Item size has exceeded the maximum allowed size';
/** A PutItem of exactly `bytes` bytes (key `size#<tag>` / `x`, one attribute `a`, or `a` and `bb`). */
const sized = (tag: string, bytes: number, split = false): DiffRequest => {
  const key: Item = { PK: { S: `size#${tag}` }, SK: { S: 'x' } };
  const keyBytes = 2 + `size#${tag}`.length + 2 + 1;
  const rest = bytes - keyBytes;
  const item: Item = split ? { a: { S: 'x'.repeat(200_000) }, bb: { S: 'x'.repeat(rest - 200_001 - 2) } } : { a: { S: 'x'.repeat(rest - 1) } };
  return { ...build('PutItem', {}, { item }), key };
};
add('PutItem of 409,600 bytes', sized('1', 409_600), OK);
add('PutItem of 409,601 bytes', sized('2', 409_601), rej(TOO_LARGE));
add('PutItem of 409,600 bytes in two attributes', sized('3', 409_600, true), OK);
add('PutItem of 409,601 bytes in two attributes', sized('4', 409_601, true), rej(TOO_LARGE));
add('PutItem of 500 KB', sized('5', 512_000), rej(TOO_LARGE));
add('PutItem of 500 KB, failing condition', { ...sized('6', 512_000), ConditionExpression: 'attribute_exists(zz)' }, rej(TOO_LARGE));

/** Case names must be unique: they key test-results/differential-mismatches.json. */
export function assertUniqueNames(cases: DiffCase[]): void {
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`duplicate case name: ${c.name}`);
    seen.add(c.name);
  }
}
