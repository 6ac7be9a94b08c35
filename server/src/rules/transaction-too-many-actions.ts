import { RequestSite, propEntry } from '../extract/model';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'transaction-too-many-actions';
export const MAX_TRANSACTION_ACTIONS = 100;

function checkSite(site: RequestSite): Omit<Finding, 'severity'>[] {
  if (site.api !== 'TransactWriteItems' && site.api !== 'TransactGetItems') return [];
  const e = propEntry(site.params, 'TransactItems');
  // Representative elements of `.map` / comprehensions stand for zero or more actions: only real entries count.
  const known = e?.value.kind === 'array' ? e.value.items.length - (e.value.samples ?? 0) : 0;
  if (e?.value.kind !== 'array' || known <= MAX_TRANSACTION_ACTIONS) return [];
  return [
    {
      ruleId: id,
      message: `${site.api} takes at most ${MAX_TRANSACTION_ACTIONS} actions; this one has ${e.value.complete ? '' : 'at least '}${known}: DynamoDB rejects it. Split the work, or keep a count instead of touching every child.`,
      // A bare `--transact-items` file has no key to point at (its synthesized key spans the whole array): the 101st action.
      range: e.keyRange.start === e.value.range.start ? e.value.items[MAX_TRANSACTION_ACTIONS].range : e.keyRange,
    },
  ];
}

export const transactionTooManyActions: Rule = {
  id,
  meta: {
    description: 'A transaction with more than 100 actions, which DynamoDB rejects.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'error',
    fixable: false,
    category: 'transactions',
  },
  check: ({ sites }) => sites.flatMap(checkSite),
  site: (_ctx, s) => checkSite(s),
};
