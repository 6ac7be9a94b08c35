/**
 * A real Neovim (0.7 and newer) drives the bundled server (`node dist/server.js --stdio`) through its built-in LSP
 * client: each test writes a file into a fresh directory (with a space in its path), runs
 * `nvim --headless --clean -u test/editors/nvim/init.lua <file>` with a plan of steps, and asserts on the JSON the Lua
 * wrote: what `vim.diagnostic` holds (byte columns, as Neovim shows them), code actions applied to the buffer,
 * completion labels, how diagnostics arrived, and that the server exited 0 after Neovim's shutdown/exit. One test runs
 * the README's Neovim 0.7 snippet as the user's init.lua instead. Neovim missing is a failure, not a skip.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SERVER } from '../support/lsp-client';
import { TS_LIKE } from '../lsp/fixtures';

const INIT = join(ROOT, 'test', 'editors', 'nvim', 'init.lua');
/** Each wait inside Neovim; the whole run gets three of them before it is killed. */
const WAIT_MS = 30_000;
const RUN_MS = 3 * WAIT_MS;

type Position = { line: number; character: number };
type Step =
  | { op: 'diagnostics' }
  | ({ op: 'codeAction'; title: string; only?: string[] } & Position)
  | ({ op: 'completion' } & Position)
  | { op: 'type'; line: number; col: number; text: string }
  | { op: 'open'; file: string };

interface NvimDiagnostic {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  code: string;
  severity: number;
  message: string;
  source: string;
}
interface DiagnosticsStep {
  version: number;
  text: string;
  diagnostics: NvimDiagnostic[];
}
interface CodeActionStep {
  actions: { kind: string; title: string }[];
  text: string;
}
interface CompletionStep {
  labels: string[];
}
interface NvimResult {
  nvim: string;
  pullDeclared: boolean;
  pushes: number;
  pulls: number;
  steps: unknown[];
  clients: number;
  serverExit?: { code: number; signal: number };
  logs: string[];
  error?: string;
}

/** Throws (the test fails, it is not skipped) when there is no runnable Neovim. */
function requireNeovim(): void {
  const r = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error(`Neovim (nvim) is not runnable (${r.error?.message ?? `exit ${r.status}`}): install neovim: apt-get install neovim; .ci/run does it`);
  }
}

/** What the last run left behind, printed when its test fails. */
let lastRun: { dir: string; output: string; result?: NvimResult } | undefined;
let running: ChildProcess | undefined;

interface RunOptions {
  /** The `dynalint` settings table of the client the harness starts. */
  settings?: unknown;
  /** A user's Neovim configuration (Lua) that starts the server itself; the harness then only drives it. */
  userConfig?: string;
}

/**
 * Writes `files` into a fresh directory and opens the first in a headless Neovim running the plan's steps; resolves
 * with the Lua's JSON.
 */
async function runNeovim(files: Record<string, string>, steps: Step[], options: RunOptions = {}): Promise<NvimResult> {
  requireNeovim();
  assert.ok(existsSync(SERVER), `${SERVER} is missing: run npm run build`);
  const dir = mkdtempSync(join(tmpdir(), 'dynalint nvim-'));
  const run: NonNullable<typeof lastRun> = { dir, output: '' };
  lastRun = run;
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const file = join(dir, Object.keys(files)[0]);
  const out = join(dir, 'result.json');
  let args = ['-u', INIT];
  if (options.userConfig !== undefined) {
    const config = join(dir, 'user-init.lua');
    writeFileSync(config, options.userConfig);
    args = ['--cmd', `luafile ${INIT.replace(/[\\ ]/g, '\\$&')}`, '-u', config];
  }
  const plan = { server: options.userConfig === undefined ? SERVER : undefined, settings: options.settings, out, steps, timeoutMs: WAIT_MS };
  const xdg = join(dir, 'xdg');
  const proc = spawn('nvim', ['--headless', '--clean', ...args, file], {
    cwd: dir,
    detached: true, // its own process group: a timeout kills Neovim and the server it started
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DYNALINT_NVIM_PLAN: JSON.stringify(plan),
      DYNALINT_SERVER_LOG: join(dir, 'server.log'),
      XDG_CONFIG_HOME: join(xdg, 'config'),
      XDG_DATA_HOME: join(xdg, 'data'),
      XDG_STATE_HOME: join(xdg, 'state'),
      XDG_CACHE_HOME: join(xdg, 'cache'),
    },
  });
  running = proc;
  proc.stdout?.on('data', (d: Buffer) => (run.output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (run.output += d.toString()));
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(proc);
      reject(new Error(`nvim did not exit within ${RUN_MS} ms`));
    }, RUN_MS);
    proc.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  running = undefined;
  if (existsSync(out)) run.result = JSON.parse(readFileSync(out, 'utf8')) as NvimResult;
  assert.ok(run.result, `nvim exited ${exit.code ?? exit.signal} without writing ${out}`);
  assert.equal(run.result.error, undefined, 'the Lua side failed');
  assert.equal(exit.code, 0, `nvim exited ${exit.code ?? exit.signal}`);
  return run.result;
}

