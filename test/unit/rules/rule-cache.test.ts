/**
 * RuleCache's entries (rules/incremental.ts `moved`): moving an entry through edits takes shortcuts when an edit lies
 * wholly before or after every window of the entry (`lo`/`hi`). As a property over random windows, findings and
 * edits, the result must equal moving window by window (the plain algorithm, written out here): the same verdict
 * (touched or not), the same windows and the same findings (their moves recorded, applied when asked for, merged when
 * one undoes or continues the one before; with and without the smallest offset known, which makes a move of all of
 * them one move).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { type SiteEntry, bounds, currentFindings, currentWindows, moved } from '../../../server/src/rules/incremental';
import type { SiteFinding } from '../../../server/src/rules/types';
import { fcParameters } from '../../support/fc';
import { reference } from './window-reference';


const window = fc.tuple(fc.nat({ max: 400 }), fc.nat({ max: 60 })).map(([start, len]) => ({ start, end: start + len }));
const span = fc.tuple(fc.nat({ max: 500 }), fc.nat({ max: 30 }), fc.nat({ max: 30 })).map(([start, del, ins]) => ({ start, oldEnd: start + del, newEnd: start + ins }));

/** Typing: characters inserted, then deleted again, or deleted and typed again (moves that cancel out), or an edit anywhere. */
const typing = fc.oneof(
  fc.tuple(fc.nat({ max: 500 }), fc.integer({ min: 1, max: 3 })).map(([at, n]) => [
    { start: at, oldEnd: at, newEnd: at + n },
    { start: at, oldEnd: at + n, newEnd: at },
  ]),
  fc.tuple(fc.nat({ max: 500 }), fc.integer({ min: 1, max: 3 })).map(([at, n]) => [
    { start: at, oldEnd: at + n, newEnd: at },
    { start: at, oldEnd: at, newEnd: at + n },
  ]),
  span.map((x) => [x]),
);

describe('rule cache: moving an entry through edits', () => {
  it('equals moving window by window (touched or not, windows, findings)', () => {
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 5 }), fc.array(span, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean(), (windows, spans, withFirst, twice) => {
        // One finding per window, inside it: the cache's findings always lie in its windows.
        const findings: SiteFinding[] = windows.map((w, i) => ({ ruleId: 'r', message: `m${i}`, range: { start: w.start, end: w.end } }));
        const want = reference(windows, findings, spans);
        const entry: SiteEntry = {
          findings: [[0, findings]],
          windows: windows.map((w) => ({ ...w })),
          last: Math.max(...findings.map((f) => f.range.end)),
          run: 1,
          ...bounds(windows),
        };
        if (withFirst) entry.first = Math.min(...findings.map((f) => f.range.start));
        const before = findings.map((f) => ({ ...f, range: { ...f.range } }));
        // The objects handed out (the entry's list itself takes the moved copies).
        const handedOut = [...findings];
        // In two runs (findings asked for in between) or one.
        const cut = twice ? spans.length >> 1 : 0;
        let ok = moved(entry, spans.slice(0, cut));
        if (ok && twice) currentFindings(entry);
        ok = ok && moved(entry, spans.slice(cut));
        assert.equal(!ok, want.touched);
        if (!ok) return;
        assert.deepEqual(currentWindows(entry), want.windows);
        assert.deepEqual(currentFindings(entry)[0][1].map((f) => f.range), want.findings.map((f) => f.range));
        // Findings handed out before are never changed.
        assert.deepEqual(handedOut, before);
        // The entry's own list took them (no new list per move).
        assert.equal(currentFindings(entry)[0][1], findings);
        assert.deepEqual(bounds(currentWindows(entry)), { lo: entry.lo, hi: entry.hi });
      }),
      fcParameters({ numRuns: 2000 }),
    );
  });

  it('equals moving window by window when edits undo one another (typing and deleting)', () => {
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), fc.array(typing, { minLength: 1, maxLength: 30 }), fc.boolean(), (windows, edits, withFirst) => {
        const spans = edits.flat();
        const findings: SiteFinding[] = windows.map((w, i) => ({ ruleId: 'r', message: `m${i}`, range: { start: w.start, end: w.end } }));
        const want = reference(windows, findings, spans);
        const entry: SiteEntry = { findings: [[0, findings]], windows: windows.map((w) => ({ ...w })), last: Math.max(...findings.map((f) => f.range.end)), run: 1, ...bounds(windows) };
        if (withFirst) entry.first = Math.min(...findings.map((f) => f.range.start));
        const ok = moved(entry, spans);
        assert.equal(!ok, want.touched);
        if (!ok) return;
        assert.deepEqual(currentWindows(entry), want.windows);
        assert.deepEqual(currentFindings(entry)[0][1].map((f) => f.range), want.findings.map((f) => f.range));
      }),
      fcParameters({ numRuns: 2000 }),
    );
  });
});
