/**
 * Running rules over a document's request sites: severity resolution (rule default < .dynalintrc.json < editor
 * settings), suppression comments, and isolation (a rule that throws is logged and skipped; the others still report).
 */
import type { Range, RequestSite } from '../extract/model';
import type { TableLookup } from '../tables';
import { agreeingOnAlternatives } from './alternatives';
import { lineBreakOf, withLineBreaks } from './edit';
import type { DropIfToken, Finalize, RuleCache } from './incremental';
import { UNUSED_SUPPRESSION, applySuppressions } from './suppression';
import { SharedSource, type TrackedSource, consistentForSharers, sharedSource } from './shared';
import type { Finding, Fix, Rule, RuleFinding, Severity, SeveritySetting, SiteFinding } from './types';
import { unusedSuppression } from './unused-suppression';

export interface RunConfig {
  /** Severities from `.dynalintrc.json` (config/loadConfig). */
  fileRules?: Record<string, SeveritySetting>;
  /** Severities from the `dynalint.rules` editor setting; they win over the file. */
  settingsRules?: Record<string, SeveritySetting>;
  /** Where a failing rule is logged (default: console.error). */
  log?: (message: string) => void;
  /** Table definitions of the workspace, for the key-schema rules (rules/table/). */
  tables?: TableLookup;
  /**
   * The document's rule cache (rules/incremental.ts): site-local rules' findings are reused for sites the extractor
   * handed back unchanged. The language service keeps one per open document; one-shot callers (CLI, ESLint) pass none.
   */
  cache?: RuleCache;
  /** When given, receives the time spent per rule id (ms), for the bench. */
  timings?: Map<string, number>;
  /**
   * Table definitions in this document that could not be read (the table index's problems for its uri, as offsets in
   * this text): reported by table-definition like any finding, so severities, suppression comments and the document's
   * one set of diagnostics apply to them.
   */
  definitionProblems?: DefinitionProblemAt[];
}

export interface DefinitionProblemAt {
  message: string;
  range: Range;
}

/**
 * Expression-language findings that a rule of this folder reports better (with a fix): when both fire on
 * overlapping ranges, only the superseding rule's finding is kept, so one problem gives one diagnostic.
 */
export const SUPERSEDED_BY: Readonly<Record<string, string>> = {
  'add-operand-type': 'add-on-non-number',
  'delete-operand-type': 'add-on-non-number',
};

function dropSuperseded(findings: Finding[]): Finding[] {
  return findings.filter((f) => {
    const by = SUPERSEDED_BY[f.ruleId];
    return !by || !findings.some((g) => g.ruleId === by && g.range.start < f.range.end && f.range.start < g.range.end);
  });
}

/**
 * One rule's findings, in order: `unique` when no two share rule, range and message already (the rule cache's lists).
 * The steps below work per block where a block's rule decides (superseded ids, dedupe: both per rule id), so findings
 * of rules neither step concerns are not looked at one by one.
 */
interface Block {
  id: string;
  list: Finding[];
  unique: boolean;
  /** In order (start, then end) / whether a finding has fixes. */
  sorted: boolean;
  fixes: boolean;
}

/** A rule's own findings (`check`) as a block. */
function blockOf(id: string, list: Finding[]): Block {
  let sorted = true;
  let fixes = false;
  for (let i = 0; i < list.length; i++) {
    if (list[i].fixes?.length) fixes = true;
    if (i && (list[i - 1].range.start > list[i].range.start || (list[i - 1].range.start === list[i].range.start && list[i - 1].range.end > list[i].range.end))) sorted = false;
  }
  return { id, list, unique: false, sorted, fixes };
}

/** `dedupe(dropSuperseded(findings))` of the blocks' concatenation, when every block has a rule id of its own. */
function keptOf(blocks: Block[]): Finding[] {
  const out: Finding[] = [];
  for (const b of blocks) {
    let list = b.list;
    const by = Object.prototype.hasOwnProperty.call(SUPERSEDED_BY, b.id) ? SUPERSEDED_BY[b.id] : undefined;
    if (by) {
      const over = blocks.filter((x) => x.id === by).flatMap((x) => x.list);
      list = list.filter((f) => !over.some((g) => g.range.start < f.range.end && f.range.start < g.range.end));
    }
    if (!b.unique) list = dedupe(list);
    for (let i = 0; i < list.length; i++) out.push(list[i]);
  }
  return out;
}

