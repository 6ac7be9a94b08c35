import { DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({});

export async function archive(id: string): Promise<void> {
  await client.send(
    new UpdateItemCommand({
      TableName: 'Orders',
      Key: { PK: { S: id }, SK: { S: 'META' } },
      UpdateExpression: 'SET status = :s',
      ExpressionAttributeValues: { ':s': { S: 'ARCHIVED' } },
    }),
  );
}
