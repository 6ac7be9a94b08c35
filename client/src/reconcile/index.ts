/**
 * "Dynalint: Reconcile Reference Counts" (`dynalint.reconcile`): pick a connection, a table, the pattern (prefilled
 * from a code lens) and a scope; run the engine in the extension host with a cancellable progress notification; show
 * the results page; export JSON/CSV; repair selected parents after a modal confirmation.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { ConnectionSetting } from '../../../server/src/protocol/settings';
import type { ReconcileLensArgs } from '../../../server/src/reconcile/lens';
import {
  CounterPattern,
  ReconcileError,
  ReconcileReport,
  Scope,
  createClient,
  formatRepair,
  reconcile,
  repair,
} from '../../../server/src/reconcile';
import { reconcileHtml } from './html';
import { exportText, handlePageMessage } from './messages';
import { prefill } from './prefill';
import { connectionDetail, connectionProblem, noticeText, repairNotice, rowOutcomes, settle } from './present';

export const RECONCILE_COMMAND = 'dynalint.reconcile';

export interface ReconcileDeps {
  output?: vscode.LogOutputChannel;
  /** How a connection becomes a client (tests point it at DynamoDB Local). */
  createClient?: (c: ConnectionSetting) => DynamoDBClient;
}

/** Arguments the command accepts (from a code lens, or from tests to skip the pickers). */
export interface ReconcileCommandArgs extends Partial<ReconcileLensArgs> {
  connection?: string;
  shardPrefix?: string;
  scope?: Scope;
  consistent?: boolean;
  maxRcu?: number;
}

export function registerReconcile(context: vscode.ExtensionContext, deps: ReconcileDeps = {}): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(RECONCILE_COMMAND, (args?: ReconcileCommandArgs) => runCommand(context, deps, args ?? {})),
  );
}

/**
 * The user's own connections only: `dynalint.connections` is application-scoped, and only its user-settings value is
 * read even so, so a repository's `.vscode/settings.json` cannot point the user's credentials at an endpoint it chose.
 */
function connections(): ConnectionSetting[] {
  const list = vscode.workspace.getConfiguration('dynalint').inspect<ConnectionSetting[]>('connections')?.globalValue ?? [];
  return Array.isArray(list) ? list.filter((c) => c && typeof c.name === 'string') : [];
}

/**
 * Always a picker (unless the caller named a connection): its items say where each run sends requests and with which
 * credentials. A connection that must not be used (plain http to a non-loopback host) is listed with why, and refused.
 */
async function pickConnection(name?: string): Promise<ConnectionSetting | undefined> {
  const list = connections();
  let chosen: ConnectionSetting | undefined;
  if (name) {
    chosen = list.find((c) => c.name === name);
    if (!chosen) {
      void vscode.window.showErrorMessage(`Dynalint: no connection named ${JSON.stringify(name)} in your user settings (dynalint.connections).`);
      return undefined;
    }
  } else {
    const local: ConnectionSetting = { name: 'DynamoDB Local (localhost:8000)', endpoint: 'http://localhost:8000', region: 'us-east-1' };
    const items = [...list, local].map((c) => {
      const problem = connectionProblem(c);
      return { label: c.name, description: c.region, detail: problem ? `$(error) ${problem}` : connectionDetail(c), c };
    });
    const settings = { label: '$(gear) Edit dynalint.connections…', description: 'name, region, profile, endpoint (user settings)', detail: undefined, c: undefined };
    const pick = await vscode.window.showQuickPick([...items, settings], { placeHolder: 'Reconcile: pick a connection (endpoint · credentials)', ignoreFocusOut: true });
    if (pick && !pick.c) await vscode.commands.executeCommand('workbench.action.openSettings', 'dynalint.connections');
    chosen = pick?.c;
  }
  const problem = chosen && connectionProblem(chosen);
  if (problem) {
    void vscode.window.showErrorMessage(noticeText(`Dynalint: connection ${JSON.stringify(chosen!.name)}: ${problem}`));
    return undefined;
  }
  return chosen;
}

async function listTables(client: DynamoDBClient): Promise<string[]> {
  const out: string[] = [];
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
    out.push(...(page.TableNames ?? []));
    start = page.LastEvaluatedTableName;
  } while (start);
  return out;
}

async function pickTable(client: DynamoDBClient, args: ReconcileCommandArgs): Promise<string | undefined> {
  const tables = await listTables(client);
  const { table: preferred, tableDescription } = prefill(args);
  if (preferred && tables.includes(preferred)) tables.unshift(...tables.splice(tables.indexOf(preferred), 1));
  const items = tables.map((t) => ({ label: t, description: t === preferred ? tableDescription : undefined }));
  return (await vscode.window.showQuickPick(items, { placeHolder: tables.length ? 'Reconcile: pick a table' : 'No tables on this connection', ignoreFocusOut: true }))?.label;
}

