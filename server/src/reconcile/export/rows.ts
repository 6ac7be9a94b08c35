/**
 * The query's result rows (one per partition, columns RESULT_COLUMNS) as the live engine's `PartitionTally`, whether
 * they come from DuckDB here or from a file Athena / Spark wrote (`--from-result`: CSV with a header, JSON lines, or
 * a JSON array). Then `compare()` makes the report, the same function the live reconcile uses.
 */
import { AttributeValue } from '@aws-sdk/client-dynamodb';
import { PartitionTally } from '../engine';
import { ReconcileError } from '../types';
import { RESULT_COLUMNS } from './query';

export type ResultRow = Record<string, unknown>;

function text(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  const s = typeof v === 'string' ? v : String(v);
  return s === '' ? undefined : s;
}

function count(v: unknown, column: string, where: string): number {
  const s = text(v);
  if (s === undefined) return 0;
  const n = Number(s);
  if (!Number.isFinite(n)) throw new ReconcileError(`${where}: ${column} ${JSON.stringify(s.slice(0, 40))} is not a number.`, 'bad-options');
  return n;
}

/** One result row as a tally; `where` names the row in errors. */
export function tallyOfRow(row: ResultRow, where: string): PartitionTally {
  const s = text(row.pk_s);
  const n = text(row.pk_n);
  const b = text(row.pk_b);
  const pk: AttributeValue | undefined = s !== undefined ? { S: s } : n !== undefined ? { N: n } : b !== undefined ? { B: Buffer.from(b, 'base64') } : undefined;
  if (!pk) throw new ReconcileError(`${where}: no partition key (pk_s, pk_n, pk_b are all empty).`, 'bad-options');
  const raw = text(row.counter);
  let parentCounter: AttributeValue | undefined;
  if (raw !== undefined) {
    try {
      parentCounter = JSON.parse(raw) as AttributeValue;
    } catch {
      throw new ReconcileError(`${where}: counter ${JSON.stringify(raw.slice(0, 40))} is not DynamoDB JSON.`, 'bad-options');
    }
    if (!parentCounter || typeof parentCounter !== 'object') throw new ReconcileError(`${where}: counter ${JSON.stringify(raw.slice(0, 40))} is not DynamoDB JSON.`, 'bad-options');
  }
  const parent = count(row.parent, 'parent', where) > 0;
  return {
    pk,
    parent,
    ...(parent && parentCounter ? { parentCounter } : {}),
    children: count(row.children, 'children', where),
    shards: count(row.shards, 'shards', where),
    shardSum: count(row.shard_sum, 'shard_sum', where),
    badShards: count(row.bad_shards, 'bad_shards', where),
  };
}

/** RFC 4180 CSV (quotes doubled), the first record the header. Athena writes this. */
export function parseCsv(body: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
    i++;
  }
  if (quoted) throw new ReconcileError('The CSV result ends inside a quoted field.', 'bad-options');
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** The rows of a result file: CSV with a header naming RESULT_COLUMNS, JSON lines, or a JSON array. */
export function parseResult(body: string, name: string): ResultRow[] {
  const trimmed = body.replace(/^\uFEFF/, '').trimStart();
  let rows: ResultRow[];
  if (trimmed.startsWith('[')) {
    try {
      rows = JSON.parse(trimmed) as ResultRow[];
    } catch {
      throw new ReconcileError(`${name}: not a JSON array.`, 'bad-options');
    }
  } else if (trimmed.startsWith('{')) {
    rows = trimmed
      .split('\n')
      .map((l, i) => [l.trim(), i] as const)
      .filter(([l]) => l)
      .map(([l, i]) => {
        try {
          return JSON.parse(l) as ResultRow;
        } catch {
          throw new ReconcileError(`${name}: line ${i + 1} is not JSON.`, 'bad-options');
        }
      });
  } else {
    const [head, ...records] = parseCsv(trimmed);
    if (!head) return [];
    const cols = head.map((h) => h.trim().toLowerCase());
    rows = records.map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i]])));
  }
  if (!Array.isArray(rows)) throw new ReconcileError(`${name}: not a list of rows.`, 'bad-options');
  const first = rows[0];
  if (first) {
    const keys = new Set(Object.keys(first).map((k) => k.toLowerCase()));
    const missing = RESULT_COLUMNS.filter((c) => !keys.has(c) && c !== 'counter' && !c.startsWith('pk_'));
    if (missing.length || !['pk_s', 'pk_n', 'pk_b'].some((c) => keys.has(c))) {
      throw new ReconcileError(`${name}: not a reconcile result (columns ${RESULT_COLUMNS.join(', ')}); missing ${missing.join(', ') || 'pk_s/pk_n/pk_b'}.`, 'bad-options');
    }
  }
  // Spark/Athena may write column names in another case.
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v])));
}
