import type { RequestSite } from '../extract/model';

import { counterActions, updateOf, operations } from './analysis';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'separate-child-and-counter-writes';

const scopeOf = (s: RequestSite) => (s.enclosingFunction ? `${s.enclosingFunction.range.start}:${s.enclosingFunction.range.end}` : undefined);

function isCounterUpdate(site: RequestSite): boolean {
  if (site.api !== 'UpdateItem') return false;
  const op = operations(site)[0];
  const upd = updateOf(op.params);
  return !!upd && counterActions(op, upd).length > 0;
}

function check(sites: RequestSite[]): Omit<Finding, 'severity'>[] {
  const out: Omit<Finding, 'severity'>[] = [];
  for (const counter of sites.filter(isCounterUpdate)) {
    const scope = scopeOf(counter);
    if (!scope) continue;
    const children = sites.filter((s) => (s.api === 'PutItem' || s.api === 'DeleteItem') && scopeOf(s) === scope);
    if (!children.length) continue;
    const fn = counter.enclosingFunction!.name;
    out.push({
      ruleId: id,
      message: `${fn || 'This function'} writes a child item and updates its counter in two separate calls: if one fails or is retried alone, the count drifts from the children for good. Send both in one TransactWriteItems, with a condition on the child write.`,
      range: counter.nameRange,
      related: children.map((c) => ({ range: c.nameRange, message: `The child ${c.api === 'PutItem' ? 'write' : 'delete'}, sent separately` })),
    });
  }
  return out;
}

export const separateChildAndCounterWrites: Rule = {
  id,
  meta: {
    description: 'A child write and its counter update are sent as two separate calls in the same function instead of one transaction.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'warning',
    fixable: false,
    category: 'transactions',
  },
  check: ({ sites }) => check(sites),
};
