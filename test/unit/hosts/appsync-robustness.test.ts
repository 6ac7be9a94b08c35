/**
 * AppSync hosts (JavaScript resolvers and VTL templates) under bad input and editing, as the Go/Java hosts are
 * (robustness.test.ts): cut, huge, deeply nested and binary files never throw; random edits through the document
 * extractor equal a fresh extraction after every edit (the AppSync pass re-reads only the statements an edit touches),
 * and so do the findings the language service serves.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createDocumentExtractor, extract, prop, type TextChange } from '../../../server/src/extract';
import { AppSyncDocument, extractAppSync } from '../../../server/src/extract/appsync';
import { runRules } from '../../../server/src/rules';
import { fcParameters } from '../../support/fc';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { DynalintService } from '../../../server/src/service';
import { appsyncFile, vtlTemplate } from './generate-appsync';
import { assertNothingShared, assertSameExtraction } from '../extract/support';
import { rng } from '../../support/rng';

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

const JS_PIECES = [
  'x',
  ' ',
  '\n',
  '(',
  ')',
  "'",
  '{',
  '}',
  ',',
  ';',
  '`',
  '//',
  '/*',
  'operation: ',
  "'UpdateItem'",
  'operations.decrement(2)',
  'ddb.operations.increment(1)',
  "{ operation: 'PutItem', key: { id: 1 }, attributeValues: { n: 1 } }",
  "update({ key: { id: 1 }, update: { n: operations.increment(1) } })",
  "ddb.transactWrite({ items: [{ putItem: { table: 'L', key: { id: 1 }, item: {} } }] })",
  "\nexport function request(ctx) { return { operation: 'DeleteItem', key: { id: ctx.args.id } }; }\n",
  "\nimport { put } from '@aws-appsync/utils/dynamodb';\n",
];

const VTL_PIECES = ['x', ' ', '\n', '"', '{', '}', '[', ']', ',', ':', '$ctx.args.x', '${ctx.args.y}', '#if($x)', '#end', '## c\n', '#*', '*#', '"operation": "PutItem", ', '$util.dynamodb.toDynamoDBJson(2)', '$util.qr($m.put("a", 1))\n'];

/** Resolver files: with the helpers' and utils' imports (every shape), and without (only an exported `request`). */
const JS_FILES: [string, string][] = [
  ['javascript', appsyncFile(150)],
  ['typescript', appsyncFile(90).replace(/\(ctx\)/g, '(ctx: Context)')],
  ['javascript', `const TABLE = 'T';\nexport function request(ctx) {\n  return { operation: 'UpdateItem', key: { id: ctx.args.id }, update: { expression: 'ADD n :one', expressionValues: { ':one': 1 } } };\n}\n\nexport function response(ctx) {\n  return ctx.result;\n}\n\nfunction other() {\n  return { operation: 'PutItem', key: { id: 1 } };\n}\n`],
];

