/**
 * The read side: find stored counts that no longer match their truth (children counted, or shards summed).
 *
 * Reads each needed item once: per partition one GetItem for the parent and one paginated Query per sort-key prefix
 * (keys and prefix scope), or one parallel Scan over the table (table scope). Counting children uses `Select: COUNT`
 * (the same RCU as fetching them — DynamoDB bills every item read — but nothing travels back). Never writes.
 */
import {
  AttributeValue,
  DynamoDBClient,
  GetItemCommand,
  GetItemCommandOutput,
  QueryCommand,
  QueryCommandOutput,
  ScanCommand,
  ScanCommandInput,
  ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import {
  BudgetReached,
  Cancelled,
  KeySchema,
  Meter,
  counterValue,
  describeKeys,
  keyText,
  plainKey,
  toReconcileError,
  typedKey,
} from './client';
import { CounterPattern, DriftRow, PlainKey, ReconcileError, ReconcileOptions, ReconcileReport, TotalRow } from './types';

/** What one partition holds, as far as the pattern is concerned. */
export interface PartitionTally {
  pk: AttributeValue;
  /** The parent item was read (and exists). */
  parent: boolean;
  /** The parent's counter as stored (undefined when missing). */
  parentCounter?: AttributeValue;
  children: number;
  shards: number;
  shardSum: number;
  /** Shards whose counter is not a number. */
  badShards: number;
}

export type ItemRole = 'parent' | 'child' | 'shard' | undefined;

export interface Plan {
  pattern: CounterPattern;
  stored: 'parent' | 'shards';
  truth: 'children' | 'shards' | 'none';
  shardCounter: string;
}

/** Validate a pattern and decide what is stored where. */
export function planOf(pattern: CounterPattern): Plan {
  const { parentSk, childPrefix, shardPrefix, counter } = pattern;
  if (!counter) throw new ReconcileError('The counter attribute is required (e.g. likeTally).', 'bad-options');
  for (const [name, v] of [['child prefix', childPrefix], ['shard prefix', shardPrefix], ['parent sort key', parentSk]] as const) {
    if (v !== undefined && v === '') throw new ReconcileError(`The ${name} must not be empty.`, 'bad-options');
  }
  const shardCounter = pattern.shardCounter ?? counter;
  if (parentSk !== undefined) {
    if (childPrefix !== undefined && shardPrefix !== undefined) {
      throw new ReconcileError('Give a child prefix or a shard prefix with a parent sort key, not both.', 'bad-options');
    }
    if (childPrefix !== undefined) return { pattern, stored: 'parent', truth: 'children', shardCounter };
    if (shardPrefix !== undefined) return { pattern, stored: 'parent', truth: 'shards', shardCounter };
    throw new ReconcileError('With a parent sort key, give the child prefix (e.g. LIKE#) or the shard prefix to compare with.', 'bad-options');
  }
  if (shardPrefix === undefined) throw new ReconcileError('Give the parent sort key (e.g. META) or a shard prefix (e.g. STATS#TOTAL#).', 'bad-options');
  return { pattern, stored: 'shards', truth: childPrefix !== undefined ? 'children' : 'none', shardCounter };
}

/** Which role a sort key plays. The longest matching prefix wins; the parent's exact value wins over both. */
export function roleOf(sk: string, p: CounterPattern): ItemRole {
  if (p.parentSk !== undefined && sk === p.parentSk) return 'parent';
  const child = p.childPrefix !== undefined && sk.startsWith(p.childPrefix);
  const shard = p.shardPrefix !== undefined && sk.startsWith(p.shardPrefix);
  if (child && shard) return p.shardPrefix!.length >= p.childPrefix!.length ? 'shard' : 'child';
  return child ? 'child' : shard ? 'shard' : undefined;
}

export function emptyTally(pk: AttributeValue): PartitionTally {
  return { pk, parent: false, children: 0, shards: 0, shardSum: 0, badShards: 0 };
}

function addItem(t: PartitionTally, item: Record<string, AttributeValue>, keys: KeySchema, plan: Plan): void {
  const sk = item[keys.sk]?.S;
  if (sk === undefined) return;
  switch (roleOf(sk, plan.pattern)) {
    case 'parent':
      t.parent = true;
      t.parentCounter = item[plan.pattern.counter];
      break;
    case 'child':
      t.children++;
      break;
    case 'shard': {
      t.shards++;
      const v = item[plan.shardCounter];
      if (v === undefined) break;
      if (v.N !== undefined) t.shardSum += Number(v.N);
      else t.badShards++;
      break;
    }
  }
}

/** Attribute-name placeholders shared by every request. */
function names(keys: KeySchema, plan: Plan): Record<string, string> {
  return { '#pk': keys.pk, '#sk': keys.sk, '#c': plan.pattern.counter, '#sc': plan.shardCounter };
}

function used(expr: string, all: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(all).filter(([k]) => new RegExp(k + '\\b').test(expr)));
}

