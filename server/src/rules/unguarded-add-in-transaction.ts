import { Property, RequestSite, prop, propEntry } from '../extract/model';
import type { Operation } from '../extract/operations';
import {
  CounterAction, actionText, conditionOf, counterActions, guardedAttributes, keyNames, literalKey, namesOf, operations, spanRange, tableId, updateOf,
} from './analysis';
import { ActionEditor } from './fixes';
import { DOCS_BASE, Finding, Rule } from './types';

const id = 'unguarded-add-in-transaction';
type Out = Omit<Finding, 'severity'>;

const TOKEN_NOTE =
  ' The ClientRequestToken only makes retries of this same call idempotent for ten minutes; it does not stop a second, separate request.';

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

function isGuarded(text: string, child: Operation, fn: 'attribute_exists' | 'attribute_not_exists', keys: string[], checks: Operation[]): boolean {
  const c = conditionOf(child.params);
  if (c.state === 'unknown') return true;
  if (c.state === 'parsed') {
    const attrs = guardedAttributes(c.ast, fn, namesOf(child.params), keys);
    if (attrs.length && (keys.length === 0 || attrs.some((a) => keys.includes(a)))) return true;
  }
  // A ConditionCheck on the child's key with the same kind of guard.
  const childKey = keys.length ? literalKey(prop(child.params, 'Key') ?? prop(child.params, 'Item'), child.site.style, keys) : undefined;
  return checks.some((cc) => {
    const cond = conditionOf(cc.params);
    if (cond.state === 'unknown') return true;
    if (cond.state !== 'parsed' || !guardedAttributes(cond.ast, fn, namesOf(cc.params)).length) return false;
    const ccKey = literalKey(prop(cc.params, 'Key'), cc.site.style);
    return tableId(text, cc) === tableId(text, child) && (!childKey || !ccKey || ccKey === childKey);
  });
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

function checkSite(text: string, site: RequestSite): Out[] {
  const ops = operations(site);
  const counters: { op: Operation; c: CounterAction; upd: NonNullable<ReturnType<typeof updateOf>> }[] = [];
  for (const op of ops) {
    if (op.kind !== 'Update') continue;
    const upd = updateOf(op.params);
    if (upd) for (const c of counterActions(op, upd)) counters.push({ op, c, upd });
  }
  if (!counters.length) return [];
  const note = prop(site.params, 'ClientRequestToken') ? TOKEN_NOTE : '';
  const children = ops.filter((o) => o.kind === 'Put' || o.kind === 'Delete');
  const checks = ops.filter((o) => o.kind === 'ConditionCheck');
  const out: Out[] = [];

  if (!children.length) {
    // Entries the extractor could not read (a helper call, a spread, later pushes) may be the guarded child write.
    const items = prop(site.params, 'TransactItems');
    if (items?.kind !== 'array' || !items.complete || items.items.some((i) => i.kind !== 'object')) return [];
    // A ConditionCheck, or a child written by an Update guarded on existence, guards the count.
    const existenceGuarded = (o: Operation) => {
      const c = conditionOf(o.params);
      const names = namesOf(o.params);
      return c.state === 'unknown' || (c.state === 'parsed' && [...guardedAttributes(c.ast, 'attribute_exists', names), ...guardedAttributes(c.ast, 'attribute_not_exists', names)].length > 0);
    };
    if (checks.length || ops.some((o) => o.kind === 'Update' && !counters.some((x) => x.op === o) && existenceGuarded(o))) return [];
    for (const { op, c, upd } of counters) {
      if (conditionOf(op.params).state !== 'absent') continue;
      out.push({
        ruleId: id,
        message: `\`${actionText(upd, c)}\` runs in a transaction with no guarded child write: every repeated request (an application retry after a timeout, a double click, a redelivered message) changes the count again. Write the child item in the same transaction with a condition on its key.${note}`,
        range: spanRange(upd.node, c.action),
      });
    }
    return out;
  }

  for (const child of children) {
    const put = child.kind === 'Put';
    const fn = put ? 'attribute_not_exists' : 'attribute_exists';
    const keys = keyAttributes(text, child, ops);
    if (isGuarded(text, child, fn, keys, checks)) continue;
    const counter = counters.find((x) => x.c.direction === (put ? 1 : -1)) ?? counters[0];
    const counterText = actionText(counter.upd, counter.c);
    const related = [{ range: spanRange(counter.upd.node, counter.c.action), message: `The counter update \`${counterText}\`` }];
    const entry = entryOf(child);
    const attr = guardAttribute(child, keys);
    const why = put
      ? `a repeated request (an application retry after a timeout, a double click, a redelivered message) writes the child again and \`${counterText}\` counts it twice`
      : `a second delete of the same child still runs \`${counterText}\` and drifts the count (negative on a double unlike)`;
    const clash = contradiction(child, put ? 'attribute_exists' : 'attribute_not_exists', attr ? [...keys, attr] : keys);
    const contradicts = clash
      ? ` Its ConditionExpression already requires ${clash}, which contradicts that guard (both together can never hold): rewrite the condition rather than add to it.`
      : '';
    const finding: Out = {
      ruleId: id,
      message: `This ${child.kind} is not guarded by ${fn}(${attr ?? '<key>'}): ${why}.${contradicts}${note}`,
      range: entry ? entry.keyRange : child.params.range,
      related,
    };
    if (attr && !clash) {
      const ed = new ActionEditor(text, site, child.params);
      ed.addCondition(`${fn}(${ed.attribute(attr)})`);
      const edits = ed.build();
      if (edits) finding.fixes = [{ title: `Add the condition ${fn}(${attr}) to the ${child.kind}`, edits, safe: false, preferred: true }];
    }
    out.push(finding);
  }
  return out;
}

export const unguardedAddInTransaction: Rule = {
  id,
  meta: {
    description: 'A transaction updates a counter while its child write has no attribute_not_exists / attribute_exists guard.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'warning',
    fixable: true,
    category: 'transactions',
  },
  check: ({ text, sites }) => sites.filter((s) => s.api === 'TransactWriteItems').flatMap((s) => checkSite(text, s)),
};
