/** Rendering reports: a text table for terminals, JSON, and CSV (shared by the CLI and the VS Code export). */
import { PlainKey, ReconcileReport, RepairReport } from './types';

export function keyLabel(key: PlainKey): string {
  return Object.entries(key)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

function patternLabel(r: ReconcileReport): string {
  const p = r.pattern;
  const stored = p.parentSk !== undefined ? `${p.counter} on SK=${p.parentSk}` : `sum of ${p.shardCounter ?? p.counter} over ${p.shardPrefix}*`;
  const truth = p.childPrefix !== undefined ? `count of ${p.childPrefix}* children` : p.parentSk !== undefined ? `sum of ${p.shardCounter ?? p.counter} over ${p.shardPrefix}*` : 'nothing (totals)';
  return `${stored} vs ${truth}`;
}

function grid(head: string[], rows: string[][], right: Set<number>): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (right.has(i) ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ').trimEnd();
  return [line(head), w.map((x) => '-'.repeat(x)).join('  '), ...rows.map(line)];
}

/** Drop a trailing column that is empty in every row. */
function trimColumn(head: string[], rows: string[][]): [string[], string[][]] {
  const last = head.length - 1;
  return rows.some((r) => r[last]) ? [head, rows] : [head.slice(0, last), rows.map((r) => r.slice(0, last))];
}

export function formatTable(r: ReconcileReport): string {
  const out: string[] = [`Reconcile ${r.table}: ${patternLabel(r)}${r.consistent ? ' (strongly consistent)' : ''}`];
  if (r.drifted.length) {
    const [head, rows] = trimColumn(
      ['key', 'stored', 'actual', 'drift', 'note'],
      r.drifted.map((d) => [keyLabel(d.key), d.stored === null ? (d.note ? 'invalid' : 'missing') : String(d.stored), String(d.actual), (d.drift > 0 ? '+' : '') + d.drift, d.note ?? '']),
    );
    out.push(...grid(head, rows, new Set([1, 2, 3])));
  }
  if (r.totals?.length) {
    out.push(...grid(...trimColumn(['key', 'total', 'shards', 'note'], r.totals.map((t) => [keyLabel(t.key), String(t.total), String(t.shards), t.note ?? ''])), new Set([1, 2])));
  }
  for (const o of r.orphans) out.push(`no parent item: ${keyLabel(o.key)} (actual ${o.actual})`);
  out.push(
    `${r.drifted.length} drifted of ${r.checked} checked` +
      (r.orphans.length ? `, ${r.orphans.length} without a parent item` : '') +
      `; ${r.itemsRead} items read, ${r.consumedRcu} RCU consumed, ${r.requests} requests` +
      (r.retries ? `, ${r.retries} throttling retries` : '') +
      `, ${(r.elapsedMs / 1000).toFixed(2)} s`,
  );
  if (r.partial) out.push(`PARTIAL: ${r.partial.message}`);
  return out.join('\n');
}

export function formatRepair(r: RepairReport): string {
  const out = r.results.map(({ key, outcome: o }) => {
    const k = keyLabel(key);
    switch (o.status) {
      case 'repaired':
        return `repaired ${k}: ${o.from === null ? 'missing' : o.from} -> ${o.to}`;
      case 'already-correct':
        return `unchanged ${k}: already ${o.value} on a consistent re-read`;
      case 'changed':
        return `skipped ${k}: the counter changed during each of ${o.attempts} attempts (not overwritten)`;
      case 'no-parent':
        return `skipped ${k}: the parent item does not exist`;
      case 'not-attempted':
        return `not attempted ${k}: ${o.reason}`;
    }
  });
  out.push(`${r.written} item(s) written; ${r.consumedRcu} RCU and ${r.consumedWcu} WCU consumed`);
  if (r.partial) out.push(`PARTIAL: ${r.partial.message}`);
  return out.join('\n');
}

function csvCell(v: string): string {
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** CSV of the drifted rows: one column per key attribute, then stored, actual, drift, note. */
export function toCsv(r: Pick<ReconcileReport, 'drifted'>): string {
  const keyCols = [...new Set(r.drifted.flatMap((d) => Object.keys(d.key)))];
  const head = [...keyCols, 'stored', 'actual', 'drift', 'note'];
  const rows = r.drifted.map((d) => [
    ...keyCols.map((k) => String(d.key[k] ?? '')),
    d.stored === null ? '' : String(d.stored),
    String(d.actual),
    String(d.drift),
    d.note ?? '',
  ]);
  return [head, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