async function input(prompt: string, value: string | undefined, optional = false): Promise<string | undefined> {
  return vscode.window.showInputBox({
    prompt,
    value,
    ignoreFocusOut: true,
    validateInput: (v) => (optional || v.trim() ? undefined : 'Required'),
  });
}

async function pickPattern(args: ReconcileCommandArgs): Promise<CounterPattern | undefined> {
  const p = prefill(args);
  if (args.counter && (args.childPrefix || args.shardPrefix) && (args.parentSk || args.shardPrefix)) {
    // From a code lens: confirm the one value the code may not show (the parent's sort key) and go.
    const parentSk = args.parentSk ?? (await input(p.parentSkPrompt, p.parentSk));
    if (parentSk === undefined) return undefined;
    return { parentSk, counter: args.counter, ...(args.childPrefix ? { childPrefix: args.childPrefix } : { shardPrefix: args.shardPrefix }) };
  }
  const kind = await vscode.window.showQuickPick(
    [
      { label: 'Parent counter vs its children', detail: p.childrenDetail, k: 'children' as const },
      { label: 'Roll-up vs its counter shards', detail: p.shardsDetail, k: 'shards' as const },
    ],
    { placeHolder: 'Reconcile: what is counted?', ignoreFocusOut: true },
  );
  if (!kind) return undefined;
  const parentSk = await input(p.parentSkPrompt, args.parentSk ?? (kind.k === 'children' ? 'META' : 'STATS#TOTAL'));
  if (parentSk === undefined) return undefined;
  const counter = await input('Counter attribute', args.counter ?? (kind.k === 'children' ? 'likeTally' : 'play_count'));
  if (counter === undefined) return undefined;
  if (kind.k === 'children') {
    const childPrefix = await input(p.childPrefixPrompt, args.childPrefix ?? 'LIKE#');
    return childPrefix === undefined ? undefined : { parentSk, counter, childPrefix };
  }
  const shardPrefix = await input(p.shardPrefixPrompt, args.shardPrefix ?? `${parentSk}#`);
  return shardPrefix === undefined ? undefined : { parentSk, counter, shardPrefix };
}

async function pickScope(args: ReconcileCommandArgs): Promise<Scope | undefined> {
  const p = prefill(args);
  const pick = await vscode.window.showQuickPick(
    [
      { label: 'Whole table', detail: 'Parallel Scan: reads (and bills) every item of the table once', k: 'table' as const },
      { label: 'Partition keys…', detail: 'Only the parents you name: reads their children only', k: 'keys' as const },
      { label: 'Partition-key prefix…', detail: 'Up to N partitions whose key begins with a prefix', k: 'prefix' as const },
    ],
    { placeHolder: 'Reconcile: which parents?', ignoreFocusOut: true },
  );
  if (!pick) return undefined;
  if (pick.k === 'table') {
    const seg = await input('Parallel Scan segments', '4');
    return seg === undefined ? undefined : { kind: 'table', segments: Math.max(1, Math.floor(Number(seg)) || 1) };
  }
  if (pick.k === 'keys') {
    const keys = await input(p.partitionKeysPrompt, 'POST#a91f');
    return keys === undefined ? undefined : { kind: 'keys', keys: keys.split(',').map((k) => k.trim()).filter(Boolean) };
  }
  const prefix = await input(p.partitionPrefixPrompt, 'POST#');
  if (prefix === undefined) return undefined;
  const limit = await input('At most this many partitions', '100');
  return limit === undefined ? undefined : { kind: 'prefix', prefix, limit: Math.max(1, Math.floor(Number(limit)) || 100) };
}

