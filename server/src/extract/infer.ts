/**
 * Host-independent knowledge: which API a set of fields means, which value style a literal uses, the names each SDK
 * gives to each API, and the cheap checks run before any parse.
 */
import { Api, ObjectNode, RequestSite, VNode, ValueStyle, prop } from './model';

/* ------------------------------------------------------------------------------------------------------------------ */
/* Names per SDK                                                                                                      */

const APIS: Api[] = [
  'PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan', 'BatchWriteItem', 'BatchGetItem',
  'TransactWriteItems', 'TransactGetItems', 'ExecuteStatement', 'ExecuteTransaction', 'BatchExecuteStatement',
];

/** lib-dynamodb / DocumentClient short names (`Update`, `TransactWrite`, `BatchGet`). */
function docName(api: Api): string {
  return api.replace(/Item$|Items$/, '');
}

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);
const snake = (s: string) => s.replace(/[A-Z]/g, (c, i: number) => (i ? '_' : '') + c.toLowerCase());

/** SDK v3 `@aws-sdk/client-dynamodb` command classes: `UpdateItemCommand` -> UpdateItem. */
export const LOW_COMMANDS = new Map(APIS.map((a) => [`${a}Command`, a]));
/** `@aws-sdk/lib-dynamodb` command classes: `UpdateCommand` -> UpdateItem (QueryCommand, ScanCommand... shared). */
export const DOC_COMMANDS = new Map(APIS.map((a) => [`${docName(a)}Command`, a]));
/** Aggregated low-level clients (SDK v3 `DynamoDB`, SDK v2 `AWS.DynamoDB`): `updateItem` -> UpdateItem. */
export const LOW_METHODS = new Map(APIS.map((a) => [lowerFirst(a), a]));
/** Document clients (SDK v2 `DocumentClient`, v3 `DynamoDBDocument`): `update` -> UpdateItem. */
export const DOC_METHODS = new Map(APIS.map((a) => [lowerFirst(docName(a)), a]));
/** boto3 client / resource / Table methods: `update_item` -> UpdateItem. */
export const PY_METHODS = new Map(APIS.map((a) => [snake(a), a]));
/** Methods a boto3 `Table` has (the rest exist only on the client, or on the resource for batches). */
export const TABLE_APIS = new Set<Api>(['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query', 'Scan']);

