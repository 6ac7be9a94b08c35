/**
 * The DynamoDB data model every layer stands on: attribute value types and how DynamoDB measures sizes (item and
 * expression limits are in UTF-8 bytes; a binary attribute counts its decoded bytes). Imports nothing.
 */

/** DynamoDB attribute value type, or 'unknown' when it cannot be told. */
export type AttrType = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'M' | 'L' | 'SS' | 'NS' | 'BS' | 'unknown';

/** UTF-8 byte length of a string (DynamoDB's limits are in bytes). */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Length of the bytes a base64 string decodes to (whitespace ignored), or undefined when it is not base64. */
export function base64DecodedLength(s: string): number | undefined {
  const t = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(t)) return undefined;
  const body = t.replace(/=+$/, '');
  if (body.length % 4 === 1) return undefined;
  return Math.floor((body.length * 3) / 4);
}
