// Mocha's spec reporter, plus a machine-readable summary for scripts/test.mjs (path in DYNALINT_STATS).
const Mocha = require('mocha');
const { writeFileSync } = require('node:fs');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on('fail', (test, err) => failures.push({ title: test.fullTitle(), error: String(err && err.message) }));
    runner.once('end', () => {
      const out = process.env.DYNALINT_STATS;
      if (out) writeFileSync(out, JSON.stringify({ ...runner.stats, failureList: failures }));
    });
  }
}
module.exports = SummaryReporter;
