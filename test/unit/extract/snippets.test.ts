import { strict as assert } from 'node:assert';
import { extract, initParsers } from '../../../server/src/extract';

/** Small call styles, each with the requests it must yield (`api style sdk`), in order. */
const CASES: [string, string, string, string[]][] = [
  ['v2 typed DocumentClient input', 'typescript', `import { DynamoDB } from 'aws-sdk';
const p: DynamoDB.DocumentClient.UpdateItemInput = { TableName: 't', Key: { id: 1 }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } };`, ['UpdateItem document sdk-v2-doc']],
  ['v2 typed low-level input', 'typescript', `import { DynamoDB } from 'aws-sdk';
const p: DynamoDB.PutItemInput = { TableName: 't', Item: { id: { S: 'a' } } };`, ['PutItem low-level sdk-v2']],
  ['satisfies a v3 input', 'typescript', `import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
export const p = { TableName: 't', Key: { id: 1 }, UpdateExpression: 'SET a = :a' } satisfies UpdateCommandInput;`, ['UpdateItem document sdk-v3-lib']],
  ['typed input passed to a command counts once', 'typescript', `import { UpdateItemCommand, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
const p: UpdateItemCommandInput = { TableName: 't', Key: { id: { S: 'a' } }, UpdateExpression: 'SET a = :a' };
export const go = () => client.send(new UpdateItemCommand(p));`, ['UpdateItem low-level sdk-v3']],
  ['a top-level satisfies object passed to a command counts once', 'typescript', `import { UpdateCommand, UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
const p = { TableName: 't', Key: { id: 1 }, UpdateExpression: 'SET a = :a' } satisfies UpdateCommandInput;
export function go() { return doc.send(new UpdateCommand(p)); }`, ['UpdateItem document sdk-v3-lib']],
  ['require destructuring of lib-dynamodb', 'javascript', `const { DynamoDBDocumentClient, QueryCommand } = require('@aws-sdk/lib-dynamodb');
const doc = DynamoDBDocumentClient.from(client);
doc.send(new QueryCommand({ TableName: 't', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'x' } }));`, ['Query document sdk-v3-lib']],
  ['aliased lib-dynamodb aggregated client', 'typescript', `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
class Repo { private db = DynamoDBDocument.from(raw); save() { return this.db.transactWrite({ TransactItems: [{ Put: { TableName: 't', Item: { id: 1 } } }] }); } }`, ['TransactWriteItems document sdk-v3-lib']],
  ['an untyped request-shaped object passed to a wrapper', 'typescript', `import { x } from '@aws-sdk/lib-dynamodb';
export async function f() { const params = { TableName: 't', Key: { id: 1 }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }; return wrapper.run(params); }`, ['UpdateItem document sdk-v3-lib']],
  ['PartiQL statement', 'typescript', `import { ExecuteStatementCommand } from '@aws-sdk/client-dynamodb';
client.send(new ExecuteStatementCommand({ Statement: "UPDATE t SET n = n + 1 WHERE id = ?", Parameters: [{ S: 'a' }] }));`, ['ExecuteStatement low-level sdk-v3']],
  ['boto3 client from a session, batch get', 'python', `import boto3
session = boto3.session.Session()
ddb = session.client(service_name="dynamodb")
ddb.batch_get_item(RequestItems={"t": {"Keys": [{"id": {"S": "a"}}]}})`, ['BatchGetItem low-level boto3-client']],
  ['boto3 client via resource.meta.client', 'python', `import boto3
res = boto3.resource("dynamodb")
c = res.meta.client
c.put_item(TableName="t", Item={"id": {"S": "a"}})`, ['PutItem low-level boto3-client']],
  ['aioboto3-style async with', 'python', `async def main(session):
    async with session.client("dynamodb") as client:
        await client.delete_item(TableName="t", Key={"id": {"S": "a"}}, ConditionExpression="attribute_exists(id)")`, ['DeleteItem low-level boto3-client']],
  ['Table passed in as a parameter (unknown receiver, no TableName)', 'python', `def save(table, key):
    table.update_item(Key=key, UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": 1})`, ['UpdateItem document boto3-resource']],
  ['a module-level dict used with **', 'python', `PARAMS = {"TableName": "t", "Key": {"id": {"S": "a"}}, "UpdateExpression": "ADD n :one"}
def go(client):
    client.update_item(**PARAMS)`, ['UpdateItem low-level boto3-client']],
  ['a Step Functions task in JSON', 'json', `{"States": {"Like": {"Type": "Task", "Resource": "arn:aws:states:::dynamodb:updateItem", "Parameters": {"TableName": "t", "Key": {"id": {"S": "a"}}, "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}}}`, ['UpdateItem low-level aws-cli-json']],
];

describe('extract: call styles', () => {
  before(() => initParsers());
  for (const [name, lang, text, expected] of CASES)
    it(name, () => {
      assert.deepEqual(extract(text, lang).sites.map((s) => `${s.api} ${s.style} ${s.sdk}`), expected);
    });
});
