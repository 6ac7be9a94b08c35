import { AttrType, RequestSite } from '../extract/model';
import type { Operation } from '../extract/operations';

import type { ValueRefNode } from '../expression/ast';
import { spanRange, unwrap, updateOf, valueEntry, valueFacts, operations } from './analysis';
import { ActionEditor } from './fixes';
import { DOCS_BASE, Finding, Fix, Rule } from './types';

const id = 'add-on-non-number';
type Out = Omit<Finding, 'severity'>;

const TYPE_NAMES: Partial<Record<AttrType, string>> = {
  S: 'a string', N: 'a number', B: 'binary', BOOL: 'a boolean', NULL: 'null', M: 'a map', L: 'a list',
};
const SETS: AttrType[] = ['SS', 'NS', 'BS'];
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `{S: "1"}` -> `{N: "1"}` (low-level), `"1"` -> `1` (document style). */
function numericFix(text: string, op: Operation, ref: ValueRefNode): Fix | undefined {
  const entry = valueEntry(op.params, ref.name);
  const f = valueFacts(op, ref);
  if (!entry || f.type !== 'S' || f.text === undefined || !NUMERIC.test(f.text.trim())) return undefined;
  const num = f.text.trim();
  if (op.site.style === 'low-level') {
    if (entry.value.kind !== 'object') return undefined;
    const k = entry.value.properties[0].keyRange;
    const keyText = text.slice(k.start, k.end);
    const at = k.start + keyText.indexOf('S');
    return { title: `Send ${ref.name} as the number ${num}`, edits: [{ range: { start: at, end: at + 1 }, newText: 'N' }], safe: true, preferred: true };
  }
  const ed = new ActionEditor(text, op.site, op.params);
  ed.push({ range: entry.value.range, newText: ed.numberText(num, false) });
  const edits = ed.build();
  return edits && { title: `Send ${ref.name} as the number ${num}`, edits, safe: true, preferred: true };
}

function checkSite(text: string, site: RequestSite): Out[] {
  const out: Out[] = [];
  for (const op of operations(site)) {
    if (op.kind !== 'Update') continue;
    const upd = updateOf(op.params);
    if (!upd) continue;
    for (const clause of upd.ast.clauses) {
      for (const a of clause.actions) {
        if (a.type !== 'ADD' && a.type !== 'DELETE') continue;
        const v = unwrap(a.value);
        if (v.type !== 'value') continue;
        const t = valueFacts(op, v).type;
        const bad = a.type === 'ADD' ? t !== 'unknown' && t !== 'N' && !SETS.includes(t) : t !== 'unknown' && !SETS.includes(t);
        if (!bad) continue;
        const what = TYPE_NAMES[t] ?? t;
        const entry = valueEntry(op.params, v.name);
        const fix = a.type === 'ADD' ? numericFix(text, op, v) : undefined;
        out.push({
          ruleId: id,
          message:
            a.type === 'ADD'
              ? `ADD needs a number or a set, but ${v.name} is ${what}: DynamoDB rejects the request (Incorrect operand type for operator or function; operator: ADD).`
              : `DELETE removes elements from a set, but ${v.name} is ${what}: DynamoDB rejects the request (Incorrect operand type for operator or function; operator: DELETE).`,
          range: spanRange(upd.node, v),
          related: entry ? [{ range: entry.range, message: `${v.name} is defined here` }] : undefined,
          fixes: fix ? [fix] : undefined,
        });
      }
    }
  }
  return out;
}

export const addOnNonNumber: Rule = {
  id,
  meta: {
    description: 'ADD with a value that is not a number or a set, or DELETE with a value that is not a set.',
    docs: `${DOCS_BASE}/${id}.md`,
    defaultSeverity: 'error',
    fixable: true,
    category: 'correctness',
  },
  check: ({ text, sites }) => sites.flatMap((s) => checkSite(text, s)),
};