/**
 * One finding per (rule, range, message): a constant shared by several requests is reported once, not once per
 * request using it (the first copy's fixes are kept; expression fixes on shared source cover every request).
 */
function dedupe(findings: Finding[]): Finding[] {
  // By start offset first (no key string per finding: a constant shared by hundreds of requests gives as many copies).
  const seen = new Map<number, Finding[]>();
  return findings.filter((f) => {
    const at = seen.get(f.range.start);
    if (!at) {
      seen.set(f.range.start, [f]);
      return true;
    }
    if (at.some((g) => g.range.end === f.range.end && g.ruleId === f.ruleId && g.message === f.message)) return false;
    at.push(f);
    return true;
  });
}

/**
 * A finding with some of its fixes withheld (`withConsistentFixes`), per finding object: the fixes kept and the finding
 * made of them. The rule cache hands out the same finding objects from lint to lint (never changed once handed out),
 * so while the same fixes are kept the same finding is handed out again, not built anew (the shapes file's shared
 * `INCREMENT` finding, its wrap fix withheld, at every keystroke).
 */
const withheld = new WeakMap<Finding, { kept: Fix[]; out: Finding }>();

/** Withhold fixes that would edit source shared by several requests for one of them only (see shared.ts). */
function withConsistentFixes(text: string, sites: RequestSite[], findings: Finding[], tracked?: TrackedSource): Finding[] {
  // Built on first need: only an edit introducing a placeholder asks who else uses the source it edits.
  let shared: SharedSource | undefined;
  const index = () => (shared ??= sharedSource(sites));
  return findings.map((f) => {
    if (!f.fixes?.length) return f;
    const fixes = f.fixes.filter((x) => (tracked ? tracked.consistent(text, x) : consistentForSharers(text, x, index)));
    if (fixes.length === f.fixes.length) return f;
    const memo = withheld.get(f);
    if (memo !== undefined && memo.kept.length === fixes.length && memo.kept.every((x, i) => x === fixes[i])) return memo.out;
    const kept = fixes.slice();
    const rest: Finding = { ...f };
    delete rest.fixes;
    if (fixes.length && !fixes.some((x) => x.preferred)) fixes[0] = { ...fixes[0], preferred: true };
    const out = fixes.length ? { ...rest, fixes } : rest;
    withheld.set(f, { kept, out });
    return out;
  });
}

function withoutFixes(f: Finding): Finding {
  if (!f.fixes) return f;
  const rest: Finding = { ...f };
  delete rest.fixes;
  return rest;
}

const SEVERITIES = new Set<SeveritySetting>(['error', 'warning', 'info', 'hint', 'off']);

/** Effective severity of a rule: its default, overridden by the config file, overridden by the settings. */
export function resolveSeverity(rule: Rule, config: Pick<RunConfig, 'fileRules' | 'settingsRules'> = {}): SeveritySetting {
  const pick = (m?: Record<string, SeveritySetting>) => (m && SEVERITIES.has(m[rule.id]) ? m[rule.id] : undefined);
  return pick(config.settingsRules) ?? pick(config.fileRules) ?? rule.meta.defaultSeverity;
}

function configured(rule: Rule, config: RunConfig): boolean {
  return [config.settingsRules, config.fileRules].some((m) => m && SEVERITIES.has(m[rule.id]));
}

interface Resolved {
  enabled: Set<string>;
  /** The enabled rules (without unused-suppression, run by the suppression step) and their severities. */
  active: Rule[];
  severities: Severity[];
  /** Ids of rules whose severity is configured (their findings' own severity is overridden). */
  fixed: Set<string>;
  /** The active rules with a site form, in order. */
  siteRules: Rule[];
  /** Every rule id of `rules`. */
  known: Set<string>;
  /** The site rules' severities (and whether configured), as one string: the rule cache keeps findings with them. */
  finalKey: string;
  /** Whether no two active rules share an id (then neither do a lint's blocks, one per active rule at most). */
  distinct: boolean;
  /** Per site rule of `active`, its index there (`siteRuleIndex`). */
  siteIndex: number[];
  /** The severity of unused-suppression findings (the rule's, or its default when `rules` has none). */
  unusedSeverity: SeveritySetting;
}

/** Per site rule of `active` (in order), its index in `active`. */
function siteRuleIndex(active: readonly Rule[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < active.length; i++) if (active[i].site) out.push(i);
  return out;
}

