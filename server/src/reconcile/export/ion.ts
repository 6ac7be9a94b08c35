/**
 * ION exports, read by converting each data file to the DYNAMODB_JSON lines the query model reads (DuckDB has no Ion
 * reader), with ion-js (Amazon's Ion library for JavaScript, Apache-2.0, pure JS: bundled into dist/cli.js).
 *
 * The format, as documented ("DynamoDB table export output format", Amazon Ion section,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html): items are delimited by
 * newlines, each line begins with the Ion version marker and holds one struct, `$ion_1_0 {Item:{...}}`; DynamoDB types
 * map to Ion types as
 *
 *   String (S) → string      Boolean (BOOL) → bool     Number (N) → decimal     Binary (B) → blob
 *   Set (SS, NS, BS) → list annotated $dynamodb_SS, $dynamodb_NS, $dynamodb_BS    List → list    Map → struct
 *
 * e.g. `Id:103.`, `PageCount:6d2` (N "600"), `Authors:$dynamodb_SS::["Author1","Author2"]`. The table does not name
 * NULL: an Ion null (of any type) is read as `{"NULL":true}`; an Ion int or float as a number, a symbol as a string
 * (not written by DynamoDB per the table; accepted rather than refused). An incremental export's lines are read with
 * the same top-level fields as in DYNAMODB_JSON (`Metadata`, `Keys`, `NewImage`, `OldImage`), each image an item in
 * the mapping above: the documentation shows no Ion incremental line, so that shape is assumed, not verified.
 *
 * Streaming: gunzip → records (a record starts at a line beginning with `$ion_1_0`; a line that does not is a
 * continuation, so a value spread over lines still reads) → one ion-js reader per record → one JSON line → gzip, with
 * backpressure. Memory is one record at a time whatever the file's size (ion-js's reader takes a whole buffer, so it
 * is never given the whole file).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Decimal, IonType, IonTypes, Reader, makeReader } from 'ion-js';
import { ReconcileError } from '../types';

type Attr = Record<string, unknown>;

const SET_ANNOTATIONS: Record<string, 'SS' | 'NS' | 'BS'> = { $dynamodb_SS: 'SS', $dynamodb_NS: 'NS', $dynamodb_BS: 'BS' };

/** An Ion decimal as DynamoDB number text: plain digits, no exponent (`6d2` → "600", `12d-5` → "0.00012"). */
export function decimalText(d: Decimal): string {
  const coefficient = d.getCoefficient();
  const exponent = d.getExponent();
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString();
  if (digits === '0') return '0';
  let text: string;
  if (exponent >= 0) text = digits + '0'.repeat(exponent);
  else {
    const point = digits.length + exponent;
    text = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${'0'.repeat(-point)}${digits}`;
  }
  return (negative ? '-' : '') + text;
}

function numberText(r: Reader, type: IonType): string {
  if (type === IonTypes.DECIMAL) return decimalText(r.decimalValue()!);
  if (type === IonTypes.INT) return r.bigIntValue()!.toString();
  const n = r.numberValue()!;
  if (!Number.isFinite(n)) throw new Error(`the number ${n} has no DynamoDB form`);
  return String(n);
}

function scalar(r: Reader, type: IonType): string {
  if (type === IonTypes.STRING || type === IonTypes.SYMBOL) return r.stringValue()!;
  if (type === IonTypes.BLOB || type === IonTypes.CLOB) return Buffer.from(r.uInt8ArrayValue()!).toString('base64');
  if (type === IonTypes.DECIMAL || type === IonTypes.INT || type === IonTypes.FLOAT) return numberText(r, type);
  throw new Error(`a set element of Ion type ${type.name}`);
}

/** The value the reader is on, as a DynamoDB JSON attribute value. */
function attribute(r: Reader, type: IonType): Attr {
  if (r.isNull()) return { NULL: true };
  const set = r.annotations().map((a) => SET_ANNOTATIONS[a]).find(Boolean);
  if (set) {
    if (type !== IonTypes.LIST) throw new Error(`a ${set} set that is an Ion ${type.name}, not a list`);
    const out: string[] = [];
    r.stepIn();
    for (let t = r.next(); t; t = r.next()) out.push(scalar(r, t));
    r.stepOut();
    return { [set]: out };
  }
  switch (type) {
    case IonTypes.STRING:
    case IonTypes.SYMBOL:
      return { S: r.stringValue()! };
    case IonTypes.BOOL:
      return { BOOL: r.booleanValue()! };
    case IonTypes.DECIMAL:
    case IonTypes.INT:
    case IonTypes.FLOAT:
      return { N: numberText(r, type) };
    case IonTypes.BLOB:
    case IonTypes.CLOB:
      return { B: Buffer.from(r.uInt8ArrayValue()!).toString('base64') };
    case IonTypes.LIST:
    case IonTypes.SEXP: {
      const out: Attr[] = [];
      r.stepIn();
      for (let t = r.next(); t; t = r.next()) out.push(attribute(r, t));
      r.stepOut();
      return { L: out };
    }
    case IonTypes.STRUCT:
      return { M: item(r) };
    default:
      throw new Error(`an attribute of Ion type ${type.name}`);
  }
}

/** The struct the reader is on (not yet stepped in), as a map of attribute name → DynamoDB JSON value. */
function item(r: Reader): Record<string, Attr> {
  const out: Record<string, Attr> = {};
  r.stepIn();
  for (let t = r.next(); t; t = r.next()) out[r.fieldName()!] = attribute(r, t);
  r.stepOut();
  return out;
}

/**
 * One Ion record (`$ion_1_0 {Item:{...}}`, or `{Keys:…, NewImage:…, OldImage:…}`) as its DYNAMODB_JSON line (no
 * newline); undefined for a record holding no value (blank text).
 */
export function ionRecordToJson(text: string): string | undefined {
  const r = makeReader(text);
  const type = r.next();
  if (!type) return undefined;
  const json = record(r, type);
  if (r.next()) throw new Error('two values on one record');
  return json;
}

/** The top-level value the reader is on, as a DYNAMODB_JSON line. */
function record(r: Reader, type: IonType): string {
  if (type !== IonTypes.STRUCT || r.isNull()) throw new Error(`a record that is an Ion ${type.name}, not a struct`);
  const out: Record<string, unknown> = {};
  r.stepIn();
  for (let t = r.next(); t; t = r.next()) {
    const field = r.fieldName()!;
    if (t !== IonTypes.STRUCT || r.isNull()) throw new Error(`${field} is an Ion ${t.name}, not a struct`);
    out[field] = item(r);
  }
  r.stepOut();
  return JSON.stringify(out);
}

/**
 * Records converted with one reader for the batch (a reader per record costs more than the parse); when anything is
 * off (an error, a record holding no value or two), record by record, so the error names its line.
 */
function convertBatch(batch: Array<{ text: string; line: number }>, what: string): string[] {
  try {
    const r = makeReader(batch.map((b) => b.text).join('\n'));
    const out: string[] = [];
    for (let t = r.next(); t; t = r.next()) out.push(record(r, t));
    if (out.length === batch.length) return out;
  } catch {
    // found again below, with its line
  }
  const out: string[] = [];
  for (const rec of batch) {
    let json: string | undefined;
    try {
      json = ionRecordToJson(rec.text);
    } catch (e) {
      throw new ReconcileError(`${what}: line ${rec.line} is not a DynamoDB Ion record: ${String((e as Error)?.message ?? e).split('\n')[0].slice(0, 200)}`, 'bad-options');
    }
    if (json !== undefined) out.push(json);
  }
  return out;
}

/** Split decompressed text into records: each starts at a line beginning with the Ion version marker. */
async function* records(source: AsyncIterable<Buffer>): AsyncGenerator<{ text: string; line: number }> {
  let pending = '';
  let current: string[] = [];
  let startLine = 0;
  let line = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const take = function* (l: string) {
    line++;
    if (l.startsWith('$ion_1_0') && current.length) {
      yield { text: current.join('\n'), line: startLine };
      current = [];
    }
    if (!current.length) startLine = line;
    current.push(l);
  };
  for await (const chunk of source) {
    const lines = (pending + decoder.decode(chunk, { stream: true })).split('\n');
    pending = lines.pop()!;
    for (const l of lines) yield* take(l);
  }
  pending += decoder.decode();
  if (pending) yield* take(pending);
  if (current.length) yield { text: current.join('\n'), line: startLine };
}

/** Convert one gzipped Ion data file into a gzipped DYNAMODB_JSON lines file; returns the records converted. */
export async function convertIonFile(src: string, dst: string, what = src, signal?: AbortSignal): Promise<number> {
  let n = 0;
  const convert = async function* (source: AsyncIterable<Buffer>) {
    let batch: Array<{ text: string; line: number }> = [];
    const flush = () => {
      const lines = convertBatch(batch, what);
      batch = [];
      n += lines.length;
      return lines.length ? lines.join('\n') + '\n' : '';
    };
    for await (const rec of records(source)) {
      batch.push(rec);
      if (batch.length >= 512) yield flush();
    }
    if (batch.length) yield flush();
  };
  try {
    await pipeline(createReadStream(src), createGunzip(), convert, createGzip({ level: 1 }), createWriteStream(dst), { signal });
  } catch (e) {
    if (signal?.aborted) throw new ReconcileError('Cancelled.', 'cancelled');
    if (e instanceof ReconcileError) throw e;
    const err = e as { code?: string; message?: string };
    if (err.code === 'Z_DATA_ERROR' || err.code === 'Z_BUF_ERROR') throw new ReconcileError(`${what}: not a gzip file (${err.message ?? err.code}).`, 'bad-options', { cause: e });
    if (e instanceof TypeError && /encoded data was not valid/i.test(err.message ?? '')) throw new ReconcileError(`${what}: not UTF-8 Ion text.`, 'bad-options', { cause: e });
    throw e;
  }
  return n;
}

/** For tests: the DYNAMODB_JSON lines of Ion text (not gzipped). */
export async function ionTextToJsonLines(text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const rec of records(Readable.from([Buffer.from(text)]))) {
    const json = ionRecordToJson(rec.text);
    if (json !== undefined) out.push(json);
  }
  return out;
}
