/**
 * Where the cursor is inside an expression that is usually half typed: which word is being written and what the
 * grammar expects there. A forgiving left-to-right scan of the text before the cursor, not the validating parser
 * (which stops at the first syntax error, and a half-typed expression always has one).
 */
import type { ExpressionKind } from '../expression/ast';

const WORD_CHAR = /[A-Za-z0-9_]/;

export interface Word {
  start: number;
  end: number;
  text: string;
}

/** The placeholder or identifier around `at` (`#n`, `:v`, `name`), empty at `at` when there is none. */
export function wordAt(expr: string, at: number, extendRight = true): Word {
  let start = at;
  while (start > 0 && WORD_CHAR.test(expr[start - 1])) start--;
  if (start > 0 && (expr[start - 1] === '#' || expr[start - 1] === ':')) start--;
  let end = at;
  if (extendRight) while (end < expr.length && WORD_CHAR.test(expr[end])) end++;
  return { start, end, text: expr.slice(start, end) };
}

/**
 * What may be typed at the cursor.
 * - `name` / `value`: a `#name` / `:value` placeholder is being typed.
 * - `segment`: a nested path segment after `.`.
 * - otherwise the sets of word categories that fit: clause keywords, operators, operand starters (condition
 *   functions, NOT), SET value functions, paths, values.
 */
export interface CursorContext {
  word: Word;
  placeholder?: 'name' | 'value';
  segment?: boolean;
  expect: Set<'clause' | 'operator' | 'operand' | 'value' | 'path' | 'valueRef'>;
  /** UpdateExpression clauses already present (not offered again). */
  usedClauses: Set<string>;
}

type Tok = { t: 'word' | 'name' | 'value' | 'num' | 'punct'; s: string };

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#' || c === ':' || WORD_CHAR.test(c)) {
      let j = i + 1;
      while (j < src.length && WORD_CHAR.test(src[j])) j++;
      const s = src.slice(i, j);
      out.push({ t: c === '#' ? 'name' : c === ':' ? 'value' : /^[0-9]+$/.test(s) ? 'num' : 'word', s });
      i = j;
      continue;
    }
    const two = src.slice(i, i + 2);
    const p = two === '<>' || two === '<=' || two === '>=' ? two : c;
    out.push({ t: 'punct', s: p });
    i += p.length;
  }
  return out;
}

const CLAUSES = new Set(['SET', 'REMOVE', 'ADD', 'DELETE']);
const LOGICAL = new Set(['AND', 'OR', 'NOT', 'BETWEEN', 'IN']);

export function cursorContext(expr: string, kind: ExpressionKind, cursor: number): CursorContext {
  const word = wordAt(expr, cursor);
  const ctx: CursorContext = { word, expect: new Set(), usedClauses: new Set() };
  if (word.text.startsWith('#')) ctx.placeholder = 'name';
  else if (word.text.startsWith(':')) ctx.placeholder = 'value';
  const before = expr.slice(0, word.start);
  if (/\.\s*$/.test(before)) {
    ctx.segment = true;
    return ctx;
  }
  const toks = lex(before);
  if (kind === 'update') updateExpect(toks, ctx);
  else if (kind === 'projection') ctx.expect.add('path');
  else conditionExpect(toks, ctx);
  return ctx;
}

function endsOperand(tok: Tok | undefined): boolean {
  if (!tok) return false;
  if (tok.t === 'name' || tok.t === 'value' || tok.t === 'num') return true;
  if (tok.t === 'word') return !LOGICAL.has(tok.s.toUpperCase());
  return tok.s === ')' || tok.s === ']';
}

function conditionExpect(toks: Tok[], ctx: CursorContext): void {
  if (endsOperand(toks[toks.length - 1])) {
    ctx.expect.add('operator');
    return;
  }
  ctx.expect.add('operand').add('path').add('valueRef');
}

function updateExpect(toks: Tok[], ctx: CursorContext): void {
  type State = 'start' | 'path' | 'afterPath' | 'value' | 'afterValue';
  let state: State = 'start';
  let clause = '';
  let depth = 0;
  for (const tok of toks) {
    const upper = tok.s.toUpperCase();
    if (tok.t === 'word' && depth === 0 && CLAUSES.has(upper) && state !== 'path' && state !== 'value') {
      clause = upper;
      ctx.usedClauses.add(upper);
      state = 'path';
    } else if (tok.t === 'punct') {
      if (tok.s === '(') {
        depth++;
        state = 'value';
      } else if (tok.s === ')') {
        depth = Math.max(0, depth - 1);
        state = depth === 0 ? 'afterValue' : 'value';
      } else if (tok.s === ',') state = depth === 0 ? 'path' : 'value';
      else if (tok.s === '=' || tok.s === '+' || tok.s === '-') state = 'value';
      // '.', '[', ']' continue a path without changing what comes next.
    } else if (tok.t !== 'num') {
      if (state === 'path') state = 'afterPath';
      else if (state === 'value' || (state === 'afterPath' && (clause === 'ADD' || clause === 'DELETE'))) state = 'afterValue';
    }
  }
  const e = ctx.expect;
  if (state === 'start') e.add('clause');
  else if (state === 'path') e.add('path');
  else if (state === 'afterPath') {
    if (clause === 'ADD' || clause === 'DELETE') e.add('valueRef');
    else if (clause === 'REMOVE') e.add('clause');
  } else if (state === 'value') e.add('value').add('path').add('valueRef');
  else e.add('clause');
}
