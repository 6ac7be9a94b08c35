/**
 * Differential harness: sends a case's request to DynamoDB Local and classifies the answer, and turns the same
 * request into the validator's `ExpressionRequest`. Shared by differential.test.ts and record.ts.
 */
import {
  AttributeValue,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { LEGACY_PARAMETERS, type ExpressionRequest, type ValueInfo } from '../../server/src/expression/api';
import { numberSize } from '../../server/src/cost/size';
import { utf8Length } from '../../server/src/core/dynamodb';
import type { ExpressionField } from '../../server/src/expression/ast';
import type { DiffCase, DiffRequest, Verdict } from './cases';
import { createPkSkTable } from '../../scripts/dynamodb-local';

export const TABLE = 'Diff';
export const KEY_ATTRIBUTES = { partition: 'PK', sort: 'SK', all: ['PK', 'SK'] };
const EXPRESSION_KEYS: ExpressionField[] = [
  'UpdateExpression',
  'ConditionExpression',
  'KeyConditionExpression',
  'FilterExpression',
  'ProjectionExpression',
];

export async function createDiffTable(client: DynamoDBClient): Promise<void> {
  await createPkSkTable(client, TABLE);
}

/** What DynamoDB Local answered: success, a failed condition, or a ValidationException (with its message). */
export interface Observed {
  outcome: 'ok' | 'conditional-check-failed' | 'validation';
  message?: string;
}

/** Every case writes (if at all) only to its own item, so each request meets a missing item unless it seeds one. */
function keyOf(index: number): Record<string, AttributeValue> {
  return { PK: { S: `diff#${index}` }, SK: { S: 'item' } };
}

function common(r: DiffRequest) {
  const out: Record<string, unknown> = { TableName: TABLE };
  for (const k of EXPRESSION_KEYS) if (r[k] !== undefined) out[k] = r[k];
  if (r.ExpressionAttributeNames !== undefined) out.ExpressionAttributeNames = r.ExpressionAttributeNames;
  if (r.ExpressionAttributeValues !== undefined) out.ExpressionAttributeValues = r.ExpressionAttributeValues;
  Object.assign(out, r.params ?? {});
  return out;
}

/** The SDK input actually sent for a case (the key is derived from the case's index). */
export function sdkInput(c: DiffCase, index: number): Record<string, unknown> {
  const key = c.request.key ?? keyOf(index);
  const base = common(c.request);
  switch (c.request.op) {
    case 'PutItem':
      return { ...base, Item: { ...key, ...(c.request.item ?? {}) } };
    case 'UpdateItem':
    case 'DeleteItem':
    case 'GetItem':
      return { ...base, Key: key };
    case 'Query':
    case 'Scan':
      return base;
  }
}

function command(op: DiffRequest['op'], input: Record<string, unknown>) {
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const i = input as any;
  switch (op) {
    case 'PutItem':
      return new PutItemCommand(i);
    case 'UpdateItem':
      return new UpdateItemCommand(i);
    case 'DeleteItem':
      return new DeleteItemCommand(i);
    case 'GetItem':
      return new GetItemCommand(i);
    case 'Query':
      return new QueryCommand(i);
    case 'Scan':
      return new ScanCommand(i);
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

export async function runOnLocal(client: DynamoDBClient, c: DiffCase, index: number): Promise<Observed> {
  if (c.seed) await client.send(new PutItemCommand({ TableName: TABLE, Item: { ...keyOf(index), ...c.seed } }));
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await client.send(command(c.request.op, sdkInput(c, index)) as any);
    return { outcome: 'ok' };
  } catch (e) {
    const err = e as { name?: string; message?: string };
    if (err.name === 'ConditionalCheckFailedException') return { outcome: 'conditional-check-failed' };
    if (err.name === 'ValidationException') return { outcome: 'validation', message: err.message ?? '' };
    throw new Error(`case ${c.name}: unexpected ${err.name}: ${err.message}`);
  }
}

/** Does the observed answer match the pinned verdict? Returns a reason when it does not. */
export function verdictMismatch(pinned: Verdict, seen: Observed): string | undefined {
  const rejected = seen.outcome === 'validation';
  if (pinned.rejects || pinned.message !== undefined) {
    // A rejection, or (rejects: false) an item-dependent ValidationException raised on this item.
    if (!rejected) return `expected a ValidationException containing ${JSON.stringify(pinned.message)}, got ${seen.outcome}`;
    if (pinned.message !== undefined && !seen.message!.includes(pinned.message))
      return `expected message containing ${JSON.stringify(pinned.message)}, got ${JSON.stringify(seen.message)}`;
    return undefined;
  }
  return rejected ? `expected acceptance, got ValidationException: ${seen.message}` : undefined;
}

/** Run `fn` over `items` with at most `limit` in flight, keeping order. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const TYPE_KEYS = ['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS'];

/** Everything the request states about a literal value: scalar text, binary bytes, collection elements, malformations. */
function valueInfo(v: AttributeValue): ValueInfo {
  const types = Object.keys(v).filter((k) => TYPE_KEYS.includes(k) && (v as unknown as Record<string, unknown>)[k] !== undefined);
  if (!types.length) return { type: 'unknown', malformed: 'empty' };
  if (types.length > 1) return { type: 'unknown', malformed: 'multiple' };
  if (v.NULL === false) return { type: 'NULL', malformed: 'null-false' };
  if (v.N !== undefined) return { type: 'N', text: String(v.N) };
  if (v.S !== undefined) return { type: 'S', text: String(v.S) };
  if (v.B !== undefined) return { type: 'B', bytes: v.B };
  if (v.SS) return { type: 'SS', items: v.SS.map((text) => ({ type: 'S', text })) };
  if (v.NS) return { type: 'NS', items: v.NS.map((text) => ({ type: 'N', text })) };
  if (v.BS) return { type: 'BS', items: v.BS.map((bytes) => ({ type: 'B', bytes })) };
  if (v.L) return { type: 'L', items: v.L.map(valueInfo) };
  if (v.M) return { type: 'M', items: Object.values(v.M).map(valueInfo) };
  return { type: v.BOOL !== undefined ? 'BOOL' : v.NULL !== undefined ? 'NULL' : 'unknown' };
}

/** An attribute value's size in bytes (developer guide, "Item sizes"; numbers as DynamoDB encodes them, see cost/size.ts). */
function attributeSize(v: AttributeValue): number {
  if (v.S !== undefined) return utf8Length(String(v.S));
  if (v.N !== undefined) return numberSize(String(v.N)) ?? 0;
  if (v.B !== undefined) return v.B.length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS) return v.SS.reduce((n, s) => n + utf8Length(s), 0);
  if (v.NS) return v.NS.reduce((n, s) => n + (numberSize(s) ?? 0), 0);
  if (v.BS) return v.BS.reduce((n, b) => n + b.length, 0);
  if (v.L) return 3 + v.L.reduce((n, e) => n + 1 + attributeSize(e), 0);
  if (v.M) return 3 + Object.entries(v.M).reduce((n, [k, e]) => n + 1 + utf8Length(k) + attributeSize(e), 0);
  return 0;
}

function itemBytes(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((n, [k, v]) => n + utf8Length(k) + attributeSize(v), 0);
}

/** The validator's view of a case's request: the expressions, the two maps, and the table's key attributes. */
export function toExpressionRequest(r: DiffRequest, index = 0): ExpressionRequest {
  const expressions: ExpressionRequest['expressions'] = {};
  for (const k of EXPRESSION_KEYS) if (r[k] !== undefined) expressions[k] = r[k];
  const req: ExpressionRequest = { operation: r.op, expressions, keyAttributes: KEY_ATTRIBUTES };
  if (r.ExpressionAttributeNames) req.names = { map: { ...r.ExpressionAttributeNames }, complete: true };
  if (r.ExpressionAttributeValues) {
    const map: Record<string, ValueInfo> = {};
    for (const [k, v] of Object.entries(r.ExpressionAttributeValues)) map[k] = valueInfo(v);
    req.values = { map, complete: true };
  }
  const params = r.params ?? {};
  const legacy = LEGACY_PARAMETERS.filter((l) => params[l] !== undefined);
  if (legacy.length) req.legacy = legacy;
  if (typeof params.Select === 'string') req.select = params.Select;
  req.indexName = params.IndexName !== undefined;
  req.complete = true;
  const key = r.key ?? keyOf(index);
  if (r.op !== 'Query' && r.op !== 'Scan') req.key = Object.fromEntries(Object.entries(key).map(([k, v]) => [k, valueInfo(v)]));
  if (r.op === 'PutItem') {
    const item = { ...key, ...(r.item ?? {}) };
    req.item = Object.fromEntries(Object.entries(r.item ?? {}).map(([k, v]) => [k, valueInfo(v)]));
    req.itemBytes = itemBytes(item);
  }
  return req;
}

/** The verdict our validator must give: DynamoDB Local's, or the documented one where the case pins a departure. */
export function expectedRejection(c: DiffCase): boolean {
  return c.documentedDeparture ? !c.local.rejects : c.local.rejects;
}
