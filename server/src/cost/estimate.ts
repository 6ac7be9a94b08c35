/**
 * Capacity units and money per request, from the request as written.
 *
 * Sources (AWS developer guide): "Read/write capacity mode" (provisioned-capacity-mode.html, on-demand-capacity-mode.html)
 * for 1 WCU per 1 KB and 1 RCU per 4 KB (0.5 eventually consistent), rounded up per item for single-item calls and
 * BatchGet/BatchWrite, summed then rounded for Query/Scan (a filter or `Select: COUNT` still pays for every item read);
 * UpdateItem pays the larger of the item's size before and after; reading or deleting a missing item still pays the
 * minimum unit. "Capacity management for transactions" (transaction-apis.html#transaction-capacity-handling):
 * DynamoDB performs two underlying reads or writes of every item in a transaction (prepare + commit), so each item
 * costs 2x, rounded per item. A ConditionCheck is one of the items of a TransactWriteItems: it is prepared and
 * committed like the writes and is charged as a transactional write of the checked item's size (2 WCU per KB).
 * DynamoDB Local reports transactions differently; see test/differential/capacity.test.ts.
 */
import { ObjectNode, RequestSite, VNode, prop } from '../extract/model';
import { Operation, OperationKind, operationsOf } from '../extract/operations';
import type { DynalintSettings } from '../protocol/settings';
import { counterActions, updateOf } from '../rules/analysis';
import { codeSpan } from '../language/markdown';
import type { TableLookup } from '../tables';
import { BillingMode, IndexWrite, billingOf, indexWrites, tableFacts, tableName } from './indexes';
import { resolvePrices, ResolvedPrices } from './prices';
import { itemSize } from './size';

export const WRITE_UNIT_BYTES = 1024;
export const READ_UNIT_BYTES = 4096;
/** Items a Query/Scan is assumed to read when the request shows no literal `Limit`. */
export const ASSUMED_ITEMS_READ = 100;
/** Hours in an average month (365 × 24 / 12), for provisioned monthly figures. */
export const HOURS_PER_MONTH = 730;

export type Consistency = 'strong' | 'eventual' | 'transactional';

export interface ItemSizeInfo {
  /** Bytes per item used for the estimate. */
  bytes: number;
  /** Where it comes from: the literal item, or the assumed size (the request does not show the stored item). */
  source: 'literal' | 'assumed';
  /** For `assumed`: bytes the request does show (key, partial item), a lower bound. */
  shownBytes?: number;
}

export interface OperationEstimate {
  kind: OperationKind;
  table?: string;
  /** Index inside TransactItems or the batch table's list. */
  index?: number;
  unit: 'WCU' | 'RCU';
  /** Items this operation touches (reads) per call. */
  items: number;
  /** false for Query/Scan without a literal Limit: `items` is the assumed count. */
  itemsKnown: boolean;
  size: ItemSizeInfo;
  consistency?: Consistency;
  transactional: boolean;
  /** Capacity units per call. */
  units: number;
  /** Attributes this operation updates as counters (`ADD n :v`, `SET n = n ± :v`), placeholders resolved. */
  counters: string[];
  /** Query/Scan with `Select: COUNT` or a FilterExpression: paid for every item read. */
  countsOrFilters?: 'count' | 'filter';
  /** Writes to the table's secondary indexes (only when the workspace defines the table). */
  indexWrites?: IndexWrite[];
}

/** The billing mode of the table(s) a request uses, from the workspace's definitions. */
export interface BillingInfo {
  mode: BillingMode;
  /** `LikesTable (template.yaml:4)` for each table agreeing on the mode. */
  tables: string[];
  /** The definition omits BillingMode: the documented default (PROVISIONED) was taken. */
  defaulted: boolean;
}

