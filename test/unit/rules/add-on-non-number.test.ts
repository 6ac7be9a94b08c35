import { strict as assert } from 'node:assert';
import { Case, lint, parsersReady, ruleCases } from './check';
import { ALL_DIALECTS, V, dec, raw, render } from './render';
import type { Dialect } from './check';

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

/**
 * Numeric strings the fix only offers when the number reads the same in the host: low-level `{N: s}` when DynamoDB
 * accepts s as written; JS/TS when `String(Number(s)) === s` (safe integers); boto3 resource an int literal Python
 * reads, else `Decimal('s')`. `undefined`: no fix in that dialect.
 */
const LOW_LEVEL: Dialect[] = ['json', 'ts-v3', 'py-client'];
const NUMERIC_STRINGS: { s: string; doc?: true; py?: V }[] = [
  { s: '007', py: raw("Decimal('007')") },
  { s: '12345678901234567890', py: raw('12345678901234567890') },
  { s: '.5', py: raw("Decimal('.5')") },
  { s: '1e3', py: raw("Decimal('1e3')") },
  { s: '+1', py: raw("Decimal('+1')") },
  { s: '9007199254740993', py: raw('9007199254740993') },
  { s: '9007199254740991', doc: true, py: raw('9007199254740991') },
  { s: '1e-7', doc: true, py: raw("Decimal('1e-7')") },
  { s: '0', doc: true, py: raw('0') },
  // DynamoDB rejects these as numbers whatever the style: no fix.
  { s: ' 5' },
  { s: '5 ' },
  { s: '1e400' },
  { s: '1e-200' },
  { s: '1'.repeat(39) },
];
for (const d of ALL_DIALECTS) {
  const r = (v: V) => render(d, 'UpdateItem', upd('ADD n :v', { ':v': v }));
  for (const { s, doc, py } of NUMERIC_STRINGS) {
    const valid = py !== undefined;
    const after = !valid ? undefined : LOW_LEVEL.includes(d) ? r(dec(s)) : d === 'py-resource' ? r(py) : doc ? r(raw(s)) : undefined;
    cases.push({
      name: `ADD with the numeric string ${JSON.stringify(s)}: ${after ? 'fixed as written' : 'no fix (would not read the same)'}`,
      dialect: d,
      code: r(s),
      expect: [{ text: ':v', message: 'is a string', fixes: after ? [after] : [] }],
    });
  }
}

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

  it('a number written with surrounding whitespace is an invalid number (DynamoDB Local rejects it), leading zeros are not', () => {
    const found = [' 5', '5 ', '007'].map((n) => {
      const text = render('json', 'UpdateItem', upd('ADD n :v', { ':v': dec(n) }));
      return lint(text, 'json').map((f) => [f.ruleId, f.severity]);
    });
    assert.deepEqual(found, [[['invalid-number', 'error']], [['invalid-number', 'error']], []]);
  });
});
