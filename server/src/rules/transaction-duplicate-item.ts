import { RequestSite, prop, propEntry } from '../extract/model';
import type { Operation } from '../extract/operations';

import { keyNames, literalKey, tableId, operations } from './analysis';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'transaction-duplicate-item';

function checkSite(text: string, site: RequestSite): Omit<Finding, 'severity'>[] {
  if (site.api !== 'TransactWriteItems' && site.api !== 'TransactGetItems') return [];
  const ops = operations(site);
  const items = prop(site.params, 'TransactItems');
  // Key attribute names per table, learnt from the Key maps, so a Put's Item can be keyed too.
  const keysOf = (op: Operation) => {
    const own = keyNames(op.params);
    if (own.length) return own;
    return ops.map((o) => (tableId(text, o) === tableId(text, op) ? keyNames(o.params) : [])).find((k) => k.length) ?? [];
  };
  const seen = new Map<string, Operation>();
  const out: Omit<Finding, 'severity'>[] = [];
  for (const op of ops) {
    const keys = keysOf(op);
    const node = prop(op.params, 'Key') ?? prop(op.params, 'Item');
    const key = keys.length ? literalKey(node, site.style, keys) : undefined;
    const table = tableId(text, op) ?? '';
    if (!key) continue;
    const k = `${table}\u0000${key}`;
    const first = seen.get(k);
    if (!first) {
      seen.set(k, op);
      continue;
    }
    const here = items?.kind === 'array' && op.index !== undefined ? propEntry(items.items[op.index], op.kind) : undefined;
    const there = items?.kind === 'array' && first.index !== undefined ? propEntry(items.items[first.index], first.kind) : undefined;
    out.push({
      ruleId: id,
      message: `This ${op.kind} targets the same item as the ${first.kind} at action ${(first.index ?? 0) + 1} (${key.replace(/\|/g, ', ')}): DynamoDB rejects a transaction with two operations on one item. Merge them into one action.`,
      range: here ? here.keyRange : op.params.range,
      related: there ? [{ range: there.keyRange, message: `The first ${first.kind} on this item` }] : undefined,
    });
  }
  return out;
}

export const transactionDuplicateItem: Rule = {
  id,
  meta: {
    description: 'Two actions of one transaction on the same item (same literal key), which DynamoDB rejects.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'error',
    fixable: false,
    category: 'transactions',
  },
  check: ({ text, sites }) => sites.flatMap((s) => checkSite(text, s)),
  site: (ctx, s) => checkSite(ctx.text, s),
};
