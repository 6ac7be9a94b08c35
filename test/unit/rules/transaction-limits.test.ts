import { Case, Dialect, ruleCases } from './check';
import { V, render } from './render';

const k = (d: Dialect, s: string) => (d === 'json' ? `"${s}"` : d.startsWith('py') ? `'${s}'` : s);
const DIALECTS: Dialect[] = ['json', 'ts-v3', 'ts-doc', 'js-v2', 'py-client'];
const puts = (n: number): V[] => Array.from({ length: n }, (_, i) => ({ Put: { TableName: 'T', Item: { PK: `P#${i}`, SK: 'S' } } }));
const meta = { PK: 'POST#a91f', SK: 'META' };
const counter = { Update: { TableName: 'Social', Key: meta, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } };

ruleCases(
  'transaction-too-many-actions',
  DIALECTS.flatMap((d): Case[] => [
    { name: '101 actions', dialect: d, code: render(d, 'TransactWriteItems', { TransactItems: puts(101) }), expect: [{ text: d.startsWith('py') ? 'TransactItems' : k(d, 'TransactItems'), message: 'this one has 101' }] },
    { name: '100 actions', dialect: d, code: render(d, 'TransactWriteItems', { TransactItems: puts(100) }) },
  ]),
);

ruleCases(
  'transaction-duplicate-item',
  DIALECTS.flatMap((d): Case[] => [
    {
      name: 'a ConditionCheck on the item the Update changes',
      dialect: d,
      code: render(d, 'TransactWriteItems', { TransactItems: [counter, { ConditionCheck: { TableName: 'Social', Key: meta, ConditionExpression: 'attribute_exists(PK)' } }] }),
      expect: [{ text: k(d, 'ConditionCheck'), message: 'two operations on one item' }],
    },
    {
      name: 'a Put whose Item has the key of another action',
      dialect: d,
      code: render(d, 'TransactWriteItems', { TransactItems: [counter, { Put: { TableName: 'Social', Item: { ...meta, title: 'x' }, ConditionExpression: 'attribute_not_exists(SK)' } }] }),
      expect: [{ text: k(d, 'Put') }],
    },
    {
      name: 'the like transaction: two different items',
      dialect: d,
      code: render(d, 'TransactWriteItems', { TransactItems: [{ Put: { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'LIKE#USER#7c20' }, ConditionExpression: 'attribute_not_exists(SK)' } }, counter] }),
    },
    {
      name: 'same key in two tables',
      dialect: d,
      code: render(d, 'TransactWriteItems', { TransactItems: [counter, { ConditionCheck: { TableName: 'Other', Key: meta, ConditionExpression: 'attribute_exists(PK)' } }] }),
    },
  ]),
);

// A bare `--transact-items` file has no TransactItems key: the finding points at the 101st action, not the whole file.
ruleCases('transaction-too-many-actions', [
  {
    name: 'bare --transact-items file with 101 actions',
    dialect: 'json',
    code: `[\n${Array.from({ length: 101 }, (_, i) => `  {"Put": {"TableName": "T", "Item": {"PK": {"S": "P#${i}"}}}}`).join(',\n')}\n]\n`,
    expect: [{ text: '{"Put": {"TableName": "T", "Item": {"PK": {"S": "P#100"}}}}', message: 'this one has 101' }],
  },
]);
