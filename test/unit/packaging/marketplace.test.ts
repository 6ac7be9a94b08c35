/**
 * What the Marketplace and Open VSX show: an icon (a PNG of at least 128×128, rendered from images/icon.svg by
 * scripts/icon.mjs), a banner colour, categories and keywords, a CHANGELOG entry for this version; and `vsce ls`
 * listing only what the extension needs (bundles, grammars, snippets, schemas, rule docs, the icon, the notices).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

describe('packaging: Marketplace and Open VSX listing', function () {
  this.timeout(60_000);

  it('the icon is a PNG of at least 128×128 (the Marketplace minimum); its SVG source sits next to it', () => {
    assert.equal(pkg.icon, 'images/icon.png');
    const png = readFileSync(join(REPO, pkg.icon));
    assert.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG signature');
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.ok(width >= 128 && width === height, `${width}×${height}`);
    assert.match(readFileSync(join(REPO, 'images/icon.svg'), 'utf8'), /^<svg /);
  });

  it('banner, categories and keywords (the Marketplace takes at most 30)', () => {
    assert.match(pkg.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
    assert.ok(pkg.categories.includes('Linters'));
    assert.ok(pkg.keywords.length <= 30);
    for (const k of ['dynamodb', 'aws', 'boto3', 'eslint', 'sarif']) assert.ok(pkg.keywords.includes(k), k);
  });

  it('CHANGELOG.md has an entry for this version', () => {
    assert.match(readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${pkg.version.replace(/\./g, '\\.')}$`, 'm'));
  });

  it('vsce ls: only what the extension needs', () => {
    const ls = spawnSync(join(REPO, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(ls.status, 0, ls.stderr);
    const files = ls.stdout.split('\n').filter(Boolean);
    const allowed = [/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/, /^images\/icon\.png$/, /^dist\/(extension|server|typescript)\.js$/, /^dist\/[\w-]+\.wasm$/, /^dist\/ThirdPartyNotices\.txt$/, /^(snippets|syntaxes|schemas)\/[\w.-]+\.json$/, /^docs\/rules\/[\w-]+\.md$/];
    for (const f of files) assert.ok(allowed.some((re) => re.test(f)), `unexpected in the .vsix: ${f}`);
    for (const f of ['CHANGELOG.md', 'images/icon.png', 'dist/extension.js', 'dist/server.js']) assert.ok(files.includes(f), f);
  });
});
