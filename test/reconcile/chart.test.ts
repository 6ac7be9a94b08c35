/**
 * The drift chart drawn by a real browser (headless Chromium): in the webview page under its CSP (nonce'd styles and
 * script only) and in `reconcile --format html`'s page, with no CSP violation, bars laid out as the numbers say.
 */
import { strict as assert } from 'node:assert';
import { chromium, Browser, Page } from 'playwright-core';
import { reconcileHtml } from '../../client/src/reconcile/html';
import { reconcileReportHtml } from '../../server/src/reconcile/html-report';
import { chromiumPath } from '../../scripts/chromium.mjs';
import { sampleReport } from './report-fixture';

const report = sampleReport({
  drifted: [
    { key: { PK: 'POST#c7d1', SK: 'META' }, stored: 1, actual: 7, drift: 6 },
    { key: { PK: 'POST#b2c4', SK: 'META' }, stored: 5, actual: 2, drift: -3 },
    { key: { PK: 'POST#d03e', SK: 'META' }, stored: null, actual: 2, drift: 2 },
  ],
  orphans: [],
});

describe('reconcile drift chart in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await browser?.close();
  });

  async function open(html: string, init?: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => (m.type() === 'error' || /Content Security Policy/i.test(m.text())) && problems.push(m.text()));
    if (init) await page.addInitScript(init);
    // Served from a URL (init scripts run on navigation), as webview.test.ts does.
    await page.route('http://dynalint.test/', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto('http://dynalint.test/');
    return { page, problems };
  }

  async function barBoxes(page: Page) {
    return page.$$eval('svg.drift-chart rect', (rects) =>
      rects.map((r) => {
        const b = r.getBoundingClientRect();
        return { left: Math.round(b.left), right: Math.round(b.right), width: b.width, top: b.top, fill: (globalThis as unknown as { getComputedStyle: (e: unknown) => { fill: string } }).getComputedStyle(r).fill };
      }),
    );
  }

  for (const [name, html, init] of [
    ['webview page', reconcileHtml(report, { nonce: 'abc123', cspSource: 'https://example', repairable: true, connection: 'local' }), 'window.acquireVsCodeApi = () => ({ postMessage: () => undefined });'],
    ['--format html page', reconcileReportHtml(report), undefined],
  ] as const) {
    it(`${name}: drawn with no CSP violation; bars top to bottom, sized by |drift|, − left of the + bars`, async () => {
      const { page, problems } = await open(html, init);
      try {
        const boxes = await barBoxes(page);
        assert.equal(boxes.length, 3);
        assert.ok(boxes[0].top < boxes[1].top && boxes[1].top < boxes[2].top);
        assert.ok(Math.abs(boxes[0].width / boxes[1].width - 2) < 0.05 && Math.abs(boxes[0].width / boxes[2].width - 3) < 0.05);
        assert.ok(boxes[1].right <= boxes[0].left + 1 && Math.abs(boxes[0].left - boxes[2].left) <= 1, 'the axis between − and +');
        assert.notEqual(boxes[0].fill, boxes[1].fill, 'under and over in two colours');
        assert.ok(await page.isVisible('svg.drift-chart text.totals'));
        assert.deepEqual(problems, []);
      } finally {
        await page.close();
      }
    });
  }
});
