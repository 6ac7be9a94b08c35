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

  // scripts/latin1.mjs: where esbuild keeps a character above U+00FF raw, as a bundle would hold it.
  const cases: { name: string; code: string; rewritten: boolean }[] = [
    { name: 'a line comment', code: 'const a = 1; // one \u2014 two\n', rewritten: true },
    { name: 'a block comment', code: '/* \u201chi\u201d */ const a = 1;\n', rewritten: true },
    { name: 'a surrogate pair in a comment', code: '// \ud83d\ude00\nconst a = 1;\n', rewritten: true },
    { name: 'Latin-1 only', code: 'const a = "caf\u00e9"; // na\u00efve\n', rewritten: false },
    { name: 'a regular expression literal', code: 'const r = /[\u201c\u201d]/;\n', rewritten: false },
    { name: 'a raw template', code: 'const t = String.raw`a\u2014b`;\n', rewritten: false },
    { name: 'a comment and a regular expression', code: '// \u2014\nconst r = /\u2014/;\n', rewritten: false },
  ];
  for (const c of cases) {
    it(`latin1Comments: ${c.name} -> ${c.rewritten ? 'rewritten, same length' : 'left as is'}`, async () => {
      const { latin1Comments } = await import('../../../scripts/latin1.mjs');
      const warnings: string[] = [];
      const out = latin1Comments(c.code, 'x.js', (m) => warnings.push(m));
      assert.equal(out.length, c.code.length);
      assert.equal(out !== c.code, c.rewritten);
      if (c.rewritten) assert.equal(out.search(/[\u0100-\uffff]/), -1);
      // Left as is only for a character outside a comment (a warning says so); Latin-1 text needs no rewrite at all.
      assert.equal(warnings.length, !c.rewritten && /[\u0100-\uffff]/.test(c.code) ? 1 : 0, warnings.join('\n'));
    });
  }
});
