/**
 * The compact nodes of a TypeScript document's sites take the document's moves when read (core/compact.ts `Moves`)
 * instead of being moved in place at each edit: an edit records one move, whatever the number of sites after it.
 * What must hold: every site handed out reads as a fresh extraction of the same text would (any interleaving of edits
 * and reads, a node read for the first time many edits later included), and a site the document let go (a statement
 * re-extracted, a deferred candidate of the lint before) keeps the offsets it had then, as a site no longer moved in
 * place did.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, extract, RequestSite, VNode } from '../../../server/src/extract';
import { Entry, IN_PLACE, Spanned } from '../../../server/src/core/compact';
import { TS_SHAPE_EDITS, tsShapesFile } from '../../../scripts/bench/extract';
import { fixture, rng } from './support';

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

/** The compact nodes (maps, entries, unknowns, plain strings) of a site. */
function compactNodes(site: RequestSite): Spanned[] {
  const out: Spanned[] = [];
  const stack: VNode[] = [site.params];
  if (site.receiverTable) stack.push(site.receiverTable);
  while (stack.length) {
    const v = stack.pop()!;
    if (v instanceof Spanned) out.push(v);
    if (v.kind === 'object')
      for (const p of v.properties) {
        if (p instanceof Entry) out.push(p);
        stack.push(p.value);
      }
    else if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
  }
  return out;
}

describe('extract: lazy moves of TypeScript sites (extract-lazy-moves)', () => {
  it('an edit records one move for the document: the nodes after it are not moved in place', () => {
    let text = tsShapesFile(1000);
    const doc = createDocumentExtractor('typescript');
    const first = doc.update(text).sites;
    const last = first[first.length - 1];
    const nodes = compactNodes(last);
    assert.ok(nodes.length > 5);
    const moves = nodes[0].moves;
    assert.notEqual(moves, IN_PLACE, 'a TypeScript document records its moves');
    assert.ok(nodes.every((n) => n.moves === moves), 'one record per document');
    // Inside a helper function in the middle (the bench's first shape): its sites are re-extracted, the others kept.
    const needle = TS_SHAPE_EDITS[0].needle;
    const hits: number[] = [];
    for (let k = text.indexOf(needle); k >= 0; k = text.indexOf(needle, k + 1)) hits.push(k);
    const at = hits[hits.length >> 1] + needle.length;
    for (let i = 0; i < 4; i++) {
      const change = i % 2 === 0 ? { start: at, end: at, text: ' ' } : { start: at, end: at + 1, text: '' };
      text = text.slice(0, change.start) + change.text + text.slice(change.end);
      const sites = doc.update(text, [change]).sites;
      assert.equal(doc.last.update, 'incremental');
      assert.ok(sites.includes(last), 'the last site is handed back');
    }
    assert.equal(moves.n, 4, 'one move per edit');
    assert.deepEqual(json(doc.update(text).sites), json(extract(text, 'typescript').sites));
  });

  for (const [name, lang, make] of [
    ['shapes', 'typescript', () => tsShapesFile(150)],
    ['sdk-v3-client.ts', 'typescript', () => fixture('sdk-v3-client.ts')],
    ['sdk-v2.js', 'javascript', () => fixture('sdk-v2.js')],
  ] as const)
    it(`${name}: random edits and reads in any order equal a fresh extraction; sites let go keep their offsets`, () => {
      const rand = rng(name.length * 31 + 5);
      const doc = createDocumentExtractor(lang);
      let text: string = make();
      let sites = doc.update(text).sites;
      // Sites let go, with their JSON form when they were: it must not change afterwards.
      const gone: { site: RequestSite; form: unknown }[] = [];
      const anchors = ['UpdateExpression', 'TableName', 'Key', 'ConditionExpression', 'ExpressionAttributeValues', '\n'];
      for (let i = 0; i < 80; i++) {
        const anchor = anchors[Math.floor(rand() * anchors.length)];
        let at = text.indexOf(anchor, Math.floor(rand() * text.length));
        if (at < 0) at = i % 5 === 0 ? 0 : Math.floor(rand() * text.length);
        at += Math.floor(rand() * 3);
        const del = rand() < 0.3 ? 1 + Math.floor(rand() * 3) : 0;
        const ins = rand() < 0.7 ? [' ', 'x', '\n', '  ', 'ab'][Math.floor(rand() * 5)] : '';
        const change = { start: Math.min(at, text.length), end: Math.min(at + del, text.length), text: ins };
        text = text.slice(0, change.start) + ins + text.slice(change.end);
        const before = new Set(sites);
        const next = doc.update(text, [change]).sites;
        const now = new Set(next);
        for (const s of before) if (!now.has(s)) gone.push({ site: s, form: json(s) });
        sites = next;
        // Read a few sites now (their nodes take the moves so far), leave the others for later.
        for (const s of sites) if (rand() < 0.1) void json(s);
        if (i % 7 === 6 || i === 79) {
          assert.deepEqual(json(sites), json(extract(text, lang).sites), `${name}: after edit ${i}`);
          for (const g of gone) assert.deepEqual(json(g.site), g.form, `${name}: a site let go moved (edit ${i})`);
        }
      }
      assert.ok(gone.length > 0, 'some sites were let go');
    });
});
