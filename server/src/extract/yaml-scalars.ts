/**
 * YAML scalar decoding with a document offset per produced character (the `StringNode.offsets` contract in model.ts):
 * plain, single-quoted (`''`), double-quoted (`\` escapes, escaped line breaks) and block scalars (`|`, `>`, with
 * indentation indicators and chomping), line folding included. The `yaml` package gives the values but no offsets
 * inside them; the caller compares our value with the package's and treats a disagreement as unknown, so a range is
 * exact or absent, never approximate.
 */
import { Range, StringNode } from './model';
import { plain } from '../core/strings';

/** Characters with offsets, where trailing blanks of a line can be taken back when the line folds. */
class Builder {
  readonly chars: string[] = [];
  readonly offs: number[] = [];
  /** Number of chars at the end that are unescaped blanks (trimmed when a line break follows). */
  private blanks = 0;

  push(c: string, at: number, blank = false): void {
    this.chars.push(c);
    this.offs.push(at);
    this.blanks = blank ? this.blanks + 1 : 0;
  }

  /** The blanks so far are content (before an escaped line break). */
  keepBlanks(): void {
    this.blanks = 0;
  }

  /** Drop the trailing blanks; returns where the first dropped one was (or `fallback`). */
  trim(fallback: number): number {
    let at = fallback;
    while (this.blanks > 0) {
      this.chars.pop();
      at = this.offs.pop()!;
      this.blanks--;
    }
    return at;
  }

  node(end: number, range: Range): StringNode {
    return { kind: 'string', value: this.chars.join(''), offsets: [...this.offs, end], range };
  }
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
const isBreak = (c: string | undefined) => c === '\n' || c === '\r';

/** Skip one line break (`\n`, `\r\n`, `\r`) at `i`. */
function skipBreak(s: string, i: number): number {
  return s[i] === '\r' && s[i + 1] === '\n' ? i + 2 : i + 1;
}

/**
 * At a line break inside a flow scalar (plain or quoted): trailing blanks are dropped, empty lines counted, the next
 * line's leading blanks skipped; one break folds to a space, n+1 breaks to n newlines. Returns the index after it all.
 */
function fold(s: string, i: number, base: number, b: Builder): number {
  const at = b.trim(base + i);
  const breaks: number[] = [];
  let j = i;
  for (;;) {
    breaks.push(base + j);
    j = skipBreak(s, j);
    while (isBlank(s[j])) j++;
    if (!isBreak(s[j])) break;
  }
  if (breaks.length === 1) b.push(' ', at);
  else for (let k = 1; k < breaks.length; k++) b.push('\n', k === 1 ? at : breaks[k - 1]);
  return j;
}

/** A plain (unquoted) scalar: `src` is its source text, starting at document offset `base`. */
export function decodePlain(src: string, base: number, range: Range): StringNode {
  if (!/[\r\n]/.test(src)) return plain(src, base, range);
  const b = new Builder();
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (isBreak(c)) {
      i = fold(src, i, base, b);
      continue;
    }
    b.push(c, base + i, isBlank(c));
    i++;
  }
  const end = b.trim(base + src.length);
  return b.node(end, range);
}

/** A single-quoted scalar: `src` includes the quotes. */
export function decodeSingle(src: string, base: number, range: Range): StringNode {
  const body = src.slice(1, src.endsWith("'") && src.length > 1 ? -1 : undefined);
  if (!body.includes("'") && !/[\r\n]/.test(body)) return plain(body, base + 1, range);
  const b = new Builder();
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === "'" && body[i + 1] === "'") {
      b.push("'", base + 1 + i);
      i += 2;
      continue;
    }
    if (isBreak(c)) {
      i = fold(body, i, base + 1, b);
      continue;
    }
    b.push(c, base + 1 + i, isBlank(c));
    i++;
  }
  return b.node(base + 1 + body.length, range);
}

const DQ_ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"',
  '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

