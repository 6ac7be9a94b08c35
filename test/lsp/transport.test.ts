/**
 * How clients connect: pull diagnostics for clients that declare them (and no pushes), settings pushed with
 * didChangeConfiguration for clients without workspace/configuration, the IPC transport VS Code uses, and the stdio
 * framing (a lint's two notifications in one pipe write).
 */
import assert from 'node:assert/strict';
import { fork, spawn } from 'node:child_process';
import { IPCMessageReader, IPCMessageWriter, type InitializeResult, createProtocolConnection } from 'vscode-languageserver-protocol/node';
import { LspClient, ROOT, SERVER, ensureBuilt } from '../support/lsp-client';
import { JSON_UPDATE, TS_UPDATE } from './fixtures';

describe('lsp: pull diagnostics', function () {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
  });
  after(() => client?.stop());

  it('advertises a diagnostic provider only to a client that supports pull', async () => {
    assert.deepEqual(client.initializeResult.capabilities.diagnosticProvider, { identifier: 'dynalint', interFileDependencies: false, workspaceDiagnostics: false });
    const push = await LspClient.start();
    try {
      assert.equal(push.initializeResult.capabilities.diagnosticProvider, undefined);
    } finally {
      await push.stop();
    }
  });

  it('answers full reports, then unchanged for the same version, then full again after an edit; never pushes', async () => {
    const uri = 'file:///w/pull.json';
    await client.open(uri, 'json', JSON_UPDATE);
    const first = await client.pullDiagnostics(uri);
    assert.equal(first.kind, 'full');
    assert.deepEqual(first.kind === 'full' && first.items.map((d) => [d.code, client.slice(uri, d.range)]), [
      ['add-on-non-number', ':one'],
      ['unused-value', '":extra"'],
    ]);
    const again = await client.pullDiagnostics(uri, first.resultId);
    assert.deepEqual(again, { kind: 'unchanged', resultId: first.resultId });
    const at = client.text(uri).indexOf(', ":extra": {"S": "y"}');
    await client.edit(uri, at, at + ', ":extra": {"S": "y"}'.length, '');
    const after = await client.pullDiagnostics(uri, first.resultId);
    assert.equal(after.kind, 'full');
    assert.deepEqual(after.kind === 'full' && after.items.map((d) => d.code), ['add-on-non-number']);
    assert.notEqual(after.resultId, first.resultId);
    // The status bar still hears about pulled lints.
    await client.waitFor(() => client.linted.find((l) => l.uri === uri && l.version === 2), 'linted v2');
    // A push would go out with the lint (or with the close): after a later request's answer it would have arrived.
    await client.close(uri);
    await client.roundTrip();
    assert.deepEqual(client.published.filter((p) => p.uri === uri), []);
  });

  it('asks the client to pull again when the configuration changes; result ids from before are stale', async () => {
    const uri = 'file:///w/pull-config.json';
    await client.open(uri, 'json', JSON_UPDATE);
    const first = await client.pullDiagnostics(uri);
    assert.ok(first.kind === 'full' && first.resultId, 'a full report with a result id');
    assert.deepEqual(await client.pullDiagnostics(uri, first.resultId), { kind: 'unchanged', resultId: first.resultId }, 'the id is current before the change');
    const before = client.refreshes;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.waitFor(() => (client.refreshes > before ? true : undefined), 'workspace/diagnostic/refresh');
    const report = await client.pullDiagnostics(uri, first.resultId);
    assert.equal(report.kind, 'full', 'a result id from before the change is stale');
    assert.notEqual(report.resultId, first.resultId);
    assert.deepEqual(report.kind === 'full' && report.items.map((d) => d.code), ['add-on-non-number', 'unused-value']);
    await client.close(uri);
  });
});

