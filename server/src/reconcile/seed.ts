/**
 * Tables shaped like the source articles, for the demo, the tests and the bench (DynamoDB Local only).
 * `Social`: posts (`PK = POST#id`, `SK = META`, `likeTally`) with likes (`LIKE#USER#id`) and comments (`COMMENT#...`);
 * videos (`PK = VID#id`) with a roll-up `STATS#TOTAL` (`play_count`) and counter shards `STATS#TOTAL#0..N`.
 */
import {
  AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  DynamoDBClient,
  TransactWriteItemsCommand,
  WriteRequest,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { pool } from './engine';

export type Item = Record<string, AttributeValue>;

export async function createTable(client: DynamoDBClient, table: string, pkType: 'S' | 'N' = 'S'): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: pkType },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: table });
}

/** BatchWriteItem in chunks of 25 with bounded concurrency, resending unprocessed items. */
export async function putItems(client: DynamoDBClient, table: string, items: Item[], concurrency = 8): Promise<void> {
  const chunks: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  await pool(chunks, concurrency, async (chunk) => {
    let requests: WriteRequest[] = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (requests.length) {
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }));
      requests = out.UnprocessedItems?.[table] ?? [];
    }
  });
}

export const s = (v: string): AttributeValue => ({ S: v });
export const n = (v: number): AttributeValue => ({ N: String(v) });

export function post(id: string, likeTally?: number, extra: Item = {}): Item {
  return { PK: s(`POST#${id}`), SK: s('META'), title: s(`Post ${id}`), ...(likeTally === undefined ? {} : { likeTally: n(likeTally) }), ...extra };
}

export function like(postId: string, user: string, pad = 0): Item {
  return { PK: s(`POST#${postId}`), SK: s(`LIKE#USER#${user}`), likedAt: n(1750636800), ...(pad ? { note: s('x'.repeat(pad)) } : {}) };
}

export function comment(postId: string, i: number): Item {
  return { PK: s(`POST#${postId}`), SK: s(`COMMENT#${String(i).padStart(4, '0')}`), body: s(`Comment ${i}`) };
}

export function likes(postId: string, count: number, pad = 0, from = 0): Item[] {
  return Array.from({ length: count }, (_, i) => like(postId, `u${String(from + i).padStart(6, '0')}`, pad));
}

/**
 * The article's like: Put the child IF it does not exist, ADD 1 to the parent's counter, in one transaction.
 * Returns false when the like already existed (the transaction was cancelled and nothing was counted).
 */
export async function likeTransaction(client: DynamoDBClient, table: string, postId: string, user: string): Promise<boolean> {
  try {
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: table, Item: like(postId, user), ConditionExpression: 'attribute_not_exists(SK)' } },
          {
            Update: {
              TableName: table,
              Key: { PK: s(`POST#${postId}`), SK: s('META') },
              UpdateExpression: 'ADD likeTally :one',
              ExpressionAttributeValues: { ':one': n(1) },
            },
          },
        ],
      }),
    );
    return true;
  } catch (e) {
    if ((e as { name?: string }).name === 'TransactionCanceledException') {
      const reasons = (e as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
    }
    throw e;
  }
}

export interface SocialSeed {
  items: Item[];
  /** What reconcile must find for the likes pattern (META / likeTally / LIKE#). */
  likeDrift: Array<{ pk: string; stored: number | null; actual: number }>;
  /** What reconcile must find for the shard roll-up pattern (STATS#TOTAL / play_count / STATS#TOTAL#). */
  playDrift: Array<{ pk: string; stored: number | null; actual: number }>;
  posts: number;
  videos: number;
}

/** The demo's Social table: correct posts, every kind of drift, and a sharded video counter. */
export function socialItems(): SocialSeed {
  const items: Item[] = [];
  const add = (...xs: Item[]) => {
    for (const x of xs) items.push(x);
  };
  // Correct: 3 likes, likeTally 3, plus comments in the same partition.
  add(post('a91f', 3), ...likes('a91f', 3), comment('a91f', 1), comment('a91f', 2));
  // Over-counted: a retried like without the attribute_not_exists guard counted twice.
  add(post('b2c4', 5), ...likes('b2c4', 3), comment('b2c4', 1));
  // Under-counted: likes written outside the transaction.
  add(post('c7d1', 1), ...likes('c7d1', 4));
  // Counter never written (ADD would have started from 0): 2 likes.
  add(post('d03e'), ...likes('d03e', 2));
  // No likes and a count of 0: correct. No likes and a count of 2: over.
  add(post('e55a', 0), comment('e55a', 1));
  add(post('f101', 2));
  // Videos: a roll-up play_count next to the shards it should equal.
  const shards = (vid: string, counts: number[]) =>
    counts.map((c, i) => ({ PK: s(`VID#${vid}`), SK: s(`STATS#TOTAL#${i}`), play_count: n(c) }));
  add({ PK: s('VID#9f3a'), SK: s('STATS#TOTAL'), play_count: n(41) }, ...shards('9f3a', [7, 9, 6, 8, 5, 7, 9, 6]));
  add({ PK: s('VID#77aa'), SK: s('STATS#TOTAL'), play_count: n(12) }, ...shards('77aa', [3, 4, 5, 0]));
  return {
    items,
    likeDrift: [
      { pk: 'POST#c7d1', stored: 1, actual: 4 },
      { pk: 'POST#b2c4', stored: 5, actual: 3 },
      { pk: 'POST#d03e', stored: null, actual: 2 },
      { pk: 'POST#f101', stored: 2, actual: 0 },
    ],
    playDrift: [{ pk: 'VID#9f3a', stored: 41, actual: 57 }],
    posts: 6,
    videos: 2,
  };
}

export async function seedSocial(client: DynamoDBClient, table = 'Social'): Promise<SocialSeed> {
  const seed = socialItems();
  await createTable(client, table);
  await putItems(client, table, seed.items);
  return seed;
}
