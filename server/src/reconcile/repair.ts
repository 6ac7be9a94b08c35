/**
 * The only write the tool ever makes, and only for parents the user chose:
 *   1. read the parent's counter with a consistent read (the value `seen`),
 *   2. re-count its children (or re-sum its shards) with consistent reads,
 *   3. `SET counter = :actual` IF the counter still holds `seen` (or is still missing) AND the parent exists.
 * Reading the parent before counting matters: a like that lands between the two changes the counter, so the write's
 * condition fails and the parent is re-read (up to `attempts` times) and then skipped — never overwritten.
 *
 * Under faults: a write whose answer is lost (reset, timeout, 5xx) is never retried blindly — the parent is re-read
 * (consistent) and reported as `possibly-written` with what the re-read found. A failure part-way (access denied on
 * the second parent) ends the run with the results so far, that parent `failed`, the rest `not-attempted`.
 */
import { AttributeValue, DynamoDBClient, UpdateItemCommand, UpdateItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { Cancelled, KeySchema, Meter, counterValue, describeKeys, isAbort, plainKey, toReconcileError, typedKey, writeFate } from './client';
import { Plan, emptyTally, planOf, readParent, readTruthAndShards } from './engine';
import { keyLabel } from './format';
import { CounterPattern, ReconcileError, RepairOutcome, RepairReport, RepairResult } from './types';

export interface RepairOptions {
  table: string;
  pattern: CounterPattern;
  /** Partition key values of the parents to repair (as in `DriftRow.key[pk]`). */
  parents: Array<string | number>;
  /**
   * Counts found in a table export, one per parent (same order): each parent is then written once, neither re-read
   * nor re-counted, `SET c = :actual` IF the parent exists AND the counter still holds `seen` (the exported value;
   * undefined: still missing). A parent changed since the export is skipped (`changed`, `since: 'export'`), never
   * overwritten; a parent gone since is `no-parent`.
   */
  expected?: Array<{ seen: AttributeValue | undefined; actual: number }>;
  /** Read-count-write rounds per parent before it is skipped as changing (default 3). */
  attempts?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export async function repair(client: DynamoDBClient, opts: RepairOptions): Promise<RepairReport> {
  const started = Date.now();
  const plan = planOf(opts.pattern);
  if (plan.stored !== 'parent') {
    throw new ReconcileError(
      'Repair writes one parent counter; a sharded stored count (no parent sort key) is reported, not repaired.',
      'unsupported',
    );
  }
  // Before the first write a failure has nothing to report but itself: it is thrown. After it, never: the results so
  // far are the report (written, skipped, failed, not attempted).
  const keys = await describeKeys(client, opts.table, opts.signal);
  const pks = opts.parents.map((p) => typedKey(String(p), keys.pkType));
  if (opts.expected && opts.expected.length !== pks.length) throw new ReconcileError('One expected count per parent.', 'bad-options');
  const meter = new Meter(client, opts.table, { signal: opts.signal });
  const attempts = opts.attempts ?? 3;
  const results: RepairResult[] = [];
  let written = 0;
  let partial: RepairReport['partial'];
  const stop = (reason: string) => {
    for (const pk of pks.slice(results.length)) {
      results.push({ key: plainKey(keys, pk, plan.pattern.parentSk), outcome: { status: 'not-attempted', reason } });
    }
  };
  for (const [i, pk] of pks.entries()) {
    const key = plainKey(keys, pk, plan.pattern.parentSk);
    let outcome: RepairOutcome;
    try {
      if (opts.signal?.aborted) throw new Cancelled();
      const expected = opts.expected?.[i];
      outcome = expected ? await writeExpected(meter, keys, plan, pk, expected) : await repairOne(meter, keys, plan, pk, attempts);
    } catch (e) {
      if (e instanceof Cancelled || isAbort(e)) {
        partial = { reason: 'cancelled', message: 'Cancelled: the remaining parents were not written.' };
        stop('cancelled');
        break;
      }
      const error = toReconcileError(e, opts.table).message;
      results.push({ key, outcome: { status: 'failed', error } });
      partial = { reason: 'error', message: `Stopped at ${keyLabel(key)}: ${error}` };
      stop(`stopped after the error at ${keyLabel(key)}`);
      break;
    }
    results.push({ key, outcome });
    if (outcome.status === 'repaired' || (outcome.status === 'possibly-written' && outcome.found === 'written')) written++;
    if (outcome.status === 'possibly-written' && outcome.found === 'unknown') {
      // Neither the write's answer nor a re-read came back: the endpoint is gone; writing on would add unknowns.
      partial = { reason: 'error', message: `Stopped at ${keyLabel(key)}: ${outcome.error}` };
      stop(`stopped after the error at ${keyLabel(key)}`);
      break;
    }
    opts.onProgress?.(results.length, pks.length);
  }
  return {
    results,
    written,
    consumedRcu: Math.round(meter.rcu * 100) / 100,
    consumedWcu: Math.round(meter.wcu * 100) / 100,
    elapsedMs: Date.now() - started,
    ...(partial ? { partial } : {}),
  };
}

/** Read, count, conditionally write one parent; up to `attempts` rounds while its counter keeps changing. */
async function repairOne(meter: Meter, keys: KeySchema, plan: Plan, pk: AttributeValue, attempts: number): Promise<RepairOutcome> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const t = emptyTally(pk);
    await readParent(meter, keys, plan, t, true);
    if (!t.parent) return { status: 'no-parent' };
    await readTruthAndShards(meter, keys, plan, t, true);
    const actual = plan.truth === 'children' ? t.children : t.shardSum;
    const seen = counterValue(t.parentCounter);
    if (seen.value === actual && !seen.note) return { status: 'already-correct', value: actual };
    // A counter holding a string or anything else is reported, never overwritten: what wrote it needs a person.
    if (seen.note) return { status: 'not-attempted', reason: seen.note };
    if (plan.truth === 'shards' && t.badShards) return { status: 'not-attempted', reason: `${t.badShards} shard(s) hold a non-number counter` };
    const w = await conditionalSet(meter, keys.pk, keys.sk, pk, plan.pattern, t.parentCounter, actual);
    if (w === 'written') return { status: 'repaired', from: seen.value, to: actual };
    if (w !== 'condition-failed' && 'error' in w) return verify(meter, keys, plan, pk, seen.value, actual, w.error);
  }
  return { status: 'changed', attempts };
}