/** Read the parent item of one partition (one GetItem). */
export async function readParent(meter: Meter, keys: KeySchema, plan: Plan, t: PartitionTally, consistent: boolean): Promise<void> {
  const projection = '#pk, #c';
  const out = await meter.send<GetItemCommandOutput>(
    new GetItemCommand({
      TableName: meter.table,
      Key: { [keys.pk]: t.pk, [keys.sk]: { S: plan.pattern.parentSk! } },
      ProjectionExpression: projection,
      ExpressionAttributeNames: used(projection, names(keys, plan)),
      ConsistentRead: consistent,
      ReturnConsumedCapacity: 'TOTAL',
    }),
    'read',
  );
  if (out.Item) {
    meter.itemsRead++;
    t.parent = true;
    t.parentCounter = out.Item[plan.pattern.counter];
  }
}

/** Count the children / sum the shards of one partition: one paginated Query per prefix. */
export async function readTruthAndShards(meter: Meter, keys: KeySchema, plan: Plan, t: PartitionTally, consistent: boolean): Promise<void> {
  const p = plan.pattern;
  const prefixes: Array<[string, 'child' | 'shard']> = [];
  if (p.childPrefix !== undefined) prefixes.push([p.childPrefix, 'child']);
  if (p.shardPrefix !== undefined) prefixes.push([p.shardPrefix, 'shard']);
  for (const [prefix, role] of prefixes) {
    // Items under this prefix that play another role (the parent, or the other prefix's items) must not be counted:
    // then fetch the sort keys and classify them; otherwise COUNT them server-side.
    const overlaps =
      (p.parentSk !== undefined && p.parentSk.startsWith(prefix)) ||
      prefixes.some(([other]) => other !== prefix && other.startsWith(prefix));
    const projection = role === 'shard' ? '#sk, #sc' : overlaps ? '#sk' : undefined;
    const kce = '#pk = :pk AND begins_with(#sk, :prefix)';
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out: QueryCommandOutput = await meter.send<QueryCommandOutput>(
        new QueryCommand({
          TableName: meter.table,
          KeyConditionExpression: kce,
          ExpressionAttributeNames: used(kce + ' ' + (projection ?? ''), names(keys, plan)),
          ExpressionAttributeValues: { ':pk': t.pk, ':prefix': { S: prefix } },
          ...(projection ? { ProjectionExpression: projection } : { Select: 'COUNT' }),
          ConsistentRead: consistent,
          ExclusiveStartKey: start,
          ReturnConsumedCapacity: 'TOTAL',
        }),
        'read',
      );
      meter.itemsRead += out.ScannedCount ?? 0;
      if (projection) {
        for (const item of out.Items ?? []) if (roleOf(item[keys.sk]?.S ?? '', p) === role) addItem(t, item, keys, plan);
      } else {
        t.children += out.Count ?? 0;
      }
      start = out.LastEvaluatedKey;
    } while (start);
  }
}

