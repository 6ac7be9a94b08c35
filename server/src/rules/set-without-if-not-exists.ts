import { ObjectNode, RequestSite, VNode, attrType, prop, scalarText } from '../extract/model';
import type { Operation } from '../extract/operations';
import type { SetAction } from '../expression/ast';
import {
  CounterAction, UpdateInfo, actionText, keyPattern, moveAction, operations, patternsMeet, requiredAttributes, spanRange, tableId,
} from './analysis';
import { type HostSyntax, rewriteString } from './edit';
import { ActionEditor, fixableSite } from './fixes';
import { type DropIfToken, siteChange } from './incremental';
import { DOCS_BASE, Fix, Rule, SiteFinding } from './types';
import { updateReads } from './update-reads';

const id = 'set-without-if-not-exists';
type Out = SiteFinding;

const interned = new Map<string, string>();
const INTERNED_MAX = 4096;

/**
 * One string per text among the findings' messages, fix titles and edit texts: the rule cache keeps them for every
 * counter update (most carry an `unless`, dropped while a Put creates the item), and requests written alike give the
 * same texts (a template literal is a tree of concatenations: hashing it as a key flattens it, and the collector
 * short-cuts the flattened tree).
 */
function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size >= INTERNED_MAX) interned.clear();
  interned.set(s, s);
  return s;
}

/** An existing `:value` holding the number 0, to reuse instead of adding another. */
function existingZero(op: Operation): string | undefined {
  const m = prop(op.params, 'ExpressionAttributeValues');
  if (m?.kind !== 'object') return undefined;
  return m.properties.find((p) => attrType(p.value, op.site.style) === 'N' && Number(scalarText(p.value, op.site.style)) === 0)?.key;
}

function wrapFix(ed: ActionEditor, op: Operation, upd: UpdateInfo, c: CounterAction): Fix | undefined {
  const read = c.read!;
  const readText = upd.node.value.slice(read.start, read.end);
  const zero = existingZero(op) ?? ed.addNumber(':zero', '0');
  ed.edit(upd.node, read.start, 'if_not_exists(');
  ed.edit(upd.node, read.end, `, ${zero})`);
  const edits = ed.build();
  if (!edits) return undefined;
  for (const e of edits) e.newText = intern(e.newText);
  return { title: intern(`Wrap ${readText} in if_not_exists(${readText}, ${zero})`), edits, safe: true, preferred: true };
}

/** `syn`: the request's host syntax (`hostSyntax(text, op.site)`, as the wrap fix's editor read it). */
function addFix(text: string, syn: HostSyntax, upd: UpdateInfo, c: CounterAction): Fix | undefined {
  const action = c.action as SetAction;
  if (c.op !== '+' || !c.delta || action.path.elements.length !== 1) return undefined;
  const v = upd.node.value;
  const addText = `${v.slice(action.path.start, action.path.end)} ${c.delta.name}`;
  const next = moveAction(v, upd.ast.clauses, action, 'ADD', addText);
  const edit = rewriteString(text, syn, upd.node, next);
  edit.newText = intern(edit.newText);
  return { title: intern(`Rewrite as ADD ${addText}`), edits: [edit], safe: false };
}

/** The value at a top-level or nested map path of an Item (`stats.views`), in the request's value style. */
function valueAt(item: ObjectNode, path: string, style: RequestSite['style']): VNode | undefined {
  if (path.includes('[')) return undefined;
  let node: VNode | undefined = item;
  for (const [i, seg] of path.split('.').entries()) {
    if (i > 0 && style === 'low-level') node = prop(node, 'M');
    node = prop(node, seg);
    if (!node) return undefined;
  }
  return node;
}

/** A Put (or BatchPut) of the document, read once per site object: its table and its Item with the key patterns of its entries. */
interface PutSummary {
  /** The site it was read from (an index built from the previous one drops the Puts of sites that went). */
  site: RequestSite;
  table: string | undefined;
  item: ObjectNode;
  style: RequestSite['style'];
  /** Top-level Item attribute -> its value as a key pattern (`keyPattern`). */
  patterns: Map<string, string>;
}

/**
 * Valid while the site object is: a document extractor hands back the same site only for a statement an edit did not
 * touch (its contents unchanged, offsets moved), and patterns and table ids are read from contents, not offsets.
 */
const putsOfSite = new WeakMap<RequestSite, readonly PutSummary[]>();

/** A site with no Put (most): one shared array, not one per site kept by `putsOfSite`. */
const NO_PUTS: readonly PutSummary[] = Object.freeze([]);

