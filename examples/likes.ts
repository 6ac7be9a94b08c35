// Likes on posts, as in "Reference count in DynamoDB": one safe path, and the mistakes it avoids.
import {
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({});

/** Safe: the like and the count land together, and a retried like is refused by the guard. */
export async function likePost(postId: string, userId: string): Promise<void> {
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        {
          Put: {
            TableName: 'Social',
            Item: { PK: { S: `POST#${postId}` }, SK: { S: `LIKE#USER#${userId}` }, likedAt: { N: String(Date.now()) } },
            ConditionExpression: 'attribute_not_exists(SK)',
          },
        },
        {
          Update: {
            TableName: 'Social',
            Key: { PK: { S: `POST#${postId}` }, SK: { S: 'META' } },
            UpdateExpression: 'ADD likeTally :one',
            ExpressionAttributeValues: { ':one': { N: '1' } },
          },
        },
      ],
    }),
  );
}

/** Safe: the mirror image, guarded so a double unlike cannot push the count below the real number. */
export async function unlikePost(postId: string, userId: string): Promise<void> {
  await client.send(
    new TransactWriteItemsCommand({
      TransactItems: [
        {
          Delete: {
            TableName: 'Social',
            Key: { PK: { S: `POST#${postId}` }, SK: { S: `LIKE#USER#${userId}` } },
            ConditionExpression: 'attribute_exists(SK)',
          },
        },
        {
          Update: {
            TableName: 'Social',
            Key: { PK: { S: `POST#${postId}` }, SK: { S: 'META' } },
            UpdateExpression: 'ADD likeTally :minusOne',
            ExpressionAttributeValues: { ':minusOne': { N: '-1' } },
          },
        },
      ],
    }),
  );
}

/** Broken: two separate writes. If the second fails, the count is wrong for ever. */
export async function likePostTwoWrites(postId: string, userId: string): Promise<void> {
  await client.send(
    new PutItemCommand({
      TableName: 'Social',
      Item: { PK: { S: `POST#${postId}` }, SK: { S: `LIKE#USER#${userId}` } },
    }),
  );
  await client.send(
    new UpdateItemCommand({
      TableName: 'Social',
      Key: { PK: { S: `POST#${postId}` }, SK: { S: 'META' } },
      UpdateExpression: 'SET likeTally = likeTally + :one',
      ExpressionAttributeValues: { ':one': { N: '1' } },
    }),
  );
}

/** Broken: counting the children on every read pays for every like item. */
export async function countLikes(postId: string): Promise<number> {
  const out = await client.send(
    new QueryCommand({
      TableName: 'Social',
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :like)',
      ExpressionAttributeValues: { ':pk': { S: `POST#${postId}` }, ':like': { S: 'LIKE#' } },
      Select: 'COUNT',
    }),
  );
  return out.Count ?? 0;
}

/** Broken: "comment" is fine, but "count" is a reserved word and ":n" is never defined. */
export async function bumpComments(postId: string): Promise<void> {
  await client.send(
    new UpdateItemCommand({
      TableName: 'Social',
      Key: { PK: { S: `POST#${postId}` }, SK: { S: 'META' } },
      UpdateExpression: 'SET count = count + :n',
    }),
  );
}
