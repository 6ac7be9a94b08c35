/**
 * Compact value nodes (issue 11, server memory): a map entry, a map and an unknown value whose ranges are number fields instead of
 * `Range` objects. A `Range` is a 40-byte object of its own; a 50,000-line TypeScript file holds ~92,500 entries
 * (a key range and an entry range each) and ~47,500 maps, so the TypeScript host builds these (136 -> 72 bytes an
 * entry, 96 -> 64 a map). They satisfy `Property` / `ObjectNode`: `range` and `keyRange` are getters handing out a
 * fresh `Range` each read (a caller may keep or change it: the node does not move with it) and setters copying one
 * in. What moves them is `shiftSite` / `shiftTree` (extract/remap.ts), which read the fields. They serialise like the
 * plain literals (`toJSON`, same keys in the same order), so a JSON comparison cannot tell them apart; a copy must be
 * made with `withValue` / `withProperties` (a spread would copy the fields, not the ranges).
 */
import type { ObjectNode, Property, Range, UnknownNode, VNode } from './values';

/**
 * A node whose `range` is the two number fields `s..e`: the getter hands out a fresh `Range`, the setter copies one in.
 * The compact nodes below and plain strings (core/strings.ts) extend it.
 */
export abstract class Spanned {
  constructor(
    public s: number,
    public e: number,
  ) {}

  get range(): Range {
    return { start: this.s, end: this.e };
  }

  set range(r: Range) {
    this.s = r.start;
    this.e = r.end;
  }
}

/** A `key: value` entry: `keyRange` is `ks..ke`, `range` (the whole entry) `s..e`. */
export class Entry extends Spanned implements Property {
  constructor(
    public key: string,
    public value: VNode,
    public ks: number,
    public ke: number,
    s: number,
    e: number,
  ) {
    super(s, e);
  }

  get keyRange(): Range {
    return { start: this.ks, end: this.ke };
  }

  set keyRange(r: Range) {
    this.ks = r.start;
    this.ke = r.end;
  }

  toJSON(): Property {
    return { key: this.key, keyRange: this.keyRange, value: this.value, range: this.range };
  }
}

/** A map whose `range` is `s..e`. */
export class ObjNode extends Spanned implements ObjectNode {
  readonly kind = 'object' as const;

  constructor(
    public properties: Property[],
    public complete: boolean,
    s: number,
    e: number,
  ) {
    super(s, e);
  }

  toJSON(): ObjectNode {
    return { kind: 'object', properties: this.properties, complete: this.complete, range: this.range };
  }
}

/** An unknown value whose `range` is `s..e` (`type` as in `UnknownNode`; `sign` is never set on one). */
export class UnkNode extends Spanned implements UnknownNode {
  readonly kind = 'unknown' as const;

  constructor(
    public text: string | undefined,
    public type: 'S' | undefined,
    s: number,
    e: number,
  ) {
    super(s, e);
  }

  toJSON(): UnknownNode {
    // Undefined fields are left out by JSON, as absent ones are.
    return { kind: 'unknown', range: this.range, text: this.text, type: this.type };
  }
}

/** V8 makes a substring this long or longer a slice of its parent (a view that keeps the whole parent alive). */
const SLICE_MIN = 13;
/** Longer ones are copied without the string table (V8 hashes a long string by its length only). */
const INTERN_MAX = 4096;

/**
 * `s` as a string of its own, not a slice of the text it was read from. The values a site keeps (a literal's text, an
 * unknown value's source) are substrings of the document's text; in V8 a substring of 13 chars or more is a slice
 * that keeps its parent alive, so the sites of the first extraction that an edit leaves in place kept that version's
 * whole text (2.75 MB for a 50,000-line file) for as long as the document was open. The copy is V8's string table's
 * (a property key is internalized): equal values share one string, and nothing is kept once no site holds it.
 */
export function detached(s: string): string {
  if (s.length < SLICE_MIN) return s;
  if (s.length > INTERN_MAX) return (' ' + s).slice(1);
  const key: Record<string, 0> = { [s]: 0 };
  for (const k in key) return k;
  return s;
}

/** A compact unknown value (the range's numbers are copied; `text` detached from the document's text). */
export function unknownNode(range: Range, text?: string, type?: 'S'): UnknownNode {
  return new UnkNode(text === undefined ? text : detached(text), type, range.start, range.end);
}

/** A compact entry (the ranges' numbers are copied, the objects not kept; the key detached from the document's text). */
export function entry(key: string, keyRange: Range, value: VNode, range: Range): Property {
  return new Entry(detached(key), value, keyRange.start, keyRange.end, range.start, range.end);
}

/** A compact map (the range's numbers are copied). */
export function objectNode(properties: Property[], complete: boolean, range: Range): ObjectNode {
  return new ObjNode(properties, complete, range.start, range.end);
}

/** A copy of an entry holding another value, of the entry's own form (its ranges copied). */
export function withValue(p: Property, value: VNode): Property {
  if (p instanceof Entry) return new Entry(p.key, value, p.ks, p.ke, p.s, p.e);
  return { ...p, value };
}

/** A copy of a map with other entries (and completeness), of the map's own form. */
export function withProperties(o: ObjectNode, properties: Property[], complete = o.complete): ObjectNode {
  if (o instanceof ObjNode) return new ObjNode(properties, complete, o.s, o.e);
  return { ...o, properties, complete };
}

/** A copy of a map sharing no range with it, holding `properties`. */
export function cloneObject(o: ObjectNode, properties: Property[]): ObjectNode {
  if (o instanceof ObjNode) return new ObjNode(properties, o.complete, o.s, o.e);
  return { ...o, range: { ...o.range }, properties };
}

/** A copy of an entry sharing no range with it, holding `value`. */
export function cloneEntry(p: Property, value: VNode): Property {
  if (p instanceof Entry) return new Entry(p.key, value, p.ks, p.ke, p.s, p.e);
  return { key: p.key, keyRange: { ...p.keyRange }, value, range: { ...p.range } };
}
