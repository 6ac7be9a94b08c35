/**
 * One measured run for scripts/bench/export.ts, in its own process so its peak RSS is its own:
 * `tsx scripts/export-bench-child.ts reconcile|count|gunzip|s3 <export dir or s3 url> [s3 endpoint]`; prints one JSON line.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { reconcileExport, runDuckDB } from '../server/src/reconcile/export/engine';

const PATTERN = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };

async function main(): Promise<void> {
  const [mode, src, endpoint] = process.argv.slice(2);
  const started = process.hrtime.bigint();
  let detail: unknown;
  if (mode === 'reconcile' || mode === 's3') {
    const r = await reconcileExport({ sources: [src], pattern: PATTERN, ...(endpoint ? { s3: { endpoint } } : {}) });
    detail = { lines: r.itemsRead, drifted: r.drifted.length, checked: r.checked, download: r.source.download };
  } else if (mode === 'count') {
    // The floor: DuckDB parsing the same gzipped JSON lines (the same four attributes) and counting them.
    const files = readdirSync(join(src, 'data')).map((f) => `'${join(src, 'data', f)}'`);
    let n = 0;
    await runDuckDB(
      {
        ddl: [],
        query: `SELECT count(*) AS n FROM read_json([${files.join(', ')}], format = 'newline_delimited', compression = 'gzip', columns = {'Item': 'STRUCT("PK" JSON, "SK" JSON, "likeTally" JSON)'})`,
      },
      (rows) => (n = Number(rows[0].n)),
      { memoryLimit: '1GB' },
    );
    detail = { lines: n };
  } else if (mode === 'gunzip') {
    let bytes = 0;
    for (const f of readdirSync(join(src, 'data'))) bytes += gunzipSync(readFileSync(join(src, 'data', f))).length;
    detail = { bytes };
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, detail }) + '\n');
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
