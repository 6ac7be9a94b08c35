import { type RequestSite, type VNode, exclusive, prop } from '../extract/model';

import { CounterAction, counterActions, keyPattern, keyValueText, operations, patternsMeet, tableId, updateOf, valueFacts } from './analysis';
import { siteChange } from './incremental';
import { DOCS_BASE, Finding, Rule, Severity } from './types';

const id = 'separate-child-and-counter-writes';

/**
 * The function whose calls a site is compared with. A literal read by its shape or by its fields that no call took (a
 * config map, a builder's returned literal: `apiSource` inferred and not forwarded) is not known to be sent at all,
 * so it is in no pair.
 */
const scopeOf = (s: RequestSite) => (s.enclosingFunction && (s.apiSource === 'call' || s.forwarded) ? `${s.enclosingFunction.range.start}:${s.enclosingFunction.range.end}` : undefined);

/** A Put or Delete that may be a counter's child write (one of a function, known to be sent). */
const childWrite = (s: RequestSite) => (s.api === 'PutItem' || s.api === 'DeleteItem') && scopeOf(s) !== undefined;

const childWrites = new WeakMap<readonly RequestSite[], number>();

/**
 * How many of the sites are child writes: after an edit through the rule cache, the count of the sites before it and
 * of the sites that came and went (a site handed back is the same object, its contents unchanged).
 */
function countChildWrites(sites: readonly RequestSite[]): number {
  let n = childWrites.get(sites);
  if (n !== undefined) return n;
  const change = siteChange(sites);
  const base = change && childWrites.get(change.prev);
  if (change && base !== undefined) {
    n = base;
    for (const s of change.gone) if (childWrite(s)) n--;
    for (const s of change.fresh) if (childWrite(s)) n++;
  } else {
    n = 0;
    for (const s of sites) if (childWrite(s)) n++;
  }
  childWrites.set(sites, n);
  return n;
}

const countersOfSite = new WeakMap<RequestSite, readonly CounterAction[]>();

/** No counter action: one shared array (not one per site, kept by `countersOfSite` or made per call). */
const NO_COUNTERS: readonly CounterAction[] = Object.freeze([]);

/** The counter actions of a standalone UpdateItem (empty when it is no counter update). Memoized per site object (contents only). */
function counterActionsOf(site: RequestSite): readonly CounterAction[] {
  if (site.api !== 'UpdateItem') return NO_COUNTERS;
  let out = countersOfSite.get(site);
  if (!out) {
    const op = operations(site)[0];
    const upd = updateOf(op.params);
    const found = upd ? counterActions(op, upd) : NO_COUNTERS;
    countersOfSite.set(site, (out = found.length ? found : NO_COUNTERS));
  }
  return out;
}

/** Source text of a value for comparisons, blanks removed. */
const source = (text: string, n: { range: { start: number; end: number } }) => text.slice(n.range.start, n.range.end).replace(/\s+/g, '');

/**
 * Whether a write to another table is one the counter counts: its key (the Key map, or the first two Item entries, the
 * keys by convention) holds the counter item's key value, as written (`postId`, `` `POST#${postId}` ``) or inside
 * its own (`LIKE#POST#a91f`). A notification keyed by its recipient or an audit row keyed by its own id is not.
 */
function keyedByCounter(text: string, child: RequestSite, counter: RequestSite): boolean {
  const key = prop(counter.params, 'Key');
  const mine = prop(child.params, child.api === 'PutItem' ? 'Item' : 'Key');
  if (key?.kind !== 'object' || !key.complete || !key.properties.length || mine?.kind !== 'object') return true;
  const want = key.properties.map((k) => keyValueText(text, k.value, counter.style)).filter((w): w is string => !!w && w.length >= 3);
  const keys = child.api === 'PutItem' ? mine.properties.slice(0, 2) : mine.properties;
  return keys.some((p) => {
    const have = keyValueText(text, p.value, child.style);
    return have !== undefined && want.some((w) => have.includes(w));
  });
}

