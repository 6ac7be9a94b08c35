import { ObjectNode, RequestSite, VNode, prop, tableNameOf } from './model';

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

/** Every item-level operation a request performs, in source order. */
export function operationsOf(site: RequestSite): Operation[] {
  const single = SINGLE[site.api];
  const p = site.params;
  if (single) return [{ kind: single, params: p, site, table: tableNameOf(site), transactional: false }];
  const out: Operation[] = [];
  if (site.api === 'TransactWriteItems' || site.api === 'TransactGetItems') {
    const items = prop(p, 'TransactItems');
    if (items?.kind !== 'array') return out;
    items.items.forEach((entry, index) => {
      if (entry.kind !== 'object') return;
      for (const kind of ['Put', 'Update', 'Delete', 'ConditionCheck', 'Get'] as const) {
        const inner = prop(entry, kind);
        if (inner?.kind === 'object') out.push({ kind, params: inner, site, table: tableNameOf(site, inner), index, transactional: true });
      }
    });
    return out;
  }
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
