/**
 * The only write the tool ever makes, and only for parents the user chose:
 *   1. read the parent's counter with a consistent read (the value `seen`),
 *   2. re-count its children (or re-sum its shards) with consistent reads,
 *   3. `SET counter = :actual` IF the counter still holds `seen` (or is still missing) AND the parent exists.
 * Reading the parent before counting matters: a like that lands between the two changes the counter, so the write's
 * condition fails and the parent is re-read (up to `attempts` times) and then skipped — never overwritten.
 */
import { AttributeValue, DynamoDBClient, UpdateItemCommand, UpdateItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { Cancelled, Meter, counterValue, describeKeys, plainKey, toReconcileError, typedKey } from './client';
import { emptyTally, planOf, readParent, readTruthAndShards } from './engine';
import { CounterPattern, ReconcileError, RepairReport, RepairResult } from './types';

export interface RepairOptions {
  table: string;
  pattern: CounterPattern;
  /** Partition key values of the parents to repair (as in `DriftRow.key[pk]`). */
  parents: Array<string | number>;
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
  const keys = await describeKeys(client, opts.table, opts.signal);
  const meter = new Meter(client, opts.table, { signal: opts.signal });
  const attempts = opts.attempts ?? 3;
  const results: RepairResult[] = [];
  let written = 0;
  let partial: RepairReport['partial'];
  const pks = opts.parents.map((p) => typedKey(String(p), keys.pkType));
  try {
    for (const pk of pks) {
      const key = plainKey(keys, pk, plan.pattern.parentSk);
      if (opts.signal?.aborted) throw new Cancelled();
      let outcome: RepairResult['outcome'] | undefined;
      for (let attempt = 1; attempt <= attempts && !outcome; attempt++) {
        const t = emptyTally(pk);
        await readParent(meter, keys, plan, t, true);
        if (!t.parent) {
          outcome = { status: 'no-parent' };
          break;
        }
        await readTruthAndShards(meter, keys, plan, t, true);
        const actual = plan.truth === 'children' ? t.children : t.shardSum;
        const seen = counterValue(t.parentCounter);
        if (seen.value === actual && !seen.note) {
          outcome = { status: 'already-correct', value: actual };
          break;
        }
        // A counter holding a string or anything else is reported, never overwritten: what wrote it needs a person.
        if (seen.note) {
          outcome = { status: 'not-attempted', reason: seen.note };
          break;
        }
        if (plan.truth === 'shards' && t.badShards) {
          outcome = { status: 'not-attempted', reason: `${t.badShards} shard(s) hold a non-number counter` };
          break;
        }
        if (await conditionalSet(meter, keys.pk, keys.sk, pk, plan.pattern, t.parentCounter, actual)) {
          written++;
          outcome = { status: 'repaired', from: seen.value, to: actual };
        } else if (attempt === attempts) {
          outcome = { status: 'changed', attempts };
        }
      }
      results.push({ key, outcome: outcome ?? { status: 'changed', attempts } });
      opts.onProgress?.(results.length, pks.length);
    }
  } catch (e) {
    if (!(e instanceof Cancelled)) throw toReconcileError(e, opts.table);
    partial = { reason: 'cancelled', message: 'Cancelled: the remaining parents were not written.' };
    for (const pk of pks.slice(results.length)) {
      results.push({ key: plainKey(keys, pk, plan.pattern.parentSk), outcome: { status: 'not-attempted', reason: 'cancelled' } });
    }
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

/** `SET #c = :actual` IF the parent exists and the counter still holds what was read. false when the condition failed. */
async function conditionalSet(
  meter: Meter,
  pkName: string,
  skName: string,
  pk: AttributeValue,
  pattern: CounterPattern,
  seen: AttributeValue | undefined,
  actual: number,
): Promise<boolean> {
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
      }),
      'write',
    );
    return true;
  } catch (e) {
    if ((e as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw e;
  }
}
