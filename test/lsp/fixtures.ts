/** Small documents shared by the LSP protocol tests: one request each, in every host language. */

export const TS_UPDATE = `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';

export const cmd = new UpdateItemCommand({
  TableName: 'Orders',
  Key: { PK: { S: 'x' }, SK: { S: 'META' } },
  UpdateExpression: 'SET status = :s, total = total + :one',
  ExpressionAttributeValues: { ':s': { S: 'A' }, ':one': { N: '1' } },
});
`;

export const JSON_UPDATE = `{
  "TableName": "Orders",
  "Key": {"PK": {"S": "x"}},
  "UpdateExpression": "ADD likes :one SET #n = :n",
  "ExpressionAttributeNames": {"#n": "name"},
  "ExpressionAttributeValues": {":one": {"S": "1"}, ":n": {"S": "x"}, ":extra": {"S": "y"}}
}
`;

export const PY_UPDATE = `import boto3

table = boto3.resource("dynamodb").Table("Orders")


def bump(k):
    table.update_item(
        Key={"PK": k, "SK": "META"},
        UpdateExpression="SET views = views + :inc",
        ConditionExpression="attribute_exists(PK)",
        ExpressionAttributeValues={":inc": 1},
    )
`;

/** A like transaction whose child Put is unguarded (the mission rule), SDK v3 low-level. */
export const TS_LIKE = `import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';

export const like = (postId: string, userId: string) =>
  new TransactWriteItemsCommand({
    TransactItems: [
      { Put: { TableName: 'Social', Item: { PK: { S: postId }, SK: { S: \`LIKE#\${userId}\` } } } },
      {
        Update: {
          TableName: 'Social',
          Key: { PK: { S: postId }, SK: { S: 'META' } },
          UpdateExpression: 'ADD likeTally :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        },
      },
    ],
  });
`;
