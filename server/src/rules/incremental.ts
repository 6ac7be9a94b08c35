/**
 * Incremental rule results (issue 11). A document extractor hands back the same site object for a statement an edit
 * did not touch, its offsets moved in place; the findings of site-local rules (`Rule.site`) for such a site are the
 * ones of the last run, moved the same way. One `RuleCache` per open document keeps them per site object, with the
 * lines they were read from (`windows`): the site's own lines, its request objects' lines and the line of every offset
 * a finding mentions (a range in a constant, a fix's insertion point). An entry is reused only when no edit since it
 * was computed touched one of those lines; its offsets then move as the extractor moved the site's (`o >= oldEnd`
 * shifts by the length change: the extractor's own rule for offsets outside the edited statements). A site rule that
 * asks who else uses source outside its request (`ctx.shared().sharers`: the reserved-word fix of a constant or a
 * dict outside the call) depends on the other sites through that answer only: the entry keeps the answers and is
 * reused while the document's `TrackedSource` (shared.ts) says they still hold. A site rule that reads `ctx.sites`
 * otherwise is recomputed on every run. Document-level rules (separate-child-and-counter-writes,
 * set-without-if-not-exists's `dropIf`, suppressions) run afresh each time.
 */
import type { Range, RequestSite } from '../extract/model';
import { operations } from './analysis';
import { pythonImport } from './fixes';
import { SharedHistory, type SharedSource, type SharersAnswer, type TrackedSource, movedFix } from './shared';
import type { Rule, RuleContext, SiteFinding, TextEdit } from './types';

/** One edit between two texts: `[start, oldEnd)` of the old text became `[start, newEnd)`. */
export interface Span {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * The one span that differs between two texts: common prefix and suffix, exactly as the document extractor finds it
 * when it is given no changes (extract/index.ts), so our offsets move as its sites did.
 */
export function changedSpan(oldText: string, newText: string): Span {
  const max = Math.min(oldText.length, newText.length);
  // Whole blocks first (string comparison runs natively), then character by character inside the first that differs.
  let start = 0;
  while (start + BLOCK <= max && oldText.substring(start, start + BLOCK) === newText.substring(start, start + BLOCK)) start += BLOCK;
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let suffix = 0;
  const room = max - start;
  while (suffix + BLOCK <= room && oldText.substring(oldText.length - suffix - BLOCK, oldText.length - suffix) === newText.substring(newText.length - suffix - BLOCK, newText.length - suffix)) suffix += BLOCK;
  while (suffix < room && oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)) suffix++;
  return { start, oldEnd: oldText.length - suffix, newEnd: newText.length - suffix };
}

const BLOCK = 1024;

/** Lines a cached result was read from: offsets of the first line's start and the last line's end (inclusive). */
export interface Window {
  start: number;
  end: number;
}

export interface SiteEntry {
  /** The site's findings, per rule that has any (its index in the run's site rules), in current offsets. */
  findings: [number, SiteFinding[]][];
  windows: Window[];
  /** The largest offset the findings mention (-1 without findings): an edit after it leaves them as they are. */
  last: number;
  /** The run that last handed this site back (entries of sites not handed back are dropped after each run). */
  run: number;
  /** The first window's start and the last window's end: most edits lie wholly before or after them. */
  lo: number;
  hi: number;
  /** The shared-source answers the findings were built from (reused only while each still holds). */
  deps?: SharersAnswer[];
}

/** What the last run did, for tests and the bench. */
export interface RuleCacheStats {
  /** Sites whose findings were computed / reused from the previous run. */
  computed: number;
  reused: number;
  /** Computed sites not kept (they read other sites, or a rule failed). */
  volatile: number;
  /** Reused sites whose findings depend on shared-source answers (each checked again). */
  dependent: number;
}

export class RuleCache {
  private key: string | undefined;
  private entries = new Map<RequestSite, SiteEntry>();
  private spans: Span[] = [];
  private runs = 0;
  private readonly history = new SharedHistory();
  private current?: TrackedSource;
  readonly stats: RuleCacheStats = { computed: 0, reused: 0, volatile: 0, dependent: 0 };

  /**
   * The document's text went from `oldText` to `newText` (every text its extractor saw, linted or not), or was
   * extracted afresh (`oldText` undefined: nothing cached survives). Returns the span that changed, which the caller
   * hands to the extractor as its change (the same span it would find by comparing the texts itself).
   */
  edited(oldText: string | undefined, newText: string): Span | undefined {
    if (oldText === undefined) {
      this.clear();
      return undefined;
    }
    if (oldText === newText) return undefined;
    const span = changedSpan(oldText, newText);
    this.spans.push(span);
    return span;
  }

  clear(): void {
    this.entries = new Map();
    this.spans = [];
    this.key = undefined;
    this.history.clear();
    this.current = undefined;
  }