/** A site finding as the lint reports it: its severity set, without `unless` (the rule cache's `dropIf` data). */
function finalOf(f: SiteFinding, severity: Severity): Finding {
  if (f.unless === undefined) return { ...f, severity };
  // Not `delete`: a deleted property turns the object into a dictionary (448 B instead of ~100 for each of the
  // ~2,500 findings with `unless` the rule cache keeps on a 50,000-line file; ~1 MB of heap).
  const { unless: _unless, ...rest } = f;
  return { ...rest, severity };
}

/** The last resolution, with copies of the configurations it was made for (a document linted again has the same). */
let lastResolved: { rules: Rule[]; fileRules?: [string, SeveritySetting][]; settingsRules?: [string, SeveritySetting][]; out: Resolved } | undefined;

const sameRules = (m: Record<string, SeveritySetting> | undefined, copy: [string, SeveritySetting][] | undefined) =>
  m === undefined ? copy === undefined : copy !== undefined && Object.keys(m).length === copy.length && copy.every(([k, v]) => m[k] === v);

/** Which rules run, with which severity (asked once per rules and configuration contents). */
function resolved(rules: readonly Rule[], config: RunConfig): Resolved {
  const last = lastResolved;
  if (last && last.rules.length === rules.length && last.rules.every((r, i) => r === rules[i]) && sameRules(config.fileRules, last.fileRules) && sameRules(config.settingsRules, last.settingsRules)) return last.out;
  const out: Resolved = { enabled: new Set(), active: [], severities: [], fixed: new Set(), siteRules: [], known: new Set(rules.map((r) => r.id)), finalKey: '', distinct: false, siteIndex: [], unusedSeverity: 'off' };
  for (const rule of rules) {
    if (rule.id === UNUSED_SUPPRESSION) continue;
    const sev = resolveSeverity(rule, config);
    if (sev === 'off') continue;
    out.enabled.add(rule.id);
    out.active.push(rule);
    out.severities.push(sev);
    if (configured(rule, config)) out.fixed.add(rule.id);
    if (rule.site) out.siteRules.push(rule);
  }
  out.distinct = new Set(out.active.map((r) => r.id)).size === out.active.length;
  out.siteIndex = siteRuleIndex(out.active);
  out.unusedSeverity = resolveSeverity(rules.find((r) => r.id === UNUSED_SUPPRESSION) ?? unusedSuppression, config);
  const copy = (m?: Record<string, SeveritySetting>) => (m ? Object.entries(m) : undefined);
  out.finalKey = out.siteRules.map((r) => `${r.id}=${out.severities[out.active.indexOf(r)]}${out.fixed.has(r.id) ? '!' : ''}`).join(',');
  lastResolved = { rules: [...rules], fileRules: copy(config.fileRules), settingsRules: copy(config.settingsRules), out };
  return out;
}

/**
 * Run every enabled rule of `rules` over the sites of one document; findings sorted by position. Never throws.
 */
