/**
 * The host-independent value model: what a request's parameters hold, as a tree of nodes with exact document offsets
 * (a string's every char maps back to the source text that produced it). Extractors build it (extract/), the data flow
 * folds it through assignments (flow/), the expression validator and the rules read it. It imports nothing but the
 * DynamoDB data model (`./dynamodb`) and the string nodes' representation (`./strings`, which imports only types from
 * here), so every layer above can stand on it.
 */
import type { AttrType } from './dynamodb';
import { plainBase } from './strings';

/** Half-open range of UTF-16 offsets into the document text (what `TextDocument.positionAt` takes). */
export interface Range {
  start: number;
  end: number;
}

/**
 * How values are written in the request.
 * - `low-level`: AttributeValue maps (`{N: "1"}`, `{S: "x"}`), SDK v3 client commands, SDK v2 `DynamoDB`, boto3 client,
 *   AWS CLI JSON.
 * - `document`: native values (`1`, `"x"`, `new Set([...])`, `Decimal(1)`), lib-dynamodb / SDK v2 DocumentClient,
 *   boto3 resource `Table`.
 */
export type ValueStyle = 'low-level' | 'document';

/**
 * A string literal (or a constant/concatenation the extractor could resolve).
 * `offsets[i]` is the document offset of the first source character that produced `value[i]`;
 * `offsets[value.length]` is the document offset just after the last one. So the document range of
 * `value.slice(a, b)` is `{ start: offsets[a], end: offsets[b] }` — through escapes, raw strings, template literals and
 * concatenated pieces. (For a char produced by an escape like `\u0041` the range covers the whole escape.)
 */
export interface StringNode {
  kind: 'string';
  value: string;
  offsets: number[];
  /**
   * Only on strings joined from several pieces (`"a" + B`, Python implicit concatenation, template substitutions):
   * `ends[i]` is the document offset just after the source of `value[i]`. There `offsets[i + 1]` may point into the
   * next piece, so use `stringRange` (which reads `ends`) for the end of a slice.
   */
  ends?: number[];
  range: Range;
}

export interface NumberNode {
  kind: 'number';
  /** The number as written, normalised to decimal text: `1`, `-2.5`, `1e3` (`Decimal("1")` gives `1`). */
  text: string;
  range: Range;
}

export interface BoolNode {
  kind: 'bool';
  value: boolean;
  range: Range;
}

export interface NullNode {
  kind: 'null';
  range: Range;
}

/** Binary data: `Buffer.from(...)`, `Uint8Array`, Python `b"..."`, boto3 `Binary(...)`. */
export interface BinaryNode {
  kind: 'binary';
  range: Range;
  /** Its length in bytes when the source spells it out (`Buffer.from('abc')`, `b'\x00\x01'`, `new Uint8Array([1, 2])`). */
  length?: number;
}

/** A native set: `new Set([...])`, Python `{1, 2}` / `set(...)`, SDK v2 `createSet([...])`. */
export interface SetNode {
  kind: 'set';
  items: VNode[];
  range: Range;
}

export interface ArrayNode {
  kind: 'array';
  items: VNode[];
  /** false when the literal has spreads/comprehensions or elements the extractor could not model. */
  complete: boolean;
  /**
   * How many of `items` are representatives rather than entries: the element a `.map` callback or a comprehension
   * builds stands for zero or more entries. Count `items.length - (samples ?? 0)` for entries known to exist.
   */
  samples?: number;
  /**
   * With `samples`: the list may also hold entries nothing shows, not even a representative (`[...ids.map(f),
   * ...more]`: `more` is unknown). Without `samples`, `complete: false` already says so. Read through `unreadEntries`.
   */
  unread?: true;
  range: Range;
}

/**
 * Whether a list may hold entries of which nothing is known (a spread of an unknown list), as opposed to entries a
 * representative stands for (`samples`: their shape is known).
 */
export const unreadEntries = (a: ArrayNode): boolean => !!a.unread || (!a.complete && !a.samples);

export interface Property {
  key: string;
  keyRange: Range;
  value: VNode;
  /** Range of the whole `key: value` entry (for removal fixes). */
  range: Range;
}

