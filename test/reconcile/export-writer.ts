/**
 * Writes DynamoDB "Export to S3" folders in the documented layout, for the tests and the bench (the layout, fields and
 * lines as https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html documents them
 * and as a real export made by DynamoDB shows them, github.com/gurre/ddb-pitr s3exportdata/; see
 * server/src/reconcile/export/manifest.ts):
 *
 *   <root>/AWSDynamoDB/<export-id>/_started, manifest-summary.json (+ .checksum), manifest-files.json (+ .checksum)
 *   full export:        <root>/AWSDynamoDB/<export-id>/data/<name>.json.gz  (gzipped JSON lines: {"Item": …})
 *   incremental export: <root>/AWSDynamoDB/data/<name>.json.gz, the data folder incremental exports share
 *                       ({"Metadata": {"WriteTimestampMicros": {"N": …}}, "Keys", "NewImage", "OldImage"}, the
 *                       NEW_AND_OLD_IMAGES view); a full export's summary has no exportType, an incremental one's has
 *                       INCREMENTAL_EXPORT with exportFromTime, exportToTime and outputView.
 *   format ION:         <name>.ion.gz, one `$ion_1_0 {Item:{…}}` per line, written with ion-js's text writer in the
 *                       documented type mapping (S string, N decimal, B blob, BOOL bool, sets as lists annotated
 *                       $dynamodb_SS/NS/BS, L list, M struct; NULL as an Ion null).
 *
 * Items are spread over the data files by a hash of the partition key, as DynamoDB writes one file per partition of
 * its keyspace; a file with nothing in it is written empty (gzipped nothing), as DynamoDB does for an empty partition.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import { AttributeValue } from '@aws-sdk/client-dynamodb';
import { Decimal, IonTypes, Writer, makeTextWriter } from 'ion-js';
import type { Item } from '../../server/src/reconcile/seed';

export type ExportFormat = 'DYNAMODB_JSON' | 'ION';

function writeIonValue(w: Writer, v: AttributeValue): void {
  const set = (kind: 'SS' | 'NS' | 'BS', values: string[]) => {
    w.setAnnotations([`$dynamodb_${kind}`]);
    w.stepIn(IonTypes.LIST);
    for (const x of values) {
      if (kind === 'SS') w.writeString(x);
      else if (kind === 'NS') w.writeDecimal(Decimal.parse(x));
      else w.writeBlob(Buffer.from(x, 'base64'));
    }
    w.stepOut();
  };
  if (v.S !== undefined) w.writeString(v.S);
  else if (v.N !== undefined) w.writeDecimal(Decimal.parse(v.N));
  else if (v.B !== undefined) w.writeBlob(typeof (v.B as unknown) === 'string' ? Buffer.from(v.B as unknown as string, 'base64') : v.B);
  else if (v.BOOL !== undefined) w.writeBoolean(v.BOOL);
  else if (v.NULL !== undefined) w.writeNull(IonTypes.NULL);
  else if (v.SS !== undefined) set('SS', v.SS);
  else if (v.NS !== undefined) set('NS', v.NS);
  else if (v.BS !== undefined) set('BS', v.BS.map((b) => (typeof (b as unknown) === 'string' ? (b as unknown as string) : Buffer.from(b).toString('base64'))));
  else if (v.L !== undefined) {
    w.stepIn(IonTypes.LIST);
    for (const x of v.L) writeIonValue(w, x);
    w.stepOut();
  } else if (v.M !== undefined) writeIonStruct(w, v.M);
  else throw new Error(`no Ion form for ${JSON.stringify(v)}`);
}

function writeIonStruct(w: Writer, item: Record<string, AttributeValue>): void {
  w.stepIn(IonTypes.STRUCT);
  for (const [k, v] of Object.entries(item)) {
    w.writeFieldName(k);
    writeIonValue(w, v);
  }
  w.stepOut();
}

/** One line of an ION export: the version marker, then the record's fields, each an item (ion-js's text writer). */
export function ionLine(record: Record<string, Record<string, AttributeValue>>): string {
  const w = makeTextWriter();
  writeIonStruct(w, Object.fromEntries(Object.entries(record).map(([k, v]) => [k, { M: v }])) as Record<string, AttributeValue>);
  w.close();
  return `$ion_1_0 ${new TextDecoder().decode(w.getBytes())}\n`;
}

/** One data-file line of the export's format. */
function line(record: Record<string, Record<string, AttributeValue>>, format: ExportFormat): string {
  return format === 'ION' ? ionLine(record) : JSON.stringify(record) + '\n';
}

export interface Change {
  keys: Item;
  old?: Item;
  new?: Item;
}

export interface ExportWritten {
  /** The export's folder (what --from-export takes). */
  dir: string;
  id: string;
  /** Keys of the files written, relative to the root (as an S3 bucket would hold them under the prefix). */
  keys: string[];
}

let seq = 0;

