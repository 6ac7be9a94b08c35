/**
 * The npm package (`npx dynalint lint .`, `dynalint/dist/eslint-plugin.js`): built, packed with `npm pack`, installed
 * from the tarball into a temporary project, then run there. It holds the bundles the CLI and the ESLint plugin run
 * and the files they load (one TypeScript compiler, the grammars), none of the extension's sources, and needs no
 * dependency to lint (everything is bundled; DuckDB, for `reconcile --from-export` only, is optional).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import type { Log } from 'sarif';

const REPO = resolve(__dirname, '../../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const REQUEST = [
  `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
  `export const c = new UpdateCommand({`,
  `  TableName: 'Posts',`,
  `  Key: { PK: 'POST#1', SK: 'META' },`,
  `  UpdateExpression: 'SET status = :s',`,
  `  ExpressionAttributeValues: { ':s': 'live' },`,
  `});`,
  ``,
].join('\n');

describe('packaging: the npm package', function () {
  this.timeout(300_000);
  let tmp: string;
  let tarball: string;
  let files: string[];
  let project: string;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'dynalint-npm-'));
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const pack = spawnSync(npm, ['pack', '--json', '--pack-destination', tmp], { cwd: REPO, encoding: 'utf8' });
    assert.equal(pack.status, 0, pack.stderr);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(tmp, info.filename);
    files = info.files.map((f) => f.path).sort();
    project = join(tmp, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    writeFileSync(join(project, 'src/posts.ts'), REQUEST);
    // From the local file; optional dependencies (DuckDB's native binding) left out: linting needs none.
    const install = spawnSync(npm, ['install', tarball, '--omit=optional', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('holds the CLI, the ESLint plugin, one TypeScript compiler, the grammars and the notices; no sources, maps or extension bundles', () => {
    for (const f of ['package.json', 'README.md', 'LICENSE', 'dist/cli.js', 'dist/eslint-plugin.js', 'dist/typescript.js', 'dist/tree-sitter.wasm', 'dist/tree-sitter-python.wasm', 'dist/ThirdPartyNotices.txt']) assert.ok(files.includes(f), f);
    for (const f of files) {
      assert.ok(f.startsWith('dist/') || /^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(f), `unexpected ${f}`);
      assert.ok(!/\.(map|ts)$|\.meta\.json$/.test(f), `no source, map or metafile: ${f}`);
    }
    assert.ok(!files.includes('dist/extension.js') && !files.includes('dist/server.js'), 'the extension bundles are the .vsix\'s');
    assert.equal(files.filter((f) => /typescript/.test(f)).length, 1);
  });

  it('its package.json: public, the dynalint bin, no dependency but optional DuckDB (no second TypeScript compiler)', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/dynalint/package.json'), 'utf8'));
    assert.notEqual(pkg.private, true);
    assert.deepEqual(pkg.bin, { dynalint: './dist/cli.js' });
    assert.equal(pkg.dependencies, undefined);
    assert.deepEqual(Object.keys(pkg.optionalDependencies ?? {}), ['@duckdb/node-api']);
    const installed = spawnSync(npm, ['ls', '--all', '--parseable'], { cwd: project, encoding: 'utf8' }).stdout.trim().split('\n');
    assert.deepEqual(installed.slice(1).map((p) => p.slice(project.length + 1)), ['node_modules/dynalint']);
  });

  it('npx dynalint lint . works in the project: findings, exit code, SARIF', () => {
    const r = spawnSync(npx, ['--no', 'dynalint', 'lint', '.'], { cwd: project, encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /src\/posts\.ts\n\s+5:26\s+error\s+"status" is a DynamoDB reserved word.*reserved-word/);
    const s = spawnSync(npx, ['--no', 'dynalint', 'lint', '--format', 'sarif', 'src'], { cwd: project, encoding: 'utf8' });
    const log = JSON.parse(s.stdout) as Log;
    assert.deepEqual(
      log.runs[0].results?.map((x) => x.ruleId),
      ['reserved-word'],
    );
    const v = spawnSync(npx, ['--no', '--', 'dynalint', '--version'], { cwd: project, encoding: 'utf8' });
    assert.equal(v.stdout.trim(), JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  });

  it('the installed ESLint plugin works from the package (no TypeScript in the project: the bundled compiler)', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const dynalint = require(join(project, 'node_modules/dynalint/dist/eslint-plugin.js')) as { configs: { recommended: Linter.Config } };
    const eslint = new ESLint({ cwd: project, overrideConfigFile: true, overrideConfig: [{ files: ['**/*.js'] }, dynalint.configs.recommended] });
    const [r] = await eslint.lintText(REQUEST.replace(/^import .*\n/, ''), { filePath: join(project, 'src/posts.js') });
    assert.deepEqual(
      r.messages.map((m) => [m.ruleId, m.line, m.column]),
      [['dynalint/reserved-word', 4, 26]],
    );
  });

  it('eslint-plugin-dynalint (scripts/eslint-plugin-package.mjs): the plugin bundle as index.js, ESLint 9 as a peer, the project\'s TypeScript', () => {
    const made = spawnSync(process.execPath, ['scripts/eslint-plugin-package.mjs'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const dir = join(REPO, 'out/eslint-plugin-dynalint');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'eslint-plugin-dynalint');
    assert.equal(pkg.main, 'index.js');
    assert.deepEqual(pkg.peerDependencies, { eslint: '>=9' });
    assert.deepEqual(pkg.dependencies, { typescript: '>=5.0' });
    assert.ok(readFileSync(join(dir, 'index.js')).equals(readFileSync(join(REPO, 'dist/eslint-plugin.js'))));
    const pack = spawnSync(npm, ['pack', '--dry-run', '--json'], { cwd: dir, encoding: 'utf8' });
    const [info] = JSON.parse(pack.stdout) as { files: { path: string }[] }[];
    assert.deepEqual(info.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'ThirdPartyNotices.txt', 'index.js', 'package.json']);
  });
});
