/**
 * `maxRef` (extract/remap.ts) bounds what `shiftSite` moves: the incremental extractors move a unit's sites only when
 * its `maxRef >= from`, so an offset `maxRef` missed was never moved (review 1, D2: it counted only strings, not the
 * ranges of objects, properties, numbers or unknowns). Over the sites of every extraction fixture: `maxRef` of a site
 * is exactly the largest offset its JSON form holds (every start/end pair, every offsets/ends entry: the reference
 * remap.test.ts checks `shiftSite` against), and a shift from past it moves nothing.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureParser, extract, initParsers } from '../../../server/src/extract';
import { maxRef, moveSites } from '../../../server/src/extract/remap';
import { FIXTURES } from './support';
import { eachOffset } from '../../support/offsets';

const REALWORLD = join(__dirname, '..', '..', 'fixtures', 'realworld');
const LANG: Record<string, string> = { ts: 'typescript', tsx: 'typescriptreact', js: 'javascript', py: 'python', json: 'json', jsonc: 'jsonc', go: 'go', java: 'java' };

/** The largest offset a JSON form holds. */
function jsonMax(x: unknown): number {
  let m = 0;
  eachOffset(x, (n) => ((m = Math.max(m, n)), n));
  return m;
}
const json = (x: unknown) => JSON.stringify(x);

describe('extract: maxRef is the largest offset shiftSite moves', () => {
  before(async () => {
    await initParsers();
    await ensureParser('go');
    await ensureParser('java');
  });

  const files = [
    ...readdirSync(FIXTURES).map((f) => join(FIXTURES, f)),
    ...readdirSync(REALWORLD).map((f) => join(REALWORLD, f)),
  ].filter((f) => LANG[f.slice(f.lastIndexOf('.') + 1)]);

  it('over every site of the extraction fixtures', () => {
    let sites = 0;
    let pointsPastItself = 0;
    for (const file of files) {
      const lang = LANG[file.slice(file.lastIndexOf('.') + 1)];
      for (const s of extract(readFileSync(file, 'utf8'), lang).sites) {
        sites++;
        const want = jsonMax(JSON.parse(json(s)));
        assert.equal(maxRef([s]), want, `${file}: ${s.api} at ${s.range.start}`);
        const before = json(s);
        moveSites([s], want + 1, 7);
        assert.equal(json(s), before, `${file}: a shift past maxRef moved ${s.api} at ${s.range.start}`);
        moveSites([s], want, 1);
        assert.notEqual(json(s), before);
        if (want > s.range.end) pointsPastItself++;
      }
    }
    assert.ok(sites > 200, `${sites} sites`);
    assert.ok(pointsPastItself > 0);
  });

  it('objects, keys, numbers and unknowns read from below count (a site with no string there)', () => {
    const text = [
      'export async function f(doc) {',
      "  await doc.put({ TableName: 'T', Item: { a: A, n: N, u: U } });",
      '}',
      'const A = { k: compute() };',
      'const N = 7;',
      'const U = compute();',
      '',
    ].join('\n');
    const [s] = extract(text, 'typescript').sites;
    assert.equal(maxRef([s]), jsonMax(JSON.parse(json(s))));
    assert.equal(maxRef([s]), text.indexOf('compute();') + 'compute()'.length);
  });
});
