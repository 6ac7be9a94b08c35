import { Case } from './check';
import { ruleCases } from './check';
import { TRANSACT_DIALECTS, V, render } from './render';
import type { Dialect } from './check';

const POST = { PK: 'POST#a91f', SK: 'META' };
const LIKE = { PK: 'POST#a91f', SK: 'LIKE#USER#7c20' };

const counter = (expr: string, delta: number): V => ({
  Update: { TableName: 'Social', Key: POST, UpdateExpression: expr, ExpressionAttributeValues: { [delta < 0 ? ':minusOne' : ':one']: delta } },
});
const put = (cond?: string, extra: Record<string, V> = {}): V => ({
  Put: { TableName: 'Social', Item: { ...LIKE, likedAt: 1750636800 }, ...(cond ? { ConditionExpression: cond } : {}), ...extra },
});
const del = (cond?: string): V => ({ Delete: { TableName: 'Social', Key: LIKE, ...(cond ? { ConditionExpression: cond } : {}) } });
const tx = (d: Dialect, items: V[], extra: Record<string, V> = {}) => render(d, 'TransactWriteItems', { TransactItems: items, ...extra });
/** How a map key is written in the dialect (the finding points at the `Put` / `Delete` key). */
const key = (d: Dialect, k: string) => (d === 'json' ? `"${k}"` : d === 'py-client' ? `'${k}'` : k);

