/**
 * The Java host (server/src/extract/java.ts): SDK 2.x builders onto the value model, exact ranges through escapes and
 * text blocks, fields and locals, Map.of / ofEntries / HashMap puts, the Enhanced Client's Expression; the mission rules
 * fire as in TS with builder-call fixes that tree-sitter-java parses.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureParser, extract, prop } from '../../../server/src/extract';
import type { StringNode } from '../../../server/src/extract/model';
import { stringRange } from '../../../server/src/extract/model';
import { parsesClean } from './support';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';

const lint = (text: string) => {
  const sites = extract(text, 'java').sites;
  return { sites, findings: runRules(text, 'java', sites) };
};
const wrap = (body: string) => `package x;\n\nimport java.util.*;\nimport software.amazon.awssdk.services.dynamodb.model.*;\n\npublic class Repo {\n    private static final String TABLE = "Social";\n\n    void f(DynamoDbClient ddb, String id) {\n${body}\n    }\n}\n`;

describe('java host', () => {
  before(() => ensureParser('java'));

  it('reads an UpdateItemRequest builder with a field constant, escapes and a text block at exact ranges', () => {
    const text = wrap(`        ddb.updateItem(UpdateItemRequest.builder()
                .tableName(TABLE)
                .key(Map.of("PK", AttributeValue.builder().s(id).build()))
                .updateExpression("SET #n = :n, \\u0063 = :n")
                .conditionExpression("""
                    attribute_exists(PK) \\
                    AND #n <> :n
                    """)
                .expressionAttributeNames(Map.ofEntries(Map.entry("#n", "name")))
                .expressionAttributeValues(Map.of(":n", AttributeValue.fromN("1")))
                .build());`);
    const [s] = extract(text, 'java').sites;
    assert.equal(s.api, 'UpdateItem');
    assert.equal(s.style, 'low-level');
    assert.equal(s.enclosingFunction?.name, 'f');
    assert.equal((prop(s.params, 'TableName') as StringNode).value, 'Social');
    const u = prop(s.params, 'UpdateExpression') as StringNode;
    assert.equal(u.value, 'SET #n = :n, c = :n');
    const r = stringRange(u, 13, 14);
    assert.equal(text.slice(r.start, r.end), '\\u0063');
    const c = prop(s.params, 'ConditionExpression') as StringNode;
    assert.equal(c.value, 'attribute_exists(PK) AND #n <> :n\n');
    const and = stringRange(c, c.value.indexOf('AND'), c.value.indexOf('AND') + 3);
    assert.equal(text.slice(and.start, and.end), 'AND');
    assert.equal((prop(prop(s.params, 'ExpressionAttributeNames'), '#n') as StringNode).value, 'name');
    const av = prop(prop(s.params, 'ExpressionAttributeValues'), ':n');
    assert.equal(av?.kind === 'object' && av.properties[0].key, 'N');
    assert.deepEqual(lint(text).findings.map((f) => f.ruleId), []);
  });

  it('mission rules fire with builder-call fixes that parse', () => {
    const text = readFileSync(join(__dirname, 'fixtures', 'Likes.java'), 'utf8');
    const { findings } = lint(text);
    const ids = findings.map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}`);
    assert.ok(ids.includes('unguarded-add-in-transaction put'), ids.join('\n'));
    assert.ok(ids.includes('add-on-non-number :inc'), ids.join('\n'));
    assert.ok(ids.some((i) => i.startsWith('set-without-if-not-exists')), ids.join('\n'));
    for (const f of findings)
      for (const fix of f.fixes ?? []) assert.ok(parsesClean('java', applyEdits(text, fix.edits)), `${f.ruleId}: ${fix.title}`);
    const guard = findings.find((f) => f.ruleId === 'unguarded-add-in-transaction')!.fixes![0];
    const fixed = applyEdits(text, guard.edits);
    assert.ok(fixed.includes('.conditionExpression("attribute_not_exists(SK)")'), fixed);
    assert.ok(!lint(fixed).findings.some((f) => f.ruleId === 'unguarded-add-in-transaction'));
    const num = findings.find((f) => f.ruleId === 'add-on-non-number')!.fixes![0];
    assert.ok(applyEdits(text, num.edits).includes('AttributeValue.builder().n("1").build()'));
  });

  it('HashMap puts are entries; a conditional put gives one site per alternative; no fix inserts into it', () => {
    const text = wrap(`        Map<String, AttributeValue> v = new HashMap<>();
        v.put(":a", AttributeValue.fromS("x"));
        if (id != null) v.put(":b", AttributeValue.fromS(id));
        ddb.updateItem(UpdateItemRequest.builder().tableName(TABLE).key(Map.of("PK", AttributeValue.fromS(id)))
                .updateExpression("SET #a = :a, b = :b").expressionAttributeValues(v).build());`);
    const { sites, findings } = lint(text);
    assert.deepEqual(
      sites.map((s) => {
        const vals = prop(s.params, 'ExpressionAttributeValues');
        return [s.alternative, vals?.kind === 'object' && vals.complete, vals?.kind === 'object' && vals.properties.map((p) => p.key).sort()];
      }),
      [
        [{ index: 0, count: 2 }, true, [':a', ':b']],
        [{ index: 1, count: 2 }, true, [':a']],
      ],
    );
    // Without :b when id is null: the request DynamoDB rejects is reported; no fix on one alternative of several.
    assert.ok(findings.some((f) => f.ruleId === 'undefined-value' && text.slice(f.range.start, f.range.end) === ':b'), findings.map((f) => f.ruleId).join());
    for (const f of findings) assert.deepEqual(f.fixes ?? [], [], `${f.ruleId}: ${f.message}`);
  });

  it('Enhanced Client: the Expression of a PutItemEnhancedRequest is the condition (incomplete request)', () => {
    const text = wrap(`        Expression cond = Expression.builder().expression("attribute_not_exists(#pk) AND size > :v")
                .putExpressionName("#pk", "pk").putExpressionValue(":v", AttributeValue.fromN("1")).build();
        table.putItem(PutItemEnhancedRequest.builder(Item.class).item(item).conditionExpression(cond).build());`);
    const { sites, findings } = lint(text);
    assert.equal(sites.length, 1);
    assert.equal(sites[0].api, 'PutItem');
    assert.equal(sites[0].params.complete, false);
    assert.equal((prop(sites[0].params, 'ConditionExpression') as StringNode).value, 'attribute_not_exists(#pk) AND size > :v');
    assert.ok(findings.some((f) => f.ruleId === 'reserved-word'), findings.map((f) => f.ruleId).join());
  });
  it('a helper called with -amount is read with the argument: a negative number of unknown magnitude, no fix into the helper', () => {
    const text = wrap(`        spend(ddb, id, 5L);
    }

    void spend(DynamoDbClient ddb, String id, long amount) {
        apply(ddb, id, -amount);
    }

    private void apply(DynamoDbClient ddb, String id, long delta) {
        ddb.updateItem(UpdateItemRequest.builder().tableName(TABLE).key(Map.of("PK", AttributeValue.fromS(id)))
                .updateExpression("ADD credits :d")
                .expressionAttributeValues(Map.of(":d", AttributeValue.fromN(String.valueOf(delta)))).build());`);
    const { sites, findings } = lint(text);
    const own = sites.find((s) => !s.forwarded)!;
    const fromSpend = sites.find((s) => s.forwarded && s.enclosingFunction?.name === 'spend')!;
    const fromF = sites.find((s) => s.forwarded && s.enclosingFunction?.name === 'f')!;
    const delta = (s: typeof own): string => {
      const av = prop(prop(s.params, 'ExpressionAttributeValues'), ':d');
      const v = av?.kind === 'object' ? av.properties[0].value : undefined;
      return v?.kind === 'unknown' ? `unknown sign ${v.sign ?? 'none'}` : v?.kind === 'number' ? `number ${v.text}` : String(v?.kind);
    };
    assert.equal(delta(own), 'unknown sign none');
    assert.equal(delta(fromSpend), 'unknown sign -1');
    // Two helpers deep, 5L bound through spend's amount: -5, a literal.
    assert.equal(delta(fromF), 'number -5');
    assert.deepEqual([fromSpend.forwarded?.bound, text.slice(fromSpend.nameRange.start, fromSpend.nameRange.end)], [true, 'apply']);
    const dec = findings.filter((f) => f.ruleId === 'decrement-without-floor');
    assert.equal(dec.length, 1);
    assert.equal(text.slice(dec[0].range.start, dec[0].range.end), 'credits :d');
    assert.deepEqual(dec[0].fixes ?? [], []);
  });

  it('a builder held in a variable is the request at its build(); an SDK 1.x value keeps its withN key range', () => {
    const text = wrap(`        UpdateItemRequest.Builder b = UpdateItemRequest.builder().tableName(TABLE);
        b.key(Map.of("PK", AttributeValue.fromS(id)));
        b = b.updateExpression("SET n = :n");
        ddb.updateItem(b.expressionAttributeValues(Map.of(":n", AttributeValue.fromN("1"))).build());
        var legacy = new com.amazonaws.services.dynamodbv2.model.UpdateItemRequest().withTableName(TABLE)
                .withUpdateExpression("ADD n :one")
                .withExpressionAttributeValues(Map.of(":one", new com.amazonaws.services.dynamodbv2.model.AttributeValue().withS("1")));
        legacy.setKey(Map.of("PK", new com.amazonaws.services.dynamodbv2.model.AttributeValue(id)));
        dynamo.updateItem(legacy);`);
    const { sites, findings } = lint(text);
    assert.deepEqual(sites.map((s) => [s.api, s.sdk, text.slice(s.nameRange.start, s.nameRange.end)]), [
      ['UpdateItem', 'aws-sdk-java-v2', 'b'],
      ['UpdateItem', 'aws-sdk-java-v1', 'UpdateItemRequest'],
    ]);
    assert.deepEqual(sites[0].params.properties.map((p) => p.key).sort(), ['ExpressionAttributeValues', 'Key', 'TableName', 'UpdateExpression']);
    assert.ok(prop(sites[1].params, 'Key'), 'the setter after the chain is read');
    const one = prop(prop(sites[1].params, 'ExpressionAttributeValues'), ':one');
    assert.equal(one?.kind === 'object' && text.slice(one.properties[0].keyRange.start, one.properties[0].keyRange.end), 'withS');
    const add = findings.find((f) => f.ruleId === 'add-on-non-number')!;
    assert.ok(add, findings.map((f) => f.ruleId).join());
    assert.ok(applyEdits(text, add.fixes![0].edits).includes('AttributeValue().withN("1")'));
  });
});
