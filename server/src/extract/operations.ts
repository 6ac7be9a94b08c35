import { ObjectNode, Range, RequestSite, VNode, prop, tableNameOf, unreadEntries } from './model';

/** One item-level action inside a request: the request itself, or one entry of a transaction or batch. */
export type OperationKind =
  | 'Put'
  | 'Update'
  | 'Delete'
  | 'ConditionCheck'
  | 'Get'
  | 'Query'
  | 'Scan'
  | 'BatchPut'
  | 'BatchDelete'
  | 'BatchGet'
  /** The one operation of an `Unknown` request (a shape whose operation its keys do not tell). */
  | 'Unknown';

export interface Operation {
  kind: OperationKind;
  /** The object holding this action's fields (`Key`, `Item`, `UpdateExpression`, `ExpressionAttributeValues`...). */
  params: ObjectNode;
  site: RequestSite;
  /** Table name when it is a literal (`TableName`, or the boto3 `Table` the call was made on). */
  table?: string;
  /** Index inside `TransactItems` / a batch table's request list; undefined for a single-item call. */
  index?: number;
  transactional: boolean;
}

const SINGLE: Partial<Record<RequestSite['api'], OperationKind>> = {
  PutItem: 'Put',
  UpdateItem: 'Update',
  DeleteItem: 'Delete',
  GetItem: 'Get',
  Query: 'Query',
  Scan: 'Scan',
  Unknown: 'Unknown',
};

/**
 * A transaction's actions as read. An action the extractor could not read (`{ Put: putAction }` with `putAction` a
 * parameter, `{ Put: makePut() }`, `makeItem()` in the list, `{ ...entry }`) or a list holding entries that are not
 * written out (`...moreItems`, an unknown list) may be anything, a guarded Put included: a rule concluding something
 * about all of a transaction's actions ("none fails on a replay", "only counters") must stay silent unless every
 * action is read (`listed` and no `unread` entry; unknown means silent).
 */
export interface TransactionActions {
  /** The actions read, in source order (what `operationsOf` returns for the transaction). */
  ops: Operation[];
  /**
   * Entries whose action is not known: its index, its range, and its kind when the entry names it (`{ Put: x }`,
   * `{ ConditionCheck: x }`); no kind for an entry that is not a map (`makeItem()`) or hides its keys (`{ ...e }`).
   */
  unread: { index: number; kind?: OperationKind; range: Range }[];
  /**
   * Every entry of the list is among `TransactItems`' items: written out, or the representative of entries of one
   * known shape (`ids.map((id) => ({ Put: {...} }))`, a push in a loop: `samples`). False for a list that is not a
   * list literal or holds a spread of an unknown one, next to representatives too (`unreadEntries`).
   */
  listed: boolean;
}

const TRANSACT_KINDS = ['Put', 'Update', 'Delete', 'ConditionCheck', 'Get'] as const;

/**
 * An entry that could not be read. Its range is read from the node when asked: the result is cached per site across
 * edits (rules/analysis.ts) and a compact node's `range` is a copy, which `shiftSite` would not move.
 */
function unreadAt(index: number, entry: VNode, kind?: OperationKind): TransactionActions['unread'][number] {
  return kind ? { index, kind, get range() { return entry.range; } } : { index, get range() { return entry.range; } };
}

/** The actions of a TransactWriteItems / TransactGetItems request, with what could not be read; undefined for others. */
export function transactionActions(site: RequestSite): TransactionActions | undefined {
  if (site.api !== 'TransactWriteItems' && site.api !== 'TransactGetItems') return undefined;
  const out: TransactionActions = { ops: [], unread: [], listed: false };
  const items = prop(site.params, 'TransactItems');
  if (items?.kind !== 'array') return out;
  out.listed = !unreadEntries(items);
  items.items.forEach((entry, index) => {
    if (entry.kind !== 'object') {
      out.unread.push(unreadAt(index, entry));
      return;
    }
    let named = false;
    for (const kind of TRANSACT_KINDS) {
      const inner = prop(entry, kind);
      if (!inner) continue;
      named = true;
      if (inner.kind === 'object') out.ops.push({ kind, params: inner, site, table: tableNameOf(site, inner), index, transactional: true });
      else out.unread.push(unreadAt(index, entry, kind));
    }
    // No action key: a spread may hold it; a complete map without one is no action at all (DynamoDB rejects it).
    if (!named && !entry.complete) out.unread.push(unreadAt(index, entry));
  });
  return out;
}

/** Every item-level operation a request performs, in source order. */
export function operationsOf(site: RequestSite): Operation[] {
  const single = SINGLE[site.api];
  const p = site.params;
  if (single) return [{ kind: single, params: p, site, table: tableNameOf(site), transactional: false }];
  const tx = transactionActions(site);
  if (tx) return tx.ops;
  const out: Operation[] = [];
  if (site.api === 'BatchWriteItem' || site.api === 'BatchGetItem') {
    const tables = prop(p, 'RequestItems');
    if (tables?.kind !== 'object') return out;
    for (const t of tables.properties) {
      if (site.api === 'BatchGetItem') {
        if (t.value.kind === 'object') out.push({ kind: 'BatchGet', params: t.value, site, table: t.key, transactional: false });
        continue;
      }
      if (t.value.kind !== 'array') continue;
      t.value.items.forEach((entry: VNode, index) => {
        const put = prop(entry, 'PutRequest');
        const del = prop(entry, 'DeleteRequest');
        if (put?.kind === 'object') out.push({ kind: 'BatchPut', params: put, site, table: t.key, index, transactional: false });
        if (del?.kind === 'object') out.push({ kind: 'BatchDelete', params: del, site, table: t.key, index, transactional: false });
      });
    }
  }
  return out;
}
