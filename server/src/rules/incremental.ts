/**
 * Incremental rule results (issue 11). A document extractor hands back the same site object for a statement an edit
 * did not touch, its offsets moved in place; the findings of site-local rules (`Rule.site`) for such a site are the
 * ones of the last run, moved the same way. One `RuleCache` per open document keeps them per site object, with the
 * lines they were read from (`windows`): the site's own lines, its request objects' lines and the line of every offset
 * a finding mentions (a range in a constant, a fix's insertion point). An entry is reused only when no edit since it
 * was computed touched one of those lines; its offsets then move as the extractor moved the site's (`o >= oldEnd`
 * shifts by the length change: the extractor's own rule for offsets outside the edited statements): the windows in
 * place, the findings lazily (the moves are recorded per entry, a move and the one undoing it cancel out, and a finding
 * is copied with its offsets moved only when it is handed out; one handed out is never changed). A finding that repeats
 * one already handed out this run (same rule, range and message: a constant shared by many requests) or that the
 * rule's `dropIf` drops is not handed out, so the copies of a shared finding are neither moved nor asked. A site rule that
 * asks who else uses source outside its request (`ctx.shared().sharers`: the reserved-word fix of a constant or a
 * dict outside the call) depends on the other sites through that answer only: the entry keeps the answers and is
 * reused while the document's `TrackedSource` (shared.ts) says they still hold. A site rule that reads `ctx.sites`
 * otherwise is recomputed on every run. Every site of the last run keeps an entry (a volatile one to be recomputed),
 * so the sites new since and the ones gone are known without a set of all sites (`siteChange`, for the shared-source
 * answers and set-without-if-not-exists's Put index, which is then built from the previous one). Document-level rules
 * (separate-child-and-counter-writes, set-without-if-not-exists's `dropIf`, suppressions) run each time, on what
 * changed where they can: the suppression directives' offsets are kept from text to text (`edited`), only the lines an
 * edit touched read again.
 *
 * The per-run walk follows what the edit touched, not the file: the sites are walked side by side with the last run's,
 * and each position's window bounds, the largest gap between its windows, the moves not yet applied to it and its
 * flags (volatile, findings, shared-source answers, dropped) and `repeatOf` are kept by position in a `Float64Array`
 * (`STRIDE`, `movedAt`, `sync`) and an array beside it. An edit before, after or inside the gap of an entry's windows
 * (the lines between a site and a constant at the top it reports on) is applied to those numbers alone; the entry
 * object is read only when the edit reached its windows, or when it hands out findings (`emit`: its windows and
 * findings are then moved, `sync`). Entries without findings, and those whose every finding repeats one handed out
 * before (`repeatOf`, one list shared by equal ones, `allSeen` asked once a run for it), are not read at all. The
 * hand-out loop visits only the positions the first loop listed (`todo`: recomputed or new sites, reused entries with
 * findings or shared-source answers; `stats.visited`); positions handed back in step with the last run take their
 * moves in the last run's buffer and are copied over as blocks.
 */
import type { Range, RequestSite } from '../extract/model';
import type { Operation } from '../extract/operations';
import { operations } from './analysis';
import { pythonImport } from './fixes';
import { SharedHistory, type SharedSource, type SharersAnswer, type TrackedSource, movedFix } from './shared';
import { type Suppression, directiveOffsets, suppressionsAt } from './suppression';
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
  // Whole blocks first (string comparison runs natively), growing while they agree (a 10 MB text: a few dozen
  // comparisons, not 10,000 pairs of 1 KB substrings), shrinking to the first that differs; then character by character.
  let start = 0;
  for (let b = BLOCK; b >= BLOCK; ) {
    if (start + b <= max && oldText.substring(start, start + b) === newText.substring(start, start + b)) {
      start += b;
      b *= 2;
    } else b >>= 1;
  }
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let suffix = 0;
  const room = max - start;
  for (let b = BLOCK; b >= BLOCK; ) {
    if (suffix + b <= room && oldText.substring(oldText.length - suffix - b, oldText.length - suffix) === newText.substring(newText.length - suffix - b, newText.length - suffix)) {
      suffix += b;
      b *= 2;
    } else b >>= 1;
  }
  while (suffix < room && oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)) suffix++;
  return { start, oldEnd: oldText.length - suffix, newEnd: newText.length - suffix };
}

const BLOCK = 256;

/** Lines a cached result was read from: offsets of the first line's start and the last line's end (inclusive). */
export interface Window {
  start: number;
  end: number;
}

export interface SiteEntry {
  /**
   * The site's findings, per rule that has any (its index in the run's site rules): in current offsets once `pending`
   * is applied (`settle`, when one is handed out; findings handed out are never changed, moved ones are new objects).
   */
  findings: [number, SiteFinding[]][];
  windows: Window[];
  /**
   * A move of every window not yet applied to `windows` (an edit wholly before the entry moves them all alike: only
   * `lo`/`hi` and this are changed then, the windows read again only when an edit comes between `lo` and `hi`;
   * `currentWindows`). Undefined is 0.
   */
  wshift?: number;
  /** The largest offset the findings mention (-1 without findings): an edit after it leaves them as they are. */
  last: number;
  /** The smallest offset the findings mention (when known): an edit before it moves them all alike. */
  first?: number;
  /**
   * Moves not yet applied to `findings`, in order, as flat pairs (offsets from `from` on move by `diff`; `from` is
   * -Infinity for a move of every offset). A move undone by the next (a character typed, then deleted) cancels out.
   */
  pending?: number[];
  /** Not to be reused (a volatile site, or results of other rules or tables): kept to know the site was linted. */
  volatile?: boolean;
  /** Whether the entry survived the edits of this run (`moved`, asked once per run). */
  ok?: boolean;
  /** The run that last handed this site back (entries of sites not handed back are dropped after each run). */
  run: number;
  /** The first window's start and the last window's end: most edits lie wholly before or after them. */
  lo: number;
  hi: number;
  /** The shared-source answers the findings were built from (reused only while each still holds). */
  deps?: SharersAnswer[];
  /**
   * The findings' `unless` (for the rule's `dropIf`), parallel to `findings` (per pair, per finding), when any has one:
   * kept apart so that a finding handed out is in its final form (`Finalize`: severity set, no `unless`).
   */
  unless?: (unknown[] | undefined)[];
  /** Whether one of the entry's rules gave two findings with one start offset (then repeats are looked for inside it). */
  dup?: boolean;
  /**
   * The smallest and largest start offset of the findings, in their offsets (`pending` not applied; Infinity and
   * -Infinity without findings): an entry whose findings all start after every finding handed out before is handed
   * out whole, its findings not looked at one by one.
   */
  smin?: number;
  smax?: number;
  /** Each rule's findings in order (start, then end). */
  sorted?: boolean;
  /** Whether a finding has fixes. */
  fixes?: boolean;
  /**
   * The `dropIf` tokens of the run that asked `dropIf` of every finding of this entry and dropped them all (each
   * finding's rule gave a token): while the next run's tokens are those same objects, the answers are the same and
   * the entry hands out nothing, not asked again. Undefined otherwise.
   */
  dropped?: unknown[];
  /**
   * When every finding of this entry, in the run that last looked into it, repeated one handed out before it (found
   * in the repeat map): those, as flat pairs (repeat-map key, the finding object). While the repeat map holds each of
   * those same objects again, every finding is a repeat again and the entry is not looked into (the 228 users of the
   * bench file's shared constant repeat its one finding at every keystroke). Exact: a finding handed out is never
   * changed, so the same object handed out again still lies where it did then in offsets of the current text; this
   * entry was reused at every run since (a recomputed site gets a new entry), its findings moved by the same edits
   * (pending or not), so each still lies where its original does, with the same rule and message.
   */
  repeatOf?: Memo;
}

