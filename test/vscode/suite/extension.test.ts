/**
 * The extension in a real VS Code: diagnostics on open, a quick fix applied, completion inside an expression string,
 * a snippet inserted and linted clean, a cost hover. The squiggle with its hover, the quick fix menu and the cost hover
 * are captured for the README as they are asserted (./screenshot.ts).
 * Waits on events or polls with a deadline; never sleeps a fixed time.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DynalintApi, LintRecord } from '../../../client/src/extension';
import { screenshot, Visible } from './screenshot';

const workspace = (): string => vscode.workspace.workspaceFolders![0].uri.fsPath;

async function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((resolve) => {
      const sub = vscode.languages.onDidChangeDiagnostics(() => {
        sub.dispose();
        resolve();
      });
      setTimeout(() => {
        sub.dispose();
        resolve();
      }, 200);
    });
  }
}

function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (typeof c === 'object' && c !== null) return String(c.value);
  return c === undefined ? undefined : String(c);
}

const ours = (uri: vscode.Uri): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'dynalint');

/** The first quick fix matching `want` at `range`, asking the providers again until one is offered (deadline). */
async function quickFix(uri: vscode.Uri, range: vscode.Range, want: (a: vscode.CodeAction) => boolean): Promise<vscode.CodeAction> {
  let last: string[] = [];
  try {
    return await until('a quick fix', async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
      last = actions.map((a) => a.title);
      return actions.find((a) => a.edit && want(a));
    }, 20_000);
  } catch {
    const present = ours(uri).map((d) => `${codeOf(d)}@${d.range.start.line}:${d.range.start.character}`);
    throw new Error(`no matching quick fix was offered (last offered: ${last.join(' | ') || 'nothing'}; diagnostics now: ${present.join(', ') || 'none'})`);
  }
}

/**
 * Wait for the server's own report (dynalint/linted) that it linted THIS document at its current version (and, when
 * given, that it came from server start `serverStart`), then make one request round trip to the server: the server
 * sends the version's diagnostics together with that report, so after the answer they are in VS Code. Asserting
 * diagnostics after this asserts that version's lint, never "whatever was there before the first lint".
 */
async function linted(api: DynalintApi, doc: vscode.TextDocument, serverStart?: number): Promise<LintRecord> {
  const uri = doc.uri.toString();
  const record = await until(`the lint of ${uri} v${doc.version}`, () => {
    const l = api.lastLint(uri);
    return l && l.version === doc.version && (serverStart === undefined || l.serverStart === serverStart) ? l : undefined;
  });
  await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(0, 0));
  return record;
}

async function open(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(workspace(), name)));
  return vscode.window.showTextDocument(doc);
}

