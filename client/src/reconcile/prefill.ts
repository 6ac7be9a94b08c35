/**
 * What the reconcile command's prompts say and hold before the user types: from the code lens's arguments (table,
 * counter, prefixes, and the key attribute names of the table's definition), else the generic examples. Pure, no
 * `vscode`: the command (index.ts) shows these texts; test/unit/reconcile/prefill.test.ts pins them.
 */
import type { ReconcileLensArgs } from '../../../server/src/reconcile/lens';

export interface Prefill {
  /** The table to put first in the table picker (marked "from the code"). */
  table?: string;
  /** Description of the preferred table in the picker. */
  tableDescription: string;
  /** The sort key as prompts name it: `SK (sort key)`, or `the sort key` when the definition is unknown. */
  sortKeyLabel: string;
  partitionKeyLabel: string;
  parentSkPrompt: string;
  /** The parent's sort key value: the lens's literal, else the example. */
  parentSk: string;
  childPrefixPrompt: string;
  shardPrefixPrompt: string;
  /** Detail lines of the "what is counted?" picker. */
  childrenDetail: string;
  shardsDetail: string;
  partitionKeysPrompt: string;
  partitionPrefixPrompt: string;
}

export function prefill(args: Partial<ReconcileLensArgs> & { shardPrefix?: string } = {}): Prefill {
  const sk = args.sortKey;
  const pk = args.partitionKey;
  // Attribute names are case-sensitive: prompts never capitalise them.
  const sortKeyLabel = sk ? `${sk} (sort key)` : 'the sort key';
  const partitionKeyLabel = pk ? `${pk} (partition key)` : 'the partition key';
  const skName = sk ?? 'SK';
  const from = args.definedAt ? `, defined at ${args.definedAt}` : '';
  return {
    ...(args.table ? { table: args.table } : {}),
    tableDescription: `from the code${from}`,
    sortKeyLabel,
    partitionKeyLabel,
    parentSkPrompt: `Value of ${sortKeyLabel} of the parent item${args.counter ? ` holding ${args.counter}` : ''}`,
    parentSk: args.parentSk ?? 'META',
    childPrefixPrompt: `Prefix of ${sortKeyLabel} of the children`,
    shardPrefixPrompt: `Prefix of ${sortKeyLabel} of the shards`,
    childrenDetail: `e.g. likeTally on ${skName} = META vs the number of ${skName} = LIKE#… items`,
    shardsDetail: `e.g. play_count on ${skName} = STATS#TOTAL vs the sum over ${skName} = STATS#TOTAL#0..N`,
    partitionKeysPrompt: `Values of ${partitionKeyLabel}, separated by commas`,
    partitionPrefixPrompt: `Prefix of ${partitionKeyLabel}`,
  };
}

