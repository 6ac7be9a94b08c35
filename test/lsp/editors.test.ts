/**
 * The server as a minimal editor drives it (Neovim, Helix): no workspace/configuration, no pull diagnostics, whole
 * documents sent on every change, hovers that race a close, and the shutdown/exit handshake over stdio.
 */
import assert from 'node:assert/strict';
import { LspClient } from '../support/lsp-client';
import { TS_UPDATE } from './fixtures';

describe('lsp: a minimal editor (no configuration, push diagnostics, full-text sync)', function () {
  this.timeout(30_000);
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ configuration: false });
  });
  after(() => client.stop());

  it('is not asked for configuration and gets diagnostics pushed with the defaults', async () => {
    assert.equal(client.initializeResult.capabilities.diagnosticProvider, undefined);
    const uri = 'file:///w/minimal.ts';
    await client.open(uri, 'typescript', TS_UPDATE);
    const diags = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(
      diags.map((d) => [d.code, client.slice(uri, d.range)]),
      [
        ['reserved-word', 'status'],
        ['reserved-word', 'total'],
        ['set-without-if-not-exists', 'total = total + :one'],
        ['reserved-word', 'total'],
      ],
    );
    assert.deepEqual(client.configurationRequests, []);
    await client.close(uri);
  });

  it('lints each full-text change (no range) at its version', async () => {
    const uri = 'file:///w/full-sync.ts';
    await client.open(uri, 'typescript', TS_UPDATE);
    await client.diagnosticsFor(uri, 1);
    const fixed = TS_UPDATE.replace("'SET status = :s, total = total + :one'", "'SET #s = :s ADD #t :one'").replace(
      "ExpressionAttributeValues:",
      "ExpressionAttributeNames: { '#s': 'status', '#t': 'total' },\n  ExpressionAttributeValues:",
    );
    const v2 = await client.change(uri, [{ text: fixed }]);
    assert.deepEqual(await client.diagnosticsFor(uri, v2), []);
    const v3 = await client.change(uri, [{ text: fixed.replace("':one': { N: '1' }", "':one': { S: '1' }") }]);
    assert.deepEqual(
      (await client.diagnosticsFor(uri, v3)).map((d) => [d.code, client.slice(uri, d.range)]),
      [['add-on-non-number', ':one']],
    );
    await client.close(uri);
  });

  it('clears diagnostics on close and answers a hover on the closed document with null', async () => {
    const uri = 'file:///w/closed.ts';
    await client.open(uri, 'typescript', TS_UPDATE);
    assert.equal((await client.diagnosticsFor(uri, 1)).length, 4);
    const at = client.positionOf(uri, 'SET');
    assert.notEqual(await client.hover(uri, at), null, 'hover while open');
    const before = client.published.length;
    await client.close(uri);
    const cleared = await client.waitFor(() => client.published.slice(before).find((p) => p.uri === uri), 'diagnostics cleared on close');
    assert.deepEqual(cleared.diagnostics, []);
    assert.equal(await client.hover(uri, at), null);
    assert.deepEqual(await client.completion(uri, at), []);
    assert.deepEqual(await client.codeActions(uri, { start: at, end: at }), []);
  });
});

describe('lsp: shutdown and exit over stdio', function () {
  this.timeout(30_000);
  const exitCode = (c: LspClient) => new Promise<number | null>((r) => (c.proc.exitCode !== null ? r(c.proc.exitCode) : c.proc.once('exit', (code) => r(code))));

  it('exits 0 on exit after shutdown, having answered shutdown with null', async () => {
    const client = await LspClient.start({ configuration: false });
    const exited = exitCode(client);
    assert.equal(await client.connection.sendRequest('shutdown'), null);
    await client.connection.sendNotification('exit');
    assert.equal(await exited, 0);
    client.connection.dispose();
  });

  it('exits 1 on exit without shutdown, as the protocol says', async () => {
    const client = await LspClient.start({ configuration: false });
    const exited = exitCode(client);
    await client.connection.sendNotification('exit');
    assert.equal(await exited, 1);
    client.connection.dispose();
  });
});
