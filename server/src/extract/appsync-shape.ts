/**
 * AppSync DynamoDB requests (JavaScript resolvers and VTL mapping templates) mapped onto DynamoDB's own request shape,
 * so rules read them like any other request: `{ operation: 'UpdateItem', key, update: { expression, expressionNames,
 * expressionValues }, condition: { expression, ... } }` becomes `{ Key, UpdateExpression, ConditionExpression,
 * ExpressionAttributeNames, ExpressionAttributeValues }`; `attributeValues` -> `Item`; `transactItems: [{ table,
 * operation, ... }]` -> `TransactItems: [{ Put|Update|Delete|ConditionCheck: { TableName, ... } }]`.
 *
 * Every renamed entry keeps the ranges of what was written (`UpdateExpression`'s key range is the `expression` key, its
 * value the string as written), so findings land on the user's text. The maps of `update` and `condition` are one map
 * in DynamoDB: when both are written, the merged map holds both's entries (their own ranges) and is not a place where a
 * fix may write (rules/edit.ts refuses to insert into an AppSync object that is not written as such in the source).
 *
 * Host-independent: the AppSync object is a value tree already (built from a TS object literal by appsync.ts, from the
 * JSON body of a template by vtl.ts).
 */
import type { Api, ObjectNode, Property, Range, VNode } from './model';

/** `sdk` of a request built by an `@aws-appsync/utils/dynamodb` helper (appsync-helpers.ts): no fix is written there. */
export const APPSYNC_HELPER_SDK = 'appsync-js-helper';

/** The AppSync operations that are DynamoDB writes we lint, by the API they send. */
export const APPSYNC_OPERATIONS: ReadonlyMap<string, Api> = new Map<string, Api>([
  ['PutItem', 'PutItem'],
  ['UpdateItem', 'UpdateItem'],
  ['DeleteItem', 'DeleteItem'],
  ['TransactWriteItems', 'TransactWriteItems'],
]);

/** Entry kinds of a transaction, by the AppSync `operation` of the item. */
const TRANSACT_ENTRY: Record<string, string> = { PutItem: 'Put', UpdateItem: 'Update', DeleteItem: 'Delete', ConditionCheck: 'ConditionCheck' };

const entry = (o: ObjectNode | undefined, key: string): Property | undefined => {
  if (!o) return undefined;
  for (let i = o.properties.length - 1; i >= 0; i--) if (o.properties[i].key === key) return o.properties[i];
  return undefined;
};

const renamed = (p: Property, key: string, value: VNode = p.value): Property => ({ key, keyRange: p.keyRange, value, range: p.range });

/** The AppSync operation an object names (`operation: 'UpdateItem'`), with its string's range. */
export function appSyncOperation(o: ObjectNode): { op: string; range: Range } | undefined {
  const p = entry(o, 'operation');
  return p && p.value.kind === 'string' ? { op: p.value.value, range: p.value.range } : undefined;
}

/** One map merged from the `expressionNames` (or `expressionValues`) of `update` and `condition`. */
function mergeMaps(key: string, parts: Property[]): Property | undefined {
  if (!parts.length) return undefined;
  if (parts.length === 1) return renamed(parts[0], key);
  const objects = parts.map((p) => p.value).filter((v): v is ObjectNode => v.kind === 'object');
  const first = parts[0];
  const merged: ObjectNode = {
    kind: 'object',
    properties: objects.flatMap((o) => o.properties),
    complete: objects.length === parts.length && objects.every((o) => o.complete),
    // The first map's range: the other's entries lie outside it, which is how edit.ts knows not to write here.
    range: { ...first.value.range },
  };
  return renamed(first, key, merged);
}

/**
 * DynamoDB parameters for one AppSync request object (`op` = its operation). Fields AppSync adds (`operation`,
 * `version`, `_version`, `customPartitionKey`, `populateIndexFields`) are left out; any other field we do not map makes
 * the result incomplete, as does an `update`/`condition` that is not a literal object (its parts become unknown).
 */
