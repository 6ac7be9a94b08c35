/**
 * "Dynalint: Reconcile Reference Counts" in a real VS Code: the command runs the engine in the extension host against
 * DynamoDB Local (a `dynalint.connections` entry), returns the report and opens the results page. The code lens over
 * the like transaction carries the pattern read from the code. The results page is captured for the README.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LocalDynamo, startDynamoDBLocal } from '../../../scripts/dynamodb-local';
import { seedSocial, SocialSeed } from '../../../server/src/reconcile/seed';
import type { ReconcileReport } from '../../../server/src/reconcile/types';
import { screenshot } from './screenshot';

describe('Reconcile in VS Code', function () {
  this.timeout(120_000);
  let local: LocalDynamo | undefined;
  let seed: SocialSeed;

  before(async () => {
    const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'dynalint');
    assert.ok(ext, 'the extension is loaded');
    await ext.activate();
    local = await startDynamoDBLocal();
    seed = await seedSocial(local.client, 'Social');
    await vscode.workspace
      .getConfiguration('dynalint')
      .update('connections', [{ name: 'test-local', endpoint: local.endpoint, region: 'us-east-1' }], vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('dynalint').update('connections', undefined, vscode.ConfigurationTarget.Global);
    await local?.stop();
  });

  it('runs from the command with code-lens arguments and opens the results page', async () => {
    const report = await vscode.commands.executeCommand<ReconcileReport | undefined>('dynalint.reconcile', {
      connection: 'test-local',
      table: 'Social',
      counter: 'likeTally',
      childPrefix: 'LIKE#',
      parentSk: 'META',
      scope: { kind: 'table', segments: 2 },
    });
    assert.ok(report, 'the command returned a report');
    assert.deepEqual(
      report.drifted.map((d) => [d.key.PK, d.stored, d.actual]),
      seed.likeDrift.map((d) => [d.pk, d.stored, d.actual]),
    );
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    const end = Date.now() + 30_000;
    while (!labels().includes('Reconcile Social') && Date.now() < end) {
      await new Promise<void>((r) => {
        const sub = vscode.window.tabGroups.onDidChangeTabs(() => (sub.dispose(), r()));
        setTimeout(() => (sub.dispose(), r()), 500);
      });
    }
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Reconcile Social');
    assert.ok(tab, labels().join(', '));
    assert.ok(tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('dynalint.reconcile'), String(tab.input));
    // For the README: the page as it renders in the webview (chart and drifted rows), taken by the harness.
    const page = ['iframe.webview.ready', 'iframe#active-frame'];
    await screenshot({
      name: 'reconcile-report',
      waitFor: [
        { frames: page, selector: 'h1', hasText: 'Reconcile Social' },
        { frames: page, selector: 'svg.drift-chart' },
        { frames: page, selector: 'table tr.under' },
        { frames: page, selector: 'table' },
      ],
      clip: '.part.editor',
      fit: [],
    });
  });

  it('offers a code lens over the like transaction with the pattern from the code', async () => {
    const uri = vscode.Uri.file(join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'like.json'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const end = Date.now() + 30_000;
    let lens: vscode.CodeLens | undefined;
    while (!lens && Date.now() < end) {
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? [];
      lens = lenses.find((l) => l.command?.command === 'dynalint.reconcile');
      if (!lens) await new Promise<void>((r) => setTimeout(r, 250)); // poll with a deadline: the server may still be starting
    }
    assert.ok(lens, 'a reconcile code lens');
    assert.deepEqual(lens.command?.arguments?.[0], { table: 'Social', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' });
  });
});
