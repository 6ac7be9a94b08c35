import { AttrType, RequestSite } from '../extract/model';
import type { Operation } from '../extract/operations';

import type { ValueRefNode } from '../expression/ast';
import { numberProblem } from '../expression/numbers';
import { spanRange, unwrap, valueEntry, valueFacts, operations } from './analysis';
import { ActionEditor } from './fixes';
import { attributeTypeEdit } from './edit';
import { DOCS_BASE, Finding, Fix, Rule } from './types';
import { updateReads } from './update-reads';

const id = 'add-on-non-number';
type Out = Omit<Finding, 'severity'>;

const TYPE_NAMES: Partial<Record<AttrType, string>> = {
  S: 'a string', N: 'a number', B: 'binary', BOOL: 'a boolean', NULL: 'null', M: 'a map', L: 'a list',
};
const SETS: AttrType[] = ['SS', 'NS', 'BS'];
/**
 * The host code for a numeric string sent as a number, written exactly as the string reads, or undefined when no
 * literal of the host reads the same: DynamoDB must accept the text as written (no surrounding whitespace, 38
 * significant digits, in range); in JS/TS the literal must round-trip (`String(Number(s)) === s`, integers safe), so
 * `"007"`, `"12345678901234567890"` and `"1e400"` are left alone; in Python an int literal when Python reads it
 * (`007` is a SyntaxError), else `Decimal('…')` (boto3 refuses floats).
 */
export function numberLiteral(s: string, host: 'ts' | 'python' | 'low-level'): { text: string; decimal: boolean } | undefined {
  if (numberProblem(s)) return undefined;
  if (host === 'low-level') return { text: s, decimal: false };
  if (host === 'python') return { text: s, decimal: !/^-?(0|[1-9]\d*)$/.test(s) };
  const n = Number(s);
  return String(n) === s && (!Number.isInteger(n) || Number.isSafeInteger(n)) ? { text: s, decimal: false } : undefined;
}

/** `{S: "1"}` -> `{N: "1"}` (low-level), `"1"` -> `1` / `Decimal('1.5')` (document style), when it reads the same. */
function numericFix(text: string, op: Operation, ref: ValueRefNode): Fix | undefined {
  const entry = valueEntry(op.params, ref.name);
  const f = valueFacts(op, ref);
  if (!entry || f.type !== 'S' || f.text === undefined) return undefined;
  const low = op.site.style === 'low-level';
  const num = numberLiteral(f.text, low ? 'low-level' : op.site.host === 'python' ? 'python' : 'ts');
  if (!num) return undefined;
  const title = `Send ${ref.name} as the number ${num.text}`;
  if (low) {
    if (entry.value.kind !== 'object') return undefined;
    const edit = attributeTypeEdit(text, entry.value.properties[0].keyRange, 'S', 'N');
    return edit && { title, edits: [edit], safe: true, preferred: true };
  }
  const ed = new ActionEditor(text, op.site, op.params);
  ed.push({ range: entry.value.range, newText: ed.numberText(num.text, num.decimal) });
  const edits = ed.build();
  return edits && { title, edits, safe: true, preferred: true };
}

function checkSite(text: string, site: RequestSite): Out[] {
  const out: Out[] = [];
  for (const op of operations(site)) {
    if (op.kind !== 'Update') continue;
    const upd = updateReads(op)?.upd;
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
  site: (ctx, s) => checkSite(ctx.text, s),
};