describe('AppSync hosts: incremental = full after every random edit', () => {
  const anyEdits = fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 6 }), piece: fc.nat(), insert: fc.boolean(), withChanges: fc.boolean() }), { minLength: 1, maxLength: 15 });

  const check = (languageId: string, text0: string, pieces: string[], numRuns: number) =>
    fc.assert(
      fc.property(anyEdits, (steps) => {
        let text = text0;
        const doc = createDocumentExtractor(languageId);
        try {
          doc.update(text);
          steps.forEach((step, i) => {
            const start = step.at % (text.length + 1);
            const change: TextChange = { start, end: Math.min(text.length, start + step.del), text: step.insert ? pieces[step.piece % pieces.length] : '' };
            text = text.slice(0, change.start) + change.text + text.slice(change.end);
            const got = doc.update(text, step.withChanges ? [change] : undefined);
            assert.deepEqual(got, extract(text, languageId), `after edit ${i}: ${JSON.stringify(change)}`);
            assertNothingShared(got.sites);
          });
        } finally {
          doc.dispose();
        }
      }),
      fcParameters({ numRuns }),
    );

  JS_FILES.forEach(([languageId, text], k) =>
    it(`APPSYNC_JS (${languageId}, file ${k}): edits anywhere, also breaking the syntax or an import, equal a fresh extraction`, () => check(languageId, text, JS_PIECES, k === 0 ? 60 : 40)),
  );

  it('VTL: edits anywhere (references, directives, comments, broken JSON) equal a fresh extraction', () => check('vtl', vtlTemplate(120), VTL_PIECES, 60));

  it('APPSYNC_JS: an edit inside one statement re-reads only that statement, and equals a fresh extraction', () => {
    const text0 = appsyncFile(600);
    // Inside a statement: the start of an indented line (a space), or just after a string's opening quote.
    const points: { at: number; ins: string }[] = [];
    for (let at = text0.indexOf('\n  '); at >= 0; at = text0.indexOf('\n  ', at + 1)) points.push({ at: at + 1, ins: ' ' });
    for (let at = text0.indexOf(": '"); at >= 0; at = text0.indexOf(": '", at + 1)) points.push({ at: at + 3, ins: 'x' });
    const edits = fc.array(fc.record({ point: fc.nat(), undo: fc.boolean() }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(edits, (steps) => {
        const app = new AppSyncDocument('javascript', 'javascript');
        let text = text0;
        let shift: { at: number; by: number }[] = [];
        const where = (p: number) => shift.reduce((x, s) => (x >= s.at ? x + s.by : x), p);
        app.full(text);
        for (const step of steps) {
          const point = points[step.point % points.length];
          const at = where(point.at);
          const ins = point.ins;
          text = text.slice(0, at) + ins + text.slice(at);
          shift = [...shift, { at, by: 1 }];
          const got = app.update(text, { start: at, oldEnd: at, newEnd: at + 1 });
          assert.equal(app.lastWasIncremental, true);
          assert.equal(app.lastReparsed, 1);
          assertSameExtraction(got, extractAppSync(text, 'javascript', 'javascript'));
          if (step.undo) {
            text = text.slice(0, at) + text.slice(at + 1);
            shift = shift.slice(0, -1);
            assertSameExtraction(app.update(text, { start: at, oldEnd: at + 1, newEnd: at }), extractAppSync(text, 'javascript', 'javascript'));
            assert.equal(app.lastReparsed, 1);
          }
        }
      }),
      fcParameters({ numRuns: 40 }),
    );
  });

  it('APPSYNC_JS: an edit to an import, or one the previous statement could absorb, re-reads the document', () => {
    const text = appsyncFile(200);
    const app = new AppSyncDocument('javascript', 'javascript');
    app.full(text);
    const edit = (from: string, to: string) => {
      const at = text.indexOf(from);
      const next = text.slice(0, at) + to + text.slice(at + from.length);
      const got = app.update(next, { start: at, oldEnd: at + from.length, newEnd: at + to.length });
      assertSameExtraction(got, extractAppSync(next, 'javascript', 'javascript'));
      const incremental = app.lastWasIncremental;
      app.full(text);
      return { got, incremental };
    };
    // Renaming the imported helper: every helper call of the file is no longer one.
    const renamed = edit('import { update, put', 'import { updateX, put');
    assert.equal(renamed.incremental, false);
    assert.ok(renamed.got.length < extractAppSync(text, 'javascript', 'javascript').length);
    // A statement starting with `(` continues the one before it.
    assert.equal(edit('\nexport const like0', '\n(1)\nexport const like0').incremental, false);
    // A statement of its own is read on its own.
    assert.equal(edit('\nexport const like0', '\nconst y = 1;\nexport const like0').incremental, true);
  });
});

describe('AppSync hosts: the served lint (language service, successive versions) equals a fresh lint after every edit', () => {
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
  const steps = fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 6 }), piece: fc.nat(), insert: fc.boolean() }), { minLength: 1, maxLength: 12 });

  const served = (languageId: string, text0: string, pieces: string[], numRuns: number) => {
    let reused = 0;
    fc.assert(
      fc.property(steps, (edits) => {
        const service = new DynalintService();
        const uri = `file:///w/resolver.${languageId === 'vtl' ? 'vtl' : languageId === 'typescript' ? 'ts' : 'js'}`;
        let text = text0;
        for (let version = 1; version <= edits.length + 1; version++) {
          if (version > 1) {
            const e = edits[version - 2];
            const start = e.at % (text.length + 1);
            text = text.slice(0, start) + (e.insert ? pieces[e.piece % pieces.length] : '') + text.slice(Math.min(text.length, start + e.del));
          }
          const got = service.analyze(TextDocument.create(uri, languageId, version, text), DEFAULT_SETTINGS);
          const fresh = extract(text, languageId, { maxFileSize: DEFAULT_SETTINGS.maxFileSize });
          const want = fresh.skipped ? [] : runRules(text, languageId, fresh.sites, { settingsRules: DEFAULT_SETTINGS.rules });
          assert.deepEqual(plain(got.findings), plain(want), `version ${version}\n--- text ---\n${text}`);
          if (version > 1) reused += service.ruleCacheStats(uri)?.reused ?? 0;
        }
      }),
      fcParameters({ numRuns }),
    );
    return reused;
  };

  it('APPSYNC_JS: findings (rules, ranges, fixes) equal a fresh lint; untouched sites keep their cached findings', () => {
    // A file with findings: unguarded Puts next to ADD in transactions, decrements without a floor, reserved words.
    const text = appsyncFile(60).replace(/condition: \{ likes: \{ ge: 1 \} \} /g, '').replace(/title = :t/g, 'name = :t');
    assert.ok(runRules(text, 'javascript', extract(text, 'javascript').sites).length > 5);
    assert.ok(served('javascript', text, JS_PIECES, 25) > 0);
  });

  it('VTL: findings equal a fresh lint', () => {
    const text = vtlTemplate(60).replace(/#name = :name/g, 'name = :name');
    assert.ok(runRules(text, 'vtl', extract(text, 'vtl').sites).length > 0);
    served('vtl', text, VTL_PIECES, 25);
  });
});
