/**
 * Go and Java hosts under bad input and editing: random edits through the incremental extractor equal a fresh
 * extraction in every state, also while the text has parse errors (a re-parse whose tree has errors is parsed afresh,
 * extract/index.ts); cut, huge, deeply nested and binary files never throw.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, ensureParser, extract, prop } from '../../../server/src/extract';
import { treeParser } from '../../../server/src/extract/treehost';
import { runRules } from '../../../server/src/rules';
import { goFile, goFlowFile, javaFile, javaFlowFile } from './generate';
import { assertNothingShared } from '../extract/support';
import { rng } from '../../support/rng';

const strip = (x: unknown) => JSON.parse(JSON.stringify(x));

for (const [lang, make, makeFlow] of [['go', goFile, goFlowFile], ['java', javaFile, javaFlowFile]] as const) {
  describe(`${lang} host: robustness and incremental extraction`, () => {
    before(() => ensureParser(lang));
    const clean = (text: string) => {
      const t = treeParser(lang)!.parse(text)!;
      const ok = !t.rootNode.hasError;
      t.delete();
      return ok;
    };

    const randomEdits = (text0: string, seed: number) => {
      const rand = rng(seed);
      let text = text0;
      const doc = createDocumentExtractor(lang);
      assertNothingShared(doc.update(text).sites);
      const snippets = [' ', '\n', 'x', '"', ':one', ' AND ', ')', '{', '// c\n', 'ADD n :v'];
      let compared = 0;
      let withErrors = 0;
      for (let i = 0; i < 150; i++) {
        const start = Math.floor(rand() * text.length);
        const del = rand() < 0.5 ? Math.floor(rand() * 6) : 0;
        const ins = rand() < 0.8 ? snippets[Math.floor(rand() * snippets.length)] : '';
        const next = text.slice(0, start) + ins + text.slice(start + del);
        const got = doc.update(next, [{ start, end: start + del, text: ins }]);
        assertNothingShared(got.sites);
        const broken = !clean(next);
        compared++;
        if (broken) withErrors++;
        assert.deepEqual(strip(got.sites), strip(extract(next, lang).sites), `edit ${i} at ${start}${broken ? ' (errors)' : ''}`);
        // Half the time the edit is undone (back to a text that parses), else kept when it still parses.
        if (rand() < 0.5 || broken) {
          const back = doc.update(text, [{ start, end: start + ins.length, text: text.slice(start, start + del) }]);
          assertNothingShared(back.sites);
          compared++;
          assert.deepEqual(strip(back.sites), strip(extract(text, lang).sites), `undo ${i} at ${start}`);
        } else text = next;
      }
      assert.ok(doc.stats.incremental > 100);
      assert.ok(compared > 20, `only ${compared} states compared`);
      assert.ok(withErrors > 10, `only ${withErrors} states with parse errors compared`);
      doc.dispose();
    };

    it('random edits: the incremental result equals a fresh extraction', () => randomEdits(make(120), lang === 'go' ? 15 : 16));

    it('random edits in data-flow shapes (lists, helpers called with -n, builder variables): incremental equals fresh', () => {
      const text = makeFlow(160);
      const sites = extract(text, lang).sites;
      // The shapes are read: forwarded helper requests, alternatives, and the decrement passed to the helper.
      assert.ok(sites.some((s) => s.forwarded?.from));
      assert.ok(sites.some((s) => (s.alternative?.count ?? 0) >= 2));
      assert.ok(runRules(text, lang, sites).some((f) => f.ruleId === 'decrement-without-floor'));
      // Go: expressions the `expression` builder makes in a helper of another unit are read at the request.
      if (lang === 'go') assert.ok(sites.some((s) => s.built && prop(s.params, 'UpdateExpression')?.kind === 'string'));
      randomEdits(text, lang === 'go' ? 25 : 26);
    });

    it("an edit inside a helper re-reads its callers' forwarded requests", () => {
      const text = makeFlow(160);
      const doc = createDocumentExtractor(lang);
      doc.update(text);
      const at = text.indexOf('ADD likeTally :d');
      const next = text.slice(0, at) + 'SET likeTally = :d' + text.slice(at + 'ADD likeTally :d'.length);
      const got = doc.update(next, [{ start: at, end: at + 'ADD likeTally :d'.length, text: 'SET likeTally = :d' }]);
      assert.deepEqual(strip(got.sites), strip(extract(next, lang).sites));
      const forwarded = got.sites.filter((s) => s.forwarded?.from && s.forwarded.from.start <= at && at <= s.forwarded.from.end);
      assert.ok(forwarded.length > 0);
      for (const s of forwarded) {
        const u = s.params.properties.find((p) => p.key === 'UpdateExpression')?.value;
        assert.equal(u?.kind === 'string' && u.value, 'SET likeTally = :d');
      }
      doc.dispose();
    });

    it('a function added later that a helper of a unit calls (h calls a not-yet-defined g) re-reads the unit', () => {
      // Before: u calls h, h calls g, no g (or two: not resolved). Then g, sending an ADD, is added in its own statement
      // (away from h: z, sending a request of its own, in between).
      const [before, g, twoG] = lang === 'go'
        ? [
            `package x\n\nfunc u(ctx context.Context, c *dynamodb.Client) {\n\th(ctx, c)\n}\n\nfunc h(ctx context.Context, c *dynamodb.Client) {\n\tg(ctx, c)\n}\n\nfunc z(ctx context.Context, c *dynamodb.Client) {\n\tc.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("T")})\n}\n`,
            `\nfunc g(ctx context.Context, c *dynamodb.Client) {\n\tc.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("T"), UpdateExpression: aws.String("ADD n :d"), ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: "-1"}}})\n}\n`,
            false,
          ]
        : [
            `class A {\n    void u(DynamoDbClient ddb) {\n        h(ddb);\n    }\n\n    void h(DynamoDbClient ddb) {\n        g(ddb);\n    }\n\n    void z(DynamoDbClient ddb) {\n        ddb.deleteItem(DeleteItemRequest.builder().tableName("T").build());\n    }\n\n    void g(String s) {\n    }\n\n    void g(String s, int n) {\n    }\n}\n`,
            `\n    void g(DynamoDbClient ddb) {\n        ddb.updateItem(UpdateItemRequest.builder().tableName("T").updateExpression("ADD n :d").expressionAttributeValues(Map.of(":d", AttributeValue.fromN("-1"))).build());\n    }\n`,
            true,
          ];
      const doc = createDocumentExtractor(lang);
      assert.deepEqual(strip(doc.update(before).sites), strip(extract(before, lang).sites));
      // Java: two g's first (several definitions: not resolved); one of them removed, the other replaced by the sender.
      const at = twoG ? before.lastIndexOf('\n    void g(String s) {') : before.length;
      const end = twoG ? before.lastIndexOf('\n}') : before.length;
      const next = before.slice(0, at) + g + before.slice(end);
      const incremental = doc.stats.incremental;
      const got = doc.update(next, [{ start: at, end, text: g }]);
      assert.equal(doc.stats.incremental, incremental + 1);
      const fresh = extract(next, lang).sites;
      assert.ok(fresh.some((s) => s.forwarded && next.slice(s.range.start, s.range.end).startsWith('h(') && s.range.start < next.indexOf(lang === 'go' ? 'func h(' : 'void h(')), 'u forwards the request of g through h');
      assert.deepEqual(strip(got.sites), strip(fresh));
      doc.dispose();
    });

    it('typing a file in chunks ends in the fresh extraction', () => {
      const full = make(200);
      const doc = createDocumentExtractor(lang);
      let text = '';
      for (let at = 0; at < full.length; at += 97) {
        const next = full.slice(0, at + 97);
        doc.update(next, [{ start: text.length, end: text.length, text: next.slice(text.length) }]);
        text = next;
      }
      assert.deepEqual(strip(doc.update(full).sites), strip(extract(full, lang).sites));
      doc.dispose();
    });

    it('malformed: every cut point and deleted spans never throw; complete requests before a cut are found', () => {
      const text = make(120);
      const rand = rng(7);
      const all = extract(text, lang).sites;
      for (let i = 0; i < 60; i++) {
        const cut = Math.floor(rand() * text.length);
        const part = extract(text.slice(0, cut), lang).sites;
        const before = all.filter((s) => s.range.end < cut - 200).length;
        assert.ok(part.length >= before - 2, `cut at ${cut}: ${part.length} < ${before}`);
        const a = Math.floor(rand() * text.length);
        extract(text.slice(0, a) + text.slice(a + Math.floor(rand() * 300)), lang);
      }
    });

    it('huge (50,000 lines) and deeply nested (10,000 levels) files are read without throwing', () => {
      const huge = make(50_000);
      const res = extract(huge, lang, { maxFileSize: 10 * 1024 * 1024 });
      assert.ok(res.sites.length > 1000);
      const deep = lang === 'go'
        ? `package x\nfunc f() {\n\t_ = &dynamodb.UpdateItemInput{TableName: aws.String("T"), Key: ${'map[string]types.AttributeValue{"a": &types.AttributeValueMemberM{Value: '.repeat(3000)}nil${'}}'.repeat(3000)}}\n\tx := ${'('.repeat(10_000)}1${')'.repeat(10_000)}\n}\n`
        : `class A { void f() { var x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}; c.updateItem(UpdateItemRequest.builder().tableName("T").key(${'Map.of("a", AttributeValue.fromM('.repeat(3000)}null${'))'.repeat(3000)}).build()); } }\n`;
      const d = extract(deep, lang);
      assert.ok(d.sites.length <= 1);
    });

    it('binary (NUL bytes) is skipped with a reason', () => {
      const res = extract('\0\0\0TableName\0', lang);
      assert.deepEqual(res.sites, []);
      assert.match(res.skipped ?? '', /binary/);
    });
  });
}