/**
 * A rule's `dropIf` token (`RuleCache.results`' `dropToken`): an object standing for everything its `dropIf` answers
 * depend on besides the finding's `unless`, the same object only while every answer would be the same
 * (set-without-if-not-exists: the document's Put index, kept while no Put came or went).
 */
export interface DropIfToken {
  dropIfToken?(ctx: RuleContext): object | undefined;
}

/** The token of a rule without one: entries with its findings are never marked `dropped`. */
const NO_TOKEN = {};

/** What a run handed out, for run.ts (which then skips the steps with nothing to do). */
export interface ResultsInfo {
  /** Every rule's list in order (start, then end): the sites' findings came in order, each site's in order. */
  sorted: boolean;
  /** Whether a finding handed out has fixes. */
  fixes: boolean;
}

/**
 * Findings are kept and handed out in their final form (run.ts: the severity resolved for the rule, `unless` left
 * out): `apply` is asked once per finding computed, and everything cached is dropped when `key` (the severities)
 * changes.
 */
export interface Finalize {
  key: string;
  apply(k: number, f: SiteFinding): SiteFinding;
}

/**
 * How a document's sites differ from the ones of the run before through the same rule cache: the sites new since
 * (re-extracted) and the ones that went. The others are the same objects, their contents unchanged (offsets moved).
 */
export interface SiteChange {
  prev: readonly RequestSite[];
  fresh: readonly RequestSite[];
  gone: readonly RequestSite[];
}

const changes = new WeakMap<readonly RequestSite[], SiteChange>();

/**
 * How `sites` differ from the sites linted before them (when both went through one rule cache), for document-level
 * steps that keep something per site (set-without-if-not-exists's Put index).
 */
export function siteChange(sites: readonly RequestSite[]): SiteChange | undefined {
  return changes.get(sites);
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
  /**
   * Reused sites with findings that handed out none without their findings being looked at: each one a repeat of a
   * finding handed out before, as in the last run (`SiteEntry.repeatOf`), or all dropped by `dropIf` under the same
   * tokens (`SiteEntry.dropped`).
   */
  unasked: number;
  /**
   * Positions the hand-out loop looked at: the sites computed and the reused ones with findings or shared-source
   * answers (a reused site with neither hands out and asks nothing: counted as reused, not visited).
   */
  visited: number;
}