/** Words of an identifier or a name: `followee_count` -> [followee, count], `likeTally` -> [like, tally], `tweeter-Follows` -> [tweeter, follows]. */
const words = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

/** Words naming a count rather than the thing counted. */
const COUNT_WORDS = new Set(['count', 'counts', 'counter', 'cnt', 'tally', 'total', 'totals', 'num', 'number', 'n', 'qty', 'sum']);

/** The thing a counter attribute counts: the word next to its count word (`followerCount`, `num_likes`), else its last word (`likes`). */
function countedStem(attr: string): string | undefined {
  const w = words(attr.split('.').pop()!.replace(/\[\d*\]/g, ''));
  const at = w.findIndex((x) => COUNT_WORDS.has(x));
  const stem = at < 0 ? w[w.length - 1] : at > 0 ? w[at - 1] : w[at + 1];
  return stem && !COUNT_WORDS.has(stem) ? stem : undefined;
}

/** What may follow a shared root of two words naming one thing: `follow`/`follower`/`followee`, `like`/`likes`, `vote`/`voter`, `child`/`children`. */
const SUFFIXES = new Set(['', 's', 'es', 'r', 'rs', 'er', 'ers', 'ee', 'ees', 'd', 'ed', 'ing', 'ings', 'ren']);

/** Whether two words name one thing (see SUFFIXES): equal, or one is the other plus a suffix, the root having 4+ letters. */
function sameThing(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  for (let n = short.length; n >= 4; n--) {
    const root = short.slice(0, n);
    if (long.startsWith(root) && SUFFIXES.has(short.slice(n)) && SUFFIXES.has(long.slice(n))) return true;
  }
  return false;
}

/** Table names of rows no counter counts: a write there is a side effect (a notification, an audit or log row). */
const SIDE_TABLES = new Set(['notification', 'notifications', 'notif', 'audit', 'audits', 'log', 'logs', 'event', 'events', 'outbox', 'history', 'activity', 'activities']);

/** Words of a table's identity (`tableId`): the literal name, or the expression naming it minus generic words (`this.followTableName` -> [follow]). */
const GENERIC = new Set(['this', 'self', 'table', 'tables', 'name', 'names', 'tbl', 'env', 'process', 'config', 'cfg', 'settings', 'os', 'environ', 'get', 'expr', 'dynamo', 'dynamodb', 'ddb']);
const tableWords = (id: string) => words(id).filter((w) => !GENERIC.has(w));

/**
 * Positive evidence that a write to another table is one the counter counts: the counted thing (`followerCount` ->
 * follower, `likeTally` -> like) names the child's table (`follow`, `Likes`, `this.followTableName`) or the leading
 * prefix of one of its key values (`LIKE#...`, `` `FOLLOW#${id}` ``), unless the table is one of side rows
 * (notifications, audit, logs). Without such evidence the write is left alone.
 */
function countsChild(text: string, child: RequestSite, attrs: string[]): boolean {
  const stems = attrs.map(countedStem).filter((s): s is string => !!s);
  if (!stems.length) return false;
  const id = tableId(text, operations(child)[0]);
  const table = id ? tableWords(id) : [];
  // Side rows first: `LikeNotifications`, `like_events` name the counted thing and are still not what it counts.
  if (table.some((w) => SIDE_TABLES.has(w))) return false;
  if (table.some((w) => stems.some((s) => sameThing(w, s)))) return true;
  const mine = prop(child.params, child.api === 'PutItem' ? 'Item' : 'Key');
  if (mine?.kind !== 'object') return false;
  const keys = child.api === 'PutItem' ? mine.properties.slice(0, 2) : mine.properties;
  return keys.some((p) => {
    const lead = /^([A-Za-z_]+)#/.exec(keyPattern(text, p.value, child.style))?.[1];
    return !!lead && words(lead).some((w) => stems.some((s) => sameThing(w, s)));
  });
}

