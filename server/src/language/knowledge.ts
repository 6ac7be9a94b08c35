/**
 * What the editor says about the words of DynamoDB's expression language: every keyword and function, what it does,
 * and in which expression kinds it is allowed. Drives completion and hover; plain data, no LSP.
 */
import type { ExpressionKind } from '../expression/ast';
import { fence } from './markdown';

export interface WordInfo {
  /** Canonical spelling: keywords upper case, functions lower case. */
  name: string;
  type: 'keyword' | 'function';
  /** Call shape or usage, shown as the completion detail and the hover's code line. */
  signature: string;
  doc: string;
  kinds: readonly ExpressionKind[];
  /**
   * Where in an expression it may be typed: `clause` starts an UpdateExpression section, `operator` follows an operand,
   * `operand` starts one (a condition function or NOT), `value` is a SET value function.
   */
  position: 'clause' | 'operator' | 'operand' | 'value';
}

const COND: readonly ExpressionKind[] = ['condition', 'filter'];

export const WORDS: readonly WordInfo[] = [
  { name: 'SET', type: 'keyword', position: 'clause', kinds: ['update'], signature: 'SET path = value [, ...]', doc: 'Adds attributes or replaces their values. A value is an operand, `operand + operand` or `operand - operand` (one `+`/`-` per value).' },
  { name: 'REMOVE', type: 'keyword', position: 'clause', kinds: ['update'], signature: 'REMOVE path [, ...]', doc: 'Removes attributes from the item, or elements from a list (`REMOVE l[2]`).' },
  { name: 'ADD', type: 'keyword', position: 'clause', kinds: ['update'], signature: 'ADD path :value [, ...]', doc: 'Adds a number to a number attribute (a missing attribute counts as 0: the atomic counter), or elements to a set. Numbers and sets only.' },
  { name: 'DELETE', type: 'keyword', position: 'clause', kinds: ['update'], signature: 'DELETE path :set [, ...]', doc: 'Removes elements from a set attribute. The operand must be a set of the same type.' },
  { name: 'AND', type: 'keyword', position: 'operator', kinds: ['condition', 'filter', 'keyCondition'], signature: 'condition AND condition', doc: 'True when both conditions are true. Binds tighter than OR. In a KeyConditionExpression it joins the partition key condition and the sort key condition; after BETWEEN it separates the bounds.' },
  { name: 'OR', type: 'keyword', position: 'operator', kinds: COND, signature: 'condition OR condition', doc: 'True when either condition is true. Lowest precedence: NOT > AND > OR.' },
  { name: 'NOT', type: 'keyword', position: 'operand', kinds: COND, signature: 'NOT condition', doc: 'Negates a condition. Highest precedence of the logical operators.' },
  { name: 'BETWEEN', type: 'keyword', position: 'operator', kinds: ['condition', 'filter', 'keyCondition'], signature: 'operand BETWEEN low AND high', doc: 'True when `low <= operand <= high`. Both bounds must have the same type and `low` must not be greater than `high`.' },
  { name: 'IN', type: 'keyword', position: 'operator', kinds: COND, signature: 'operand IN (value, ...)', doc: 'True when the operand equals any value in the list (at most 100 operands).' },
  { name: 'attribute_exists', type: 'function', position: 'operand', kinds: COND, signature: 'attribute_exists(path)', doc: 'True when the item has an attribute at `path`. `attribute_exists(<key>)` makes a write require an existing item (a guarded delete).' },
  { name: 'attribute_not_exists', type: 'function', position: 'operand', kinds: COND, signature: 'attribute_not_exists(path)', doc: 'True when the item has no attribute at `path`. `attribute_not_exists(<key>)` makes a Put create-only, so a retried or duplicate write fails instead of counting twice.' },
  { name: 'attribute_type', type: 'function', position: 'operand', kinds: COND, signature: 'attribute_type(path, :type)', doc: 'True when the attribute at `path` has the given type. `:type` is one of `S`, `SS`, `N`, `NS`, `B`, `BS`, `BOOL`, `NULL`, `L`, `M`.' },
  { name: 'begins_with', type: 'function', position: 'operand', kinds: ['condition', 'filter', 'keyCondition'], signature: 'begins_with(path, substr)', doc: 'True when the string attribute at `path` starts with `substr`. In a KeyConditionExpression only on the sort key, which must be the first argument.' },
  { name: 'contains', type: 'function', position: 'operand', kinds: COND, signature: 'contains(path, operand)', doc: 'True when the string at `path` contains the substring, or the set or list at `path` contains the element.' },
  { name: 'size', type: 'function', position: 'operand', kinds: COND, signature: 'size(path)', doc: 'The size of the attribute at `path`: string length, binary bytes, or number of elements of a set, list or map. A number, used as a comparison operand (`size(tags) > :n`).' },
  { name: 'if_not_exists', type: 'function', position: 'value', kinds: ['update'], signature: 'if_not_exists(path, value)', doc: 'The attribute at `path` when it exists, otherwise `value`. `SET n = if_not_exists(n, :zero) + :inc` increments a counter that may be missing.' },
  { name: 'list_append', type: 'function', position: 'value', kinds: ['update'], signature: 'list_append(list1, list2)', doc: 'The concatenation of two lists (either may be a path or a value): `SET l = list_append(l, :new)`. Cannot be nested in another list_append.' },
];

const BY_NAME = new Map(WORDS.map((w) => [w.name.toLowerCase(), w]));

export function wordInfo(word: string): WordInfo | undefined {
  return BY_NAME.get(word.toLowerCase());
}

export const KIND_FIELD: Record<ExpressionKind, string> = {
  update: 'UpdateExpression',
  condition: 'ConditionExpression',
  filter: 'FilterExpression',
  keyCondition: 'KeyConditionExpression',
  projection: 'ProjectionExpression',
};

/** Markdown for a keyword or function, saying where it is allowed and whether `kind` is one of those places. */
export function wordMarkdown(info: WordInfo, kind?: ExpressionKind): string {
  const where = info.kinds.map((k) => '`' + KIND_FIELD[k] + '`').join(', ');
  const lines = [fence(info.signature), info.doc, `Allowed in: ${where}.`];
  if (kind && !info.kinds.includes(kind)) lines.push(`**Not allowed in \`${KIND_FIELD[kind]}\`**: DynamoDB rejects it there.`);
  return lines.join('\n\n');
}
