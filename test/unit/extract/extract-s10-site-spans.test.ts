/**
 * Session 10 (issue 11): a TypeScript site's own ranges and its enclosing function take the document's moves when read
 * (`SiteSpan`, `FnSpan`), as its compact nodes already did, so an edit moves nothing of the sites after it in place (the
 * units holding them are not visited). What must hold: a site reads as a fresh extraction would, a caller's copy of a
 * range does not move with the site, a site the document let go keeps its offsets while a function it shared with a
 * site still in use keeps moving, and whatever runs of moves a site skips it reads as a twin moved in place.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createDocumentExtractor, extract, RequestSite } from '../../../server/src/extract';
import { FnSpan, Moves, ObjNode, bornIn, bornInPlace } from '../../../server/src/core/compact';
import { SiteSpan, freezeSites, moveSites } from '../../../server/src/extract/remap';
import { TS_SHAPE_EDITS, tsShapesFile } from '../../../scripts/bench/extract';
import { fcParameters } from '../../support/fc';

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

function site(r: [number, number], name: [number, number], fn?: FnSpan): SiteSpan {
  const s = new SiteSpan('PutItem', 'call', 'document', 'typescript', { start: r[0], end: r[1] }, { start: name[0], end: name[1] }, new ObjNode([], true, r[0], r[1]), 'sdk-v3');
  if (fn) s.enclosingFunction = fn;
  return s;
}

describe('extract: TypeScript sites take their document moves when read (extract-s10-site-spans)', () => {
  afterEach(bornInPlace);

  it('an edit moves no site after it in place: a range read before keeps its offsets, the site and its function read moved', () => {
    let text = tsShapesFile(1000);
    const doc = createDocumentExtractor('typescript');
    const first = doc.update(text).sites;
    const last = first[first.length - 1];
    assert.ok(last instanceof SiteSpan);
    const range = last.range;
    const nameRange = last.nameRange;
    const fn = last.enclosingFunction;
    assert.ok(fn instanceof FnSpan, 'the last site sits in a function');
    const fnRange = fn.range;
    const needle = TS_SHAPE_EDITS[0].needle;
    const hits: number[] = [];
    for (let k = text.indexOf(needle); k >= 0; k = text.indexOf(needle, k + 1)) hits.push(k);
    const at = hits[hits.length >> 1] + needle.length;
    text = text.slice(0, at) + '  ' + text.slice(at);
    const sites = doc.update(text, [{ start: at, end: at, text: '  ' }]).sites;
    assert.equal(doc.last.update, 'incremental');
    assert.ok(sites.includes(last), 'the last site is handed back');
    assert.deepEqual([range, nameRange, fnRange], [json(range), json(nameRange), json(fnRange)]);
    assert.deepEqual(last.range, { start: range.start + 2, end: range.end + 2 }, 'the site reads moved');
    assert.deepEqual(last.nameRange, { start: nameRange.start + 2, end: nameRange.end + 2 });
    assert.equal(last.enclosingFunction, fn, 'the function object is kept, not replaced by a moved copy');
    assert.deepEqual(fn.range, { start: fnRange.start + 2, end: fnRange.end + 2 });
    assert.deepEqual(json(sites), json(extract(text, 'typescript').sites));
  });

  it('a site let go keeps its offsets; a function it shared with a site in use gets copied for it and keeps moving', () => {
    const doc = new Moves();
    bornIn(doc, 0);
    const fn = new FnSpan('handler', 10, 200);
    const gone = site([20, 40], [20, 25], fn);
    const kept = site([50, 90], [50, 60], fn);
    bornInPlace();
    freezeSites([gone]);
    moveSites([kept], 0, 3);
    assert.deepEqual(json(gone), json(site([20, 40], [20, 25], new FnSpan('handler', 10, 200))));
    assert.notEqual(gone.enclosingFunction, fn);
    assert.equal(kept.enclosingFunction, fn);
    assert.deepEqual(json(kept), json(site([53, 93], [53, 63], new FnSpan('handler', 13, 203))));
  });

  it('serialises as the literal it replaces: same keys, same order', () => {
    const s = site([1, 9], [1, 4], new FnSpan('f', 0, 10));
    s.branch = '/a0:1';
    assert.equal(
      JSON.stringify(s),
      JSON.stringify({ api: 'PutItem', apiSource: 'call', style: 'document', host: 'typescript', range: { start: 1, end: 9 }, nameRange: { start: 1, end: 4 }, params: { kind: 'object', properties: [], complete: true, range: { start: 1, end: 9 } }, sdk: 'sdk-v3', enclosingFunction: { name: 'f', range: { start: 0, end: 10 } }, branch: '/a0:1' }),
    );
  });

  it('a site and a function read as twins moved in place, whatever moves they skipped', () => {
    fc.assert(
      fc.property(
        // range, nameRange (anywhere: past the range's end too) and the function's range, as offsets; birth.
        fc.array(fc.tuple(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 6, maxLength: 6 }), fc.nat(400)), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.tuple(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 8 }), weight: 400 }, { arbitrary: fc.integer({ min: -300, max: 300 }), weight: 1 }), fc.integer({ min: -3, max: 3 }), fc.nat(149).map((r) => r === 0)), { minLength: 0, maxLength: 600 }),
        (specs, band, offsetsOfMoves) => {
          const moves = offsetsOfMoves.map(([d, diff, read]) => [Math.max(0, band + d), diff, read] as const);
          const doc = new Moves();
          const make = (o: number[]) => {
            const [a, b] = [o[0], o[1]].sort((x, y) => x - y);
            const [c, d] = [o[2], o[3]].sort((x, y) => x - y);
            const [e, f] = [o[4], o[5]].sort((x, y) => x - y);
            return site([a, b], [c, d], new FnSpan('f', e, f));
          };
          const nodes: { lazy?: RequestSite; twin?: RequestSite; offsets: number[]; birth: number }[] = specs.map(([offsets, birth]) => ({ offsets, birth: Math.min(birth, moves.length) }));
          const bear = (k: number) => {
            for (const x of nodes)
              if (x.birth === k) {
                bornIn(doc, doc.n);
                x.lazy = make(x.offsets);
                bornInPlace();
                x.twin = make(x.offsets);
              }
          };
          bear(0);
          moves.forEach(([from, d, read], k) => {
            const diff = d < 0 ? Math.max(d, -from) : d;
            doc.record(from, diff);
            for (const x of nodes) if (x.twin) moveSites([x.twin], from, diff);
            if (read) for (const x of nodes) if (x.lazy) assert.deepEqual(json(x.lazy), json(x.twin), `after move ${k}`);
            bear(k + 1);
          });
          for (const x of nodes) assert.deepEqual(json(x.lazy), json(x.twin));
        },
      ),
      fcParameters({ numRuns: 300 }),
    );
  });

  it("a statement's sites not in order inside it are handed out in document order (a helper's request seen at a call above it)", () => {
    const text = [
      "import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';",
      'const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
      'export class Repo {',
      '  async like(id: string) {',
      '    await this.save(id);',
      '  }',
      '  async save(id: string) {',
      "    await ddb.send(new PutCommand({ TableName: 'T', Item: { id }, ConditionExpression: 'attribute_not_exists(#id)' }));",
      '  }',
      '}',
      '',
    ].join('\n');
    const doc = createDocumentExtractor('typescript');
    const sites = doc.update(text).sites;
    assert.ok(sites.some((s) => s.forwarded?.from), 'a forwarded copy at the call');
    const starts = sites.map((s) => s.range.start);
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
    // After an edit inside the other member, the same.
    const at = text.indexOf('await this.save');
    const next = text.slice(0, at) + ' ' + text.slice(at);
    const again = doc.update(next, [{ start: at, end: at, text: ' ' }]).sites;
    const starts2 = again.map((s) => s.range.start);
    assert.deepEqual(starts2, [...starts2].sort((a, b) => a - b));
    assert.deepEqual(json(again), json(extract(next, 'typescript').sites));
  });
});