async function runCommand(context: vscode.ExtensionContext, deps: ReconcileDeps, args: ReconcileCommandArgs): Promise<ReconcileReport | undefined> {
  const log = deps.output;
  const conn = await pickConnection(args.connection);
  if (!conn) return undefined;
  let client: DynamoDBClient;
  try {
    client = (deps.createClient ?? ((c: ConnectionSetting) => createClient(c)))(conn);
  } catch (e) {
    void vscode.window.showErrorMessage(noticeText(`Dynalint: ${(e as Error)?.message ?? String(e)}`));
    return undefined;
  }
  let keepClient = false;
  try {
    const table = args.table && args.scope ? args.table : await pickTable(client, args);
    if (!table) return undefined;
    const pattern = await pickPattern(args);
    if (!pattern) return undefined;
    const scope = args.scope ?? (await pickScope(args));
    if (!scope) return undefined;
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Reconciling ${table} (${connectionDetail(conn)})`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        return reconcile(client, {
          table,
          pattern,
          scope,
          consistent: args.consistent,
          maxRcu: args.maxRcu,
          signal: ac.signal,
          onProgress: (p) =>
            progress.report({
              message: `${p.partitionsDone}${p.partitionsTotal !== undefined ? '/' + p.partitionsTotal : ''} partitions, ${p.itemsRead} items read, ${p.consumedRcu.toFixed(1)} RCU`,
            }),
        });
      },
    );
    log?.info(`reconcile ${table}: ${report.drifted.length} drifted of ${report.checked}; ${report.itemsRead} items, ${report.consumedRcu} RCU`);
    keepClient = true;
    showReport(context, deps, client, conn, report);
    return report;
  } catch (e) {
    const message = e instanceof ReconcileError ? e.message : `Reconcile failed: ${(e as Error).message ?? String(e)}`;
    log?.error(message);
    void vscode.window.showErrorMessage(noticeText(`Dynalint: ${message}`));
    return undefined;
  } finally {
    if (!keepClient) client.destroy();
  }
}

function showReport(context: vscode.ExtensionContext, deps: ReconcileDeps, client: DynamoDBClient, conn: ConnectionSetting, report: ReconcileReport): void {
  const panel = vscode.window.createWebviewPanel('dynalint.reconcile', `Reconcile ${report.table}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    retainContextWhenHidden: true,
  });
  const repairable = report.pattern.parentSk !== undefined;
  panel.webview.html = reconcileHtml(report, {
    nonce: randomBytes(16).toString('base64'),
    cspSource: panel.webview.cspSource,
    repairable,
    connection: `${conn.name} (${connectionDetail(conn)})`,
  });
  panel.onDidDispose(() => client.destroy(), undefined, context.subscriptions);
  panel.webview.onDidReceiveMessage(
    (m: unknown) =>
      handlePageMessage(m, {
        repairable,
        exportReport: (format) => exportReport(report, format),
        repairRows: (rows) => repairRows(deps, client, report, rows, conn),
        post: (message) => void panel.webview.postMessage(message),
        showError: (message) => {
          deps.output?.error(message);
          void vscode.window.showErrorMessage(noticeText(`Dynalint: ${message}`));
        },
      }),
    undefined,
    context.subscriptions,
  );
}

async function exportReport(report: ReconcileReport, format: 'json' | 'csv'): Promise<void> {
  const uri = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.file(`reconcile-${report.table}.${format}`),
    filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
  });
  if (!uri) return;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(exportText(report, format), 'utf8'));
}

/**
 * The modal confirmation (naming the table, the endpoint and the credentials), then the conditional writes; returns
 * what to show per row. Never rejects: a repair that stopped part-way shows its results so far (written, failed, not
 * attempted), and one that could not start shows its error.
 */
export async function repairRows(
  deps: ReconcileDeps,
  client: DynamoDBClient,
  report: ReconcileReport,
  rows: number[],
  conn: ConnectionSetting,
): Promise<Array<{ index: number; text: string; ok: boolean }> | undefined> {
  const chosen = rows.map((i) => ({ index: i, row: report.drifted[i] })).filter((x) => x.row);
  if (!chosen.length) return undefined;
  const n = chosen.length;
  const answer = await vscode.window.showWarningMessage(
    `Write ${report.pattern.counter} on ${n} item${n === 1 ? '' : 's'} in ${report.table} at ${connectionDetail(conn)}?`,
    {
      modal: true,
      detail:
        `Connection "${conn.name}": ${connectionDetail(conn)}.\n` +
        `Each parent is re-counted with consistent reads, then its ${report.pattern.counter} is set to the count only if it still ` +
        'holds the value just read. A parent that changes meanwhile is skipped, never overwritten. Nothing else is written.',
    },
    `Write ${n} item${n === 1 ? '' : 's'}`,
  );
  if (!answer) return undefined;
  const pkName = Object.keys(chosen[0].row.key)[0];
  const settled = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Repairing ${report.table} (${connectionDetail(conn)})`, cancellable: true },
    async (progress, token) => {
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort());
      return settle(() =>
        repair(client, {
          table: report.table,
          pattern: report.pattern,
          parents: chosen.map((c) => c.row.key[pkName]),
          signal: ac.signal,
          onProgress: (done, total) => progress.report({ message: `${done}/${total}`, increment: 100 / total }),
        }),
      );
    },
  );
  if ('error' in settled) {
    deps.output?.error(`repair ${report.table}: ${settled.error}`);
    void vscode.window.showErrorMessage(noticeText(`Dynalint: nothing written: ${settled.error}`));
    return chosen.map((c) => ({ index: c.index, text: `not attempted (${settled.error})`, ok: false }));
  }
  const result = settled.report;
  deps.output?.info(formatRepair(result));
  const notice = repairNotice(result, n);
  const show = notice.level === 'error' ? vscode.window.showErrorMessage : notice.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(notice.text);
  return rowOutcomes(
    result,
    chosen.map((c) => c.index),
  );
}
