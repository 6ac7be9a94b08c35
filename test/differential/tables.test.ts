/**
 * Differential pins for the key-schema rules: the table is created on DynamoDB Local from its definition as read from a
 * template (tables/), each request is sent to Local and linted, as the SDK v3 call that sent it, with the index.
 * Dynalint reports an Error exactly when Local rejects the request; the pinned fragment of Local's message is checked
 * too (a Local upgrade is noticed). The corpus counts how many of Local's key/query rejections are caught.
 */
import assert from 'node:assert/strict';
import * as ddb from '@aws-sdk/client-dynamodb';
import { LocalDynamo, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { extract } from '../../server/src/extract';
import { runRules } from '../../server/src/rules';
import { TableIndex, type TableDef } from '../../server/src/tables';
import { extractTables } from '../../server/src/tables/extract';

const TEMPLATE = `Resources:
  Diff:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: DiffKeys
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - {AttributeName: PK, AttributeType: S}
        - {AttributeName: SK, AttributeType: N}
        - {AttributeName: G, AttributeType: S}
        - {AttributeName: GS, AttributeType: N}
        - {AttributeName: L, AttributeType: S}
      KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: SK, KeyType: RANGE}]
      GlobalSecondaryIndexes:
        - {IndexName: Gix1, KeySchema: [{AttributeName: G, KeyType: HASH}, {AttributeName: GS, KeyType: RANGE}], Projection: {ProjectionType: ALL}}
      LocalSecondaryIndexes:
        - {IndexName: Lix1, KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: L, KeyType: RANGE}], Projection: {ProjectionType: ALL}}
`;

/** CreateTable input from a definition (what the template would deploy). */
export function createTableInput(t: TableDef, name: string): ddb.CreateTableCommandInput {
  const attrs = new Map<string, string>();
  const keys = (p: { name: string; type?: string }, s?: { name: string; type?: string }) => {
    for (const k of [p, s]) if (k) attrs.set(k.name, k.type ?? 'S');
    return [{ AttributeName: p.name, KeyType: 'HASH' as const }, ...(s ? [{ AttributeName: s.name, KeyType: 'RANGE' as const }] : [])];
  };
  const input: ddb.CreateTableCommandInput = { TableName: name, BillingMode: 'PAY_PER_REQUEST', KeySchema: keys(t.partition, t.sort), AttributeDefinitions: [] };
  const gsis = t.indexes.filter((i) => i.kind === 'global').map((i) => ({ IndexName: i.name, KeySchema: keys(i.partition, i.sort), Projection: { ProjectionType: 'ALL' as const } }));
  const lsis = t.indexes.filter((i) => i.kind === 'local').map((i) => ({ IndexName: i.name, KeySchema: keys(i.partition, i.sort), Projection: { ProjectionType: 'ALL' as const } }));
  if (gsis.length) input.GlobalSecondaryIndexes = gsis;
  if (lsis.length) input.LocalSecondaryIndexes = lsis;
  input.AttributeDefinitions = [...attrs].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType: AttributeType as ddb.ScalarAttributeType }));
  return input;
}

