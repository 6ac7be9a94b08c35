/**
 * Language server entry (`dist/server.js`): `node dist/server.js --stdio` for any LSP editor, `--node-ipc` when
 * VS Code starts it. `createConnection` picks the transport from the command line; under `--stdio` the server gives it
 * the streams itself, with its own writer (lsp/framing.ts: the messages of one synchronous stretch in one pipe write).
 */
import { join } from 'node:path';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { registerCodeCache } from './io/code-cache';
import { BatchedMessageWriter, consoleToClient } from './lsp/framing';
import { startServer } from './lsp/server';

// The TypeScript compiler next to this bundle (required on the first TS/JS document) loads through a V8 code cache.
registerCodeCache(join(__dirname, 'typescript.js'));
// The transport createConnection would choose: the first of these arguments decides.
const stdio = process.argv.slice(2).find((a) => /^--(node-ipc|stdio|socket|pipe)\b/.test(a)) === '--stdio';
if (stdio) {
  // process.stdin as a stream (not a reader): createConnection then also exits when it ends, as under its own --stdio.
  // The writer is a MessageWriter, not a stream (it has no addListener): the stream overload's type, the reader and
  // writer overload's behaviour for it (vscode-jsonrpc's createMessageConnection takes each argument by its shape).
  const connection = createConnection(ProposedFeatures.all, process.stdin, new BatchedMessageWriter(process.stdout) as unknown as NodeJS.WritableStream);
  consoleToClient(connection.console);
  startServer(connection);
} else startServer(createConnection(ProposedFeatures.all));