type Relation = 'same' | 'different' | 'unknown';

const within = (outer: { start: number; end: number }, r: { start: number; end: number }) => r.start >= outer.start && r.end <= outer.end;

/**
 * Whether two key values can be compared by their source text: both written in the function the two requests share.
 * A request sent through a helper (`site.forwarded`) has its values in the helper: a `pk` there and a `pk` in the caller
 * are different variables, so their text says nothing (unknown-equal).
 */
function comparable(a: VNode, sa: RequestSite, b: VNode, sb: RequestSite): boolean {
  if (!sa.forwarded && !sb.forwarded) return true;
  const fn = sa.enclosingFunction?.range;
  return !!fn && within(fn, a.range) && within(fn, b.range);
}

/** One key value of the child against the counter's: same (the literal, or the same source in one function), different (patterns that cannot meet), or unknown. */
function valueRelation(text: string, a: VNode, sa: RequestSite, b: VNode, sb: RequestSite): Relation {
  const pa = keyPattern(text, a, sa.style);
  const pb = keyPattern(text, b, sb.style);
  if (!patternsMeet(pa, pb)) return 'different';
  if (pa === pb && !/(?<!\\)\*/.test(pa)) return 'same';
  if (comparable(a, sa, b, sb) && source(text, a) === source(text, b)) return 'same';
  return 'unknown';
}

/**
 * Whether a Put/Delete writes the counter's item: `same` when the tables may be one and every key attribute of the
 * counter holds the same value in the child; `different` when the tables differ, the child's Key has other attribute
 * names (`{user_id, follow}` is not the item `{user_id}`), a complete Item lacks a key attribute, or a value's pattern
 * cannot meet the counter's (`ANALYTICS#SESSION#*` vs `VIEWS`); else `unknown` (`comparable` says whether only values
 * of different functions left it so).
 */
function keyRelation(text: string, child: RequestSite, counter: RequestSite): { rel: Relation; crossFunction: boolean } {
  const unknown = { rel: 'unknown' as const, crossFunction: false };
  const item = prop(child.params, child.api === 'PutItem' ? 'Item' : 'Key');
  const key = prop(counter.params, 'Key');
  if (item?.kind !== 'object' || key?.kind !== 'object' || !key.properties.length) return unknown;
  const [ct, kt] = [tableId(text, operations(child)[0]), tableId(text, operations(counter)[0])];
  if (ct && kt && ct !== kt) return { rel: 'different', crossFunction: false };
  // A Key read from a repository wrapper's keywords (`pk=`, `sk=`) is partial and named by the helper's convention:
  // only a value that cannot be the child's (same name, any case) is read from it.
  const loose = !key.complete;
  if (loose && !counter.forwarded?.wrapper) return unknown;
  const find = (n: string) => prop(item, n) ?? (loose ? item.properties.find((p) => p.key.toLowerCase() === n.toLowerCase())?.value : undefined);
  const names = key.properties.map((k) => k.key);
  if (!loose && item.complete && names.some((n) => !prop(item, n))) return { rel: 'different', crossFunction: false };
  if (!loose && child.api !== 'PutItem' && item.complete && item.properties.some((p) => !names.includes(p.key))) return { rel: 'different', crossFunction: false };
  let rel: Relation = loose ? 'unknown' : 'same';
  let crossFunction = false;
  for (const k of key.properties) {
    const v = find(k.key);
    if (!v) {
      if (loose) continue;
      return unknown;
    }
    const r = valueRelation(text, v, child, k.value, counter);
    if (r === 'different') return { rel: r, crossFunction: false };
    if (r === 'unknown') {
      rel = 'unknown';
      if (!comparable(v, child, k.value, counter)) crossFunction = true;
    }
  }
  return { rel, crossFunction };
}