export interface CostEstimate {
  api: RequestSite['api'];
  operations: OperationEstimate[];
  /** Write capacity units (= on-demand write request units) per call, index writes included. */
  wcu: number;
  /** Of `wcu`: written to global secondary indexes (their own capacity) and local ones (the table's capacity). */
  gsiWcu: number;
  lsiWcu: number;
  /** The table's billing mode when every table the request uses is defined in the workspace and they agree. */
  billing?: BillingInfo;
  /** Read capacity units (= on-demand read request units) per call. */
  rcu: number;
  prices: ResolvedPrices;
  onDemand: { perCall: number; perMillion: number };
  /** Provisioned capacity to sustain one call per second. */
  provisioned: { perHour: number; perMonth: number };
  /** Plain-words assumptions (assumed sizes, item counts). */
  assumptions: string[];
  advice: string[];
  /** false when the request has no item-level operations we can price (PartiQL, unreadable TransactItems). */
  estimated: boolean;
}

/** WCU to write (or delete, or condition-check in a transaction) one item of `bytes`: 1 per KB, rounded up, min 1. */
export function writeUnits(bytes: number, transactional = false): number {
  return Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES)) * (transactional ? 2 : 1);
}

/**
 * RCU to read `bytes` in one rounding: one item for GetItem/BatchGetItem/TransactGetItems (call once per item), or
 * the summed size of the items a Query/Scan reads. 1 per 4 KB rounded up (min 1); eventual 0.5×, transactional 2×.
 */
export function readUnits(bytes: number, consistency: Consistency): number {
  const base = Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES));
  return consistency === 'eventual' ? base / 2 : consistency === 'transactional' ? base * 2 : base;
}

/** Size of the item an operation acts on: the literal Item for puts, the assumed size otherwise. */
function sizeOf(op: Operation, assumed: number): ItemSizeInfo {
  const style = op.site.style;
  if (op.kind === 'Put' || op.kind === 'BatchPut') {
    const s = itemSize(prop(op.params, 'Item'), style);
    return s.known ? { bytes: s.bytes, source: 'literal' } : { bytes: Math.max(s.bytes, assumed), source: 'assumed', shownBytes: s.bytes };
  }
  // Update (larger of before/after: before is not in the request), Delete, ConditionCheck, Get, Query, Scan:
  // the stored item is not in the request; the key (when literal) is a lower bound.
  const key = itemSize(prop(op.params, 'Key'), style);
  return { bytes: Math.max(key.bytes, assumed), source: 'assumed', shownBytes: key.bytes };
}

function literalBool(v: VNode | undefined): boolean | undefined {
  return v?.kind === 'bool' ? v.value : undefined;
}

