/** The reconcile engine's public surface (no vscode, no LSP): the CLI, the VS Code UI and the tests import this. */
export * from './types';
export { createClient, describeKeys, toReconcileError, quoteUntrusted, writeFate, endpointProblem, isLoopbackHost } from './client';
export type { Connection, KeySchema } from './client';
export { reconcile, planOf, roleOf } from './engine';
export { repair } from './repair';
export type { RepairOptions } from './repair';
export { formatTable, formatRepair, toCsv, keyLabel, possiblyText } from './format';
