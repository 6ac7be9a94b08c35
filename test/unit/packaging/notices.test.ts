/**
 * What the .vsix ships: the extension and server bundles (not dist/cli.js, which the extension does not use) and
 * dist/ThirdPartyNotices.txt naming every third-party package esbuild bundled into them or the build copied next to
 * them, with license text. Builds once (node esbuild.mjs), then reads esbuild's metafiles and `vsce ls`.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** The package an esbuild input belongs to, read from the package.json of its innermost node_modules directory. */
function packageOf(input: string): { name: string; version: string } | undefined {
  const parts = input.split('/');
  const i = parts.lastIndexOf('node_modules');
  if (i < 0) return undefined;
  const dir = parts.slice(0, i + 2 + (parts[i + 1].startsWith('@') ? 1 : 0)).join('/');
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  return { name: pkg.name, version: pkg.version };
}

describe('packaging: third-party notices and the .vsix file list', function () {
  this.timeout(180_000);
  let notices = '';

  before(() => {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    notices = readFileSync(join(root, 'dist', 'ThirdPartyNotices.txt'), 'utf8');
  });

  it('names every package bundled into dist/extension.js and dist/server.js, with its license text', () => {
    const bundled = new Map<string, string>();
    for (const bundle of ['extension', 'server']) {
      const meta = JSON.parse(readFileSync(join(root, 'dist', `${bundle}.meta.json`), 'utf8')) as { inputs: Record<string, unknown> };
      for (const input of Object.keys(meta.inputs)) {
        const p = packageOf(input);
        if (p) bundled.set(p.name, p.version);
      }
    }
    // The bundles hold the AWS SDK and the LSP libraries at least.
    for (const expected of ['@aws-sdk/client-dynamodb', 'vscode-languageclient', 'vscode-languageserver', 'jsonc-parser']) assert.ok(bundled.has(expected), expected);
    const sections = notices.split('\n' + '='.repeat(80) + '\n').slice(1);
    for (const [name, version] of bundled) {
      assert.ok(notices.includes(`\n- ${name} ${version} (`), `${name} ${version} is listed`);
      const section = sections.find((s) => s.startsWith(`${name} ${version}\n`));
      assert.ok(section, `${name} has a section`);
      assert.match(section, /^License: \S+/m, name);
      // A license file's text, or the package's own declaration when it ships none.
      assert.ok(section.split('-'.repeat(80))[1].trim().length > 20, `${name} has license text`);
    }
  });

  it('names the packages whose files are copied next to the bundles (grammars, the TypeScript compiler)', () => {
    for (const name of ['web-tree-sitter', 'tree-sitter-python', 'typescript']) assert.match(notices, new RegExp(`\\n- ${name} \\d`), name);
  });

  it('the .vsix holds the notices and the bundles the extension runs, not dist/cli.js', () => {
    const ls = spawnSync(join(root, 'node_modules', '.bin', 'vsce'), ['ls'], { cwd: root, encoding: 'utf8' });
    assert.equal(ls.status, 0, ls.stderr);
    const files = ls.stdout.split('\n').filter(Boolean);
    for (const f of ['dist/extension.js', 'dist/server.js', 'dist/ThirdPartyNotices.txt', 'package.json', 'LICENSE']) assert.ok(files.includes(f), f);
    assert.ok(!files.some((f) => f.startsWith('dist/cli.js')), 'dist/cli.js is not shipped');
    assert.ok(!files.some((f) => f.endsWith('.map') || f.endsWith('.meta.json')), 'no source maps or metafiles');
    assert.ok(existsSync(join(root, 'dist', 'cli.js')), 'the CLI is still built (npm bin)');
  });
});
