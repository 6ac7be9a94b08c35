/**
 * The key-schema rules with an in-memory index: cases written in JSON (low-level), lib-dynamodb and boto3 (client and
 * resource); each lists the findings (rule and the source text under its range). Unknown tables, unknown values and
 * incomplete maps stay silent; several matching definitions report only what is wrong against all of them.
 */
import assert from 'node:assert/strict';
import { TableIndex } from '../../../server/src/tables';
import { extractTables } from '../../../server/src/tables/extract';
import { LANGUAGE, PRELUDE, lint, parsersReady, slice, type Dialect } from '../rules/check';

const TEMPLATE = `Resources:
  Likes:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: likes
      AttributeDefinitions:
        - {AttributeName: PK, AttributeType: S}
        - {AttributeName: SK, AttributeType: S}
        - {AttributeName: userId, AttributeType: S}
        - {AttributeName: n, AttributeType: N}
        - {AttributeName: date, AttributeType: N}
      KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: SK, KeyType: RANGE}]
      GlobalSecondaryIndexes:
        - {IndexName: byUser, KeySchema: [{AttributeName: userId, KeyType: HASH}, {AttributeName: n, KeyType: RANGE}], Projection: {ProjectionType: ALL}}
      LocalSecondaryIndexes:
        - {IndexName: byDate, KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: date, KeyType: RANGE}], Projection: {ProjectionType: KEYS_ONLY}}
  Fn:
    Type: AWS::Lambda::Function
    Properties: {Environment: {Variables: {TABLE: !Ref Likes}}}
  Counters:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: counters-prod
      AttributeDefinitions: [{AttributeName: id, AttributeType: N}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
`;
const OTHER = `resource "aws_dynamodb_table" "c" {
  name     = "counters-prod"
  hash_key = "id"
  range_key = "day"
  attribute {
    name = "id"
    type = "N"
  }
}
`;

let index: TableIndex;
before(async () => {
  await parsersReady();
  const { ensureTableParsers } = await import('../../../server/src/tables/extract');
  await ensureTableParsers('terraform');
  index = TableIndex.from([extractTables('file:///w/template.yaml', 'template.yaml', TEMPLATE, 'yaml'), extractTables('file:///w/main.tf', 'main.tf', OTHER, 'terraform')]);
});

