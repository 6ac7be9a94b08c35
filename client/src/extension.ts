/**
 * The VS Code extension: starts the Dynalint language server (dist/server.js over IPC), shows its state in the status
 * bar, and registers the "Dynalint" commands. The only code that imports `vscode`; all linting happens in the server.
 */
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions, State, TransportKind } from 'vscode-languageclient/node';
import { Commands, FIX_ALL_KIND, LintedNotification, type LintedParams, ListRulesRequest, type RuleSummary } from '../../server/src/protocol/lsp';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import { registerReconcile } from './reconcile';

let client: LanguageClient | undefined;

/**
 * Status bar: server state, and the lint of the active editor's document (file, findings, time; the last lint of any
 * file when the active document has none). Following the active editor means a refresh that re-lints every open
 * document cannot replace what the user is looking at with another file's report. Click opens the output channel.
 */
class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dynalint.status', vscode.StatusBarAlignment.Right, 100);
  private state = 'starting';
  private latest?: { params: LintedParams; at: Date };
  /** The last lint of each open document (forgotten when it closes). */
  private readonly byUri = new Map<string, { params: LintedParams; at: Date }>();

  constructor() {
    this.item.name = 'Dynalint';
    this.item.command = Commands.showOutput;
    this.render();
    this.item.show();
  }

  setState(state: State): void {
    this.state = state === State.Running ? 'running' : state === State.Starting ? 'starting' : 'stopped';
    this.render();
  }

  linted(params: LintedParams): void {
    this.latest = { params, at: new Date() };
    this.byUri.set(params.uri, this.latest);
    this.render();
  }

  forget(uri: string): void {
    this.byUri.delete(uri);
    if (this.latest?.params.uri === uri) this.latest = undefined;
    this.render();
  }

  /** Re-read which document is active and show its lint. */
  render(): void {
    const icon = this.state === 'running' ? '$(check)' : this.state === 'starting' ? '$(sync~spin)' : '$(error)';
    this.item.text = `${icon} Dynalint`;
    const lines = [`Dynalint server: ${this.state}`];
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const shown = (active !== undefined ? this.byUri.get(active) : undefined) ?? this.latest;
    if (shown) {
      const p = shown.params;
      const file = vscode.Uri.parse(p.uri).path.split('/').pop();
      lines.push(
        p.skipped
          ? `Last: ${file} skipped (${p.skipped}) at ${shown.at.toLocaleTimeString()}`
          : `Last lint: ${file} — ${p.findings} finding(s) in ${p.durationMs.toFixed(1)} ms at ${shown.at.toLocaleTimeString()}`,
      );
      for (const reason of p.notLinted ?? []) lines.push(`Not linted in ${file}: ${reason}`);
    }
    lines.push('Click to show the output');
    this.item.tooltip = lines.join('\n');
    this.item.backgroundColor = this.state === 'stopped' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  /** What the item shows now (the extension's API exposes it for tests and for other extensions). */
  snapshot(): StatusSnapshot {
    return { state: this.state, text: this.item.text, tooltip: String(this.item.tooltip ?? ''), command: String(this.item.command ?? '') };
  }

  dispose(): void {
    this.item.dispose();
  }
}

export interface StatusSnapshot {
  state: string;
  text: string;
  tooltip: string;
  command: string;
}

/** A `dynalint/linted` report as the extension received it. */
export interface LintRecord extends LintedParams {
  /** Which start of the server sent it (1 for the first; a restart adds one). */
  serverStart: number;
}

/** The extension's exports (`vscode.extensions.getExtension('dynalint.dynalint').exports`). */
export interface DynalintApi {
  /** The status bar item's current state, text and tooltip. */
  status(): StatusSnapshot;
  /** How many times the server has reached the running state (a restart adds one). */
  serverStarts(): number;
  /** The last lint the server reported for a document (`uri.toString()`), if any. */
  lastLint(uri: string): LintRecord | undefined;
}

