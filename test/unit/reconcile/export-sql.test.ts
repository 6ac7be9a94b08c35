/**
 * The export query model rendered for Athena and Spark (checked as text: neither runs here; the DuckDB rendering runs
 * for real in test/reconcile/export.test.ts), and the reading back of their results.
 * Golden files: test/unit/reconcile/golden/export-{athena,spark}.sql; to accept a deliberate change, write
 * `[...ddl, query + ';'].join('\n\n') + '\n'` of the spec below over them and review the diff.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planOf } from '../../../server/src/reconcile/engine';
import { reconcileResult } from '../../../server/src/reconcile/export/engine';
import { orderChain, parseManifest } from '../../../server/src/reconcile/export/manifest';
import { DIALECTS, QuerySpec, RESULT_COLUMNS, render } from '../../../server/src/reconcile/export/query';
import { parseCsv, parseResult } from '../../../server/src/reconcile/export/rows';
import { ReconcileError } from '../../../server/src/reconcile/types';

const LIKES = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };

function spec(pattern: Parameters<typeof planOf>[0] = LIKES, pkAttr = 'PK'): QuerySpec {
  return {
    plan: planOf(pattern),
    pkAttr,
    skAttr: 'SK',
    exports: [
      { kind: 'full', id: '01700000000000-aaaa', files: [], location: 's3://b/p/AWSDynamoDB/01700000000000-aaaa/data/' },
      { kind: 'incremental', id: '01700000000001-bbbb', files: [], location: 's3://b/p/AWSDynamoDB/01700000000001-bbbb/data/' },
    ],
  };
}

describe('reconcile export query: Athena and Spark renderings', () => {
  for (const d of ['athena', 'spark'] as const) {
    it(`${d}: golden text`, () => {
      const q = render(spec(), d);
      const golden = readFileSync(join(__dirname, 'golden', `export-${d}.sql`), 'utf8');
      assert.equal([...q.ddl, q.query + ';'].join('\n\n') + '\n', golden);
    });
  }

  it('every dialect: one table per export over its data/ folder, the same result columns, the same roles', () => {
    for (const d of DIALECTS) {
      const q = render({ ...spec({ parentSk: 'STATS#TOTAL', counter: 'play_count', shardPrefix: 'STATS#TOTAL#' }) }, d);
      assert.equal(q.ddl.length, 2);
      if (d !== 'duckdb') for (const e of spec().exports) assert.ok(q.ddl.some((x) => x.includes(`'${e.location}'`)), d);
      const select = /\nSELECT ([\s\S]+)\nFROM roles/.exec(q.query)?.[1] ?? '';
      assert.deepEqual([...select.matchAll(/ AS (\w+)(?:,|$)/gm)].map((m) => m[1]), RESULT_COLUMNS.slice(3), d);
      assert.match(select, /^pk_s, pk_n, pk_b,/);
      // The longer prefix is tried after the parent's exact key and before the shorter one (roleOf).
      assert.match(q.query, /WHEN sk = 'STATS#TOTAL' THEN 'parent' WHEN substr\(sk, 1, 12\) = 'STATS#TOTAL#' THEN 'shard' END/, d);
      assert.match(q.query, /GROUP BY pk_s, pk_n, pk_b$/);
    }
  });

  it('quotes text and counts prefixes in characters', () => {
    const q = render(spec({ parentSk: "it's", counter: 'c', childPrefix: 'ü✓#' }), 'spark');
    assert.match(q.query, /WHEN sk = 'it''s' THEN 'parent' WHEN substr\(sk, 1, 3\) = 'ü✓#' THEN 'child'/);
  });

  it('Athena refuses names it cannot hold; Spark and DuckDB quote them', () => {
    assert.throws(() => render(spec(LIKES, 'post-id'), 'athena'), (e: unknown) => e instanceof ReconcileError && /"post-id" cannot be a column of an Athena table/.test(e.message));
    assert.throws(() => render(spec({ ...LIKES, counter: 'pk' }, 'PK'), 'athena'), /differ only by case/);
    assert.match(render(spec(LIKES, 'post-id'), 'spark').ddl[0], /`post-id`: STRING/);
    assert.match(render(spec(LIKES, 'a"b'), 'duckdb').query, /img\."a""b"/);
  });

  it('the first export must be full', () => {
    const s = spec();
    assert.throws(() => render({ ...s, exports: s.exports.slice(1) }, 'spark'), /first export must be a full export/);
  });
});

describe('reconcile export: results read back (--from-result)', () => {
  const header = RESULT_COLUMNS.join(',');

  it('CSV as Athena writes it (quoted, CRLF, BOM, nulls empty) gives the report rows', () => {
    const csv =
      '\uFEFF' +
      [
        RESULT_COLUMNS.map((c) => `"${c}"`).join(','),
        '"POST#a",,,"1","{""N"":""3""}","4","0","0.0","0"',
        '"POST#b",,,"1","","2","0","0.0","0"',
        '"POST#c",,,"0",,"2","0","0.0","0"',
        '"POST#d",,,"1","{""S"":""x""}","1","0","0.0","0"',
        '"line\nbreak",,,"1","{""N"":""1""}","1","0","0.0","0"',
      ].join('\r\n') +
      '\r\n';
    const r = reconcileResult(csv, 'result.csv', LIKES);
    assert.deepEqual(r.drifted, [
      { key: { PK: 'POST#b', SK: 'META' }, stored: null, actual: 2, drift: 2 },
      { key: { PK: 'POST#a', SK: 'META' }, stored: 3, actual: 4, drift: 1 },
      { key: { PK: 'POST#d', SK: 'META' }, stored: null, actual: 1, drift: 1, note: 'counter holds S "x", not a number (never repaired)' },
    ]);
    assert.equal(r.checked, 4);
    assert.deepEqual(r.orphans, [{ key: { PK: 'POST#c' }, actual: 2 }]);
  });

  it('JSON lines (Spark) with upper-case column names and numeric keys; a JSON array', () => {
    const lines = [
      { PK_S: null, PK_N: '7', PK_B: null, PARENT: 1, COUNTER: '{"N":"1"}', CHILDREN: 2, SHARDS: 0, SHARD_SUM: 0, BAD_SHARDS: 0 },
      { pk_s: null, pk_n: '8', pk_b: null, parent: 1, counter: '{"N":"1"}', children: 1, shards: 0, shard_sum: 0, bad_shards: 0 },
    ];
    const r = reconcileResult(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'part-0.json', LIKES, { pk: 'postId', sk: 'itemType' });
    assert.deepEqual(r.drifted, [{ key: { postId: 7, itemType: 'META' }, stored: 1, actual: 2, drift: 1 }]);
    assert.equal(reconcileResult(JSON.stringify(lines), 'a.json', LIKES).checked, 2);
  });

  it('names what is wrong with a result that is not one', () => {
    assert.throws(() => parseResult('a,b\n1,2\n', 'x.csv'), /x\.csv: not a reconcile result .*missing parent, children, shards, shard_sum, bad_shards/);
    assert.throws(() => reconcileResult(`${header}\n"a",,,1,,x,0,0,0\n`, 'y.csv', LIKES), /y\.csv row 1: children "x" is not a number/);
    assert.throws(() => reconcileResult(`${header}\n"a",,,1,"{oops",1,0,0,0\n`, 'z.csv', LIKES), /z\.csv row 1: counter "\{oops" is not DynamoDB JSON/);
    assert.throws(() => parseCsv('"open'), /ends inside a quoted field/);
    assert.deepEqual(reconcileResult('', 'empty.csv', LIKES).checked, 0);
  });
});

describe('reconcile export: manifests', () => {
  const files = '{"itemCount":1,"md5Checksum":"x","etag":"y","dataFileS3Key":"p/AWSDynamoDB/1-a/data/abc.json.gz"}\n';
  const full = (extra: object = {}) => JSON.stringify({ exportTime: '2026-01-01T00:00:00Z', exportType: 'FULL_EXPORT', outputFormat: 'DYNAMODB_JSON', ...extra });

  it('finds each data file by its name under data/, whatever prefix the key carries', () => {
    const m = parseManifest('e', full(), files);
    assert.deepEqual(m.files, [{ name: 'abc.json.gz', itemCount: 1, md5: 'x', etag: 'y' }]);
    assert.equal(m.kind, 'full');
    assert.equal(m.time, '2026-01-01T00:00:00Z');
  });

  it('refuses names that would leave data/, unknown formats and a missing time', () => {
    assert.throws(() => parseManifest('e', full(), '{"dataFileS3Key":"data/.."}\n'), /no usable dataFileS3Key/);
    assert.throws(() => parseManifest('e', full(), '{"dataFileS3Key":"data/a b.gz"}\n'), /no usable dataFileS3Key/);
    assert.throws(() => parseManifest('e', full({ outputFormat: 'CSV' }), files), /unknown outputFormat "CSV"/);
    assert.throws(() => parseManifest('e', JSON.stringify({ outputFormat: 'DYNAMODB_JSON' }), files), /has no exportTime/);
    assert.throws(() => parseManifest('e', '[', files), /manifest-summary\.json is not JSON/);
  });

  it('chains incremental exports by their windows; instants compare, not texts', () => {
    const inc = (from: string, to: string) =>
      parseManifest(`i${from}`, JSON.stringify({ exportType: 'INCREMENTAL_EXPORT', exportFromTime: from, exportToTime: to, outputView: 'NEW_AND_OLD_IMAGES' }), files);
    const f = parseManifest('f', full(), files);
    const a = inc('2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00Z');
    const b = inc('2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z');
    assert.deepEqual(orderChain([b, f, a]), [f, a, b]);
    assert.throws(() => orderChain([f, b]), /changes would be missed/);
  });
});
