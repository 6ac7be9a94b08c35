/**
 * `dynalint reconcile --format html`: the report as one self-contained HTML file (attach it to a ticket, open it
 * anywhere): the drift chart (inline SVG, chart.ts), the summary, the table of drifted parents, totals, partitions
 * without a parent, and the repair outcome when there was one. No script and no external resource; a CSP meta tag
 * says so to the browser, and every value from the table is escaped.
 */
import { driftChartSvg } from './chart';
import { formatRepair, keyLabel } from './format';
import type { ReconcileReport, RepairReport } from './types';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function patternText(r: ReconcileReport): string {
  const p = r.pattern;
  if (p.parentSk !== undefined) return `${p.counter} on SK = ${p.parentSk} vs ${p.childPrefix !== undefined ? `the number of ${p.childPrefix}… children` : `the sum of ${p.shardPrefix}… shards`}`;
  return `sum of ${p.shardPrefix}… shards${p.childPrefix !== undefined ? ` vs the number of ${p.childPrefix}… children` : ''}`;
}

export function reconcileReportHtml(r: ReconcileReport, repaired?: RepairReport): string {
  const net = r.drifted.reduce((a, d) => a + d.drift, 0);
  const rows = r.drifted
    .map(
      (d) =>
        `<tr class="${d.drift > 0 ? 'under' : d.drift < 0 ? 'over' : ''}"><td>${esc(keyLabel(d.key))}</td><td class="num">${d.stored === null ? '<em>missing</em>' : d.stored}</td>` +
        `<td class="num">${d.actual}</td><td class="num drift">${d.drift > 0 ? '+' : ''}${d.drift}</td><td>${esc(d.note ?? '')}</td></tr>`,
    )
    .join('\n');
  const totals = (r.totals ?? []).map((t) => `<tr><td>${esc(keyLabel(t.key))}</td><td class="num">${t.total}</td><td class="num">${t.shards}</td><td>${esc(t.note ?? '')}</td></tr>`).join('\n');
  const orphans = r.orphans.map((x) => `<li>${esc(keyLabel(x.key))} — ${x.actual} without a parent item</li>`).join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Reconcile ${esc(r.table)}</title>
<style>
body { font-family: system-ui, sans-serif; color: #1f2328; margin: 16px 24px; }
h1 { font-size: 1.3em; margin-bottom: 2px; } .sub { color: #656d76; margin-top: 0; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0; }
.card { border: 1px solid #d0d7de; border-radius: 4px; padding: 8px 12px; min-width: 110px; } .card b { display: block; font-size: 1.4em; }
table { border-collapse: collapse; } th, td { padding: 4px 10px; border-bottom: 1px solid #d0d7de; text-align: left; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.under .drift { color: #bc6c00; font-weight: bold; } tr.over .drift { color: #cf222e; font-weight: bold; }
.partial { color: #9a6700; } .drift-chart { display: block; margin: 8px 0 16px; }
@media (prefers-color-scheme: dark) { body { background: #0d1117; color: #e6edf3; } .sub { color: #8d96a0; } .card, th, td { border-color: #30363d; } }
</style></head>
<body>
<h1>Reconcile ${esc(r.table)}</h1>
<p class="sub">${esc(patternText(r))} · ${r.consistent ? 'strongly consistent' : 'eventually consistent'} reads</p>
${r.partial ? `<p class="partial">⚠ ${esc(r.partial.message)}</p>` : ''}
<div class="cards">
  <div class="card"><b>${r.drifted.length}</b>drifted</div>
  <div class="card"><b>${r.checked}</b>checked</div>
  <div class="card"><b>${net > 0 ? '+' : ''}${net}</b>net drift</div>
  <div class="card"><b>${r.itemsRead}</b>items read</div>
  <div class="card"><b>${r.consumedRcu}</b>RCU consumed</div>
  <div class="card"><b>${(r.elapsedMs / 1000).toFixed(2)} s</b>elapsed</div>
</div>
${driftChartSvg(r)}
${
  r.drifted.length
    ? `<table><thead><tr><th>Key</th><th class="num">Stored</th><th class="num">Actual</th><th class="num">Drift</th><th>Note</th></tr></thead>\n<tbody>\n${rows}\n</tbody></table>`
    : r.totals
      ? ''
      : '<p>No drift: every stored count matches.</p>'
}
${totals ? `<h2>Totals</h2><table><thead><tr><th>Key</th><th class="num">Total</th><th class="num">Shards</th><th>Note</th></tr></thead><tbody>${totals}</tbody></table>` : ''}
${orphans ? `<h2>Partitions without a parent item</h2><ul>${orphans}</ul>` : ''}
${repaired ? `<h2>Repair</h2><pre>${esc(formatRepair(repaired))}</pre>` : ''}
</body></html>
`;
}
