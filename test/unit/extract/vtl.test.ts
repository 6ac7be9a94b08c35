/**
 * AppSync VTL mapping templates (issue 15): the JSON body read with VTL blanked out (offsets kept), references
 * unknown, `$util.dynamodb.toDynamoDBJson(<literal>)` typed, the rules firing as in SDK code, fixes writing JSON only
 * into maps written as such, incremental updates equal to fresh extractions, bad input never throwing.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, extract, languageIdForPath, prop, RequestSite, StringNode } from '../../../server/src/extract';
import { blankVtl } from '../../../server/src/extract/vtl';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';
import { strings } from './support';

const lint = (text: string) => {
  const sites = extract(text, 'vtl').sites;
  return { sites, findings: runRules(text, 'vtl', sites) };
};
const shown = (text: string, fs: { ruleId: string; severity: string; range: { start: number; end: number } }[]) =>
  fs.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}`);

const UPDATE = `## Increment a post's view count
#set($now = $util.time.nowISO8601())
{
  "version": "2018-05-29",
  "operation": "UpdateItem",
  "key": {
    "id": $util.dynamodb.toDynamoDBJson($ctx.args.id)
  },
  "update": {
    "expression": "SET viewCount = viewCount + :one, updatedAt = :now, #name = :name",
    "expressionNames": { "#name": "name" },
    "expressionValues": {
      ":one": $util.dynamodb.toDynamoDBJson(1),
      ":now": $util.dynamodb.toDynamoDBJson($now),
      ":name": { "S": "\${ctx.args.name}" }
    }
  }
}
`;

const TRANSACT = `{
  "version": "2018-05-29",
  "operation": "TransactWriteItems",
  "transactItems": [
    {
      "table": "Likes",
      "operation": "PutItem",
      "key": { "PK": $util.dynamodb.toDynamoDBJson("POST#$ctx.args.postId"), "SK": { "S": "USER#1" } },
      "attributeValues": { "at": $util.dynamodb.toDynamoDBJson($util.time.nowEpochSeconds()) }
    },
    {
      "table": "Posts",
      "operation": "UpdateItem",
      "key": { "PK": { "S": "POST#1" }, "SK": { "S": "META" } },
      "update": {
        "expression": "ADD likes :one, tags :t, count :one",
        "expressionValues": { ":one": { "N": "1" }, ":t": $util.dynamodb.toDynamoDBJson('x') }
      }
    }
  ]
}
`;

describe('extract: AppSync VTL templates', () => {
  it('blanking keeps offsets; directives and references leave a JSON body', () => {
    const { json, regions } = blankVtl(UPDATE);
    assert.equal(json.length, UPDATE.length);
    assert.equal(json.split('\n').length, UPDATE.length ? UPDATE.split('\n').length : 0);
    assert.ok(!json.includes('$') && !json.includes('#set'));
    assert.ok(regions.some((r) => UPDATE.slice(r.start, r.end) === '$util.dynamodb.toDynamoDBJson($ctx.args.id)'));
    assert.equal(languageIdForPath('resolvers/Mutation.like.req.vtl'), 'vtl');
  });

  it('an update: fields renamed, exact ranges, literal typed values, unknown references', () => {
    const { sites, findings } = lint(UPDATE);
    assert.deepEqual(sites.map((s) => [s.api, s.apiSource, s.style, s.sdk]), [['UpdateItem', 'call', 'low-level', 'appsync-vtl']]);
    const s = sites[0];
    const expr = prop(s.params, 'UpdateExpression') as StringNode;
    assert.equal(UPDATE.slice(expr.offsets[0], expr.offsets[expr.value.length]), expr.value);
    for (const n of strings(s.params)) assert.equal(UPDATE.slice(n.range.start + 1, n.range.end - 1), n.value);
    const values = prop(s.params, 'ExpressionAttributeValues');
    assert.equal(prop(prop(values, ':one'), 'N')?.kind, 'number');
    assert.equal(prop(values, ':now')?.kind, 'unknown');
    assert.equal(prop(prop(values, ':name'), 'S')?.kind, 'unknown');
    assert.equal(prop(prop(s.params, 'Key'), 'id')?.kind, 'unknown');
    const got = shown(UPDATE, findings);
    assert.deepEqual(got, ['set-without-if-not-exists viewCount = viewCount + :one']);
    // The if_not_exists fix writes JSON into the template's own expressionValues map.
    const fix = findings.find((f) => f.ruleId === 'set-without-if-not-exists')!.fixes!.find((f) => f.edits.some((e) => e.newText.includes(':zero')))!;
    const out = applyEdits(UPDATE, fix.edits);
    assert.match(out, /":name": \{ "S": "\$\{ctx\.args\.name\}" \},\n {6}":zero": \{"N": "0"\}\n/);
    assert.deepEqual(shown(out, lint(out).findings), []);
  });

  it('an entry whose value is a reference ends where the reference does: a fix adds the next entry after it', () => {
    const text = `{
  "version": "2018-05-29",
  "operation": "UpdateItem",
  "key": { "id": $util.dynamodb.toDynamoDBJson($ctx.args.id) },
  "update": {
    "expression": "SET viewCount = viewCount + :one, seenAt = :s",
    "expressionValues": {
      ":one": $util.dynamodb.toDynamoDBJson(1),
      ":s": $util.dynamodb.toDynamoDBJson($ctx.args.at)
    }
  }
}
`;
    const { sites, findings } = lint(text);
    const values = prop(sites[0].params, 'ExpressionAttributeValues');
    assert.equal(values?.kind, 'object');
    const entries = values.kind === 'object' ? values.properties.map((p) => text.slice(p.range.start, p.range.end)) : [];
    assert.deepEqual(entries, ['":one": $util.dynamodb.toDynamoDBJson(1)', '":s": $util.dynamodb.toDynamoDBJson($ctx.args.at)']);
    const key = prop(sites[0].params, 'Key');
    assert.deepEqual(key?.kind === 'object' ? key.properties.map((p) => text.slice(p.range.start, p.range.end)) : [], ['"id": $util.dynamodb.toDynamoDBJson($ctx.args.id)']);
    const fix = findings.find((f) => f.ruleId === 'set-without-if-not-exists')!.fixes!.find((f) => f.edits.some((e) => e.newText.includes(':zero')))!;
    const out = applyEdits(text, fix.edits);
    assert.ok(out.includes('      ":s": $util.dynamodb.toDynamoDBJson($ctx.args.at),\n      ":zero": {"N": "0"}\n    }'), out);
    assert.deepEqual(blankVtl(out).regions.map((r) => out.slice(r.start, r.end)), blankVtl(text).regions.map((r) => text.slice(r.start, r.end)), 'the references are untouched');
    assert.deepEqual(shown(out, lint(out).findings), []);
  });

  it('a reserved word Velocity reads as a directive (end, if, return...) gets a placeholder that is not one (#endAttr)', () => {
    const text = `{
  "version": "2018-05-29",
  "operation": "UpdateItem",
  "key": { "id": $util.dynamodb.toDynamoDBJson($ctx.args.id) },
  "update": {
    "expression": "SET end = :e, #n = :n",
    "expressionNames": { "#n": "note" },
    "expressionValues": { ":e": { "N": "1" }, ":n": { "S": "x" } }
  }
}
`;
    const { findings } = lint(text);
    const finding = findings.find((f) => f.ruleId === 'reserved-word')!;
    const fix = finding.fixes![0];
    assert.equal(fix.title, 'Use placeholder #endAttr for "end"');
    // The message names the placeholder the fix writes, not the directive.
    assert.match(finding.message, /use an expression attribute name \(#endAttr\) instead/);
    const out = applyEdits(text, fix.edits);
    assert.ok(out.includes('"expression": "SET #endAttr = :e, #n = :n"') && out.includes('{ "#n": "note", "#endAttr": "end" }'), out);
    assert.deepEqual(blankVtl(out).regions, [...blankVtl(text).regions], 'no directive written into a string');
    assert.deepEqual(shown(out, lint(out).findings), []);
    // Elsewhere #end is an ordinary placeholder.
    const js = "client.update({ TableName: 'T', Key: { id: 'a' }, UpdateExpression: 'SET end = :e', ExpressionAttributeValues: { ':e': 1 } });\n";
    const jsFix = runRules(js, 'javascript', extract(js, 'javascript').sites).find((f) => f.ruleId === 'reserved-word')!.fixes![0];
    assert.equal(jsFix.title, 'Use placeholder #end for "end"');
    assert.match(runRules(js, 'javascript', extract(js, 'javascript').sites).find((f) => f.ruleId === 'reserved-word')!.message, /\(#end\) instead/);
  });

  it('a transaction: unguarded Put, ADD on a string, reserved words; the guard fix withheld', () => {
    const { sites, findings } = lint(TRANSACT);
    assert.deepEqual(sites.map((s) => s.api), ['TransactWriteItems']);
    const got = shown(TRANSACT, findings);
    assert.ok(got.includes('unguarded-add-in-transaction "PutItem"'), got.join('\n'));
    assert.ok(got.includes('add-on-non-number :t'), got.join('\n'));
    assert.ok(got.includes('reserved-word count'), got.join('\n'));
    assert.deepEqual(findings.find((f) => f.ruleId === 'unguarded-add-in-transaction')!.fixes ?? [], []);
  });

  it('undefined and unused placeholders; entries under #if make a map incomplete (silent)', () => {
    const text = `{
  "version": "2018-05-29",
  "operation": "UpdateItem",
  "key": { "id": { "S": "a" } },
  "update": {
    "expression": "SET a = :a, b = :b",
    "expressionValues": { ":a": { "N": "1" }, ":unused": { "N": "2" } }
  }
}`;
    const got = shown(text, lint(text).findings);
    assert.ok(got.some((g) => g.startsWith('undefined-value :b')), got.join('\n'));
    assert.ok(got.some((g) => g.startsWith('unused-value')), got.join('\n'));
    const cond = text.replace('":a": { "N": "1" },', '":a": { "N": "1" },\n      #if($ctx.args.b) ":b": { "N": "3" }, #end');
    assert.ok(!shown(cond, lint(cond).findings).some((g) => g.startsWith('undefined-value')));
    const dynamic = text.replace('"SET a = :a, b = :b"', '"SET a = :a, $expr"');
    assert.ok(!shown(dynamic, lint(dynamic).findings).some((g) => /undefined|unused/.test(g)));
  });

  it('references that are statements ($util.qr on its own line, before or inside the body) are blanked, not values', () => {
    const text = `#set($names = {})
$util.qr($names.put("#s", "status"))
{
  "version": "2018-05-29",
  "operation": "UpdateItem",
  "key": { "id": $util.dynamodb.toDynamoDBJson($ctx.args.id) },
  $util.qr($ctx.stash.put("seen", true))
  "update": {
    "expression": "SET #s = :s, n = n + :one",
    "expressionNames": $util.toJson($names),
    "expressionValues": { ":s": $util.dynamodb.toDynamoDBJson("A"), ":one": $util.dynamodb.toDynamoDBJson(1) },
    "list": [ $ctx.args.a, $ctx.args.b ]
  }
}
`;
    // Before the body: the request is read whole, the counter reported.
    const before = text.replace('  $util.qr($ctx.stash.put("seen", true))\n', '');
    const a = lint(before);
    assert.equal(a.sites.length, 1);
    assert.equal(a.sites[0].params.complete, true);
    assert.equal(prop(a.sites[0].params, 'ExpressionAttributeNames')?.kind, 'unknown');
    assert.deepEqual(shown(before, a.findings), ['set-without-if-not-exists n = n + :one']);
    // Inside the request object it may have changed it: the object is incomplete, and what depends on it is silent.
    const b = lint(text);
    assert.equal(b.sites.length, 1);
    assert.equal(b.sites[0].params.complete, false);
    assert.deepEqual(shown(text, b.findings), []);
  });

  it('incremental: random edits give the same sites as a fresh extraction', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const key = (s: RequestSite) => `${s.api}@${s.range.start}-${s.range.end}:${JSON.stringify(s.params, (k, v) => (k === 'offsets' || k === 'ends' ? undefined : v))}`;
    const doc = createDocumentExtractor('vtl');
    let text = UPDATE + TRANSACT;
    doc.update(text);
    const pieces = ['a', ' ', '\n', '"', '{', '}', ',', '$ctx.args.x', '#if($x)', '#end', ':one', '$util.dynamodb.toDynamoDBJson(2)'];
    for (let i = 0; i < 80; i++) {
      const at = Math.floor(rnd() * text.length);
      const del = rnd() < 0.3 ? Math.floor(rnd() * 4) : 0;
      const ins = rnd() < 0.8 ? pieces[Math.floor(rnd() * pieces.length)] : '';
      text = text.slice(0, at) + ins + text.slice(at + del);
      assert.deepEqual(doc.update(text, [{ start: at, end: at + del, text: ins }]).sites.map(key), extract(text, 'vtl').sites.map(key), `edit ${i}`);
    }
  });

  it('bad input never throws: malformed, unbalanced directives, huge, deeply nested, binary', () => {
    const bad = [
      UPDATE.slice(0, UPDATE.length / 2),
      '{"operation": "UpdateItem", #if($a', '{"operation": "UpdateItem", "x": $util.toJson(', '#* never closed {"operation": "PutItem"}',
      '{"operation": "PutItem", "key": ' + '{"a": '.repeat(5000) + '}'.repeat(5000) + '}',
      '{"operation": "PutItem", "key": ' + '['.repeat(20000),
      UPDATE + '\0\0',
      '$'.repeat(10000) + '#'.repeat(10000) + '"operation"',
    ];
    for (const t of bad) assert.doesNotThrow(() => runRules(t, 'vtl', extract(t, 'vtl').sites));
    const huge = `[${Array.from({ length: 2000 }, () => UPDATE.replace(/^##.*\n#set.*\n/, '')).join(',')}]`;
    assert.equal(extract(huge, 'velocity').sites.length, 2000);
  });
});
