/**
 * The rule registry, sorted by id: this folder's rules plus one rule per expression-language finding.
 * `runRules` runs them all (see run.ts for severity resolution and suppression).
 */
import type { RequestSite } from '../extract/model';
import { byRuleId, coreRules } from './core';
import { expressionRules } from './expression-rules';
import { RunConfig, runRuleSet } from './run';
import type { Finding, Rule } from './types';

export { resolveSeverity, type DefinitionProblemAt, type RunConfig } from './run';
export { applyEdits } from './edit';
export { disableFileEdit, disableNextLineEdit, UNUSED_SUPPRESSION } from './suppression';

export const allRules: Rule[] = [...coreRules, ...expressionRules].sort(byRuleId);

const byId = new Map(allRules.map((r) => [r.id, r]));

export function ruleById(id: string): Rule | undefined {
  return byId.get(id);
}

/** Run every enabled registered rule over the sites of one document; findings sorted by position. Never throws. */
export function runRules(text: string, languageId: string, sites: RequestSite[], config: RunConfig = {}): Finding[] {
  return runRuleSet(allRules, text, languageId, sites, config);
}