  /**
   * The shared-source answers of the last `results` run, for the document-level steps of the same lint (fix
   * consistency): carried over from the lint before where exact.
   */
  get shared(): TrackedSource | undefined {
    return this.current;
  }

  /** Sites with cached results (for `dynalint/stats` and tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Per rule of `rules` (all site rules), its findings over the sites in order: reused where the cache allows,
   * computed otherwise. `failed` receives the ids of rules that threw (their findings are then dropped by the caller,
   * as when `check` throws); `timings` (optional) accumulates ms per rule id.
   */
  results(
    rules: readonly Rule[],
    ctx: RuleContext & { languageId: string },
    failed: Map<string, unknown>,
    timings?: Map<string, number>,
  ): SiteFinding[][] {
    const { text, sites } = ctx;
    const key = documentKey(rules, ctx);
    if (key === undefined || key !== this.key) {
      this.entries = new Map();
      this.key = key;
    }
    const spans = this.spans;
    this.spans = [];
    const shared = (this.current = this.history.begin(sites, (start, end) => movedRange(start, end, spans)));
    const stats = this.stats;
    stats.computed = stats.reused = stats.volatile = stats.dependent = 0;
    // Entries are updated in place (most sites come back): marked with this run, the others dropped at the end.
    const entries = this.entries;
    const run = ++this.runs;
    const out: SiteFinding[][] = rules.map(() => []);
    const emit = (found: [number, SiteFinding[]][]) => {
      for (const [k, list] of found) for (const f of list) out[k].push(f);
    };
    for (const site of sites) {
      const old = entries.get(site);
      if (old && key !== undefined && moved(old, spans) && (!old.deps || old.deps.every((d) => shared.still(d)))) {
        stats.reused++;
        if (old.deps) stats.dependent++;
        old.run = run;
        emit(old.findings);
        continue;
      }
      let volatile = key === undefined;
      const deps: SharersAnswer[] = [];
      // Who else uses source outside the request: the answers are kept with the findings (checked on reuse).
      const tracked: SharedSource = {
        sharers(op) {
          const a = shared.answer(op);
          deps.push(a);
          return a.users;
        },
        usersOf(range) {
          volatile = true;
          return shared.usersOf(range);
        },
      };
      const siteCtx: RuleContext = {
        text,
        tables: ctx.tables,
        options: ctx.options,
        get sites() {
          volatile = true;
          return sites;
        },
        shared: () => tracked,
      };
      const findings: [number, SiteFinding[]][] = [];
      rules.forEach((rule, k) => {
        const t0 = timings ? performance.now() : 0;
        try {
          const found = rule.site!(siteCtx, site);
          // Copied: a rule may hand out a node's own Range object, which the extractor moves in place on the next edit.
          if (found.length) findings.push([k, found.map(snapshot)]);
        } catch (e) {
          if (!failed.has(rule.id)) failed.set(rule.id, e);
          volatile = true;
        } finally {
          if (timings) timings.set(rule.id, (timings.get(rule.id) ?? 0) + performance.now() - t0);
        }
      });
      stats.computed++;
      if (volatile) stats.volatile++;
      else {
        const windows = windowsOf(text, site, findings);
        const entry: SiteEntry = { findings, windows, last: lastOffset(findings), run, ...bounds(windows) };
        if (deps.length) entry.deps = deps;
        entries.set(site, entry);
      }
      emit(findings);
    }
    for (const [site, entry] of entries) if (entry.run !== run) entries.delete(site);
    return out;
  }
}

/**
 * What every cached result depends on besides its site: the rules run, the table definitions' generation and, in
 * Python, how `Decimal` is imported (a fix writing a number names it, or adds the import after the last import line).
 * Undefined: nothing may be cached (a table lookup without a generation).
 */
function documentKey(rules: readonly Rule[], ctx: RuleContext & { languageId: string }): string | undefined {
  const tables = ctx.tables;
  if (tables && tables.generation === undefined) return undefined;
  let key = `${ctx.languageId}\u0000${tables ? tables.generation : -1}\u0000${rules.map((r) => r.id).join(',')}`;
  if (ctx.languageId === 'python') {
    const t = ctx.text;
    const from = /^\s*from\s+decimal\s+import\s+[^\n]*\bDecimal\b/m.test(t);
    const plain = /^\s*import\s+decimal\b/m.test(t);
    const at = pythonImport(t, '').range.start;
    key += `\u0000${from}${plain}${at}`;
  }
  return key;
}

/**
 * Move a cached entry through the edits since its run: false when one touched its lines (then it is recomputed).
 * Its findings are replaced by moved copies (the previous run's objects, handed out already, are never changed).
 * Exported for its property test (test/unit/rules/rule-cache.test.ts: the same as moving window by window).
 */