/**
 * Whether a Put/Delete writes the counter's own item rather than a child: a write of the same key (see `keyRelation`),
 * or a Put whose Item holds the counter attribute ("create the parent with views: 0, then ADD views") unless its key
 * is another item's: known different, or unknown only because its values are another function's variables (a child
 * created with its own `children_count: 0` in the caller, the parent's count bumped in a helper).
 */
function writesCounterItem(text: string, child: RequestSite, counter: RequestSite, attrs: string[]): boolean {
  const item = prop(child.params, child.api === 'PutItem' ? 'Item' : 'Key');
  // An Item (Key) that is not known (a variable, a call) may be the counter's own item, unless the tables differ:
  // unknown means silent.
  if (item?.kind !== 'object') {
    const [ct, kt] = [tableId(text, operations(child)[0]), tableId(text, operations(counter)[0])];
    return !ct || !kt || ct === kt;
  }
  const { rel, crossFunction } = keyRelation(text, child, counter);
  if (rel === 'same') return true;
  if (rel === 'different') return false;
  return child.api === 'PutItem' && !crossFunction && attrs.some((a) => prop(item, a.split(/[.[]/)[0]));
}

function check(text: string, sites: RequestSite[]): (Omit<Finding, 'severity'> & { severity?: Severity })[] {
  const out: (Omit<Finding, 'severity'> & { severity?: Severity })[] = [];
  // Child writes per enclosing function, in document order: a counter looks only at its own function's. Without any
  // (a document of updates and transactions), no counter has a child: nothing else is read.
  if (!countChildWrites(sites)) return out;
  const writes = new Map<string, RequestSite[]>();
  for (const s of sites) {
    const at = s.api === 'PutItem' || s.api === 'DeleteItem' ? scopeOf(s) : undefined;
    if (at === undefined) continue;
    const list = writes.get(at);
    if (list) list.push(s);
    else writes.set(at, [s]);
  }
  if (!writes.size) return out;
  for (const counter of sites) {
    const actions = counterActionsOf(counter);
    if (!actions.length) continue;
    const scope = scopeOf(counter);
    if (!scope) continue;
    const candidates = writes.get(scope);
    if (!candidates) continue;
    const attrs = actions.map((c) => c.key);
    const counterTable = tableId(text, operations(counter)[0]);
    const children = candidates.filter((s) => {
      if (exclusive(s, counter) || writesCounterItem(text, s, counter, attrs)) return false;
      // A write to another table that the counter does not count (a notification, an audit row) is no child.
      const table = tableId(text, operations(s)[0]);
      return !table || !counterTable || table === counterTable || keyedByCounter(text, s, counter) || countsChild(text, s, attrs);
    });
    if (!children.length) continue;
    const fn = counter.enclosingFunction!.name;
    // An ADD operand of unknown type may be a set (ADD followers :userSet): no count to drift then.
    const op = operations(counter)[0];
    const set = actions.every((c) => c.form === 'add' && c.delta && valueFacts(op, c.delta).type === 'unknown') ? actions[0].delta!.name : undefined;
    out.push({
      ruleId: id,
      message: `${fn || 'This function'} writes a child item and updates its counter in two separate calls: if one fails or is retried alone, the count drifts from the children for good${set ? ` (if ${set} is a number; adding to a set is harmless)` : ''}. Send both in one TransactWriteItems, with a condition on the child write.`,
      range: counter.nameRange,
      related: children.map((c) => ({ range: c.nameRange, message: `The child ${c.api === 'PutItem' ? 'write' : 'delete'}, sent separately` })),
      ...(set ? { severity: 'info' as const } : {}),
    });
  }
  return out;
}

export const separateChildAndCounterWrites: Rule = {
  id,
  meta: {
    description: 'A child write and its counter update are sent as two separate calls in the same function instead of one transaction.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'warning',
    fixable: false,
    category: 'transactions',
  },
  check: ({ text, sites }) => check(text, sites),
};