function literalCount(v: VNode | undefined): number | undefined {
  const n = v?.kind === 'number' ? Number(v.text) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function keysCount(params: ObjectNode): { count: number; known: boolean } {
  const keys = prop(params, 'Keys');
  if (keys?.kind !== 'array') return { count: 1, known: false };
  return { count: keys.items.length, known: keys.complete };
}

function countersOf(op: Operation): string[] {
  const upd = op.kind === 'Update' ? updateOf(op.params) : undefined;
  return upd ? [...new Set(counterActions(op, upd).map((c) => c.key))] : [];
}

function estimateOperation(op: Operation, assumed: number): OperationEstimate {
  const size = sizeOf(op, assumed);
  const base = { kind: op.kind, table: op.table, index: op.index, size, transactional: op.transactional, counters: countersOf(op) };
  switch (op.kind) {
    case 'Put':
    case 'Update':
    case 'Delete':
    case 'ConditionCheck':
    case 'BatchPut':
    case 'BatchDelete':
      return { ...base, unit: 'WCU', items: 1, itemsKnown: true, units: writeUnits(size.bytes, op.transactional) };
    case 'Get':
    case 'BatchGet': {
      const consistency: Consistency = op.transactional ? 'transactional' : literalBool(prop(op.params, 'ConsistentRead')) ? 'strong' : 'eventual';
      const { count, known } = op.kind === 'BatchGet' ? keysCount(op.params) : { count: 1, known: true };
      return { ...base, unit: 'RCU', items: count, itemsKnown: known, consistency, units: readUnits(size.bytes, consistency) * count };
    }
    case 'Query':
    case 'Scan': {
      const consistency: Consistency = literalBool(prop(op.params, 'ConsistentRead')) ? 'strong' : 'eventual';
      const limit = literalCount(prop(op.params, 'Limit'));
      const items = limit ?? ASSUMED_ITEMS_READ;
      const select = prop(op.params, 'Select');
      const countsOrFilters =
        select?.kind === 'string' && select.value === 'COUNT' ? 'count' : prop(op.params, 'FilterExpression') ? 'filter' : undefined;
      return {
        ...base,
        size: { ...size, shownBytes: undefined },
        unit: 'RCU',
        items,
        itemsKnown: limit !== undefined,
        consistency,
        units: readUnits(items * size.bytes, consistency),
        countsOrFilters,
      };
    }
    case 'Unknown':
      // Not estimated (`estimate` leaves such operations out): nothing is known to be read or written.
      return { ...base, unit: 'WCU', items: 0, itemsKnown: false, units: 0 };
  }
}

export function formatBytes(b: number): string {
  if (b < 1024) return `${b} B`;
  const kb = b / 1024;
  return `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB`;
}

function assumptionsOf(ops: OperationEstimate[], assumed: number): string[] {
  const out = new Set<string>();
  for (const o of ops) {
    const shown = o.size.shownBytes ?? 0;
    if (o.size.source === 'assumed' && shown >= assumed) {
      out.add(`${o.kind}: the item is not fully literal; priced on the ${formatBytes(shown)} it shows (a lower bound).`);
    } else if (o.size.source === 'assumed') {
      const why =
        o.kind === 'Update'
          ? 'UpdateItem pays the larger of the item before and after; neither is in the request'
          : o.kind === 'Put' || o.kind === 'BatchPut'
            ? 'the item is not fully literal'
            : o.kind === 'Query' || o.kind === 'Scan'
              ? 'the items read are not in the request'
              : 'the stored item is not in the request';
      out.add(`${o.kind}: item size assumed ${formatBytes(assumed)} (${why}).`);
    }
    if ((o.kind === 'Query' || o.kind === 'Scan') && !o.itemsKnown) {
      out.add(`${o.kind}: the number of items read is unknown; priced per ${ASSUMED_ITEMS_READ} items read.`);
    }
    if (o.kind === 'BatchGet' && !o.itemsKnown) out.add('BatchGet: the number of keys is not literal.');
  }
  return [...out];
}

function adviceOf(ops: OperationEstimate[]): string[] {
  const out: string[] = [];
  const counters = [...new Set(ops.flatMap((o) => o.counters))];
  if (counters.length) {
    out.push(
      `Counter ${counters.map((c) => codeSpan(c)).join(', ')}: a single item is capped by one partition's 1,000 WCU/s; ` +
        'for hot counters shard it over N items (`…#0..N`) and sum on read.',
    );
  }
  for (const o of ops) {
    if (o.countsOrFilters === 'count') {
      out.push(`${o.kind} with \`Select: COUNT\` pays for every item it reads: keep a count on the parent item instead.`);
    } else if (o.countsOrFilters === 'filter') {
      out.push(`${o.kind} with a FilterExpression pays for every item read, including the ones the filter drops.`);
    }
  }
  const tx = ops.filter((o) => o.transactional);
  if (tx.length) {
    const units = tx.reduce((a, o) => a + o.units, 0);
    const unit = tx[0].unit;
    out.push(`A transaction doubles the price of each item it touches (prepare + commit): ${units} ${unit} here, ${units / 2} ${unit} as plain calls.`);
  }
  return out;
}

const WRITES = new Set<OperationKind>(['Put', 'Update', 'Delete', 'BatchPut', 'BatchDelete']);

/**
 * What the workspace's definitions add: index writes per write operation, and the billing mode every table agrees on.
 * Unknown tables add nothing (the estimate stays the request-only one); several candidates add no index writes.
 */
function withTables(ops: Operation[], estimates: OperationEstimate[], tables: TableLookup | undefined, assumed: number) {
  const assumptions: string[] = [];
  const modes: Array<{ mode: BillingMode; defaulted: boolean; label: string } | undefined> = [];
  ops.forEach((op, i) => {
    const facts = tableFacts(tables, op);
    if (!facts) {
      modes.push(undefined);
      return;
    }
    const defs = 'def' in facts ? [facts.def] : facts.several;
    for (const d of defs) {
      const b = billingOf(d);
      modes.push(b && { ...b, label: `${tableName(d)} (${d.location.label})` });
    }
    if (!WRITES.has(op.kind)) return;
    if (!('def' in facts)) {
      if (defs.some((d) => d.indexes.length)) {
        assumptions.push(`${op.kind}: the table may be ${defs.map((d) => tableName(d)).join(' or ')}; index writes are not counted.`);
      }
      return;
    }
    if (!facts.def.indexesKnown) assumptions.push(`${op.kind}: not all indexes of ${tableName(facts.def)} are readable; only the readable ones are counted.`);
    const r = indexWrites(op, facts.def, estimates[i].size.bytes, assumed);
    if (r.writes.length) estimates[i].indexWrites = r.writes;
    for (const x of r.assumptions) assumptions.push(x);
    if (r.writes.length && op.transactional) {
      assumptions.push('Index writes are counted at the standard rate: index propagation is not part of the transaction.');
    }
  });
  let billing: BillingInfo | undefined;
  if (modes.length && modes.every((m) => m && m.mode === modes[0]!.mode)) {
    const ms = modes as Array<{ mode: BillingMode; defaulted: boolean; label: string }>;
    billing = { mode: ms[0].mode, tables: [...new Set(ms.map((m) => m.label))], defaulted: ms.some((m) => m.defaulted) };
  }
  return { assumptions, billing };
}

/**
 * Structured cost estimate of a request: units per call, money, assumptions and advice. With `tables` (the workspace
 * index), writes also pay for the table's secondary indexes and the table's billing mode is known.
 */
export function estimate(site: RequestSite, settings: DynalintSettings, tables?: TableLookup): CostEstimate {
  const assumed = settings.cost.assumedItemSizeBytes;
  // An operation its keys do not tell has no cost to estimate.
  const ops = operationsOf(site).filter((o) => o.kind !== 'Unknown');
  const operations = ops.map((op) => estimateOperation(op, assumed));
  const extra = tables ? withTables(ops, operations, tables, assumed) : { assumptions: [], billing: undefined };
  const indexUnits = (kind: 'global' | 'local') =>
    operations.reduce((a, o) => a + (o.indexWrites ?? []).filter((w) => w.kind === kind).reduce((b, w) => b + w.units, 0), 0);
  const gsiWcu = indexUnits('global');
  const lsiWcu = indexUnits('local');
  const wcu = operations.filter((o) => o.unit === 'WCU').reduce((a, o) => a + o.units, 0) + gsiWcu + lsiWcu;
  const rcu = operations.filter((o) => o.unit === 'RCU').reduce((a, o) => a + o.units, 0);
  const prices = resolvePrices(settings);
  const p = prices.table;
  const perMillion = wcu * p.writeRequestPerMillion + rcu * p.readRequestPerMillion;
  const perHour = wcu * p.wcuHour + rcu * p.rcuHour;
  return {
    api: site.api,
    operations,
    wcu,
    gsiWcu,
    lsiWcu,
    ...(extra.billing ? { billing: extra.billing } : {}),
    rcu,
    prices,
    onDemand: { perCall: perMillion / 1e6, perMillion },
    provisioned: { perHour, perMonth: perHour * HOURS_PER_MONTH },
    assumptions: [...new Set([...assumptionsOf(operations, assumed), ...extra.assumptions])],
    advice: adviceOf(operations),
    estimated: operations.length > 0,
  };
}
