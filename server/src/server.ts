/**
 * Language server entry (`dist/server.js`): `node dist/server.js --stdio` for any LSP editor, `--node-ipc` when
 * VS Code starts it. `createConnection` picks the transport from the command line.
 */
import { join } from 'node:path';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { registerCodeCache } from './io/code-cache';
import { startServer } from './lsp/server';

// The TypeScript compiler next to this bundle (required on the first TS/JS document) loads through a V8 code cache.
registerCodeCache(join(__dirname, 'typescript.js'));
startServer(createConnection(ProposedFeatures.all));
