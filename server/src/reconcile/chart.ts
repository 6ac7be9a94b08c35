/**
 * The drift chart of a reconcile report: one horizontal bar per drifted parent, largest |drift| first (the report's
 * order), to the right of the axis when the stored count is too low (+), to the left when too high (−), the value at
 * the bar's end; then the totals. Inline SVG text with no external resource, no script and no style attribute, so it
 * goes as is into the webview (whose CSP allows only nonce'd styles and scripts) and into `reconcile --format html`.
 * Colours are presentation attributes with class names a page may restyle (`.bar-under`, `.bar-over`).
 */
import { keyLabel } from './format';
import type { ReconcileReport } from './types';

const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface ChartOptions {
  /** Bars drawn at most (the rest are counted in a last line). Default 25. */
  maxBars?: number;
  /** Width of the whole chart in px. Default 640. */
  width?: number;
}

const ROW = 22;
const LABEL = 200;
const VALUE = 56;
/** Longest key label drawn (the full label is in the bar's tooltip). */
const LABEL_CHARS = 30;

const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/** The chart, or '' when nothing drifted. */
export function driftChartSvg(r: ReconcileReport, o: ChartOptions = {}): string {
  if (!r.drifted.length) return '';
  const width = o.width ?? 640;
  const shown = r.drifted.slice(0, o.maxBars ?? 25);
  const rest = r.drifted.length - shown.length;
  const max = shown.reduce((m, d) => Math.max(m, Math.abs(d.drift)), 1);
  const hasOver = shown.some((d) => d.drift < 0);
  const hasUnder = shown.some((d) => d.drift > 0);
  // The axis sits where the bars of both signs fit: at the left edge when every drift is positive, and so on.
  const plot = width - LABEL - 2 * VALUE;
  const leftShare = hasOver && hasUnder ? 0.5 : hasOver ? 1 : 0;
  const axis = LABEL + VALUE + plot * leftShare;
  const scale = (hasOver && hasUnder ? plot / 2 : plot) / max;
  const net = r.drifted.reduce((a, d) => a + d.drift, 0);
  const abs = r.drifted.reduce((a, d) => a + Math.abs(d.drift), 0);
  const top = 8;
  const lines: string[] = [];
  shown.forEach((d, i) => {
    const y = top + i * ROW;
    const label = keyLabel(d.key);
    const short = label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;
    const w = Math.max(Math.abs(d.drift) * scale, 1);
    const x = d.drift < 0 ? axis - w : axis;
    const cls = d.drift > 0 ? 'bar-under' : 'bar-over';
    const fill = d.drift > 0 ? '#d18616' : '#e5534b';
    const valueX = d.drift < 0 ? x - 4 : x + w + 4;
    lines.push(
      `<g class="row" data-key="${escapeXml(label)}">` +
        `<title>${escapeXml(`${label}: stored ${d.stored ?? 'missing'}, actual ${d.actual}, drift ${signed(d.drift)}${d.note ? ` (${d.note})` : ''}`)}</title>` +
        `<text x="${LABEL - 8}" y="${y + 15}" text-anchor="end" class="label">${escapeXml(short)}</text>` +
        `<rect x="${x.toFixed(1)}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW - 6}" rx="2" class="${cls}" fill="${fill}"/>` +
        `<text x="${valueX.toFixed(1)}" y="${y + 15}" text-anchor="${d.drift < 0 ? 'end' : 'start'}" class="value">${signed(d.drift)}</text>` +
        `</g>`,
    );
  });
  let y = top + shown.length * ROW;
  lines.push(`<line x1="${axis.toFixed(1)}" y1="${top}" x2="${axis.toFixed(1)}" y2="${y}" class="axis" stroke="currentColor" stroke-opacity="0.5"/>`);
  if (rest > 0) {
    lines.push(`<text x="${LABEL - 8}" y="${y + 15}" text-anchor="end" class="more">… and ${rest} more</text>`);
    y += ROW;
  }
  const totals = `${r.drifted.length} drifted of ${r.checked} checked · net drift ${signed(net)} · total |drift| ${abs}`;
  lines.push(`<text x="0" y="${y + 20}" class="totals">${escapeXml(totals)}</text>`);
  const height = y + 30;
  const summary = `Drift per parent, largest first: ${shown.map((d) => `${keyLabel(d.key)} ${signed(d.drift)}`).join(', ')}${rest > 0 ? `, and ${rest} more` : ''}. ${totals}.`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="drift-chart" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="system-ui, sans-serif" font-size="12" fill="currentColor" aria-label="${escapeXml(summary)}">` +
    `<title>${escapeXml(summary)}</title>` +
    lines.join('') +
    `</svg>`
  );
}