type Op = 'GetItem' | 'PutItem' | 'DeleteItem' | 'UpdateItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem' | 'TransactWriteItems';
/** A request, Local's pinned verdict (`ok` or a fragment of its ValidationException) and the rule that must catch it. */
const CASES: [string, Op, Record<string, unknown>, string, string?][] = [
  ['get: exact key', 'GetItem', { Key: { PK: { S: 'a' }, SK: { N: '1' } } }, 'ok'],
  ['get: sort key missing', 'GetItem', { Key: { PK: { S: 'a' } } }, 'The number of conditions on the keys is invalid', 'key-schema-mismatch'],
  ['get: extra attribute', 'GetItem', { Key: { PK: { S: 'a' }, SK: { N: '1' }, X: { S: 'x' } } }, 'The number of conditions on the keys is invalid', 'key-schema-mismatch'],
  ['get: number key sent as a string', 'GetItem', { Key: { PK: { S: 'a' }, SK: { S: '1' } } }, 'Type mismatch for key', 'key-schema-mismatch'],
  ['get: empty string key', 'GetItem', { Key: { PK: { S: '' }, SK: { N: '1' } } }, 'cannot contain an empty string value', 'key-schema-mismatch'],
  ['delete: string key sent as a number', 'DeleteItem', { Key: { PK: { N: '1' }, SK: { N: '1' } } }, 'Type mismatch for key', 'key-schema-mismatch'],
  ['update: key missing', 'UpdateItem', { Key: { PK: { S: 'a' } }, UpdateExpression: 'SET a = :x', ExpressionAttributeValues: { ':x': { N: '1' } } }, 'The number of conditions on the keys is invalid', 'key-schema-mismatch'],
  ['update: the sort key through #name', 'UpdateItem', { Key: { PK: { S: 'a' }, SK: { N: '1' } }, UpdateExpression: 'SET #s = :x', ExpressionAttributeNames: { '#s': 'SK' }, ExpressionAttributeValues: { ':x': { N: '1' } } }, 'Cannot update attribute SK', 'update-key-attribute'],
  ['update: a plain attribute', 'UpdateItem', { Key: { PK: { S: 'a' }, SK: { N: '1' } }, UpdateExpression: 'SET a = :x', ExpressionAttributeValues: { ':x': { N: '1' } } }, 'ok'],
  ['put: sort key missing', 'PutItem', { Item: { PK: { S: 'a' } } }, 'One of the required keys was not given a value', 'item-key-schema'],
  ['put: sort key of the wrong type', 'PutItem', { Item: { PK: { S: 'a' }, SK: { S: 'x' } } }, 'Type mismatch for key', 'item-key-schema'],
  ['put: empty string partition key', 'PutItem', { Item: { PK: { S: '' }, SK: { N: '1' } } }, 'cannot contain an empty string value', 'item-key-schema'],
  ['put: GSI key of the wrong type', 'PutItem', { Item: { PK: { S: 'a' }, SK: { N: '1' }, G: { N: '1' } } }, 'Type mismatch for Index Key', 'item-key-schema'],
  ['put: empty GSI key', 'PutItem', { Item: { PK: { S: 'a' }, SK: { N: '1' }, G: { S: '' } } }, 'A value specified for a secondary index key is not supported', 'item-key-schema'],
  ['put: LSI key of the wrong type', 'PutItem', { Item: { PK: { S: 'a' }, SK: { N: '1' }, L: { N: '5' } } }, 'Type mismatch for Index Key', 'item-key-schema'],
  ['put: item with index keys of the right types', 'PutItem', { Item: { PK: { S: 'a' }, SK: { N: '1' }, G: { S: 'g' }, GS: { N: '2' }, L: { S: 'l' } } }, 'ok'],
  ['query: sort key only', 'Query', { KeyConditionExpression: 'SK = :v', ExpressionAttributeValues: { ':v': { N: '1' } } }, 'Query condition missed key schema element', 'key-condition-schema'],
  ['query: a non-key attribute in the key condition', 'Query', { KeyConditionExpression: 'PK = :v AND X = :x', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { S: '1' } } }, 'Query condition missed key schema element', 'key-condition-schema'],
  ['query: begins_with on a number sort key', 'Query', { KeyConditionExpression: 'PK = :v AND begins_with(SK, :x)', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { N: '1' } } }, 'operator or function: begins_with, operand type: N', 'key-condition-schema'],
  ['query: partition key value of the wrong type', 'Query', { KeyConditionExpression: 'PK = :v', ExpressionAttributeValues: { ':v': { N: '1' } } }, 'Condition parameter type does not match schema type', 'key-condition-schema'],
  ['query: sort key value of the wrong type', 'Query', { KeyConditionExpression: 'PK = :v AND SK > :x', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { S: '1' } } }, 'Condition parameter type does not match schema type', 'key-condition-schema'],
  ['query: BETWEEN bounds of the wrong type', 'Query', { KeyConditionExpression: 'PK = :v AND SK BETWEEN :a AND :b', ExpressionAttributeValues: { ':v': { S: '1' }, ':a': { S: '1' }, ':b': { S: '2' } } }, 'Condition parameter type does not match schema type', 'key-condition-schema'],
  ['query: sort key in the filter', 'Query', { KeyConditionExpression: 'PK = :v', FilterExpression: 'SK > :x', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { N: '1' } } }, 'Primary key attribute: SK', 'filter-table-key'],
  ['query: GSI, the table key in the filter', 'Query', { IndexName: 'Gix1', KeyConditionExpression: 'G = :v', FilterExpression: 'PK = :x', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { S: '1' } } }, 'ok'],
  ['query: GSI, its sort key in the filter', 'Query', { IndexName: 'Gix1', KeyConditionExpression: 'G = :v', FilterExpression: 'GS = :x', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { N: '1' } } }, 'Primary key attribute: GS', 'filter-table-key'],
  ['query: LSI, the table sort key in the filter', 'Query', { IndexName: 'Lix1', KeyConditionExpression: 'PK = :v', FilterExpression: 'SK = :x', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { N: '1' } } }, 'ok'],
  ['query: LSI begins_with on its string sort key', 'Query', { IndexName: 'Lix1', KeyConditionExpression: 'PK = :v AND begins_with(L, :x)', ExpressionAttributeValues: { ':v': { S: '1' }, ':x': { S: '1' } } }, 'ok'],
  ['query: unknown index', 'Query', { IndexName: 'Gix2', KeyConditionExpression: 'G = :v', ExpressionAttributeValues: { ':v': { S: '1' } } }, 'The table does not have the specified index: Gix2', 'unknown-index'],
  ['query: GSI with the table key', 'Query', { IndexName: 'Gix1', KeyConditionExpression: 'PK = :v', ExpressionAttributeValues: { ':v': { S: '1' } } }, 'Query condition missed key schema element', 'key-condition-schema'],
  ['query: ConsistentRead on a GSI', 'Query', { IndexName: 'Gix1', ConsistentRead: true, KeyConditionExpression: 'G = :v', ExpressionAttributeValues: { ':v': { S: '1' } } }, 'Consistent read cannot be true when querying a GSI', 'consistent-read-gsi'],
  ['query: ConsistentRead on an LSI', 'Query', { IndexName: 'Lix1', ConsistentRead: true, KeyConditionExpression: 'PK = :v', ExpressionAttributeValues: { ':v': { S: '1' } } }, 'ok'],
  ['scan: unknown index', 'Scan', { IndexName: 'Gix2' }, 'The table does not have the specified index: Gix2', 'unknown-index'],
  ['scan: ConsistentRead on a GSI', 'Scan', { IndexName: 'Gix1', ConsistentRead: true }, 'Consistent read cannot be true when scanning a GSI', 'consistent-read-gsi'],
  ['batch get: sort key missing', 'BatchGetItem', { RequestItems: { DiffKeys: { Keys: [{ PK: { S: 'a' } }] } } }, 'The number of conditions on the keys is invalid', 'key-schema-mismatch'],
  ['batch write: put without the sort key', 'BatchWriteItem', { RequestItems: { DiffKeys: [{ PutRequest: { Item: { PK: { S: 'a' } } } }] } }, 'One of the required keys was not given a value', 'item-key-schema'],
  ['transaction: update with the sort key missing', 'TransactWriteItems', { TransactItems: [{ Update: { TableName: 'DiffKeys', Key: { PK: { S: 'a' } }, UpdateExpression: 'SET a = :x', ExpressionAttributeValues: { ':x': { N: '1' } } } }] }, 'The number of conditions on the keys is invalid', 'key-schema-mismatch'],
];