function killGroup(proc: ChildProcess): void {
  try {
    if (proc.pid) process.kill(-proc.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** The LSP position (0-based, UTF-16) of the `nth` occurrence of `needle`, plus `shift` characters. */
function positionOf(text: string, needle: string, shift = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `'${needle}' #${nth} not in the fixture`);
  }
  const before = text.slice(0, at + shift).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** [code, severity, line, byte column, the flagged text] per diagnostic, as Neovim holds them. */
function summary(step: DiagnosticsStep): [string, string, number, number, string][] {
  const lines = step.text.split('\n');
  return step.diagnostics.map((d) => {
    assert.equal(d.end_lnum, d.lnum, `single-line range expected: ${JSON.stringify(d)}`);
    const flagged = Buffer.from(lines[d.lnum]).subarray(d.col, d.end_col).toString();
    return [d.code, SEVERITY[d.severity], d.lnum, d.col, flagged];
  });
}

/** Neovim's byte column of an LSP position. */
function byteColumn(text: string, p: Position): number {
  return Buffer.byteLength(text.split('\n')[p.line].slice(0, p.character));
}

/** The expectation for one diagnostic at the `nth` occurrence of `flagged`, as Neovim holds it (byte column). */
function expected(code: string, severity: string, text: string, flagged: string, nth = 0): [string, string, number, number, string] {
  const p = positionOf(text, flagged, 0, nth);
  return [code, severity, p.line, byteColumn(text, p), flagged];
}

/**
 * The run's protocol facts every test checks: one server, diagnostics arrived the way the client declared, and (when
 * the harness started the server and so sees its exit) the server exited 0 after Neovim's shutdown/exit.
 */
function assertSession(r: NvimResult, startedByHarness = true): void {
  assert.match(r.nvim, /^\d+\.\d+\.\d+$/);
  assert.equal(r.clients, 1, 'one dynalint client');
  if (r.pullDeclared) assert.ok(r.pulls > 0, 'pull client: diagnostics pulled');
  else assert.ok(r.pushes > 0 && r.pulls === 0, `push client (Neovim ${r.nvim}): diagnostics pushed, never pulled`);
  if (startedByHarness) assert.deepEqual(r.serverExit, { code: 0, signal: 0 }, 'the server exits 0 after shutdown/exit');
}

/** The LSP tier's unguarded like transaction, plus a bare reserved word (`status`) in its update. */
const LIKE_TS = TS_LIKE.replace("'ADD likeTally :one'", "'ADD likeTally :one SET status = :s'").replace(
  "{ ':one': { N: '1' } }",
  "{ ':one': { N: '1' }, ':s': { S: 'liked' } }",
);

const VIEWS_PY = `import boto3

table = boto3.resource("dynamodb").Table("Posts")


def bump(post_id, n):
    table.update_item(
        Key={"PK": post_id},
        UpdateExpression="SET x = x + :n",
        ConditionExpression="attribute_exists(PK)",
        ExpressionAttributeValues={":n": n},
    )
`;

const LIKE_JSON = `{
  "TransactItems": [
    { "Put": { "TableName": "Social", "Item": { "PK": { "S": "POST#1" }, "SK": { "S": "LIKE#u1" } } } },
    {
      "Update": {
        "TableName": "Social",
        "Key": { "PK": { "S": "POST#1" }, "SK": { "S": "META" } },
        "UpdateExpression": "ADD likeTally :one",
        "ExpressionAttributeValues": { ":one": { "N": "1" } }
      }
    }
  ]
}
`;

const COUNTER_PY = `import boto3

table = boto3.resource("dynamodb").Table("Posts")


def like(post_id):
    table.update_item(
        Key={"PK": post_id},
        UpdateExpression="ADD likeTally :one",
        ExpressionAttributeValues={":one": 1},
    )
`;

/** The Lua block of README's "### Neovim 0.7" section, pointed at this checkout's server. */
function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /^### Neovim 0\.7[^\n]*\n(?:(?!\n#)[\s\S])*?```lua\n([\s\S]*?)```/m.exec(readme);
  assert.ok(m, "README.md has no '### Neovim 0.7' section with a ```lua block (the snippet this test runs as a user's init.lua)");
  assert.ok(m[1].includes("'/path/to/dynalint/dist/server.js'"), 'the README snippet starts /path/to/dynalint/dist/server.js');
  return m[1].replaceAll('/path/to/dynalint', ROOT);
}

const UNGUARDED_TS = expected('unguarded-add-in-transaction', 'warning', LIKE_TS, 'Put');
const RESERVED_TS = expected('reserved-word', 'error', LIKE_TS, 'status');
const diagnostics = (r: NvimResult, i: number) => r.steps[i] as DiagnosticsStep;

describe('editors: Neovim drives the language server through its built-in LSP client', function () {
  this.timeout(RUN_MS + 30_000);

  afterEach(function () {
    if (running) killGroup(running);
    running = undefined;
    const run = lastRun;
    lastRun = undefined;
    if (!run) return;
    if (this.currentTest?.state === 'failed') {
      const log = join(run.dir, 'server.log');
      console.log(`--- Neovim output (stdout+stderr):\n${run.output || '(none)'}`);
      if (run.result) console.log(`--- Lua error: ${run.result.error ?? '(none)'}\n--- server window/logMessage:\n${run.result.logs.join('\n')}`);
      if (existsSync(log)) console.log(`--- server log, tail:\n${readFileSync(log, 'utf8').split('\n').slice(-40).join('\n')}`);
    }
    rmSync(run.dir, { recursive: true, force: true });
  });

  it('shows the unguarded like transaction (warning) and the bare reserved word (error) of a TypeScript file, pushed', async () => {
    const r = await runNeovim({ 'like.ts': LIKE_TS }, [{ op: 'diagnostics' }]);
    assertSession(r);
    const d = diagnostics(r, 0);
    assert.equal(d.text + '\n', LIKE_TS, 'the buffer holds the file');
    assert.deepEqual(summary(d), [UNGUARDED_TS, RESERVED_TS]);
    assert.deepEqual(
      d.diagnostics.map((x) => x.source),
      ['dynalint', 'dynalint'],
    );
    assert.match(d.diagnostics[1].message, /^"status" is a DynamoDB reserved word: use an expression attribute name \(#status\) instead\./);
  });

  it('shows set-without-if-not-exists in a Python file', async () => {
    const r = await runNeovim({ 'views.py': VIEWS_PY }, [{ op: 'diagnostics' }]);
    assertSession(r);
    assert.deepEqual(summary(diagnostics(r, 0)), [expected('set-without-if-not-exists', 'info', VIEWS_PY, 'x = x + :n')]);
  });

  it('shows the unguarded like transaction in a JSON file', async () => {
    const r = await runNeovim({ 'like.json': LIKE_JSON }, [{ op: 'diagnostics' }]);
    assertSession(r);
    assert.deepEqual(summary(diagnostics(r, 0)), [expected('unguarded-add-in-transaction', 'warning', LIKE_JSON, '"Put"')]);
  });

  it("applies the editor's settings table: a rule turned off disappears, a severity override applies, the rest stays", async () => {
    const settings = { rules: { 'reserved-word': 'off', 'unguarded-add-in-transaction': 'error' } };
    const r = await runNeovim({ 'like.ts': LIKE_TS }, [{ op: 'diagnostics' }], { settings });
    assertSession(r);
    assert.deepEqual(summary(diagnostics(r, 0)), [['unguarded-add-in-transaction', 'error', ...UNGUARDED_TS.slice(2)]]);
  });

  it('applies the reserved-word quick fix through vim.lsp.util.apply_workspace_edit, then the error is gone', async () => {
    const title = 'Use placeholder #status for "status"';
    const at = positionOf(LIKE_TS, 'status');
    const r = await runNeovim({ 'like.ts': LIKE_TS }, [{ op: 'diagnostics' }, { op: 'codeAction', title, ...at }, { op: 'diagnostics' }]);
    assertSession(r);
    const action = r.steps[1] as CodeActionStep;
    assert.deepEqual(action.actions, [
      { kind: 'quickfix', title },
      { kind: 'quickfix', title: 'Disable reserved-word for this line' },
      { kind: 'source.fixAll.dynalint', title: 'Fix all auto-fixable Dynalint problems' },
    ]);
    const fixed = LIKE_TS.replace("SET status = :s'", "SET #status = :s'").replace(
      "{ S: 'liked' } },\n",
      "{ S: 'liked' } },\n          ExpressionAttributeNames: { '#status': 'status' },\n",
    );
    assert.equal(action.text + '\n', fixed);
    const after = diagnostics(r, 2);
    assert.equal(after.text, action.text);
    assert.ok(after.version > diagnostics(r, 0).version, `diagnostics of the edited version (${after.version})`);
    assert.deepEqual(summary(after), [UNGUARDED_TS]);
  });

  it('applies source.fixAll.dynalint to a Python file (an import at the top and a rewrite below), then it is clean', async () => {
    const title = 'Fix all auto-fixable Dynalint problems';
    const steps: Step[] = [{ op: 'diagnostics' }, { op: 'codeAction', title, only: ['source.fixAll.dynalint'], line: 0, character: 0 }, { op: 'diagnostics' }];
    const r = await runNeovim({ 'views.py': VIEWS_PY }, steps);
    assertSession(r);
    assert.deepEqual((r.steps[1] as CodeActionStep).actions, [{ kind: 'source.fixAll.dynalint', title }]);
    const fixed = VIEWS_PY.replace('import boto3\n', 'import boto3\nfrom decimal import Decimal\n')
      .replace('"SET x = x + :n"', '"SET x = if_not_exists(x, :zero) + :n"')
      .replace('{":n": n}', '{":n": n, ":zero": Decimal(0)}');
    assert.equal(diagnostics(r, 2).text + '\n', fixed);
    assert.deepEqual(diagnostics(r, 2).diagnostics, []);
  });

  it("completes the request's :values after ':' inside an expression string", async () => {
    const r = await runNeovim({ 'like.ts': LIKE_TS }, [{ op: 'diagnostics' }, { op: 'completion', ...positionOf(LIKE_TS, ":s'", 1) }]);
    assertSession(r);
    assert.deepEqual((r.steps[1] as CompletionStep).labels, [':one', ':s']);
  });

  it('keeps the server in sync while typing non-ASCII text before a finding (incremental changes, UTF-16 vs bytes)', async () => {
    const text = `import boto3\n\ntable = boto3.resource("dynamodb").Table("Posts")\ntable.update_item(Key={"PK": "café🙂"}, UpdateExpression="SET x = x + :n", ExpressionAttributeValues={":n": 1})\n`;
    const at = positionOf(text, '🙂');
    const typed = 'ü€😀 ';
    const r = await runNeovim({ 'typed.py': text }, [{ op: 'diagnostics' }, { op: 'type', line: at.line, col: byteColumn(text, at), text: typed }, { op: 'diagnostics' }]);
    assertSession(r);
    assert.deepEqual(summary(diagnostics(r, 0)), [expected('set-without-if-not-exists', 'warning', text, 'x = x + :n')]);
    const after = text.replace('🙂', typed + '🙂');
    assert.equal(diagnostics(r, 2).text + '\n', after);
    assert.deepEqual(summary(diagnostics(r, 2)), [expected('set-without-if-not-exists', 'warning', after, 'x = x + :n')]);
  });

  it("the README's Neovim 0.7 snippet, as a user's init.lua: one server for every buffer, its settings applied", async () => {
    const files = { 'counter.py': COUNTER_PY, 'like.ts': LIKE_TS };
    const r = await runNeovim(files, [{ op: 'diagnostics' }, { op: 'open', file: 'like.ts' }, { op: 'diagnostics' }], { userConfig: readmeSnippet() });
    assertSession(r, false);
    // non-idempotent-counter is off by default: the snippet's `settings` turn it on as a hint.
    assert.deepEqual(summary(diagnostics(r, 0)), [expected('non-idempotent-counter', 'hint', COUNTER_PY, 'likeTally :one')]);
    assert.deepEqual(summary(diagnostics(r, 2)), [UNGUARDED_TS, RESERVED_TS]);
  });
});
