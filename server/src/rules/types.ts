import type { Range, RequestSite } from '../extract/model';
import type { TableLookup } from '../tables';

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeveritySetting = Severity | 'off';

export type RuleCategory = 'correctness' | 'counters' | 'transactions' | 'cost' | 'expression' | 'style';

export interface RuleMeta {
  description: string;
  /** Docs URL; by convention `${DOCS_BASE}/<id>.md`. */
  docs: string;
  defaultSeverity: SeveritySetting;
  fixable: boolean;
  category: RuleCategory;
}

/** A text edit in document offsets. */
export interface TextEdit {
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** Safe fixes keep the request's meaning and are applied by fix-all (`source.fixAll.dynalint`, `lint --fix`). */
  safe: boolean;
  /** Prefer this fix in the quick-fix menu. */
  preferred?: boolean;
}

/** What a rule reports. The service turns it into an LSP diagnostic; the CLI prints it. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  range: Range;
  fixes?: Fix[];
  /** Extra detail surfaced as related information (e.g. the counter update a child write belongs to). */
  related?: { range: Range; message: string }[];
  /** Marks the finding as about unnecessary code (faded in editors), e.g. an unused placeholder. */
  unnecessary?: boolean;
  /** Related places in other files (a table's definition): LSP related information with their own uri. */
  elsewhere?: { uri: string; range: { start: { line: number; character: number }; end: { line: number; character: number } }; message: string }[];
}

export interface RuleContext {
  text: string;
  sites: RequestSite[];
  /** Rule options from configuration (per rule), if any. */
  options?: Record<string, unknown>;
  /** The table definitions of the workspace (tables/), when known; rules about key schemas are silent without it. */
  tables?: TableLookup;
}

export interface Rule {
  id: string;
  meta: RuleMeta;
  /** Produce findings (without severity resolution: use `meta.defaultSeverity` unless the rule knows better). */
  check(ctx: RuleContext): Omit<Finding, 'severity'>[] | (Omit<Finding, 'severity'> & { severity?: Severity })[];
}

export const DOCS_BASE = 'https://github.com/dynalint/dynalint/blob/main/docs/rules';
