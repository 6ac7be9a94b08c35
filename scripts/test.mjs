// `npm test`: install what the tiers need and this machine lacks (scripts/setup.mjs: Java, Neovim, Chromium,
// code-server; one line each, nothing when present), type check, lint (zero warnings), build, then every test tier,
// ending with one summary line "N passed, N failed"; `npm test -- reconcile vscode` runs only those tiers.
// Tiers: unit, differential (DynamoDB Local), lsp (spawns dist/server.js), reconcile (DynamoDB Local), editors (a real
// Neovim drives dist/server.js), vscode (the extension suite inside a real VS Code via code-server), vsix (the same
// suite against the packaged extension).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup } from './setup.mjs';

const only = process.argv.slice(2);
const want = (tier) => only.length === 0 || only.includes(tier);
// Before any tier: exits with one line saying what to run when it cannot install what is missing.
setup(only);
let passed = 0;
let failed = 0;
const problems = [];

/** Adds a tier's {passes, failures} results file to the totals; a missing file is a failure of its own. */
function count(file, what) {
  if (!existsSync(file)) {
    failed++;
    problems.push(`${what} wrote no results`);
    return;
  }
  const s = JSON.parse(readFileSync(file, 'utf8'));
  passed += s.passes;
  failed += s.failures;
  if (s.pending) problems.push(`${s.pending} pending tests in ${what}`);
}

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) problems.push(`${name} exited ${r.status ?? r.signal}`);
  return r.status === 0;
}

if (want('check')) {
  if (step('typecheck', 'npx', ['tsc', '--noEmit', '-p', '.'])) passed++; else failed++;
  if (step('lint', 'npx', ['eslint', '.', '--max-warnings', '0'])) passed++; else failed++;
}
if (!step('build', 'node', ['esbuild.mjs'])) {
  console.log(`\n${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}

const tmp = mkdtempSync(join(tmpdir(), 'dynalint-test-'));
const mochaTiers = ['unit', 'differential', 'lsp', 'editors', 'reconcile'].filter(want).filter((t) => existsSync(join('test', t)));
if (mochaTiers.length) {
  const stats = join(tmp, 'mocha.json');
  step('mocha', 'npx', ['mocha', '--reporter', './test/support/summary-reporter.cjs', ...mochaTiers.map((t) => `test/${t}/**/*.test.ts`)], {
    DYNALINT_STATS: stats,
  });
  count(stats, 'mocha');
}

if (want('vscode') && existsSync('test/vscode')) {
  const out = join(tmp, 'vscode.json');
  step('vscode suite', 'node', ['scripts/run-vscode-tests.mjs'], { DYNALINT_VSCODE_RESULTS: out });
  count(out, 'the VS Code suite');
}

// The packaged extension, installed into code-server the way a user installs a .vsix, must pass the same suite.
if (want('vsix') && existsSync('test/vscode')) {
  const out = join(tmp, 'vsix.json');
  if (step('package', 'npm', ['run', 'package'])) {
    step('vscode suite (installed .vsix)', 'node', ['scripts/run-vscode-tests.mjs'], { DYNALINT_VSCODE_RESULTS: out, DYNALINT_VSCODE_VSIX: 'dynalint.vsix' });
  }
  count(out, 'the .vsix suite');
  // Leave a development build behind, as every other tier expects.
  step('build', 'node', ['esbuild.mjs']);
}

if (problems.length) console.log(`\nProblems:\n- ${problems.join('\n- ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
