/**
 * The one query model of a reconcile over a table export, rendered per SQL dialect (DuckDB here, Athena/Trino or Spark
 * SQL beyond one machine). The model reads each export's lines as images of items with a sign and a version:
 *
 *   full export          `Item`               sign +1, version 0
 *   incremental export i `NewImage`           sign +1, version i   (NEW_AND_OLD_IMAGES: the item at the window's end)
 *                        `OldImage`           sign -1, version i   (the item at the window's start)
 *
 * so an item inserted, updated or deleted in a window adds its new contribution and takes back its old one, and one
 * GROUP BY partition key gives, per partition, exactly what the live engine's `PartitionTally` holds: whether the
 * parent exists (sum of signs), its counter in the newest image (raw DynamoDB JSON, as read), the children counted,
 * the shards counted and summed. The state kept is one row per partition, never per item: memory is bounded by the
 * number of parents, whatever the number of items. Comparing stored with actual is not SQL: the rows go through the
 * live engine's own `compare()` (here after DuckDB, or after `--from-result` for Athena/Spark output), so a drift row
 * is the same whichever way it was counted.
 *
 * Only four attributes are read, each as its raw DynamoDB JSON text (`{"S":"POST#1"}`, `{"N":"3"}`): the partition
 * key, the sort key, the counter and the shard counter. A counter holding a string, a map... is therefore seen as such
 * and reported as not a number, as live.
 */
import { Plan } from '../engine';
import { ReconcileError } from '../types';

export type Dialect = 'duckdb' | 'athena' | 'spark';
export const DIALECTS: Dialect[] = ['duckdb', 'athena', 'spark'];

/** The columns of the query's result, one row per partition: what `--from-result` reads back. */
export const RESULT_COLUMNS = ['pk_s', 'pk_n', 'pk_b', 'parent', 'counter', 'children', 'shards', 'shard_sum', 'bad_shards'] as const;

export interface ExportSpec {
  kind: 'full' | 'incremental';
  /** The export's id (its folder's name): names its table, so tables of different exports never collide. */
  id?: string;
  /** DuckDB: the data files to read (local paths or a glob). */
  files: string[];
  /** Athena/Spark: the export's `data/` folder (s3://bucket/prefix/AWSDynamoDB/<id>/data/). */
  location: string;
  /**
   * Athena/Spark: when `location` is the data folder shared by incremental exports (s3://…/AWSDynamoDB/data/), the
   * names of this export's own files in it: the others belong to other incremental exports.
   */
  only?: string[];
}

export interface QuerySpec {
  plan: Plan;
  pkAttr: string;
  skAttr: string;
  /** The full export first, then the incremental exports in the order they apply. */
  exports: ExportSpec[];
}

export interface RenderedQuery {
  /** Statements that make the exports readable as tables/views (one per export). */
  ddl: string[];
  /** The SELECT giving one row per partition (columns: RESULT_COLUMNS). */
  query: string;
}

