/**
 * DynamoDB's "Export to S3" layout, as documented ("DynamoDB table export output format",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html, full and incremental
 * export output) and as a real export shows it (github.com/gurre/ddb-pitr, s3exportdata/: one full export and two
 * incremental exports made by DynamoDB, 2026-01):
 *
 *   <prefix>/AWSDynamoDB/<export-id>/manifest-summary.json   one JSON object: version, exportArn, startTime, endTime,
 *                                                             tableArn, itemCount, outputFormat (DYNAMODB_JSON | ION);
 *                                                             full: exportTime (no exportType in the real full export);
 *                                                             incremental (version 2023-08-01): exportFromTime,
 *                                                             exportToTime, outputView (NEW_AND_OLD_IMAGES | NEW_IMAGE),
 *                                                             exportType INCREMENTAL_EXPORT
 *   <prefix>/AWSDynamoDB/<export-id>/manifest-files.json     JSON lines: {itemCount, md5Checksum, etag, dataFileS3Key}
 *   full:        <prefix>/AWSDynamoDB/<export-id>/data/<name>.json.gz | .ion.gz   (dataFileS3Key
 *                                                             "[<prefix>/]AWSDynamoDB/<export-id>/data/<name>")
 *   incremental: <prefix>/AWSDynamoDB/data/<name>.json.gz | .ion.gz   a data folder SHARED by the incremental exports
 *                                                             of the prefix (dataFileS3Key "[<prefix>/]AWSDynamoDB/data/
 *                                                             <name>"): only the files its manifest lists are its own
 *   lines: {"Item": {...}} (full) or {"Metadata": {"WriteTimestampMicros": {"N": "…"}}, "Keys": {...},
 *          "NewImage": {...}, "OldImage": {...}} (incremental; an insert has no OldImage, a delete no NewImage)
 *
 * A data file is found by its name, in the export's own `data/` folder or in the shared `AWSDynamoDB/data/` folder
 * next to it as its dataFileS3Key says (which may or may not carry the export prefix), so the same code reads a
 * prefix copied from S3 and the bucket itself.
 */
import { ReconcileError } from '../types';

export interface DataFile {
  /** The file's name under its data/ folder. */
  name: string;
  /** In the data folder shared by incremental exports (`AWSDynamoDB/data/`, next to the export's folder), not its own. */
  shared?: boolean;
  itemCount?: number;
  /** Base64 MD5 of the (gzipped) object, as the manifest gives it. */
  md5?: string;
  etag?: string;
}

