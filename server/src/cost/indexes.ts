/**
 * What a write costs in the table's secondary indexes, and which billing mode the table is in, once the workspace
 * index (tables/) knows the table. Pure: the definitions come through `TableLookup`.
 *
 * Sources (AWS developer guide):
 * - "Provisioned throughput considerations for Global Secondary Indexes" (GSI.html#GSI.ThroughputConsiderations.Writes):
 *   the cost of a table write is the table's WCU plus the WCU of updating each GSI. A GSI is written only when the
 *   item has the index's key attributes (sparse indexes); the index write is sized by the *projected* item (index and
 *   table keys, plus INCLUDE's non-key attributes, or the whole item for ALL), rounded up to 1 KB. An update that
 *   changes an indexed key attribute costs two index writes (delete the old index item, put the new one); an update
 *   that changes only projected non-key attributes costs one; an update touching neither costs nothing in that index.
 *   Deleting an item deletes its index item (one write).
 * - "Provisioned throughput considerations for Local Secondary Indexes" (LSI.html#LSI.ThroughputConsiderations.Writes):
 *   the same rules, but LSI writes consume the *table's* write capacity (an LSI has no capacity of its own).
 * - Index propagation is not part of a transaction's prepare/commit (GSIs are updated asynchronously), so index
 *   writes are counted at the standard rate even inside TransactWriteItems; the hover says so.
 * - Billing mode: `BillingMode` of `AWS::DynamoDB::Table` and of CreateTable defaults to PROVISIONED when absent
 *   (CloudFormation user guide, aws-resource-dynamodb-table.html#cfn-dynamodb-table-billingmode; CreateTable API
 *   reference). CDK `Table`, Terraform and `GlobalTable` readers already set their own defaults (tables/).
 */
import { ObjectNode, prop } from '../extract/model';
import { withProperties } from '../core/compact';
import type { Operation } from '../extract/operations';
import { pathKey, namesOf, updateOf } from '../rules/analysis';
import type { TableLookup } from '../tables';
import type { IndexDef, TableDef } from '../tables/model';
import { nameText } from '../tables/model';
import { itemSize } from './size';

export type BillingMode = 'PAY_PER_REQUEST' | 'PROVISIONED';

export interface IndexWrite {
  index: string;
  kind: 'global' | 'local';
  /** ALL, KEYS_ONLY, INCLUDE; undefined when the definition does not say (then priced as ALL). */
  projection?: string;
  /** 1, or 2 for an update changing the index's key (delete + put). */
  writes: 1 | 2;
  /** Bytes of one index item as priced. */
  bytes: number;
  /** literal: from the request's item; keys: only the keys the request shows (lower bound); assumed: assumed item size. */
  size: 'literal' | 'keys' | 'assumed';
  units: number;
  why: 'put' | 'key change' | 'projected attribute' | 'delete';
}

/** The table an operation writes, as the workspace defines it: one definition, several, or unknown. */
export type TableFacts = { def: TableDef } | { several: TableDef[] } | undefined;

export function tableFacts(tables: TableLookup | undefined, op: Operation): TableFacts {
  const m = tables?.forOperation(op);
  if (!m) return undefined;
  return m.tables.length === 1 ? { def: m.tables[0] } : { several: m.tables };
}

export function tableName(t: TableDef): string {
  return t.logicalId ?? nameText(t.name) ?? 'table';
}

/** The table's billing mode from its definition, with the documented default when the definition omits it. */
export function billingOf(t: TableDef): { mode: BillingMode; defaulted: boolean } | undefined {
  const b = t.billing?.toUpperCase();
  if (b === 'PAY_PER_REQUEST' || b === 'ON_DEMAND') return { mode: 'PAY_PER_REQUEST', defaulted: false };
  if (b === 'PROVISIONED') return { mode: 'PROVISIONED', defaulted: false };
  if (b !== undefined) return undefined;
  const cfn = t.source === 'cloudformation' || t.source === 'sam' || t.source === 'serverless' || t.source === 'create-table';
  return cfn ? { mode: 'PROVISIONED', defaulted: true } : undefined;
}

const WRITE_UNIT_BYTES = 1024;
const units = (bytes: number) => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));

function keyNames(t: TableDef, ix: IndexDef): Set<string> {
  return new Set([t.partition.name, t.sort?.name, ix.partition.name, ix.sort?.name].filter((n): n is string => !!n));
}

/** Attribute names an index item holds; undefined = the whole item (ALL, or a projection the definition does not give). */
function projected(t: TableDef, ix: IndexDef): Set<string> | undefined {
  const type = ix.projection?.type.toUpperCase();
  if (type === 'KEYS_ONLY') return keyNames(t, ix);
  if (type === 'INCLUDE') return new Set([...keyNames(t, ix), ...(ix.projection?.attributes ?? [])]);
  return undefined;
}

