import { Property, RequestSite, prop, propEntry } from '../extract/model';
import type { Operation } from '../extract/operations';
import {
  CounterAction, UpdateInfo, actionText, conditionOf, guardedAttributes, keyNames, keyValueText, namesOf, operations, replayOf, spanRange, tableId, transactionOf, valueFacts,
} from './analysis';
import { ActionEditor } from './fixes';
import { DOCS_BASE, Finding, Rule, Severity } from './types';
import { updateReads } from './update-reads';

const id = 'unguarded-add-in-transaction';
type Out = Omit<Finding, 'severity'> & { severity?: Severity };

const TOKEN_NOTE =
  ' Its ClientRequestToken makes a replay of this exact request within 10 minutes of the first call idempotent (DynamoDB answers without writing again); a replay after those 10 minutes, or with a new token, is a new transaction and counts again.';

/** A value generated on each call: a new id or a timestamp. */
const FRESH_ID = /\b(uuid\d?|uuidv\d|randomUUID|ulid|nanoid|cuid2?|createId|ObjectId|shortid|ksuid)\s*\(|\buuid\.uuid\d\s*\(|\b(Date\.now|time\.time|time_ns)\s*\(/;

interface Counter {
  op: Operation;
  c: CounterAction;
  upd: UpdateInfo;
}

/** The `Put`/`Delete`/`Update` entry key inside `TransactItems[i]`, for the squiggle. */
function entryOf(op: Operation): Property | undefined {
  const items = prop(op.site.params, 'TransactItems');
  return items?.kind === 'array' && op.index !== undefined ? propEntry(items.items[op.index], op.kind) : undefined;
}

/** Key attribute names known for the child: its own Key, or the Key maps of same-table actions in the transaction. */
function keyAttributes(text: string, child: Operation, ops: Operation[]): string[] {
  const own = keyNames(child.params);
  if (own.length) return own;
  const table = tableId(text, child);
  const item = prop(child.params, 'Item');
  for (const o of ops) {
    if (o === child || (table && tableId(text, o) && tableId(text, o) !== table)) continue;
    const names = keyNames(o.params);
    if (names.length && (item?.kind !== 'object' || names.every((n) => item.properties.some((p) => p.key === n)))) return names;
  }
  return [];
}

/** Attribute a fix names: the sort key when known, else the partition key, else a key-like Item attribute. */
function guardAttribute(child: Operation, keys: string[]): string | undefined {
  if (keys.length) return keys[keys.length - 1];
  const item = prop(child.params, 'Item');
  if (item?.kind !== 'object' || !item.properties.length) return undefined;
  const byName = (re: RegExp) => item.properties.find((p) => re.test(p.key))?.key;
  return byName(/^(sk|sort_?key|range_?key)$/i) ?? byName(/^(pk|partition_?key|hash_?key|id)$/i) ?? item.properties[0].key;
}

/**
 * The opposite guard the child's own condition already requires on a key attribute (`attribute_exists(SK)` on a Put,
 * `attribute_not_exists(SK)` on a Delete), as written for the message: AND-ing the guard on would make a condition that
 * is never true (every like or unlike would fail).
 */
function contradiction(child: Operation, opposite: 'attribute_exists' | 'attribute_not_exists', keys: string[]): string | undefined {
  const c = conditionOf(child.params);
  if (c.state !== 'parsed' || !keys.length) return undefined;
  const hit = guardedAttributes(c.ast, opposite, namesOf(child.params), keys).find((a) => keys.includes(a));
  return hit === undefined ? undefined : `${opposite}(${hit})`;
}

/**
 * How a child write relates to the counter's item: 3 it shares the counter item's partition key value (the same table,
 * the same `PK`), 2 its key mirrors it (`LIKE#POST#a91f` holds `POST#a91f`), 1 the same table, 0 none.
 */
function relation(text: string, child: Operation, counter: Operation): { score: number; attr?: string } {
  const key = prop(counter.params, 'Key');
  const sameTable = !tableId(text, child) || !tableId(text, counter) || tableId(text, child) === tableId(text, counter);
  const mine = prop(child.params, child.kind === 'Put' ? 'Item' : 'Key');
  if (key?.kind !== 'object' || !key.properties.length || mine?.kind !== 'object') return { score: sameTable ? 1 : 0 };
  const pk = key.properties[0];
  const want = keyValueText(text, pk.value, counter.site.style);
  if (want === undefined) return { score: sameTable ? 1 : 0 };
  const same = prop(mine, pk.key);
  if (sameTable && same && keyValueText(text, same, child.site.style) === want) return { score: 3, attr: pk.key };
  if (want.length >= 3 && mine.properties.some((p) => keyValueText(text, p.value, child.site.style)?.includes(want))) return { score: 2, attr: pk.key };
  return { score: sameTable ? 1 : 0 };
}

/** Whether an ADD's operand may be a set (its type unknown): adding the same element twice is harmless then. */
function maybeSet(c: Counter): string | undefined {
  if (c.c.form !== 'add' || !c.c.delta || valueFacts(c.op, c.c.delta).type !== 'unknown') return undefined;
  return c.c.delta.name;
}

function checkSite(text: string, site: RequestSite): Out[] {
  const ops = operations(site);
  const counters: Counter[] = [];
  for (const op of ops) {
    if (op.kind !== 'Update') continue;
    const reads = updateReads(op);
    if (reads) for (const c of reads.counterActions()) counters.push({ op, c, upd: reads.upd });
  }
  if (!counters.length) return [];
  // Actions the extractor could not read (`{ Put: putAction }`, a helper call, a spread of a variable) may be the
  // guard: silent. Entries a `.map` callback builds stand for their kind: judged by their representative. An unread
  // ConditionCheck is no guard whatever it checks (nothing in the transaction changes its item: it holds again).
  const tx = transactionOf(site);
  const items = prop(site.params, 'TransactItems');
  if (!tx?.listed || items?.kind !== 'array' || tx.unread.some((u) => u.kind !== 'ConditionCheck')) return [];
  const unreadChecks = tx.unread.length;
  // One action that fails on a replay cancels the whole replay: the transaction is safe.
  const verdicts = ops.map((o) => replayOf(o).verdict);
  if (verdicts.some((v) => v !== 'passes')) return [];

  const token = !!prop(site.params, 'ClientRequestToken');
  const note = token ? TOKEN_NOTE : '';
  const counterOps = new Set(counters.map((x) => x.op));
  const children = ops.filter((o) => o.kind === 'Put' || o.kind === 'Delete' || (o.kind === 'Update' && !counterOps.has(o)));
  const checks = ops.filter((o) => o.kind === 'ConditionCheck');
  const setOperand = counters.every((x) => maybeSet(x)) ? maybeSet(counters[0]) : undefined;
  const ifNumber = setOperand ? ` if ${setOperand} is a number (adding the same element to a set twice is harmless)` : '';
  const severity: Severity | undefined = token || setOperand ? 'info' : undefined;
  const checkNote = checks.length || unreadChecks ? ' A ConditionCheck is no guard here: nothing in the transaction changes its item, so it holds again on the replay.' : '';
  const related = (skip: Operation | undefined) => [
    ...counters.filter((_, i) => i > 0 || skip !== undefined).map((x) => ({ range: spanRange(x.upd.node, x.c.action), message: `The counter update \`${actionText(x.upd, x.c)}\`, run again by a replay` })),
    ...children.filter((o) => o !== skip).map((o) => ({ range: entryOf(o)?.keyRange ?? o.params.range, message: `This ${o.kind} has no condition that fails on a replay` })),
    ...checks.map((o) => ({ range: entryOf(o)?.keyRange ?? o.params.range, message: 'This ConditionCheck holds again on a replay' })),
    ...tx.unread.map((u) => ({ range: propEntry(items.items[u.index], 'ConditionCheck')?.keyRange ?? u.range, message: 'This ConditionCheck holds again on a replay' })),
  ];

  if (!children.length) {
    // Only mapped counter updates are known: entries the array does not show (a spread variable) may be the guard.
    if (!items.complete) return [];
    const first = counters[0];
    const floor = counters.find((x) => conditionOf(x.op.params).state === 'parsed');
    const floorNote = floor
      ? ` Its ConditionExpression \`${(conditionOf(floor.op.params) as { node: { value: string } }).node.value}\` is no guard: it still holds when the same request runs again.`
      : '';
    return [
      {
        ruleId: id,
        message: `This transaction only updates counters and none of its actions fails when it runs again: \`${actionText(first.upd, first.c)}\` changes the count on every replay${ifNumber} (an application retry after a timeout; stream and queue consumers are retried by design).${floorNote}${checkNote} Make the replay fail: put a marker item for the event with attribute_not_exists in the same transaction, or condition the counter item on a value the transaction changes (SET #v = :next with #v = :seen).${note}`,
        range: spanRange(first.upd.node, first.c.action),
        related: related(undefined),
        ...(severity ? { severity } : {}),
      },
    ];
  }

  // The child write that stands for the counted thing: of the kind the counter's direction pairs with (a Put for an
  // increment, a Delete for a decrement), the one whose key shares or mirrors the counter item's key.
  const direction = counters.find((x) => x.c.direction !== 0)?.c.direction ?? 0;
  const writes = children.filter((o) => o.kind !== 'Update');
  const preferred = writes.filter((o) => (direction === 1 ? o.kind === 'Put' : direction === -1 ? o.kind === 'Delete' : true));
  const pool = preferred.length ? preferred : writes.length ? writes : children;
  const scored = pool.map((o) => ({ o, r: counters.reduce((m, x) => Math.max(m, relation(text, o, x.op).score), -Infinity), a: counters.map((x) => relation(text, o, x.op)).find((r) => r.attr)?.attr }));
  const best = scored.reduce((a, b) => (b.r > a.r ? b : a));
  const child = best.o;
  const counter = counters.find((x) => x.c.direction === (child.kind === 'Delete' ? -1 : 1)) ?? counters[0];
  const counterText = actionText(counter.upd, counter.c);
  const at = child.index !== undefined ? ` at TransactItems[${child.index}]` : '';
  const how = best.r === 3 ? ` (it shares ${best.a} with the counter's item)` : best.r === 2 ? ` (its key holds the counter item's ${best.a})` : '';
  const which = `the ${child.kind}${at}${how}`;
  const entry = entryOf(child);

  if (child.kind === 'Update') {
    return [
      {
        ruleId: id,
        message: `None of this transaction's actions fails when it runs again (an application retry after a timeout, a double click, a redelivered message): every replay runs \`${counterText}\` again${ifNumber}.${checkNote} Make one action fail on a replay, e.g. a Put of the child guarded by attribute_not_exists.${note}`,
        range: entry ? entry.keyRange : child.params.range,
        related: related(child),
        ...(severity ? { severity } : {}),
      },
    ];
  }
  const put = child.kind === 'Put';
  const fn = put ? 'attribute_not_exists' : 'attribute_exists';
  const keys = keyAttributes(text, child, ops);
  const attr = guardAttribute(child, keys);
  const why = put
    ? `a repeated request (an application retry after a timeout, a double click, a redelivered message) writes the child again and \`${counterText}\` counts it twice${ifNumber}`
    : `a second delete of the same child still runs \`${counterText}\` and drifts the count (negative on a double unlike)${ifNumber}`;
  // A Put keyed by a value made on each call (`str(uuid.uuid4())`, `randomUUID()`): a replay writes a new item that no
  // condition catches, so the guard would not help; what would is a key the replay repeats (a request or event id).
  const item = put ? prop(child.params, 'Item') : undefined;
  const fresh =
    item?.kind === 'object'
      ? (keys.length ? keys : attr ? [attr] : [])
          .map((k) => propEntry(item, k)?.value)
          .map((v) => (v ? text.slice(v.range.start, v.range.end) : ''))
          .find((src) => FRESH_ID.test(src))
      : undefined;
  if (fresh !== undefined) {
    return [
      {
        ruleId: id,
        message: `No action of this transaction fails when it runs again: a repeated request writes another child and \`${counterText}\` counts it twice${ifNumber}. The child's key is made on each call (\`${fresh.trim()}\`), so no condition on it can catch the replay: key ${which} by something a replay repeats (the caller's request or event id) and guard it with attribute_not_exists.${checkNote}${note}`,
        range: entry ? entry.keyRange : child.params.range,
        related: related(child),
        severity: 'info',
      },
    ];
  }
  const clash = contradiction(child, put ? 'attribute_exists' : 'attribute_not_exists', attr ? [...keys, attr] : keys);
  const contradicts = clash
    ? ` Its ConditionExpression already requires ${clash}, which contradicts that guard (both together can never hold): rewrite the condition rather than add to it.`
    : '';
  const others = children.length > 1 ? ' One such guard anywhere in the transaction is enough: a replay then fails and DynamoDB cancels every action (TransactionCanceledException).' : ' A replay then fails its condition and DynamoDB cancels the whole transaction (TransactionCanceledException), counter included.';
  const finding: Out = {
    ruleId: id,
    message: `No action of this transaction fails when it runs again: ${why}. Guard ${which} with ${fn}(${attr ?? '<key>'}).${others}${contradicts}${checkNote}${note}`,
    range: entry ? entry.keyRange : child.params.range,
    related: related(child),
    ...(severity ? { severity } : {}),
  };
  if (attr && !clash) {
    const ed = new ActionEditor(text, site, child.params);
    ed.addCondition(`${fn}(${ed.attribute(attr)})`);
    const edits = ed.build();
    // With several child writes the title says which one the fix guards.
    const target = children.length > 1 ? which : `the ${child.kind}`;
    if (edits) finding.fixes = [{ title: `Add the condition ${fn}(${attr}) to ${target}`, edits, safe: false, preferred: true }];
  }
  return [finding];
}

export const unguardedAddInTransaction: Rule = {
  id,
  meta: {
    description: 'A transaction updates a counter while none of its actions fails on a replay (no attribute_not_exists / attribute_exists guard on the child write, no version condition).',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'warning',
    fixable: true,
    category: 'transactions',
  },
  check: ({ text, sites }) => sites.filter((s) => s.api === 'TransactWriteItems').flatMap((s) => checkSite(text, s)),
  site: (ctx, s) => (s.api === 'TransactWriteItems' ? checkSite(ctx.text, s) : []),
};
