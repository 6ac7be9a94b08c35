/**
 * A node that takes its document's moves when read (core/compact.ts `Moves`) skips runs of moves that all start
 * after its offsets (`Moves.blockMin`). Whatever it skips, it must read exactly as a twin moved in place at every move.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Entry, IN_PLACE, Moves, ObjNode, Spanned, UnkNode, bornIn, bornInPlace } from '../../../server/src/core/compact';
import { plain } from '../../../server/src/core/strings';
import { fcParameters } from '../../support/fc';

type Make = (o: number[]) => Spanned;
/** Node kinds, each built from four offsets in order (a plain string's base and end, then its range). */
const KINDS: Make[] = [
  (o) => new ObjNode([], true, o[0], o[3]),
  (o) => new UnkNode('x', undefined, o[0], o[3]),
  // The entry's value is a plain node (neither twin moves it: `shift` moves the entry's own offsets).
  (o) => new Entry('k', { kind: 'unknown', range: { start: o[2], end: o[3] } }, o[0], o[1], o[0], o[3]),
  (o) => plain('a'.repeat(o[2] - o[1]), o[1], { start: o[0], end: o[3] }) as unknown as Spanned,
];

const json = (x: unknown) => JSON.stringify(x);

describe('lazy moves: skipped runs of moves', () => {
  afterEach(bornInPlace);

  it('a node reads as its twin moved in place, whatever moves it skipped', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 4, maxLength: 4 }), fc.nat(400)), { minLength: 1, maxLength: 6 }),
        // Most moves start in a narrow band (whole runs of them start after a node, or reach just into it), a few anywhere;
        // reads are rare, so runs of moves are pending when a node catches up.
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.tuple(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 8 }), weight: 400 }, { arbitrary: fc.integer({ min: -300, max: 300 }), weight: 1 }), fc.integer({ min: -3, max: 3 }), fc.nat(149).map((r) => r === 0)), { minLength: 0, maxLength: 600 }),
        (specs, band, offsetsOfMoves) => {
          const moves = offsetsOfMoves.map(([d, diff, read]) => [Math.max(0, band + d), diff, read] as const);
          const doc = new Moves();
          // Each node is born after `birth` moves (its offsets already taken them), its twin moved in place from then on.
          const nodes: { lazy?: Spanned; twin?: Spanned; kind: number; offsets: number[]; birth: number }[] = specs.map(([kind, o, birth]) => ({ kind, offsets: [...o].sort((a, b) => a - b), birth: Math.min(birth, moves.length) }));
          const bear = (k: number) => {
            for (const x of nodes)
              if (x.birth === k) {
                bornIn(doc, doc.n);
                x.lazy = KINDS[x.kind](x.offsets);
                bornInPlace();
                x.twin = KINDS[x.kind](x.offsets);
              }
          };
          bear(0);
          moves.forEach(([from, diff, read], k) => {
            // A deletion never takes an offset below its start (as an extractor's moves).
            doc.record(from, diff < 0 ? Math.max(diff, -from) : diff);
            for (const x of nodes) x.twin?.shift(from, diff < 0 ? Math.max(diff, -from) : diff);
            if (read) for (const x of nodes) if (x.lazy) assert.equal(json(x.lazy), json(x.twin), `after move ${k}`);
            bear(k + 1);
          });
          for (const x of nodes) {
            assert.equal(x.lazy!.moves, doc);
            assert.equal(json(x.lazy), json(x.twin));
          }
        },
      ),
      fcParameters({ numRuns: 500 }),
    );
  });

  it('a node before thousands of later moves reads unmoved; one after them takes every one', () => {
    const doc = new Moves();
    bornIn(doc, 0);
    const before = new ObjNode([], true, 10, 20);
    const after = new UnkNode('x', undefined, 100_000, 100_010);
    bornInPlace();
    for (let k = 0; k < 10_000; k++) doc.record(50_000 - (k % 7), k % 2 === 0 ? 2 : -1);
    assert.deepEqual(before.range, { start: 10, end: 20 });
    assert.deepEqual(after.range, { start: 105_000, end: 105_010 });
    assert.equal(IN_PLACE.n, 0);
  });

  it('a run whose smallest start is the last offset of a node is taken; one starting just after it is skipped', () => {
    const doc = new Moves();
    bornIn(doc, 0);
    const node = new ObjNode([], true, 100, 120);
    const entry = new Entry('k', { kind: 'unknown', range: { start: 104, end: 118 } }, 102, 130, 100, 120);
    bornInPlace();
    for (let k = 0; k < 64; k++) doc.record(131, 1); // after both: a run skipped by both
    for (let k = 0; k < 64; k++) doc.record(k === 40 ? 120 : 500, 5); // reaches the map's end and the entry's `e`
    for (let k = 0; k < 64; k++) doc.record(k === 7 ? 130 : 900, -2); // the entry's key end is 130: taken by the entry only
    assert.deepEqual(node.range, { start: 100, end: 125 });
    assert.deepEqual([entry.keyRange, entry.range], [{ start: 102, end: 133 }, { start: 100, end: 125 }]);
  });
});
