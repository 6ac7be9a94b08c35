import { Case, Dialect, ruleCases } from './check';
import { V, render } from './render';

const child = { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'LIKE#USER#7c20' } };
const counter = { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'META' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } };
const title = { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'META' }, UpdateExpression: 'SET title = :t', ExpressionAttributeValues: { ':t': 'x' } };
const NAME: Record<string, string> = { 'ts-v3': 'UpdateItemCommand', 'ts-doc': 'UpdateCommand', 'js-v2': 'update', 'py-client': 'update_item', 'py-resource': 'update_item' };

/** Calls wrapped in functions of the dialect. */
function fns(d: Dialect, ...bodies: [string, V][][]): string {
  return bodies
    .map((calls, i) => {
      const lines = calls.map(([api, p]) => render(d, api, p as Record<string, V>));
      if (d.startsWith('py')) return `def handler${i}():\n${lines.map((l) => '    ' + l).join('')}`;
      return `export async function handler${i}() {\n${lines.map((l) => '  await ' + l).join('')}}\n`;
    })
    .join('\n');
}

ruleCases(
  'separate-child-and-counter-writes',
  (['ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'] as Dialect[]).flatMap((d): Case[] => [
    {
      name: 'Put then counter update in one function',
      dialect: d,
      code: fns(d, [['PutItem', child], ['UpdateItem', counter]]),
      expect: [{ text: NAME[d], message: 'handler0 writes a child item and updates its counter in two separate calls' }],
    },
    { name: 'Delete and counter update', dialect: d, code: fns(d, [['UpdateItem', counter], ['DeleteItem', { TableName: 'Social', Key: child.Item }]]), expect: [{ text: NAME[d] }] },
    { name: 'in different functions', dialect: d, code: fns(d, [['PutItem', child]], [['UpdateItem', counter]]) },
    { name: 'an update that is not a counter', dialect: d, code: fns(d, [['PutItem', child], ['UpdateItem', title]]) },
    {
      name: 'a Put that creates the counter item itself (it holds the counter), then ADD',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'META', likeTally: 0 }, ConditionExpression: 'attribute_not_exists(PK)' }], ['UpdateItem', counter]]),
    },
    {
      name: 'a Put of the same key as the counter (the parent, not a child)',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'META', title: 'x' } }], ['UpdateItem', counter]]),
    },
    // (py-resource renders every call on one Table object: no second table to write to.)
    ...(d === 'py-resource' ? [] : [{
      name: 'the same key in another table is a child write of its own',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Audit', Item: { PK: 'POST#a91f', SK: 'META' } }], ['UpdateItem', counter]]),
      expect: [{ text: NAME[d] }],
    }]),
  ]),
);
