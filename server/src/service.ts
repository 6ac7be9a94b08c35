/**
 * The pure language service: diagnostics, code actions, completion, hover and code lenses over one document's text,
 * language id, version and settings. Knows LSP data types (plain JSON) but not the connection: the server, tests and
 * other front ends call it directly. Analysis (extraction + rules) is cached per uri and version.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeAction,
  CodeActionKind,
  CodeLens,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticTag,
  Hover,
  InsertTextFormat,
  MarkupKind,
  Position,
  Range as LspRange,
  TextEdit as LspTextEdit,
} from 'vscode-languageserver-types';
import { EXPRESSION_FIELDS, type ExpressionField, type ExpressionKind } from './expression/ast';
import { type DocumentExtractor, type NotLintedRegion, createDocumentExtractor, extract, resolveLanguageId } from './extract';
import { ObjectNode, RequestSite, StringNode, prop, propEntry, stringRange, type Range } from './extract/model';
import { Operation, operationsOf } from './extract/operations';
import { fixAll, minimalEdit } from './fix/apply';
import { quoteOf } from './fix/edits';
import { cursorContext, wordAt } from './language/context';
import { WORDS, WordInfo, wordInfo, wordMarkdown } from './language/knowledge';
import { isReservedWord } from './expression/reserved-words';
import { type DefinitionProblemAt, allRules, runRules } from './rules';
import { RuleCache, type RuleCacheStats, type Span, changedSpan } from './rules/incremental';
import { disableNextLineEdit } from './rules/suppression';
import { codeSpan, fence } from './language/markdown';
import { costHover } from './cost';
import { lensTargets } from './reconcile/lens';
import { type DiagnosticData, DIAGNOSTIC_SOURCE, FIX_ALL_KIND, Commands } from './protocol/lsp';
import type { DynalintSettings } from './protocol/settings';
import { DOCS_BASE, type Finding, type Fix, type Severity, type TextEdit } from './rules/types';
import type { TableIndex } from './tables';
import { definitionsAt, matchMarkdown, tableAt, tableCompletions } from './tables/language';

export interface Analysis {
  uri: string;
  version: number;
  text: string;
  /** The language it was linted as: the client's id, an alias of ours, else the uri's extension (resolveLanguageId). */
  languageId: string;
  sites: RequestSite[];
  findings: Finding[];
  /** Why the document was not linted (disabled, language off, too large, binary...). */
  skipped?: string;
  /** Parts of a linted document that were not (lines of minified code). */
  notLinted?: NotLintedRegion[];
  durationMs: number;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const docsByRule = new Map(allRules.map((r) => [r.id, r.meta.docs]));
export function docsUrl(ruleId: string): string {
  return docsByRule.get(ruleId) ?? `${DOCS_BASE}/${ruleId}.md`;
}

/** Offsets to LSP positions: `doc.positionAt`, or a `Positions` cursor when converting many nearby offsets. */
interface PositionSource {
  positionAt(offset: number): Position;
}

function lspRange(doc: PositionSource, r: Range): LspRange {
  return { start: doc.positionAt(r.start), end: doc.positionAt(r.end) };
}
function lspEdits(doc: PositionSource, edits: TextEdit[]): LspTextEdit[] {
  return edits.map((e) => ({ range: lspRange(doc, e.range), newText: e.newText }));
}

/**
 * `doc.positionAt` for many offsets that mostly lie near each other (a document's findings in order, each with its
 * fixes): the line of the last answer is tried first, then the next two, and only then the document's binary search
 * over its line starts. The same answers: the line is the last one starting at or before the offset (line starts from
 * `offsetAt`, O(1)), and an offset inside a line break is moved back before it, as `positionAt` does.
 */
export class Positions implements PositionSource {
  private line = -1;
  private start = 0;
  private next = 0;
  private readonly text: string;
  private readonly lines: number;

  constructor(private readonly doc: TextDocument) {
    this.text = doc.getText();
    this.lines = doc.lineCount;
  }

  private enter(line: number): void {
    this.line = line;
    this.start = this.doc.offsetAt({ line, character: 0 });
    this.next = line + 1 < this.lines ? this.doc.offsetAt({ line: line + 1, character: 0 }) : Infinity;
  }

  positionAt(offset: number): Position {
    const text = this.text;
    const o = Math.max(Math.min(offset, text.length), 0);
    if (!(o >= this.start && o < this.next) || this.line < 0) {
      let found = false;
      for (let step = 0; step < 2 && this.line >= 0 && o >= this.next; step++) {
        this.enter(this.line + 1);
        if (o < this.next) found = true;
      }
      if (!found) this.enter(this.doc.positionAt(o).line);
    }
    let c = o;
    while (c > this.start && isEol(text.charCodeAt(c - 1))) c--;
    return { line: this.line, character: c - this.start };
  }
}

const isEol = (ch: number) => ch === 13 || ch === 10;