export function moved(entry: SiteEntry, spans: readonly Span[]): boolean {
  for (const span of spans) {
    const diff = span.newEnd - span.oldEnd;
    // Every window ends before the edit: none touched, none moves.
    if (span.start > entry.hi) continue;
    if (span.oldEnd < entry.lo) {
      // Every window starts after the edit: none touched, all move.
      if (diff === 0) continue;
      for (const w of entry.windows) {
        w.start += diff;
        w.end += diff;
      }
      entry.lo += diff;
      entry.hi += diff;
    } else {
      let after = false;
      for (const w of entry.windows) {
        if (span.start <= w.end && span.oldEnd >= w.start) return false;
        if (w.start >= span.oldEnd) after = true;
      }
      if (diff === 0 || !after) continue;
      for (const w of entry.windows) {
        if (w.start >= span.oldEnd) {
          w.start += diff;
          w.end += diff;
        }
      }
      Object.assign(entry, bounds(entry.windows));
    }
    // Findings about text before the edit (a shared constant at the top of the file) stay the same objects.
    if (entry.last < span.oldEnd) continue;
    entry.findings = entry.findings.map(([k, list]) => [k, list.map((f) => shiftFinding(f, span.oldEnd, diff))]);
    entry.last += diff;
  }
  return true;
}

/**
 * A range's offsets after the edits (each moving what lies after it), or undefined when one came within a character
 * of it (the shared-source answers about it are then not carried over).
 */
function movedRange(start: number, end: number, spans: readonly Span[]): { start: number; end: number } | undefined {
  for (const span of spans) {
    if (end < span.start - 1) continue;
    if (start <= span.oldEnd + 1) return undefined;
    const diff = span.newEnd - span.oldEnd;
    start += diff;
    end += diff;
  }
  return { start, end };
}

export function bounds(windows: readonly Window[]): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const w of windows) {
    lo = Math.min(lo, w.start);
    hi = Math.max(hi, w.end);
  }
  return { lo, hi };
}

/** The largest offset findings mention (ranges, related ranges, fix edits); -1 for none. */
function lastOffset(findings: [number, SiteFinding[]][]): number {
  let m = -1;
  for (const [, list] of findings)
    for (const f of list) {
      m = Math.max(m, f.range.end);
      for (const x of f.related ?? []) m = Math.max(m, x.range.end);
      for (const fix of f.fixes ?? []) for (const e of fix.edits) m = Math.max(m, e.range.end);
    }
  return m;
}

/** A finding with ranges of its own (shared with nothing the extractor moves). */
function snapshot(f: SiteFinding): SiteFinding {
  const r = (x: Range): Range => ({ start: x.start, end: x.end });
  const out: SiteFinding = { ...f, range: r(f.range) };
  if (f.related) out.related = f.related.map((x) => ({ ...x, range: r(x.range) }));
  if (f.fixes) out.fixes = f.fixes.map((x) => ({ ...x, edits: x.edits.map((e: TextEdit) => ({ ...e, range: r(e.range) })) }));
  return out;
}

function shiftFinding(f: SiteFinding, from: number, diff: number): SiteFinding {
  const r = (x: Range): Range => (x.start >= from || x.end >= from ? { start: x.start >= from ? x.start + diff : x.start, end: x.end >= from ? x.end + diff : x.end } : x);
  const out: SiteFinding = { ...f, range: r(f.range) };
  if (f.related) out.related = f.related.map((x) => ({ ...x, range: r(x.range) }));
  if (f.fixes)
    out.fixes = f.fixes.map((x) => {
      const moved = { ...x, edits: x.edits.map((e: TextEdit) => ({ ...e, range: r(e.range) })) };
      movedFix(moved, x);
      return moved;
    });
  return out;
}

/** The lines a site's findings were read from (see the file comment). */
function windowsOf(text: string, site: RequestSite, findings: [number, SiteFinding[]][]): Window[] {
  const base: Range[] = [site.range];
  for (const op of operations(site)) if (!base.some((b) => b.start <= op.params.range.start && op.params.range.end <= b.end)) base.push(op.params.range);
  const ranges = [...base];
  const inBase = (o: number) => base.some((b) => b.start <= o && o <= b.end);
  const point = (o: number) => {
    if (!inBase(o)) ranges.push({ start: o, end: o });
  };
  const add = (x: Range) => {
    point(x.start);
    point(x.end);
  };
  for (const [, list] of findings)
    for (const f of list) {
      add(f.range);
      for (const x of f.related ?? []) add(x.range);
      for (const fix of f.fixes ?? []) for (const e of fix.edits) add(e.range);
    }
  return ranges.map((x) => {
    const start = x.start > 0 ? text.lastIndexOf('\n', x.start - 1) + 1 : 0;
    const nl = text.indexOf('\n', x.end);
    return { start, end: nl < 0 ? text.length : nl };
  });
}
