import { UNUSED_SUPPRESSION } from './suppression';
import { DOCS_BASE, Rule } from './types';

/** Metadata only: `runRules` reports unused suppressions after the other rules ran (see suppression.ts). */
export const unusedSuppression: Rule = {
  id: UNUSED_SUPPRESSION,
  meta: {
    description: 'A dynalint-disable comment that suppresses nothing, or names an unknown rule.',
    docs: `${DOCS_BASE}/${UNUSED_SUPPRESSION}.md`,
    defaultSeverity: 'hint',
    fixable: true,
    category: 'style',
  },
  check: () => [],
};