export interface ExportManifest {
  /** Where it was read from (a folder or an s3:// URL of the export's folder). */
  location: string;
  exportArn?: string;
  tableArn?: string;
  kind: 'full' | 'incremental';
  /** Full: the point in time exported. Incremental: the window's end (exclusive). ISO text as the manifest gives it. */
  time: string;
  /** Incremental: the window's start (inclusive). */
  fromTime?: string;
  outputFormat: 'DYNAMODB_JSON' | 'ION';
  outputView?: string;
  itemCount?: number;
  files: DataFile[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Parse both manifests; `where` names the export in errors. */
export function parseManifest(where: string, summaryText: string, filesText: string): ExportManifest {
  let summary: Record<string, unknown>;
  try {
    summary = JSON.parse(summaryText) as Record<string, unknown>;
  } catch {
    throw new ReconcileError(`${where}: manifest-summary.json is not JSON.`, 'bad-options');
  }
  if (!summary || typeof summary !== 'object' || Array.isArray(summary)) throw new ReconcileError(`${where}: manifest-summary.json is not an object.`, 'bad-options');
  const type = str(summary.exportType);
  const incremental = type === 'INCREMENTAL_EXPORT' || (type === undefined && str(summary.exportToTime) !== undefined && str(summary.exportTime) === undefined);
  if (type !== undefined && type !== 'FULL_EXPORT' && type !== 'INCREMENTAL_EXPORT') {
    throw new ReconcileError(`${where}: unknown exportType ${JSON.stringify(type.slice(0, 40))}.`, 'bad-options');
  }
  const outputFormat = str(summary.outputFormat) ?? 'DYNAMODB_JSON';
  if (outputFormat !== 'DYNAMODB_JSON' && outputFormat !== 'ION') throw new ReconcileError(`${where}: unknown outputFormat ${JSON.stringify(outputFormat.slice(0, 40))}.`, 'unsupported');
  const time = incremental ? str(summary.exportToTime) : (str(summary.exportTime) ?? str(summary.startTime));
  if (!time || Number.isNaN(Date.parse(time))) {
    throw new ReconcileError(`${where}: manifest-summary.json has no ${incremental ? 'exportToTime' : 'exportTime'}: the export's time must be known.`, 'bad-options');
  }
  const outputView = str(summary.outputView) ?? str(summary.exportViewType);
  if (incremental && outputView !== undefined && outputView !== 'NEW_AND_OLD_IMAGES') {
    throw new ReconcileError(
      `${where}: an incremental export with ${outputView.slice(0, 40)} has no old images, so a change cannot be taken back: export it with NEW_AND_OLD_IMAGES.`,
      'unsupported',
    );
  }
  const files: DataFile[] = [];
  const lines = filesText.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let f: Record<string, unknown>;
    try {
      f = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new ReconcileError(`${where}: manifest-files.json line ${i + 1} is not JSON.`, 'bad-options');
    }
    const key = str(f?.dataFileS3Key);
    const parts = key?.split('/') ?? [];
    const name = parts[parts.length - 1];
    // Names are used as file names and S3 keys: nothing that climbs out of data/.
    if (!name || name === '.' || name === '..' || !/^[A-Za-z0-9._=-]+$/.test(name)) {
      throw new ReconcileError(`${where}: manifest-files.json line ${i + 1} has no usable dataFileS3Key.`, 'bad-options');
    }
    // "…/AWSDynamoDB/data/<name>": the incremental exports' shared folder; "…/AWSDynamoDB/<id>/data/<name>": its own.
    const shared = parts.length >= 3 && parts[parts.length - 2] === 'data' && parts[parts.length - 3] === 'AWSDynamoDB';
    files.push({ name, ...(shared ? { shared } : {}), itemCount: num(f.itemCount), md5: str(f.md5Checksum), etag: str(f.etag) });
  }
  return {
    location: where,
    exportArn: str(summary.exportArn),
    tableArn: str(summary.tableArn),
    kind: incremental ? 'incremental' : 'full',
    time,
    ...(incremental ? { fromTime: str(summary.exportFromTime) } : {}),
    outputFormat,
    ...(outputView ? { outputView } : {}),
    itemCount: num(summary.itemCount),
    files,
  };
}

/**
 * One full export, then incremental exports whose windows follow each other without a gap or an overlap: each change
 * is then applied exactly once. Incremental exports may be given in any order; they are applied by their windows.
 */
export function orderChain(manifests: ExportManifest[]): ExportManifest[] {
  const full = manifests.filter((m) => m.kind === 'full');
  if (full.length !== 1) {
    throw new ReconcileError(full.length ? `Give one full export, not ${full.length}.` : 'Give the full export too: incremental exports hold only what changed.', 'bad-options');
  }
  const incs = manifests.filter((m) => m.kind === 'incremental').sort((a, b) => Date.parse(a.fromTime ?? '') - Date.parse(b.fromTime ?? ''));
  const tables = new Set(manifests.map((m) => m.tableArn).filter(Boolean));
  if (tables.size > 1) throw new ReconcileError(`The exports come from different tables: ${[...tables].join(', ')}.`, 'bad-options');
  let at = full[0].time;
  for (const m of incs) {
    if (!m.fromTime || Date.parse(m.fromTime) !== Date.parse(at)) {
      throw new ReconcileError(
        `${m.location}: this incremental export starts at ${m.fromTime ?? '(no exportFromTime)'}, not where the previous export ends (${at}): ` +
          'changes would be ' + (m.fromTime && Date.parse(m.fromTime) < Date.parse(at) ? 'counted twice.' : 'missed.'),
        'bad-options',
      );
    }
    at = m.time;
  }
  return [full[0], ...incs];
}

/** The export's table name, from its ARN (`arn:aws:dynamodb:…:table/Name`). */
export function tableOfArn(arn: string | undefined): string | undefined {
  return arn ? /:table\/([^/]+)/.exec(arn)?.[1] : undefined;
}