export function mapAppSyncRequest(o: ObjectNode, op: string): ObjectNode {
  const out: ObjectNode = { kind: 'object', properties: [], complete: o.complete, range: { ...o.range } };
  const names: Property[] = [];
  const values: Property[] = [];
  const expression = (p: Property, field: 'UpdateExpression' | 'ConditionExpression') => {
    if (p.value.kind !== 'object') {
      out.properties.push(renamed(p, field, { kind: 'unknown', range: p.value.range }));
      out.complete = false;
      return;
    }
    if (!p.value.complete) out.complete = false;
    const e = entry(p.value, 'expression');
    if (e) out.properties.push(renamed(e, field));
    else out.complete = false;
    const n = entry(p.value, 'expressionNames');
    if (n) names.push(n);
    const v = entry(p.value, 'expressionValues');
    if (v) values.push(v);
  };
  for (const p of o.properties) {
    switch (p.key) {
      case 'key':
        out.properties.push(renamed(p, 'Key'));
        break;
      case 'attributeValues':
        out.properties.push(renamed(p, 'Item'));
        break;
      case 'table':
        out.properties.push(renamed(p, 'TableName'));
        break;
      case 'update':
        expression(p, 'UpdateExpression');
        break;
      case 'condition':
        expression(p, 'ConditionExpression');
        break;
      case 'transactItems':
        out.properties.push(renamed(p, 'TransactItems', transactItems(p.value)));
        break;
      case 'operation':
      case 'version':
      case '_version':
      case 'customPartitionKey':
      case 'populateIndexFields':
        break;
      default:
        out.complete = false;
    }
  }
  // PutItem's `key` is part of the item DynamoDB writes: AppSync sends `Item` = key + attributeValues.
  if (op === 'PutItem') {
    const key = entry(out, 'Key');
    const item = entry(out, 'Item');
    if (key) {
      out.properties.splice(out.properties.indexOf(key), 1);
      if (item && item.value.kind === 'object' && key.value.kind === 'object') {
        const merged: ObjectNode = { kind: 'object', properties: [...key.value.properties, ...item.value.properties], complete: key.value.complete && item.value.complete, range: { ...item.value.range } };
        out.properties[out.properties.indexOf(item)] = renamed(item, 'Item', merged);
      } else if (!item) out.properties.push(renamed(key, 'Item', key.value.kind === 'object' ? { ...key.value, properties: [...key.value.properties], range: { ...key.value.range } } : key.value));
      else out.properties[out.properties.indexOf(item)] = renamed(item, 'Item', { kind: 'unknown', range: item.value.range });
    }
  }
  const n = mergeMaps('ExpressionAttributeNames', names);
  if (n) out.properties.push(n);
  const v = mergeMaps('ExpressionAttributeValues', values);
  if (v) out.properties.push(v);
  return out;
}

/** `transactItems: [...]` as DynamoDB's `TransactItems`: `{ Put|Update|Delete|ConditionCheck: params }` entries. */
function transactItems(v: VNode): VNode {
  if (v.kind !== 'array') return v.kind === 'unknown' ? v : { kind: 'unknown', range: v.range };
  const items: VNode[] = [];
  let complete = v.complete;
  for (const item of v.items) {
    const op = item.kind === 'object' ? appSyncOperation(item) : undefined;
    const kind = op && TRANSACT_ENTRY[op.op];
    if (item.kind !== 'object' || !op || !kind) {
      complete = false;
      items.push({ kind: 'unknown', range: item.range });
      continue;
    }
    const params = mapAppSyncRequest(item, op.op);
    // The entry kind's key range is the operation string as written (the squiggle of "this Put").
    items.push({ kind: 'object', properties: [{ key: kind, keyRange: { ...op.range }, value: params, range: { ...item.range } }], complete: true, range: { ...item.range } });
  }
  return { kind: 'array', items, complete, samples: v.samples, ...(v.unread ? { unread: true as const } : {}), range: v.range };
}
