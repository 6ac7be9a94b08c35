import { RequestSite } from '../extract/model';
import type { Operation } from '../extract/operations';

import { CounterAction, UpdateInfo, actionText, moveAction, operations, replayOf, spanRange, valueFacts } from './analysis';
import { rewriteString, writesVariables } from './edit';
import { ActionEditor } from './fixes';
import { DOCS_BASE, Finding, Fix, Rule } from './types';
import { updateReads } from './update-reads';

const id = 'non-idempotent-counter';

/** Host code for the value the user must supply: a variable to fill in, in the request's value style. */
function variable(ed: ActionEditor, name: string): string {
  const py = ed.syn.host === 'python';
  const v = py ? name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()) : name;
  if (ed.site.style === 'document') return v;
  return py ? `{'N': str(${v})}` : `{ N: String(${v}) }`;
}

/**
 * `ADD n :d` / `SET n = n + :d` -> `SET n = :next` with `ConditionExpression: n = :current`, `:next`/`:current` bound to
 * variables `nextValue`/`currentValue` (`next_value`/`current_value` in Python) the caller has read; the delta's value
 * goes when nothing else uses it. Not for JSON, which cannot name a variable.
 */
function conditionalFix(text: string, op: Operation, upd: UpdateInfo, c: CounterAction): Fix | undefined {
  if (!writesVariables(op.site)) return undefined;
  const ed = new ActionEditor(text, op.site, op.params);
  const v = upd.node.value;
  const path = v.slice(c.action.path.start, c.action.path.end);
  const next = ed.addValueCode(':next', variable(ed, 'nextValue'));
  const current = ed.addValueCode(':current', variable(ed, 'currentValue'));
  const expr =
    c.action.type === 'SET'
      ? v.slice(0, c.action.value.start) + next + v.slice(c.action.value.end)
      : moveAction(v, upd.ast.clauses, c.action, 'SET', `${path} = ${next}`);
  ed.push(rewriteString(text, ed.syn, upd.node, expr));
  ed.addCondition(`${path} = ${current}`);
  const others = op.params.properties.filter((p) => p.key.endsWith('Expression') && p.key !== 'UpdateExpression').map((p) => (p.value.kind === 'string' ? p.value.value : ''));
  // Values only the old arithmetic used (the delta, an if_not_exists default) go with it.
  for (const name of new Set(v.slice(c.action.start, c.action.end).match(/:\w+/g) ?? []))
    if (![expr, ...others].some((e) => new RegExp(`${name}(?!\\w)`).test(e))) ed.removeValue(name);
  const edits = ed.build();
  return edits && { title: `Rewrite as a conditional update: SET ${path} = ${next} IF ${path} = ${current}`, edits, safe: false };
}

function checkSite(text: string, site: RequestSite): Omit<Finding, 'severity'>[] {
  if (site.api !== 'UpdateItem') return [];
  const op = operations(site)[0];
  const reads = updateReads(op);
  if (!reads) return [];
  const upd = reads.upd;
  // A condition the update itself falsifies (`#v = :seen` with `SET #v = :next`, `likeTally = :seen` with ADD) makes a
  // retry fail; one that still holds the second time (a floor, attribute_exists(PK)) does not. Unknown: silent.
  if (replayOf(op).verdict !== 'passes') return [];
  const cond = reads.condition();
  const counters = reads.counterActions();
  return counters.map((c) => {
    const name = upd.node.value.slice(c.action.path.start, c.action.path.end);
    const fix = counters.length === 1 ? conditionalFix(text, op, upd, c) : undefined;
    const set = c.form === 'add' && c.delta && valueFacts(op, c.delta).type === 'unknown' ? ` if ${c.delta.name} is a number (adding the same element to a set twice is harmless)` : '';
    const held = cond.state === 'parsed' ? ` Its ConditionExpression \`${cond.node.value}\` does not stop the retry: it still holds the second time.` : '';
    return {
      ruleId: id,
      message: `An atomic counter is not idempotent: if this call is retried after a timeout, \`${actionText(upd, c)}\` applies twice${set}.${held} Fine for view counts; for inventory, credits or balances use a conditional update: SET ${name} = :next with ConditionExpression ${name} = :current.`,
      range: spanRange(upd.node, c.action),
      fixes: fix ? [fix] : undefined,
    };
  });
}

export const nonIdempotentCounter: Rule = {
  id,
  meta: {
    description: 'An atomic counter update (ADD or SET n = n ± :v) whose condition does not stop a retry double-counts when a call is retried.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'off',
    fixable: true,
    category: 'counters',
  },
  check: ({ text, sites }) => sites.flatMap((s) => checkSite(text, s)),
  site: (ctx, s) => checkSite(ctx.text, s),
};