function putsOf(text: string, site: RequestSite): readonly PutSummary[] {
  const known = putsOfSite.get(site);
  if (known) return known;
  let out: PutSummary[] | undefined;
  for (const put of operations(site)) {
    if (put.kind !== 'Put' && put.kind !== 'BatchPut') continue;
    const item = prop(put.params, 'Item');
    if (item?.kind !== 'object') continue;
    const patterns = new Map<string, string>();
    // The last entry of a key wins, as `prop` reads it.
    for (const p of item.properties) patterns.set(p.key, keyPattern(text, p.value, put.site.style));
    (out ??= []).push({ site, table: tableId(text, put), item, style: put.site.style, patterns });
  }
  const puts = out ?? NO_PUTS;
  putsOfSite.set(site, puts);
  return puts;
}

/** What an update's counter needs from a Put to count as created with it: content only (cached with the site's findings). */
export interface CounterItem {
  table: string | undefined;
  /** The update's Key, attribute -> key pattern. */
  key: [string, string][];
  /** The counter attribute (a top-level or nested map path). */
  counter: string;
}

/**
 * The document's Puts, indexed by table, and the answers already given (a key pattern shared by many updates is asked
 * once). An answer is kept with its witness (the Put that creates the item, or null): the index built after an edit
 * takes over the previous one's answers (per CounterItem object, cached findings keeping theirs, or per contents) when
 * they still hold, by construction: a witness still among the Puts answers yes; a no stays a no unless one of the Puts that are
 * new since then (usually those of the one re-extracted statement) creates the item. Only other questions search.
 * After an edit through the language service's rule cache the index is built from the previous one and the sites that
 * came and went (`siteChange`), its list of Puts only when a question needs a search of them all.
 */
class PutIndex {
  private byTable?: Map<string | undefined, PutSummary[]>;
  private list?: PutSummary[];
  private readonly answers = new Map<string, PutSummary | null>();
  private readonly byObject = new WeakMap<CounterItem, PutSummary | null>();
  /** The index this one replaced (one generation only), the Puts it did not have and whether one of its is still here. */
  private previous: PutIndex | undefined;
  private added: readonly PutSummary[] = [];
  private present: ((put: PutSummary) => boolean) | undefined;

  constructor(
    /** The Puts, in any order (they give the same answers); read on first need. */
    private source: () => PutSummary[],
    /** How many there are. */
    readonly size: number,
    previous?: PutIndex,
    /** From `previous` to this: the Puts new here, and whether one of `previous`'s is still here. */
    change?: { added: readonly PutSummary[]; present: (put: PutSummary) => boolean },
  ) {
    if (previous) {
      // One generation only: the previous index's own previous, and what its list was read from, are let go.
      previous.previous = undefined;
      previous.present = undefined;
      previous.added = [];
      previous.settle();
      if (change) {
        this.added = change.added;
        this.present = change.present;
      } else {
        const before = new Set(previous.puts);
        const now = new Set(this.puts);
        this.present = (p) => now.has(p);
        this.added = this.puts.filter((p) => !before.has(p));
      }
      this.previous = previous;
    }
  }

  get puts(): readonly PutSummary[] {
    return (this.list ??= this.source());
  }

  /** Read the list now and drop what it was read from (an index built from the one before holds that one). */
  settle(): void {
    void this.puts;
    this.source = () => [];
  }

  private tables(): Map<string | undefined, PutSummary[]> {
    if (!this.byTable) {
      this.byTable = new Map();
      for (const put of this.puts) {
        const list = this.byTable.get(put.table);
        if (list) list.push(put);
        else this.byTable.set(put.table, [put]);
      }
    }
    return this.byTable;
  }

  /**
   * Whether a Put in the document creates the counter's item with the counter already set: the same table, an Item
   * whose key attributes fit the update's Key (`VID#${id}` fits `VID#${videoId}`), holding the counter as a number (or
   * a value not known to be anything else). Then the attribute cannot be missing when the update runs.
   */
  created(c: CounterItem): boolean {
    if (!this.size) return false;
    // Cached findings keep their CounterItem object from run to run: asked by identity first.
    let hit = this.byObject.get(c);
    if (hit !== undefined) return hit !== null;
    const sig = signature(c);
    hit = this.answers.get(sig);
    if (hit === undefined) {
      // The previous index's answer, for this object or (a new finding) for its contents, when it still holds.
      const prev = this.previous;
      const old = prev ? (prev.byObject.get(c) ?? prev.answers.get(sig)) : undefined;
      if (old !== undefined && old !== null && this.present!(old)) hit = old;
      else if (old === null) hit = this.search(c, this.added);
      else hit = this.search(c, undefined);
      this.answers.set(sig, hit);
    }
    this.byObject.set(c, hit);
    return hit !== null;
  }

