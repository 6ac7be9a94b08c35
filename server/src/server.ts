/**
 * Language server entry (`dist/server.js`): `node dist/server.js --stdio` for any LSP editor, `--node-ipc` when
 * VS Code starts it. `createConnection` picks the transport from the command line.
 */
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startServer } from './lsp/server';

startServer(createConnection(ProposedFeatures.all));
