/** Shared helpers for the expression tests: compact value notation and finding formatting. */
import type { AttrType } from '../../../server/src/extract/model';
import type { ExpressionFinding, ValueInfo } from '../../../server/src/expression';

/** `'N:5'` -> {type:'N', text:'5'}; `'L'` -> {type:'L'}; `'NS:1,2'` -> a number set with items; `'SS:'` -> empty set. */
export function val(spec: string): ValueInfo {
  const i = spec.indexOf(':');
  const type = (i < 0 ? spec : spec.slice(0, i)) as AttrType;
  const rest = i < 0 ? undefined : spec.slice(i + 1);
  if (type === 'SS' || type === 'NS' || type === 'BS' || type === 'L') {
    if (rest === undefined) return { type };
    const el = type === 'NS' ? 'N' : type === 'SS' ? 'S' : type === 'BS' ? 'B' : 'N';
    return { type, items: rest === '' ? [] : rest.split(',').map((t) => ({ type: el as AttrType, text: t })) };
  }
  return rest === undefined ? { type } : { type, text: rest };
}

export function vals(m: Record<string, string>): Record<string, ValueInfo> {
  return Object.fromEntries(Object.entries(m).map(([k, s]) => [k, val(s)]));
}

/** `id@start-end` for a finding inside an expression; `id@Map:key` for one on a map key; `id@Map` on a map. */
export function fmt(f: ExpressionFinding): string {
  const l = f.location;
  if ('start' in l) return `${f.id}@${l.start}-${l.end}`;
  return l.key === undefined ? `${f.id}@${l.field}` : `${f.id}@${l.field}:${l.key}`;
}

export function fmtAll(fs: ExpressionFinding[]): string[] {
  return fs.map(fmt).sort();
}
