/**
 * Compact value nodes (issue 11, server memory): a map entry, a map and an unknown value whose ranges are number fields instead of
 * `Range` objects. A `Range` is a 40-byte object of its own; a 50,000-line TypeScript file holds ~92,500 entries
 * (a key range and an entry range each) and ~47,500 maps, so the TypeScript host builds these (136 -> 72 bytes an
 * entry, 96 -> 64 a map). They satisfy `Property` / `ObjectNode`: `range` and `keyRange` are getters handing out a
 * fresh `Range` each read (a caller may keep or change it: the node does not move with it) and setters copying one
 * in. What moves them is their document's `Moves` (the TypeScript host: taken when an offset is read) or `shiftSite` /
 * `shiftTree` (extract/remap.ts, the other hosts: in place). Their numbers are private fields (`#s`...), read through
 * the getters only (a deep-equal comparison does not see them: compare JSON). They serialise like the plain literals
 * (`toJSON`, same keys in the same order), so a JSON comparison cannot tell them apart; a copy must be made with
 * `withValue` / `withProperties` (a spread would copy neither the fields nor the ranges).
 */
import type { ObjectNode, Property, Range, UnknownNode, VNode } from './values';

/**
 * The moves a document's offsets went through (issue 11, moving the sites after an edit): move `k` is "every offset
 * `>= from[k]` gains `diff[k]`", the rule every extractor applies to what an edit left in place. A compact node born
 * in a document that has one (`bornIn`, the TypeScript host) is not moved at each edit: it records how many moves it
 * has taken (`me`) and takes the others when one of its offsets is read or written (`catchUp`), so an edit no longer
 * touches every node after it (~9,000 objects in the middle of the 5,000-line shapes file, one cache line each).
 * Exact as long as every node of the document that is still in use takes every move recorded after its birth, and a
 * node the document let go takes none (`freeze`): the extractor records a move exactly where it used to move every
 * site it keeps in place (see `TsDocument.moveUnits`).
 */
export class Moves {
  n = 0;
  readonly from: number[] = [];
  readonly diff: number[] = [];
  /**
   * The smallest `from` of each run of `MOVE_BLOCK` moves (the last one filling): a node whose offsets all lie before
   * it takes none of that run's moves, so `catchUp` skips the run. Without it a node first read N edits after its
   * birth looked at all N moves (review: 925 sites read after 8,000 edits at the end of the 5,000-line shapes file,
   * 43 ms before lazy moves, 2,449 ms with them); the log is kept until the next full extraction.
   */
  readonly blockMin: number[] = [];

  record(from: number, diff: number): void {
    const b = this.n >> MOVE_BLOCK_BITS;
    if (b === this.blockMin.length) this.blockMin.push(from);
    else if (from < this.blockMin[b]) this.blockMin[b] = from;
    this.from.push(from);
    this.diff.push(diff);
    this.n++;
  }
}

const MOVE_BLOCK_BITS = 6;
/** Moves per run of `Moves.blockMin`. */
const MOVE_BLOCK = 1 << MOVE_BLOCK_BITS;

/** The moves of nodes moved in place (`shiftSite`, `shiftTree`): none ever recorded. */
export const IN_PLACE = new Moves();

/** Where nodes made now are born: their document's moves and how many of them their offsets already take. */
const birth: { moves: Moves; taken: number } = { moves: IN_PLACE, taken: 0 };

/**
 * Nodes made from now on belong to `moves`, their offsets already after its first `taken` moves (a document's
 * extractor, around its own work, synchronously; `bornInPlace` after it).
 */
export function bornIn(moves: Moves, taken: number): void {
  birth.moves = moves;
  birth.taken = taken;
}

/** Nodes made from now on are moved in place (the default). */
export function bornInPlace(): void {
  birth.moves = IN_PLACE;
  birth.taken = 0;
}

/**
 * A node whose `range` is the two number fields `s..e`: the getter hands out a fresh `Range`, the setter copies one in.
 * The compact nodes below and plain strings (core/strings.ts) extend it. The numbers are stored in `rs`/`re` as of the
 * node's `me` first moves of `ml` (see `Moves`); `s`/`e` (and every other offset a subclass reads) take the rest first.
 */
export abstract class Spanned {
  #s: number;
  #e: number;
  #ml: Moves;
  #me: number;

  constructor(s: number, e: number) {
    this.#s = s;
    this.#e = e;
    this.#ml = birth.moves;
    this.#me = birth.taken;
  }

