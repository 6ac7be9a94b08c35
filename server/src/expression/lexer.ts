/**
 * Lexer of DynamoDB's expression language, reproducing how DynamoDB tokenises (checked against DynamoDB Local):
 * - whitespace is space, tab, CR, LF only (a no-break space is an invalid token);
 * - names are `[A-Za-z][A-Za-z0-9_]*` (`_a` and `é` are invalid tokens); keywords are case-insensitive;
 * - placeholders are `#[A-Za-z0-9_]+` / `:[A-Za-z0-9_]+`, so `:v-w` is `:v`, `-`, `w`;
 * - list indexes are `0` or `[1-9][0-9]*` (`01` is two tokens);
 * - anything else is a one-character `invalid` token, which the parser reports as DynamoDB does.
 * Linear, never throws.
 */

export type TokenType =
  | 'name' // attribute or function name
  | 'keyword' // SET REMOVE ADD DELETE AND OR NOT BETWEEN IN (any case)
  | 'nameRef' // #n
  | 'valueRef' // :v
  | 'number' // list index digits
  | 'comparator' // = <> < <= > >=
  | 'punct' // ( ) [ ] , . + -
  | 'invalid' // a character DynamoDB does not accept here
  | 'eof';

export interface Token {
  type: TokenType;
  /** The source text (`<EOF>` for the end). Keywords keep their written case; see `upper`. */
  text: string;
  start: number;
  end: number;
  /** Upper-cased keyword (`SET`, `AND`...), for keyword tokens. */
  keyword?: Keyword;
}

export const KEYWORDS = ['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN'] as const;
export type Keyword = (typeof KEYWORDS)[number];
const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Tokens of `text`, ending with one `eof` token. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  const push = (type: TokenType, start: number, end: number): void => {
    tokens.push({ type, text: text.slice(start, end), start, end });
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (isLetter(c)) {
      i++;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      const word = text.slice(start, i);
      const upper = word.toUpperCase();
      if (KEYWORD_SET.has(upper)) tokens.push({ type: 'keyword', text: word, start, end: i, keyword: upper as Keyword });
      else push('name', start, i);
      continue;
    }
    if (c === 35 /* # */ || c === 58 /* : */) {
      i++;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      push(i - start > 1 ? (c === 35 ? 'nameRef' : 'valueRef') : 'invalid', start, i);
      continue;
    }
    if (isDigit(c)) {
      i++;
      if (c !== 48) while (i < n && isDigit(text.charCodeAt(i))) i++;
      push('number', start, i);
      continue;
    }
    if (c === 60 /* < */) {
      const d = text.charCodeAt(i + 1);
      i += d === 62 || d === 61 ? 2 : 1;
      push('comparator', start, i);
      continue;
    }
    if (c === 62 /* > */) {
      i += text.charCodeAt(i + 1) === 61 ? 2 : 1;
      push('comparator', start, i);
      continue;
    }
    if (c === 61 /* = */) {
      i++;
      push('comparator', start, i);
      continue;
    }
    if (c === 40 || c === 41 || c === 91 || c === 93 || c === 44 || c === 46 || c === 43 || c === 45) {
      // ( ) [ ] , . + -
      i++;
      push('punct', start, i);
      continue;
    }
    // One code point (keep surrogate pairs whole).
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
    push('invalid', start, i);
  }
  tokens.push({ type: 'eof', text: '<EOF>', start: n, end: n });
  return tokens;
}

