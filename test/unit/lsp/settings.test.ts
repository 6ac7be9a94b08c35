/**
 * The LSP settings cache (server/src/lsp/settings.ts) on its own, with a fake connection: one workspace/configuration
 * pull per document (shared by concurrent callers), `.dynalintrc.json` rules under the editor's, the VS Code trace
 * shape normalized, forgetting on change, settings pushed to clients that cannot be asked, and failures logged with
 * the defaults used instead.
 */
import { strict as assert } from 'node:assert';
import type { Connection } from 'vscode-languageserver';
import { SettingsCache, type FileRules } from '../../../server/src/lsp/settings';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';

interface Fake {
  cache: SettingsCache;
  pulls: { scopeUri?: string; section?: string }[];
  logs: string[];
}

function fake(options: { canPull?: boolean; answer?: (scopeUri: string | undefined) => unknown; fileRules?: FileRules } = {}): Fake {
  const pulls: Fake['pulls'] = [];
  const logs: string[] = [];
  const connection = {
    workspace: {
      getConfiguration: async (item: { scopeUri?: string; section?: string }) => {
        pulls.push(item);
        return options.answer ? options.answer(item.scopeUri) : {};
      },
    },
  } as unknown as Connection;
  const cache = new SettingsCache(connection, options.canPull ?? true, options.fileRules ?? (() => undefined), (m) => logs.push(m));
  return { cache, pulls, logs };
}

describe('lsp: settings cache', () => {
  it('pulls the dynalint section once per document, with the document as scopeUri; concurrent callers share the pull', async () => {
    const f = fake({ answer: (uri) => ({ maxFileSize: uri === 'file:///a.ts' ? 10 : 20 }) });
    const [a1, a2] = await Promise.all([f.cache.get('file:///a.ts'), f.cache.get('file:///a.ts')]);
    const b = await f.cache.get('file:///b.ts');
    assert.equal(a1, a2);
    assert.equal(a1.maxFileSize, 10);
    assert.equal(b.maxFileSize, 20);
    assert.equal(await f.cache.get('file:///a.ts'), a1, 'cached');
    assert.deepEqual(f.pulls, [
      { scopeUri: 'file:///a.ts', section: 'dynalint' },
      { scopeUri: 'file:///b.ts', section: 'dynalint' },
    ]);
  });

  it('puts the editor rules over the .dynalintrc.json rules of the document', async () => {
    const seen: string[] = [];
    const f = fake({
      answer: () => ({ rules: { 'reserved-word': 'error' } }),
      fileRules: (uri) => (seen.push(uri), { 'reserved-word': 'warning', 'unused-value': 'off' }),
    });
    const s = await f.cache.get('file:///p/x.ts');
    assert.deepEqual(s.rules, { 'reserved-word': 'error', 'unused-value': 'off' });
    assert.deepEqual(seen, ['file:///p/x.ts']);
  });

  it("reads VS Code's { trace: { server } } shape and fills every other setting with its default", async () => {
    const f = fake({ answer: () => ({ trace: { server: 'verbose' } }) });
    const s = await f.cache.get('file:///a.ts');
    assert.deepEqual(s, { ...DEFAULT_SETTINGS, trace: 'verbose' });
  });

  it('forgets one document on delete, every document on clear (which also bumps the generation)', async () => {
    let maxFileSize = 1;
    const f = fake({ answer: () => ({ maxFileSize }) });
    await f.cache.get('file:///a.ts');
    await f.cache.get('file:///b.ts');
    maxFileSize = 2;
    f.cache.delete('file:///a.ts');
    assert.equal((await f.cache.get('file:///a.ts')).maxFileSize, 2, 'a re-pulled');
    assert.equal((await f.cache.get('file:///b.ts')).maxFileSize, 1, 'b still cached');
    const generation = f.cache.generation;
    maxFileSize = 3;
    f.cache.clear();
    assert.equal(f.cache.generation, generation + 1);
    assert.equal((await f.cache.get('file:///a.ts')).maxFileSize, 3);
    assert.equal((await f.cache.get('file:///b.ts')).maxFileSize, 3);
    assert.equal(f.pulls.length, 5);
  });

  it('without workspace/configuration: uses the settings pushed with didChangeConfiguration, and keeps them on a clear without settings', async () => {
    const f = fake({ canPull: false });
    assert.deepEqual(await f.cache.get('file:///a.ts'), DEFAULT_SETTINGS, 'defaults before anything is pushed');
    f.cache.clear({ rules: { 'reserved-word': 'off' } });
    assert.deepEqual((await f.cache.get('file:///a.ts')).rules, { 'reserved-word': 'off' });
    f.cache.clear();
    assert.deepEqual((await f.cache.get('file:///a.ts')).rules, { 'reserved-word': 'off' }, 'a file change clears the cache, not the pushed settings');
    assert.deepEqual(f.pulls, []);
  });

  it('logs a failed pull or config file read and lints with what it has', async () => {
    const f = fake({
      answer: () => {
        throw new Error('client gone');
      },
      fileRules: () => {
        throw new Error('EACCES');
      },
    });
    assert.deepEqual(await f.cache.get('file:///a.ts'), DEFAULT_SETTINGS);
    assert.deepEqual(f.logs, [
      'workspace/configuration failed for file:///a.ts: Error: client gone',
      'reading .dynalintrc.json for file:///a.ts failed: Error: EACCES',
    ]);
  });
});