export class RuleCache {
  private key: string | undefined;
  private entries = new Map<RequestSite, SiteEntry>();
  private spans: Span[] = [];
  private runs = 0;
  private ruleIds?: { rules: Rule[]; ids: string };
  /** The sites of the last run. */
  private lastSites?: readonly RequestSite[];
  /** The entry of each of `lastSites`, in order (set once the last run handed them all out). */
  private lastEntries?: (SiteEntry | undefined)[];
  /** The list of `lastEntries` before the last run's, reused for the next run's. */
  private spareOlds?: (SiteEntry | undefined)[];
  /** The `dropIf` tokens of the last run, per rule (see `SiteEntry.dropped`). */
  private lastTokens?: unknown[];
  /**
   * The walk's state of each of `lastEntries`, by position (`STRIDE` numbers each, see `movedAt`): kept apart from
   * the entries so that the per-run walk reads one contiguous array for the entries an edit did not reach, not ~1,000
   * objects spread over the heap. Valid while `lastEntries` is set (the entries' own bounds are then stale); written
   * back into the entries when it is not. Two buffers, one per run in turn.
   */
  private state?: Float64Array;
  private spare?: Float64Array;
  /** Each position's `SiteEntry.repeatOf` (kept with `state`: read without reading the entry). */
  private reps: (Memo | undefined)[] = [];
  private spareReps: (Memo | undefined)[] = [];
  private taken = new Uint8Array(0);
  /** The positions a run's hand-out loop visits (see `results`). */
  private todo = new Int32Array(0);
  /** How many of the last run's sites (distinct) are one of several alternatives (`alternatives`). */
  private alts?: number;
  private oks = new Uint8Array(0);
  private readonly history = new SharedHistory();
  /** Offsets of the suppression directives of a text (`directiveOffsets`), moved through the edits. */
  private directives?: { text: string; offsets: number[] };
  private current?: TrackedSource;
  /** About the last `results` run's lists (see `ResultsInfo`). */
  readonly info: ResultsInfo = { sorted: false, fixes: true };
  readonly stats: RuleCacheStats = { computed: 0, reused: 0, volatile: 0, dependent: 0, unasked: 0, visited: 0 };

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
    const d = this.directives;
    if (oldText === newText) {
      if (d?.text === oldText) d.text = newText;
      return undefined;
    }
    const span = changedSpan(oldText, newText);
    this.spans.push(span);
    this.directives = d?.text === oldText ? movedDirectives(d.offsets, oldText, newText, span) : undefined;
    return span;
  }

  /**
   * The suppression comments of `text` (`parseSuppressions`' answer): the directives' offsets are kept from text to
   * text, only the lines an edit touched read again (a directive is read from its own line alone).
   */
  suppressions(text: string, languageId: string): Suppression[] {
    let d = this.directives;
    if (d?.text !== text) d = this.directives = { text, offsets: directiveOffsets(text) };
    return suppressionsAt(text, languageId, d.offsets);
  }

  clear(): void {
    this.entries = new Map();
    this.spans = [];
    this.key = undefined;
    this.history.clear();
    this.current = undefined;
    this.directives = undefined;
    this.lastSites = undefined;
    this.lastEntries = undefined;
    this.spareOlds = undefined;
    this.lastTokens = undefined;
    this.state = this.spare = undefined;
    this.reps = [];
    this.spareReps = [];
    this.alts = undefined;
  }

  /**
   * How many of the sites of the last `results` run (distinct) are one of several alternatives (`alternative.count >
   * 1`): none, and the alternatives step of the fixes has nothing to do (run.ts). Carried from run to run through the
   * sites that came and went (a site handed back is the same object, its contents unchanged).
   */
  get alternatives(): number {
    return this.alts ?? 0;
  }

  /**
   * The shared-source answers of the last `results` run, for the document-level steps of the same lint (fix
   * consistency): carried over from the lint before where exact.
   */
  get shared(): TrackedSource | undefined {
    return this.current;
  }

  /** The ids of the rules run, joined (the same rules as last time give the same string, not joined again). */
  private idsOf(rules: readonly Rule[]): string {
    const last = this.ruleIds;
    if (last && last.rules.length === rules.length && last.rules.every((r, i) => r === rules[i])) return last.ids;
    this.ruleIds = { rules: [...rules], ids: rules.map((r) => r.id).join(',') };
    return this.ruleIds.ids;
  }

  /** Sites with cached results (for `dynalint/stats` and tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Per rule of `rules` (all site rules), its findings over the sites in order: reused where the cache allows,
   * computed otherwise; without the ones `dropIf` (the rule's, asked with `unless`) drops and without repeats of one
   * finding (the same rule, range and message: only the first is kept, as the caller's dedupe would). `failed`
   * receives the ids of rules that threw (their findings are then dropped by the caller, as when `check` throws);
   * `timings` (optional) accumulates ms per rule id.
   */
  results(
    rules: readonly Rule[],
    ctx: RuleContext & { languageId: string },
    failed: Map<string, unknown>,
    timings?: Map<string, number>,
    dropIf?: (k: number, unless: unknown) => boolean,
    finalize?: Finalize,
    dropToken?: (k: number) => object | undefined,
  ): SiteFinding[][] {
    const { text, sites } = ctx;
    let key = documentKey(this.idsOf(rules), ctx);
    if (key !== undefined && finalize) key += `\u0000${finalize.key}`;
    const entries = this.entries;
    // Nothing cached is reused (the entries still tell which sites the last run had).
    let allVolatile = false;
    if (key === undefined || key !== this.key) {
      for (const e of entries.values()) e.volatile = true;
      allVolatile = true;
      this.key = key;
    }
    const spans = this.spans;
    this.spans = [];
    const run = ++this.runs;
    // Which sites the last run had (an entry each) and which are new; the entries moved through the edits once.
    // The sites come mostly in the order of the last run's: walked side by side with them (their entries and their
    // state in order, no lookup, the entry itself not read unless the edit reached it: `movedAt`); a site out of step is
    // looked up, and the last run's sites skipped to find it again (a few ahead) are the ones that may have gone.
    // Each position's entry (every position written below), in the list of the run before last (not allocated anew).
    let olds = this.spareOlds;
    this.spareOlds = undefined;
    if (olds === undefined) olds = new Array<SiteEntry | undefined>(sites.length);
    else olds.length = sites.length;
    const fresh: RequestSite[] = [];
    let kept = 0;
    const last = this.lastSites;
    const lastEntries = this.lastEntries;
    const prev = this.state;
    const walk = last !== undefined && lastEntries !== undefined && lastEntries.length === last.length && prev !== undefined && prev.length >= last.length * STRIDE;
    // This run's state by position (in the buffer the run before last used), whether each position's entry is reused,
    // and which of the last run's positions were handed back.
    let st = this.spare;
    if (st === undefined || st === prev || st.length < sites.length * STRIDE) st = new Float64Array(Math.max(16, sites.length + (sites.length >> 3)) * STRIDE);
    const prevReps = this.reps;
    const reps = this.spareReps;
    reps.length = sites.length;
    let oks = this.oks;
    if (oks.length < sites.length) oks = this.oks = new Uint8Array(sites.length + (sites.length >> 3));
    let taken = this.taken;
    if (walk) {
      if (taken.length < last.length) taken = this.taken = new Uint8Array(last.length + (last.length >> 3));
      else taken.fill(0, 0, last.length);
    }
    let posOf: Map<RequestSite, number> | undefined;
    let li = 0;
    // The positions the hand-out loop below must visit (in order): every one but those reused without findings or
    // shared-source answers (most: they hand out nothing and ask nothing; counted as reused, not visited again).
    let todo = this.todo;
    if (todo.length < sites.length) todo = this.todo = new Int32Array(sites.length + (sites.length >> 3));
    let nt = 0;
    let quiet = 0;
    // A run of positions handed back in step with the last run's (`i - runI === p - runP`): their state is moved in
    // the last run's buffer (`movedAt` there: each of its positions is taken once) and copied over as one block.
    let runI = 0;
    let runP = 0;
    let runN = 0;
    for (let i = 0; i < sites.length; i++) {
      const site = sites[i];
      const o = i * STRIDE;
      if (walk && li < last.length && last[li] === site) {
        const p = li++;
        const e = lastEntries[p];
        const q = p * STRIDE;
        taken[p] = 1;
        kept++;
        reps[i] = prevReps[p];
        const ok = !allVolatile && !(prev[q + S_FL] & F_VOLATILE) && movedAt(prev, q, e!, spans);
        oks[i] = ok ? 1 : 0;
        olds[i] = e;
        if (runN && i === runI + runN && p === runP + runN) runN++;
        else {
          if (runN) st.set(prev.subarray(runP * STRIDE, (runP + runN) * STRIDE), runI * STRIDE);
          runI = i;
          runP = p;
          runN = 1;
        }
        if (ok && !(prev[q + S_FL] & (F_FINDINGS | F_DEPS))) quiet++;
        else todo[nt++] = i;
        continue;
      }
      const e = entries.get(site);
      olds[i] = e;
      if (e === undefined) {
        fresh.push(site);
        todo[nt++] = i;
        continue;
      }
      if (walk) {
        let p = -1;
        for (let ahead = 1; ahead <= 8 && li + ahead < last.length; ahead++)
          if (last[li + ahead] === site) {
            p = li + ahead;
            li += ahead + 1;
            break;
          }
        if (p < 0) p = (posOf ??= new Map(last.map((s, x) => [s, x]))).get(site) ?? -1;
        if (p < 0) {
          // Not among the last run's sites (never, while the entries are those of the last run): recomputed.
          loadState(st, o, e);
          reps[i] = e.repeatOf;
          oks[i] = 0;
        } else if (!taken[p]) {
          taken[p] = 1;
          kept++;
          for (let x = 0, q = p * STRIDE; x < STRIDE; x++) st[o + x] = prev[q + x];
          reps[i] = prevReps[p];
          oks[i] = !allVolatile && !(st[o + S_FL] & F_VOLATILE) && movedAt(st, o, e, spans) ? 1 : 0;
        } else {
          // The site came twice: the state of its first position (the entry moved once, its moves applied: each
          // position's state then has none pending, not to be applied twice). That position's state copied first.
          if (runN) st.set(prev.subarray(runP * STRIDE, (runP + runN) * STRIDE), runI * STRIDE);
          runN = 0;
          const j = olds.indexOf(e);
          sync(st, j * STRIDE, e);
          st.copyWithin(o, j * STRIDE, j * STRIDE + STRIDE);
          reps[i] = reps[j];
          oks[i] = oks[j];
        }
      } else {
        // The entries' own fields hold their state (no state by position from the last run).
        if (e.run !== run) {
          e.run = run;
          e.ok = !e.volatile && moved(e, spans);
          kept++;
        }
        loadState(st, o, e);
        reps[i] = e.repeatOf;
        oks[i] = e.ok ? 1 : 0;
      }
      if (oks[i] && !(st[o + S_FL] & (F_FINDINGS | F_DEPS))) quiet++;
      else todo[nt++] = i;
    }
    if (runN) st.set(prev!.subarray(runP * STRIDE, (runP + runN) * STRIDE), runI * STRIDE);
    // The sites of the last run not handed back (dropped at the end of this one).
    const gone: RequestSite[] = [];
    if (entries.size !== kept) {
      // The last run's positions not handed back, in order: when they are as many as the entries not handed back, they
      // are those; otherwise every entry is asked (each entry handed back marked first).
      if (walk) for (let x = 0; x < last.length; x++) if (!taken[x]) gone.push(last[x]);
      if (gone.length !== entries.size - kept) {
        gone.length = 0;
        for (const e of olds) if (e) e.run = run;
        for (const [site, e] of entries) if (e.run !== run) gone.push(site);
      }
    }
    if (this.lastSites && this.lastSites !== sites) {
      // One generation only: the previous sites' own change (and through it every earlier version) is let go.
      changes.delete(this.lastSites);
      changes.set(sites, { prev: this.lastSites, fresh, gone });
    }
    let alts = this.alts;
    if (alts === undefined || this.lastSites === undefined) alts = countAlternatives(sites);
    else if (fresh.length || gone.length) {
      for (const s of gone) if (s.alternative && s.alternative.count > 1) alts--;
      alts += countAlternatives(fresh);
    }
    this.alts = alts;
    this.lastSites = sites;
    this.lastEntries = undefined;
    this.spare = prev;
    this.state = st;
    this.spareReps = prevReps;
    this.reps = reps;
    const freshSet = fresh.length ? new Set(fresh) : undefined;
    let goneSet: Set<RequestSite> | undefined;
    const has = (s: RequestSite) => freshSet?.has(s) === true || (entries.has(s) && !(goneSet ??= new Set(gone)).has(s));
    const shared = (this.current = this.history.begin(sites, (start, end) => movedRange(start, end, spans), { has, fresh, gone }));
    const stats = this.stats;
    stats.computed = stats.reused = stats.volatile = stats.dependent = stats.unasked = 0;
    const out: SiteFinding[][] = rules.map(() => []);
    // Findings handed out, by rule and start offset (one number: start * rules + rule), the first one alone, more in an
    // array: a repeat (same rule, range, message) is left out. Built only once a finding starts at or before the
    // largest start handed out by an entry before (`fast` until then): before that, a repeat can only be one of the
    // same entry's (looked for among its rule's findings handed out from this entry, `base`). Sites whose findings
    // lie in their own lines, in order (most documents), never need the map.
    const seen = new Map<number, SiteFinding | SiteFinding[]>();
    const width = rules.length;
    let fast = true;
    let maxStart = -Infinity;
    const index = () => {
      fast = false;
      for (let k = 0; k < out.length; k++)
        for (const f of out[k]) {
          const key = f.range.start * width + k;
          const at = seen.get(key);
          if (at === undefined) seen.set(key, f);
          else if (Array.isArray(at)) at.push(f);
          else seen.set(key, [at, f]);
        }
    };
    const info = this.info;
    info.sorted = true;
    info.fixes = false;
    // Per rule, the token its `dropIf` answers stand for this run (asked once, before the first answer): an entry whose
    // findings were all dropped in the last run is skipped while every rule's token is the last run's.
    const tokens = new Array<unknown>(width);
    let filled = false;
    const fill = () => {
      filled = true;
      for (let k = 0; k < width; k++) {
        try {
          tokens[k] = dropToken?.(k) ?? NO_TOKEN;
        } catch {
          tokens[k] = {};
        }
      }
    };
    const lastTokens = this.lastTokens;
    this.lastTokens = tokens;
    let sameTokens: boolean | undefined;
    const unchangedDrops = () => {
      if (sameTokens === undefined) {
        if (!filled) fill();
        sameTokens = lastTokens !== undefined && lastTokens.length === width;
        for (let k = 0; k < width && sameTokens; k++) if (tokens[k] !== lastTokens![k]) sameTokens = false;
      }
      return sameTokens;
    };
    // The last `repeatOf` made this run (an equal one is shared: `allSeen` is then asked once per run for all) and the
    // last one found all seen (true for the rest of the run: the repeat map only grows).
    let lastMemo: Memo | undefined;
    let seenMemo: Memo | undefined;
    const emit = (entry: SiteEntry, n: number) => {
      const o = n * STRIDE;
      sync(st, o, entry);
      if (fast && entry.unless === undefined && !entry.dup) {
        // No repeat possible (no two findings of a rule start alike): once its findings are moved, the entry is handed
        // out whole when they all start after every finding handed out before.
        if (entry.pending) settle(entry);
        if (entry.smin! > maxStart) {
          const fs = entry.findings;
          for (let j = 0; j < fs.length; j++) {
            const list = fs[j][1];
            const mine = out[fs[j][0]];
            for (let i = 0; i < list.length; i++) mine.push(list[i]);
          }
          if (!entry.sorted) info.sorted = false;
          if (entry.fixes) info.fixes = true;
          if (entry.smax! > maxStart) maxStart = entry.smax!;
          // Handed out whole: nothing of this run says the entry is a repeat or dropped (review: a stale mark was
          // harmless, its object reappearing only with its own entry, but it must not need that argument).
          entry.dropped = entry.repeatOf = undefined;
          reps[n] = undefined;
          st[o + S_FL] = st[o + S_FL] & ~F_DROPPED;
          return;
        }
      }
      let entryMax = -Infinity;
      if (!entry.sorted) info.sorted = false;
      // Whether every finding was asked of `dropIf` and dropped, each rule with a token (then marked `dropped`).
      let allDropped = entry.unless !== undefined && dropIf !== undefined;
      if (allDropped && !filled) fill();
      // The findings this entry's repeat (see `SiteEntry.repeatOf`), while every one so far is a repeat.
      let allRepeats = true;
      let repeatOf: (number | SiteFinding)[] | undefined;
      for (let j = 0; j < entry.findings.length; j++) {
        const k = entry.findings[j][0];
        const mine = out[k];
        const base = mine.length;
        const unless = entry.unless?.[j];
        for (let i = 0; i < entry.findings[j][1].length; i++) {
          let f = entry.findings[j][1][i];
          const p = entry.pending;
          const start = p ? movedOffset(f.range.start, p) : f.range.start;
          const end = p ? movedOffset(f.range.end, p) : f.range.end;
          if (fast && start <= maxStart) {
            index();
            info.sorted = false;
          }
          const key = start * width + k;
          let at: SiteFinding | SiteFinding[] | undefined;
          if (fast) {
            if (entry.dup && repeatsIn(mine, base, start, end, f)) {
              allDropped = false;
              allRepeats = false;
              continue;
            }
          } else {
            at = seen.get(key);
            const g = at !== undefined ? repeated(at, end, f) : undefined;
            if (g !== undefined) {
              allDropped = false;
              if (allRepeats) (repeatOf ??= []).push(key, g);
              continue;
            }
          }
          allRepeats = false;
          const u = unless?.[i];
          if (u !== undefined && dropIf) {
            try {
              if (dropIf(k, u)) {
                if (tokens[k] === NO_TOKEN) allDropped = false;
                continue;
              }
            } catch (e) {
              if (!failed.has(rules[k].id)) failed.set(rules[k].id, e);
              allDropped = false;
              continue;
            }
          }
          allDropped = false;
          if (p) {
            settle(entry);
            f = entry.findings[j][1][i];
          }
          if (f.fixes?.length) info.fixes = true;
          if (fast) {
            if (start > entryMax) entryMax = start;
          } else if (at === undefined) seen.set(key, f);
          else if (Array.isArray(at)) at.push(f);
          else seen.set(key, [at, f]);
          mine.push(f);
        }
      }
      if (entryMax > maxStart) maxStart = entryMax;
      entry.dropped = allDropped ? tokens : undefined;
      if (allRepeats && repeatOf !== undefined && lastMemo !== undefined && sameMemo(repeatOf, lastMemo)) repeatOf = lastMemo;
      entry.repeatOf = reps[n] = allRepeats ? repeatOf : undefined;
      if (entry.repeatOf) lastMemo = entry.repeatOf;
      st[o + S_FL] = allDropped ? st[o + S_FL] | F_DROPPED : st[o + S_FL] & ~F_DROPPED;
    };
    stats.reused = quiet;
    stats.visited = nt;
    for (let t = 0; t < nt; t++) {
      const n = todo[t];
      const site = sites[n];
      const old = olds[n];
      // The entry itself is read only when it has findings or shared-source answers (its flags in the state).
      const flags = old !== undefined && oks[n] ? st[n * STRIDE + S_FL] : 0;
      if (old !== undefined && oks[n] && (!(flags & F_DEPS) || old.deps!.every((d) => shared.still(d)))) {
        stats.reused++;
        if (flags & F_DEPS) stats.dependent++;
        if (!(flags & F_FINDINGS)) continue;
        // Every finding dropped in the last run, and every dropIf answer the same now: nothing to hand out.
        if (flags & F_DROPPED && old.dropped !== undefined && old.dropped === lastTokens && unchangedDrops()) {
          old.dropped = tokens;
          stats.unasked++;
          continue;
        }
        // Every finding a repeat of one handed out before, as in the last run: nothing to hand out (the entry not read).
        const memo = reps[n];
        if (memo !== undefined && !fast && (memo === seenMemo || allSeen(memo, seen))) {
          seenMemo = memo;
          stats.unasked++;
        } else emit(old, n);
        continue;
      }
      const siteCtx = new SiteContext(text, ctx.tables, ctx.options, sites, shared, key === undefined);
      const findings: [number, SiteFinding[]][] = [];
      let unless: (unknown[] | undefined)[] | undefined;
      let dup = false;
      let sorted = true;
      rules.forEach((rule, k) => {
        const t0 = timings ? performance.now() : 0;
        try {
          const found = rule.site!(siteCtx, site);
          if (!found.length) return;
          // Copied: a rule may hand out a node's own Range object, which the extractor moves in place on the next edit.
          const list = new Array<SiteFinding>(found.length);
          let u: unknown[] | undefined;
          for (let i = 0; i < found.length; i++) {
            const f = found[i];
            if (f.unless !== undefined) (u ??= new Array<unknown>(found.length))[i] = f.unless;
            list[i] = finalize ? finalize.apply(k, snapshot(f)) : snapshot(f);
            for (let x = 0; x < i && !dup; x++) if (found[x].range.start === f.range.start) dup = true;
          }
          if (u) (unless ??= [])[findings.length] = u;
          findings.push([k, list]);
          for (let i = 1; i < list.length && sorted; i++) {
            const a = list[i - 1].range;
            const b = list[i].range;
            if (a.start > b.start || (a.start === b.start && a.end > b.end)) sorted = false;
          }
        } catch (e) {
          if (!failed.has(rule.id)) failed.set(rule.id, e);
          siteCtx.volatile = true;
        } finally {
          if (timings) timings.set(rule.id, (timings.get(rule.id) ?? 0) + performance.now() - t0);
        }
      });
      stats.computed++;
      let entry: SiteEntry;
      const deps = siteCtx.deps;
      if (siteCtx.volatile) {
        stats.volatile++;
        entry = newEntry(findings, [], -1, undefined, run, Infinity, -Infinity, undefined, true, unless, dup, sorted);
      } else {
        const windows = windowsOf(text, site, findings);
        const { lo, hi } = bounds(windows);
        entry = newEntry(findings, windows, lastOffset(findings), firstOffset(findings), run, lo, hi, deps.length ? deps : undefined, false, unless, dup, sorted);
      }
      entries.set(site, entry);
      olds[n] = entry;
      loadState(st, n * STRIDE, entry);
      reps[n] = undefined;
      emit(entry, n);
    }
    // Entries of sites not handed back this time (usually those of the re-extracted statement) are dropped.
    for (const site of gone) entries.delete(site);
    // Each entry now the map's for its site, unless a site came twice (then its map entry may be the other's).
    this.lastEntries = entries.size === sites.length ? olds : undefined;
    this.spareOlds = lastEntries;
    // Without the entries by position, the next run reads each entry's own fields: the state written back into them.
    if (this.lastEntries === undefined) {
      const done = new Set<SiteEntry>();
      for (let n = 0; n < sites.length; n++) {
        const e = olds[n];
        if (e === undefined || done.has(e)) continue;
        done.add(e);
        sync(st, n * STRIDE, e);
      }
      this.state = undefined;
    }
    return out;
  }
}

