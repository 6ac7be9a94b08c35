/**
 * The reconcile results page (webview HTML): a sortable table with drift highlighted, totals and consumed RCU,
 * export to JSON/CSV, and "Repair selected…". Pure (no vscode import) so it can be tested as text.
 * The page talks to the extension with postMessage: {type:'export', format}, {type:'repair', rows:[index...]}; it
 * receives {type:'repaired', outcomes:[{index, text, ok}]}.
 */
import type { ReconcileReport } from '../../../server/src/reconcile/types';
import { keyLabel } from '../../../server/src/reconcile/format';
import { driftChartSvg } from '../../../server/src/reconcile/chart';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface PageOptions {
  nonce: string;
  cspSource: string;
  /** Whether "Repair selected…" is offered (a parent stores the count). */
  repairable: boolean;
  /** Connection label for the header. */
  connection: string;
}

export function reconcileHtml(r: ReconcileReport, o: PageOptions): string {
  const p = r.pattern;
  const what =
    p.parentSk !== undefined
      ? `${p.counter} on SK = ${p.parentSk} vs ${p.childPrefix !== undefined ? `the number of ${p.childPrefix}… children` : `the sum of ${p.shardPrefix}… shards`}`
      : `sum of ${p.shardPrefix}… shards${p.childPrefix !== undefined ? ` vs the number of ${p.childPrefix}… children` : ''}`;
  const rows = r.drifted
    .map((d, i) => {
      const cls = d.drift > 0 ? 'under' : d.drift < 0 ? 'over' : 'odd';
      return (
        `<tr data-index="${i}" class="${cls}">` +
        (o.repairable ? `<td><input type="checkbox" class="pick" aria-label="select ${escapeHtml(keyLabel(d.key))}"></td>` : '') +
        `<td data-v="${escapeHtml(keyLabel(d.key))}">${escapeHtml(keyLabel(d.key))}</td>` +
        `<td class="num" data-v="${d.stored ?? ''}">${d.stored === null ? '<em>missing</em>' : d.stored}</td>` +
        `<td class="num" data-v="${d.actual}">${d.actual}</td>` +
        `<td class="num drift" data-v="${d.drift}">${d.drift > 0 ? '+' : ''}${d.drift}</td>` +
        `<td data-v="${escapeHtml(d.note ?? '')}">${escapeHtml(d.note ?? '')}</td>` +
        `<td class="status"></td></tr>`
      );
    })
    .join('\n');
  const totals = (r.totals ?? [])
    .map((t) => `<tr><td>${escapeHtml(keyLabel(t.key))}</td><td class="num">${t.total}</td><td class="num">${t.shards}</td></tr>`)
    .join('\n');
  const orphans = r.orphans.map((x) => `<li>${escapeHtml(keyLabel(x.key))} — ${x.actual} without a parent item</li>`).join('');
  const sumDrift = r.drifted.reduce((a, d) => a + d.drift, 0);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${o.cspSource} 'nonce-${o.nonce}'; script-src 'nonce-${o.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Reconcile ${escapeHtml(r.table)}</title>
<style nonce="${o.nonce}">
body { font-family: var(--vscode-font-family, system-ui, sans-serif); color: var(--vscode-foreground); padding: 0 16px 16px; }
h1 { font-size: 1.3em; margin-bottom: 2px; } .sub { color: var(--vscode-descriptionForeground, #888); margin-top: 0; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0; }
.card { border: 1px solid var(--vscode-panel-border, #8884); border-radius: 4px; padding: 8px 12px; min-width: 110px; }
.card b { display: block; font-size: 1.4em; } .card.bad b { color: var(--vscode-errorForeground, #f14c4c); }
table { border-collapse: collapse; width: 100%; } th, td { padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border, #8884); text-align: left; }
th[data-col] { cursor: pointer; user-select: none; } th[data-col]:after { content: ' ↕'; opacity: .4; }
th.asc:after { content: ' ▲'; opacity: 1; } th.desc:after { content: ' ▼'; opacity: 1; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.under .drift { color: var(--vscode-charts-orange, #d18616); font-weight: bold; } tr.over .drift { color: var(--vscode-errorForeground, #f14c4c); font-weight: bold; }
tr.under { background: color-mix(in srgb, var(--vscode-charts-orange, #d18616) 8%, transparent); }
tr.over { background: color-mix(in srgb, var(--vscode-errorForeground, #f14c4c) 8%, transparent); }
tr.done { opacity: .6; } .partial { color: var(--vscode-editorWarning-foreground); }
.actions { margin: 12px 0; display: flex; gap: 8px; }
button { background: var(--vscode-button-background, #0e639c); color: var(--vscode-button-foreground, #fff); border: none; padding: 4px 12px; cursor: pointer; }
button.secondary { background: var(--vscode-button-secondaryBackground, #5f6a79); color: var(--vscode-button-secondaryForeground, #fff); }
button:disabled { opacity: .5; cursor: default; }
.drift-chart { display: block; margin: 8px 0 16px; max-width: 100%; height: auto; }
.drift-chart .bar-under { fill: var(--vscode-charts-orange, #d18616); } .drift-chart .bar-over { fill: var(--vscode-charts-red, #e5534b); }
</style></head>
<body>
<h1>Reconcile ${escapeHtml(r.table)}</h1>
<p class="sub">${escapeHtml(what)} · ${escapeHtml(o.connection)} · ${r.consistent ? 'strongly consistent' : 'eventually consistent'} reads</p>
${r.partial ? `<p class="partial">⚠ ${escapeHtml(r.partial.message)}</p>` : ''}
<div class="cards">
  <div class="card ${r.drifted.length ? 'bad' : ''}"><b id="drifted">${r.drifted.length}</b>drifted</div>
  <div class="card"><b>${r.checked}</b>checked</div>
  <div class="card"><b>${sumDrift > 0 ? '+' : ''}${sumDrift}</b>net drift</div>
  <div class="card"><b>${r.itemsRead}</b>items read</div>
  <div class="card"><b>${r.consumedRcu}</b>RCU consumed</div>
  <div class="card"><b>${(r.elapsedMs / 1000).toFixed(2)} s</b>elapsed</div>
</div>
<div class="actions">
  ${o.repairable && r.drifted.length ? '<button id="repair" disabled>Repair selected…</button>' : ''}
  <button class="secondary" id="json">Export JSON</button>
  <button class="secondary" id="csv">Export CSV</button>
</div>
${driftChartSvg(r)}
${
  r.drifted.length
    ? `<table id="rows"><thead><tr>${o.repairable ? '<th><input type="checkbox" id="all" aria-label="select all"></th>' : ''}<th data-col="key">Key</th><th data-col="stored" class="num">Stored</th><th data-col="actual" class="num">Actual</th><th data-col="drift" class="num">Drift</th><th data-col="note">Note</th><th>Repair</th></tr></thead>
<tbody>
${rows}
</tbody></table>`
    : r.totals
      ? ''
      : '<p>No drift: every stored count matches.</p>'
}
${totals ? `<h2>Totals</h2><table><thead><tr><th>Key</th><th class="num">Total</th><th class="num">Shards</th></tr></thead><tbody>${totals}</tbody></table>` : ''}
${orphans ? `<h2>Partitions without a parent item</h2><ul>${orphans}</ul>` : ''}
<script nonce="${o.nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const body = document.querySelector('#rows tbody');
  const cols = ['key', 'stored', 'actual', 'drift', 'note'];
  const offset = ${o.repairable ? 1 : 0};
  let sort = { col: 'drift', dir: -1, abs: true };
  function cell(tr, col) { return tr.children[cols.indexOf(col) + offset].dataset.v; }
  function apply() {
    if (!body) return;
    const rows = Array.from(body.children);
    rows.sort((a, b) => {
      const x = cell(a, sort.col), y = cell(b, sort.col);
      const nx = Number(x), ny = Number(y);
      const numeric = sort.col !== 'key' && sort.col !== 'note' && x !== '' && y !== '';
      // Text in code-unit order (not localeCompare): the same order in every webview, whatever its locale.
      const sx = String(x), sy = String(y);
      const c = numeric ? (sort.abs ? Math.abs(nx) - Math.abs(ny) : nx - ny) : sx < sy ? -1 : sx > sy ? 1 : 0;
      return c * sort.dir;
    });
    rows.forEach((r) => body.appendChild(r));
    document.querySelectorAll('th[data-col]').forEach((th) => {
      th.classList.toggle('asc', th.dataset.col === sort.col && sort.dir === 1);
      th.classList.toggle('desc', th.dataset.col === sort.col && sort.dir === -1);
    });
  }
  document.querySelectorAll('th[data-col]').forEach((th) => th.addEventListener('click', () => {
    const col = th.dataset.col;
    const toggle = sort.col === col && !sort.abs;
    sort = { col, dir: toggle ? -sort.dir : col === 'key' || col === 'note' ? 1 : -1, abs: false };
    apply();
  }));
  const picks = () => Array.from(document.querySelectorAll('input.pick'));
  const repair = document.getElementById('repair');
  function update() { if (repair) { const n = picks().filter((p) => p.checked).length; repair.disabled = n === 0; repair.textContent = n ? 'Repair ' + n + ' selected…' : 'Repair selected…'; } }
  picks().forEach((p) => p.addEventListener('change', update));
  const all = document.getElementById('all');
  if (all) all.addEventListener('change', () => { picks().forEach((p) => { if (!p.disabled) p.checked = all.checked; }); update(); });
  if (repair) repair.addEventListener('click', () => {
    const rows = picks().filter((p) => p.checked).map((p) => Number(p.closest('tr').dataset.index));
    vscode.postMessage({ type: 'repair', rows });
  });
  document.getElementById('json').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'json' }));
  document.getElementById('csv').addEventListener('click', () => vscode.postMessage({ type: 'export', format: 'csv' }));
  window.addEventListener('message', (e) => {
    const m = e.data;
    if (m.type !== 'repaired') return;
    for (const o of m.outcomes) {
      const tr = body.querySelector('tr[data-index="' + o.index + '"]');
      if (!tr) continue;
      tr.querySelector('.status').textContent = o.text;
      if (o.ok) { tr.classList.add('done'); const p = tr.querySelector('input.pick'); if (p) { p.checked = false; p.disabled = true; } }
    }
    update();
  });
  apply();
})();
</script>
</body></html>`;
}
