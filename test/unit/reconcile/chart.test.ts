/**
 * The drift chart (server/src/reconcile/chart.ts) as text: bars in the report's order (largest |drift| first), sized
 * by |drift| on one scale, right of the axis for + and left for −, values and totals written out, keys escaped, long
 * reports capped; in the webview page and in `reconcile --format html` (self-contained, no script, no external
 * resource).
 */
import { strict as assert } from 'node:assert';
import { reconcileHtml } from '../../../client/src/reconcile/html';
import { driftChartSvg } from '../../../server/src/reconcile/chart';
import { reconcileReportHtml } from '../../../server/src/reconcile/html-report';
import { sampleReport } from '../../reconcile/report-fixture';

const report = sampleReport({
  drifted: [
    { key: { PK: 'POST#c7d1', SK: 'META' }, stored: 1, actual: 9, drift: 8 },
    { key: { PK: 'POST#<b>x</b>', SK: 'META' }, stored: 5, actual: 1, drift: -4 },
    { key: { PK: 'POST#d03e', SK: 'META' }, stored: null, actual: 2, drift: 2, note: 'missing "counter"' },
  ],
  orphans: [],
});

interface Bar {
  key: string;
  x: number;
  width: number;
  cls: string;
  value: string;
}

function bars(svg: string): Bar[] {
  return [...svg.matchAll(/<g class="row" data-key="([^"]*)">.*?<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*class="([\w-]+)"[^>]*\/><text[^>]*>([^<]*)<\/text><\/g>/g)].map((m) => ({ key: m[1], x: Number(m[2]), width: Number(m[3]), cls: m[4], value: m[5] }));
}

const axisOf = (svg: string) => Number(/<line x1="([\d.]+)"/.exec(svg)![1]);

describe('reconcile: drift chart', () => {
  const svg = driftChartSvg(report);

  it('one bar per drifted parent in the report order, sized by |drift|, + right of the axis and − left of it', () => {
    const b = bars(svg);
    assert.deepEqual(
      b.map((x) => [x.key, x.cls, x.value]),
      [
        ['PK=POST#c7d1 SK=META', 'bar-under', '+8'],
        ['PK=POST#&lt;b&gt;x&lt;/b&gt; SK=META', 'bar-over', '−4'],
        ['PK=POST#d03e SK=META', 'bar-under', '+2'],
      ],
    );
    const axis = axisOf(svg);
    assert.ok(Math.abs(b[0].x - axis) < 0.2 && Math.abs(b[2].x - axis) < 0.2, 'positive bars start at the axis');
    assert.ok(Math.abs(b[1].x + b[1].width - axis) < 0.2, 'a negative bar ends at the axis');
    assert.ok(Math.abs(b[0].width / b[1].width - 2) < 0.01 && Math.abs(b[0].width / b[2].width - 4) < 0.01, 'one scale');
  });

  it('writes the totals, a tooltip per bar and an accessible summary; escapes what the table holds', () => {
    assert.match(svg, /<text x="0" y="[\d.]+" class="totals">3 drifted of 6 checked · net drift \+6 · total \|drift\| 14<\/text>/);
    assert.match(svg, /<title>PK=POST#d03e SK=META: stored missing, actual 2, drift \+2 \(missing &quot;counter&quot;\)<\/title>/);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" class="drift-chart" role="img" [^>]*aria-label="Drift per parent, largest first: PK=POST#c7d1 SK=META \+8, /);
    assert.ok(!svg.includes('<b>'));
  });

  it('no script, no style attribute, no external reference (it must pass the webview CSP as it is)', () => {
    assert.ok(!/<script|\sstyle=|\shref=|\ssrc=|url\(/i.test(svg));
    // The only URI is the SVG namespace.
    assert.deepEqual(svg.match(/https?:\/\/[^"\s]+/g), ['http://www.w3.org/2000/svg']);
  });

  it('all drifts of one sign: the axis at that side, the plot uses the whole width', () => {
    const up = driftChartSvg(sampleReport({ drifted: [{ key: { PK: 'a' }, stored: 0, actual: 3, drift: 3 }], orphans: [] }), { width: 640 });
    const down = driftChartSvg(sampleReport({ drifted: [{ key: { PK: 'a' }, stored: 3, actual: 0, drift: -3 }], orphans: [] }), { width: 640 });
    const [u] = bars(up);
    const [d] = bars(down);
    assert.ok(Math.abs(u.width - d.width) < 0.2 && u.width > 300, `${u.width} ${d.width}`);
    assert.ok(axisOf(up) < axisOf(down));
  });

  it('caps the bars and says how many more; nothing drifted draws nothing', () => {
    const many = sampleReport({ drifted: Array.from({ length: 40 }, (_, i) => ({ key: { PK: `P${String(i).padStart(2, '0')}` }, stored: 0, actual: 40 - i, drift: 40 - i })), orphans: [] });
    const capped = driftChartSvg(many, { maxBars: 10 });
    assert.equal(bars(capped).length, 10);
    assert.match(capped, />… and 30 more</);
    assert.equal(driftChartSvg(sampleReport({ drifted: [], orphans: [] })), '');
  });

  it('the webview page shows the chart above the table', () => {
    const html = reconcileHtml(report, { nonce: 'N0NCE', cspSource: 'vscode-resource:', repairable: true, connection: 'local' });
    const chart = html.indexOf('<svg');
    assert.ok(chart > 0 && chart < html.indexOf('<table id="rows">'));
    assert.ok(html.includes(svg));
    assert.match(html, /\.drift-chart \.bar-under \{ fill: var\(--vscode-charts-orange/);
  });

  it('reconcile --format html: one self-contained page, chart then table, no script, a CSP that allows nothing else', () => {
    const page = reconcileReportHtml(report);
    assert.match(page, /^<!DOCTYPE html>/);
    assert.ok(page.includes(svg));
    assert.ok(page.indexOf('<svg') < page.indexOf('<table>'));
    assert.ok(!/<script|<link|<img|\ssrc=|\shref=/i.test(page));
    assert.match(page, /content="default-src 'none'; style-src 'unsafe-inline'"/);
    assert.deepEqual(
      [...page.matchAll(/<tr class="(\w*)"><td>([^<]*)<\/td>/g)].map((m) => [m[1], m[2]]),
      [
        ['under', 'PK=POST#c7d1 SK=META'],
        ['over', 'PK=POST#&lt;b&gt;x&lt;/b&gt; SK=META'],
        ['under', 'PK=POST#d03e SK=META'],
      ],
    );
    assert.match(page, /<td>missing &quot;counter&quot;<\/td>/);
    const clean = reconcileReportHtml(sampleReport({ drifted: [], orphans: [] }));
    assert.ok(clean.includes('No drift: every stored count matches.') && !clean.includes('<svg'));
  });
});