/**
 * A site rule's context in `RuleCache.results`: reading `sites` makes the site volatile (recomputed every run), as does
 * asking `usersOf`; who shares the request's outside source (`sharers`) is answered from the run's `TrackedSource` and
 * the answers kept (`deps`: the entry is reused while they hold). A class, not an object literal with a getter (which
 * the runtime builds property by property at every computed site, the rules then reading it through slow lookups).
 */
class SiteContext implements RuleContext, SharedSource {
  deps: SharersAnswer[] = [];
  constructor(
    readonly text: string,
    readonly tables: RuleContext['tables'],
    readonly options: RuleContext['options'],
    private readonly all: RequestSite[],
    private readonly source: TrackedSource,
    public volatile: boolean,
  ) {}

  get sites(): RequestSite[] {
    this.volatile = true;
    return this.all;
  }

  shared(): SharedSource {
    return this;
  }

  sharers(op: Operation): Operation[] {
    const a = this.source.answer(op);
    this.deps.push(a);
    return a.users;
  }

  usersOf(range: Range): Operation[] {
    this.volatile = true;
    return this.source.usersOf(range);
  }
}

/** An entry with every field set, in one order (one object shape for all: the per-run loops read them fast). */
function newEntry(
  findings: SiteEntry['findings'],
  windows: Window[],
  last: number,
  first: number | undefined,
  run: number,
  lo: number,
  hi: number,
  deps: SharersAnswer[] | undefined,
  volatile: boolean,
  unless: SiteEntry['unless'],
  dup: boolean,
  sorted: boolean,
): SiteEntry {
  if (!findings.length) findings = NO_FINDINGS;
  const entry: SiteEntry = { findings, windows, wshift: 0, last, first, pending: undefined, volatile, ok: false, run, lo, hi, deps, unless, dup, smin: Infinity, smax: -Infinity, sorted, fixes: false, dropped: undefined, repeatOf: undefined };
  starts(entry);
  for (const [, list] of findings) for (const f of list) if (f.fixes?.length) entry.fixes = true;
  return entry;
}

