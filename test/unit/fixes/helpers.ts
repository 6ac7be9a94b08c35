import { strict as assert } from 'node:assert';
import { extract, initParsers } from '../../../server/src/extract';
import { applyEdits, fixAll } from '../../../server/src/fix/apply';
import { runRuleSet } from '../../../server/src/rules/run';
import { expressionRules } from '../../../server/src/rules/expression-rules';
import type { Finding, Fix } from '../../../server/src/rules/types';

export const ready = (): Promise<void> => initParsers();

/** The expression rules' findings for a document. */
export function lintExpressions(text: string, languageId: string): Finding[] {
  return runRuleSet(expressionRules, text, languageId, extract(text, languageId).sites, { log: (m) => assert.fail(m) });
}

export interface FixCase {
  name: string;
  languageId: string;
  before: string;
  ruleId: string;
  /** Which fix of the first finding with `ruleId`: a title pattern, else the preferred one. */
  fix?: RegExp;
  after: string;
  safe: boolean;
}

/** Apply one fix of the first `ruleId` finding; assert the text after, and that no Error of that rule remains. */
export function checkFix(c: FixCase): Fix {
  const findings = lintExpressions(c.before, c.languageId);
  const finding = findings.find((f) => f.ruleId === c.ruleId);
  assert.ok(finding, `no ${c.ruleId} finding in:\n${c.before}\nfound: ${findings.map((f) => f.ruleId).join(', ')}`);
  const fix = c.fix ? finding.fixes?.find((f) => c.fix!.test(f.title)) : finding.fixes?.find((f) => f.preferred);
  assert.ok(fix, `no fix${c.fix ? ` matching ${c.fix}` : ''} among: ${(finding.fixes ?? []).map((f) => f.title).join(' | ')}`);
  const after = applyEdits(c.before, fix.edits);
  assert.equal(after, c.after);
  assert.equal(fix.safe, c.safe, `safe flag of "${fix.title}"`);
  const left = lintExpressions(after, c.languageId).filter((f) => f.severity === 'error');
  assert.deepEqual(
    left.filter((f) => f.ruleId === c.ruleId).map((f) => f.message),
    [],
    `errors of ${c.ruleId} left after the fix`,
  );
  return fix;
}

/** Fix-all over a document with the expression rules (re-linting between passes). */
export function fixAllExpressions(text: string, languageId: string): { text: string; remaining: Finding[]; fixed: number } {
  const lint = (t: string) => lintExpressions(t, languageId);
  const r = fixAll(text, lint(text), lint);
  return { text: r.text, remaining: r.remaining ?? [], fixed: r.fixed };
}