function exportId(): string {
  seq++;
  return `${String(1700000000000 + seq).padStart(14, '0')}-${createHash('md5').update(String(process.pid) + seq).digest('hex').slice(0, 8)}`;
}

function hashOf(s: string): number {
  return createHash('md5').update(s).digest().readUInt32BE(0);
}

function md5Base64(b: Buffer): string {
  return createHash('md5').update(b).digest('base64');
}

interface Common {
  /** Root folder (the export prefix); the export goes to <root>/AWSDynamoDB/<id>/. */
  root: string;
  /** Data files (default 4). */
  files?: number;
  tableArn?: string;
  pkAttr?: string;
  /** DYNAMODB_JSON (default) or ION. */
  format?: ExportFormat;
}

function writeManifests(dir: string, summary: Record<string, unknown>, entries: Array<{ name: string; count: number; body: Buffer; key?: string }>, id: string): string[] {
  const keyOf = (e: { name: string; key?: string }) => e.key ?? `AWSDynamoDB/${id}/data/${e.name}`;
  const lines = entries.map((e) =>
    JSON.stringify({ itemCount: e.count, md5Checksum: md5Base64(e.body), etag: createHash('md5').update(e.body).digest('hex'), dataFileS3Key: keyOf(e) }),
  );
  const files = lines.join('\n') + '\n';
  const sum = JSON.stringify(summary);
  writeFileSync(join(dir, 'manifest-files.json'), files);
  writeFileSync(join(dir, 'manifest-files.checksum'), createHash('md5').update(files).digest('hex'));
  writeFileSync(join(dir, 'manifest-summary.json'), sum);
  writeFileSync(join(dir, 'manifest-summary.checksum'), createHash('md5').update(sum).digest('hex'));
  writeFileSync(join(dir, '_started'), '');
  const base = `AWSDynamoDB/${id}/`;
  return [`${base}_started`, `${base}manifest-summary.json`, `${base}manifest-summary.checksum`, `${base}manifest-files.json`, `${base}manifest-files.checksum`, ...entries.map(keyOf)];
}

function spread<T>(records: T[], files: number, pkOf: (r: T) => string): T[][] {
  const out: T[][] = Array.from({ length: files }, () => []);
  for (const r of records) out[hashOf(pkOf(r)) % files].push(r);
  return out;
}

function pkText(item: Item, pkAttr: string): string {
  return JSON.stringify(item[pkAttr]);
}

/** A full export of `items`, as of `exportTime`. */
export function writeFullExport(opts: Common & { items: Item[]; exportTime: string }): ExportWritten {
  const id = exportId();
  const dir = join(opts.root, 'AWSDynamoDB', id);
  mkdirSync(join(dir, 'data'), { recursive: true });
  const pkAttr = opts.pkAttr ?? 'PK';
  const format = opts.format ?? 'DYNAMODB_JSON';
  const groups = spread(opts.items, opts.files ?? 4, (it) => pkText(it, pkAttr));
  const entries = groups.map((g, i) => {
    const name = `${createHash('md5').update(id + i).digest('hex').slice(0, 26)}${format === 'ION' ? '.ion.gz' : '.json.gz'}`;
    const body = gzipSync(g.map((Item) => line({ Item }, format)).join(''));
    writeFileSync(join(dir, 'data', name), body);
    return { name, count: g.length, body, key: `AWSDynamoDB/${id}/data/${name}` };
  });
  const tableArn = opts.tableArn ?? 'arn:aws:dynamodb:us-east-1:123456789012:table/Social';
  const keys = writeManifests(
    dir,
    {
      version: '2020-06-30',
      exportArn: `${tableArn}/export/${id}`,
      startTime: opts.exportTime,
      endTime: opts.exportTime,
      tableArn,
      tableId: '12345a12-abcd-123a-ab12-1234abc12345',
      exportTime: opts.exportTime,
      s3Bucket: 'bucket',
      s3Prefix: null,
      s3SseAlgorithm: 'AES256',
      s3SseKmsKeyId: null,
      manifestFilesS3Key: `AWSDynamoDB/${id}/manifest-files.json`,
      billedSizeBytes: entries.reduce((a, e) => a + e.body.length, 0),
      itemCount: opts.items.length,
      outputFormat: format,
    },
    entries,
    id,
  );
  return { dir, id, keys };
}

