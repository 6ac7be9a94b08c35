/**
 * String nodes, host-independent: the builder every escape decoder (extract/strings.ts, extract/host-strings.ts) feeds,
 * literals without escapes (offsets computed, not stored), and the operations the extractors' incremental paths and the
 * data flow apply to them (copy, shift, join). The `StringNode.offsets` contract is in ./values.
 */
import { Spanned, detached } from './compact';
import type { Range, StringNode } from './values';

/** Accumulates decoded characters with the document offset of the source text that produced each one. */
export class StringBuilder {
  private chars: string[] = [];
  readonly offsets: number[] = [];

  push(s: string, at: number): void {
    for (let i = 0; i < s.length; i++) {
      this.chars.push(s[i]);
      this.offsets.push(at);
    }
  }

  node(end: number, range: Range): StringNode {
    return { kind: 'string', value: this.chars.join(''), offsets: [...this.offsets, end], range };
  }
}

/**
 * A literal without escapes: one source char per value char, so `offsets` is `base + i`. Materialised on first read
 * (most strings of a large file are never looked at character by character) into a private field (invisible to
 * deepEqual and JSON, as the WeakMap it replaced: deleting from that at every shift was most of the cost of moving the
 * sites after an edit); a shift of `base` drops it. Its range is two number fields (`s..e`, no `Range` object of 40
 * bytes: ~40,000 such strings in a 50,000-line file): `range` hands out a fresh object (see core/compact.ts), so it is
 * moved by its document's `Moves` or by `shiftString` / `shiftPlains`, never through `range`. Serialises like a plain
 * node.
 */
class PlainString extends Spanned implements StringNode {
  readonly kind = 'string' as const;
  #offsets: number[] | undefined = undefined;
  #base: number;

  constructor(
    readonly value: string,
    base: number,
    range: Range,
  ) {
    super(range.start, range.end);
    this.#base = base;
  }

  get base(): number {
    if (this.pending) this.catchUp();
    return this.#base;
  }

  get offsets(): number[] {
    if (this.pending) this.catchUp();
    let o = this.#offsets;
    if (!o) {
      o = new Array<number>(this.value.length + 1);
      for (let i = 0; i <= this.value.length; i++) o[i] = this.#base + i;
      this.#offsets = o;
    }
    return o;
  }

  /** Move `base` (and so every offset) to `base`. */
  rebase(base: number): void {
    if (this.pending) this.catchUp();
    if (base === this.#base) return;
    this.#base = base;
    this.#offsets = undefined;
  }

  protected override move(from: number, diff: number): void {
    if (this.#base >= from) {
      this.#base += diff;
      this.#offsets = undefined;
    }
    super.move(from, diff);
  }

  protected override reach(): number {
    return Math.max(this.#base + this.value.length, super.reach());
  }

  toJSON(): StringNode {
    return { kind: 'string', value: this.value, offsets: this.offsets, range: this.range };
  }
}

/** The document offset of a plain string's first char (its chars are `base + i`), or undefined for any other string. */
export function plainBase(s: StringNode): number | undefined {
  return s instanceof PlainString ? s.base : undefined;
}

/** A literal without escapes (its value detached from the document's text: see `detached`). */
export function plain(raw: string, base: number, range: Range): StringNode {
  return new PlainString(detached(raw), base, range);
}

/** A copy of a string node that shares nothing a shift changes (ranges, offsets). */
export function cloneString(s: StringNode): StringNode {
  if (s instanceof PlainString) return new PlainString(s.value, s.base, s.range);
  const out: StringNode = { kind: 'string', value: s.value, offsets: [...s.offsets], range: { ...s.range } };
  if (s.ends) out.ends = [...s.ends];
  return out;
}

/** Shift, in place, every document offset of a string node through `move` (monotonic). */
export function shiftString(s: StringNode, move: (o: number) => number): void {
  if (s instanceof PlainString) {
    s.s = move(s.s);
    s.e = move(s.e);
    s.rebase(move(s.base));
    return;
  }
  s.range.start = move(s.range.start);
  s.range.end = move(s.range.end);
  for (let i = 0; i < s.offsets.length; i++) s.offsets[i] = move(s.offsets[i]);
  if (s.ends) for (let i = 0; i < s.ends.length; i++) s.ends[i] = move(s.ends[i]);
}

/**
 * What a shift of a string node moves, added to lists a caller keeps to shift them later without walking the node
 * (`shiftSite`): its range, its offset arrays (`offsets`, `ends`) or, for a literal without escapes, the node itself
 * (see `shiftPlains`). Never materialises a plain string's offsets.
 */
export function stringParts(s: StringNode, ranges: Range[], arrays: number[][], plains: StringNode[]): void {
  if (s instanceof PlainString) {
    // One that takes its document's moves when read is not moved in place (core/compact.ts `Moves`).
    if (!s.lazy) plains.push(s);
    return;
  }
  ranges.push(s.range);
  arrays.push(s.offsets);
  if (s.ends) arrays.push(s.ends);
}

/**
 * Move the plain strings `stringParts` listed, `list[start..end)` (their range and base): `+ diff` when `>= from`.
 */
export function shiftPlains(list: readonly unknown[], start: number, end: number, from: number, diff: number): void {
  for (let i = start; i < end; i++) {
    (list[i] as PlainString).shift(from, diff);
  }
}

/** The largest document offset a string node mentions. */
export function maxOffset(s: StringNode): number {
  if (s instanceof PlainString) return s.e;
  let m = s.range.end;
  for (const o of s.offsets) if (o > m) m = o;
  return m;
}

/** Join resolved pieces (`"a" + "b"`, Python implicit concatenation) into one node spanning `range`. */
export function concatStrings(pieces: StringNode[], range: Range): StringNode {
  if (pieces.length === 1) {
    const p = pieces[0];
    if (p.range.start === range.start && p.range.end === range.end) return p;
    if (p instanceof PlainString) return new PlainString(p.value, p.base, range);
    return { kind: 'string', value: p.value, offsets: p.offsets, ...(p.ends ? { ends: p.ends } : {}), range };
  }
  const offsets: number[] = [];
  const ends: number[] = [];
  for (const p of pieces)
    for (let i = 0; i < p.value.length; i++) {
      offsets.push(p.offsets[i]);
      ends.push(p.ends ? p.ends[i] : p.offsets[i + 1]);
    }
  offsets.push(pieces[pieces.length - 1].offsets[pieces[pieces.length - 1].value.length]);
  return { kind: 'string', value: pieces.map((p) => p.value).join(''), offsets, ends, range };
}

/**
 * A copy of a string that shares no memory with the one it was cut from. A slice is a view of the whole string in V8:
 * a unit keeping its statement's text (or a site its strings) kept every version of a large document alive with it
 * (2.8 MB more per edited statement of a 50,000-line file). Concatenation then slicing makes V8 flatten a new string.
 */
export function ownCopy(s: string): string {
  return (' ' + s).slice(1);
}
