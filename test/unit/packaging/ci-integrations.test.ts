/**
 * Where people already run linters: the pre-commit hook definition (.pre-commit-hooks.yaml), the GitHub Action
 * (action.yml and its lint step, scripts/action/lint.sh, run here on a temporary project with the CLI from sources)
 * and the copy-paste workflow in the README.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log } from 'sarif';
import { parse } from 'yaml';
import { languageIdForPath } from '../../../server/src/extract';

const REPO = resolve(__dirname, '../../..');
const read = (f: string) => readFileSync(join(REPO, f), 'utf8');

interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { default?: string; description: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const ERROR_FILE = [`import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`, `export const a = new UpdateCommand({ TableName: 'T', Key: { PK: 'a' }, UpdateExpression: 'SET status = :s', ExpressionAttributeValues: { ':s': 1 } });`, ''].join('\n');
const WARNING_FILE = [`import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`, `export const b = new UpdateCommand({ TableName: 'T', Key: { PK: 'a' }, UpdateExpression: 'SET plays = plays + :one', ExpressionAttributeValues: { ':one': 1 } });`, ''].join('\n');

describe('packaging: pre-commit hook, GitHub Action, README workflow', function () {
  this.timeout(120_000);

  it('.pre-commit-hooks.yaml: a node hook running dynalint lint --max-warnings 0 on exactly the files the CLI reads', () => {
    const hooks = parse(read('.pre-commit-hooks.yaml')) as { id: string; entry: string; language: string; files: string; pass_filenames?: boolean }[];
    assert.equal(hooks.length, 1);
    const [hook] = hooks;
    assert.equal(hook.id, 'dynalint');
    assert.equal(hook.language, 'node');
    assert.equal(hook.entry, 'dynalint lint --max-warnings 0');
    assert.notEqual(hook.pass_filenames, false);
    const files = new RegExp(hook.files);
    const names = ['a.json', 'a.jsonc', 'a.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.py', 'a.md', 'a.yaml', 'a.go', 'a.java', 'a.class', 'a.d.ts.map', 'a.pyc', 'a.json5', 'a.txt', 'Makefile'];
    for (const n of names) assert.equal(files.test(n), languageIdForPath(n) !== undefined, n);
    const pkg = JSON.parse(read('package.json'));
    assert.equal(pkg.bin.dynalint, './dist/cli.js');
    // pre-commit installs a clone of the repository: `prepare` builds dist/ there.
    assert.equal(pkg.scripts.prepare, 'node scripts/prepare.mjs');
  });

  describe('action.yml', () => {
    const action = parse(read('action.yml')) as Action;

    it('a composite action with paths, config and severity inputs that runs the CLI, uploads SARIF, then fails at the threshold', () => {
      assert.equal(action.runs.using, 'composite');
      for (const i of ['paths', 'config', 'severity', 'sarif-file', 'upload', 'category', 'version']) assert.ok(action.inputs[i]?.description, i);
      assert.equal(action.inputs.severity.default, 'error');
      const steps = action.runs.steps;
      const lint = steps.findIndex((s) => s.id === 'lint');
      const upload = steps.findIndex((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
      const fail = steps.findIndex((s) => s.if?.includes('steps.lint.outputs.fail'));
      assert.ok(lint >= 0 && lint < upload && upload < fail, 'lint, then upload, then fail');
      assert.match(steps[lint].run ?? '', /scripts\/action\/lint\.sh/);
      assert.equal(steps[upload].with?.sarif_file, '${{ inputs.sarif-file }}');
    });

    it('inputs reach the shell as environment variables, never spliced into a script', () => {
      for (const s of action.runs.steps) assert.ok(!/\$\{\{/.test(s.run ?? ''), `${s.name}: no expression in run`);
    });
  });

  describe('scripts/action/lint.sh', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'dynalint-action-'));
      mkdirSync(join(root, '.git'));
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src/warn.ts'), WARNING_FILE);
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    function lintStep(env: Record<string, string>): { status: number | null; outputs: Record<string, string>; stdout: string; log?: Log } {
      const outputFile = join(root, 'github-output');
      writeFileSync(outputFile, '');
      const r = spawnSync(join(REPO, 'scripts/action/lint.sh'), [], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DYNALINT: `${process.execPath} --import=${pathToFileURL(require.resolve('tsx')).href} ${join(REPO, 'server/src/cli.ts')}`, GITHUB_OUTPUT: outputFile, SARIF_FILE: 'out.sarif', ...env },
      });
      const outputs = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('=') as [string, string]),
      );
      let log: Log | undefined;
      try {
        log = JSON.parse(readFileSync(join(root, 'out.sarif'), 'utf8')) as Log;
      } catch {
        log = undefined;
      }
      return { status: r.status, outputs, stdout: r.stdout, log };
    }

    it('severity error: warnings only pass; an error fails (after the SARIF is written)', () => {
      const warn = lintStep({ INPUT_SEVERITY: 'error' });
      assert.deepEqual([warn.status, warn.outputs], [0, { 'exit-code': '0', fail: 'false' }]);
      assert.deepEqual(
        warn.log?.runs[0].results?.map((x) => x.ruleId),
        ['set-without-if-not-exists'],
      );
      writeFileSync(join(root, 'src/err.ts'), ERROR_FILE);
      const err = lintStep({ INPUT_SEVERITY: 'error' });
      assert.deepEqual([err.status, err.outputs], [0, { 'exit-code': '1', fail: 'true' }]);
      assert.equal(err.log?.runs[0].results?.length, 2);
    });

    it('severity warning fails on a warning; none never fails', () => {
      assert.deepEqual(lintStep({ INPUT_SEVERITY: 'warning' }).outputs, { 'exit-code': '1', fail: 'true' });
      writeFileSync(join(root, 'src/err.ts'), ERROR_FILE);
      assert.deepEqual(lintStep({ INPUT_SEVERITY: 'none' }).outputs, { 'exit-code': '1', fail: 'false' });
    });

    it('paths (several, with spaces between) and config are passed through', () => {
      writeFileSync(join(root, 'src/err.ts'), ERROR_FILE);
      mkdirSync(join(root, 'other'));
      writeFileSync(join(root, 'other/err.ts'), ERROR_FILE);
      const only = lintStep({ INPUT_PATHS: 'src/warn.ts   other' });
      assert.deepEqual(
        only.log?.runs[0].results?.map((x) => x.locations?.[0].physicalLocation?.artifactLocation?.uri),
        ['other/err.ts', 'src/warn.ts'],
      );
      writeFileSync(join(root, 'quiet.json'), JSON.stringify({ rules: { 'reserved-word': 'off' } }));
      const quiet = lintStep({ INPUT_PATHS: 'src', INPUT_CONFIG: 'quiet.json' });
      assert.deepEqual(quiet.outputs, { 'exit-code': '0', fail: 'false' });
    });

    it('a bad severity or a CLI that cannot run stops the step (exit 2)', () => {
      assert.equal(lintStep({ INPUT_SEVERITY: 'fatal' }).status, 2);
      const bad = lintStep({ INPUT_CONFIG: 'missing.json' });
      assert.equal(bad.status, 2);
      assert.deepEqual(bad.outputs, { 'exit-code': '2', fail: 'true' });
    });
  });

  it('the README\'s copy-paste workflow uses the action with inputs it has, and the permission the upload needs', () => {
    const readme = read('README.md');
    const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('uses: dynalint/dynalint@'));
    assert.ok(block, 'a yaml block using the action');
    const workflow = parse(block) as { permissions: Record<string, string>; jobs: Record<string, { steps: ActionStep[] }> };
    assert.equal(workflow.permissions['security-events'], 'write');
    const step = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((s) => s.uses?.startsWith('dynalint/dynalint@'))!;
    const inputs = (parse(read('action.yml')) as Action).inputs;
    for (const k of Object.keys(step.with ?? {})) assert.ok(inputs[k], `input ${k} exists`);
    const pkg = JSON.parse(read('package.json'));
    assert.equal(step.uses, `dynalint/dynalint@v${pkg.version}`);
  });
});
