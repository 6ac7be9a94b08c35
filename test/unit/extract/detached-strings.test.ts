/**
 * The strings a site keeps are strings of their own, not slices of the document's text (core/compact.ts `detached`):
 * in V8 a substring of 13 chars or more is a view that keeps its parent alive, so the sites of a first extraction that
 * later edits leave in place kept that version's whole text for as long as the document stayed open. Checked with V8's
 * own predicate: a detached value up to 4,096 chars is the string table's (internalized), which a slice never is.
 */
import { strict as assert } from 'node:assert';
import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { extract, VNode } from '../../../server/src/extract';
import { detached, unknownNode } from '../../../server/src/core/compact';
import { plain } from '../../../server/src/core/strings';
import { TsDocument } from '../../../server/src/extract/typescript';
import { tsFile, tsShapesFile } from '../../../scripts/bench/extract';
import { fcParameters } from '../../support/fc';
import { assertSameExtraction } from './support';

setFlagsFromString('--allow-natives-syntax');
const isInternalized = new Function('s', 'return %IsInternalizedString(s)') as (s: string) => boolean;

/** Every string value (literal or unknown value's text) in a value tree. */
function texts(v: VNode, out: string[] = []): string[] {
  if (v.kind === 'string') out.push(v.value);
  else if (v.kind === 'unknown' && v.text !== undefined) out.push(v.text);
  else if (v.kind === 'object') for (const p of v.properties) texts(p.value, out);
  else if (v.kind === 'array' || v.kind === 'set') for (const i of v.items) texts(i, out);
  return out;
}

/** The long (slice-sized) values of sites that are not internalized, with the count of long values seen. */
function slices(sites: { params: VNode }[]): { long: number; sliced: string[] } {
  let long = 0;
  const sliced: string[] = [];
  for (const site of sites)
    for (const t of texts(site.params)) {
      if (t.length < 13 || t.length > 4096) continue;
      long++;
      if (!isInternalized(t)) sliced.push(t);
    }
  return { long, sliced };
}

describe('detached strings: site values do not keep the document text alive', () => {
  it('detached(s) equals s (any length, any characters)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ minLength: 4090, maxLength: 4200 })), fc.nat(30), (s, cut) => {
        // A substring of a longer text, as extractors read them.
        const text = `${'x'.repeat(cut)}${s}${'y'.repeat(cut)}`;
        const sub = text.slice(cut, cut + s.length);
        const d = detached(sub);
        assert.equal(d, s);
        if (s.length >= 13 && s.length <= 4096) assert.ok(isInternalized(d));
      }),
      fcParameters({ numRuns: 300 }),
    );
  });

  it('plain strings and unknown values take their text detached', () => {
    const text = `const a = 'a long literal value, surely sliced'; const b = someCall(withArgs, 42);${Math.random()}`;
    const lit = text.slice(11, 45);
    const s = plain(lit, 11, { start: 10, end: 46 });
    assert.equal(s.value, lit);
    assert.ok(isInternalized(s.value));
    const u = unknownNode({ start: 58, end: 84 }, text.slice(58, 84));
    assert.equal(u.kind === 'unknown' && u.text, text.slice(58, 84));
    assert.ok(u.kind === 'unknown' && u.text !== undefined && isInternalized(u.text));
  });

  for (const [name, make] of [
    ['tsFile', () => tsFile(400)],
    ['statement shapes', () => tsShapesFile(400)],
  ] as const) {
    it(`no site value of 13+ chars is a slice, after a full extraction and after edits (${name})`, () => {
      // A text of its own (not a constant of the module), so that its substrings are slices of it.
      const text = make() + `\n// ${Math.random()}\n`;
      const full = slices(extract(text, 'typescript').sites);
      assert.ok(full.long > 100, `only ${full.long} long values`);
      assert.deepEqual(full.sliced, []);
      const doc = new TsDocument('typescript', 'typescript');
      assert.deepEqual(slices(doc.full(text)).sliced, []);
      let cur = text;
      for (const needle of ["'ADD likes :", 'TableName', 'UpdateExpression']) {
        const at = cur.indexOf(needle, cur.length >> 1) + 1;
        const next = cur.slice(0, at) + ' ' + cur.slice(at);
        const sites = doc.update(next, { start: at, oldEnd: at, newEnd: at + 1 });
        cur = next;
        assert.deepEqual(slices(sites).sliced, [], needle);
        // The same sites as a fresh extraction of the new text.
        assertSameExtraction(sites, new TsDocument('typescript', 'typescript').full(next), needle);
      }
    });
  }
});
