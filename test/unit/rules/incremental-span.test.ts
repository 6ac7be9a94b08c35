/**
 * rules/incremental.ts `changedSpan` compares the texts by blocks that grow while they agree: as a property over texts
 * of up to ~200,000 characters (long runs of one character, so blocks agree far and wide) and one or two edits
 * anywhere, its span must be the plain one (longest common prefix, then the longest common suffix of the rest,
 * character by character), which the document extractor finds for the same texts.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { changedSpan } from '../../../server/src/rules/incremental';
import { fcParameters } from '../../support/fc';

function plainSpan(a: string, b: string): { start: number; oldEnd: number; newEnd: number } {
  const max = Math.min(a.length, b.length);
  let start = 0;
  while (start < max && a[start] === b[start]) start++;
  let suffix = 0;
  while (suffix < max - start && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { start, oldEnd: a.length - suffix, newEnd: b.length - suffix };
}

const edit = fc.record({ at: fc.nat(), del: fc.nat({ max: 3000 }), text: fc.array(fc.constantFrom('a', 'b', '\n', 'é'), { maxLength: 5 }).map((x) => x.join('')) });
const apply = (t: string, e: { at: number; del: number; text: string }) => {
  const at = e.at % (t.length + 1);
  return t.slice(0, at) + e.text + t.slice(Math.min(t.length, at + e.del));
};

describe('rule cache: changedSpan', () => {
  it('equals the character-by-character span (texts up to 200,000 characters, one or two edits)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 200_000 }), fc.constantFrom('a', 'ab', 'abc\n'), fc.array(edit, { minLength: 1, maxLength: 2 }), fc.boolean(), (n, unit, edits, flip) => {
        const base = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
        let next = base;
        for (const e of edits) next = apply(next, e);
        const [a, b] = flip ? [next, base] : [base, next];
        assert.deepEqual(changedSpan(a, b), plainSpan(a, b));
      }),
      fcParameters({ numRuns: 300 }),
    );
  });

  it('equal texts, empty texts, one a prefix or suffix of the other', () => {
    for (const [a, b] of [['', ''], ['x'.repeat(5000), 'x'.repeat(5000)], ['', 'abc'], ['a'.repeat(70_000), 'a'.repeat(70_001)], ['b' + 'a'.repeat(9000), 'a'.repeat(9000)], ['a'.repeat(9000) + 'b', 'a'.repeat(9000)]])
      assert.deepEqual(changedSpan(a, b), plainSpan(a, b), `${a.length} / ${b.length}`);
  });
});
