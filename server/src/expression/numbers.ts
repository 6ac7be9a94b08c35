/** DynamoDB number and string semantics needed for static checks: significant digits, range, ordering. */

export interface Decimal {
  negative: boolean;
  /** Significant digits, no leading/trailing zeros ('' for zero). */
  digits: string;
  /** Value = 0.digits * 10^exponent. */
  exponent: number;
}

/** DynamoDB's number text: no surrounding whitespace (DynamoDB Local rejects `" 5"` and `"5 "`), `.5` and `5.` allowed. */
const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parse DynamoDB number text (`-1.50`, `1e3`, `007`); undefined when it is not a number. */
export function parseDecimal(text: string): Decimal | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const int = m[2];
  const frac = m[3] ?? '';
  if (int.length + frac.length === 0) return undefined;
  const all = int + frac;
  let lead = 0;
  while (lead < all.length && all[lead] === '0') lead++;
  let trail = all.length;
  while (trail > lead && all[trail - 1] === '0') trail--;
  const digits = all.slice(lead, trail);
  const exp = Number(m[4] ?? '0');
  return { negative: m[1] === '-' && digits.length > 0, digits, exponent: int.length - lead + exp };
}

/** A key equal for numerically equal DynamoDB numbers (`1`, `1.0`, `+1`, `1e0`, `01`; `0` and `-0`); undefined if not a number. */
export function numberKey(text: string): string | undefined {
  const d = parseDecimal(text);
  if (!d) return undefined;
  return d.digits ? `${d.negative ? '-' : ''}${d.digits}e${d.exponent}` : '0';
}

export type NumberProblem = { kind: 'invalid' } | { kind: 'precision'; digits: number } | { kind: 'range' };

/** Why DynamoDB rejects this number text, if it does (38 significant digits; magnitude 1E-130 .. 9.99..E+125). */
export function numberProblem(text: string): NumberProblem | undefined {
  const d = parseDecimal(text);
  if (!d) return { kind: 'invalid' };
  if (d.digits.length > 38) return { kind: 'precision', digits: d.digits.length };
  if (d.digits.length > 0 && (d.exponent > 126 || d.exponent < -129)) return { kind: 'range' };
  return undefined;
}

/** Compare two DynamoDB numbers; undefined if either is not a number. */
export function compareNumbers(a: string, b: string): number | undefined {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return undefined;
  const sx = x.digits ? (x.negative ? -1 : 1) : 0;
  const sy = y.digits ? (y.negative ? -1 : 1) : 0;
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (sx === 0) return 0;
  let mag: number;
  if (x.exponent !== y.exponent) mag = x.exponent < y.exponent ? -1 : 1;
  else {
    const n = Math.max(x.digits.length, y.digits.length);
    const dx = x.digits.padEnd(n, '0');
    const dy = y.digits.padEnd(n, '0');
    mag = dx === dy ? 0 : dx < dy ? -1 : 1;
  }
  return sx * mag;
}

/** Compare strings the way DynamoDB does: by UTF-8 bytes, i.e. by code points. */
export function compareStrings(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Compare binaries as DynamoDB does: unsigned bytes. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