/** Run `fn` over `items` with at most `n` in flight; the first failure stops new starts and is rethrown. */
export async function pool<T>(items: T[], n: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { e: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        await fn(items[i], i);
      } catch (e) {
        failure ??= { e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  if (failure) throw failure.e;
}

/** Reconcile: read, compare, report. Never writes. */
export async function reconcile(client: DynamoDBClient, opts: ReconcileOptions): Promise<ReconcileReport> {
  const started = Date.now();
  const plan = planOf(opts.pattern);
  validateScope(opts);
  const keys = await describeKeys(client, opts.table, opts.signal);
  const meter = new Meter(client, opts.table, { signal: opts.signal, maxRcu: opts.maxRcu });
  const consistent = opts.consistent ?? false;
  const done: PartitionTally[] = [];
  let total: number | undefined;
  const progress = () =>
    opts.onProgress?.({ itemsRead: meter.itemsRead, consumedRcu: meter.rcu, partitionsDone: done.length, partitionsTotal: total });

  let partial: ReconcileReport['partial'];
  try {
    if (opts.scope.kind === 'table') {
      await scanTable(meter, keys, plan, consistent, opts.scope.segments, done, progress);
    } else {
      const pks =
        opts.scope.kind === 'keys'
          ? dedupe(opts.scope.keys.map((k) => typedKey(k, keys.pkType)))
          : await discover(meter, keys, plan, consistent, opts.scope.prefix, opts.scope.limit);
      total = pks.length;
      progress();
      await pool(pks, opts.concurrency ?? 16, async (pk) => {
        const t = emptyTally(pk);
        if (plan.pattern.parentSk !== undefined) await readParent(meter, keys, plan, t, consistent);
        await readTruthAndShards(meter, keys, plan, t, consistent);
        done.push(t);
        progress();
      });
    }
  } catch (e) {
    if (e instanceof Cancelled) partial = { reason: 'cancelled', message: 'Cancelled: only the partitions finished before the stop are reported.' };
    else if (e instanceof BudgetReached) {
      // Reads already in flight when the budget was reached still count: report what was consumed in the end.
      const consumed = new BudgetReached(round(meter.rcu), e.budget).message;
      partial = { reason: 'budget', message: `${consumed}: only the partitions finished before the stop are reported.` };
    } else throw toReconcileError(e, opts.table);
  }
  return {
    ...compare(done, keys, plan, opts.scope.kind === 'keys'),
    table: opts.table,
    pattern: opts.pattern,
    scope: opts.scope,
    consistent,
    itemsRead: meter.itemsRead,
    consumedRcu: round(meter.rcu),
    requests: meter.requests,
    retries: meter.retries,
    elapsedMs: Date.now() - started,
    ...(partial ? { partial } : {}),
  };
}

function validateScope(opts: ReconcileOptions): void {
  const s = opts.scope;
  if (s.kind === 'keys' && s.keys.length === 0) throw new ReconcileError('Give at least one parent key.', 'bad-options');
  if (s.kind === 'prefix' && (!s.prefix || !(s.limit > 0))) throw new ReconcileError('A partition-key prefix needs a positive limit.', 'bad-options');
  if (s.kind === 'table' && !(Number.isInteger(s.segments) && s.segments >= 1 && s.segments <= 1_000_000)) {
    throw new ReconcileError('Segments must be an integer from 1 to 1000000.', 'bad-options');
  }
  if (opts.maxRcu !== undefined && !(opts.maxRcu > 0)) throw new ReconcileError('The RCU budget must be positive.', 'bad-options');
}

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function dedupe(pks: AttributeValue[]): AttributeValue[] {
  const seen = new Set<string>();
  return pks.filter((pk) => !seen.has(keyText(pk)) && !!seen.add(keyText(pk)));
}

/**
 * Pages through a Scan (capacity metered, items read counted), handing each page's items to `onPage` until it
 * returns false or the scan ends.
 */
async function scanPages(
  meter: Meter,
  input: Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey' | 'ReturnConsumedCapacity'>,
  onPage: (items: Record<string, AttributeValue>[]) => boolean | void,
): Promise<void> {
  let start: Record<string, AttributeValue> | undefined;
  do {
    const out: ScanCommandOutput = await meter.send<ScanCommandOutput>(
      new ScanCommand({ ...input, TableName: meter.table, ExclusiveStartKey: start, ReturnConsumedCapacity: 'TOTAL' }),
      'read',
    );
    meter.itemsRead += out.ScannedCount ?? 0;
    if (onPage(out.Items ?? []) === false) return;
    start = out.LastEvaluatedKey;
  } while (start);
}

/**
 * Find up to `limit` partitions under a key prefix: a Scan returning keys only, stopped at the limit. It keeps the
 * same items as a whole-table run (parents, children, shards), so a partition with children and no parent is found
 * (and reported as such) here too. The filter saves transfer, not RCU.
 */
async function discover(meter: Meter, keys: KeySchema, plan: Plan, consistent: boolean, prefix: string, limit: number): Promise<AttributeValue[]> {
  const items = patternFilter(plan);
  const filter = `begins_with(#pk, :p) AND (${items.filter})`;
  const found = new Map<string, AttributeValue>();
  await scanPages(
    meter,
    {
      FilterExpression: filter,
      ProjectionExpression: '#pk',
      ExpressionAttributeNames: used(filter + ' #pk', names(keys, plan)),
      ExpressionAttributeValues: { ...items.values, ':p': typedPrefix(prefix, keys) },
      ConsistentRead: consistent,
    },
    (page) => {
      for (const item of page) {
        const pk = item[keys.pk];
        if (pk && found.size < limit) found.set(keyText(pk), pk);
      }
      return found.size < limit;
    },
  );
  return [...found.values()];
}

/** A filter keeping the items the pattern reads: the parent, the children and the shards. */
function patternFilter(plan: Plan): { filter: string; values: Record<string, AttributeValue> } {
  const p = plan.pattern;
  const parts: string[] = [];
  const values: Record<string, AttributeValue> = {};
  if (p.parentSk !== undefined) {
    parts.push('#sk = :parent');
    values[':parent'] = { S: p.parentSk };
  }
  if (p.childPrefix !== undefined) {
    parts.push('begins_with(#sk, :child)');
    values[':child'] = { S: p.childPrefix };
  }
  if (p.shardPrefix !== undefined) {
    parts.push('begins_with(#sk, :shard)');
    values[':shard'] = { S: p.shardPrefix };
  }
  return { filter: parts.join(' OR '), values };
}

function typedPrefix(prefix: string, keys: KeySchema): AttributeValue {
  if (keys.pkType !== 'S') throw new ReconcileError(`A key prefix needs a string partition key; "${keys.pk}" is ${keys.pkType}.`, 'unsupported');
  return { S: prefix };
}

/**
 * Whole table: a parallel Scan filtered to the pattern's items (the filter saves transfer, not RCU). A segment returns
 * an item collection contiguously, so a partition is complete once its segment moves past it or ends: a run stopped
 * early reports those partitions only.
 */
async function scanTable(
  meter: Meter,
  keys: KeySchema,
  plan: Plan,
  consistent: boolean,
  segments: number,
  done: PartitionTally[],
  progress: () => void,
): Promise<void> {
  const p = plan.pattern;
  const { filter, values } = patternFilter(plan);
  const projection = ['#pk', '#sk', ...(p.parentSk !== undefined ? ['#c'] : []), ...(p.shardPrefix !== undefined ? ['#sc'] : [])];
  const projectionText = [...new Set(projection.map((x) => (x === '#sc' && plan.shardCounter === p.counter ? '#c' : x)))].join(', ');
  const segment = async (seg: number) => {
    let current: PartitionTally | undefined;
    await scanPages(
      meter,
      {
        Segment: segments > 1 ? seg : undefined,
        TotalSegments: segments > 1 ? segments : undefined,
        FilterExpression: filter,
        ProjectionExpression: projectionText,
        ExpressionAttributeNames: used(filter + ' ' + projectionText, names(keys, plan)),
        ExpressionAttributeValues: values,
        ConsistentRead: consistent,
      },
      (items) => {
        for (const item of items) {
          const pk = item[keys.pk];
          if (!pk) continue;
          if (!current || keyText(current.pk) !== keyText(pk)) {
            if (current) done.push(current);
            current = emptyTally(pk);
          }
          addItem(current, item, keys, plan);
        }
        progress();
      },
    );
    if (current) done.push(current);
    progress();
  };
  await pool(
    Array.from({ length: segments }, (_, i) => i),
    Math.min(segments, 32),
    segment,
  );
}

/** Compare each finished partition's stored count with its truth. */
export function compare(
  tallies: PartitionTally[],
  keys: KeySchema,
  plan: Plan,
  explicit: boolean,
): Pick<ReconcileReport, 'drifted' | 'checked' | 'orphans' | 'totals'> {
  // A table scope may meet one partition in pieces only if segments overlap (they do not); merge defensively.
  const merged = new Map<string, PartitionTally>();
  for (const t of tallies) {
    const k = keyText(t.pk);
    const m = merged.get(k);
    if (!m) merged.set(k, { ...t });
    else {
      m.parent ||= t.parent;
      m.parentCounter ??= t.parentCounter;
      m.children += t.children;
      m.shards += t.shards;
      m.shardSum += t.shardSum;
      m.badShards += t.badShards;
    }
  }
  const drifted: DriftRow[] = [];
  const orphans: Array<{ key: PlainKey; actual: number }> = [];
  const totals: TotalRow[] = [];
  let checked = 0;
  for (const t of merged.values()) {
    const shardNote = t.badShards ? `${t.badShards} shard(s) hold a non-number counter, not summed` : undefined;
    if (plan.truth === 'none') {
      totals.push({ key: plainKey(keys, t.pk), total: t.shardSum, shards: t.shards, ...(shardNote ? { note: shardNote } : {}) });
      continue;
    }
    const actual = plan.truth === 'children' ? t.children : t.shardSum;
    let stored: number | null;
    let note: string | undefined;
    let key: PlainKey;
    if (plan.stored === 'parent') {
      if (!t.parent) {
        if (explicit || actual > 0 || t.shards > 0) orphans.push({ key: plainKey(keys, t.pk), actual });
        continue;
      }
      ({ value: stored, note } = counterValue(t.parentCounter));
      key = plainKey(keys, t.pk, plan.pattern.parentSk);
      if (plan.truth === 'shards') note ??= shardNote;
    } else {
      if (t.shards === 0 && t.children === 0) continue;
      stored = t.shards === 0 ? null : t.shardSum;
      note = shardNote;
      key = plainKey(keys, t.pk);
    }
    checked++;
    const drift = actual - (stored ?? 0);
    if (drift !== 0 || note) drifted.push({ key, stored, actual, drift, ...(note ? { note } : {}) });
  }
  // Code-unit order, not localeCompare: the report's order must not depend on the machine's ICU data or locale.
  const byKey = (a: { key: PlainKey }, b: { key: PlainKey }) => {
    const x = JSON.stringify(a.key);
    const y = JSON.stringify(b.key);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  drifted.sort((a, b) => Math.abs(b.drift) - Math.abs(a.drift) || byKey(a, b));
  orphans.sort(byKey);
  totals.sort(byKey);
  return { drifted, checked, orphans, ...(plan.truth === 'none' ? { totals } : {}) };
}