/** The entry's `smin` and `smax` from its findings. */
function starts(entry: SiteEntry): void {
  let lo = Infinity;
  let hi = -Infinity;
  for (const [, list] of entry.findings)
    for (const f of list) {
      if (f.range.start < lo) lo = f.range.start;
      if (f.range.start > hi) hi = f.range.start;
    }
  entry.smin = lo;
  entry.smax = hi;
}

/**
 * What every cached result depends on besides its site: the rules run, the table definitions' generation and, in
 * Python, how `Decimal` is imported (a fix writing a number names it, or adds the import after the last import line).
 * Undefined: nothing may be cached (a table lookup without a generation).
 */
function documentKey(ruleIds: string, ctx: RuleContext & { languageId: string }): string | undefined {
  const tables = ctx.tables;
  if (tables && tables.generation === undefined) return undefined;
  let key = `${ctx.languageId}\u0000${tables ? tables.generation : -1}\u0000${ruleIds}`;
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
 * Its findings' moves are recorded (`pending`), applied when one is handed out (`settle`: as new objects; the previous
 * run's, handed out already, are never changed). Exported for its property test (test/unit/rules/rule-cache.test.ts:
 * the same as moving window by window).
 */
export function moved(entry: SiteEntry, spans: readonly Span[]): boolean {
  for (const span of spans) {
    const diff = span.newEnd - span.oldEnd;
    // Every window ends before the edit: none touched, none moves.
    if (span.start > entry.hi) continue;
    if (span.oldEnd < entry.lo) {
      // Every window starts after the edit: none touched, all move.
      if (diff === 0) continue;
      // The windows themselves are moved when next read (most entries lie after the edit: ~450 of the shapes file's
      // 925 at every keystroke, each window an object of its own).
      entry.wshift = (entry.wshift ?? 0) + diff;
      entry.lo += diff;
      entry.hi += diff;
    } else {
      let after = false;
      for (const w of currentWindows(entry)) {
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
      const b = bounds(entry.windows);
      entry.lo = b.lo;
      entry.hi = b.hi;
    }
    // Findings about text before the edit (a shared constant at the top of the file) stay the same objects.
    if (entry.last < span.oldEnd) continue;
    moveFindings(entry, span.oldEnd, diff);
  }
  return true;
}

/** Record a move of the entry's findings by an edit that ended at `oldEnd` (some lie at or after it). */
function moveFindings(entry: SiteEntry, oldEnd: number, diff: number): void {
  const all = entry.first !== undefined && entry.first >= oldEnd;
  defer(entry, all ? -Infinity : oldEnd, diff);
  entry.last += diff;
  if (all) entry.first! += diff;
}

/**
 * The walk's state of an entry, `STRIDE` numbers at `o` of a `Float64Array` (`RuleCache.state`): its windows' bounds
 * (`lo`, `hi`), the largest gap between them (`a`: the largest end of the windows before it, `b`: the smallest start
 * of those after it; `hi` and Infinity without a gap), the moves not yet applied to the entry (`ws` of every window
 * and finding, `us` of those after the gap: a window starting after `a` once `ws` is applied) and flags (`F_VOLATILE`,
 * `F_FINDINGS`, `F_DEPS`, `F_DROPPED`); one slot unused. While the state is kept, the entry's own `lo`, `hi`, `wshift`
 * and, when `ws` or `us` is set, windows and findings are stale (`sync` applies the moves, as `moved` would have).
 */
export const STRIDE = 8;
const S_LO = 0;
const S_A = 1;
const S_B = 2;
const S_HI = 3;
const S_WS = 4;
const S_US = 5;
const S_FL = 7;
const F_VOLATILE = 1;
const F_FINDINGS = 2;
const F_DEPS = 4;
const F_DROPPED = 8;

/** How many distinct sites of `sites` are one of several alternatives. */
function countAlternatives(sites: readonly RequestSite[]): number {
  let one: RequestSite | undefined;
  let more: Set<RequestSite> | undefined;
  for (const s of sites) {
    if (!s.alternative || s.alternative.count <= 1 || s === one) continue;
    if (one === undefined) one = s;
    else (more ??= new Set([one])).add(s);
  }
  return more ? more.size : one ? 1 : 0;
}

/** A `SiteEntry.repeatOf`. */
type Memo = (number | SiteFinding)[];

function sameMemo(a: Memo, b: Memo): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The state of an entry from its own fields (see `STRIDE`). */
export function loadState(st: Float64Array, o: number, entry: SiteEntry): void {
  // The findings are in current offsets (their moves recorded): so are the windows then (no move pending in the state).
  const windows = currentWindows(entry);
  st[o + S_LO] = entry.lo;
  st[o + S_HI] = entry.hi;
  st[o + S_WS] = 0;
  st[o + S_US] = 0;
  st[o + 6] = 0;
  st[o + S_FL] = (entry.volatile ? F_VOLATILE : 0) | (entry.findings.length ? F_FINDINGS : 0) | (entry.deps ? F_DEPS : 0) | (entry.dropped !== undefined ? F_DROPPED : 0);
  // The largest gap between the windows (an edit in it touches none: the lines between a site and a constant it uses).
  let a = entry.hi;
  let b = Infinity;
  if (windows.length > 1) {
    const sorted = [...windows].sort((x, y) => x.start - y.start);
    let end = sorted[0].end;
    let best = 0;
    for (let i = 1; i < sorted.length; i++) {
      const w = sorted[i];
      if (w.start > end && w.start - end > best) {
        best = w.start - end;
        a = end;
        b = w.start;
      }
      if (w.end > end) end = w.end;
    }
  }
  st[o + S_A] = a;
  st[o + S_B] = b;
}

/** Apply the state's pending window moves to the entry's own fields (`windows`, `wshift`, `lo`, `hi`). */
export function materialize(st: Float64Array, o: number, entry: SiteEntry): void {
  const ws = st[o + S_WS];
  const us = st[o + S_US];
  if (ws || us) {
    const a = st[o + S_A];
    for (const w of entry.windows) {
      const s = w.start + ws;
      if (us && s > a) {
        w.start = s + us;
        w.end += ws + us;
      } else {
        w.start = s;
        w.end += ws;
      }
    }
  }
  st[o + S_WS] = st[o + S_US] = 0;
  entry.wshift = 0;
  entry.lo = st[o + S_LO];
  entry.hi = st[o + S_HI];
}

/**
 * Apply the state's pending moves to the entry: its findings' (recorded as moves, `defer`: all of them by `ws`, those
 * after the gap by `us`; the findings lie in the windows, so they move as their windows did) and its windows'.
 */
export function sync(st: Float64Array, o: number, entry: SiteEntry): void {
  const ws = st[o + S_WS];
  const us = st[o + S_US];
  if ((ws || us) && st[o + S_FL] & F_FINDINGS) {
    if (ws) moveFindings(entry, -Infinity, ws);
    // The findings after the gap start at or after its end as it was before `us` (those before it end at `a`, less).
    const from = st[o + S_B] - us;
    if (us && entry.last >= from) moveFindings(entry, from, us);
  }
  materialize(st, o, entry);
}

/**
 * `moved` through the state (see `STRIDE`): the same verdict and moves. An edit wholly before the windows, wholly after
 * them or wholly inside the gap between them is applied to the state alone (the entry not read: its windows and
 * findings move when next read, `sync`); otherwise the entry's windows are read (`moved`, then the state loaded again).
 */
export function movedAt(st: Float64Array, o: number, entry: SiteEntry, spans: readonly Span[]): boolean {
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    if (span.start > st[o + S_HI]) continue;
    const diff = span.newEnd - span.oldEnd;
    if (span.oldEnd < st[o + S_LO]) {
      if (diff === 0) continue;
      st[o + S_LO] += diff;
      st[o + S_A] += diff;
      st[o + S_B] += diff;
      st[o + S_HI] += diff;
      st[o + S_WS] += diff;
    } else if (span.start > st[o + S_A] && span.oldEnd < st[o + S_B]) {
      if (diff === 0) continue;
      st[o + S_B] += diff;
      st[o + S_HI] += diff;
      st[o + S_US] += diff;
    } else {
      const flags = st[o + S_FL];
      sync(st, o, entry);
      const ok = moved(entry, i ? spans.slice(i) : spans);
      if (ok) loadState(st, o, entry);
      st[o + S_FL] = flags;
      return ok;
    }
  }
  return true;
}

