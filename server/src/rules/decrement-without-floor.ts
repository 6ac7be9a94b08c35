import { RequestSite } from '../extract/model';

import {
  CounterAction, UpdateInfo, actionText, conditionPaths, operations, pathKey, requiredAttributes, spanRange, valueFacts,
} from './analysis';
import { ActionEditor } from './fixes';
import { DOCS_BASE, Finding, Fix, Rule } from './types';
import { updateReads } from './update-reads';

const id = 'decrement-without-floor';

function floorFix(text: string, site: RequestSite, upd: UpdateInfo, c: CounterAction): Fix | undefined {
  const op = operations(site)[0];
  const name = upd.node.value.slice(c.action.path.start, c.action.path.end);
  const ed = new ActionEditor(text, site, op.params);
  let floor: string;
  if (c.form === 'set' && c.op === '-' && c.delta) floor = c.delta.name;
  else {
    const t = c.delta && valueFacts(op, c.delta).text;
    if (!t || !/^-/.test(t.trim())) return undefined;
    floor = ed.addNumber(':floor', t.trim().slice(1));
  }
  ed.addCondition(`${name} >= ${floor}`);
  const edits = ed.build();
  return edits && { title: `Only decrement while ${name} >= ${floor}`, edits, safe: false, preferred: true };
}

function checkSite(text: string, site: RequestSite): Omit<Finding, 'severity'>[] {
  if (site.api !== 'UpdateItem') return [];
  const op = operations(site)[0];
  const reads = updateReads(op);
  if (!reads) return [];
  const upd = reads.upd;
  const cond = reads.condition();
  if (cond.state === 'unknown') return [];
  const names = reads.namesMap();
  const floored = new Set(cond.state === 'parsed' ? conditionPaths(cond.ast, true).map((p) => pathKey(p, names)) : []);
  // A guarded removal implies the floor: the condition needs what the update removes (`attribute_exists(likedBy.#u)`
  // with `REMOVE likedBy.#u`, `contains(likers, :u)` with `DELETE likers :uSet`), so each decrement takes away one
  // thing that was counted, and a second one fails its condition.
  if (cond.state === 'parsed') {
    const required = requiredAttributes(cond.ast, names);
    const removes = upd.ast.clauses.some((cl) => cl.actions.some((a) => (a.type === 'REMOVE' || a.type === 'DELETE') && required.has(pathKey(a.path, names))));
    if (removes) return [];
  }
  return reads
    .counterActions()
    .filter((c) => c.direction === -1 && !floored.has(c.key))
    .map((c) => {
      const fix = floorFix(text, site, upd, c);
      return {
        ruleId: id,
        message: `\`${actionText(upd, c)}\` has no condition keeping ${c.key} from going below zero: a repeated or concurrent decrement drives the count negative. Add a condition such as ${c.key} >= the amount removed.`,
        range: spanRange(upd.node, c.action),
        fixes: fix ? [fix] : undefined,
      };
    });
}

export const decrementWithoutFloor: Rule = {
  id,
  meta: {
    description: 'A standalone decrement with no condition on the counter can drive it below zero.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'warning',
    fixable: true,
    category: 'counters',
  },
  check: ({ text, sites }) => sites.flatMap((s) => checkSite(text, s)),
  site: (ctx, s) => checkSite(ctx.text, s),
};
