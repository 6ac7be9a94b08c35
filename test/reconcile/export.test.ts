import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createClient, reconcile } from '../../server/src/reconcile';
import { CounterPattern, ReconcileReport } from '../../server/src/reconcile/types';
import { describeExports, reconcileExport, reconcileResult, renderFor, runDuckDB } from '../../server/src/reconcile/export/engine';
import { ResultRow } from '../../server/src/reconcile/export/rows';
import { Item, createTable, putItems } from '../../server/src/reconcile/seed';
import { PATTERNS, stateA, stateB, stateC } from './export-fixtures';
import { diff, writeFullExport, writeIncrementalExport } from './export-writer';
import { runReconcile, tableName, useLocal } from './support';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-01T12:00:00.000Z';

/** The rows a report is made of (not the timings or the capacity). */
function rows(r: ReconcileReport) {
  return { drifted: r.drifted, checked: r.checked, orphans: r.orphans, totals: r.totals };
}

describe('reconcile from a table export (DuckDB; the live reconcile on DynamoDB Local as the reference)', function () {
  this.timeout(180_000);
  const local = useLocal();
  let root: string;
  let client: DynamoDBClient;
  const tables = new Map<string, string>();
  let full: string;
  let incAB: string;
  let incBC: string;

  async function seeded(name: string, items: Item[]): Promise<string> {
    const t = tableName(name);
    await createTable(local.get().client, t);
    await putItems(local.get().client, t, items);
    tables.set(name, t);
    return t;
  }

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-export-test-'));
    client = createClient({ endpoint: local.get().endpoint });
    await seeded('A', stateA());
    await seeded('B', stateB());
    await seeded('C', stateC());
    full = writeFullExport({ root, items: stateA(), exportTime: T0, files: 5 }).dir;
    incAB = writeIncrementalExport({ root, changes: diff(stateA(), stateB()), from: T0, to: T1 }).dir;
    incBC = writeIncrementalExport({ root, changes: diff(stateB(), stateC()), from: T1, to: T2, files: 3 }).dir;
  });
  after(() => {
    client?.destroy();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function live(state: string, pattern: CounterPattern) {
    return reconcile(client, { table: tables.get(state)!, pattern, scope: { kind: 'table', segments: 2 } });
  }

  for (const [name, pattern] of Object.entries(PATTERNS)) {
    it(`a full export gives the live report's rows (${name})`, async () => {
      const r = await reconcileExport({ sources: [full], pattern });
      assert.deepEqual(rows(r), rows(await live('A', pattern)));
      assert.equal(r.source.asOf, T0);
      assert.equal(r.itemsRead, stateA().length);
      assert.equal(r.consumedRcu, 0);
    });

    it(`full + incremental exports give the live report of the later state (${name})`, async () => {
      const b = await reconcileExport({ sources: [full, incAB], pattern });
      assert.deepEqual(rows(b), rows(await live('B', pattern)));
      assert.equal(b.source.asOf, T1);
      // Given in any order, applied by their windows.
      const c = await reconcileExport({ sources: [incBC, full, incAB], pattern });
      assert.deepEqual(rows(c), rows(await live('C', pattern)));
      assert.equal(c.source.asOf, T2);
      assert.deepEqual(c.source.exports.map((e) => e.kind), ['full', 'incremental', 'incremental']);
    });
  }

  it('the fixtures cover every kind of row (so the comparisons above mean something)', async () => {
    const c = await reconcileExport({ sources: [full, incAB, incBC], pattern: PATTERNS.likes });
    const notes = c.drifted.filter((d) => d.note).map((d) => d.note);
    assert.deepEqual(notes, ['counter holds BOOL true, not a number (never repaired)']);
    assert.deepEqual(c.orphans.map((o) => o.key.PK), ['POST#f101', 'POST#gone', 'POST#gone2']);
    assert.ok(c.drifted.some((d) => d.drift > 0) && c.drifted.some((d) => d.drift < 0) && c.drifted.some((d) => d.stored === null && !d.note));
    const a = await reconcileExport({ sources: [full], pattern: PATTERNS.likes });
    assert.ok(a.drifted.some((d) => d.note?.startsWith('counter holds S "3"')));
    const plays = await reconcileExport({ sources: [full], pattern: PATTERNS.plays });
    assert.ok(plays.drifted.some((d) => d.note?.includes('non-number')));
  });

  it('ION exports (full + incremental) give the rows of the DYNAMODB_JSON exports of the same items, for every pattern', async () => {
    const ionRoot = join(root, 'ion');
    const ionFull = writeFullExport({ root: ionRoot, items: stateA(), exportTime: T0, files: 5, format: 'ION' }).dir;
    const ionAB = writeIncrementalExport({ root: ionRoot, changes: diff(stateA(), stateB()), from: T0, to: T1, format: 'ION' }).dir;
    const ionBC = writeIncrementalExport({ root: ionRoot, changes: diff(stateB(), stateC()), from: T1, to: T2, files: 3, format: 'ION' }).dir;
    // The files really are Ion: the documented version marker and type annotations, no JSON.
    const sample = (await import('node:zlib')).gunzipSync(readFileSync(join(ionFull, 'data', (await describeExports({ sources: [ionFull] }))[0].files.find((f) => (f.itemCount ?? 0) > 0)!.name))).toString();
    assert.match(sample, /^\$ion_1_0 \{Item:\{/);
    assert.doesNotMatch(sample, /"Item"|\{"S":/);
    for (const pattern of Object.values(PATTERNS)) {
      const a = await reconcileExport({ sources: [ionFull], pattern });
      assert.deepEqual(rows(a), rows(await reconcileExport({ sources: [full], pattern })));
      assert.equal(a.itemsRead, stateA().length);
      const c = await reconcileExport({ sources: [ionBC, ionFull, ionAB], pattern });
      assert.deepEqual(rows(c), rows(await reconcileExport({ sources: [full, incAB, incBC], pattern })));
      assert.equal(c.source.asOf, T2);
    }
    // Formats mix in one chain (each export says its own).
    const mixed = await reconcileExport({ sources: [full, ionAB, incBC], pattern: PATTERNS.likes });
    assert.deepEqual(rows(mixed), rows(await live('C', PATTERNS.likes)));
    const cli = await runReconcile(['--from-export', ionFull, '--from-export', ionAB, ...flags(PATTERNS.likes), '--format', 'json']);
    assert.equal(cli.code, 1, cli.err);
    assert.deepEqual(JSON.parse(cli.out).drifted, (await live('B', PATTERNS.likes)).drifted);
  });

  it('the DuckDB query printed by --emit-sql, run on DuckDB, gives the engine\'s rows; --from-result reads them back', async () => {
    const pattern = PATTERNS.likes;
    const r = await runReconcile(['--from-export', full, '--from-export', incAB, '--emit-sql', 'duckdb', ...flags(pattern)]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^-- Dynalint reconcile, duckdb: one row per partition/);
    assert.match(r.out, new RegExp(`as of ${T1.replace(/\./g, '\\.')}`));
    const statements = r.out.split(/;\n/).map((x) => x.trim()).filter((x) => x && !/^(--[^\n]*\n?)+$/.test(x));
    const got: ResultRow[] = [];
    await runDuckDB({ ddl: statements.slice(0, -1), query: statements[statements.length - 1].replace(/;$/, '') }, (chunk) => got.push(...chunk));
    const engine = await reconcileExport({ sources: [full, incAB], pattern });
    const back = reconcileResult(JSON.stringify(got), 'rows.json', pattern);
    assert.deepEqual(rows(back), rows(engine));
    // The same rows as CSV (how Athena hands them over), through the CLI.
    const cols = Object.keys(got[0]);
    const cell = (v: unknown) => (v === null ? '' : `"${String(v).replace(/"/g, '""')}"`);
    const csv = join(root, 'result.csv');
    writeFileSync(csv, [cols.map((c) => `"${c}"`).join(','), ...got.map((g) => cols.map((c) => cell(g[c])).join(','))].join('\n') + '\n');
    const cli = await runReconcile(['--from-result', csv, ...flags(pattern), '--format', 'json']);
    assert.equal(cli.code, 1, cli.err);
    assert.deepEqual(JSON.parse(cli.out).drifted, engine.drifted);
  });

  it('CLI: exit 1 on drift with the export time stated; 0 on a clean export; json and csv', async () => {
    const t = await runReconcile(['--from-export', full, ...flags(PATTERNS.likes)]);
    assert.equal(t.code, 1, t.err);
    const lines = t.out.split('\n');
    assert.match(lines[0], new RegExp(`^From the export as of ${T0.replace(/\./g, '\\.')}: arn:aws:dynamodb:`));
    assert.equal(lines[1], 'Reconcile Social: likeTally on SK=META vs count of LIKE#* children');
    assert.ok(lines.includes('PK=POST#c7d1 SK=META        1       4     +3'), t.out);
    assert.ok(t.out.includes('no parent item: PK=POST#gone (actual 2)'));
    assert.match(t.out, new RegExp(`\\n\\d+ drifted of \\d+ checked, 1 without a parent item; ${stateA().length} export lines, 0 RCU, \\d+\\.\\d\\d s\\n$`));
    const j = await runReconcile(['--from-export', full, ...flags(PATTERNS.likes), '--format', 'json']);
    const report = JSON.parse(j.out);
    assert.equal(report.source.asOf, T0);
    assert.deepEqual(report.drifted, (await live('A', PATTERNS.likes)).drifted);
    const c = await runReconcile(['--from-export', full, ...flags(PATTERNS.likes), '--format', 'csv']);
    assert.equal(c.out.split('\n')[0], 'PK,SK,stored,actual,drift,note');

    const cleanRoot = join(root, 'clean');
    const clean = writeFullExport({ root: cleanRoot, items: [...stateA().filter((it) => it.PK.S === 'POST#a91f')], exportTime: T0 }).dir;
    const ok = await runReconcile(['--from-export', clean, ...flags(PATTERNS.likes)]);
    assert.equal(ok.code, 0, ok.out + ok.err);
    const empty = writeFullExport({ root: cleanRoot, items: [], exportTime: T0, files: 2 }).dir;
    const none = await runReconcile(['--from-export', empty, ...flags(PATTERNS.likes)]);
    assert.equal(none.code, 0, none.err);
    assert.match(none.out, /0 drifted of 0 checked/);
  });

  it('refuses, in one line and exit 2, what it cannot count right', async () => {
    const bad = join(root, 'bad');
    const gap = writeIncrementalExport({ root: bad, changes: [], from: '2026-03-01T10:30:00.000Z', to: T1 }).dir;
    const overlap = writeIncrementalExport({ root: bad, changes: [], from: '2026-03-01T09:00:00.000Z', to: T1 }).dir;
    const newImage = writeIncrementalExport({ root: bad, changes: [], from: T0, to: T1, view: 'NEW_IMAGE' }).dir;
    const ion = writeFullExport({ root: bad, items: [], exportTime: T0, format: 'ION' }).dir;
    const csv = writeFullExport({ root: bad, items: [], exportTime: T0 }).dir;
    const summary = join(csv, 'manifest-summary.json');
    writeFileSync(summary, readFileSync(summary, 'utf8').replace('"DYNAMODB_JSON"', '"CSV"'));
    const badIon = writeFullExport({ root: bad, items: stateA().slice(0, 3), exportTime: T0, files: 1, format: 'ION' });
    writeFileSync(join(badIon.dir, 'data', badIon.keys[badIon.keys.length - 1].split('/').pop()!), gzipSync('$ion_1_0 {Item:{PK:"a"}}\n$ion_1_0 {Item:[1,2]}\n'));
    const holed = writeFullExport({ root: bad, items: stateA(), exportTime: T0, files: 2 });
    unlinkSync(join(holed.dir, holed.keys[holed.keys.length - 1].split('/').slice(2).join('/')));
    const cases: Array<[string[], RegExp]> = [
      [['--from-export', full, '--from-export', gap], /starts at 2026-03-01T10:30:00.000Z, not where the previous export ends \(2026-03-01T10:00:00.000Z\): changes would be missed\.$/],
      [['--from-export', full, '--from-export', overlap], /changes would be counted twice\.$/],
      [['--from-export', incAB], /Give the full export too: incremental exports hold only what changed\.$/],
      [['--from-export', full, '--from-export', full], /Give one full export, not 2\.$/],
      [['--from-export', full, '--from-export', newImage], /NEW_IMAGE has no old images, so a change cannot be taken back: export it with NEW_AND_OLD_IMAGES\.$/],
      [['--from-export', ion, '--emit-sql', 'athena'], /an ION export: the emitted SQL reads DYNAMODB_JSON data files\. Reconcile it here with --from-export \(its files are converted\), or export the table as DYNAMODB_JSON\.$/],
      [['--from-export', csv], /unknown outputFormat "CSV"\.$/],
      [['--from-export', badIon.dir], /\.ion\.gz: line 2 is not a DynamoDB Ion record: Item is an Ion list, not a struct$/],
      [['--from-export', holed.dir], /listed in manifest-files\.json but missing: the export is incomplete\.$/],
      [['--from-export', root], /no manifest-summary\.json: give the export's folder \(…\/AWSDynamoDB\/<export-id>\/\)\.$/],
      [['--from-export', full, '--emit-sql', 'mysql'], /^--emit-sql must be duckdb, athena, spark$/],
      [['--from-export', full, '--repair'], /^--repair needs --table T \(the live table to write\)$/],
      [['--from-export', full, '--from-result', 'x.csv'], /^--from-export and --from-result cannot be combined$/],
    ];
    for (const [argv, message] of cases) {
      const r = await runReconcile([...argv, ...flags(PATTERNS.likes)]);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.out}${r.err}`);
      const first = r.err.split('\n')[0];
      assert.ok(first.startsWith('dynalint reconcile: '), r.err);
      assert.match(first.slice('dynalint reconcile: '.length), message);
    }
  });

  it('reads the key attributes from --table (DescribeTable only) and reports numeric keys as numbers', async () => {
    const t = tableName('Numeric');
    await local.get().client.send(
      new (await import('@aws-sdk/client-dynamodb')).CreateTableCommand({
        TableName: t,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'postId', AttributeType: 'N' }, { AttributeName: 'itemType', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'postId', KeyType: 'HASH' }, { AttributeName: 'itemType', KeyType: 'RANGE' }],
      }),
    );
    const items: Item[] = [
      { postId: { N: '7' }, itemType: { S: 'META' }, likeTally: { N: '1' } },
      { postId: { N: '7' }, itemType: { S: 'LIKE#a' } },
      { postId: { N: '7' }, itemType: { S: 'LIKE#b' } },
      { postId: { N: '12345678901234567891' }, itemType: { S: 'META' }, likeTally: { N: '0' } },
      { postId: { N: '12345678901234567891' }, itemType: { S: 'LIKE#a' } },
    ];
    const dir = writeFullExport({ root: join(root, 'numeric'), items, exportTime: T0, pkAttr: 'postId' }).dir;
    const r = await runReconcile(['--from-export', dir, ...flags(PATTERNS.likes), '--table', t, '--endpoint', local.get().endpoint, '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(JSON.parse(r.out).drifted, [
      { key: { postId: '12345678901234567891', itemType: 'META' }, stored: 0, actual: 1, drift: 1 },
      { key: { postId: 7, itemType: 'META' }, stored: 1, actual: 2, drift: 1 },
    ]);
    const mismatch = await runReconcile(['--from-export', dir, ...flags(PATTERNS.likes), '--table', t, '--endpoint', local.get().endpoint, '--pk-attr', 'PK']);
    assert.equal(mismatch.code, 2);
    assert.match(mismatch.err, /has keys postId\/itemType, not PK\/SK/);
  });

  it('--emit-sql renders every dialect over the same exports (only the manifests are read)', async () => {
    const manifests = await describeExports({ sources: [full, incAB] });
    for (const d of ['athena', 'spark'] as const) {
      const q = renderFor(manifests, PATTERNS.likes, undefined, d);
      assert.equal(q.ddl.length, 2);
      assert.match(q.ddl[0], new RegExp(`${full.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/data/`));
    }
  });
});

function flags(p: CounterPattern): string[] {
  return [
    ...(p.parentSk !== undefined ? ['--parent-sk', p.parentSk] : []),
    '--counter',
    p.counter,
    ...(p.childPrefix !== undefined ? ['--child-prefix', p.childPrefix] : []),
    ...(p.shardPrefix !== undefined ? ['--shard-prefix', p.shardPrefix] : []),
  ];
}