export interface ObjectNode {
  kind: 'object';
  properties: Property[];
  /**
   * false when the object has spreads (`...x`, `**kw`), computed keys, or entries the extractor could not read:
   * then "X is not defined in this map" must not be concluded from its absence.
   */
  complete: boolean;
  range: Range;
}

/** Anything not statically known: a variable, a call, an f-string with substitutions. Rules stay silent about it. */
export interface UnknownNode {
  kind: 'unknown';
  range: Range;
  /** Source text, for messages and hovers (may be truncated). */
  text?: string;
  /**
   * `'S'` when the content is unknown but the host value is surely a string: a template literal or an f-string with
   * substitutions (`${delta}` sent by a DocumentClient is an S, never an N).
   */
  type?: 'S';
  /**
   * A number of unknown magnitude whose sign is known: `-amount` (a negated name) is -1. Counter rules read it as a
   * decrement; nothing else does.
   */
  sign?: 1 | -1;
}

export type VNode = StringNode | NumberNode | BoolNode | NullNode | BinaryNode | SetNode | ArrayNode | ObjectNode | UnknownNode;

/* ------------------------------------------------------------------------------------------------------------------ */
/* Navigation helpers shared by rules, cost and the service.                                                          */

export function prop(obj: VNode | undefined, key: string): VNode | undefined {
  if (!obj || obj.kind !== 'object') return undefined;
  for (let i = obj.properties.length - 1; i >= 0; i--) if (obj.properties[i].key === key) return obj.properties[i].value;
  return undefined;
}

export function propEntry(obj: VNode | undefined, key: string): Property | undefined {
  if (!obj || obj.kind !== 'object') return undefined;
  for (let i = obj.properties.length - 1; i >= 0; i--) if (obj.properties[i].key === key) return obj.properties[i];
  return undefined;
}

export function str(node: VNode | undefined): string | undefined {
  return node && node.kind === 'string' ? node.value : undefined;
}

/** Document range of `node.value.slice(a, b)` for a string node. */
export function stringRange(node: StringNode, a: number, b: number): Range {
  const n = node.value.length;
  const s = Math.max(0, Math.min(a, n));
  const e = Math.max(s, Math.min(b, n));
  // A literal without escapes: offsets are base + i (its offsets array is not built for this).
  const base = plainBase(node);
  if (base !== undefined) return { start: base + s, end: base + e };
  return { start: node.offsets[s], end: e > s ? (node.ends ? node.ends[e - 1] : node.offsets[e]) : node.offsets[s] };
}

/** The type keys of a low-level attribute value (`{N: "1"}`). */
const TYPE_KEYS: ReadonlySet<string> = new Set<AttrType>(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

/** DynamoDB attribute value type of a value node in the given style, or 'unknown'. */
export function attrType(node: VNode | undefined, style: ValueStyle): AttrType {
  if (!node) return 'unknown';
  if (style === 'low-level') {
    if (node.kind !== 'object' || node.properties.length !== 1) return 'unknown';
    const k = node.properties[0].key;
    return TYPE_KEYS.has(k) ? (k as AttrType) : 'unknown';
  }
  switch (node.kind) {
    case 'string':
      return 'S';
    case 'number':
      return 'N';
    case 'bool':
      return 'BOOL';
    case 'null':
      return 'NULL';
    case 'binary':
      return 'B';
    case 'array':
      return 'L';
    case 'object':
      return 'M';
    case 'set': {
      const kinds = new Set(node.items.map((i) => i.kind));
      if (kinds.size === 1 && kinds.has('string')) return 'SS';
      if (kinds.size === 1 && kinds.has('number')) return 'NS';
      if (kinds.size === 1 && kinds.has('binary')) return 'BS';
      return 'unknown';
    }
    case 'unknown':
      return node.type ?? 'unknown';
    default:
      return 'unknown';
  }
}

/** The scalar value inside an attribute value node, as text (`{N: "5"}` or `5` -> "5"), if literal. */
export function scalarText(node: VNode | undefined, style: ValueStyle): string | undefined {
  if (!node) return undefined;
  const inner = style === 'low-level' && node.kind === 'object' && node.properties.length === 1 ? node.properties[0].value : node;
  if (inner.kind === 'string') return inner.value;
  if (inner.kind === 'number') return inner.text;
  return undefined;
}