function pick(item: ObjectNode, names: Set<string>): ObjectNode {
  // withProperties, not a spread: a compact map's range is a getter (a spread copies fields only).
  return withProperties(item, item.properties.filter((p) => names.has(p.key)), true);
}

export interface IndexWritesResult {
  writes: IndexWrite[];
  /** Plain-words assumptions behind the figures (deduplicated by the caller). */
  assumptions: string[];
}

/**
 * Index writes of one table write (Put, Update, Delete and their batch forms); none for reads and ConditionCheck.
 * `tableItemBytes` is the size the table write was priced on (the item for a Put, the assumed size otherwise).
 */
export function indexWrites(op: Operation, t: TableDef, tableItemBytes: number, assumed: number): IndexWritesResult {
  const out: IndexWritesResult = { writes: [], assumptions: [] };
  if (!t.indexes.length) return out;
  const style = op.site.style;
  const name = tableName(t);
  if (op.kind === 'Put' || op.kind === 'BatchPut') {
    const item = prop(op.params, 'Item');
    if (item?.kind !== 'object') {
      out.assumptions.push(`${op.kind}: the item is not literal; writes to the indexes of ${name} are not counted.`);
      return out;
    }
    const has = (a: string | undefined) => !a || item.properties.some((p) => p.key === a);
    for (const ix of t.indexes) {
      if (!has(ix.partition.name) || !has(ix.sort?.name)) {
        // Sparse: an item without the index's key attributes is not written to the index.
        if (item.complete) continue;
        out.assumptions.push(`${op.kind}: the item is not fully literal; assumed it has the key attributes of index ${ix.name}.`);
      }
      const names = projected(t, ix);
      const s = names ? itemSize(pick(item, names), style) : undefined;
      const bytes = s ? s.bytes : tableItemBytes;
      const size = s ? (s.known ? 'literal' : 'assumed') : 'literal';
      out.writes.push({ index: ix.name, kind: ix.kind, projection: ix.projection?.type, writes: 1, bytes, size, units: units(bytes), why: 'put' });
    }
    return out;
  }
  if (op.kind === 'Delete' || op.kind === 'BatchDelete') {
    const key = itemSize(prop(op.params, 'Key'), style);
    for (const ix of t.indexes) {
      const keysOnly = ix.projection?.type.toUpperCase() === 'KEYS_ONLY';
      const bytes = keysOnly ? key.bytes : assumed;
      out.writes.push({ index: ix.name, kind: ix.kind, projection: ix.projection?.type, writes: 1, bytes, size: keysOnly ? 'keys' : 'assumed', units: units(bytes), why: 'delete' });
    }
    out.assumptions.push(`${op.kind}: index writes assume the stored item is in each index of ${name} (has its key attributes).`);
    return out;
  }
  if (op.kind !== 'Update') return out;
  const upd = updateOf(op.params);
  if (!upd) {
    out.assumptions.push(`Update: the UpdateExpression is not a literal; writes to the indexes of ${name} are not counted.`);
    return out;
  }
  const names = namesOf(op.params);
  const touched = new Set<string>();
  let unresolved = false;
  for (const clause of upd.ast.clauses)
    for (const a of clause.actions) {
      const first = a.path.elements[0];
      const top = pathKey({ ...a.path, elements: [first] }, names);
      if (first.type === 'name' && first.placeholder && top === first.name) unresolved = true;
      else touched.add(top);
    }
  if (unresolved) {
    out.assumptions.push(`Update: a #name placeholder is not defined literally; writes to the indexes of ${name} are not counted.`);
    return out;
  }
  const key = itemSize(prop(op.params, 'Key'), style);
  let any = false;
  for (const ix of t.indexes) {
    const ixKeys = [ix.partition.name, ix.sort?.name].filter((n): n is string => !!n);
    const keyChange = ixKeys.some((k) => touched.has(k));
    const proj = projected(t, ix);
    const projChange = proj ? [...touched].some((a) => proj.has(a)) : touched.size > 0;
    if (!keyChange && !projChange) continue;
    any = true;
    const keysOnly = ix.projection?.type.toUpperCase() === 'KEYS_ONLY';
    // KEYS_ONLY: the table key the request shows plus the index key names (their values are a lower bound of 0).
    const bytes = keysOnly ? key.bytes + ixKeys.reduce((a, k) => a + Buffer.byteLength(k, 'utf8'), 0) : assumed;
    const writes = keyChange ? 2 : 1;
    out.writes.push({
      index: ix.name,
      kind: ix.kind,
      projection: ix.projection?.type,
      writes,
      bytes,
      size: keysOnly ? 'keys' : 'assumed',
      units: units(bytes) * writes,
      why: keyChange ? 'key change' : 'projected attribute',
    });
  }
  if (any) {
    out.assumptions.push(
      'Update: index writes assume the stored item has each index key; changing an index key is counted as delete + put (2 writes).',
    );
  }
  return out;
}
