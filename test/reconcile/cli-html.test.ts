/** `dynalint reconcile --format html` against DynamoDB Local: one self-contained page with the drift chart and table. */
import { strict as assert } from 'node:assert';
import { seedSocial } from '../../server/src/reconcile/seed';
import { runReconcile, tableName, useLocal } from './support';

describe('dynalint reconcile --format html (CLI, DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  const social = tableName('SocialHtml');

  before(async () => {
    await seedSocial(local.get().client, social);
  });

  it('exits 1 on drift and prints the page: chart bars in drift order, the table, no script', async () => {
    const r = await runReconcile(['--endpoint', local.get().endpoint, '--table', social, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#', '--format', 'html']);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^<!DOCTYPE html>/);
    assert.ok(!/<script/i.test(r.out));
    assert.deepEqual(
      [...r.out.matchAll(/<g class="row" data-key="([^"]+)">.*?class="value">([^<]+)</g)].map((m) => [m[1], m[2]]),
      [
        ['PK=POST#c7d1 SK=META', '+3'],
        ['PK=POST#b2c4 SK=META', '−2'],
        ['PK=POST#d03e SK=META', '+2'],
        ['PK=POST#f101 SK=META', '−2'],
      ],
    );
    assert.match(r.out, /class="totals">4 drifted of 6 checked · net drift \+1 · total \|drift\| 9</);
    assert.equal(r.out.match(/<tr class="(under|over)">/g)?.length, 4);
  });
});