/**
 * One write of a count found elsewhere (an export), conditioned on the value found there. On a condition failure
 * DynamoDB returns the item as it is (ReturnValuesOnConditionCheckFailure), which tells a changed counter from a
 * parent gone, without another read.
 */
async function writeExpected(meter: Meter, keys: KeySchema, plan: Plan, pk: AttributeValue, e: { seen: AttributeValue | undefined; actual: number }): Promise<RepairOutcome> {
  const from = counterValue(e.seen);
  if (from.note) return { status: 'not-attempted', reason: from.note };
  if (from.value === e.actual) return { status: 'already-correct', value: e.actual };
  const w = await conditionalSet(meter, keys.pk, keys.sk, pk, plan.pattern, e.seen, e.actual, true);
  if (w === 'written') return { status: 'repaired', from: from.value, to: e.actual };
  if (w === 'condition-failed') return { status: 'changed', attempts: 1, since: 'export' };
  if ('item' in w) {
    if (!w.item) return { status: 'no-parent' };
    return { status: 'changed', attempts: 1, since: 'export', now: counterValue(w.item[plan.pattern.counter]).value };
  }
  return verify(meter, keys, plan, pk, from.value, e.actual, w.error);
}

/**
 * A write whose answer was lost may or may not have happened: a consistent re-read of the counter says which.
 * Holding the value written counts as written (someone else writing that very value meanwhile cannot be told apart,
 * and leaves the same, correct, count).
 */
async function verify(meter: Meter, keys: KeySchema, plan: Plan, pk: AttributeValue, from: number | null, to: number, error: string): Promise<RepairOutcome> {
  const base = { status: 'possibly-written' as const, from, to, error };
  const t = emptyTally(pk);
  try {
    await readParent(meter, keys, plan, t, true);
  } catch (e) {
    if (e instanceof Cancelled) throw e;
    return { ...base, found: 'unknown', error: `${error}; the re-read failed too: ${toReconcileError(e, meter.table).message}` };
  }
  const now = t.parent ? counterValue(t.parentCounter) : undefined;
  if (now && !now.note && now.value === to) return { ...base, found: 'written', now: to };
  if (now && !now.note && now.value === from) return { ...base, found: 'not-written', now: from };
  return { ...base, found: 'changed', now: now?.value ?? null };
}

/**
 * `SET #c = :actual` IF the parent exists and the counter still holds what was read. `written` when answered,
 * `condition-failed` when refused by the condition (and no earlier attempt could have written), otherwise the
 * outcome is unknown (the answer was lost) with the error that says why. Errors that prove nothing was written
 * (access denied, a 4xx, a refused connection) are thrown.
 */
async function conditionalSet(
  meter: Meter,
  pkName: string,
  skName: string,
  pk: AttributeValue,
  pattern: CounterPattern,
  seen: AttributeValue | undefined,
  actual: number,
  returnOld = false,
): Promise<'written' | 'condition-failed' | { item: Record<string, AttributeValue> | undefined } | { error: string }> {
  const condition = seen === undefined ? 'attribute_exists(#pk) AND attribute_not_exists(#c)' : 'attribute_exists(#pk) AND #c = :seen';
  try {
    await meter.send<UpdateItemCommandOutput>(
      new UpdateItemCommand({
        TableName: meter.table,
        Key: { [pkName]: pk, [skName]: { S: pattern.parentSk! } },
        UpdateExpression: 'SET #c = :actual',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#pk': pkName, '#c': pattern.counter },
        ExpressionAttributeValues: { ':actual': { N: String(actual) }, ...(seen === undefined ? {} : { ':seen': seen }) },
        ReturnConsumedCapacity: 'TOTAL',
        ...(returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
      }),
      'write',
    );
    return 'written';
  } catch (e) {
    if (e instanceof Cancelled) throw e;
    const fate = writeFate(e);
    if (fate === 'condition-failed') return returnOld ? { item: (e as { Item?: Record<string, AttributeValue> }).Item } : fate;
    if (fate === 'unknown') return { error: toReconcileError(e, meter.table).message };
    throw e;
  }
}