export function runRuleSet(rules: readonly Rule[], text: string, languageId: string, sites: RequestSite[], config: RunConfig = {}): Finding[] {
  const log = config.log ?? ((m: string) => console.error(m));
  const failure = (id: string, e: unknown) => log(`dynalint: rule ${id} failed and was skipped: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  const timings = config.timings;
  const { enabled, active, severities, fixed: configuredIds, siteRules: cachedRules, known, finalKey, distinct, siteIndex: siteRuleIndexes, unusedSeverity } = resolved(rules, config);
  const ctx = { text, sites, tables: config.tables, definitionProblems: config.definitionProblems };
  // Site-local rules through the document's cache: per rule, its findings over the sites (reused or computed), kept
  // by the cache in their final form (severity resolved, `unless` left out: asked of the cache's `finalize` once per
  // finding computed), so the findings of the sites handed back are not copied on every lint.
  const cache = config.cache;
  const siteRules = cache ? cachedRules : [];
  const failed = new Map<string, unknown>();
  // Asked only of findings that are no repeat of one kept (a constant shared by many requests gives as many copies).
  const dropIf = (k: number, unless: unknown) => siteRules[k].dropIf?.(ctx, unless) ?? false;
  // What a rule's `dropIf` answers stand for (the same object: the same answers; the cache then asks nothing again).
  const dropToken = (k: number) => (siteRules[k] as Rule & DropIfToken).dropIfToken?.(ctx);
  const severityOf = (i: number, f: RuleFinding): Severity => (configuredIds.has(active[i].id) ? severities[i] : (('severity' in f ? f.severity : undefined) ?? severities[i]));
  const siteIndex = cache ? siteRuleIndexes : [];
  const finalize: Finalize = { key: finalKey, apply: (k, f) => finalOf(f, severityOf(siteIndex[k], f)) };
  const perSite = cache && siteRules.length ? cache.results(siteRules, { ...ctx, languageId }, failed, timings, dropIf, finalize, dropToken) : undefined;
  const blocks: Block[] = [];
  for (let i = 0, k = 0; i < active.length; i++) {
    const rule = active[i];
    // The site rules are the active ones with `site`, in the same order.
    const slot = perSite && rule.site ? k++ : undefined;
    const t0 = timings ? performance.now() : 0;
    if (slot !== undefined) {
      if (failed.has(rule.id)) {
        failure(rule.id, failed.get(rule.id));
        continue;
      }
      // `dropIf` was asked by the cache (a rule whose dropIf threw is among the failed); no repeats (the cache's).
      blocks.push({ id: rule.id, list: perSite![slot] as Finding[], unique: true, sorted: cache!.info.sorted, fixes: cache!.info.fixes });
    } else {
      // A rule that throws reports nothing: its findings are kept only once it is done.
      const mine: Finding[] = [];
      try {
        for (const f of rule.check(ctx)) mine.push({ ...f, severity: severityOf(i, f) });
        blocks.push(blockOf(rule.id, mine));
      } catch (e) {
        failure(rule.id, e);
      }
    }
    if (timings) timings.set(rule.id, (timings.get(rule.id) ?? 0) + performance.now() - t0);
  }
  // The post-steps never drop findings: one that throws withholds the fixes it could not check (never offers them).
  const unchecked = (step: string, e: unknown) => log(`dynalint: ${step} failed, their fixes are withheld: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  let kept: Finding[];
  if (distinct || new Set(blocks.map((b) => b.id)).size === blocks.length) kept = keptOf(blocks);
  else {
    const findings: Finding[] = [];
    for (const b of blocks) for (const f of b.list) findings.push(f);
    kept = dedupe(dropSuperseded(findings));
  }
  // Without a fix among the findings the two fix steps change nothing (each returns the findings as they are); in
  // order already (one rule reporting, in order), the sort below is not needed either (the steps only drop findings).
  const fixes = blocks.some((b) => b.fixes);
  const reporting = blocks.filter((b) => b.list.length);
  let sorted = reporting.length <= 1 && reporting.every((b) => b.sorted);
  if (fixes) {
    try {
      kept = withConsistentFixes(text, sites, kept, perSite ? cache?.shared : undefined);
    } catch (e) {
      // Which fixes touch shared source is what could not be told: none is offered.
      unchecked('the shared-source check of fixes', e);
      kept = kept.map(withoutFixes);
    }
    try {
      // The rule cache knows when no site is an alternative (nothing to agree on: the step returns the findings).
      if (!perSite || cache!.alternatives > 0) kept = agreeingOnAlternatives(text, ctx, active, kept);
    } catch (e) {
      // Which findings lie on alternatives could not be told: with any alternative in the document, no fix is offered.
      unchecked('the alternatives check of fixes', e);
      if (sites.some((s) => s.alternative && s.alternative.count > 1)) kept = kept.map(withoutFixes);
    }
  }
  try {
    const r = applySuppressions(text, languageId, kept, known, sites, enabled, cache?.suppressions(text, languageId));
    kept = r.kept;
    const sev = unusedSeverity;
    if (sev !== 'off' && r.unused.length) {
      kept = kept.concat(r.unused.map((f) => ({ ...f, severity: sev })));
      sorted = false;
    }
  } catch (e) {
    log(`dynalint: suppression comments could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Rules write LF; a CRLF document gets CRLF (the CLI's --fix, quick fixes and fix-all all come through here).
  // (An LF document, most: nothing to copy, per finding or per fix.)
  if (lineBreakOf(text) !== '\n') kept = kept.map((f) => (f.fixes?.length ? { ...f, fixes: f.fixes.map((x) => ({ ...x, edits: withLineBreaks(text, x.edits) })) } : f));
  if (sorted) return kept;
  return kept.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
}
