/**
 * String decoders for the Go and Java hosts, with the document offset of the source text that produced each char
 * (the `StringNode.offsets` contract in model.ts). Undefined when the literal's value cannot be known exactly (a Go
 * byte escape above 0x7f builds UTF-8 from bytes; a malformed escape): the caller makes the value unknown.
 */
import { Range, StringNode } from './model';
import { StringBuilder, plain } from '../core/strings';

const GO_SIMPLE: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };
const HEX = /^[0-9a-fA-F]+$/;

/** The body of a Go interpreted string literal (`raw` = text between the double quotes, at document offset `base`). */
export function decodeGo(raw: string, base: number, range: Range): StringNode | undefined {
  if (!raw.includes('\\')) return plain(raw, base, range);
  const b = new StringBuilder();
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    const at = base + i;
    if (c !== '\\') {
      b.push(c, at);
      i++;
      continue;
    }
    const e = raw[i + 1];
    if (e !== undefined && GO_SIMPLE[e] !== undefined) {
      b.push(GO_SIMPLE[e], at);
      i += 2;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (width) {
      const h = raw.slice(i + 2, i + 2 + width);
      if (h.length !== width || !HEX.test(h)) return undefined;
      const cp = parseInt(h, 16);
      // \xNN is one byte: above 0x7f it is part of a UTF-8 sequence we do not reassemble.
      if ((e === 'x' && cp > 0x7f) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      b.push(String.fromCodePoint(cp), at);
      i += 2 + width;
      continue;
    }
    if (e !== undefined && /[0-7]/.test(e)) {
      const o = raw.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(o) || parseInt(o, 8) > 0x7f) return undefined;
      b.push(String.fromCharCode(parseInt(o, 8)), at);
      i += 4;
      continue;
    }
    return undefined;
  }
  return b.node(base + raw.length, range);
}

/** The body of a Go raw string literal (between backquotes): as written, carriage returns discarded (the spec). */
export function decodeGoRaw(raw: string, base: number, range: Range): StringNode {
  if (!raw.includes('\r')) return plain(raw, base, range);
  const b = new StringBuilder();
  for (let i = 0; i < raw.length; i++) if (raw[i] !== '\r') b.push(raw[i], base + i);
  return b.node(base + raw.length, range);
}

const JAVA_SIMPLE: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', s: ' ', '"': '"', "'": "'", '\\': '\\' };

/** One source char of a Java literal after `\uXXXX` translation (which happens before anything else), with its extent. */
interface JChar {
  c: string;
  at: number;
  end: number;
}

/** Java's first translation step: unicode escapes (`\u0041`, `\uuu0041`; `\\u` is not one). Undefined when malformed. */
function javaChars(raw: string, base: number): JChar[] | undefined {
  const out: JChar[] = [];
  let i = 0;
  while (i < raw.length) {
    if (raw[i] === '\\' && raw[i + 1] === 'u') {
      // A backslash preceded by an odd number of backslashes is itself escaped.
      let n = 0;
      for (let k = out.length - 1; k >= 0 && out[k].c === '\\' && out[k].end - out[k].at === 1; k--) n++;
      if (n % 2 === 0) {
        let j = i + 1;
        while (raw[j] === 'u') j++;
        const h = raw.slice(j, j + 4);
        if (h.length !== 4 || !HEX.test(h)) return undefined;
        out.push({ c: String.fromCharCode(parseInt(h, 16)), at: base + i, end: base + j + 4 });
        i = j + 4;
        continue;
      }
    }
    out.push({ c: raw[i], at: base + i, end: base + i + 1 });
    i++;
  }
  return out;
}

