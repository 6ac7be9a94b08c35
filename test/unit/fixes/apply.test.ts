import { strict as assert } from 'node:assert';
import { applyEdits, applySafeFixes, editsConflict, fixAll, minimalEdit } from '../../../server/src/fix/apply';
import type { Finding, Fix, TextEdit } from '../../../server/src/rules/types';

const e = (start: number, end: number, newText: string): TextEdit => ({ range: { start, end }, newText });
const finding = (start: number, fixes: Fix[]): Finding => ({ ruleId: 'r', severity: 'error', message: 'm', range: { start, end: start + 1 }, fixes });
const fix = (edits: TextEdit[], safe = true, preferred?: boolean): Fix => ({ title: 't', edits, safe, preferred });

describe('fix/apply: edits', () => {
  const conflictCases: [TextEdit, TextEdit, boolean][] = [
    [e(0, 2, 'x'), e(2, 4, 'y'), false], // adjacent replacements
    [e(0, 3, 'x'), e(2, 4, 'y'), true], // overlap
    [e(2, 2, 'x'), e(2, 2, 'y'), true], // two inserts at one point: order ambiguous
    [e(2, 2, 'x'), e(0, 4, 'y'), true], // insert inside a replacement
    [e(2, 2, 'x'), e(2, 4, 'y'), false], // insert at the start of a replacement
    [e(4, 4, 'x'), e(2, 4, 'y'), false], // insert at its end
  ];
  for (const [a, b, expected] of conflictCases) {
    it(`conflict(${JSON.stringify(a.range)}, ${JSON.stringify(b.range)}) = ${expected}`, () => {
      assert.equal(editsConflict(a, b), expected);
      assert.equal(editsConflict(b, a), expected);
    });
  }

  it('applies edits in any order given', () => {
    assert.equal(applyEdits('abcdef', [e(4, 6, 'XY'), e(0, 1, ''), e(2, 2, '-')]), 'b-cdXY');
  });
  it('puts an insertion before a replacement starting at the same offset', () => {
    assert.equal(applyEdits('abc', [e(1, 2, 'B'), e(1, 1, '>')]), 'a>Bc');
  });
  it('refuses conflicting edits', () => {
    assert.throws(() => applyEdits('abcdef', [e(0, 3, 'x'), e(2, 4, 'y')]), /conflicting/);
  });
  it('computes the minimal single edit', () => {
    assert.deepEqual(minimalEdit('SET status = :s', 'SET #status = :s'), e(4, 4, '#'));
    assert.deepEqual(minimalEdit('abc', 'abc'), e(3, 3, ''));
    assert.deepEqual(minimalEdit('a, b, c', 'a, c'), e(3, 6, ''));
    const before = 'x'.repeat(10) + 'OLD' + 'y'.repeat(5);
    const after = 'x'.repeat(10) + 'NEWER' + 'y'.repeat(5);
    assert.equal(applyEdits(before, [minimalEdit(before, after)]), after);
  });
});

describe('fix/apply: fix-all', () => {
  it('takes safe fixes only, preferred first, and skips conflicting ones', () => {
    const text = '0123456789';
    const findings = [
      finding(0, [fix([e(0, 1, 'A')], false), fix([e(0, 1, 'a')])]),
      finding(2, [fix([e(2, 3, 'c')]), fix([e(2, 3, 'C')], true, true)]),
      finding(3, [fix([e(2, 4, 'zz')])]), // conflicts with the fix chosen for offset 2
      finding(6, [fix([e(6, 7, 'G')], false)]), // unsafe only: offered, never applied
      finding(8, [fix([e(8, 9, 'i')])]),
      finding(9, [fix([e(8, 9, 'i')])]), // the same fix from another finding counts once
    ];
    const pass = applySafeFixes(text, findings);
    assert.equal(pass.text, 'a1C34567i9');
    assert.equal(pass.applied.length, 3);
    assert.equal(pass.skipped, 1);
  });

  it('re-lints until stable, applying what conflicted in the pass before', () => {
    // A toy linter: every "x" is a finding whose safe fix turns it into "y" by inserting at a shared anchor (offset 0)
    // and replacing the x: two fixes in one pass always conflict at offset 0.
    const lint = (t: string): Finding[] =>
      [...t.matchAll(/x/g)].map((m) => finding(m.index!, [fix([e(0, 0, '+'), e(m.index!, m.index! + 1, 'y')])]));
    const r = fixAll('x x x', lint('x x x'), lint);
    assert.equal(r.text, '+++y y y');
    assert.equal(r.fixed, 3);
    assert.equal(r.passes, 3);
    assert.deepEqual(r.remaining, []);
  });

  it('stops after maxPasses', () => {
    const lint = (t: string): Finding[] => [finding(0, [fix([e(0, 0, String(t.length))])])];
    const r = fixAll('', lint(''), lint, 4);
    assert.equal(r.passes, 4);
    assert.equal(r.text, '3210');
  });

  it('stops when fixes undo each other instead of looping to the cap', () => {
    // "a" -> "b" and "b" -> "a": the second pass brings back the original text.
    const lint = (t: string): Finding[] => [finding(0, [fix([e(0, 1, t === 'a' ? 'b' : 'a')])])];
    const r = fixAll('a', lint('a'), lint);
    assert.equal(r.passes, 1);
    assert.equal(r.text, 'b');
  });
});
