/**
 * AppSync hosts (JavaScript resolvers and VTL templates) under bad input and editing, as the Go/Java hosts are
 * (robustness.test.ts): cut, huge, deeply nested and binary files never throw; random edits through the document
 * extractor equal a fresh extraction after every edit (the AppSync pass re-reads only the statements an edit touches).
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, extract, prop } from '../../../server/src/extract';
import { runRules } from '../../../server/src/rules';
import { appsyncFile, vtlTemplate } from './generate-appsync';

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strip = (x: unknown) => JSON.parse(JSON.stringify(x));

for (const [lang, make] of [['javascript', appsyncFile], ['vtl', vtlTemplate]] as const) {
  const name = lang === 'vtl' ? 'VTL' : 'APPSYNC_JS';
  describe(`${name} host: robustness`, () => {
    it('malformed: every cut point and deleted spans never throw; complete requests before a cut are found', () => {
      const text = make(400);
      const rand = rng(lang === 'vtl' ? 9 : 8);
      const all = extract(text, lang).sites;
      assert.ok(all.length > 10);
      for (let i = 0; i < 80; i++) {
        const cut = Math.floor(rand() * text.length);
        const cutText = text.slice(0, cut);
        const part = extract(cutText, lang).sites;
        assert.doesNotThrow(() => runRules(cutText, lang, part));
        // JS: every statement before the cut is still read. VTL: a template cut short is no longer JSON, but the
        // tolerant reader keeps the requests before the cut.
        const before = all.filter((s) => s.range.end < cut - 200).length;
        assert.ok(part.length >= before - 2, `cut at ${cut}: ${part.length} < ${before}`);
        const a = Math.floor(rand() * text.length);
        const deleted = text.slice(0, a) + text.slice(a + Math.floor(rand() * 300));
        assert.doesNotThrow(() => runRules(deleted, lang, extract(deleted, lang).sites));
      }
    });

    it('huge (50,000 lines) is read without throwing, every request found', () => {
      const huge = make(50_000);
      assert.ok(huge.split('\n').length >= 50_000);
      const res = extract(huge, lang, { maxFileSize: 10 * 1024 * 1024 });
      assert.equal(res.skipped, undefined);
      const small = make(500);
      const perLine = extract(small, lang).sites.length / small.split('\n').length;
      assert.ok(res.sites.length >= Math.floor(perLine * 50_000 * 0.95), `${res.sites.length} requests`);
    });

    it('deeply nested (10,000 levels) is read without throwing', () => {
      // Nesting over many lines (one line of 20,000 brackets would be minified code, not linted): the request is
      // still read (the TS parse blanks what is beyond 400 levels, the JSON reader caps value trees at 64 levels).
      const deep =
        lang === 'vtl'
          ? [
              `{"operation": "PutItem", "key": {"id": {"S": "a"}}, "attributeValues": ${'{"a":\n'.repeat(10_000)}1${'}\n'.repeat(10_000)}}`,
              `{"operation": "PutItem", "key": {"id": {"S": "a"}}, "attributeValues": {"n": ${'[\n'.repeat(10_000)}1${']\n'.repeat(10_000)}}}`,
              `${'#if($a)\n'.repeat(10_000)}{"operation": "DeleteItem", "key": {"id": {"S": "a"}}}\n${'#end\n'.repeat(10_000)}`,
              `{"operation": "DeleteItem", "key": {"id": $util.toJson(${'(\n'.repeat(10_000)}1${')\n'.repeat(10_000)})}}`,
              `{"operation": "DeleteItem", "key": {"id": {"S": "a"}}, "x": \${${'{\n'.repeat(10_000)}}}`,
            ]
          : [
              `import { util } from '@aws-appsync/utils';\nexport function request(ctx) {\n  const x = ${'[\n'.repeat(10_000)}1${']\n'.repeat(10_000)};\n  return { operation: 'DeleteItem', key: { id: 1 } };\n}\n`,
              `import { util } from '@aws-appsync/utils';\nexport const request = (ctx) => ({ operation: 'PutItem', key: { id: 1 }, attributeValues: ${'{ a:\n'.repeat(10_000)}1${' }\n'.repeat(10_000)} });\n`,
              `import { update } from '@aws-appsync/utils/dynamodb';\nexport const request = (ctx) => update({ key: { id: 1 }, update: { n: ${'(\n'.repeat(10_000)}1${')\n'.repeat(10_000)} }, condition: ${'{ not:\n'.repeat(5_000)}{ a: { eq: 1 } }${' }\n'.repeat(5_000)} });\n`,
              `export function request(ctx) {\n${'if (a) {\n'.repeat(10_000)}return { operation: 'DeleteItem', key: { id: 1 } };\n${'}\n'.repeat(10_000)}}\n`,
            ];
      // The last JS case returns from inside 10,000 blocks: beyond the 400 levels the parse reads (unknown, silent).
      const expected = lang === 'vtl' ? ['PutItem', 'PutItem', 'DeleteItem', 'DeleteItem', 'DeleteItem'] : ['DeleteItem', 'PutItem', 'UpdateItem', undefined];
      deep.forEach((t, k) => {
        const res = extract(t, lang);
        assert.equal(res.skipped, undefined);
        assert.deepEqual(res.sites.map((s) => s.api), expected[k] ? [expected[k]] : [], `case ${k}`);
        assert.doesNotThrow(() => runRules(t, lang, res.sites));
        const doc = createDocumentExtractor(lang);
        doc.update(t);
        const at = t.indexOf('key');
        const next = t.slice(0, at) + ' ' + t.slice(at);
        assert.deepEqual(strip(doc.update(next, [{ start: at, end: at, text: ' ' }])), strip(extract(next, lang)));
        doc.dispose();
      });
    });

    it('long lists are linear (they were quadratic): the result of each', () => {
      if (lang === 'vtl') {
        // 40,000 unclosed `${`: each read to the end of the template before; now text (no reference).
        const braces = '{"operation": "PutItem", "key": {"id": {"S": "a"}}}\n' + '${\n'.repeat(40_000);
        assert.deepEqual(extract(braces, lang).sites.map((s) => s.api), ['PutItem']);
        // 20,000 entries each with a reference inside a string and a directive: every entry checked against every
        // region and directive before.
        const many = `{"operation": "PutItem", "key": {"id": {"S": "x"}}, "attributeValues": {\n${Array.from({ length: 20_000 }, (_, i) => `  "a${i}": {"S": "\${x}"}, #if($a) #end\n`).join('')} "z": {"N": "1"}}}`;
        const [site] = extract(many, lang, { maxFileSize: 10 * 1024 * 1024 }).sites;
        const item = prop(site.params, 'Item');
        assert.ok(item?.kind === 'object');
        assert.equal(item.properties.length, 20_002); // the key's id, the 20,000 entries, z
        assert.equal(item.complete, false);
        assert.equal(item.properties.filter((p) => p.value.kind === 'object' && prop(p.value, 'S')?.kind === 'unknown').length, 20_000);
        // A 200,000-item array under a directive: its items were spread onto the stack (RangeError).
        const long = `{"operation": "PutItem", "key": {"id": {"S": "x"}}, "attributeValues": {"l": {"L": [\n#if($a)\n${'1,'.repeat(200_000)}1]}}}`;
        assert.equal(extract(long, lang).sites.length, 1);
        return;
      }
      const helper = (entries: string) => `import { update } from '@aws-appsync/utils/dynamodb';\nexport const r = () => update({ key: { id: 1 }, update: {\n${entries} } });\n`;
      // 20,000 attributes whose placeholders share a base (`#a`, `#a1`...): each fresh name was searched from 1.
      const [same] = extract(helper(Array.from({ length: 20_000 }, (_, i) => `  'a-${i}': ${i},\n`).join('')), lang, { maxFileSize: 10 * 1024 * 1024 }).sites;
      const names = prop(same.params, 'ExpressionAttributeNames');
      assert.ok(names?.kind === 'object');
      assert.equal(new Set(names.properties.map((p) => p.key)).size, 20_000);
      assert.deepEqual(names.properties.slice(0, 3).map((p) => p.key), ['#a', '#a1', '#a2']);
      const update = prop(same.params, 'UpdateExpression');
      assert.ok(update?.kind === 'string' && update.value.startsWith('SET #a = :v, #a1 = :v1, #a2 = :v2'));
      // A condition of 20,000 comparisons of one attribute, inside `and` (its offsets were spread onto the stack).
      const cond = `import { update } from '@aws-appsync/utils/dynamodb';\nexport const r = () => update({ key: { id: 1 }, update: { n: 1 }, condition: { and: [{\n${'  a: { eq: 1 },\n'.repeat(20_000)} }] } });\n`;
      const [c] = extract(cond, lang, { maxFileSize: 10 * 1024 * 1024 }).sites;
      const ce = prop(c.params, 'ConditionExpression');
      assert.ok(ce?.kind === 'string');
      assert.equal(ce.value.split(' AND ').length, 20_000);
      assert.ok(ce.value.startsWith('(#a = :a AND #a = :a1 AND #a = :a2'));
      assert.ok(ce.value.endsWith('#a = :a19999)'));
    });

    it('binary (NUL bytes) is skipped with a reason', () => {
      for (const t of [`${make(40)}\0\0`, '\0\0\0"operation": "PutItem"\0']) {
        const res = extract(t, lang);
        assert.deepEqual(res.sites, []);
        assert.match(res.skipped ?? '', /binary/);
        const doc = createDocumentExtractor(lang);
        doc.update(make(40));
        assert.match(doc.update(t).skipped ?? '', /binary/);
        assert.ok(doc.update(make(40)).sites.length > 0);
        doc.dispose();
      }
    });
  });
}
