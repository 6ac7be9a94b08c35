/**
 * `dynalint demo` end to end (in-process, as `npm run demo` runs it): starts its own DynamoDB Local, seeds Social,
 * lints examples/, reconciles both counters, repairs the likes, re-checks them clean, and stops DynamoDB Local.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { demoCommand } from '../../server/src/cli/demo';

describe('dynalint demo (DynamoDB Local)', function () {
  this.timeout(180_000);

  it('runs every step in order, each with its expected exit code, and exits 0', async () => {
    let out = '';
    let err = '';
    const code = await demoCommand([], {
      cwd: join(__dirname, '..', '..'),
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
    });
    assert.equal(code, 0, `${out}\n${err}`);
    const steps = out.split('\n').filter((l) => /^(\$ |\(|Starting|Seeded|DynamoDB Local is up|Stopping)/.test(l));
    const reconcile = (extra: string) =>
      new RegExp(`^\\$ dynalint reconcile --endpoint http://\\S+ --table Social --parent-sk (META --counter likeTally --child-prefix 'LIKE#'|'STATS#TOTAL' --counter play_count --shard-prefix 'STATS#TOTAL#')${extra}$`);
    const expected: RegExp[] = [
      /^Starting DynamoDB Local \(in memory\)\.\.\.$/,
      /^DynamoDB Local is up on http:\/\/\S+\.$/,
      /^Seeded table Social: \d+ items — \d+ posts with likes and comments \([1-9]\d* with drifted likeTally\), \d+ videos with a play_count roll-up over 8 shards\.$/,
      /^\$ dynalint lint examples$/,
      /^\(lint exit code 1: the examples hold broken patterns on purpose\)$/,
      reconcile(''),
      /^\(exit code 1\)$/,
      reconcile(''),
      /^\(exit code 1\)$/,
      reconcile(' --repair --yes'),
      /^\(exit code 1\)$/,
      reconcile(' --consistent'),
      /^\(exit code 0\)$/,
      /^Stopping DynamoDB Local\.$/,
    ];
    assert.equal(steps.length, expected.length, steps.join('\n'));
    steps.forEach((line, i) => assert.match(line, expected[i], `step ${i + 1}`));
    // The likes step and the plays step each found drift; the lint step reported the examples' problems.
    assert.match(out, /examples\/likes\.ts/);
    assert.match(out, /drifted of \d+ checked/);
  });
});
