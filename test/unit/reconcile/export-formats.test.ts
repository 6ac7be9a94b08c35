/**
 * Export formats without DuckDB: ION data files converted to DYNAMODB_JSON lines (export/ion.ts), the data folder
 * incremental exports share (manifest.ts), and the one line when DuckDB (an optional dependency) is not installed.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Decimal } from 'ion-js';
import { reconcileExportCommand } from '../../../server/src/cli/reconcile-export';
import { DUCKDB_MISSING } from '../../../server/src/reconcile/export/engine';
import { convertIonFile, decimalText, ionTextToJsonLines } from '../../../server/src/reconcile/export/ion';
import { parseManifest } from '../../../server/src/reconcile/export/manifest';
import { dataKey } from '../../../server/src/reconcile/export/s3';
import { Item } from '../../../server/src/reconcile/seed';
import { ionLine, writeFullExport, writeIncrementalExport } from '../../reconcile/export-writer';

describe('reconcile export: ION data files', () => {
  it('reads the documented example item (S3DataExport.Output, "Amazon Ion") as its DynamoDB JSON', async () => {
    const doc = [
      '$ion_1_0 {',
      '    Item:{',
      '        Authors:$dynamodb_SS::["Author1","Author2"],',
      '        Dimensions:"8.5 x 11.0 x 1.5",',
      '        ISBN:"333-3333333333",',
      '        Id:103.,',
      '        InPublication:false,',
      '        PageCount:6d2,',
      '        Price:2d3,',
      '        ProductCategory:"Book",',
      '        Title:"Book 103 Title"',
      '    }',
      '}',
    ].join('\n');
    // Formatted over lines as the page shows it, and on one line as the export writes it.
    for (const text of [doc, doc.replace(/\n\s*/g, ' ')]) {
      assert.deepEqual((await ionTextToJsonLines(text)).map((l) => JSON.parse(l)), [
        {
          Item: {
            Authors: { SS: ['Author1', 'Author2'] },
            Dimensions: { S: '8.5 x 11.0 x 1.5' },
            ISBN: { S: '333-3333333333' },
            Id: { N: '103' },
            InPublication: { BOOL: false },
            PageCount: { N: '600' },
            Price: { N: '2000' },
            ProductCategory: { S: 'Book' },
            Title: { S: 'Book 103 Title' },
          },
        },
      ]);
    }
  });

  it('every DynamoDB type written by ion-js reads back as the same DynamoDB JSON (full and incremental lines)', async () => {
    const item: Item = {
      PK: { S: 'POST#ü✓ "q"\n' },
      SK: { S: 'META' },
      n: { N: '-12.50' },
      zero: { N: '0' },
      small: { N: '0.00012' },
      big: { N: '123456789012345678901234567890' },
      b: { B: Buffer.from([0, 1, 255]) },
      t: { BOOL: true },
      nul: { NULL: true },
      ss: { SS: ['a', 'b'] },
      ns: { NS: ['1', '2.5'] },
      bs: { BS: [Buffer.from('x'), Buffer.from('y')] },
      l: { L: [{ S: 'x' }, { N: '1' }, { L: [] }, { M: { k: { BOOL: false } } }] },
      m: { M: { inner: { M: { deep: { SS: ['z'] } } }, e: { M: {} } } },
    };
    const json = JSON.parse(JSON.stringify({ Item: item }, (_, v) => (v && v.type === 'Buffer' ? Buffer.from(v.data).toString('base64') : v)));
    const lines = await ionTextToJsonLines(ionLine({ Item: item }));
    assert.deepEqual(lines.map((l) => JSON.parse(l)), [json]);
    const change = { Metadata: { WriteTimestampMicros: { N: '1768387654353205' } }, Keys: { PK: item.PK, SK: item.SK }, OldImage: item };
    const back = (await ionTextToJsonLines(ionLine(change))).map((l) => JSON.parse(l));
    assert.deepEqual(back, [JSON.parse(JSON.stringify({ ...change, OldImage: json.Item }))]);
  });

  it('writes numbers as DynamoDB does: plain digits, whatever the Ion exponent', () => {
    const cases: Array<[string, string]> = [['6d2', '600'], ['2d3', '2000'], ['103.', '103'], ['12d-5', '0.00012'], ['123d-1', '12.3'], ['-1.50', '-1.50'], ['-0.0', '0'], ['0d5', '0'], ['-7d1', '-70']];
    for (const [ion, text] of cases) assert.equal(decimalText(Decimal.parse(ion)!), text, ion);
  });

  it('records are lines starting with the version marker; blank lines and a final newline are nothing', async () => {
    const text = '\n$ion_1_0 {Item:{PK:"a"}}\n\n$ion_1_0 {Item:{PK:"b",\n  n:1}}\n$ion_1_0\n';
    assert.deepEqual(await ionTextToJsonLines(text), ['{"Item":{"PK":{"S":"a"}}}', '{"Item":{"PK":{"S":"b"},"n":{"N":"1"}}}']);
  });

  it('says which line is not a DynamoDB Ion record', async () => {
    const bad: Array<[string, RegExp]> = [
      ['$ion_1_0 [1]', /not a struct/],
      ['$ion_1_0 {Item:{s:$dynamodb_SS::"x"}}', /SS set that is an Ion string/],
      ['$ion_1_0 {Item:{t:2020-01-01T}}', /Ion type timestamp/],
      ['$ion_1_0 {Item:{a:1}} {Item:{a:2}}', /two values on one record/],
    ];
    const dir = mkdtempSync(join(tmpdir(), 'dynalint-ion-'));
    try {
      for (const [text, message] of bad) {
        await assert.rejects(() => ionTextToJsonLines(text), message, text);
        writeFileSync(join(dir, 'x.ion.gz'), gzipSync(`$ion_1_0 {Item:{ok:"1"}}\n${text}\n`));
        await assert.rejects(() => convertIonFile(join(dir, 'x.ion.gz'), join(dir, 'x.json.gz'), 'x.ion.gz'), (e: Error) => /^x\.ion\.gz: line 2 is not a DynamoDB Ion record: /.test(e.message) && message.test(e.message));
      }
      writeFileSync(join(dir, 'y.ion.gz'), 'not gzip');
      await assert.rejects(() => convertIonFile(join(dir, 'y.ion.gz'), join(dir, 'y.json.gz'), 'y.ion.gz'), /^ReconcileError: y\.ion\.gz: not a gzip file \(incorrect header check\)\.$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('converts a gzipped file as a stream: every record, in order, gzipped JSON lines out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dynalint-ion-'));
    try {
      const n = 5000;
      const lines = Array.from({ length: n }, (_, i) => ionLine({ Item: { PK: { S: `POST#${i % 50}` }, SK: { S: `LIKE#${i}` }, v: { N: String(i) } } }));
      writeFileSync(join(dir, 'a.ion.gz'), gzipSync(lines.join('')));
      assert.equal(await convertIonFile(join(dir, 'a.ion.gz'), join(dir, 'a.json.gz')), n);
      const out = gunzipSync(readFileSync(join(dir, 'a.json.gz'))).toString().split('\n');
      assert.equal(out.pop(), '');
      assert.equal(out.length, n);
      assert.deepEqual(JSON.parse(out[n - 1]), { Item: { PK: { S: 'POST#49' }, SK: { S: `LIKE#${n - 1}` }, v: { N: String(n - 1) } } });
      // An empty data file (an empty partition) is an empty gzip, converted to one.
      writeFileSync(join(dir, 'e.ion.gz'), gzipSync(''));
      assert.equal(await convertIonFile(join(dir, 'e.ion.gz'), join(dir, 'e.json.gz')), 0);
      assert.equal(gunzipSync(readFileSync(join(dir, 'e.json.gz'))).length, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reconcile export: the data folder incremental exports share', () => {
  const summary = (o: Record<string, unknown>) => JSON.stringify({ outputFormat: 'DYNAMODB_JSON', ...o });
  const files = (...keys: string[]) => keys.map((k) => JSON.stringify({ itemCount: 1, md5Checksum: 'x', etag: 'y', dataFileS3Key: k })).join('\n') + '\n';

  it('tells an incremental export\'s files in AWSDynamoDB/data/ from a full export\'s own data/, with or without a prefix', () => {
    const inc = summary({ exportType: 'INCREMENTAL_EXPORT', exportFromTime: '2026-01-14T10:20:00.000Z', exportToTime: '2026-01-14T10:35:00.000Z', outputView: 'NEW_AND_OLD_IMAGES', version: '2023-08-01' });
    const m = parseManifest('i', inc, files('AWSDynamoDB/data/u2wov2dg246wzitouzsnk6jbd4.json.gz', 'team/2026/AWSDynamoDB/data/abc.ion.gz'));
    assert.deepEqual(m.files.map((f) => [f.name, f.shared]), [['u2wov2dg246wzitouzsnk6jbd4.json.gz', true], ['abc.ion.gz', true]]);
    assert.equal(m.kind, 'incremental');
    // A full export's summary has no exportType (as DynamoDB writes it).
    const full = parseManifest('f', summary({ exportTime: '2026-01-14T10:18:50.622Z', version: '2020-06-30' }), files('AWSDynamoDB/01768385930622-efd1a093/data/5mrfg3b44e3vhnfickkozoym6a.json.gz'));
    assert.deepEqual(full.files.map((f) => [f.name, f.shared]), [['5mrfg3b44e3vhnfickkozoym6a.json.gz', undefined]]);
    assert.equal(full.kind, 'full');
    assert.equal(dataKey('team/2026/AWSDynamoDB/01700000000001-bbbb/', m.files[1]), 'team/2026/AWSDynamoDB/data/abc.ion.gz');
    assert.equal(dataKey('AWSDynamoDB/01700000000001-bbbb/', m.files[0]), 'AWSDynamoDB/data/u2wov2dg246wzitouzsnk6jbd4.json.gz');
    assert.equal(dataKey('team/AWSDynamoDB/01768385930622-efd1a093/', full.files[0]), 'team/AWSDynamoDB/01768385930622-efd1a093/data/5mrfg3b44e3vhnfickkozoym6a.json.gz');
    assert.equal(parseManifest('i', summary({ outputFormat: 'ION', exportTime: '2026-01-14T10:18:50.622Z' }), files('AWSDynamoDB/x/data/a.ion.gz')).outputFormat, 'ION');
  });

  it('the test writer puts incremental data files in the shared folder and lines in the real shape', () => {
    const root = mkdtempSync(join(tmpdir(), 'dynalint-layout-'));
    try {
      const item = { PK: { S: 'P' }, SK: { S: 'S' } };
      const full = writeFullExport({ root, items: [item], exportTime: '2026-01-14T10:00:00.000Z', files: 1 });
      const inc = writeIncrementalExport({ root, changes: [{ keys: item, old: item }], from: '2026-01-14T10:00:00.000Z', to: '2026-01-14T10:15:00.000Z', files: 1 });
      assert.ok(full.keys.some((k) => k.startsWith(`AWSDynamoDB/${full.id}/data/`)));
      const data = inc.keys.filter((k) => k.endsWith('.json.gz'));
      assert.equal(data.length, 1);
      assert.match(data[0], /^AWSDynamoDB\/data\/[0-9a-f]{26}\.json\.gz$/);
      const fullSummary = JSON.parse(readFileSync(join(full.dir, 'manifest-summary.json'), 'utf8'));
      assert.equal(fullSummary.exportType, undefined);
      const incSummary = JSON.parse(readFileSync(join(inc.dir, 'manifest-summary.json'), 'utf8'));
      assert.deepEqual([incSummary.version, incSummary.exportType, incSummary.outputView], ['2023-08-01', 'INCREMENTAL_EXPORT', 'NEW_AND_OLD_IMAGES']);
      const line = JSON.parse(gunzipSync(readFileSync(join(root, data[0]))).toString());
      assert.deepEqual(Object.keys(line), ['Metadata', 'Keys', 'OldImage']);
      assert.match(line.Metadata.WriteTimestampMicros.N, /^\d{16}$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('reconcile --from-export without DuckDB (an optional dependency)', () => {
  let root: string;
  let dir: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-noduck-'));
    dir = writeFullExport({ root, items: [{ PK: { S: 'POST#1' }, SK: { S: 'META' }, likeTally: { N: '1' } }], exportTime: '2026-03-01T10:00:00.000Z' }).dir;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const missing = (what: string) => () => {
    throw Object.assign(new Error(`Cannot find module '${what}'\nRequire stack:\n- x.js`), { code: 'MODULE_NOT_FOUND' });
  };
  async function run(argv: string[], duckdb: () => never) {
    let out = '';
    let err = '';
    const code = await reconcileExportCommand(argv, { cwd: process.cwd(), stdout: (t) => (out += t), stderr: (t) => (err += t), duckdb });
    return { code, out, err };
  }
  const LIKES = ['--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];

  it('says so in one line with what to run, exit 2 (the package, or its platform binding, missing)', async () => {
    for (const what of ['@duckdb/node-api', '@duckdb/node-bindings-linux-x64/duckdb.node']) {
      const r = await run(['--from-export', dir, ...LIKES], missing(what));
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.equal(r.err, `dynalint reconcile: ${DUCKDB_MISSING}\n`);
      assert.match(r.err, /npm install @duckdb\/node-api/);
    }
  });

  it('before reading anything: an s3:// export is not fetched', async () => {
    const r = await run(['--from-export', 's3://bucket/AWSDynamoDB/01700000000000-aaaa/', '--s3-endpoint', 'http://127.0.0.1:9', ...LIKES], missing('@duckdb/node-api'));
    assert.equal(r.code, 2);
    assert.equal(r.err, `dynalint reconcile: ${DUCKDB_MISSING}\n`);
  });

  it('--emit-sql and --from-result do not need it', async () => {
    const emit = await run(['--from-export', dir, ...LIKES, '--emit-sql', 'athena'], missing('@duckdb/node-api'));
    assert.equal(emit.code, 0, emit.err);
    assert.match(emit.out, /CREATE EXTERNAL TABLE/);
    const result = join(root, 'r.json');
    writeFileSync(result, JSON.stringify([{ pk_s: 'POST#1', pk_n: null, pk_b: null, parent: 1, counter: '{"N":"1"}', children: 0, shards: 0, shard_sum: 0, bad_shards: 0 }]));
    const back = await run(['--from-result', result, ...LIKES], missing('@duckdb/node-api'));
    assert.equal(back.code, 1, back.err);
  });

  it('another failure to load it is not called missing', async () => {
    await assert.rejects(
      () => run(['--from-export', dir, ...LIKES], () => { throw new Error('invalid ELF header'); }),
      /invalid ELF header/,
    );
  });
});
