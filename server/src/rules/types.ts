import type { Severity, SeveritySetting } from '../core/severity';
import type { Range, RequestSite } from '../extract/model';
import type { TableLookup } from '../tables';
import type { SharedSource } from './shared';

export type { Severity, SeveritySetting } from '../core/severity';

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
  /**
   * Who else uses source a request resolves from outside itself (rules/shared.ts), when the caller tracks it (the
   * language service's rule cache: a site rule's findings are then reused while its answers hold); otherwise
   * `sharedSource(ctx.sites)`.
   */
  shared?(): SharedSource;
  /** Table definitions in this document that could not be read (run.ts `RunConfig.definitionProblems`). */
  definitionProblems?: { message: string; range: Range }[];
}

/** A finding as a rule returns it: severity optional (the rule's own, kept unless configured). */
export type RuleFinding = Omit<Finding, 'severity'> & { severity?: Severity };

/**
 * A finding of one site (`Rule.site`). `unless`: content-only data (no offsets) for the rule's `dropIf`, a
 * document-level condition evaluated on every run (set-without-if-not-exists: "the item is created elsewhere").
 */
export type SiteFinding = RuleFinding & { unless?: unknown };

export interface Rule {
  id: string;
  meta: RuleMeta;
  /** Produce findings (without severity resolution: use `meta.defaultSeverity` unless the rule knows better). */
  check(ctx: RuleContext): RuleFinding[];
  /**
   * Site-local rules: the findings of one site, read from that site (its value tree, the text under it and around its
   * lines) and `ctx.tables` alone, in the order `check` gives them; `check` must equal their concatenation in site
   * order once `dropIf` and duplicates (same rule, range, message) are removed. The language service caches them per
   * site object across edits (rules/incremental.ts). Reading `ctx.sites` makes the result depend on the document: it
   * is then recomputed on every run.
   */
  site?(ctx: RuleContext, site: RequestSite): SiteFinding[];
  /** For site findings carrying `unless`: whether the document makes the finding moot (evaluated on every run). */
  dropIf?(ctx: RuleContext, unless: unknown): boolean;
}

export const DOCS_BASE = 'https://github.com/dynalint/dynalint/blob/main/docs/rules';