/** `Diagnostic.data.fixes` of a carried diagnostic without fixes (sent as `[]`, like a fresh one's; never changed). */
const NO_FIXES = Object.freeze([]) as unknown as DiagnosticData['fixes'];
const within = (r: Range, offset: number) => r.start <= offset && offset <= r.end;

/** Does an action kind pass the client's `only` filter (`source.fixAll` admits `source.fixAll.dynalint`)? */
function kindWanted(kind: string, only: string[] | undefined): boolean {
  return !only || only.some((k) => kind === k || kind.startsWith(k + '.'));
}

/** An expression string of one operation, with its kind. */
interface ExpressionString {
  op: Operation;
  field: ExpressionField;
  kind: ExpressionKind;
  node: StringNode;
}

function expressionsOf(op: Operation): ExpressionString[] {
  const out: ExpressionString[] = [];
  for (const [field, kind] of Object.entries(EXPRESSION_FIELDS) as [ExpressionField, ExpressionKind][]) {
    const node = prop(op.params, field);
    if (node?.kind === 'string') out.push({ op, field, kind, node });
  }
  return out;
}

/** The expression-string index at a document offset (between characters), or -1 outside the string's content. */
function indexAt(node: StringNode, offset: number): number {
  const o = node.offsets;
  if (offset < o[0] || offset > o[o.length - 1]) return -1;
  let lo = 0;
  let hi = o.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (o[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function objectKeys(node: ObjectNode | undefined): string[] {
  return node?.kind === 'object' ? node.properties.map((p) => p.key) : [];
}
function asObject(n: unknown): ObjectNode | undefined {
  return (n as ObjectNode | undefined)?.kind === 'object' ? (n as ObjectNode) : undefined;
}

/** Placeholders (`#n` or `:v`) written in an operation's expressions, in order of first use. */
function usedPlaceholders(op: Operation, sigil: '#' | ':'): string[] {
  const seen = new Set<string>();
  const re = sigil === '#' ? /#[A-Za-z0-9_]+/g : /:[A-Za-z0-9_]+/g;
  for (const e of expressionsOf(op)) for (const m of e.node.value.matchAll(re)) seen.add(m[0]);
  return [...seen];
}

const BARE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

function functionSnippet(info: WordInfo): string {
  const m = /\((.*)\)/.exec(info.signature);
  const args = m ? m[1].split(',').map((a) => a.trim()) : [];
  return `${info.name}(${args.map((a, i) => '${' + (i + 1) + ':' + a.replace(/[$}\\]/g, '') + '}').join(', ')})`;
}

/** What `diagnostics` made last for a document: carried to the next version. */
interface Published {
  version: number;
  text: string;
  /** `ExtractorState.seq` of `text` when these were made (-1: not the extractor's text). */
  seq: number;
  lineCount: number;
  findings: Finding[];
  diagnostics: Diagnostic[];
  /** Each finding's offsets when its diagnostic was made (`pushOffsets`), from `at[i]`. */
  offsets: number[];
  at: number[];
}

interface ExtractorState {
  languageId: string;
  maxFileSize: number;
  extractor: DocumentExtractor;
  /** The last text the extractor saw. */
  text: string | undefined;
  /** Which text the extractor saw last: a number unique in the service, new with every text it is given. */
  seq: number;
  /**
   * The last edit the extractor was given: from which text (its `seq`: holding the string kept the previous version
   * alive, 8.5 MB of a 10 MB JSON) to which (`diagnostics` carries across the same span).
   */
  lastEdit: { fromSeq: number; to: string; span: Span | undefined } | undefined;
  rules: RuleCache;
}

/**
 * The offsets a finding mentions, in order (its range, related ranges, fix edits' ranges), appended to `out`. Kept for
 * the next version: a document-level rule's finding may hold a node's own range, which the extractor moves in place.
 */
function pushOffsets(f: Finding, out: number[]): void {
  out.push(f.range.start, f.range.end);
  if (f.related) for (const r of f.related) out.push(r.range.start, r.range.end);
  if (f.fixes) for (const x of f.fixes) for (const e of x.edits) out.push(e.range.start, e.range.end);
}

/**
 * The fields `sameFinding` compares (and `carried` rebuilds a diagnostic from): a field added to `Finding`, `Fix` or
 * `TextEdit` fails to compile here until both know it (else a carried diagnostic would keep its old value).
 */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const COMPARED_FIELDS: [
  Exactly<keyof Finding, 'ruleId' | 'severity' | 'message' | 'range' | 'fixes' | 'related' | 'unnecessary' | 'elsewhere'>,
  Exactly<keyof Fix, 'title' | 'edits' | 'safe' | 'preferred'>,
  Exactly<keyof TextEdit, 'range' | 'newText'>,
] = [true, true, true];
void COMPARED_FIELDS;

/**
 * Whether two findings give the same diagnostic but for their offsets, and each offset of `f` is the old one (`g`'s,
 * kept from `at` in `olds`) moved by the edit (`back`: the old offset of a new one, -1 inside the edit). Fixes and
 * related information in the same order; no `elsewhere` (never carried).
 */
function sameFinding(f: Finding, g: Finding, olds: readonly number[], at: number, back: (o: number) => number): boolean {
  if (f.ruleId !== g.ruleId || f.severity !== g.severity || f.message !== g.message || !f.unnecessary !== !g.unnecessary) return false;
  if (f.elsewhere?.length || g.elsewhere?.length) return false;
  // No closure or empty list per call (asked for every finding of every version: a tool compiling with kept function
  // names, tsx, wraps each closure in a call that names it).
  const fr = f.related ?? NONE;
  const gr = g.related ?? NONE;
  const ff = f.fixes ?? NONE;
  const gf = g.fixes ?? NONE;
  if (fr.length !== gr.length || ff.length !== gf.length) return false;
  if (!movedFrom(olds, at, f.range, back)) return false;
  at += 2;
  for (let i = 0; i < fr.length; i++) {
    if (fr[i].message !== gr[i].message || !movedFrom(olds, at, fr[i].range, back)) return false;
    at += 2;
  }
  for (let i = 0; i < ff.length; i++) {
    const a = ff[i];
    const b = gf[i];
    if (a.title !== b.title || a.safe !== b.safe || a.preferred !== b.preferred || a.edits.length !== b.edits.length) return false;
    for (let k = 0; k < a.edits.length; k++) {
      if (a.edits[k].newText !== b.edits[k].newText || !movedFrom(olds, at, a.edits[k].range, back)) return false;
      at += 2;
    }
  }
  return true;
}

const NONE: readonly never[] = [];

/** Whether a range's offsets are the old ones kept at `olds[at]` and `olds[at + 1]`, moved by the edit (`back`). */
function movedFrom(olds: readonly number[], at: number, r: Range, back: (o: number) => number): boolean {
  return olds[at] === back(r.start) && olds[at + 1] === back(r.end) && olds[at] >= 0 && olds[at + 1] >= 0;
}

export class DynalintService {
  private readonly cache = new Map<string, { key: string; analysis: Analysis }>();
  /**
   * Per open document: its incremental extractor, the last text it was given and the rules' cache (rules/incremental.ts),
   * which learns every edit the extractor saw so cached findings move as its sites did.
   */
  private readonly extractors = new Map<string, ExtractorState>();
  /** Per document, the last diagnostics made (`diagnostics`) and what they were made from: carried to the next version. */
  private readonly published = new Map<string, Published>();
  /** The last `ExtractorState.seq` handed out. */
  private textSeq = 0;

  /** The workspace's table definitions (tables/), when the front end built them; analyses are cached per generation. */
  tables?: TableIndex;

  constructor(private readonly log: (message: string) => void = () => undefined) {}

  /** Extraction + rules for a document version under the given settings (cached per uri + version + settings). */
  analyze(doc: TextDocument, settings: DynalintSettings): Analysis {
    const step = this.begin(doc, settings);
    return 'finish' in step ? step.finish() : step;
  }

  /**
   * The same in two steps with one event-loop turn between extraction and rules, so a lint that a newer version has
   * made useless stops early: undefined when `stillCurrent()` says so after extraction.
   */
  async analyzeUnlessSuperseded(doc: TextDocument, settings: DynalintSettings, stillCurrent: () => boolean): Promise<Analysis | undefined> {
    const step = this.begin(doc, settings);
    if (!('finish' in step)) return step;
    await new Promise((resolve) => setImmediate(resolve));
    return stillCurrent() ? step.finish() : undefined;
  }

  /** A cached analysis, or the extraction done and the rules left to `finish`. */
  private begin(doc: TextDocument, settings: DynalintSettings): Analysis | { finish: () => Analysis } {
    const key = `${doc.version}\u0000${this.tables?.generation ?? -1}\u0000${JSON.stringify(settings)}`;
    const hit = this.cache.get(doc.uri);
    if (hit && hit.key === key) return hit.analysis;
    let t0 = performance.now();
    const text = doc.getText();
    const languageId = resolveLanguageId(doc.languageId, doc.uri);
    const analysis: Analysis = { uri: doc.uri, version: doc.version, text, languageId, sites: [], findings: [], durationMs: 0 };
    const fail = (e: unknown) => {
      this.forgetExtractor(doc.uri);
      this.log(`lint failed for ${doc.uri} v${doc.version}: ${(e as Error)?.stack ?? String(e)}`);
    };
    const language = languageId === doc.languageId ? languageId || '""' : `${languageId} (the client sent "${doc.languageId}")`;
    if (!settings.enable) analysis.skipped = 'disabled by dynalint.enable';
    else if (!settings.languages.includes(languageId)) analysis.skipped = `language ${language} is not in dynalint.languages`;
    else {
      try {
        const state = this.extractorFor(doc.uri, languageId, settings.maxFileSize);
        const span = state.rules.edited(state.text, text);
        state.lastEdit = state.text === undefined ? undefined : { fromSeq: state.seq, to: text, span };
        state.text = text;
        state.seq = ++this.textSeq;
        // The changed span, found once: the extractor would otherwise compare the texts again.
        const res = state.extractor.update(text, span && [{ start: span.start, end: span.oldEnd, text: text.slice(span.start, span.newEnd) }]);
        analysis.skipped = res.skipped;
        analysis.notLinted = res.notLinted;
        analysis.sites = res.sites;
      } catch (e) {
        fail(e);
      }
    }
    const extractMs = performance.now() - t0;
    const lintable = settings.enable && settings.languages.includes(languageId) && !analysis.skipped;
    return {
      finish: () => {
        t0 = performance.now();
        if (lintable) {
          try {
            // Definitions in this document the table index could not read: findings of its own lint (table-definition).
            const definitionProblems = this.tables?.problems(doc.uri).map((p) => ({ message: p.message, range: { start: doc.offsetAt(p.location.range.start), end: doc.offsetAt(p.location.range.end) } }));
            analysis.findings = this.rules(text, languageId, analysis.sites, settings, this.extractors.get(doc.uri)?.rules, definitionProblems);
          } catch (e) {
            fail(e);
          }
        }
        if (analysis.skipped && analysis.skipped !== hit?.analysis.skipped) this.log(`skipped ${doc.uri}: ${analysis.skipped}`);
        const regions = analysis.notLinted?.map((r) => r.reason).join('; ');
        if (regions && regions !== hit?.analysis.notLinted?.map((r) => r.reason).join('; ')) this.log(`not linted in ${doc.uri}: ${regions}`);
        analysis.durationMs = extractMs + performance.now() - t0;
        this.cache.set(doc.uri, { key, analysis });
        return analysis;
      },
    };
  }

  /** `cache`: the document's rule cache, only for the sites its own extractor returned (never a fix-all re-lint). */
  private rules(text: string, languageId: string, sites: RequestSite[], settings: DynalintSettings, cache?: RuleCache, definitionProblems?: DefinitionProblemAt[]): Finding[] {
    return runRules(text, languageId, sites, { settingsRules: settings.rules, log: this.log, tables: this.tables, cache, definitionProblems });
  }

  /** One incremental extractor per open document (re-parses only around the edit), with its rule cache. */
  private extractorFor(uri: string, languageId: string, maxFileSize: number): ExtractorState {
    const cur = this.extractors.get(uri);
    if (cur && cur.languageId === languageId && cur.maxFileSize === maxFileSize) return cur;
    cur?.extractor.dispose();
    const extractor = createDocumentExtractor(languageId, { maxFileSize });
    const state: ExtractorState = { languageId, maxFileSize, extractor, text: undefined, seq: ++this.textSeq, lastEdit: undefined, rules: new RuleCache() };
    this.extractors.set(uri, state);
    return state;
  }

  private forgetExtractor(uri: string): void {
    this.extractors.get(uri)?.extractor.dispose();
    this.extractors.delete(uri);
  }

  /** What the service holds per document (analyses, extractors, sites with cached rule results): for `dynalint/stats`. */
  stats(): { analyses: number; extractors: number; cachedSites: number } {
    let cachedSites = 0;
    for (const e of this.extractors.values()) cachedSites += e.rules.size;
    return { analyses: this.cache.size, extractors: this.extractors.size, cachedSites };
  }

  /** What the last lint of a document did with its rule cache (tests, bench). */
  ruleCacheStats(uri: string): RuleCacheStats | undefined {
    return this.extractors.get(uri)?.rules.stats;
  }

  /** Drop a closed document's cached analysis and parse tree. */
  forget(uri: string): void {
    this.cache.delete(uri);
    this.published.delete(uri);
    this.forgetExtractor(uri);
  }

  /**
   * The LSP diagnostics of a document version: `toDiagnostic` of each finding, except that a finding equal to one of
   * the document's previous diagnostics (same rule, severity, message, fixes and related texts, offsets moved by the
   * edit between the two texts) is carried over: its LSP positions before the edit are the same, those on lines after
   * the edit's last line move by the edit's line delta (character unchanged), only those on the edited lines are asked
   * of the document again; sub-objects nothing changed in are shared with the previous diagnostic, the diagnostic and
   * its `data` (which names this version) are new. Equal to a fresh conversion (test/unit/service-diagnostics.test.ts).
   * `analysis`: this version's analysis under these settings, when the caller has it (the server's lint) at hand.
   */
  diagnostics(doc: TextDocument, settings: DynalintSettings, analysis?: Analysis): Diagnostic[] {
    const a = analysis ?? this.analyze(doc, settings);
    const positions = new Positions(doc);
    const prev = this.published.get(doc.uri);
    if (prev && prev.findings === a.findings && prev.version === doc.version && prev.text === a.text) return prev.diagnostics.slice();
    let out: Diagnostic[] | undefined;
    // The findings' offsets, kept for the next version (recorded by the carry as it reads each finding).
    let offsets: number[] = [];
    let at: number[] = new Array<number>(a.findings.length);
    if (prev)
      try {
        out = this.carried(doc, a, prev, positions, offsets, at);
      } catch (e) {
        // Never worse than converting afresh.
        this.log(`carrying diagnostics failed for ${doc.uri} v${doc.version}: ${(e as Error)?.stack ?? String(e)}`);
      }
    if (!out) {
      out = a.findings.map((f) => this.toDiagnostic(doc, f, positions));
      offsets = [];
      at = new Array<number>(a.findings.length);
      for (let i = 0; i < a.findings.length; i++) {
        at[i] = offsets.length;
        pushOffsets(a.findings[i], offsets);
      }
    }
    const st = this.extractors.get(doc.uri);
    this.published.set(doc.uri, { version: doc.version, text: a.text, seq: st && st.text === a.text ? st.seq : -1, lineCount: doc.lineCount, findings: a.findings, diagnostics: out, offsets, at });
    return out;
  }

  /** `diagnostics` from the previous ones (see there). */
  private carried(doc: TextDocument, a: Analysis, prev: Published, positions: Positions, newOffsets: number[], newAt: number[]): Diagnostic[] {
    const findings = a.findings;
    const text = a.text;
    let span: Span;
    const e = this.extractors.get(doc.uri)?.lastEdit;
    // The extractor's own span when it went from the previous diagnostics' text to this one (known by the texts'
    // numbers: no comparison), else the texts compared.
    if (e && e.span && e.to === text && prev.seq >= 0 && e.fromSeq === prev.seq) span = e.span;
    else if (prev.text === text) span = { start: text.length, oldEnd: text.length, newEnd: text.length };
    else span = changedSpan(prev.text, text);
    const diff = span.newEnd - span.oldEnd;
    const dl = doc.lineCount - prev.lineCount;
    // The line of the edit's end in the old text (the lines after it are the same lines, moved by dl).
    const oldEndLine = positions.positionAt(span.newEnd).line - dl;
    /** The old offset of a new one outside the edit, else -1. */
    const back = (o: number) => (o < span.start ? o : o >= span.newEnd ? o - diff : -1);
    const pos = (o: number, old: Position): Position =>
      o < span.start ? old : old.line > oldEndLine ? (dl === 0 ? old : { line: old.line + dl, character: old.character }) : positions.positionAt(o);
    const range = (r: Range, old: LspRange): LspRange => {
      const start = pos(r.start, old.start);
      const end = pos(r.end, old.end);
      return start === old.start && end === old.end ? old : { start, end };
    };
    const olds = prev.findings;
    const { offsets, at } = prev;
    const oldDiagnostics = prev.diagnostics;
    const out: Diagnostic[] = new Array<Diagnostic>(findings.length);
    let j = 0;
    for (let i = 0; i < findings.length; i++) {
      const f = findings[i];
      const s0 = back(f.range.start);
      let d: Diagnostic | undefined;
      if (s0 >= 0) {
        while (j < olds.length && offsets[at[j]] < s0) j++;
        for (let k = j; k < olds.length && offsets[at[k]] === s0; k++) {
          const g = olds[k];
          if (!sameFinding(f, g, offsets, at[k], back)) continue;
          const old = oldDiagnostics[k];
          const fixes = f.fixes ?? [];
          // Without fixes, `data` is not read (its rule id is the finding's, its fixes none: one shared frozen empty list).
          const data = fixes.length ? (old.data as DiagnosticData) : undefined;
          let lspFixes = data ? data.fixes : NO_FIXES;
          for (let x = 0; x < fixes.length; x++) {
            const was = data!.fixes[x];
            let edits = was.edits;
            for (let y = 0; y < fixes[x].edits.length; y++) {
              const r = range(fixes[x].edits[y].range, was.edits[y].range);
              if (r === was.edits[y].range) continue;
              if (edits === was.edits) edits = edits.slice();
              edits[y] = { range: r, newText: was.edits[y].newText };
            }
            if (edits === was.edits) continue;
            if (lspFixes === data!.fixes) lspFixes = lspFixes.slice();
            lspFixes[x] = { title: was.title, safe: was.safe, preferred: was.preferred, edits };
          }
          d = {
            range: range(f.range, old.range),
            severity: old.severity,
            code: old.code,
            codeDescription: old.codeDescription,
            source: old.source,
            message: old.message,
            data: { ruleId: f.ruleId, version: doc.version, fixes: lspFixes } satisfies DiagnosticData,
          };
          if (old.tags) d.tags = old.tags;
          const related = f.related;
          if (related?.length) {
            const was = old.relatedInformation!;
            let info = was;
            for (let x = 0; x < related.length; x++) {
              const r = range(related[x].range, was[x].location.range);
              if (r === was[x].location.range) continue;
              if (info === was) info = info.slice();
              info[x] = { location: { uri: was[x].location.uri, range: r }, message: was[x].message };
            }
            d.relatedInformation = info;
          }
          break;
        }
      }
      out[i] = d ?? this.toDiagnostic(doc, f, positions);
      newAt[i] = newOffsets.length;
      pushOffsets(f, newOffsets);
    }
    return out;
  }

  /** `positions`: a cursor over `doc` (`Positions`) when converting many findings in order. */
  toDiagnostic(doc: TextDocument, f: Finding, positions: PositionSource = doc): Diagnostic {
    const data: DiagnosticData = {
      ruleId: f.ruleId,
      version: doc.version,
      fixes: (f.fixes ?? []).map((x) => ({ title: x.title, safe: x.safe, preferred: x.preferred, edits: lspEdits(positions, x.edits) })),
    };
    const d: Diagnostic = {
      range: lspRange(positions, f.range),
      severity: SEVERITY[f.severity],
      code: f.ruleId,
      codeDescription: { href: docsUrl(f.ruleId) },
      source: DIAGNOSTIC_SOURCE,
      message: f.message,
      data,
    };
    if (f.unnecessary) d.tags = [DiagnosticTag.Unnecessary];
    if (f.related?.length) d.relatedInformation = f.related.map((r) => ({ location: { uri: doc.uri, range: lspRange(positions, r.range) }, message: r.message }));
    if (f.elsewhere?.length) d.relatedInformation = [...(d.relatedInformation ?? []), ...f.elsewhere.map((r) => ({ location: { uri: r.uri, range: r.range }, message: r.message }))];
    return d;
  }

  /** Quick fixes and "disable for this line" for findings touching `range`; fix-all when asked for or unfiltered. */
  codeActions(doc: TextDocument, settings: DynalintSettings, range: LspRange, only?: string[]): CodeAction[] {
    const a = this.analyze(doc, settings);
    const start = doc.offsetAt(range.start);
    const end = doc.offsetAt(range.end);
    const out: CodeAction[] = [];
    const edit = (edits: TextEdit[]) => ({ changes: { [doc.uri]: lspEdits(doc, edits) } });
    if (kindWanted(CodeActionKind.QuickFix, only)) {
      const disabled = new Set<string>();
      // An editor's auto-fix applies the preferred action only when exactly one is preferred: where findings overlap
      // (e.g. set-without-if-not-exists and decrement-without-floor on one SET), the most severe finding's keeps it.
      const rank: Record<string, number> = { error: 0, warning: 1, info: 2, hint: 3 };
      const here = a.findings.filter((f) => !(f.range.start > end || f.range.end < start));
      const bySeverity = [...here].sort((x, y) => (rank[x.severity] ?? 4) - (rank[y.severity] ?? 4));
      const preferredRanges: { start: number; end: number }[] = [];
      const keepsPreference = new Set<Finding>();
      for (const f of bySeverity) {
        if (!f.fixes?.some((x) => x.preferred && x.edits.length)) continue;
        if (preferredRanges.some((r) => r.start < f.range.end && f.range.start < r.end)) continue;
        preferredRanges.push(f.range);
        keepsPreference.add(f);
      }
      // The same fix (e.g. one placeholder rewrite for every reserved word of a request) is offered once.
      const offeredActions = new Map<string, CodeAction>();
      for (const f of here) {
        const diagnostic = this.toDiagnostic(doc, f);
        for (const fix of f.fixes ?? []) {
          const id = JSON.stringify([fix.title, fix.edits]);
          const isPreferred = !!fix.preferred && keepsPreference.has(f);
          const earlier = offeredActions.get(id);
          if (earlier) {
            // The same fix offered first by a finding that does not keep the preference: the keeper's copy is this one.
            if (isPreferred) earlier.isPreferred = true;
            continue;
          }
          if (!fix.edits.length) continue;
          const action: CodeAction = { title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred, edit: edit(fix.edits) };
          offeredActions.set(id, action);
          out.push(action);
        }
        // One action per comment it would write: findings of a rule in one multi-line string share their comment.
        const disable = disableNextLineEdit(a.text, a.languageId, f.range.start, f.ruleId, a.sites);
        if (!disable || disabled.has(`${disable.range.start}:${f.ruleId}`)) continue;
        disabled.add(`${disable.range.start}:${f.ruleId}`);
        out.push({ title: `Disable ${f.ruleId} for this line`, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: edit([disable]) });
      }
    }
    if (kindWanted(FIX_ALL_KIND, only)) {
      const fixed = this.fixAll(doc, settings);
      if (fixed) out.push({ title: 'Fix all auto-fixable Dynalint problems', kind: FIX_ALL_KIND, edit: { changes: { [doc.uri]: [fixed] } } });
    }
    return out;
  }

  /** The single edit applying every safe fix of the document (re-linting between passes), if any applies. */
  fixAll(doc: TextDocument, settings: DynalintSettings): LspTextEdit | undefined {
    const a = this.analyze(doc, settings);
    if (!a.findings.some((f) => f.fixes?.some((x) => x.safe))) return undefined;
    const relint = (text: string) => {
      const res = extract(text, a.languageId, { maxFileSize: settings.maxFileSize });
      return res.skipped ? [] : this.rules(text, a.languageId, res.sites, settings);
    };
    const result = fixAll(a.text, a.findings, relint);
    if (result.text === a.text) return undefined;
    const e = minimalEdit(a.text, result.text);
    return { range: lspRange(doc, e.range), newText: e.newText };
  }

  completion(doc: TextDocument, settings: DynalintSettings, position: Position): CompletionItem[] {
    const a = this.analyze(doc, settings);
    const offset = doc.offsetAt(position);
    for (const site of a.sites) {
      if (!within(site.range, offset)) continue;
      const tableItems = this.tables ? tableCompletions(this.tables, operationsOf(site), offset) : undefined;
      if (tableItems) return tableItems.map((c) => ({ label: c.label, kind: c.kind === 'index' ? CompletionItemKind.Reference : CompletionItemKind.Field, detail: c.detail }));
      for (const op of operationsOf(site)) {
        for (const e of expressionsOf(op)) {
          const i = indexAt(e.node, offset);
          if (i >= 0) return this.expressionCompletion(doc, e, i);
        }
        const items = this.mapKeyCompletion(doc, a.text, site, op, offset);
        if (items) return items;
      }
    }
    return [];
  }

  private expressionCompletion(doc: TextDocument, e: ExpressionString, index: number): CompletionItem[] {
    const ctx = cursorContext(e.node.value, e.kind, index);
    const r = lspRange(doc, stringRange(e.node, ctx.word.start, index));
    const items: CompletionItem[] = [];
    const add = (label: string, kind: CompletionItemKind, detail: string, extra: Partial<CompletionItem> = {}) =>
      items.push({ label, kind, detail, textEdit: { range: r, newText: label }, sortText: `${kind === CompletionItemKind.Variable ? 0 : kind === CompletionItemKind.Field ? 1 : 2}${label}`, ...extra });
    const names = asObject(prop(e.op.params, 'ExpressionAttributeNames'));
    const values = asObject(prop(e.op.params, 'ExpressionAttributeValues'));
    const nameItems = () => {
      for (const p of names?.properties ?? []) {
        const mapped = p.value.kind === 'string' ? p.value.value : undefined;
        add(p.key, CompletionItemKind.Variable, mapped !== undefined ? `#name → ${mapped}` : '#name', { filterText: p.key });
      }
    };
    if (ctx.placeholder === 'name' || ctx.segment) {
      nameItems();
      return items;
    }
    const valueItems = () => {
      for (const p of values?.properties ?? []) add(p.key, CompletionItemKind.Variable, ':value = ' + doc.getText(lspRange(doc, p.value.range)).slice(0, 60));
    };
    if (ctx.placeholder === 'value') {
      valueItems();
      return items;
    }
    for (const w of WORDS) {
      if (!w.kinds.includes(e.kind) || !ctx.expect.has(w.position)) continue;
      if (w.position === 'clause' && ctx.usedClauses.has(w.name)) continue;
      const documentation = { kind: MarkupKind.Markdown, value: wordMarkdown(w, e.kind) };
      if (w.type === 'function')
        add(w.name, CompletionItemKind.Function, w.signature, {
          documentation,
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: { range: r, newText: functionSnippet(w) },
        });
      else add(w.name, CompletionItemKind.Keyword, w.signature, { documentation });
    }
    if (ctx.expect.has('path')) {
      nameItems();
      const mappedBy = new Map<string, string>();
      for (const p of names?.properties ?? []) if (p.value.kind === 'string') mappedBy.set(p.value.value, p.key);
      const attrs = new Set([...objectKeys(asObject(prop(e.op.params, 'Key'))), ...objectKeys(asObject(prop(e.op.params, 'Item')))]);
      for (const name of attrs) {
        if (BARE_NAME.test(name) && !isReservedWord(name)) add(name, CompletionItemKind.Field, 'attribute of this request');
        else if (mappedBy.has(name)) add(name, CompletionItemKind.Field, `attribute (via ${mappedBy.get(name)})`, { textEdit: { range: r, newText: mappedBy.get(name)! } });
      }
    }
    if (ctx.expect.has('valueRef')) valueItems();
    return items;
  }

  /** Keys for a names/values map whose placeholders the expressions use but the map does not define yet. */
  private mapKeyCompletion(doc: TextDocument, text: string, site: RequestSite, op: Operation, offset: number): CompletionItem[] | undefined {
    for (const [field, sigil] of [['ExpressionAttributeValues', ':'], ['ExpressionAttributeNames', '#']] as const) {
      const map = asObject(propEntry(op.params, field)?.value);
      if (!map || offset <= map.range.start || offset >= map.range.end) continue;
      if (map.properties.some((p) => p.value.range.start <= offset && offset <= p.value.range.end && !within(p.keyRange, offset))) return [];
      const defined = new Set(map.properties.map((p) => p.key));
      const word = wordAt(text, offset);
      const quoted = word.start > 0 && (text[word.start - 1] === '"' || text[word.start - 1] === "'");
      const q = quoteOf(text, site);
      const r = lspRange(doc, { start: word.start, end: word.end });
      return usedPlaceholders(op, sigil)
        .filter((k) => !defined.has(k) || k === word.text)
        .map((k) => {
          const value = sigil === '#' ? `${q}${k.slice(1)}${q}` : '$1';
          return {
            label: k,
            kind: CompletionItemKind.Property,
            detail: `used in the expressions, not defined in ${field}`,
            insertTextFormat: quoted ? InsertTextFormat.PlainText : InsertTextFormat.Snippet,
            textEdit: { range: r, newText: quoted ? k : `${q}${k}${q}: ${value}` },
          };
        });
    }
    return undefined;
  }

  hover(doc: TextDocument, settings: DynalintSettings, position: Position): Hover | null {
    const a = this.analyze(doc, settings);
    const offset = doc.offsetAt(position);
    for (const site of a.sites) {
      if (!within(site.range, offset)) continue;
      const table = this.tables ? tableAt(this.tables, operationsOf(site), offset) : undefined;
      if (table) return { contents: { kind: MarkupKind.Markdown, value: matchMarkdown(table) }, range: lspRange(doc, table.range) };
      if (within(site.nameRange, offset) || this.onOperationKey(site, offset)) {
        const value = costHover(site, settings, this.tables);
        if (value) return { contents: { kind: MarkupKind.Markdown, value } };
      }
      for (const op of operationsOf(site))
        for (const e of expressionsOf(op)) {
          const i = indexAt(e.node, offset);
          if (i < 0) continue;
          return this.expressionHover(doc, e, i);
        }
    }
    return null;
  }

  /** Is the offset on a key that names the operation: `TransactItems` or an expression field of any operation? */
  private onOperationKey(site: RequestSite, offset: number): boolean {
    const keys = [propEntry(site.params, 'TransactItems'), ...operationsOf(site).flatMap((op) => Object.keys(EXPRESSION_FIELDS).map((f) => propEntry(op.params, f)))];
    return keys.some((p) => p && within(p.keyRange, offset));
  }

  private expressionHover(doc: TextDocument, e: ExpressionString, index: number): Hover | null {
    const expr = e.node.value;
    let w = wordAt(expr, index);
    if (!w.text && index > 0) w = wordAt(expr, index - 1);
    if (!/[A-Za-z0-9_]/.test(w.text)) return null;
    const range = lspRange(doc, stringRange(e.node, w.start, w.end));
    const md = (value: string): Hover => ({ contents: { kind: MarkupKind.Markdown, value }, range });
    if (w.text.startsWith('#') || w.text.startsWith(':')) {
      const field = w.text.startsWith('#') ? 'ExpressionAttributeNames' : 'ExpressionAttributeValues';
      const entry = asObject(prop(e.op.params, field))?.properties.find((p) => p.key === w.text);
      // The placeholder and its value are the document's text: a code span and a fence nothing in them can close.
      if (!entry) return md(`${codeSpan(w.text)} is not defined in \`${field}\`.`);
      return md(`${codeSpan(w.text)} (${field})\n\n${fence(doc.getText(lspRange(doc, entry.value.range)).slice(0, 400))}`);
    }
    const info = wordInfo(w.text);
    if (!info) return null;
    const isCall = /^\s*\(/.test(expr.slice(w.end));
    if ((info.type === 'function') !== isCall) return null;
    return md(wordMarkdown(info, e.kind));
  }

  /** Go to definition from a request's table name to the table's definition(s). */
  definition(doc: TextDocument, settings: DynalintSettings, position: Position): { uri: string; range: LspRange }[] {
    if (!this.tables) return [];
    const a = this.analyze(doc, settings);
    const offset = doc.offsetAt(position);
    const site = a.sites.find((s) => within(s.range, offset));
    return site ? definitionsAt(this.tables, operationsOf(site), offset).map((l) => ({ uri: l.uri, range: l.range })) : [];
  }

  codeLenses(doc: TextDocument, settings: DynalintSettings): CodeLens[] {
    const a = this.analyze(doc, settings);
    return lensTargets(a.sites, this.tables).map((t) => ({
      range: lspRange(doc, t.range),
      command: { title: t.title, command: Commands.reconcile, arguments: [t.args] },
    }));
  }
}