  /** The first of `puts` (all of them when undefined) that creates the item (see `created`), or null. */
  private search(c: CounterItem, puts: readonly PutSummary[] | undefined): PutSummary | null {
    if (puts && !puts.length) return null;
    // A Put of an unknown table may be any table; an update of an unknown table may meet any Put.
    const candidates =
      puts !== undefined ? puts.filter((p) => c.table === undefined || p.table === c.table || p.table === undefined) : c.table === undefined ? this.puts : [...(this.tables().get(c.table) ?? []), ...(this.tables().get(undefined) ?? [])];
    return (
      candidates.find((put) => {
        const fits = c.key.every(([attr, want]) => {
          const have = put.patterns.get(attr);
          return have !== undefined && patternsMeet(want, have);
        });
        if (!fits) return false;
        const v = valueAt(put.item, c.counter, put.style);
        const type = attrType(v, put.style);
        return type === 'N' || (type === 'unknown' && v?.kind === 'unknown' && v.type !== 'S');
      }) ?? null
    );
  }
}

/** A CounterItem's contents as a string (it never changes: one per object). */
const signatures = new WeakMap<CounterItem, string>();
function signature(c: CounterItem): string {
  let sig = signatures.get(c);
  if (sig === undefined) signatures.set(c, (sig = JSON.stringify(c)));
  return sig;
}

/**
 * Per sites list, its index and the text it was built for. An edit's lint keeps the previous list alive (the rule
 * cache's `siteChange` holds it, and an index built from it reads its entry): that entry's `text` is let go then (the
 * previous version's whole text, 2.75 MB in a 50,000-line file), so that list is never again a hit.
 */
const indexes = new WeakMap<readonly RequestSite[], { text: string | undefined; index: PutIndex }>();
/** Tests: the text kept with a sites list's index (undefined once a later list's index was built from it). */
export function indexedText(sites: readonly RequestSite[]): string | undefined {
  return indexes.get(sites)?.text;
}

/** The last index built: an edit that leaves every Put's site untouched keeps it, with the answers it gave. */
let lastIndex: PutIndex | undefined;

function putIndex(text: string, sites: readonly RequestSite[]): PutIndex {
  const hit = indexes.get(sites);
  if (hit && hit.text === text) return hit.index;
  let index: PutIndex;
  // Linted after the sites before them through the rule cache: from the index of those, the Puts of the sites that came
  // and went (a site handed back is the same object, its Puts the same summaries).
  const change = siteChange(sites);
  const before = change && indexes.get(change.prev);
  if (before) before.text = undefined;
  const base = before?.index;
  if (change && base) {
    const goneSites = new Set<RequestSite>();
    const gonePuts: PutSummary[] = [];
    for (const site of change.gone) {
      // Read when the previous index was (or before): a site that went is not read again in this text.
      const puts = putsOfSite.get(site);
      if (puts?.length) {
        goneSites.add(site);
        for (const p of puts) gonePuts.push(p);
      }
    }
    const removed = gonePuts.length;
    const added: PutSummary[] = [];
    for (const site of change.fresh) for (const put of putsOf(text, site)) added.push(put);
    if (!removed && !added.length) index = base;
    else {
      const previous = base;
      index = new PutIndex(
        () => {
          // The previous list without the gone sites' Puts, looked up by identity (a Put whose site went is one of
          // that site's `putsOfSite` summaries, made once per site object), not a test of every Put's site.
          const out = previous.puts.slice();
          for (const p of gonePuts) {
            const i = out.indexOf(p);
            if (i >= 0) out.splice(i, 1);
          }
          for (const p of added) out.push(p);
          return out;
        },
        base.size - removed + added.length,
        base,
        { added, present: (p) => !goneSites.has(p.site) },
      );
    }
  } else {
    const puts: PutSummary[] = [];
    for (const site of sites) for (const put of putsOf(text, site)) puts.push(put);
    // Summaries are per site object and read from contents only: the same ones in the same order give the same answers.
    const same = lastIndex && lastIndex.size === puts.length && lastIndex.puts.every((p, i) => p === puts[i]);
    index = same ? lastIndex! : new PutIndex(() => puts, puts.length, lastIndex);
  }
  lastIndex = index;
  indexes.set(sites, { text, index });
  return index;
}

/**
 * One CounterItem per contents: the rule cache keeps one as `unless` for every counter update (2,500 in a 50,000-line
 * file, ~200 bytes each with its key arrays, plus its signature), and updates written alike (same table, key patterns
 * and counter) ask the same question. Never changed once made; `PutIndex` answers per contents anyway.
 */