function request(op: Op, body: Record<string, unknown>): Record<string, unknown> {
  return op.startsWith('Batch') || op.startsWith('Transact') ? body : { TableName: 'DiffKeys', ...body };
}

describe('differential: key schemas on DynamoDB Local', function () {
  this.timeout(180_000);
  let local: LocalDynamo;
  const index = TableIndex.from([extractTables('file:///w/template.yaml', 'template.yaml', TEMPLATE, 'yaml')]);
  before(async () => {
    local = await startDynamoDBLocal();
    await local.client.send(new ddb.CreateTableCommand(createTableInput(index.definitionOf('DiffKeys')[0], 'DiffKeys')));
  });
  after(async () => local?.stop());

  let rejected = 0;
  let caught = 0;
  for (const [name, op, body, pinned, rule] of CASES)
    it(name, async () => {
      const input = request(op, body);
      let seen = 'ok';
      try {
        const Command = (ddb as unknown as Record<string, new (i: unknown) => ddb.GetItemCommand>)[`${op}Command`];
        await local.client.send(new Command(input));
      } catch (e) {
        const err = e as { name?: string; message?: string };
        assert.equal(err.name, 'ValidationException', `${err.name}: ${err.message}`);
        seen = err.message ?? '';
      }
      if (pinned === 'ok') assert.equal(seen, 'ok');
      else assert.ok(seen.includes(pinned), `Local said ${JSON.stringify(seen)}, pinned ${JSON.stringify(pinned)}`);
      // Linted as the SDK call that sent it (a bare JSON Scan with only an IndexName is not recognisable as a request).
      const text = `import { ${op}Command } from '@aws-sdk/client-dynamodb';\nexport const c = new ${op}Command(${JSON.stringify(input, null, 2)});\n`;
      const findings = runRules(text, 'typescript', extract(text, 'typescript').sites, { tables: index }).filter((f) => f.severity === 'error');
      if (pinned === 'ok') assert.deepEqual(findings.map((f) => `${f.ruleId}: ${f.message}`), []);
      else {
        rejected++;
        assert.ok(findings.some((f) => f.ruleId === rule), `${rule} expected, got ${JSON.stringify(findings.map((f) => f.ruleId))}`);
        caught++;
      }
    });
  after(() => console.log(`      key/query rejections caught: ${caught} of ${rejected} (${CASES.length} requests)`));
});
