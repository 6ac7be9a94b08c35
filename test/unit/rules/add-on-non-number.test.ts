import { strict as assert } from 'node:assert';
import { Case, lint, parsersReady, ruleCases } from './check';
import { ALL_DIALECTS, V, render } from './render';

const upd = (expr: string, values: Record<string, V>): Record<string, V> => ({
  TableName: 'Videos',
  Key: { PK: 'VID#9f3a', SK: 'STATS#TOTAL' },
  UpdateExpression: expr,
  ExpressionAttributeValues: values,
});

const cases: Case[] = ALL_DIALECTS.flatMap((d): Case[] => {
  const r = (expr: string, values: Record<string, V>) => render(d, 'UpdateItem', upd(expr, values));
  return [
    {
      name: 'ADD with a numeric string: sent as a number by the fix',
      dialect: d,
      code: r('ADD play_count :one', { ':one': '1' }),
      expect: [{ text: ':one', message: 'is a string', fixes: [r('ADD play_count :one', { ':one': 1 })] }],
    },
    {
      name: 'ADD with a decimal numeric string',
      dialect: d,
      code: r('ADD score :d', { ':d': '-2.5' }),
      expect: [{ text: ':d', fixes: [r('ADD score :d', { ':d': -2.5 })].map((t) => (d === 'py-resource' ? t.replace('-2.5', "Decimal('-2.5')") : t)) }],
    },
    { name: 'ADD with a word', dialect: d, code: r('ADD play_count :one', { ':one': 'one' }), expect: [{ text: ':one' }] },
    { name: 'ADD with a boolean', dialect: d, code: r('ADD play_count :one', { ':one': true }), expect: [{ text: ':one', message: 'a boolean' }] },
    { name: 'ADD with a map', dialect: d, code: r('ADD play_count :one', { ':one': { n: 1 } }), expect: [{ text: ':one', message: 'a map' }] },
    { name: 'ADD with a list', dialect: d, code: r('ADD tags :t', { ':t': ['a'] }), expect: [{ text: ':t', message: 'a list' }] },
    { name: 'DELETE with a string', dialect: d, code: r('DELETE tags :t', { ':t': 'a' }), expect: [{ text: ':t', message: 'DELETE removes elements from a set' }] },
    { name: 'DELETE with a number', dialect: d, code: r('DELETE tags :t', { ':t': 1 }), expect: [{ text: ':t' }] },
    { name: 'ADD with a number', dialect: d, code: r('ADD play_count :one', { ':one': 1 }) },
    { name: 'a value the linter cannot see', dialect: d, code: r('ADD play_count :one', {}).replace(/ExpressionAttributeValues(": |: |=)\{\}/, 'ExpressionAttributeValues$1values') },
  ];
});

// Sets in each host's own syntax.
cases.push(
  { name: 'ADD a string set', dialect: 'json', code: '{"TableName": "T", "Key": {"PK": {"S": "p"}}, "UpdateExpression": "ADD tags :t", "ExpressionAttributeValues": {":t": {"SS": ["a"]}}}\n' },
  { name: 'DELETE a number set', dialect: 'json', code: '{"TableName": "T", "Key": {"PK": {"S": "p"}}, "UpdateExpression": "DELETE ids :t", "ExpressionAttributeValues": {":t": {"NS": ["1"]}}}\n' },
  { name: 'ADD a JavaScript Set', dialect: 'ts-doc', code: "doc.send(new UpdateCommand({ TableName: 'T', Key: { PK: 'p' }, UpdateExpression: 'ADD tags :t', ExpressionAttributeValues: { ':t': new Set(['a']) } }));\n" },
  { name: 'DELETE a Python set', dialect: 'py-resource', code: "table.update_item(Key={'PK': 'p'}, UpdateExpression='DELETE tags :t', ExpressionAttributeValues={':t': {'a'}})\n" },
  {
    name: 'inside a transaction',
    dialect: 'json',
    code: '{"TransactItems": [{"Update": {"TableName": "T", "Key": {"PK": {"S": "p"}}, "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"S": "1"}}}}]}\n',
    expect: [{ text: ':one', fixes: ['{"TransactItems": [{"Update": {"TableName": "T", "Key": {"PK": {"S": "p"}}, "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}]}\n'] }],
  },
);

ruleCases('add-on-non-number', cases);

describe('add-on-non-number and the expression validator', () => {
  before(parsersReady);
  it('reports one diagnostic, not also add-operand-type / delete-operand-type', () => {
    const text = render('json', 'UpdateItem', upd('ADD n :one DELETE tags :t', { ':one': '1', ':t': 'a' }));
    const ids = lint(text, 'json').map((f) => f.ruleId);
    assert.deepEqual(ids, ['add-on-non-number', 'add-on-non-number']);
  });
});
