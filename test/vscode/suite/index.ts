/**
 * Entry point the extension host calls (`extensionTestsPath`): runs the mocha suite inside a real VS Code and writes
 * `{passes, failures, pending, failureList}` to DYNALINT_TEST_RESULTS for the harness (scripts/run-vscode-tests.mjs).
 * A pending test counts as a failure.
 */
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // As in .mocharc.json: a committed `.only` or a skipped/pending test fails the run instead of silently shrinking it.
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, forbidOnly: true, forbidPending: true });
  const file = __filename;
  mocha.suite.emit('pre-require', globalThis, file, mocha);
  // Test modules are required after mocha has installed describe/it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./extension.test');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./reconcile.test');
  return new Promise((resolve) => {
    const failureList: { title: string; error: string }[] = [];
    const pendingList: string[] = [];
    const runner = mocha.run(() => {
      const out = process.env.DYNALINT_TEST_RESULTS;
      const stats = runner.stats ?? { passes: 0, failures: 1 };
      for (const title of pendingList) failureList.push({ title, error: 'pending (skipped) tests are not allowed' });
      const result = { passes: stats.passes, failures: stats.failures + pendingList.length, pending: pendingList.length, failureList };
      if (out) writeFileSync(out, JSON.stringify(result));
      resolve();
    });
    runner.on('pending', (t) => {
      console.log(`  PENDING ${t.fullTitle()}`);
      pendingList.push(t.fullTitle());
    });
    runner.on('pass', (t) => console.log(`  ok ${t.fullTitle()}`));
    runner.on('fail', (t, err: Error) => {
      console.log(`  FAILED ${t.fullTitle()}: ${err.message}`);
      failureList.push({ title: t.fullTitle(), error: err.message });
    });
  });
}
