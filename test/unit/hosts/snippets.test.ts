/**
 * The Go and Java snippets (snippets/go.json, java.json), expanded with their defaults inside a function with the
 * imports they need, are found as the request they stand for (low-level) and lint clean.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureParser, extract } from '../../../server/src/extract';
import { runRules } from '../../../server/src/rules';
import { treeParser } from '../../../server/src/extract/treehost';

const root = join(__dirname, '..', '..', '..');

/** Expand a VS Code snippet with its defaults (same reading as test/unit/snippets). */
function expand(body: string): string {
  return body.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
}

const API: Record<string, string> = {
  'like-transaction': 'TransactWriteItems', 'unlike-transaction': 'TransactWriteItems', 'counter-add': 'UpdateItem', 'counter-if-not-exists': 'UpdateItem',
  'conditional-update': 'UpdateItem', 'sharded-counter-write': 'UpdateItem', 'sharded-counter-read': 'Query',
};

const indent = (code: string, pad: string) => code.split('\n').map((l) => (l ? pad + l : l)).join('\n');

function program(lang: string, code: string): string {
  if (lang === 'go')
    return `package likes\n\nimport (\n\t"context"\n\t"fmt"\n\t"math/rand"\n\t"strconv"\n\n\t"github.com/aws/aws-sdk-go-v2/aws"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"\n)\n\nfunc handler(ctx context.Context, client *dynamodb.Client, postID, userID, id string, current, next int) error {\n\tvar err error\n${indent(code, '\t')}\n\t_, _, _ = fmt.Sprint, rand.Intn, strconv.Itoa\n\treturn err\n}\n`;
  return `package likes;\n\nimport java.util.Map;\nimport java.util.concurrent.ThreadLocalRandom;\nimport software.amazon.awssdk.services.dynamodb.DynamoDbClient;\nimport software.amazon.awssdk.services.dynamodb.model.*;\n\npublic class Handler {\n    void handle(DynamoDbClient ddb, String postId, String userId, String id, long current, long next) {\n${indent(code, '        ')}\n    }\n}\n`;
}

describe('snippets: Go and Java', () => {
  before(async () => {
    await ensureParser('go');
    await ensureParser('java');
  });
  for (const lang of ['go', 'java']) {
    const snippets: Record<string, { prefix: string; body: string[] }> = JSON.parse(readFileSync(join(root, 'snippets', `${lang}.json`), 'utf8'));
    it(`${lang}: every safe pattern is there`, () => assert.deepEqual(Object.values(snippets).map((s) => s.prefix.replace(/^ddb-/, '')).sort(), Object.keys(API).sort()));
    for (const [name, s] of Object.entries(snippets))
      it(`${lang}: ${name} (${s.prefix}) parses, is found and lints clean`, () => {
        const body = s.body.join('\n');
        for (const n of [1, 2]) assert.ok(body.includes(`\${${n}:`), `tab stop ${n} missing`);
        const text = program(lang, expand(body));
        const tree = treeParser(lang as 'go' | 'java')!.parse(text)!;
        const broken = tree.rootNode.hasError;
        tree.delete();
        assert.ok(!broken, text);
        const res = extract(text, lang);
        assert.deepEqual(res.sites.map((x) => [x.api, x.style]), [[API[s.prefix.replace(/^ddb-/, '')], 'low-level']], text);
        assert.deepEqual(runRules(text, lang, res.sites).map((f) => `${f.ruleId}: ${f.message}`), [], text);
      });
  }
});
