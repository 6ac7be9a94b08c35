import { Case, ruleCases } from './check';
import { ALL_DIALECTS, TRANSACT_DIALECTS, V, dec, render } from './render';

const upd = (expr: string, values: Record<string, V>, cond?: string): Record<string, V> => ({
  TableName: 'Shop',
  Key: { PK: 'SKU#1', SK: 'STOCK' },
  UpdateExpression: expr,
  ...(cond ? { ConditionExpression: cond } : {}),
  ExpressionAttributeValues: values,
});

const cases: Case[] = ALL_DIALECTS.flatMap((d): Case[] => {
  const r = (expr: string, values: Record<string, V>, cond?: string) => render(d, 'UpdateItem', upd(expr, values, cond));
  // The fix adds the condition after the last entry (ExpressionAttributeValues), so render that order.
  const withCond = (expr: string, values: Record<string, V>, cond: string) =>
    render(d, 'UpdateItem', { TableName: 'Shop', Key: { PK: 'SKU#1', SK: 'STOCK' }, UpdateExpression: expr, ExpressionAttributeValues: values, ConditionExpression: cond });
  return [
    {
      name: 'SET stock = stock - :qty: floor on the same value',
      dialect: d,
      code: r('SET stock = stock - :qty', { ':qty': 2 }),
      expect: [{ text: 'stock = stock - :qty', message: 'below zero', fixes: [withCond('SET stock = stock - :qty', { ':qty': 2 }, 'stock >= :qty')] }],
    },
    {
      name: 'ADD with a negative literal: a :floor value is added',
      dialect: d,
      code: r('ADD stock :minusOne', { ':minusOne': -1 }),
      expect: [{ text: 'stock :minusOne', fixes: [withCond('ADD stock :minusOne', { ':minusOne': -1, ':floor': dec(1) }, 'stock >= :floor')] }],
    },
    {
      name: 'an unrelated condition is kept and AND-ed',
      dialect: d,
      code: r('SET stock = stock - :qty', { ':qty': 2 }, 'attribute_exists(PK)'),
      expect: [{ text: 'stock = stock - :qty', fixes: [r('SET stock = stock - :qty', { ':qty': 2 }, '(attribute_exists(PK)) AND stock >= :qty')] }],
    },
    { name: 'floored', dialect: d, code: r('SET stock = stock - :qty', { ':qty': 2 }, 'stock >= :qty') },
    { name: 'floored with BETWEEN', dialect: d, code: r('ADD stock :m', { ':m': -1, ':lo': 1, ':hi': 100 }, 'stock BETWEEN :lo AND :hi') },
    { name: 'an increment', dialect: d, code: r('ADD stock :one', { ':one': 1 }) },
  ];
});
cases.push({
  name: 'a decrement inside a transaction is left to unguarded-add-in-transaction',
  dialect: 'json',
  code: '{"TransactItems": [{"Update": {"TableName": "T", "Key": {"PK": {"S": "p"}}, "UpdateExpression": "ADD n :m", "ExpressionAttributeValues": {":m": {"N": "-1"}}}}]}\n',
});
/** A decrement paired with a guarded removal: each decrement takes away one counted thing, so the floor is implied. */
cases.push(
  ...ALL_DIALECTS.flatMap((d): Case[] => {
    const r = (expr: string, values: Record<string, V>, cond: string, names?: Record<string, string>) =>
      render(d, 'UpdateItem', { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'META' }, UpdateExpression: expr, ConditionExpression: cond, ...(names ? { ExpressionAttributeNames: names } : {}), ExpressionAttributeValues: values });
    return [
      { name: 'an owner condition plus REMOVE of the owner', dialect: d, code: r('REMOVE likedBy.#u ADD likeTally :minusOne', { ':minusOne': -1 }, 'attribute_exists(likedBy.#u)', { '#u': 'u7c20' }) },
      { name: 'an owner equality plus REMOVE of the owner', dialect: d, code: r('REMOVE holder SET seats = seats - :one', { ':one': 1, ':me': 'USER#7c20' }, 'holder = :me') },
      {
        name: 'a condition on the item, REMOVE of something else: no floor implied',
        dialect: d,
        code: r('REMOVE lastLiker ADD likeTally :minusOne', { ':minusOne': -1 }, 'attribute_exists(PK)'),
        expect: [
          {
            text: 'likeTally :minusOne',
            fixes: [r('REMOVE lastLiker ADD likeTally :minusOne', { ':minusOne': -1, ':floor': dec(1) }, '(attribute_exists(PK)) AND likeTally >= :floor')],
          },
        ],
      },
    ];
  }),
  ...TRANSACT_DIALECTS.map(
    (d): Case => ({
      name: 'unlike: a decrement next to a Delete guarded by attribute_exists in the same transaction',
      dialect: d,
      code: render(d, 'TransactWriteItems', {
        TransactItems: [
          { Delete: { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'LIKE#USER#7c20' }, ConditionExpression: 'attribute_exists(SK)' } },
          { Update: { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'META' }, UpdateExpression: 'ADD likeTally :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } } },
        ],
      }),
    }),
  ),
);
ruleCases('decrement-without-floor', cases);