/** Typed inputs: `UpdateItemCommandInput`, `UpdateCommandInput`, v2 `UpdateItemInput` (DynamoDB or DocumentClient). */
export function apiOfTypeName(name: string): { api: Api; family: 'low' | 'doc' | 'v2' } | undefined {
  const m = /^(\w+?)(Command)?Input$/.exec(name);
  if (!m) return undefined;
  if (m[2]) {
    const low = LOW_COMMANDS.get(`${m[1]}Command`);
    const doc = DOC_COMMANDS.get(`${m[1]}Command`);
    if (low) return { api: low, family: 'low' };
    if (doc) return { api: doc, family: 'doc' };
    return undefined;
  }
  const api = APIS.find((a) => a === m[1]);
  return api ? { api, family: 'v2' } : undefined;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Inference from fields                                                                                              */

const isObj = (n: VNode | undefined): n is ObjectNode => n?.kind === 'object';
const isStr = (n: VNode | undefined) => n?.kind === 'string' || n?.kind === 'unknown';
const TRANSACT_WRITE_OPS = ['Put', 'Update', 'Delete', 'ConditionCheck'];

/** The single `Put|Update|Delete|ConditionCheck|Get` key of a transaction entry, when the entry has that shape. */
export function transactOp(entry: VNode): string | undefined {
  if (!isObj(entry) || entry.properties.length !== 1) return undefined;
  const p = entry.properties[0];
  if (![...TRANSACT_WRITE_OPS, 'Get'].includes(p.key) || !isObj(p.value)) return undefined;
  return prop(p.value, 'Key') || prop(p.value, 'Item') || prop(p.value, 'TableName') ? p.key : undefined;
}

/** TransactWriteItems / TransactGetItems when `items` is a non-empty array of transaction entries. */
export function transactApi(items: VNode | undefined): Api | undefined {
  if (items?.kind !== 'array' || items.items.length === 0) return undefined;
  const ops = items.items.map(transactOp);
  if (ops.some((o) => !o)) return undefined;
  return ops.every((o) => o === 'Get') ? 'TransactGetItems' : 'TransactWriteItems';
}

/** BatchWriteItem / BatchGetItem when `tables` maps table names to write-request lists or `{Keys}`. */
export function batchApi(tables: VNode | undefined): Api | undefined {
  if (!isObj(tables) || tables.properties.length === 0) return undefined;
  const vals = tables.properties.map((p) => p.value);
  const isWrite = (v: VNode) =>
    // UpdateRequest is not a BatchWriteItem action, but writing one there is the mistake a rule reports: keep the site.
    v.kind === 'array' && v.items.length > 0 && v.items.every((e) => isObj(e) && ['PutRequest', 'DeleteRequest', 'UpdateRequest'].some((k) => isObj(prop(e, k))));
  if (vals.every(isWrite)) return 'BatchWriteItem';
  if (vals.every((v) => isObj(v) && prop(v, 'Keys')?.kind === 'array')) return 'BatchGetItem';
  return undefined;
}

/**
 * The API a request object means, from its fields alone, or undefined when it is not clearly a request.
 * Deliberately strict: a random object with a `Key` or `Item` is not a request without a `TableName` or an expression.
 */
export function inferApi(o: ObjectNode): Api | undefined {
  const has = (k: string) => prop(o, k) !== undefined;
  if (has('TransactItems')) return transactApi(prop(o, 'TransactItems'));
  if (has('RequestItems')) return batchApi(prop(o, 'RequestItems'));
  if (isStr(prop(o, 'Statement')) && (has('Parameters') || has('ConsistentRead') || has('NextToken'))) return 'ExecuteStatement';
  if (prop(o, 'TransactStatements')?.kind === 'array') return 'ExecuteTransaction';
  if (prop(o, 'Statements')?.kind === 'array' && isObj((prop(o, 'Statements') as { items?: VNode[] }).items?.[0])) return 'BatchExecuteStatement';
  const table = has('TableName');
  if (isStr(prop(o, 'UpdateExpression')) || (table && isObj(prop(o, 'Key')) && has('AttributeUpdates'))) return 'UpdateItem';
  if (isStr(prop(o, 'KeyConditionExpression')) || (table && has('KeyConditions'))) return 'Query';
  if (isObj(prop(o, 'Item')) && (table || has('ConditionExpression'))) return 'PutItem';
  if (isObj(prop(o, 'Key')) && table) {
    if (has('ProjectionExpression') || has('ConsistentRead') || has('AttributesToGet')) return 'GetItem';
    if (has('ConditionExpression') || has('ReturnValues') || has('Expected')) return 'DeleteItem';
    return 'GetItem';
  }
  if (table && (has('FilterExpression') || has('ScanFilter') || has('TotalSegments') || has('Segment') || has('ProjectionExpression'))) return 'Scan';
  return undefined;
}

/** Keys that name a DynamoDB expression; an object literal with one of them may be a request by its shape alone. */
export const EXPRESSION_KEYS = new Set(['UpdateExpression', 'ConditionExpression', 'KeyConditionExpression', 'FilterExpression', 'ProjectionExpression']);

/** Text only a DynamoDB expression of that key would hold: an update action, or a placeholder / function in a condition. */
function dynamoText(key: string, s: string): boolean {
  if (key === 'UpdateExpression') return /^\s*(SET|REMOVE|ADD|DELETE)\s/i.test(s);
  if (key === 'ProjectionExpression') return false;
  return /(^|[^\w])[:#][A-Za-z_]\w*/.test(s) || /\b(attribute_exists|attribute_not_exists|attribute_type|begins_with|contains|size)\s*\(/.test(s);
}

/**
 * The API of a request written as a bare object (an exported constant, a config map entry, a test fixture, a class
 * field), judged by its shape: an expression key with a string value, and `TableName` or a `Key`/`Item` map; the
 * expression must read as DynamoDB's unless `TableName` is there. Undefined when it is not that shape; `Unknown` when
 * it is but its keys do not decide the API (`Key` + `ConditionExpression` alone: a delete, a ConditionCheck or an
 * update being built): only operation-independent rules read it.
 */
export function shapeApi(o: ObjectNode): Api | undefined {
  const table = isStr(prop(o, 'TableName'));
  if (prop(o, 'TransactItems')) return transactApi(prop(o, 'TransactItems'));
  const exprs = o.properties.filter((p) => EXPRESSION_KEYS.has(p.key));
  if (!exprs.length || exprs.some((p) => !isStr(p.value))) return undefined;
  const mapOrUnknown = (k: string) => {
    const v = prop(o, k);
    return v === undefined ? undefined : v.kind === 'object' || v.kind === 'unknown';
  };
  const key = mapOrUnknown('Key');
  const item = mapOrUnknown('Item');
  // `Key: 'photo.png'` (S3, caches): not a DynamoDB key.
  if (key === false || item === false) return undefined;
  if (!table && !exprs.some((p) => p.value.kind === 'string' && dynamoText(p.key, p.value.value))) return undefined;
  if (!table && !isObj(prop(o, 'Key')) && !isObj(prop(o, 'Item'))) return undefined;
  const has = (k: string) => prop(o, k) !== undefined;
  // Past this point the object is a request by its shape; what its keys do not decide is the 'Unknown' operation.
  if (has('UpdateExpression')) return key || table ? 'UpdateItem' : 'Unknown';
  if (has('KeyConditionExpression')) return key || item ? 'Unknown' : 'Query';
  if (item) return key ? 'Unknown' : 'PutItem';
  if (has('FilterExpression')) return key || !table ? 'Unknown' : 'Scan';
  if (key && has('ProjectionExpression') && !has('ConditionExpression')) return 'GetItem';
  return 'Unknown';
}

/**
 * Drop the shape sites (`isShape`) that another site already holds: inside its parameters' range, or the same literal
 * as any map of its tree (a literal a call reached through data flow: `items.push({Update: {...}})`). Of nested shapes,
 * only the outermost stays.
 */
export function dropHeldShapes(sites: RequestSite[], isShape: (s: RequestSite) => boolean): RequestSite[] {
  if (!sites.some(isShape)) return sites;
  const held = new Set<string>();
  for (const t of sites) {
    if (isShape(t)) continue;
    const stack: VNode[] = [t.params];
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (n.kind === 'object') {
        held.add(`${n.range.start}:${n.range.end}`);
        for (const p of n.properties) stack.push(p.value);
      } else if (n.kind === 'array') for (const x of n.items) stack.push(x);
    }
  }
  // Inside another site's parameters: a sweep in (start, longest first, non-shapes first) order, so a site is inside
  // an earlier one exactly when the furthest end seen so far reaches its end (linear after the sort, not pairwise).
  const order = sites.map((_, i) => i).sort((i, j) => {
    const a = sites[i].params.range;
    const b = sites[j].params.range;
    return a.start - b.start || b.end - a.end || Number(isShape(sites[i])) - Number(isShape(sites[j])) || i - j;
  });
  const inside = new Set<RequestSite>();
  let furthest = -1;
  for (const i of order) {
    const r = sites[i].params.range;
    if (furthest >= r.end) inside.add(sites[i]);
    furthest = Math.max(furthest, r.end);
  }
  return sites.filter((s) => !isShape(s) || (!held.has(`${s.params.range.start}:${s.params.range.end}`) && !inside.has(s)));
}

/** For calls on receivers we could not identify: the argument must carry the API's own fields. */
export function looksLikeRequest(params: ObjectNode, api: Api): boolean {
  if (api === 'TransactWriteItems' || api === 'TransactGetItems') return transactApi(prop(params, 'TransactItems')) !== undefined;
  if (api === 'BatchWriteItem' || api === 'BatchGetItem') return batchApi(prop(params, 'RequestItems')) !== undefined;
  if (api === 'ExecuteStatement') return prop(params, 'Statement') !== undefined;
  if (api === 'ExecuteTransaction') return prop(params, 'TransactStatements') !== undefined;
  if (api === 'BatchExecuteStatement') return prop(params, 'Statements') !== undefined;
  return prop(params, 'TableName') !== undefined;
}

const AV_KEYS = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

/** Is this value written as a low-level AttributeValue (`{S: ...}`)? undefined when it cannot tell. */
function isAttributeValue(v: VNode): boolean | undefined {
  if (v.kind === 'unknown') return undefined;
  return v.kind === 'object' && v.properties.length === 1 && AV_KEYS.has(v.properties[0].key);
}

/** The value style a request uses, judged from its values (Key, Item, ExpressionAttributeValues, nested entries). */
export function inferStyle(params: ObjectNode, fallback: ValueStyle): ValueStyle {
  const votes = { low: 0, doc: 0 };
  const maps: VNode[] = [];
  const collect = (o: VNode | undefined, depth: number) => {
    if (!isObj(o) || depth > 3) return;
    for (const k of ['Key', 'Item', 'ExpressionAttributeValues', 'ExclusiveStartKey']) {
      const m = prop(o, k);
      if (m) maps.push(m);
    }
    for (const k of ['Put', 'Update', 'Delete', 'ConditionCheck', 'Get', 'PutRequest', 'DeleteRequest']) collect(prop(o, k), depth + 1);
    for (const k of ['TransactItems']) {
      const a = prop(o, k);
      if (a?.kind === 'array') a.items.forEach((e) => collect(e, depth + 1));
    }
    const ri = prop(o, 'RequestItems');
    if (isObj(ri)) for (const t of ri.properties) (t.value.kind === 'array' ? t.value.items : [t.value]).forEach((e) => collect(e, depth + 1));
  };
  collect(params, 0);
  for (const m of maps) {
    if (!isObj(m)) continue;
    for (const p of m.properties) {
      const av = isAttributeValue(p.value);
      if (av === true) votes.low++;
      else if (av === false) votes.doc++;
    }
  }
  if (votes.low && !votes.doc) return 'low-level';
  if (votes.doc && !votes.low) return 'document';
  return fallback;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Mutation after the literal                                                                                         */

const esc = (s: string) => s.replace(/[$]/g, '\\$');

/**
 * Is the variable `name` changed after its literal, in `text` (the rest of its scope)? `params.ConditionExpression =`,
 * `params["X"] = ...`, `params.X![':v'] = ...` (through any accessor chain in JS), `params.update(...)`, `items.push(...)`,
 * `Object.assign(params, ...)`, `del params["X"]`...
 * Then the literal is not the whole request: its node must be marked incomplete. `nested` (JS): only changes below
 * the top level (`params.X.y = ...`, `params['X']['y'] = ...`), after which no map inside the literal is known to be whole either.
 */
export function mutatedLater(name: string, text: string, host: 'js' | 'python', nested = false): boolean {
  const n = esc(name);
  const re =
    host === 'js'
      ? new RegExp(`(?<![\\w$.])${n}(?:\\s*!?\\s*(?:\\??\\.\\s*[\\w$]+|\\[[^\\]]*\\]))${nested ? '+' : '*'}\\s*!?\\s*(?:\\.\\s*(?:push|unshift|splice)\\s*\\(|(?:\\.\\s*[\\w$]+|\\[[^\\]]*\\])\\s*(?:=(?![=>])|[-+]=|\\?\\?=|\\|\\|=))|Object\\.assign\\(\\s*${n}\\b|delete\\s+${n}\\b`)
      : new RegExp(`(?<![\\w.])${n}(?:\\s*\\[[^\\]]*\\])${nested ? '+' : '*'}\\s*(?:\\[[^\\]]*\\]\\s*(?:=(?!=)|[-+|]=)|\\.\\s*(?:update|setdefault|append|extend|insert|pop|clear|remove)\\s*\\()|\\bdel\\s+${n}\\s*\\[${nested ? '[^\\]]*\\]\\s*\\[' : ''}`);
  return re.test(text);
}

/**
 * A literal bound to `name` and changed later in `rest` (its scope after the literal) is not the whole value: mark it
 * incomplete, and every map/list inside it too when the change reaches below the top level.
 */
export function markMutatedLater(v: VNode, name: string, rest: string, host: 'js' | 'python'): VNode {
  if ((v.kind !== 'object' && v.kind !== 'array') || !mutatedLater(name, rest, host)) return v;
  v.complete = false;
  return mutatedLater(name, rest, host, true) ? markIncomplete(v) : v;
}

/** Mark a map/list and every map/list inside it incomplete (something may add to any of them). */
export function markIncomplete(v: VNode): VNode {
  const stack: VNode[] = [v];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.kind === 'object') for (const p of n.properties) stack.push(p.value);
    else if (n.kind === 'array') for (const x of n.items) stack.push(x);
    if (n.kind === 'object' || n.kind === 'array') n.complete = false;
  }
  return v;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Cheap checks before parsing                                                                                        */

/** Tokens that any request we can recognise contains (literally, in the file). */
const TRIGGERS = ['Expression', '_expression', 'TransactItems', 'RequestItems', 'TableName', 'Item', 'Key', 'Statement', 'ExclusiveStartKey', '@aws-appsync/utils/dynamodb'];

export function mayContainRequest(text: string): boolean {
  return TRIGGERS.some((t) => text.includes(t));
}

export const DEFAULT_MAX_FILE_SIZE = 2 * 1024 * 1024;
const MAX_LINE = 20_000;

/** A reason to skip the file (binary, minified, too large), or undefined. */
export function skipReason(text: string, maxFileSize: number, host: string): string | undefined {
  if (text.length > maxFileSize) return `file too large (${text.length} characters > ${maxFileSize})`;
  if (text.includes('\0')) return 'binary file (NUL bytes)';
  if (host === 'json') return undefined; // JSON on one line is normal (machine-written) and cheap to scan.
  let prev = -1;
  for (;;) {
    const nl = text.indexOf('\n', prev + 1);
    const end = nl < 0 ? text.length : nl;
    if (end - prev - 1 > MAX_LINE) return `minified file (a line longer than ${MAX_LINE} characters)`;
    if (nl < 0) return undefined;
    prev = nl;
  }
}

/**
 * Recursive-descent parsers (TypeScript's, jsonc-parser) overflow the stack on absurdly deep nesting. Blank out,
 * with spaces (offsets unchanged), every bracket and the text between them beyond `maxDepth` levels, so the rest of
 * the file still parses. Strings and comments are skipped roughly (quotes, `//`, `/* *\/`).
 */
export function flattenDeepNesting(text: string, maxDepth: number): string {
  const out = text.split('');
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const start = i++;
      while (i < n && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i++;
      if (depth > maxDepth) for (let k = start; k < Math.min(i, n); k++) out[k] = ' ';
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    if (depth > maxDepth && c !== '\n') out[i] = ' ';
    if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    i++;
  }
  return out.join('');
}

/** Deepest bracket nesting worth handing to a recursive-descent parser (DynamoDB itself allows 32 levels). */
export const MAX_PARSE_DEPTH = 400;
