/** The rules written in this folder (everything but the expression-language findings), sorted by id. */
import { addOnNonNumber } from './add-on-non-number';
import { batchWriteUpdateOrCondition } from './batch-write-update-or-condition';
import { countChildrenOnRead } from './count-children-on-read';
import { decrementWithoutFloor } from './decrement-without-floor';
import { nonIdempotentCounter } from './non-idempotent-counter';
import { separateChildAndCounterWrites } from './separate-child-and-counter-writes';
import { setWithoutIfNotExists } from './set-without-if-not-exists';
import { transactionDuplicateItem } from './transaction-duplicate-item';
import { transactionTooManyActions } from './transaction-too-many-actions';
import type { Rule } from './types';
import { tableRules } from './table';
import { unguardedAddInTransaction } from './unguarded-add-in-transaction';
import { unusedSuppression } from './unused-suppression';

export const byRuleId = (a: Rule, b: Rule): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const coreRules: Rule[] = [
  addOnNonNumber,
  batchWriteUpdateOrCondition,
  countChildrenOnRead,
  decrementWithoutFloor,
  nonIdempotentCounter,
  separateChildAndCounterWrites,
  setWithoutIfNotExists,
  transactionDuplicateItem,
  transactionTooManyActions,
  unguardedAddInTransaction,
  unusedSuppression,
  ...tableRules,
].sort(byRuleId);