/** The entry's windows in current offsets (`wshift` applied). */
export function currentWindows(entry: SiteEntry): Window[] {
  const d = entry.wshift;
  if (d) {
    entry.wshift = 0;
    for (const w of entry.windows) {
      w.start += d;
      w.end += d;
    }
  }
  return entry.windows;
}

/** An entry without findings (most): one shared list, so the per-run walk reads no list of its own to find it empty. */
const NO_FINDINGS: SiteEntry['findings'] = Object.freeze([]) as unknown as SiteEntry['findings'];

/** The entry's findings in current offsets (the pending moves applied). */
export function currentFindings(entry: SiteEntry): [number, SiteFinding[]][] {
  settle(entry);
  return entry.findings;
}

/** Record a move of the findings' offsets from `from` on by `diff`, merged with the one before when they compose. */
function defer(entry: SiteEntry, from: number, diff: number): void {
  const p = (entry.pending ??= []);
  const n = p.length;
  // (f, d) then (f + d, e) is (f, d + e): an offset at or after f went to or after f + d; one before f stayed before f + d
  // (when d < 0, [f + d, f) was the edit's own text, which no offset of an untouched entry lies in).
  if (n && p[n - 2] + p[n - 1] === from) {
    const d = p[n - 1] + diff;
    if (d === 0) p.length = n - 2;
    else p[n - 1] = d;
  } else p.push(from, diff);
  if (!p.length) entry.pending = undefined;
  else if (p.length > 16) settle(entry);
}