/** A double-quoted scalar: `src` includes the quotes. */
export function decodeDouble(src: string, base: number, range: Range): StringNode {
  const body = src.slice(1, src.endsWith('"') && src.length > 1 ? -1 : undefined);
  const at0 = base + 1;
  if (!body.includes('\\') && !/[\r\n]/.test(body)) return plain(body, at0, range);
  const b = new Builder();
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      const e = body[i + 1];
      if (isBreak(e)) {
        // Escaped line break: nothing is produced, the next line's leading blanks are skipped.
        let j = skipBreak(body, i + 1);
        while (isBlank(body[j])) j++;
        b.keepBlanks();
        i = j;
        continue;
      }
      const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (width) {
        const hex = body.slice(i + 2, i + 2 + width);
        if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) return b.node(at0 + body.length, range);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) return b.node(at0 + body.length, range);
        const s = String.fromCodePoint(cp);
        for (const ch of s) b.push(ch, at0 + i);
        i += 2 + width;
        continue;
      }
      const out = DQ_ESCAPES[e];
      if (out === undefined) return b.node(at0 + body.length, range);
      b.push(out, at0 + i);
      i += 2;
      continue;
    }
    if (isBreak(c)) {
      i = fold(body, i, at0, b);
      continue;
    }
    b.push(c, at0 + i, isBlank(c));
    i++;
  }
  return b.node(at0 + body.length, range);
}

/**
 * A block scalar (`|` literal, `>` folded). `text` is the document, `start` the offset of its `|`/`>` header, `end` the
 * end of its content, `parentIndent` the indentation of the node that holds it (the `yaml` CST token's `indent`).
 */
export function decodeBlock(text: string, start: number, end: number, parentIndent: number, range: Range): StringNode | undefined {
  const header = /^([|>])([1-9+-]?)([1-9+-]?)/.exec(text.slice(start, start + 3));
  if (!header) return undefined;
  const folded = header[1] === '>';
  let explicit = 0;
  let chomp: 'clip' | 'strip' | 'keep' = 'clip';
  for (const h of [header[2], header[3]]) {
    if (h === '-') chomp = 'strip';
    else if (h === '+') chomp = 'keep';
    else if (h) explicit = Number(h);
  }
  const nl = text.indexOf('\n', start);
  if (nl < 0 || nl >= end) return { kind: 'string', value: '', offsets: [end], range };
  // Lines of the content: [start, end) of each, without its break.
  const lines: { s: number; e: number; brk: number | undefined }[] = [];
  for (let p = nl + 1; p < end; ) {
    let q = p;
    while (q < end && text[q] !== '\n') q++;
    const e = q > p && text[q - 1] === '\r' ? q - 1 : q;
    lines.push({ s: p, e, brk: q < end ? e : undefined });
    p = q + 1;
  }
  let indent = explicit ? parentIndent + explicit : -1;
  if (indent < 0) {
    for (const l of lines) {
      let k = l.s;
      while (k < l.e && text[k] === ' ') k++;
      if (k < l.e) {
        indent = k - l.s;
        break;
      }
    }
    if (indent < 0) indent = lines.reduce((m, l) => Math.max(m, l.e - l.s), 0);
  }
  const b = new Builder();
  /** Content lines: offset of first content char, or undefined for an empty line. */
  const content = lines.map((l) => {
    if (l.e - l.s <= indent && /^ *$/.test(text.slice(l.s, l.e))) return undefined;
    return l.s + indent;
  });
  let last = content.length - 1;
  while (last >= 0 && content[last] === undefined) last--;
  const moreIndented = (k: number) => isBlank(text[content[k]!]);
  let pendingBreaks: number[] = [];
  let prev = -1;
  for (let k = 0; k <= last; k++) {
    const c = content[k];
    if (c === undefined) {
      pendingBreaks.push(lines[k].brk ?? lines[k].e);
      continue;
    }
    if (prev >= 0) {
      const brk = lines[prev].brk ?? lines[prev].e;
      if (folded && !moreIndented(prev) && !moreIndented(k)) {
        if (pendingBreaks.length === 0) b.push(' ', brk);
        else for (const x of pendingBreaks) b.push('\n', x);
      } else {
        b.push('\n', brk);
        for (const x of pendingBreaks) b.push('\n', x);
      }
    } else for (const x of pendingBreaks) b.push('\n', x);
    pendingBreaks = [];
    for (let i = c; i < lines[k].e; i++) b.push(text[i], i);
    prev = k;
  }
  let stop = prev >= 0 ? lines[prev].e : end;
  if (prev >= 0 && chomp !== 'strip' && lines[prev].brk !== undefined) {
    b.push('\n', lines[prev].brk!);
    stop = lines[prev].brk! + 1;
    if (chomp === 'keep')
      for (let k = prev + 1; k < lines.length; k++)
        if (lines[k].brk !== undefined) {
          b.push('\n', lines[k].brk!);
          stop = lines[k].brk! + 1;
        }
  }
  return b.node(stop, range);
}