const cases: Case[] = TRANSACT_DIALECTS.flatMap((d): Case[] => [
  {
    name: 'like: Put without attribute_not_exists next to ADD likeTally :one',
    dialect: d,
    code: tx(d, [put(), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), message: 'counts it twice', fixes: [tx(d, [put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  {
    name: 'like with SET likeTally = likeTally + :one',
    dialect: d,
    code: tx(d, [put(), counter('SET likeTally = if_not_exists(likeTally, :one) + :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('attribute_not_exists(SK)'), counter('SET likeTally = if_not_exists(likeTally, :one) + :one', 1)])] }],
  },
  {
    name: 'unlike: Delete without attribute_exists next to ADD likeTally :minusOne',
    dialect: d,
    code: tx(d, [del(), counter('ADD likeTally :minusOne', -1)]),
    expect: [{ text: key(d, 'Delete'), message: 'negative', fixes: [tx(d, [del('attribute_exists(SK)'), counter('ADD likeTally :minusOne', -1)])] }],
  },
  {
    name: 'a condition on another attribute is not a guard: the fix ANDs the guard after it',
    dialect: d,
    code: tx(d, [put('attribute_not_exists(likedAt)'), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('(attribute_not_exists(likedAt)) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  {
    name: 'an OR-ed guard does not guard',
    dialect: d,
    code: tx(d, [put('attribute_not_exists(SK) OR attribute_not_exists(likedAt)'), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('(attribute_not_exists(SK) OR attribute_not_exists(likedAt)) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  // The child's own condition already requires the opposite guard on a key attribute: AND-ing the guard on would make
  // a condition that never holds (every like/unlike fails), so the finding says so and offers no fix.
  ...(
    [
      ['a Put requiring attribute_exists(SK)', put('attribute_exists(SK)'), 1, 'attribute_exists(SK)'],
      ['a Put requiring attribute_exists on the other key attribute', put('attribute_exists(PK)'), 1, 'attribute_exists(PK)'],
      ['a Put requiring attribute_exists(#sk) through a placeholder, after another conjunct', put('likedAt > :zero AND attribute_exists(#sk)', { ExpressionAttributeNames: { '#sk': 'SK' }, ExpressionAttributeValues: { ':zero': 0 } }), 1, 'attribute_exists(SK)'],
      ['a Put requiring NOT attribute_not_exists(SK)', put('NOT attribute_not_exists(SK)'), 1, 'attribute_exists(SK)'],
      ['a Delete requiring attribute_not_exists(SK)', del('attribute_not_exists(SK)'), -1, 'attribute_not_exists(SK)'],
      ['a Delete requiring attribute_not_exists(PK) OR attribute_not_exists(SK)', del('attribute_not_exists(PK) OR attribute_not_exists(SK)'), -1, 'attribute_not_exists(PK)'],
    ] as [string, V, number, string][]
  ).map(([what, child, delta, existing]): Case => ({
    name: `${what}: the guard would contradict it, no fix`,
    dialect: d,
    code: tx(d, [child, counter(delta < 0 ? 'ADD likeTally :minusOne' : 'ADD likeTally :one', delta)]),
    expect: [{ text: key(d, delta < 0 ? 'Delete' : 'Put'), message: `Its ConditionExpression already requires ${existing}, which contradicts that guard`, fixes: [] }],
  })),
  {
    name: 'a Put requiring attribute_exists of a non-key attribute: the guard is still ANDed on',
    dialect: d,
    code: tx(d, [put('attribute_exists(likedAt)'), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('(attribute_exists(likedAt)) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  {
    name: 'ClientRequestToken is mentioned, not counted as the guard',
    dialect: d,
    code: tx(d, [put(), counter('ADD likeTally :one', 1)], { ClientRequestToken: 'like-7c20-a91f' }),
    expect: [{ text: key(d, 'Put'), message: 'ClientRequestToken', fixes: [tx(d, [put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)], { ClientRequestToken: 'like-7c20-a91f' })] }],
  },
  {
    name: 'a ConditionCheck on another item does not guard the child',
    dialect: d,
    code: tx(d, [put(), { ConditionCheck: { TableName: 'Social', Key: { PK: 'USER#7c20', SK: 'PROFILE' }, ConditionExpression: 'attribute_not_exists(SK)' } }, counter('ADD likeTally :one', 1)]),
    expect: [
      {
        text: key(d, 'Put'),
        fixes: [tx(d, [put('attribute_not_exists(SK)'), { ConditionCheck: { TableName: 'Social', Key: { PK: 'USER#7c20', SK: 'PROFILE' }, ConditionExpression: 'attribute_not_exists(SK)' } }, counter('ADD likeTally :one', 1)])],
      },
    ],
  },
  {
    name: 'no child write at all',
    dialect: d,
    code: tx(d, [counter('ADD likeTally :one', 1)]),
    expect: [{ text: 'likeTally :one', message: '`ADD likeTally :one` runs in a transaction with no guarded child write' }],
  },
  { name: 'the article: Put guarded by attribute_not_exists(SK)', dialect: d, code: tx(d, [put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'guard on the partition key', dialect: d, code: tx(d, [put('attribute_not_exists(PK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'guard on both key attributes', dialect: d, code: tx(d, [put('attribute_not_exists(PK) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'the article: Delete guarded by attribute_exists(SK)', dialect: d, code: tx(d, [del('attribute_exists(SK)'), counter('ADD likeTally :minusOne', -1)]) },
  { name: 'NOT attribute_exists(SK) is the same guard', dialect: d, code: tx(d, [put('NOT attribute_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'a parenthesised NOT (attribute_exists(PK)) guard', dialect: d, code: tx(d, [put('likedAt > :zero AND (NOT (attribute_exists(PK)))', { ExpressionAttributeValues: { ':zero': 0 } }), counter('ADD likeTally :one', 1)]) },
  { name: 'an OR of guards on both key attributes is the same guard', dialect: d, code: tx(d, [put('attribute_not_exists(PK) OR attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'unlike: an OR of attribute_exists on the key attributes', dialect: d, code: tx(d, [del('attribute_exists(PK) OR attribute_exists(SK)'), counter('ADD likeTally :minusOne', -1)]) },
  { name: 'unlike: NOT attribute_not_exists(SK)', dialect: d, code: tx(d, [del('NOT attribute_not_exists(SK)'), counter('ADD likeTally :minusOne', -1)]) },
  {
    name: 'a ConditionCheck guards the count',
    dialect: d,
    code: tx(d, [{ ConditionCheck: { TableName: 'Social', Key: LIKE, ConditionExpression: 'attribute_exists(SK)' } }, counter('ADD likeTally :one', 1)]),
  },
  {
    name: 'a child written by an Update guarded by attribute_not_exists',
    dialect: d,
    code: tx(d, [{ Update: { TableName: 'Social', Key: LIKE, UpdateExpression: 'SET likedAt = :t', ConditionExpression: 'attribute_not_exists(SK)', ExpressionAttributeValues: { ':t': 1 } } }, counter('ADD likeTally :one', 1)]),
  },
  {
    name: 'no counter in the transaction',
    dialect: d,
    code: tx(d, [put(), { Update: { TableName: 'Social', Key: POST, UpdateExpression: 'SET title = :t', ExpressionAttributeValues: { ':t': 'x' } } }]),
  },
]);

cases.push({
  name: 'a reserved key attribute name gets a #placeholder',
  dialect: 'json',
  code: render('json', 'TransactWriteItems', {
    TransactItems: [
      { Put: { TableName: 'T', Item: { pk: 'P#1', name: 'C#1' } } },
      { Update: { TableName: 'T', Key: { pk: 'P#1', name: 'META' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
    ],
  }),
  expect: [
    {
      text: '"Put"',
      fixes: [
        render('json', 'TransactWriteItems', {
          TransactItems: [
            { Put: { TableName: 'T', Item: { pk: 'P#1', name: 'C#1' }, ConditionExpression: 'attribute_not_exists(#name)', ExpressionAttributeNames: { '#name': 'name' } } },
            { Update: { TableName: 'T', Key: { pk: 'P#1', name: 'META' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
          ],
        }),
      ],
    },
  ],
});

ruleCases('unguarded-add-in-transaction', cases);
