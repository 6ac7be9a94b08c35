/**
 * String decoding with a document offset per produced character (the `StringNode.offsets` contract in model.ts).
 * One builder, three escape dialects: JSON, JavaScript/TypeScript (string and template literals) and Python.
 */
import type { Range, StringNode } from '../core/values';
import { StringBuilder, plain } from '../core/strings';


const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
const HEX = /^[0-9a-fA-F]+$/;

function hexAt(raw: string, i: number, n: number): number | undefined {
  const h = raw.slice(i, i + n);
  return h.length === n && HEX.test(h) ? parseInt(h, 16) : undefined;
}

/**
 * Decode the body of a JSON or JavaScript string/template literal (`raw` = text between the quotes, starting at
 * document offset `base`). Template literals also normalise CRLF to LF like the language does.
 */
export function decodeJs(raw: string, base: number, range: Range, template = false): StringNode {
  if (!raw.includes('\\') && !(template && raw.includes('\r'))) return plain(raw, base, range);
  const b = new StringBuilder();
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '\r' && template) {
      b.push('\n', base + i);
      i += raw[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    if (c !== '\\' || i + 1 >= raw.length) {
      b.push(c, base + i);
      i++;
      continue;
    }
    const e = raw[i + 1];
    const at = base + i;
    if (e === 'u') {
      if (raw[i + 2] === '{') {
        const close = raw.indexOf('}', i + 3);
        const cp = close > 0 && HEX.test(raw.slice(i + 3, close)) ? parseInt(raw.slice(i + 3, close), 16) : undefined;
        if (cp !== undefined && cp <= 0x10ffff) {
          b.push(String.fromCodePoint(cp), at);
          i = close + 1;
          continue;
        }
      } else {
        const cp = hexAt(raw, i + 2, 4);
        if (cp !== undefined) {
          b.push(String.fromCharCode(cp), at);
          i += 6;
          continue;
        }
      }
    } else if (e === 'x') {
      const cp = hexAt(raw, i + 2, 2);
      if (cp !== undefined) {
        b.push(String.fromCharCode(cp), at);
        i += 4;
        continue;
      }
    } else if (e === '\r' || e === '\n' || e === '\u2028' || e === '\u2029') {
      // Line continuation: produces nothing.
      i += e === '\r' && raw[i + 2] === '\n' ? 3 : 2;
      continue;
    }
    b.push(SIMPLE_ESCAPES[e] ?? e, at);
    i += 2;
  }
  return b.node(base + raw.length, range);
}


const PY_SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', a: '\x07', '\\': '\\', "'": "'", '"': '"' };

/**
 * Decode one Python string literal body. `prefix` is the literal's prefix letters (r, b, u, f in any case/order).
 * Returns undefined for f-strings with substitutions (`{x}`); `{{`/`}}` decode to braces.
 */
export function decodePython(raw: string, base: number, prefix: string, range: Range): StringNode | undefined {
  const p = prefix.toLowerCase();
  if (!raw.includes('\\') && !(p.includes('f') && (raw.includes('{') || raw.includes('}')))) return plain(raw, base, range);
  const isRaw = p.includes('r');
  const isBytes = p.includes('b');
  const isF = p.includes('f');
  const b = new StringBuilder();
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    const at = base + i;
    if (isF && (c === '{' || c === '}')) {
      if (raw[i + 1] !== c) return undefined;
      b.push(c, at);
      i += 2;
      continue;
    }
    if (c !== '\\' || i + 1 >= raw.length) {
      b.push(c, at);
      i++;
      continue;
    }
    const e = raw[i + 1];
    if (isRaw) {
      // A raw string keeps the backslash; it only stops the next quote from closing the literal.
      b.push(c, at);
      b.push(e, at + 1);
      i += 2;
      continue;
    }
    if (e === '\n' || e === '\r') {
      i += e === '\r' && raw[i + 2] === '\n' ? 3 : 2;
      continue;
    }
    if (PY_SIMPLE[e] !== undefined) {
      b.push(PY_SIMPLE[e], at);
      i += 2;
      continue;
    }
    if (e >= '0' && e <= '7') {
      let j = i + 1;
      while (j < i + 4 && raw[j] >= '0' && raw[j] <= '7') j++;
      b.push(String.fromCharCode(parseInt(raw.slice(i + 1, j), 8)), at);
      i = j;
      continue;
    }
    const width = e === 'x' ? 2 : !isBytes && e === 'u' ? 4 : !isBytes && e === 'U' ? 8 : 0;
    const cp = width ? hexAt(raw, i + 2, width) : undefined;
    if (cp !== undefined && cp <= 0x10ffff) {
      b.push(String.fromCodePoint(cp), at);
      i += 2 + width;
      continue;
    }
    // A named character (`\N{LATIN SMALL LETTER S}`) needs Unicode's name table, which we do not carry: the string is
    // unknown (silent) rather than read with a wrong character that would look like a syntax error.
    if (e === 'N' && !isBytes && raw[i + 2] === '{' && raw.indexOf('}', i + 3) > 0) return undefined;
    b.push(c, at);
    b.push(e, at + 1);
    i += 2;
  }
  return b.node(base + raw.length, range);
}


