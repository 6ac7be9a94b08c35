/**
 * The per-site memos of the rules keep nothing of their own for a site with nothing to report (issue 11, memory): the
 * expression rules hand out one shared, frozen empty array for a site without a finding of theirs (no Set, no array
 * per rule and site), and the memos of validator results, Puts and counter actions share one empty array each. The
 * findings must not change: through the language service's rule cache across edits (sites handed back, memos read
 * again) they equal a fresh lint of each version, and a site with findings gets lists of its own.
 */
import { strict as assert } from 'node:assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { extract } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import { expressionRules, validateSite } from '../../../server/src/rules/expression-rules';
import { setWithoutIfNotExists } from '../../../server/src/rules/set-without-if-not-exists';
import type { Finding, RuleContext } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';

const SETTINGS = { ...DEFAULT_SETTINGS };
const plain = (fs: unknown) => JSON.parse(JSON.stringify(fs)) as unknown;

const head = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const EXPR = 'SET #s = :s';
`;
const clean = (i: number) => `export async function get${i}(id) {
  return doc.send(new GetCommand({ TableName: 't', Key: { PK: id } }));
}
`;
// A reserved word, an undefined value, an unused name; and one constant shared by two requests of one function.
const dirty = (i: number) => `export async function put${i}(id) {
  await doc.send(new UpdateCommand({ TableName: 't', Key: { PK: id }, UpdateExpression: 'SET status = :x, n = n + :one', ExpressionAttributeNames: { '#unused': 'u' }, ExpressionAttributeValues: { ':one': 1 } }));
  await doc.send(new UpdateCommand({ TableName: 't', Key: { PK: id }, UpdateExpression: EXPR, ExpressionAttributeValues: { ':s': 1 } }));
  await doc.send(new UpdateCommand({ TableName: 't', Key: { PK: id }, UpdateExpression: EXPR, ExpressionAttributeValues: { ':s': 2 } }));
}
`;
const put = (i: number) => `export async function create${i}(id) {
  await doc.send(new PutCommand({ TableName: 't', Item: { PK: id, n: 0 } }));
}
`;

describe('rules: shared empty results per site (memory)', () => {
  it('findings through the rule cache across edits equal a fresh lint of each version', () => {
    const body = [clean(0), dirty(1), put(2), clean(3), dirty(4)];
    const versions = [
      head + body.join('\n'),
      head + body.join('\n').replace('SET status', 'SET  status'),
      head + [clean(0), clean(5), dirty(1), put(2), clean(3), dirty(4)].join('\n'),
      head + [dirty(1), put(2), dirty(4)].join('\n'),
      head + [clean(0), dirty(1), clean(3), dirty(4), put(6)].join('\n').replace(":x, n", ":one, n"),
      head + body.join('\n'),
    ];
    const service = new DynalintService();
    const got = versions.map((text, i) => plain(service.analyze(TextDocument.create('file:///w/empty.ts', 'typescript', i + 1, text), SETTINGS).findings));
    const want = versions.map((text) => plain(runRules(text, 'typescript', extract(text, 'typescript').sites, { settingsRules: SETTINGS.rules })));
    assert.deepEqual(got, want);
    // The document does have expression findings (the test reads the shared paths and the others).
    assert.ok((want[0] as Finding[]).some((f) => f.ruleId === 'reserved-word'));
    assert.ok((want[0] as Finding[]).some((f) => f.ruleId === 'unused-name'));
  });

  it('a site without findings gets one shared frozen array from every expression rule; a site with them its own', () => {
    const text = head + [clean(0), dirty(1), clean(3)].join('\n');
    const { sites } = extract(text, 'typescript');
    const ctx: RuleContext = { text, sites } as RuleContext;
    const cleanSites = sites.filter((s) => validateSite(s).length === 0);
    const dirtySites = sites.filter((s) => validateSite(s).length > 0);
    assert.ok(cleanSites.length >= 2 && dirtySites.length >= 1);
    // Validator results: one shared empty array for the sites without any.
    assert.equal(validateSite(cleanSites[0]), validateSite(cleanSites[1]));
    assert.ok(Object.isFrozen(validateSite(cleanSites[0])));
    const empty = expressionRules[0].site!(ctx, cleanSites[0]);
    for (const rule of expressionRules)
      for (const s of cleanSites) {
        const out = rule.site!(ctx, s);
        assert.equal(out, empty, rule.id);
        assert.ok(Object.isFrozen(out));
      }
    // A site with findings: each rule with one of them hands out a list of its own.
    let found = 0;
    for (const rule of expressionRules) {
      const out = rule.site!(ctx, dirtySites[0]);
      if (!out.length) continue;
      found++;
      assert.ok(!Object.isFrozen(out), rule.id);
      assert.notEqual(out, rule.site!(ctx, dirtySites[0]));
    }
    assert.ok(found >= 2);
  });
  it('set-without-if-not-exists: interned texts (one per text: not observable) leave messages, titles and edits as a fresh lint gives them', () => {
    const bump = (i: number) => `export async function bump${i}(id) {
  await doc.send(new UpdateCommand({ TableName: 't', Key: { PK: id }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } }));
}
`;
    const text = head + [bump(0), bump(1), bump(2)].join('\n');
    const { sites } = extract(text, 'typescript');
    const ctx = { text, sites } as RuleContext;
    const found = sites.map((s) => setWithoutIfNotExists.site!(ctx, s));
    assert.deepEqual(found.map((f) => f.length), [1, 1, 1]);
    const [a, b] = [found[0][0], found[2][0]];
    assert.equal(a.message, b.message);
    assert.ok(a.fixes && b.fixes && a.fixes.length === 2 && b.fixes.length === 2);
    assert.deepEqual(a.fixes.map((f) => f.title), b.fixes.map((f) => f.title));
    assert.deepEqual(a.fixes.map((f) => f.edits.map((e) => e.newText)), b.fixes.map((f) => f.edits.map((e) => e.newText)));
    // Different offsets, same texts: the findings still point at their own requests.
    assert.notDeepEqual(a.range, b.range);
    assert.deepEqual(plain(found.map((f) => f.map((x) => x.message))), plain(runRules(text, 'typescript', sites, { settingsRules: SETTINGS.rules }).filter((f) => f.ruleId === 'set-without-if-not-exists').map((f) => [f.message])));
  });
});
