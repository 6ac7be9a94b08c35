/**
 * DynamoDB item sizes from literal items, in both value styles.
 *
 * Rules (developer guide, "DynamoDB item sizes and formats", CapacityUnitCalculations.html):
 * attribute name UTF-8 bytes + value size; String: UTF-8 bytes; Binary: raw bytes (base64-decoded in low-level JSON);
 * BOOL/NULL: 1; List/Map: 3 + the elements + 1 per element (a Map entry also pays its name); sets: sum of elements.
 *
 * Numbers: the guide says "approximately 1 byte per two significant digits + 1 byte". The exact figure, which DynamoDB
 * Local charges byte for byte (pinned in test/differential/capacity.test.ts), is DynamoDB's base-100 encoding: one byte
 * per pair of digits *aligned on the decimal point* (`1.5` is `01.50`: 2 pairs), +1 exponent byte, +1 for negatives,
 * at most 21 bytes. It equals the documented approximation for non-negative integers with an even digit alignment and
 * differs by one byte elsewhere (`-1` is 3 bytes, `1.001` is 4). We use the exact encoding.
 */
import { ObjectNode, ValueStyle, VNode } from '../extract/model';
import { base64DecodedLength, utf8Length } from '../core/dynamodb';

export interface SizeResult {
  /** Bytes of everything the literal shows (a lower bound when `known` is false). */
  bytes: number;
  /** false when some part is not literal (a variable, a spread, an unparseable number). */
  known: boolean;
}


const NUMBER_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Size in bytes of a DynamoDB number given as decimal text, or undefined when the text is not a number. */
export function numberSize(text: string): number | undefined {
  const m = NUMBER_RE.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const intPart = m[2];
  const frac = m[3] ?? '';
  const exp = m[4] ? parseInt(m[4], 10) : 0;
  // value = 0.D × 10^p with D the significant digits (no leading/trailing zeros).
  const all = intPart + frac;
  const lead = all.search(/[1-9]/);
  if (lead < 0) return 1; // zero
  const trail = all.length - all.split('').reverse().join('').search(/[1-9]/);
  const n = trail - lead;
  const p = intPart.length - lead + exp;
  // Digit i has place value 10^(p-1-i); a base-100 "digit" covers places 2j and 2j+1.
  const pairs = Math.floor((p - 1) / 2) - Math.floor((p - n) / 2) + 1;
  return Math.min(21, pairs + 1 + (m[1] === '-' ? 1 : 0));
}

function sum(parts: SizeResult[], base = 0): SizeResult {
  let bytes = base;
  let known = true;
  for (const p of parts) {
    bytes += p.bytes;
    known &&= p.known;
  }
  return { bytes, known };
}

const UNKNOWN: SizeResult = { bytes: 0, known: false };

function scalarString(node: VNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'string') return node.value;
  if (node.kind === 'number') return node.text;
  return undefined;
}

function stringSize(node: VNode | undefined): SizeResult {
  const s = node?.kind === 'string' ? node.value : undefined;
  return s === undefined ? UNKNOWN : { bytes: utf8Length(s), known: true };
}

function numberNodeSize(node: VNode | undefined): SizeResult {
  const t = scalarString(node);
  const n = t === undefined ? undefined : numberSize(t);
  return n === undefined ? UNKNOWN : { bytes: n, known: true };
}

/** Low-level binary: the SDK takes bytes (`Uint8Array`), JSON/CLI take base64 text. */
function binarySize(node: VNode | undefined): SizeResult {
  if (node?.kind === 'string') {
    const n = base64DecodedLength(node.value);
    return n === undefined ? UNKNOWN : { bytes: n, known: true };
  }
  return node?.kind === 'binary' && node.length !== undefined ? { bytes: node.length, known: true } : UNKNOWN;
}

function listOf(node: VNode | undefined, each: (v: VNode) => SizeResult): SizeResult {
  if (node?.kind !== 'array' && node?.kind !== 'set') return UNKNOWN;
  const r = sum(node.items.map(each));
  return node.kind === 'array' && !node.complete ? { ...r, known: false } : r;
}

/** Size of one attribute value (without its name). */
export function valueSize(node: VNode | undefined, style: ValueStyle): SizeResult {
  if (!node) return UNKNOWN;
  return style === 'low-level' ? lowLevelSize(node) : documentSize(node);
}

function documentContainer(entries: SizeResult[], complete: boolean): SizeResult {
  // 3 bytes of overhead + 1 byte per element (+ the element, + its name in a map).
  const r = sum(entries, 3 + entries.length);
  return complete ? r : { ...r, known: false };
}

function mapSize(obj: ObjectNode, style: ValueStyle): SizeResult {
  return documentContainer(
    obj.properties.map((p) => sum([{ bytes: utf8Length(p.key), known: true }, valueSize(p.value, style)])),
    obj.complete,
  );
}

function lowLevelSize(node: VNode): SizeResult {
  if (node.kind !== 'object' || node.properties.length !== 1) return UNKNOWN;
  const { key, value } = node.properties[0];
  switch (key) {
    case 'S':
      return stringSize(value);
    case 'N':
      return numberNodeSize(value);
    case 'B':
      return binarySize(value);
    case 'BOOL':
    case 'NULL':
      return { bytes: 1, known: true };
    case 'SS':
      return listOf(value, stringSize);
    case 'NS':
      return listOf(value, numberNodeSize);
    case 'BS':
      return listOf(value, binarySize);
    case 'L':
      return value.kind === 'array' ? documentContainer(value.items.map(lowLevelSize), value.complete) : UNKNOWN;
    case 'M':
      return value.kind === 'object' ? mapSize(value, 'low-level') : UNKNOWN;
    default:
      return UNKNOWN;
  }
}

function documentSize(node: VNode): SizeResult {
  switch (node.kind) {
    case 'string':
      return { bytes: utf8Length(node.value), known: true };
    case 'number':
      return numberNodeSize(node);
    case 'bool':
    case 'null':
      return { bytes: 1, known: true };
    case 'set':
      return listOf(node, documentSize);
    case 'array':
      return documentContainer(node.items.map(documentSize), node.complete);
    case 'object':
      return mapSize(node, 'document');
    case 'binary':
      return node.length === undefined ? UNKNOWN : { bytes: node.length, known: true };
    default:
      return UNKNOWN;
  }
}

/** Size of an item (or a key) written as a literal map of attribute name -> value. */
export function itemSize(item: VNode | undefined, style: ValueStyle): SizeResult {
  if (!item || item.kind !== 'object') return UNKNOWN;
  const r = sum(item.properties.map((p) => sum([{ bytes: utf8Length(p.key), known: true }, valueSize(p.value, style)])));
  return item.complete ? r : { ...r, known: false };
}