/** Escape sequences of a Java string or text block body (already unicode-translated). */
function javaEscapes(chars: JChar[], b: StringBuilder, textBlock: boolean): boolean {
  for (let i = 0; i < chars.length; i++) {
    const { c, at } = chars[i];
    if (c !== '\\') {
      b.push(c, at);
      continue;
    }
    const e = chars[i + 1]?.c;
    if (e === undefined) return false;
    if (JAVA_SIMPLE[e] !== undefined) {
      b.push(JAVA_SIMPLE[e], at);
      i++;
    } else if (/[0-7]/.test(e)) {
      // \0 .. \377: up to three octal digits, three only when the first is 0-3.
      let digits = e;
      const max = e <= '3' ? 3 : 2;
      while (digits.length < max && /[0-7]/.test(chars[i + 1 + digits.length]?.c ?? '')) digits += chars[i + 1 + digits.length].c;
      b.push(String.fromCharCode(parseInt(digits, 8)), at);
      i += digits.length;
    } else if (textBlock && e === '\n') i++; // line continuation
    else return false;
  }
  return true;
}

/** The body of a Java string literal (between the double quotes). */
export function decodeJava(raw: string, base: number, range: Range): StringNode | undefined {
  if (!raw.includes('\\')) return plain(raw, base, range);
  const chars = javaChars(raw, base);
  const b = new StringBuilder();
  if (!chars || !javaEscapes(chars, b, false)) return undefined;
  return b.node(base + raw.length, range);
}

/**
 * The body of a Java text block (`raw` = everything between the opening and the closing `"""`, at `base`): the line
 * after the opening delimiter onwards, line terminators normalised to LF, incidental indentation (the smallest of the
 * non-blank lines and the closing line) and trailing spaces removed, then escapes (JLS 3.10.6).
 */
export function decodeJavaTextBlock(raw: string, base: number, range: Range): StringNode | undefined {
  const all = javaChars(raw, base);
  if (!all) return undefined;
  // Skip the rest of the opening line (only blanks may follow `"""`).
  let k = 0;
  while (k < all.length && (all[k].c === ' ' || all[k].c === '\t' || all[k].c === '\f')) k++;
  if (all[k]?.c === '\r') k++;
  if (all[k]?.c !== '\n' && all[k - 1]?.c !== '\r') return undefined;
  if (all[k]?.c === '\n') k++;
  const lines: JChar[][] = [[]];
  for (let i = k; i < all.length; i++) {
    const ch = all[i];
    if (ch.c === '\r' || ch.c === '\n') {
      if (ch.c === '\r' && all[i + 1]?.c === '\n') i++;
      lines[lines.length - 1].push({ c: '\n', at: ch.at, end: all[i].end });
      lines.push([]);
    } else lines[lines.length - 1].push(ch);
  }
  const blank = (l: JChar[]) => l.every((ch) => ch.c === ' ' || ch.c === '\t' || ch.c === '\f' || ch.c === '\n');
  const indent = (l: JChar[]) => {
    let n = 0;
    while (n < l.length && (l[n].c === ' ' || l[n].c === '\t' || l[n].c === '\f')) n++;
    return n;
  };
  const last = lines[lines.length - 1];
  // The closing delimiter's own line counts when it holds only blanks.
  const significant = lines.filter((l, i) => !blank(l) || (i === lines.length - 1 && l.length > 0) || (i === lines.length - 1 && blank(l)));
  // A loop, not Math.min(...): a block of more than ~120,000 lines would throw a RangeError.
  let min = Infinity;
  for (const l of significant) min = Math.min(min, l === last && blank(l) ? l.length : indent(l));
  const out: JChar[] = [];
  for (const l of lines) {
    const nl = l.length && l[l.length - 1].c === '\n' ? l[l.length - 1] : undefined;
    let body = l.slice(Math.min(min, indent(l)), nl ? l.length - 1 : l.length);
    // Trailing white space is stripped; an escape like `\s` or `\040` is not white space yet.
    let e = body.length;
    while (e > 0 && (body[e - 1].c === ' ' || body[e - 1].c === '\t' || body[e - 1].c === '\f')) e--;
    body = body.slice(0, e);
    for (const ch of body) out.push(ch);
    if (nl) out.push(nl);
  }
  const b = new StringBuilder();
  if (!javaEscapes(out, b, true)) return undefined;
  return b.node(base + raw.length, range);
}
