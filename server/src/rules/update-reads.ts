/**
 * What the counter rules (add-on-non-number, decrement-without-floor, set-without-if-not-exists,
 * unguarded-add-in-transaction, non-idempotent-counter) read of an Update action, once per operation object instead of
 * once per rule: its parsed UpdateExpression, ConditionExpression, names map and counter actions. Valid while the
 * operation object is: operations are memoized per site object (`operations`), and a site handed back after an edit
 * has the same contents (its offsets moved in place); nothing here holds an offset (ranges are read from the nodes
 * when a finding is made). Read-only: the rules share these objects.
 */
import type { Operation } from '../extract/operations';
import { CounterAction, ConditionState, Names, UpdateInfo, conditionOf, counterActions, namesOf, updateOf } from './analysis';

export class UpdateReads {
  private cond?: ConditionState;
  private names?: Names;
  private counters?: CounterAction[];

  constructor(
    private readonly op: Operation,
    readonly upd: UpdateInfo,
  ) {}

  /** `conditionOf(op.params)`. */
  condition(): ConditionState {
    return (this.cond ??= conditionOf(this.op.params));
  }

  /** `namesOf(op.params)`. */
  namesMap(): Names {
    return (this.names ??= namesOf(this.op.params));
  }

  /** `counterActions(op, upd)`. */
  counterActions(): readonly CounterAction[] {
    return (this.counters ??= counterActions(this.op, this.upd));
  }
}

const reads = new WeakMap<Operation, UpdateReads | null>();

/** The reads of an operation with a literal UpdateExpression that parses (`updateOf`), else undefined. */
export function updateReads(op: Operation): UpdateReads | undefined {
  let r = reads.get(op);
  if (r === undefined) {
    const upd = updateOf(op.params);
    reads.set(op, (r = upd ? new UpdateReads(op, upd) : null));
  }
  return r ?? undefined;
}