/** An incremental export (NEW_AND_OLD_IMAGES) of `changes` over [from, to). */
export function writeIncrementalExport(opts: Common & { changes: Change[]; from: string; to: string; view?: string }): ExportWritten {
  const id = exportId();
  const dir = join(opts.root, 'AWSDynamoDB', id);
  // Incremental exports write their data files to the folder they share, next to their own folders.
  const shared = join(opts.root, 'AWSDynamoDB', 'data');
  mkdirSync(dir, { recursive: true });
  mkdirSync(shared, { recursive: true });
  const format = opts.format ?? 'DYNAMODB_JSON';
  const pkAttr = opts.pkAttr ?? 'PK';
  const groups = spread(opts.changes, opts.files ?? 2, (c) => pkText(c.keys, pkAttr));
  const micros = String(Date.parse(opts.to) * 1000 - 1);
  const entries = groups.map((g, i) => {
    const name = `${createHash('md5').update(id + i).digest('hex').slice(0, 26)}${format === 'ION' ? '.ion.gz' : '.json.gz'}`;
    const body = gzipSync(
      g
        .map((c) => line({ Metadata: { WriteTimestampMicros: { N: micros } }, Keys: c.keys, ...(c.old ? { OldImage: c.old } : {}), ...(c.new ? { NewImage: c.new } : {}) }, format))
        .join(''),
    );
    writeFileSync(join(shared, name), body);
    return { name, count: g.length, body, key: `AWSDynamoDB/data/${name}` };
  });
  const tableArn = opts.tableArn ?? 'arn:aws:dynamodb:us-east-1:123456789012:table/Social';
  const keys = writeManifests(
    dir,
    {
      version: '2023-08-01',
      exportArn: `${tableArn}/export/${id}`,
      startTime: opts.to,
      endTime: opts.to,
      tableArn,
      tableId: '12345a12-abcd-123a-ab12-1234abc12345',
      exportFromTime: opts.from,
      exportToTime: opts.to,
      s3Bucket: 'bucket',
      s3Prefix: null,
      s3SseAlgorithm: 'AES256',
      s3SseKmsKeyId: null,
      manifestFilesS3Key: `AWSDynamoDB/${id}/manifest-files.json`,
      billedSizeBytes: entries.reduce((a, e) => a + e.body.length, 0),
      itemCount: opts.changes.length,
      outputFormat: format,
      outputView: opts.view ?? 'NEW_AND_OLD_IMAGES',
      exportType: 'INCREMENTAL_EXPORT',
    },
    entries,
    id,
  );
  return { dir, id, keys };
}

/** The changes that turn `before` into `after` (items keyed by PK+SK), as one incremental export holds them. */
export function diff(before: Item[], after: Item[], pkAttr = 'PK', skAttr = 'SK'): Change[] {
  const key = (it: Item) => JSON.stringify([it[pkAttr], it[skAttr]]);
  const a = new Map(before.map((it) => [key(it), it]));
  const b = new Map(after.map((it) => [key(it), it]));
  const out: Change[] = [];
  for (const [k, old] of a) {
    const now = b.get(k);
    if (!now) out.push({ keys: { [pkAttr]: old[pkAttr], [skAttr]: old[skAttr] }, old });
    else if (JSON.stringify(now) !== JSON.stringify(old)) out.push({ keys: { [pkAttr]: old[pkAttr], [skAttr]: old[skAttr] }, old, new: now });
  }
  for (const [k, now] of b) if (!a.has(k)) out.push({ keys: { [pkAttr]: now[pkAttr], [skAttr]: now[skAttr] }, new: now });
  return out;
}

/**
 * A large full export written as it is generated (bench): `make(i, push)` pushes the items of partition i. Each
 * data file is a gzip stream; memory stays flat whatever the count.
 */
export async function writeLargeExport(opts: Common & { partitions: number; exportTime: string; make: (i: number, push: (it: Item) => void) => void }): Promise<ExportWritten & { items: number }> {
  const id = exportId();
  const dir = join(opts.root, 'AWSDynamoDB', id);
  mkdirSync(join(dir, 'data'), { recursive: true });
  const n = opts.files ?? 8;
  const names = Array.from({ length: n }, (_, i) => `${createHash('md5').update(id + i).digest('hex').slice(0, 26)}.json.gz`);
  const streams = names.map((name) => {
    const gz = createGzip({ level: 1 });
    const out = createWriteStream(join(dir, 'data', name));
    gz.pipe(out);
    return { gz, out, count: 0 };
  });
  let items = 0;
  for (let p = 0; p < opts.partitions; p++) {
    const s = streams[p % n];
    const lines: string[] = [];
    opts.make(p, (it) => lines.push(JSON.stringify({ Item: it })));
    s.count += lines.length;
    items += lines.length;
    if (!s.gz.write(lines.join('\n') + '\n')) await new Promise<void>((r) => s.gz.once('drain', () => r()));
  }
  await Promise.all(streams.map((s) => new Promise<void>((r) => { s.out.on('finish', () => r()); s.gz.end(); })));
  const entries = names.map((name, i) => ({ name, count: streams[i].count, body: readFileSync(join(dir, 'data', name)) }));
  const tableArn = opts.tableArn ?? 'arn:aws:dynamodb:us-east-1:123456789012:table/Bench';
  const keys = writeManifests(
    dir,
    {
      version: '2020-06-30',
      exportArn: `${tableArn}/export/${id}`,
      tableArn,
      exportTime: opts.exportTime,
      manifestFilesS3Key: `AWSDynamoDB/${id}/manifest-files.json`,
      itemCount: items,
      outputFormat: 'DYNAMODB_JSON',
    },
    entries,
    id,
  );
  return { dir, id, keys, items };
}
