// images/icon.png (the Marketplace and Open VSX icon, 256×256) from images/icon.svg, rendered by Chromium (the one the
// VS Code tiers use; CHROMIUM_PATH picks another) with a transparent background. Run after editing the SVG, commit both.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumPath } from './chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(join(root, 'images/icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(root, 'images/icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('images/icon.png');