  get s(): number {
    if (this.#me < this.#ml.n) this.catchUp();
    return this.#s;
  }

  set s(v: number) {
    if (this.#me < this.#ml.n) this.catchUp();
    this.#s = v;
  }

  get e(): number {
    if (this.#me < this.#ml.n) this.catchUp();
    return this.#e;
  }

  set e(v: number) {
    if (this.#me < this.#ml.n) this.catchUp();
    this.#e = v;
  }

  get range(): Range {
    if (this.#me < this.#ml.n) this.catchUp();
    return { start: this.#s, end: this.#e };
  }

  set range(r: Range) {
    if (this.#me < this.#ml.n) this.catchUp();
    this.#s = r.start;
    this.#e = r.end;
  }

  /** The moves the node takes when read (`IN_PLACE` for one moved in place). */
  get moves(): Moves {
    return this.#ml;
  }

  /** Whether the node takes its document's moves when read (else it is moved in place, `shift`). */
  get lazy(): boolean {
    return this.#ml !== IN_PLACE;
  }

  /** Move every offset of the node `>= from` by `diff`, in place (after the moves it has yet to take). */
  shift(from: number, diff: number): void {
    if (this.#me < this.#ml.n) this.catchUp();
    this.move(from, diff);
  }

  /** The node's document let it go: take the moves so far, none after (as a node moved in place no longer is). */
  freeze(): void {
    if (this.#me < this.#ml.n) this.catchUp();
    this.#ml = IN_PLACE;
    this.#me = 0;
  }

  /**
   * Take the moves recorded since the node last did (subclasses check `pending` first). A move changes the node only
   * when its `from` is at or before the node's largest offset (`reach`); whole runs of moves that all start after it
   * are skipped (`Moves.blockMin`).
   */
  protected catchUp(): void {
    const ml = this.#ml;
    const n = ml.n;
    const from = ml.from;
    const mins = ml.blockMin;
    let reach = this.reach();
    let k = this.#me;
    while (k < n) {
      if ((k & (MOVE_BLOCK - 1)) === 0 && k + MOVE_BLOCK <= n && mins[k >> MOVE_BLOCK_BITS] > reach) {
        k += MOVE_BLOCK;
        continue;
      }
      if (from[k] <= reach) {
        this.move(from[k], ml.diff[k]);
        reach = this.reach();
      }
      k++;
    }
    this.#me = n;
  }

  /** The largest offset the node stores (subclasses with more offsets extend it). */
  protected reach(): number {
    return this.#s > this.#e ? this.#s : this.#e;
  }

  /** Whether moves recorded since the node last took them are waiting (`catchUp`). */
  protected get pending(): boolean {
    return this.#me < this.#ml.n;
  }

  /** Move the stored offsets `>= from` by `diff` (subclasses move theirs, then call this). */
  protected move(from: number, diff: number): void {
    if (this.#s >= from) this.#s += diff;
    if (this.#e >= from) this.#e += diff;
  }
}

/** A `key: value` entry: `keyRange` is `ks..ke`, `range` (the whole entry) `s..e`. */
export class Entry extends Spanned implements Property {
  #ks: number;
  #ke: number;

  constructor(
    public key: string,
    public value: VNode,
    ks: number,
    ke: number,
    s: number,
    e: number,
  ) {
    super(s, e);
    this.#ks = ks;
    this.#ke = ke;
  }

  get ks(): number {
    if (this.pending) this.catchUp();
    return this.#ks;
  }

  set ks(v: number) {
    if (this.pending) this.catchUp();
    this.#ks = v;
  }

  get ke(): number {
    if (this.pending) this.catchUp();
    return this.#ke;
  }

  set ke(v: number) {
    if (this.pending) this.catchUp();
    this.#ke = v;
  }

  get keyRange(): Range {
    if (this.pending) this.catchUp();
    return { start: this.#ks, end: this.#ke };
  }

  set keyRange(r: Range) {
    if (this.pending) this.catchUp();
    this.#ks = r.start;
    this.#ke = r.end;
  }

  protected override move(from: number, diff: number): void {
    if (this.#ks >= from) this.#ks += diff;
    if (this.#ke >= from) this.#ke += diff;
    super.move(from, diff);
  }

  protected override reach(): number {
    return Math.max(this.#ks, this.#ke, super.reach());
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

/**
 * An enclosing function (`RequestSite.enclosingFunction`, the TypeScript host) whose `range` is `s..e`, taking its
 * document's moves when read like the nodes above (issue 11: moving the sites after an edit replaced it with a moved
 * copy at every edit, one per function after the edit). Shared by the sites of one function, as the plain object is;
 * never frozen (a site let go holding it gets a plain copy instead: `freezeSites`, extract/remap.ts), since sites still
 * in use may share it. Serialises like the plain `{ name, range }`.
 */
export class FnSpan extends Spanned {
  /** How far the function's node starts before `range.start` (its leading trivia: arms are counted from there). */
  readonly #lead: number;

  constructor(
    public name: string,
    s: number,
    e: number,
    lead = 0,
  ) {
    super(s, e);
    this.#lead = lead;
  }

  get lead(): number {
    return this.#lead;
  }

  toJSON(): { name: string; range: Range } {
    return { name: this.name, range: this.range };
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

/** An enclosing function taking its document's moves when read (the range's numbers are copied; `lead`: see `FnSpan`). */
export function fnSpan(name: string, range: Range, lead: number): FnSpan {
  return new FnSpan(name, range.start, range.end, lead);
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
