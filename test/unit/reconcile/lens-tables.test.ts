/**
 * The reconcile code lens with the workspace index (issue 14): the table's name and key attribute names come from its
 * definition (also through an environment variable), the definition's sort key picks the child prefix, and an unknown
 * or ambiguous table leaves the arguments as the code alone gives them.
 */
import assert from 'node:assert/strict';
import { extract } from '../../../server/src/extract';
import { lensTargets } from '../../../server/src/reconcile/lens';
import { TableIndex } from '../../../server/src/tables';
import { extractTables } from '../../../server/src/tables/extract';

const TEMPLATE = (name: string, pk = 'postId', sk = 'itemType') => `Resources:
  ${name}Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: ${name.toLowerCase()}
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - { AttributeName: ${pk}, AttributeType: S }
        - { AttributeName: ${sk}, AttributeType: S }
      KeySchema:
        - { AttributeName: ${pk}, KeyType: HASH }
        - { AttributeName: ${sk}, KeyType: RANGE }
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Environment:
        Variables:
          SOCIAL_TABLE: !Ref ${name}Table
`;

const LIKE = (table: string) => `import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
export const like = (postId: string, userId: string) => doc.send(new TransactWriteCommand({ TransactItems: [
  { Put: { TableName: ${table}, Item: { postId: \`POST#\${postId}\`, owner: \`USER#\${userId}\`, itemType: \`LIKE#\${userId}\` }, ConditionExpression: 'attribute_not_exists(postId)' } },
  { Update: { TableName: ${table}, Key: { postId: \`POST#\${postId}\`, itemType: 'META' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } },
] }));
`;

const index = (...templates: Array<[string, string]>) =>
  TableIndex.from(templates.map(([file, text]) => extractTables(`file:///w/${file}`, file, text, 'yaml')));

const argsOf = (code: string, tables?: TableIndex) => lensTargets(extract(code, 'typescript').sites, tables).map((t) => t.args);

describe('reconcile lens: arguments from the table definition', () => {
  it('a literal table name: key attribute names and where it is defined', () => {
    assert.deepEqual(argsOf(LIKE("'social'"), index(['template.yaml', TEMPLATE('Social')])), [
      { table: 'social', partitionKey: 'postId', sortKey: 'itemType', definedAt: 'SocialTable (template.yaml:2)', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' },
    ]);
  });

  it('a name from process.env: the definition gives the table name too', () => {
    const got = argsOf(`const TABLE = process.env.SOCIAL_TABLE!;\n${LIKE('TABLE')}`, index(['template.yaml', TEMPLATE('Social')]));
    assert.equal(got.length, 1);
    assert.equal(got[0].table, 'social');
    assert.equal(got[0].partitionKey, 'postId');
    assert.equal(got[0].sortKey, 'itemType');
  });

  it('the definition\'s sort key picks the child prefix when two key attributes differ between child and parent', () => {
    const code = `export const like = (u: string, p: string) => doc.send(new TransactWriteCommand({ TransactItems: [
  { Put: { TableName: 'social', Item: { pk: \`POST#\${p}\`, kind: \`LIKE#\${u}\` } } },
  { Update: { TableName: 'social', Key: { kind: 'META', pk: \`USER#\${u}\` }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } },
] }));
`;
    // Without the index the last differing attribute (pk) is taken; the definition says the sort key is `kind`.
    assert.deepEqual(argsOf(code).map((a) => a.childPrefix), ['POST#']);
    const got = argsOf(code, index(['template.yaml', TEMPLATE('Social', 'pk', 'kind')]));
    assert.deepEqual(got.map((a) => [a.partitionKey, a.sortKey, a.childPrefix, a.parentSk]), [['pk', 'kind', 'LIKE#', 'META']]);
  });

  it('unknown table or no index: no key names (the command keeps its generic prompts)', () => {
    const plain = { table: 'social', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' };
    assert.deepEqual(argsOf(LIKE("'social'")), [plain]);
    assert.deepEqual(argsOf(LIKE("'social'"), index(['template.yaml', TEMPLATE('Other')])), [plain]);
    const env = argsOf(`const TABLE = process.env.NOPE!;\n${LIKE('TABLE')}`, index(['template.yaml', TEMPLATE('Social')]));
    assert.deepEqual(env, [{ counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' }]);
  });

  it('two definitions that disagree on the keys: nothing from either', () => {
    const a = TEMPLATE('Social');
    const b = TEMPLATE('Social', 'pk', 'sk');
    const got = argsOf(LIKE("'social'"), index(['a.yaml', a], ['b.yaml', b]));
    assert.deepEqual(got, [{ table: 'social', counter: 'likeTally', childPrefix: 'LIKE#', parentSk: 'META' }]);
  });
});
