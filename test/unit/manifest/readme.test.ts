/**
 * What README.md promises, checked against the code: the rule table, the settings list, the snippet prefixes, the
 * command palette title, and the CLI flags.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRules } from '../../../server/src/rules';
import { LINT_USAGE } from '../../../server/src/cli/lint';
import { RECONCILE_USAGE } from '../../../server/src/cli/reconcile';

const root = join(__dirname, '..', '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const prefixes = (file: string) => Object.values(JSON.parse(readFileSync(join(root, 'snippets', file), 'utf8')) as { prefix: string }[]).map((s) => s.prefix);

describe('README.md', () => {
  it('lists every rule once, with its default severity, fix column and an existing docs page', () => {
    const rows = [...readme.matchAll(/^\| \[([a-z-]+)\]\(docs\/rules\/([a-z-]+)\.md\) \| (\w+) \| (yes)? \| (.+) \|$/gm)];
    assert.deepEqual(
      rows.map((r) => [r[1], r[2], r[3], r[4] === 'yes']),
      allRules.map((r) => [r.id, r.id, r.meta.defaultSeverity, r.meta.fixable]),
    );
    for (const r of rows) assert.ok(existsSync(join(root, 'docs', 'rules', `${r[2]}.md`)), r[2]);
  });

  it('names exactly the contributed settings', () => {
    const line = /Settings \(`dynalint\.\*`\): (.+?)\.\n/s.exec(readme)?.[1] ?? '';
    const named = [...line.matchAll(/`([a-zA-Z.]+)`/g)].map((m) => `dynalint.${m[1]}`);
    assert.deepEqual(named.sort(), Object.keys(pkg.contributes.configuration.properties).sort());
  });

  it('names snippet prefixes that exist, -doc variants for TypeScript/JavaScript and -resource ones for Python', () => {
    const line = /\*\*Snippets\*\* for the safe patterns \((.+?)\)\./s.exec(readme)?.[1] ?? '';
    const named = [...line.matchAll(/`(ddb-[a-z-]+)`/g)].map((m) => m[1]);
    assert.equal(named.length, 7);
    for (const p of named) for (const file of ['json.json', 'typescript-javascript.json', 'python.json']) assert.ok(prefixes(file).includes(p), `${p} in ${file}`);
    assert.ok(prefixes('typescript-javascript.json').some((p) => p.endsWith('-doc')));
    assert.ok(prefixes('python.json').some((p) => p.endsWith('-resource')));
  });

  it('names the reconcile command by its palette title', () => {
    const reconcile = pkg.contributes.commands.find((c: { command: string }) => c.command === 'dynalint.reconcile');
    assert.ok(readme.includes(`**${reconcile.category}: ${reconcile.title}**`));
  });

  it('shows only flags the CLI accepts', () => {
    const block = /## Command line\n\n```sh\n([\s\S]+?)```/.exec(readme)?.[1] ?? '';
    const [lint, reconcile] = block.split('node dist/cli.js reconcile');
    for (const [text, usage] of [[lint, LINT_USAGE], [reconcile, RECONCILE_USAGE]]) {
      const flags = [...text.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
      assert.ok(flags.length > 3);
      // An option line of the usage starts with the flag (or pairs it with the one before: `--pk-prefix P --limit N`).
      for (const f of flags) assert.match(usage, new RegExp(`^  (--[a-z-]+ \\S+ )?${f}\\b`, 'm'), f);
    }
  });
});