/** The attributes read from each image: partition key, sort key, counter, shard counter (deduplicated). */
function attributes(spec: QuerySpec): string[] {
  return [...new Set([spec.pkAttr, spec.skAttr, spec.plan.pattern.counter, spec.plan.shardCounter])];
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** Length in code points, as SQL's substr counts characters. */
function chars(s: string): number {
  return [...s].length;
}

interface Syntax {
  /** An identifier (column or struct field). */
  id(name: string): string;
  /** A struct field type holding the attribute's raw JSON. */
  fieldType: string;
  /** The scalar at `$.T` of an attribute's raw JSON (`T` = S, N, B). */
  field(json: string, type: 'S' | 'N' | 'B'): string;
  /** The attribute's raw JSON as text. */
  text(json: string): string;
  /** The table/view statement for one export. */
  table(name: string, columns: Array<[string, string]>, e: ExportSpec): string;
  /** A condition keeping the rows of the export's own files (ExportSpec.only), or undefined when the table has no others. */
  own(e: ExportSpec): string | undefined;
  struct(fields: Array<[string, string]>): string;
  string: string;
  double: string;
}

const duckdb: Syntax = {
  id: (n) => `"${n.replace(/"/g, '""')}"`,
  fieldType: 'JSON',
  field: (j, t) => `json_extract_string(${j}, '$.${t}')`,
  text: (j) => `CAST(${j} AS VARCHAR)`,
  struct: (fields) => `STRUCT(${fields.map(([n, t]) => `${duckdb.id(n)} ${t}`).join(', ')})`,
  table: (name, columns, e) => {
    const cols = `{${columns.map(([n, t]) => `${sqlString(n)}: ${sqlString(t)}`).join(', ')}}`;
    const select = columns.map(([n]) => duckdb.id(n)).join(', ');
    if (!e.files.length) {
      // An export with no data file (an empty table): the same columns, no rows.
      return `CREATE OR REPLACE TEMP VIEW ${name} AS SELECT ${columns.map(([n, t]) => `CAST(NULL AS ${t}) AS ${duckdb.id(n)}`).join(', ')} WHERE false;`;
    }
    const files = e.files.length === 1 ? sqlString(e.files[0]) : `[${e.files.map(sqlString).join(', ')}]`;
    return `CREATE OR REPLACE TEMP VIEW ${name} AS SELECT ${select} FROM read_json(${files}, format = 'newline_delimited', compression = 'gzip', columns = ${cols});`;
  },
  // DuckDB reads the listed files only.
  own: () => undefined,
  string: 'VARCHAR',
  double: 'DOUBLE',
};

const athena: Syntax = {
  // Athena (Hive DDL) folds names to lower case; the OpenX JSON SerDe matches JSON keys case-insensitively.
  id: (n) => n.toLowerCase(),
  fieldType: 'string',
  field: (j, t) => `json_extract_scalar(${j}, '$.${t}')`,
  text: (j) => j,
  struct: (fields) => `struct<${fields.map(([n, t]) => `${athena.id(n)}:${t}`).join(',')}>`,
  table: (name, columns, e) =>
    [
      `CREATE EXTERNAL TABLE IF NOT EXISTS ${name} (`,
      columns.map(([n, t]) => `  ${athena.id(n)} ${t}`).join(',\n'),
      `)`,
      `ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'`,
      `LOCATION ${sqlString(e.location)};`,
    ].join('\n'),
  // "$path": the S3 URL of the object a row was read from (a hidden column of every Athena table).
  own: (e) => (e.only ? `"$path" IN (${e.only.map((n) => sqlString(e.location + n)).join(', ')})` : undefined),
  string: 'varchar',
  double: 'double',
};

const spark: Syntax = {
  id: (n) => `\`${n.replace(/`/g, '``')}\``,
  // A JSON object read into a STRING field keeps its raw JSON text (Spark's JSON data source).
  fieldType: 'STRING',
  field: (j, t) => `get_json_object(${j}, '$.${t}')`,
  text: (j) => j,
  struct: (fields) => `STRUCT<${fields.map(([n, t]) => `${spark.id(n)}: ${t}`).join(', ')}>`,
  // In a shared folder, the path is a Hadoop glob naming the export's own files: {a.json.gz,b.json.gz}.
  table: (name, columns, e) =>
    `CREATE OR REPLACE TEMPORARY VIEW ${name} (${columns.map(([n, t]) => `${spark.id(n)} ${t}`).join(', ')})\nUSING json OPTIONS (path ${sqlString(e.only ? `${e.location}{${e.only.join(',')}}` : e.location)});`,
  own: () => undefined,
  string: 'STRING',
  double: 'DOUBLE',
};

const SYNTAX: Record<Dialect, Syntax> = { duckdb, athena, spark };

/** Athena's DDL takes plain names only, and folds case: say so instead of emitting a table that reads nulls. */
function checkNames(spec: QuerySpec, dialect: Dialect): void {
  if (dialect !== 'athena') return;
  const names = attributes(spec);
  for (const n of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) {
      throw new ReconcileError(`Attribute name ${JSON.stringify(n)} cannot be a column of an Athena table (letters, digits and _ only): use --emit-sql spark or duckdb.`, 'unsupported');
    }
  }
  const lower = names.map((n) => n.toLowerCase());
  const twice = names.find((n, i) => lower.indexOf(n.toLowerCase()) !== i);
  if (twice) throw new ReconcileError(`Attributes that differ only by case (${JSON.stringify(twice)}) cannot be told apart by Athena: use --emit-sql spark or duckdb.`, 'unsupported');
}

export function tableName(e: ExportSpec, i: number): string {
  return e.id ? `dynalint_${e.id.toLowerCase().replace(/[^a-z0-9_]/g, '_')}` : `dynalint_export_${i}`;
}

