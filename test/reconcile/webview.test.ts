/** The results page's script in a real browser (headless Chromium): sorting, selection, repair and export messages. */
import { strict as assert } from 'node:assert';
import { chromium, Browser, Page } from 'playwright-core';
import { reconcileHtml } from '../../client/src/reconcile/html';
import { chromiumPath } from '../../scripts/chromium.mjs';
import { eventuallyEqual } from '../support/poll';
import { sampleReport } from './report-fixture';

const report = sampleReport({
  drifted: [
    { key: { PK: 'POST#c7d1', SK: 'META' }, stored: 1, actual: 4, drift: 3 },
    { key: { PK: 'POST#b2c4', SK: 'META' }, stored: 5, actual: 3, drift: -2 },
    { key: { PK: 'POST#d03e', SK: 'META' }, stored: null, actual: 2, drift: 2 },
    { key: { PK: 'POST#f101', SK: 'META' }, stored: 2, actual: 0, drift: -2 },
  ],
  orphans: [],
  elapsedMs: 1260,
});

describe('reconcile results page in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await browser?.close();
  });
  // A fresh page per test: each starts from the page as the extension first shows it (default sort, nothing picked).
  beforeEach(async () => {
    errors.length = 0;
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // A string, not a function: the test runner's transpiler would inject helpers the page does not have.
    await page.addInitScript('window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m) });');
    const html = reconcileHtml(report, { nonce: 'abc123', cspSource: 'https://example', repairable: true, connection: 'local' });
    await page.route('http://dynalint.test/', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto('http://dynalint.test/');
  });
  afterEach(async () => {
    await page?.close();
    assert.deepEqual(errors, [], 'no page errors (a CSP violation included)');
  });

  const keys = () => page.$$eval('#rows tbody tr', (trs) => trs.map((tr) => tr.children[1].textContent));
  const posted = () => page.evaluate('window.posted') as Promise<unknown[]>;
  const text = (selector: string) => page.textContent(selector);
  // Clicks and messages are handled by the page's own script: every check after one polls (deadline) for the
  // expected state, from the test side. (Playwright's waitForFunction evaluates its predicate with eval, which the
  // page's CSP refuses.)

  it('runs its script under the CSP and sorts by |drift| first, then by any column', async () => {
    assert.deepEqual(errors, []);
    assert.deepEqual(await keys(), ['PK=POST#c7d1 SK=META', 'PK=POST#b2c4 SK=META', 'PK=POST#d03e SK=META', 'PK=POST#f101 SK=META']);
    await page.click('th[data-col="drift"]');
    await eventuallyEqual(keys, ['PK=POST#c7d1 SK=META', 'PK=POST#d03e SK=META', 'PK=POST#b2c4 SK=META', 'PK=POST#f101 SK=META'], 'by drift, descending');
    await page.click('th[data-col="key"]');
    await eventuallyEqual(keys, ['PK=POST#b2c4 SK=META', 'PK=POST#c7d1 SK=META', 'PK=POST#d03e SK=META', 'PK=POST#f101 SK=META'], 'by key, ascending');
    await page.click('th[data-col="key"]');
    await eventuallyEqual(keys, ['PK=POST#f101 SK=META', 'PK=POST#d03e SK=META', 'PK=POST#c7d1 SK=META', 'PK=POST#b2c4 SK=META'], 'by key, descending');
  });

  it('asks the extension to repair the selected rows and shows the outcome per row', async () => {
    assert.equal(await page.isDisabled('#repair'), true);
    await page.check('tr[data-index="1"] input.pick');
    await page.check('tr[data-index="2"] input.pick');
    await eventuallyEqual(() => text('#repair'), 'Repair 2 selected…');
    assert.equal(await page.isDisabled('#repair'), false);
    await page.click('#repair');
    // Rows in the order shown: the default |drift| sort is stable, so POST#b2c4 (index 1) is above POST#d03e (index 2).
    await eventuallyEqual(posted, [{ type: 'repair', rows: [1, 2] }]);
    await page.evaluate(
      `window.postMessage({ type: 'repaired', outcomes: [{ index: 1, text: '✔ 5 → 3', ok: true }, { index: 2, text: 'skipped: changed meanwhile', ok: false }] }, '*')`,
    );
    await eventuallyEqual(() => text('tr[data-index="2"] .status'), 'skipped: changed meanwhile');
    await eventuallyEqual(() => text('tr[data-index="1"] .status'), '✔ 5 → 3');
    assert.equal(await page.isDisabled('tr[data-index="1"] input.pick'), true);
    assert.equal(await page.isChecked('tr[data-index="1"] input.pick'), false);
    assert.equal(await page.isChecked('tr[data-index="2"] input.pick'), true);
    assert.equal(await text('#repair'), 'Repair 1 selected…');
  });

  it('posts export requests', async () => {
    await page.click('#csv');
    await page.click('#json');
    await eventuallyEqual(posted, [
      { type: 'export', format: 'csv' },
      { type: 'export', format: 'json' },
    ]);
    await page.screenshot({ path: 'test-results/reconcile-webview.png', fullPage: true }).catch(() => undefined);
  });
});
