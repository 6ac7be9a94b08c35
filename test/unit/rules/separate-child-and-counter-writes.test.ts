import { Case, Dialect, ruleCases } from './check';
import { V, raw, render } from './render';

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
    {
      name: 'an ADD operand of unknown type may be a set: "if :n is a number", at info',
      dialect: d,
      code: fns(d, [['PutItem', child], ['UpdateItem', { ...counter, UpdateExpression: 'ADD likeTally :n', ExpressionAttributeValues: { ':n': raw('n') } }]]),
      expect: [{ text: NAME[d], message: '(if :n is a number; adding to a set is harmless)', severity: 'info' }],
    },
    // (py-resource renders every call on one Table object: no second table to write to.)
    ...(d === 'py-resource'
      ? []
      : [
          {
            name: 'the same key in another table is a child write of its own',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Audit', Item: { PK: 'POST#a91f', SK: 'META' } }], ['UpdateItem', counter]]),
            expect: [{ text: NAME[d] }],
          },
          {
            name: 'a child in another table whose key mirrors the counter item\'s key',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Likes', Item: { PK: 'USER#7c20', SK: 'LIKE#POST#a91f' } }], ['UpdateItem', counter]]),
            expect: [{ text: NAME[d], severity: 'warning' as const }],
          },
          {
            name: 'a notification to the author in another table is not counted',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Notifications', Item: { PK: 'USER#b311', SK: 'NOTIF#2025-06-23T10:00', kind: 'like', postId: 'POST#a91f' } }], ['UpdateItem', counter]]),
          },
          {
            name: 'an audit row keyed by its own id in another table is not counted',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Audit', Item: { id: 'evt-81f2', at: 1750636800, subject: 'POST#a91f' } }], ['UpdateItem', counter]]),
          },
        ]),
  ]),
);

/** Calls in the arms of conditionals: only calls that can both run are "separate writes". */
const ARMS: Dialect[] = ['ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'];
const call = (d: Dialect, api: string, p: Record<string, V>) => render(d, api, p).trimEnd();
function shaped(d: Dialect, shape: 'if-else' | 'elif' | 'if-then-after' | 'nested-same-arm' | 'ternary' | 'iife'): string {
  const put = call(d, 'PutItem', child);
  const upd = call(d, 'UpdateItem', counter);
  if (d.startsWith('py')) {
    const body = {
      'if-else': `    if exists:\n        ${upd}\n    else:\n        ${put}\n`,
      elif: `    if a:\n        ${put}\n    elif b:\n        ${upd}\n`,
      'if-then-after': `    if fresh:\n        ${put}\n    ${upd}\n`,
      'nested-same-arm': `    if a:\n        if b:\n            ${put}\n        ${upd}\n`,
      ternary: `    return (${put}) if fresh else (${upd})\n`,
      iife: '',
    }[shape];
    return `def handler(exists, a, b, fresh):\n${body}`;
  }
  const body = {
    'if-else': `  if (exists) {\n    await ${upd}\n  } else {\n    await ${put}\n  }\n`,
    elif: `  if (a) {\n    await ${put}\n  } else if (b) {\n    await ${upd}\n  }\n`,
    'if-then-after': `  if (fresh) await ${put}\n  await ${upd}\n`,
    'nested-same-arm': `  if (a) {\n    if (b) await ${put}\n    await ${upd}\n  }\n`,
    ternary: `  return fresh ? ${put.replace(/;$/, '')} : ${upd.replace(/;$/, '')};\n`,
    iife: `  if (a) await ${put}\n  await (async () => {\n    if (a) await ${upd}\n  })();\n`,
  }[shape];
  return `export async function handler(exists, a, b, fresh) {\n${body}}\n`;
}

ruleCases(
  'separate-child-and-counter-writes',
  ARMS.flatMap((d): Case[] => [
    { name: 'Update in the if, Put in the else: only one runs', dialect: d, code: shaped(d, 'if-else') },
    { name: 'Put in the if, Update in an else-if', dialect: d, code: shaped(d, 'elif') },
    { name: 'the two arms of a conditional expression', dialect: d, code: shaped(d, 'ternary') },
    { name: 'Put in an if, Update after it: both can run', dialect: d, code: shaped(d, 'if-then-after'), expect: [{ text: NAME[d] }] },
    { name: 'Put in a nested if, Update in the same outer arm: both can run', dialect: d, code: shaped(d, 'nested-same-arm'), expect: [{ text: NAME[d] }] },
    ...(d.startsWith('py') ? [] : [{ name: 'Put in an if, Update in an if inside an IIFE after it: both can run', dialect: d, code: shaped(d, 'iife'), expect: [{ text: NAME[d] }] }]),
  ]),
);