/** Render the model in one dialect: DDL per export, then the per-partition query. */
export function render(spec: QuerySpec, dialect: Dialect): RenderedQuery {
  if (!spec.exports.length || spec.exports[0].kind !== 'full') throw new ReconcileError('The first export must be a full export.', 'bad-options');
  checkNames(spec, dialect);
  const x = SYNTAX[dialect];
  const attrs = attributes(spec);
  const image = x.struct(attrs.map((a) => [a, x.fieldType]));
  const ddl = spec.exports.map((e, i) =>
    x.table(tableName(e, i), e.kind === 'full' ? [['Item', image]] : [['NewImage', image], ['OldImage', image]], e),
  );
  const img = (a: string) => `img.${x.id(a)}`;
  const images = spec.exports
    .flatMap((e, i) => {
      const own = x.own(e);
      const and = own ? ` AND ${own}` : '';
      return e.kind === 'full'
        ? [`  SELECT ${i} AS v, 1 AS sign, ${x.id('Item')} AS img FROM ${tableName(e, i)}${own ? ` WHERE ${own}` : ''}`]
        : [
            `  SELECT ${i} AS v, 1 AS sign, ${x.id('NewImage')} AS img FROM ${tableName(e, i)} WHERE ${x.id('NewImage')} IS NOT NULL${and}`,
            `  SELECT ${i} AS v, -1 AS sign, ${x.id('OldImage')} AS img FROM ${tableName(e, i)} WHERE ${x.id('OldImage')} IS NOT NULL${and}`,
          ];
    })
    .join('\n  UNION ALL\n');
  const p = spec.plan.pattern;
  const sk = 'sk';
  const prefix = (v: string) => `substr(${sk}, 1, ${chars(v)}) = ${sqlString(v)}`;
  // roleOf(): the parent's exact sort key wins, then the longer of the child and shard prefixes.
  const roles: string[] = [];
  if (p.parentSk !== undefined) roles.push(`WHEN ${sk} = ${sqlString(p.parentSk)} THEN 'parent'`);
  const byLength = [
    ...(p.shardPrefix !== undefined ? [{ v: p.shardPrefix, role: 'shard' }] : []),
    ...(p.childPrefix !== undefined ? [{ v: p.childPrefix, role: 'child' }] : []),
  ].sort((a, b) => b.v.length - a.v.length);
  for (const r of byLength) roles.push(`WHEN ${prefix(r.v)} THEN '${r.role}'`);
  const sum = (expr: string, where: string) => `COALESCE(SUM(${expr}) FILTER (WHERE ${where}), 0)`;
  const query = [
    'WITH images AS (',
    images,
    '),',
    'items AS (',
    '  SELECT v, sign,',
    `    ${x.field(img(spec.pkAttr), 'S')} AS pk_s,`,
    `    ${x.field(img(spec.pkAttr), 'N')} AS pk_n,`,
    `    ${x.field(img(spec.pkAttr), 'B')} AS pk_b,`,
    `    ${x.field(img(spec.skAttr), 'S')} AS sk,`,
    `    ${x.text(img(p.counter))} AS counter,`,
    `    ${x.text(img(spec.plan.shardCounter))} AS shard_raw,`,
    `    ${x.field(img(spec.plan.shardCounter), 'N')} AS shard_n`,
    '  FROM images',
    '),',
    'roles AS (',
    `  SELECT *, CASE ${roles.join(' ')} END AS role FROM items`,
    ')',
    'SELECT pk_s, pk_n, pk_b,',
    `  ${sum('sign', "role = 'parent'")} AS parent,`,
    // The newest image of the parent; '' when that image has no counter (max_by skips NULL values in some engines).
    `  max_by(COALESCE(counter, ''), v) FILTER (WHERE role = 'parent' AND sign = 1) AS counter,`,
    `  ${sum('sign', "role = 'child'")} AS children,`,
    `  ${sum('sign', "role = 'shard'")} AS shards,`,
    `  ${sum(`sign * CAST(shard_n AS ${x.double})`, "role = 'shard' AND shard_n IS NOT NULL")} AS shard_sum,`,
    `  ${sum('sign', "role = 'shard' AND shard_raw IS NOT NULL AND shard_n IS NULL")} AS bad_shards`,
    'FROM roles',
    'WHERE role IS NOT NULL',
    'GROUP BY pk_s, pk_n, pk_b',
  ].join('\n');
  return { ddl, query };
}