describe('Dynalint in VS Code', () => {
  let api: DynalintApi;
  before(async () => {
    const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'dynalint');
    assert.ok(ext, 'the extension is loaded');
    api = (await ext.activate()) as DynalintApi;
  });

  it('flags an unguarded counter transaction in JSON with rule id, docs link and source', async () => {
    const editor = await open('like.json');
    const diag = await until('unguarded-add-in-transaction', () =>
      ours(editor.document.uri).find((d) => codeOf(d) === 'unguarded-add-in-transaction'),
    );
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Warning);
    const target = typeof diag.code === 'object' ? diag.code.target.toString() : '';
    assert.match(target, /unguarded-add-in-transaction/);
    assert.ok(!diag.message.includes('unguarded-add-in-transaction'), 'the message does not repeat the id');
  });

  it('applies the quick fix that guards the child Put', async () => {
    const editor = await open('like.json');
    const diag = await until('diagnostic', () => ours(editor.document.uri).find((d) => codeOf(d) === 'unguarded-add-in-transaction'));
    const fix = await quickFix(editor.document.uri, diag.range, (a) => /attribute_not_exists/.test(a.title));
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.match(editor.document.getText(), /"ConditionExpression": "attribute_not_exists\(SK\)"/);
    await until('the warning to clear', () =>
      ours(editor.document.uri).some((d) => codeOf(d) === 'unguarded-add-in-transaction') ? undefined : true,
    );
  });

  it('reports a bare reserved word in TypeScript and fixes it with a #name placeholder', async () => {
    const editor = await open('status.ts');
    const diag = await until('reserved-word', () => ours(editor.document.uri).find((d) => codeOf(d) === 'reserved-word'));
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(editor.document.getText(diag.range), 'status');
    const fix = await quickFix(editor.document.uri, diag.range, (a) => /#/.test(a.title));
    // For the README: the squiggle with its hover, then the quick fix menu, as a user sees them before choosing.
    editor.selection = new vscode.Selection(diag.range.start, diag.range.start);
    const squiggle: Visible = { selector: '.monaco-editor .squiggly-error:visible' };
    await vscode.commands.executeCommand('editor.action.showHover');
    await screenshot({
      name: 'diagnostic-hover',
      waitFor: [squiggle, { selector: '.monaco-hover:visible', hasText: 'reserved-word' }],
      clip: '.part.editor',
      fit: ['.monaco-editor .view-line'],
      dismiss: 'Escape',
    });
    await vscode.commands.executeCommand('editor.action.quickFix');
    await screenshot({
      name: 'quick-fix',
      waitFor: [squiggle, { selector: '.action-widget:visible', hasText: fix.title }],
      clip: '.part.editor',
      fit: ['.monaco-editor .view-line'],
      dismiss: 'Escape',
    });
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    const text = editor.document.getText();
    assert.match(text, /UpdateExpression: 'SET #status = :s'/);
    assert.match(text, /ExpressionAttributeNames: \{ '#status': 'status' \}/);
    await until('the error to clear', () => (ours(editor.document.uri).some((d) => codeOf(d) === 'reserved-word') ? undefined : true));
  });

  it('warns about SET x = x + :n in Python', async () => {
    const editor = await open('plays.py');
    const diag = await until('set-without-if-not-exists', () =>
      ours(editor.document.uri).find((d) => codeOf(d) === 'set-without-if-not-exists'),
    );
    assert.match(editor.document.getText(diag.range), /play_count/);
  });

  it('completes functions and placeholders inside an expression string', async () => {
    const editor = await open('plays.py');
    const text = editor.document.getText();
    // After `SET play_count = ` an operand is expected: a path, a :value, or if_not_exists/list_append.
    const at = editor.document.positionAt(text.indexOf('= play_count') + '= '.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, at);
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes(':one'), `:one offered (got ${labels.slice(0, 20).join(', ')})`);
    assert.ok(labels.some((l) => /^if_not_exists/.test(l)), 'if_not_exists offered');
  });

  it('inserts the guarded-like snippet and it lints clean', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: '' });
    const editor = await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('editor.action.insertSnippet', { langId: 'json', name: 'like-transaction (AWS CLI --cli-input-json)' });
    await until('the snippet text', () => (doc.getText().includes('TransactItems') ? true : undefined));
    assert.match(doc.getText(), /attribute_not_exists/);
    // The lint of the version holding the snippet (not the empty document's): no findings, none shown.
    const lint = await linted(api, doc);
    assert.equal(lint.findings, 0);
    assert.deepEqual(ours(editor.document.uri).map(codeOf), []);
  });

  it('fixes every auto-fixable problem of a file with the Fix All command', async () => {
    const content = [
      `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
      `export const a = new UpdateCommand({ TableName: 'Users', Key: { PK: 'U#1' }, UpdateExpression: 'SET name = :n, status = :s', ExpressionAttributeValues: { ':n': 'Ann', ':s': 'on', ':gone': 1 } });`,
      ``,
    ].join('\n');
    const doc = await vscode.workspace.openTextDocument({ language: 'typescript', content });
    const editor = await vscode.window.showTextDocument(doc);
    await until('reserved-word', () => ours(doc.uri).find((d) => codeOf(d) === 'reserved-word'));
    await vscode.commands.executeCommand('dynalint.fixAll');
    await until('the fixed text', () => (editor.document.getText().includes('#status') ? true : undefined));
    assert.equal((await linted(api, doc)).findings, 0, 'the fixed version lints clean');
    assert.match(
      editor.document.getText(),
      /UpdateExpression: 'SET #name = :n, #status = :s', ExpressionAttributeValues: \{ ':n': 'Ann', ':s': 'on' \}, ExpressionAttributeNames: \{ '#name': 'name', '#status': 'status' \}/,
    );
    await until('no dynalint diagnostics', () => (ours(doc.uri).length === 0 ? true : undefined));
  });

  it('registers its commands under the Dynalint category', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of ['dynalint.restartServer', 'dynalint.showOutput', 'dynalint.openRuleDocs', 'dynalint.reconcile', 'dynalint.fixAll']) {
      assert.ok(all.includes(id), `${id} is registered`);
    }
  });

  it('follows the dynalint.rules setting per workspace: a rule turned off disappears, and comes back', async () => {
    const editor = await open('plays.py');
    await until('set-without-if-not-exists', () => ours(editor.document.uri).find((d) => codeOf(d) === 'set-without-if-not-exists'));
    const config = vscode.workspace.getConfiguration('dynalint', editor.document.uri);
    await config.update('rules', { 'set-without-if-not-exists': 'off' }, vscode.ConfigurationTarget.Workspace);
    try {
      await until('the rule to go quiet', () =>
        ours(editor.document.uri).some((d) => codeOf(d) === 'set-without-if-not-exists') ? undefined : true,
      );
    } finally {
      await config.update('rules', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await until('the rule to come back', () => ours(editor.document.uri).find((d) => codeOf(d) === 'set-without-if-not-exists'));
  });

  it('restarts the server and lints again after the restart', async () => {
    const before = api.serverStarts();
    await vscode.commands.executeCommand('dynalint.restartServer');
    await until('the restarted server to run', () => (api.serverStarts() === before + 1 && api.status().state === 'running' ? true : undefined));
    const editor = await open('plays.py');
    // An edit after the restart must be linted by the new server: break the request, see the new finding.
    const text = editor.document.getText();
    const at = text.indexOf(':one"');
    await editor.edit((b) => b.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 4)), ':uno'));
    // Linted by the new server (its start number), at the edited version.
    await linted(api, editor.document, before + 1);
    assert.ok(ours(editor.document.uri).some((d) => codeOf(d) === 'undefined-value'), 'undefined-value from the restarted server');
    await vscode.commands.executeCommand('undo');
    await until('the undo', () => (editor.document.getText() === text ? true : undefined));
    await linted(api, editor.document, before + 1);
    assert.ok(!ours(editor.document.uri).some((d) => codeOf(d) === 'undefined-value'), 'the finding cleared');
  });

  it('shows the server state and the last lint in the status bar', async () => {
    await until('a running server', () => (api.status().state === 'running' ? true : undefined));
    const editor = await open('status.ts');
    // An edit makes the server lint this file now: once THIS version's lint is reported, the tooltip names it, with its
    // finding count. The item shows the last lint of any file, and a file-watcher event (the settings the previous
    // tests wrote) can make the server lint every open document again right after ours: then the tooltip rightly
    // names another file, and the edit is tried again (deadline).
    const end = Date.now() + 30_000;
    for (;;) {
      await editor.edit((b) => b.insert(editor.document.positionAt(editor.document.getText().length), '\n'));
      const lint = await linted(api, editor.document);
      const shown = api.status();
      await vscode.commands.executeCommand('undo');
      if (!/\nLast lint: status\.ts /.test(shown.tooltip) && Date.now() < end) continue;
      assert.equal(shown.text, '$(check) Dynalint');
      assert.match(shown.tooltip, new RegExp(`^Dynalint server: running\nLast lint: status\\.ts — ${lint.findings} finding\\(s\\) in [\\d.]+ ms at `));
      assert.equal(shown.command, 'dynalint.showOutput');
      break;
    }
  });

  it('shows the cost of a request on hover (README screenshot)', async () => {
    // A tidy tab bar for the picture: the untitled documents of the snippet and Fix All tests go, unsaved.
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (!(tab.input instanceof vscode.TabInputText) || tab.input.uri.scheme !== 'untitled') continue;
      await vscode.window.showTextDocument(tab.input.uri);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    assert.ok(!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'untitled')));
    const editor = await open('plays.py');
    const text = editor.document.getText();
    const call = editor.document.positionAt(text.indexOf('update_item') + 3);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, call);
    const markdown = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
      .join('\n');
    assert.match(markdown, /WCU/, 'the hover estimates write capacity');
    editor.selection = new vscode.Selection(call, call);
    await vscode.commands.executeCommand('editor.action.showHover');
    await screenshot({
      name: 'cost-hover',
      waitFor: [{ selector: '.monaco-hover:visible', hasText: 'WCU' }],
      clip: '.part.editor',
      fit: ['.monaco-editor .view-line'],
      dismiss: 'Escape',
    });
  });
});