function movedOffset(o: number, pending: readonly number[]): number {
  for (let i = 0; i < pending.length; i += 2) if (o >= pending[i]) o += pending[i + 1];
  return o;
}

/** The finding of `at` (handed out at the same start, same rule) that one at `..end` repeats, if any. */
function repeated(at: SiteFinding | readonly SiteFinding[], end: number, f: SiteFinding): SiteFinding | undefined {
  if (!Array.isArray(at)) {
    const g = at as SiteFinding;
    return g.range.end === end && g.ruleId === f.ruleId && g.message === f.message ? g : undefined;
  }
  for (const g of at as readonly SiteFinding[]) if (g.range.end === end && g.ruleId === f.ruleId && g.message === f.message) return g;
  return undefined;
}

/** Whether every finding of `memo` (flat pairs: repeat-map key, finding; `SiteEntry.repeatOf`) is in `seen`, itself. */
function allSeen(memo: readonly (number | SiteFinding)[], seen: ReadonlyMap<number, SiteFinding | SiteFinding[]>): boolean {
  for (let i = 0; i < memo.length; i += 2) {
    const at = seen.get(memo[i] as number);
    if (at === undefined || (at !== memo[i + 1] && !(Array.isArray(at) && at.includes(memo[i + 1] as SiteFinding)))) return false;
  }
  return true;
}

