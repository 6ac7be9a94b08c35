import { type ObjectNode, type RequestSite, exclusive, prop } from '../extract/model';

import { counterActions, updateOf, operations, tableId } from './analysis';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'separate-child-and-counter-writes';

const scopeOf = (s: RequestSite) => (s.enclosingFunction ? `${s.enclosingFunction.range.start}:${s.enclosingFunction.range.end}` : undefined);

/** The counter attributes a standalone UpdateItem increments or decrements (empty when it is no counter update). */
function counterAttributes(site: RequestSite): string[] {
  if (site.api !== 'UpdateItem') return [];
  const op = operations(site)[0];
  const upd = updateOf(op.params);
  return upd ? counterActions(op, upd).map((c) => c.key) : [];
}

/**
 * Whether a Put/Delete writes the counter's own item rather than a child: a Put whose Item holds the counter attribute
 * ("create the parent with views: 0, then ADD views"), or a write to the same table whose key values are written
 * exactly like the counter's Key.
 */
function writesCounterItem(text: string, child: RequestSite, counter: RequestSite, attrs: string[]): boolean {
  const item = prop(child.params, child.api === 'PutItem' ? 'Item' : 'Key');
  if (item?.kind !== 'object') return false;
  if (child.api === 'PutItem' && attrs.some((a) => prop(item, a.split(/[.[]/)[0]))) return true;
  const key = prop(counter.params, 'Key');
  if (key?.kind !== 'object' || !key.complete || !key.properties.length) return false;
  if (tableId(text, operations(child)[0]) !== tableId(text, operations(counter)[0])) return false;
  const source = (n: { range: { start: number; end: number } }) => text.slice(n.range.start, n.range.end).replace(/\s+/g, '');
  return key.properties.every((k) => {
    const v = prop(item as ObjectNode, k.key);
    return v !== undefined && source(v) === source(k.value);
  });
}

function check(text: string, sites: RequestSite[]): Omit<Finding, 'severity'>[] {
  const out: Omit<Finding, 'severity'>[] = [];
  for (const counter of sites) {
    const attrs = counterAttributes(counter);
    if (!attrs.length) continue;
    const scope = scopeOf(counter);
    if (!scope) continue;
    const children = sites.filter(
      (s) => (s.api === 'PutItem' || s.api === 'DeleteItem') && scopeOf(s) === scope && !exclusive(s, counter) && !writesCounterItem(text, s, counter, attrs),
    );
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
  check: ({ text, sites }) => check(text, sites),
};
