/**
 * Entry point the extension host calls (`extensionTestsPath`): runs the mocha suite inside a real VS Code and writes
 * `{passes, failures, failureList}` to DYNALINT_TEST_RESULTS for the harness (scripts/run-vscode-tests.mjs).
 */
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false });
  const file = __filename;
  mocha.suite.emit('pre-require', globalThis, file, mocha);
  // Test modules are required after mocha has installed describe/it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./extension.test');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./reconcile.test');
  return new Promise((resolve) => {
    const failureList: { title: string; error: string }[] = [];
    const runner = mocha.run(() => {
      const out = process.env.DYNALINT_TEST_RESULTS;
      const stats = runner.stats ?? { passes: 0, failures: 1 };
      if (out) writeFileSync(out, JSON.stringify({ passes: stats.passes, failures: stats.failures, failureList }));
      resolve();
    });
    runner.on('pass', (t) => console.log(`  ok ${t.fullTitle()}`));
    runner.on('fail', (t, err: Error) => {
      console.log(`  FAILED ${t.fullTitle()}: ${err.message}`);
      failureList.push({ title: t.fullTitle(), error: err.message });
    });
  });
}
