/** Rendering reports: a text table for terminals, JSON, and CSV (shared by the CLI and the VS Code export). */
import { PlainKey, ReconcileReport, RepairOutcome, RepairReport } from './types';

/** What a re-read after a lost answer found, in words. */
export function possiblyText(o: Extract<RepairOutcome, { status: 'possibly-written' }>): string {
  switch (o.found) {
    case 'written':
      return `a consistent re-read finds ${o.to}: written`;
    case 'not-written':
      return `a consistent re-read finds ${o.from === null ? 'it still missing' : o.from}: not written`;
    case 'changed':
      return `a consistent re-read finds ${o.now === null || o.now === undefined ? 'no number' : o.now}: changed by someone else (not overwritten)`;
    case 'unknown':
      return 'the re-read failed: unknown, check this item';
  }
}

/** Control characters (terminal escapes, line breaks, bidi overrides) in table data, shown as `\uXXXX`. */
export function visible(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `PK=POST#a91f SK=META`: key values come from the table, so control characters are made visible. */
export function keyLabel(key: PlainKey): string {
  return Object.entries(key)
    .map(([k, v]) => `${visible(k)}=${visible(String(v))}`)
    .join(' ');
}

function patternLabel(r: ReconcileReport): string {
  const p = r.pattern;
  const stored = p.parentSk !== undefined ? `${p.counter} on SK=${p.parentSk}` : `sum of ${p.shardCounter ?? p.counter} over ${p.shardPrefix}*`;
  const truth = p.childPrefix !== undefined ? `count of ${p.childPrefix}* children` : p.parentSk !== undefined ? `sum of ${p.shardCounter ?? p.counter} over ${p.shardPrefix}*` : 'nothing (totals)';
  return `${stored} vs ${truth}`;
}

function grid(head: string[], rows: string[][], right: Set<number>): string[] {
  const w = head.map((h, i) => rows.reduce((m, r) => Math.max(m, r[i].length), h.length));
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
    for (const x of grid(head, rows, new Set([1, 2, 3]))) out.push(x);
  }
  if (r.totals?.length) {
    for (const x of grid(...trimColumn(['key', 'total', 'shards', 'note'], r.totals.map((t) => [keyLabel(t.key), String(t.total), String(t.shards), t.note ?? ''])), new Set([1, 2]))) out.push(x);
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
        if (o.since === 'export') {
          return `skipped ${k}: changed since the export${o.now === undefined ? '' : ` (now ${o.now === null ? 'missing or not a number' : o.now})`}, not overwritten`;
        }
        return `skipped ${k}: the counter changed during each of ${o.attempts} attempts (not overwritten)`;
      case 'no-parent':
        return `skipped ${k}: the parent item does not exist`;
      case 'not-attempted':
        return `not attempted ${k}: ${o.reason}`;
      case 'failed':
        return `failed ${k}: ${o.error} (nothing written)`;
      case 'possibly-written':
        return `possibly written ${k}: ${o.from === null ? 'missing' : o.from} -> ${o.to}, the answer was lost (${o.error}); ${possiblyText(o)}`;
    }
  });
  const possibly = r.results.filter((x) => x.outcome.status === 'possibly-written').length;
  const failed = r.results.filter((x) => x.outcome.status === 'failed').length;
  // After a stop, say how many were left; otherwise a not-attempted row is a deliberate skip, listed above.
  const notAttempted = r.partial ? r.results.filter((x) => x.outcome.status === 'not-attempted').length : 0;
  out.push(
    `${r.written} item(s) written` +
      (possibly ? `, ${possibly} possibly written (answer lost; re-read)` : '') +
      (failed ? `, ${failed} failed` : '') +
      (notAttempted ? `, ${notAttempted} not attempted` : '') +
      `; ${r.consumedRcu} RCU and ${r.consumedWcu} WCU consumed`,
  );
  if (r.partial) out.push(`PARTIAL: ${r.partial.message}`);
  return out.join('\n');
}

/**
 * One CSV cell. Text from the table (key names and values, notes) that a spreadsheet would read as a formula — a cell
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return (OWASP, CSV injection) — is prefixed with `'` so it
 * stays text: `=HYPERLINK(...)` in a partition key is shown, never followed. Numbers this tool computed are written
 * as numbers (`-2` stays a drift of -2).
 */
function csvCell(v: string | number): string {
  const text = typeof v === 'number' ? String(v) : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV of the drifted rows: one column per key attribute, then stored, actual, drift, note. */
export function toCsv(r: Pick<ReconcileReport, 'drifted'>): string {
  const keyCols = [...new Set(r.drifted.flatMap((d) => Object.keys(d.key)))];
  const head: Array<string | number> = [...keyCols, 'stored', 'actual', 'drift', 'note'];
  // A number key is a number here (and written as one); text keys are neutralised like any text.
  const rows = r.drifted.map((d): Array<string | number> => [
    ...keyCols.map((k) => d.key[k] ?? ''),
    d.stored === null ? '' : d.stored,
    d.actual,
    d.drift,
    d.note ?? '',
  ]);
  return [head, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