const counterItems = new Map<string, CounterItem>();

/** The update's side of `PutIndex.created`, or undefined when its Key is not a literal map (then nothing is created for it). */
function counterItem(text: string, op: Operation, counter: string): CounterItem | undefined {
  const k = prop(op.params, 'Key');
  if (k?.kind !== 'object' || !k.properties.length) return undefined;
  const item: CounterItem = { table: tableId(text, op), key: k.properties.map((p) => [p.key, keyPattern(text, p.value, op.site.style)]), counter };
  const sig = JSON.stringify(item);
  const known = counterItems.get(sig);
  if (known) return known;
  if (counterItems.size >= INTERNED_MAX) counterItems.clear();
  counterItems.set(sig, item);
  signatures.set(item, sig);
  return item;
}

/** No condition: no attribute required (one shared set, not one per Update). */
const NONE_REQUIRED: ReadonlySet<string> = new Set<string>();

/**
 * `seen`: findings already reported (an UpdateExpression constant shared by many requests gives one, built once).
 * `created`: whether the document creates the counter's item with the counter set; without it (the cached per-site
 * form), each finding carries its `CounterItem` as `unless`, for `dropIf` to ask the document on every run.
 */
function checkSite(text: string, site: RequestSite, seen?: Set<string>, created?: (c: CounterItem) => boolean): Out[] {
  const out: Out[] = [];
  for (const op of operations(site)) {
    if (op.kind !== 'Update') continue;
    const reads = updateReads(op);
    if (!reads) continue;
    const upd = reads.upd;
    // A condition that needs the counter fails first (ConditionalCheckFailedException), so the update never reads it.
    const cond = reads.condition();
    if (cond.state === 'unknown') continue;
    const required: ReadonlySet<string> = cond.state === 'parsed' ? requiredAttributes(cond.ast, reads.namesMap()) : NONE_REQUIRED;
    for (const c of reads.counterActions()) {
      if (c.form !== 'set' || c.read?.type !== 'path' || required.has(c.key)) continue;
      // The document creates the item with the counter set: it cannot be missing.
      const item = counterItem(text, op, c.key);
      if (item && created?.(item)) continue;
      const name = upd.node.value.slice(c.action.path.start, c.action.path.end);
      // `c.key` is the attribute itself (`#c` resolved to `count`): name it when it differs from what is written.
      const attribute = c.key === name ? name : `${name} (${c.key})`;
      // The condition needs the item to exist (attribute_exists(PK), another attribute compared): the first write of a
      // new item cannot reach the update, so it fails only on an item created without the counter, which is decided
      // where items are created, outside this request.
      const itemMustExist = required.size > 0;
      const message = intern(itemMustExist
        ? `\`${actionText(upd, c)}\` fails with a ValidationException if the item can exist without ${attribute} (the condition makes sure the item exists, not ${c.key}); use if_not_exists(${name}, :zero) or ADD, which starts a missing number at 0.`
        : `\`${actionText(upd, c)}\` fails with a ValidationException when the item has no ${attribute} yet; use if_not_exists(${name}, :zero) or ADD, which starts a missing number at 0.`);
      const range = spanRange(upd.node, c.action);
      const key = `${range.start}:${range.end}:${message}`;
      if (seen?.has(key)) continue;
      seen?.add(key);
      const fixes: Fix[] = [];
      if (fixableSite(op.site)) {
        const ed = new ActionEditor(text, op.site, op.params);
        const wrap = wrapFix(ed, op, upd, c);
        const add = addFix(text, ed.syn, upd, c);
        if (wrap) fixes.push(wrap);
        if (add) fixes.push(add);
      }
      out.push({ ruleId: id, message, range, fixes, ...(itemMustExist ? { severity: 'info' as const } : {}), ...(item && !created ? { unless: item } : {}) });
    }
  }
  return out;
}

export const setWithoutIfNotExists: Rule & DropIfToken = {
  id,
  meta: {
    description: 'SET x = x + :n (or x - :n) without if_not_exists fails when the attribute is missing.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'warning',
    fixable: true,
    category: 'counters',
  },
  check: ({ text, sites }) => {
    const seen = new Set<string>();
    const created = (c: CounterItem) => putIndex(text, sites).created(c);
    return sites.flatMap((s) => checkSite(text, s, seen, created));
  },
  site: (ctx, s) => checkSite(ctx.text, s),
  dropIf: (ctx, unless) => putIndex(ctx.text, ctx.sites).created(unless as CounterItem),
  // One index object answers every question alike (its Puts never change); an edit that brings or takes no Put keeps it.
  dropIfToken: (ctx) => putIndex(ctx.text, ctx.sites),
};
