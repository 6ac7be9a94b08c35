import { RequestSite, prop } from '../extract/model';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'count-children-on-read';

function checkSite(site: RequestSite): Omit<Finding, 'severity'>[] {
  if (site.api !== 'Query' && site.api !== 'Scan') return [];
  const select = prop(site.params, 'Select');
  if (select?.kind !== 'string' || select.value !== 'COUNT') return [];
  return [
    {
      ruleId: id,
      message: `Select: COUNT still reads, and bills read capacity for, every item the ${site.api} matches: the count costs as much as fetching the children. Keep a reference count on the parent item (updated in the transaction that writes each child) and read it with one GetItem.`,
      range: select.range,
    },
  ];
}

export const countChildrenOnRead: Rule = {
  id,
  meta: {
    description: 'A Query or Scan with Select: COUNT counts child items on every read instead of keeping a count on the parent.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'info',
    fixable: false,
    category: 'cost',
  },
  check: ({ sites }) => sites.flatMap(checkSite),
  site: (_ctx, s) => checkSite(s),
};
