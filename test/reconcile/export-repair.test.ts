import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { writeFileSync } from 'node:fs';
import { describeExports, renderFor, runDuckDB } from '../../server/src/reconcile/export/engine';
import { ResultRow } from '../../server/src/reconcile/export/rows';
import { createTable, likeTransaction, putItems } from '../../server/src/reconcile/seed';
import { stateA } from './export-fixtures';
import { writeFullExport } from './export-writer';
import { runReconcile, snapshot, tableName, useLocal } from './support';

const LIKES = ['--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];

describe('reconcile --from-export --repair (DynamoDB Local)', function () {
  this.timeout(120_000);
  const local = useLocal();
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-export-repair-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function tally(table: string, pk: string): Promise<string | undefined> {
    const out = await local.get().client.send(new GetItemCommand({ TableName: table, Key: { PK: { S: pk }, SK: { S: 'META' } }, ConsistentRead: true }));
    return out.Item?.likeTally?.N;
  }

  it('writes the exported counts, each only if the counter still holds the exported value; a parent changed since is skipped', async () => {
    const t = tableName('Social');
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, stateA());
    const exported = writeFullExport({ root, items: stateA(), exportTime: '2026-03-01T10:00:00.000Z' }).dir;
    // After the export: a like through the transaction (the counter moves 5 -> 6), and a parent deleted.
    assert.equal(await likeTransaction(local.get().client, t, 'b2c4', 'after-export'), true);
    await local.get().client.send(new DeleteItemCommand({ TableName: t, Key: { PK: { S: 'POST#f101' }, SK: { S: 'META' } } }));
    const before = await snapshot(local.get().client, t);

    const refused = await runReconcile(['--from-export', exported, ...LIKES, '--repair', '--table', t, '--endpoint', local.get().endpoint], { tty: false });
    assert.equal(refused.code, 2);
    assert.match(refused.err, /refusing to write without --yes: stdin is not a terminal\n$/);
    assert.deepEqual(await snapshot(local.get().client, t), before);

    const r = await runReconcile(['--from-export', exported, ...LIKES, '--repair', '--table', t, '--endpoint', local.get().endpoint, '--yes', '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    const byPk = new Map<string, { status: string }>(j.repair.results.map((x: { key: { PK: string }; outcome: { status: string } }) => [x.key.PK, x.outcome]));
    assert.deepEqual(byPk.get('POST#b2c4'), { status: 'changed', attempts: 1, since: 'export', now: 6 });
    assert.deepEqual(byPk.get('POST#f101'), { status: 'no-parent' });
    assert.deepEqual(byPk.get('POST#c7d1'), { status: 'repaired', from: 1, to: 4 });
    assert.deepEqual(byPk.get('POST#d03e'), { status: 'repaired', from: null, to: 2 });
    assert.equal(byPk.get('POST#s1')?.status, 'not-attempted');
    assert.equal(byPk.get('POST#b1')?.status, 'not-attempted');
    assert.deepEqual(byPk.get('POST#gone'), { status: 'no-parent' });
    // Only the repaired parents' counters changed; b2c4 keeps the like that came after the export.
    assert.equal(await tally(t, 'POST#b2c4'), '6');
    assert.equal(await tally(t, 'POST#c7d1'), '4');
    const after = await snapshot(local.get().client, t);
    const repaired = j.repair.results.filter((x: { outcome: { status: string } }) => x.outcome.status === 'repaired').length;
    assert.equal(j.repair.written, repaired);
    assert.equal(after.filter((x) => !before.includes(x)).length, repaired);
    assert.equal(after.length, before.length);
    // The table text says so too.
    const again = await runReconcile(['--from-export', exported, ...LIKES, '--repair', '--table', t, '--endpoint', local.get().endpoint, '--yes']);
    assert.equal(again.code, 1);
    assert.match(again.out, /^skipped PK=POST#b2c4 SK=META: changed since the export \(now 6\), not overwritten$/m);
    assert.match(again.out, /^skipped PK=POST#c7d1 SK=META: changed since the export \(now 4\), not overwritten$/m);
    assert.match(again.out, /^skipped PK=POST#f101 SK=META: the parent item does not exist$/m);
  });

  it('--from-result (the emitted query\'s rows, as Athena or Spark would return them) repairs the same way', async () => {
    const t = tableName('Social');
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, stateA());
    const exported = writeFullExport({ root, items: stateA(), exportTime: '2026-03-01T10:00:00.000Z' }).dir;
    const pattern = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };
    const rows: ResultRow[] = [];
    await runDuckDB(renderFor(await describeExports({ sources: [exported] }), pattern, undefined, 'duckdb'), (chunk) => rows.push(...chunk));
    const file = join(root, 'part-00000.json');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const r = await runReconcile(['--from-result', file, ...LIKES, '--repair', '--table', t, '--endpoint', local.get().endpoint, '--yes', '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.source.kind, 'result');
    const byPk = new Map<string, unknown>(j.repair.results.map((x: { key: { PK: string }; outcome: unknown }) => [x.key.PK, x.outcome]));
    assert.deepEqual(byPk.get('POST#b2c4'), { status: 'repaired', from: 5, to: 3 });
    assert.deepEqual(byPk.get('POST#gone'), { status: 'no-parent' });
    assert.equal(await tally(t, 'POST#b2c4'), '3');
    const clean = await runReconcile([...LIKES, '--table', t, '--endpoint', local.get().endpoint, '--consistent']);
    // Left: the rows never repaired (non-number counters) and the children without a parent.
    assert.equal(clean.code, 1);
    assert.match(clean.out, /^2 drifted of \d+ checked, 1 without a parent item;/m);
  });
});