/** "Dynalint: Fix All Auto-Fixable Problems": the server's `source.fixAll.dynalint` action on the active editor. */
async function fixAll(editor: vscode.TextEditor, output: vscode.LogOutputChannel): Promise<void> {
  const doc = editor.document;
  const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, whole, FIX_ALL_KIND);
  const action = actions?.find((a) => a.kind?.value === FIX_ALL_KIND && a.edit);
  if (!action?.edit) {
    void vscode.window.showInformationMessage('Dynalint: nothing to fix automatically in this file.');
    return;
  }
  if (!(await vscode.workspace.applyEdit(action.edit))) {
    output.warn(`fix-all could not be applied to ${doc.uri.toString()} (the document changed meanwhile?)`);
    void vscode.window.showWarningMessage('Dynalint: the fixes could not be applied; the file changed meanwhile. Try again.');
  }
}

async function openRuleDocs(c: LanguageClient, ruleId?: unknown): Promise<void> {
  const rules = await c.sendRequest<RuleSummary[]>(ListRulesRequest);
  let rule = typeof ruleId === 'string' ? rules.find((r) => r.id === ruleId) : undefined;
  if (!rule) {
    // Preselect the rule of a Dynalint diagnostic under the cursor.
    const editor = vscode.window.activeTextEditor;
    const here = editor
      ? vscode.languages.getDiagnostics(editor.document.uri).find((d) => d.source === 'dynalint' && d.range.contains(editor.selection.active))
      : undefined;
    const code = typeof here?.code === 'object' ? String(here.code.value) : here?.code !== undefined ? String(here.code) : undefined;
    const picks = rules.map((r) => ({ label: r.id, description: r.category, detail: r.description, rule: r }));
    const current = picks.find((p) => p.label === code);
    if (current) picks.unshift(...picks.splice(picks.indexOf(current), 1));
    rule = (await vscode.window.showQuickPick(picks, { placeHolder: 'Open the documentation of a Dynalint rule', matchOnDetail: true }))?.rule;
  }
  if (rule) await vscode.env.openExternal(vscode.Uri.parse(rule.docs));
}

export async function activate(context: vscode.ExtensionContext): Promise<DynalintApi> {
  const output = vscode.window.createOutputChannel('Dynalint', { log: true });
  const status = new StatusBar();
  context.subscriptions.push(output, status);

  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // One server for every workspace folder (multi-root): settings are pulled per document with its scopeUri.
    documentSelector: DEFAULT_SETTINGS.languages.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/.dynalintrc.json') },
    outputChannel: output,
  };
  const c = new LanguageClient('dynalint', 'Dynalint', serverOptions, clientOptions);
  client = c;
  let starts = 0;
  const lints = new Map<string, LintRecord>();
  context.subscriptions.push(
    c.onDidChangeState((e) => {
      if (e.newState === State.Running) starts++;
      status.setState(e.newState);
    }),
    c.onNotification(LintedNotification, (p: LintedParams) => {
      lints.set(p.uri, { ...p, serverStart: starts });
      status.linted(p);
    }),
    vscode.window.onDidChangeActiveTextEditor(() => status.render()),
    vscode.workspace.onDidCloseTextDocument((d) => {
      lints.delete(d.uri.toString());
      status.forget(d.uri.toString());
    }),
    vscode.commands.registerCommand(Commands.restartServer, async () => {
      output.info('Restarting the Dynalint server');
      await c.restart();
    }),
    vscode.commands.registerCommand(Commands.showOutput, () => output.show(true)),
    vscode.commands.registerCommand(Commands.openRuleDocs, (ruleId?: unknown) => openRuleDocs(c, ruleId)),
    vscode.commands.registerTextEditorCommand(Commands.fixAll, (editor) => fixAll(editor, output)),
  );
  // "Dynalint: Reconcile Reference Counts" (also the target of the server's code lenses) runs in the extension host.
  registerReconcile(context, { output });
  await c.start();
  status.setState(c.state);
  return { status: () => status.snapshot(), serverStarts: () => starts, lastLint: (uri) => lints.get(uri) };
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
