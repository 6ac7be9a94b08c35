import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract, initParsers } from '../../server/src/extract';
import { lensTargets } from '../../server/src/reconcile/lens';

const examples = join(__dirname, '../../examples');

function lenses(text: string, languageId: string) {
  return lensTargets(extract(text, languageId).sites).map((l) => ({ at: text.slice(l.range.start, l.range.end), title: l.title, args: l.args }));
}

const LIKES = { table: 'Social', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' };

describe('reconcile code lenses', () => {
  before(() => initParsers());

  it('recognises the article transaction in AWS CLI JSON, guarded or not', () => {
    for (const f of ['like-post.json', 'like-post-unguarded.json']) {
      const text = readFileSync(join(examples, f), 'utf8');
      const got = lenses(text, 'json');
      assert.equal(got.length, 1, f);
      assert.deepEqual(got[0].args, LIKES);
      assert.equal(got[0].title, 'Reconcile likeTally with its LIKE# children');
    }
  });

  it('reads the child prefix through template literals (like and unlike), not from single writes or queries', () => {
    const text = readFileSync(join(examples, 'likes.ts'), 'utf8');
    const got = lenses(text, 'typescript');
    assert.deepEqual(
      got.map((g) => g.args),
      [LIKES, LIKES],
    );
    assert.ok(got.every((g) => g.at === 'TransactWriteItemsCommand'), JSON.stringify(got.map((g) => g.at)));
  });

  const cases: Array<{ name: string; lang: string; text: string; args: object[] }> = [
    {
      name: 'python f-strings, SET with if_not_exists, placeholder names',
      lang: 'python',
      text: `import boto3
client = boto3.client("dynamodb")
def add_member(ws, user):
    client.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Teams", "Item": {"pk": {"S": f"WS#{ws}"}, "sk": {"S": f"MEMBER#{user}"}},
                 "ConditionExpression": "attribute_not_exists(sk)"}},
        {"Update": {"TableName": "Teams", "Key": {"pk": {"S": f"WS#{ws}"}, "sk": {"S": "PROFILE"}},
                    "UpdateExpression": "SET #m = if_not_exists(#m, :z) + :one",
                    "ExpressionAttributeNames": {"#m": "memberCount"},
                    "ExpressionAttributeValues": {":z": {"N": "0"}, ":one": {"N": "1"}}}},
    ])
`,
      args: [{ table: 'Teams', counter: 'memberCount', childPrefix: 'MEMBER#', parentSk: 'PROFILE' }],
    },
    {
      name: 'document client values, a variable parent sort key',
      lang: 'typescript',
      text: `import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
export const reply = (id: string, r: string, metaSk: string) => doc.send(new TransactWriteCommand({ TransactItems: [
  { Put: { TableName: 'Forum', Item: { PK: 'C#' + id, SK: \`REPLY#\${r}\` } } },
  { Update: { TableName: 'Forum', Key: { PK: 'C#' + id, SK: metaSk }, UpdateExpression: 'ADD replies :one', ExpressionAttributeValues: { ':one': 1 } } },
]}));`,
      args: [{ table: 'Forum', counter: 'replies', childPrefix: 'REPLY#' }],
    },
    {
      name: 'no counter update: no lens',
      lang: 'json',
      text: `{"TransactItems": [{"Put": {"TableName": "T", "Item": {"PK": {"S": "P#1"}, "SK": {"S": "LIKE#1"}}}},
        {"Update": {"TableName": "T", "Key": {"PK": {"S": "P#1"}, "SK": {"S": "META"}}, "UpdateExpression": "SET title = :t",
        "ExpressionAttributeValues": {":t": {"S": "x"}}}}]}`,
      args: [],
    },
    {
      name: 'child in another table: no lens',
      lang: 'json',
      text: `{"TransactItems": [{"Put": {"TableName": "Audit", "Item": {"PK": {"S": "P#1"}, "SK": {"S": "LIKE#1"}}}},
        {"Update": {"TableName": "T", "Key": {"PK": {"S": "P#1"}, "SK": {"S": "META"}}, "UpdateExpression": "ADD n :one",
        "ExpressionAttributeValues": {":one": {"N": "1"}}}}]}`,
      args: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(
        lenses(c.text, c.lang).map((g) => g.args),
        c.args,
      );
    });
  }
});
