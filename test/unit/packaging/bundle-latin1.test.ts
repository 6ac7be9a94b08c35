/**
 * The bundles' sources are Latin-1 only (esbuild.mjs, latin1-bundle): V8 keeps a script's source as long as the script
 * lives, a two-byte string (twice the size) as soon as one character is above U+00FF. esbuild escapes such characters
 * in code but keeps them in comments. Builds once (node esbuild.mjs).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

describe('packaging: bundles are Latin-1 (one-byte source strings in V8)', function () {
  this.timeout(180_000);

  before(() => {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
  });

  for (const bundle of ['server', 'cli', 'extension', 'eslint-plugin']) {
    it(`dist/${bundle}.js has no character above U+00FF, and as many lines as its source map says`, () => {
      const code = readFileSync(join(root, 'dist', `${bundle}.js`), 'utf8');
      const at = code.search(/[\u0100-\uffff]/);
      assert.equal(at, -1, `dist/${bundle}.js: ${JSON.stringify(code.slice(Math.max(0, at - 60), at + 20))}`);
      // The replacement keeps every line's length: the source map's mappings still cover exactly the bundle's lines.
      const map = JSON.parse(readFileSync(join(root, 'dist', `${bundle}.js.map`), 'utf8')) as { mappings: string };
      assert.ok(map.mappings.split(';').length <= code.split('\n').length);
    });
  }
});
