/**
 * Cursor context inside half-typed expressions: the word being typed and what the grammar expects there, per
 * expression kind. `|` marks the cursor.
 */
import assert from 'node:assert/strict';
import type { ExpressionKind } from '../../../server/src/expression/ast';
import { cursorContext } from '../../../server/src/language/context';
import { WORDS, wordInfo, wordMarkdown } from '../../../server/src/language/knowledge';

const cases: [ExpressionKind, string, { word?: string; expect?: string[]; placeholder?: 'name' | 'value'; segment?: boolean; used?: string[] }][] = [
  ['update', '|', { word: '', expect: ['clause'] }],
  ['update', 'SE|', { word: 'SE', expect: ['clause'] }],
  ['update', 'SET |', { expect: ['path'], used: ['SET'] }],
  ['update', 'SET a|', { word: 'a', expect: ['path'] }],
  ['update', 'SET a |', { expect: [] }],
  ['update', 'SET a = |', { expect: ['value', 'path', 'valueRef'] }],
  ['update', 'SET a = if_not_exists(a, |', { expect: ['value', 'path', 'valueRef'] }],
  ['update', 'SET a = if_not_exists(a, :z) |', { expect: ['clause'] }],
  ['update', 'SET a = :v, |', { expect: ['path'] }],
  ['update', 'SET a = :v REMOVE b |', { expect: ['clause'], used: ['SET', 'REMOVE'] }],
  ['update', 'ADD n |', { expect: ['valueRef'], used: ['ADD'] }],
  ['update', 'ADD n :|', { word: ':', placeholder: 'value', expect: ['valueRef'] }],
  ['update', 'DELETE tags :t |', { expect: ['clause'] }],
  ['update', 'set a = b + |', { expect: ['value', 'path', 'valueRef'], used: ['SET'] }],
  ['update', 'SET a.|', { segment: true, expect: [] }],
  ['update', 'SET a.#|', { word: '#', placeholder: 'name', segment: true, expect: [] }],
  ['update', 'SET a[2] = |', { expect: ['value', 'path', 'valueRef'] }],
  ['condition', '|', { expect: ['operand', 'path', 'valueRef'] }],
  ['condition', 'attribute_not_exists(PK) |', { expect: ['operator'] }],
  ['condition', 'attribute_not_exists(PK) AND |', { expect: ['operand', 'path', 'valueRef'] }],
  ['condition', 'NOT |', { expect: ['operand', 'path', 'valueRef'] }],
  ['condition', 'a BETWEEN :lo |', { expect: ['operator'] }],
  ['condition', 'a = :v|', { word: ':v', placeholder: 'value', expect: ['operand', 'path', 'valueRef'] }],
  ['condition', 'size(tags) > |', { expect: ['operand', 'path', 'valueRef'] }],
  ['keyCondition', 'PK = :pk AND begins_with(|', { expect: ['operand', 'path', 'valueRef'] }],
  ['filter', '#s IN (:a, |', { expect: ['operand', 'path', 'valueRef'] }],
  ['projection', 'a, b.|', { segment: true, expect: [] }],
  ['projection', 'a, |', { expect: ['path'] }],
];

describe('language: cursor context', () => {
  for (const [kind, marked, want] of cases)
    it(`${kind}: ${JSON.stringify(marked)}`, () => {
      const at = marked.indexOf('|');
      const ctx = cursorContext(marked.replace('|', ''), kind, at);
      if (want.word !== undefined) assert.equal(ctx.word.text, want.word);
      assert.equal(ctx.word.end >= at, true);
      if (want.expect) assert.deepEqual([...ctx.expect].sort(), [...want.expect].sort());
      assert.equal(ctx.placeholder, want.placeholder);
      assert.equal(!!ctx.segment, !!want.segment);
      if (want.used) assert.deepEqual([...ctx.usedClauses], want.used);
    });
});

describe('language: keyword and function knowledge', () => {
  it('knows every DynamoDB function and keyword once, case-insensitively', () => {
    assert.deepEqual(
      WORDS.map((w) => w.name),
      ['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN', 'attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append'],
    );
    assert.equal(wordInfo('Begins_With')?.name, 'begins_with');
    assert.equal(wordInfo('set')?.name, 'SET');
    assert.equal(wordInfo('status'), undefined);
  });

  it('says where a word is allowed and flags the wrong kind', () => {
    const md = wordMarkdown(wordInfo('list_append')!, 'condition');
    assert.equal(
      md,
      '```\nlist_append(list1, list2)\n```\n\nThe concatenation of two lists (either may be a path or a value): `SET l = list_append(l, :new)`. Cannot be nested in another list_append.\n\nAllowed in: `UpdateExpression`.\n\n**Not allowed in `ConditionExpression`**: DynamoDB rejects it there.',
    );
  });
});