describe('lsp: clients without workspace/configuration', () => {
  it('use the settings sent with didChangeConfiguration', async () => {
    const client = await LspClient.start({ configuration: false });
    try {
      const uri = 'file:///w/pushed.ts';
      await client.open(uri, 'typescript', TS_UPDATE);
      assert.equal((await client.diagnosticsFor(uri, 1)).length, 4);
      assert.deepEqual(client.configurationRequests, []);
      const before = client.published.length;
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { dynalint: { rules: { 'reserved-word': 'off' } } } });
      const p = await client.waitFor(() => client.published.slice(before).find((x) => x.uri === uri), 'republish');
      assert.deepEqual(p.diagnostics.map((d) => d.code), ['set-without-if-not-exists']);
    } finally {
      await client.stop();
    }
  });
});

describe('lsp: IPC transport (--node-ipc, as VS Code starts it)', () => {
  it('initializes and answers over the IPC channel', async () => {
    ensureBuilt();
    const child = fork(SERVER, ['--node-ipc'], { cwd: ROOT, silent: true });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    try {
      const init: InitializeResult = await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
      assert.equal(init.serverInfo?.name, 'dynalint');
      assert.deepEqual(init.capabilities.textDocumentSync, { openClose: true, change: 2 });
      await connection.sendNotification('initialized', {});
      const published = new Promise<{ uri: string; diagnostics: { code: string }[] }>((resolve) =>
        connection.onNotification('textDocument/publishDiagnostics', resolve),
      );
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///w/ipc.json', languageId: 'json', version: 1, text: JSON_UPDATE } });
      assert.deepEqual((await published).diagnostics.map((d) => d.code), ['add-on-non-number', 'unused-value']);
      const exited = new Promise((r) => child.once('exit', r));
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      assert.equal(await exited, 0);
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  });
});

describe('lsp: stdio framing (what goes down the pipe)', () => {
  it('each lint is one pipe write: its publishDiagnostics and then its dynalint/linted, read in the same chunk', async () => {
    ensureBuilt();
    const proc = spawn(process.execPath, [SERVER, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    /** Every chunk the client side read from the server's stdout, as the messages it completes (in order). */
    const chunks: { method?: string; id?: number; params?: { uri?: string; version?: number } }[][] = [];
    let pending = Buffer.alloc(0);
    const waiters: (() => void)[] = [];
    proc.stdout.on('data', (d: Buffer) => {
      pending = Buffer.concat([pending, d]);
      const got: (typeof chunks)[number] = [];
      for (;;) {
        const m = /^Content-Length: (\d+)\r\n\r\n/.exec(pending.subarray(0, 64).toString('ascii'));
        if (!m || pending.length < m[0].length + Number(m[1])) break;
        got.push(JSON.parse(pending.subarray(m[0].length, m[0].length + Number(m[1])).toString('utf8')));
        pending = pending.subarray(m[0].length + Number(m[1]));
      }
      chunks.push(got);
      for (const w of waiters.splice(0)) w();
    });
    const send = (m: object) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }), 'utf8');
      proc.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.byteLength}\r\n\r\n`, 'ascii'), body]));
    };
    const seen = (pred: (m: (typeof chunks)[number][number]) => boolean) => chunks.some((c) => c.some(pred));
    const until = async (pred: (m: (typeof chunks)[number][number]) => boolean) => {
      while (!seen(pred)) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    try {
      send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
      await until((m) => m.id === 1);
      send({ method: 'initialized', params: {} });
      const uri = 'file:///w/framing.ts';
      send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'typescript', version: 1, text: TS_UPDATE } } });
      const versions = [1];
      await until((m) => m.method === 'dynalint/linted' && m.params?.version === 1);
      for (let v = 2; v <= 12; v++) {
        const edit = v % 2 === 0 ? { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' } : { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '' };
        send({ method: 'textDocument/didChange', params: { textDocument: { uri, version: v }, contentChanges: [edit] } });
        await until((m) => m.method === 'dynalint/linted' && m.params?.version === v);
        versions.push(v);
      }
      for (const v of versions) {
        const chunk = chunks.find((c) => c.some((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.version === v));
        assert.ok(chunk, `the publish of v${v}`);
        const order = chunk.filter((m) => m.params?.uri === uri && m.params?.version === v).map((m) => m.method);
        assert.deepEqual(order, ['textDocument/publishDiagnostics', 'dynalint/linted'], `v${v}: read together, the diagnostics first`);
      }
    } finally {
      proc.kill();
    }
  });
});
