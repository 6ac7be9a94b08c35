/**
 * set-without-if-not-exists: the `unless` a cached finding carries (CounterItem: table, key patterns, counter) is one
 * object per contents, shared by updates written alike (the rule cache keeps one per counter update), and what the
 * document answers for it (dropped while a Put creates the item) is what a fresh lint reports, through edits.
 */
import { strict as assert } from 'node:assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { extract } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import { setWithoutIfNotExists } from '../../../server/src/rules/set-without-if-not-exists';
import type { RuleContext } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';

const head = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
`;
const bump = (name: string, table: string, counter: string) => `export async function ${name}(id) {
  await doc.send(new UpdateCommand({ TableName: '${table}', Key: { PK: \`POST#\${id}\` }, UpdateExpression: 'SET ${counter} = ${counter} + :one', ExpressionAttributeValues: { ':one': 1 } }));
}
`;

describe('set-without-if-not-exists: one CounterItem per contents', () => {
  it('updates written alike share their unless; other tables or counters do not; contents as written', () => {
    const text = head + [bump('a', 'Posts', 'likes'), bump('b', 'Posts', 'likes'), bump('c', 'Posts', 'views'), bump('d', 'Other', 'likes'), bump('e', 'Posts', 'likes')].join('\n');
    const { sites } = extract(text, 'typescript');
    const ctx = { text, sites } as RuleContext;
    const unless = sites.map((s) => setWithoutIfNotExists.site!(ctx, s)).map((f) => {
      assert.equal(f.length, 1);
      return f[0].unless;
    });
    assert.deepEqual(unless[0], { table: 'Posts', key: [['PK', 'POST#*']], counter: 'likes' });
    assert.equal(unless[1], unless[0]);
    assert.equal(unless[4], unless[0]);
    assert.deepEqual(unless[2], { table: 'Posts', key: [['PK', 'POST#*']], counter: 'views' });
    assert.deepEqual(unless[3], { table: 'Other', key: [['PK', 'POST#*']], counter: 'likes' });
    assert.equal(new Set(unless).size, 3);
  });

  it('a Put that creates the item, added and removed by edits: the service reports what a fresh lint does', () => {
    const put = `export async function create(id) {
  await doc.send(new PutCommand({ TableName: 'Posts', Item: { PK: \`POST#\${id}\`, likes: 0 } }));
}
`;
    const base = head + [bump('a', 'Posts', 'likes'), bump('b', 'Posts', 'likes'), bump('c', 'Posts', 'views')].join('\n');
    const settings = DEFAULT_SETTINGS;
    const svc = new DynalintService();
    const doc = TextDocument.create('file:///counter-items.ts', 'typescript', 1, base);
    const mine = (t: string) => JSON.stringify(runRules(t, 'typescript', extract(t, 'typescript').sites, { settingsRules: settings.rules }).filter((f) => f.ruleId === 'set-without-if-not-exists'));
    const served = () => JSON.stringify(svc.analyze(doc, settings).findings.filter((f) => f.ruleId === 'set-without-if-not-exists'));
    assert.equal(served(), mine(base));
    for (const text of [base + put, base, put + base, base.replace("'Posts', Key", "'Posts2', Key")]) {
      TextDocument.update(doc, [{ range: { start: doc.positionAt(0), end: doc.positionAt(doc.getText().length) }, text }], doc.version + 1);
      assert.equal(served(), mine(text));
    }
    // With the Put, only the views counter is reported.
    assert.equal(JSON.parse(mine(base + put)).length, 1);
  });
});