/** Whether a finding (at `start`..`end`) repeats one of `list` from `base` on (handed out by the same entry). */
function repeatsIn(list: readonly SiteFinding[], base: number, start: number, end: number, f: SiteFinding): boolean {
  for (let i = base; i < list.length; i++) {
    const g = list[i];
    if (g.range.start === start && g.range.end === end && g.ruleId === f.ruleId && g.message === f.message) return true;
  }
  return false;
}

/**
 * Apply the entry's pending moves: its findings become moved copies (the previous objects, handed out already, are
 * left as they were), in the entry's own lists (held by nothing else: a run hands out their elements, not the lists).
 */
function settle(entry: SiteEntry): void {
  const p = entry.pending;
  if (!p) return;
  entry.pending = undefined;
  for (const pair of entry.findings) {
    const list = pair[1];
    for (let i = 0; i < list.length; i++) list[i] = shiftFinding(list[i], p);
  }
  starts(entry);
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

/** The smallest offset findings mention (ranges, related ranges, fix edits); undefined for none. */
function firstOffset(findings: [number, SiteFinding[]][]): number | undefined {
  let m = Infinity;
  for (const [, list] of findings)
    for (const f of list) {
      m = Math.min(m, f.range.start);
      for (const x of f.related ?? []) m = Math.min(m, x.range.start);
      for (const fix of f.fixes ?? []) for (const e of fix.edits) m = Math.min(m, e.range.start);
    }
  return m === Infinity ? undefined : m;
}

/** A finding with ranges of its own (shared with nothing the extractor moves). */
function snapshot(f: SiteFinding): SiteFinding {
  const r = (x: Range): Range => ({ start: x.start, end: x.end });
  const out: SiteFinding = { ...f, range: r(f.range) };
  if (f.related) out.related = f.related.map((x) => ({ ...x, range: r(x.range) }));
  if (f.fixes) out.fixes = f.fixes.map((x) => ({ ...x, edits: x.edits.map((e: TextEdit) => ({ ...e, range: r(e.range) })) }));
  return out;
}

/** A range's offsets moved (`pending`), the same object when neither moved. */
function shiftRange(x: Range, pending: readonly number[]): Range {
  const start = movedOffset(x.start, pending);
  const end = movedOffset(x.end, pending);
  return start === x.start && end === x.end ? x : { start, end };
}

function shiftFinding(f: SiteFinding, pending: readonly number[]): SiteFinding {
  const out: SiteFinding = { ...f, range: shiftRange(f.range, pending) };
  if (f.related) out.related = f.related.map((x) => ({ ...x, range: shiftRange(x.range, pending) }));
  if (f.fixes)
    out.fixes = f.fixes.map((x) => {
      const moved = { ...x, edits: x.edits.map((e: TextEdit) => ({ ...e, range: shiftRange(e.range, pending) })) };
      movedFix(moved, x);
      return moved;
    });
  return out;
}

/** The directives' offsets (`directiveOffsets`) of `newText`, from those of `oldText`: the edit's lines read again. */
function movedDirectives(offsets: readonly number[], oldText: string, newText: string, span: Span): { text: string; offsets: number[] } {
  // The lines the edit touched: they start where they did (the texts agree before span.start) and end at the same
  // line break, moved (the texts agree from oldEnd / newEnd on).
  const from = span.start > 0 ? oldText.lastIndexOf('\n', span.start - 1) + 1 : 0;
  const nl = oldText.indexOf('\n', span.oldEnd);
  const oldTo = nl < 0 ? oldText.length : nl;
  const diff = span.newEnd - span.oldEnd;
  const out: number[] = [];
  for (const o of offsets) if (o < from) out.push(o);
  for (const o of directiveOffsets(newText, from, oldTo + diff)) out.push(o);
  for (const o of offsets) if (o > oldTo) out.push(o + diff);
  return { text: newText, offsets: out };
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