const CASES: { name: string; dialect: Dialect; code: string; expect: [string, string][]; message?: RegExp }[] = [
  { name: 'JSON Get: sort key missing', dialect: 'json', code: '{"TableName": "likes", "Key": {"PK": {"S": "a"}}}', expect: [['key-schema-mismatch', '{"PK": {"S": "a"}}']], message: /lacks the sort key SK.*table Likes, defined at template\.yaml:2/ },
  { name: 'JSON Get: wrong type, extra attribute, empty string', dialect: 'json', code: '{"TableName": "likes", "Key": {"PK": {"S": ""}, "SK": {"N": "1"}, "X": {"S": "x"}}}', expect: [['key-schema-mismatch', '{"S": ""}'], ['key-schema-mismatch', '{"N": "1"}'], ['key-schema-mismatch', '"X"']] },
  { name: 'JSON Get: exact key is fine', dialect: 'json', code: '{"TableName": "likes", "Key": {"PK": {"S": "a"}, "SK": {"S": "b"}}}', expect: [] },
  { name: 'unknown table: silent', dialect: 'json', code: '{"TableName": "nope", "Key": {"PK": {"S": "a"}}}', expect: [] },
  { name: 'lib-dynamodb through process.env wired by the template; a variable value stays silent', dialect: 'ts-doc', code: `await doc.send(new GetCommand({ TableName: process.env.TABLE, Key: { PK: id, SK: 5 } }));`, expect: [['key-schema-mismatch', '5']], message: /process\.env\.TABLE is set by template\.yaml:19/ },
  { name: 'incomplete Key (spread): missing attributes not concluded', dialect: 'ts-doc', code: `await doc.send(new GetCommand({ TableName: 'likes', Key: { ...base, PK: 'a' } }));`, expect: [] },
  { name: 'Put without the sort key, GSI key of the wrong type', dialect: 'py-client', code: `client.put_item(TableName="likes", Item={"PK": {"S": "a"}, "userId": {"N": "1"}})\n`, expect: [['item-key-schema', '{"PK": {"S": "a"}, "userId": {"N": "1"}}'], ['item-key-schema', '{"N": "1"}']] },
  { name: 'boto3 Table resource: receiver table, empty GSI key', dialect: 'py-resource', code: `likes = boto3.resource('dynamodb').Table('likes')\nlikes.put_item(Item={"PK": "a", "SK": "b", "userId": ""})\n`, expect: [['item-key-schema', '""']] },
  { name: 'Query: missing partition key, not a key attribute', dialect: 'json', code: '{"TableName": "likes", "KeyConditionExpression": "SK = :s AND other = :o", "ExpressionAttributeValues": {":s": {"S": "x"}, ":o": {"S": "y"}}}', expect: [['key-condition-schema', '"SK = :s AND other = :o"'], ['key-condition-schema', 'other']] },
  { name: 'Query on an index: its own key schema, value types, begins_with on a number', dialect: 'ts-doc', code: `await doc.send(new QueryCommand({ TableName: 'likes', IndexName: 'byUser', KeyConditionExpression: 'userId = :u AND begins_with(n, :p)', ExpressionAttributeValues: { ':u': 1, ':p': 'x' } }));`, expect: [['key-condition-schema', 'begins_with(n, :p)'], ['key-condition-schema', '1'], ['key-condition-schema', "'x'"]] },
  { name: 'Query on a GSI: the table key in the filter is allowed, the index sort key is not; ConsistentRead rejected', dialect: 'ts-doc', code: `await doc.send(new QueryCommand({ TableName: 'likes', IndexName: 'byUser', ConsistentRead: true, KeyConditionExpression: 'userId = :u', FilterExpression: 'PK = :p AND #n > :n', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':u': 'a', ':p': 'b', ':n': 1 } }));`, expect: [['consistent-read-gsi', 'ConsistentRead'], ['filter-table-key', '#n']] },
  { name: 'Query on an LSI: ConsistentRead fine, base sort key in the filter fine', dialect: 'ts-doc', code: `await doc.send(new QueryCommand({ TableName: 'likes', IndexName: 'byDate', ConsistentRead: true, KeyConditionExpression: 'PK = :p AND #d > :d', FilterExpression: 'SK = :s', ExpressionAttributeNames: { '#d': 'date' }, ExpressionAttributeValues: { ':p': 'a', ':d': 1, ':s': 'x' } }));`, expect: [] },
  { name: 'unknown index, with did-you-mean', dialect: 'json', code: '{"TableName": "likes", "IndexName": "byuser", "KeyConditionExpression": "userId = :u", "ExpressionAttributeValues": {":u": {"S": "a"}}}', expect: [['unknown-index', '"byuser"']], message: /did you mean byUser\?/ },
  { name: 'Update of a key attribute through #name, Key a variable', dialect: 'ts-doc', code: `await doc.send(new UpdateCommand({ TableName: 'likes', Key: key, UpdateExpression: 'SET #s = :v', ExpressionAttributeNames: { '#s': 'SK' }, ExpressionAttributeValues: { ':v': 'x' } }));`, expect: [['update-table-key', '#s']] },
  { name: 'transaction and batch entries are checked', dialect: 'json', code: '{"TransactItems": [{"Delete": {"TableName": "likes", "Key": {"PK": {"S": "a"}}}}]}', expect: [['key-schema-mismatch', '{"PK": {"S": "a"}}']] },
  { name: 'batch get keys', dialect: 'json', code: '{"RequestItems": {"likes": {"Keys": [{"PK": {"S": "a"}, "SK": {"S": "b"}}, {"PK": {"S": "a"}}]}}}', expect: [['key-schema-mismatch', '{"PK": {"S": "a"}}']] },
  { name: 'two definitions of one name (a template and Terraform): only what is wrong against both (the missing sort key of one is not reported)', dialect: 'json', code: '{"TableName": "counters-prod", "Key": {"id": {"S": "1"}}}', expect: [['key-schema-mismatch', '{"S": "1"}']], message: /tables Counters \(template\.yaml:20\), aws_dynamodb_table\.c \(main\.tf:1\), each a match for counters-prod/ },
];

describe('tables: key-schema rules with an in-memory index', () => {
  for (const c of CASES)
    it(c.name, () => {
      const text = PRELUDE[c.dialect] + c.code;
      const found = lint(text, LANGUAGE[c.dialect], { tables: index }).filter((f) => f.severity === 'error' && ['key-schema-mismatch', 'item-key-schema', 'key-condition-schema', 'unknown-index', 'consistent-read-gsi', 'filter-table-key', 'update-table-key'].includes(f.ruleId));
      assert.deepEqual(found.map((f) => [f.ruleId, slice(text, f)]), c.expect);
      if (c.message) assert.match(found[0].message, c.message);
    });

  it('without an index every key-schema rule is silent', () => {
    const text = '{"TableName": "likes", "Key": {"PK": {"S": "a"}}}';
    assert.deepEqual(lint(text, 'json').filter((f) => f.ruleId === 'key-schema-mismatch'), []);
  });
});
