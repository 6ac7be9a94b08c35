/** Random requests through every rule: no rule throws, every range is inside the text, every fix applies cleanly. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { fcParameters } from '../../support/fc';
import { extract } from '../../../server/src/extract';
import { applyEdits } from '../../../server/src/rules/edit';
import { Dialect, PRELUDE, LANGUAGE, lint, parsersReady } from './check';
import { V, render } from './render';

const path = fc.constantFrom('n', 'likeTally', '#c', 'a.b', 'items[0]', 'name', 'SK');
const value = fc.constantFrom(':one', ':m', ':s', ':z', ':x');
const operand = fc.oneof(path, value, fc.tuple(path, value).map(([p, v]) => `if_not_exists(${p}, ${v})`));
const setAction = fc.tuple(path, operand, fc.constantFrom('+', '-', ''), operand).map(([p, a, op, b]) => (op ? `${p} = ${a} ${op} ${b}` : `${p} = ${a}`));
const update = fc
  .record({
    set: fc.array(setAction, { maxLength: 3 }),
    add: fc.array(fc.tuple(path, value).map(([p, v]) => `${p} ${v}`), { maxLength: 2 }),
    del: fc.array(fc.tuple(path, value).map(([p, v]) => `${p} ${v}`), { maxLength: 1 }),
  })
  .map(({ set, add, del }) => [set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : '', del.length ? `DELETE ${del.join(', ')}` : ''].filter(Boolean).join(' ') || 'SET n = :one');
const condition = fc.option(fc.constantFrom('attribute_not_exists(SK)', 'attribute_exists(PK)', 'n >= :one', 'n > :z OR attribute_not_exists(n)', '(n = :one)'), { nil: undefined });
const values: fc.Arbitrary<Record<string, V>> = fc.dictionary(fc.constantFrom(':one', ':m', ':s', ':z', ':x'), fc.oneof(fc.constant<V>(1), fc.constant<V>(-1), fc.constant<V>('1'), fc.constant<V>('x'), fc.constant<V>(true), fc.constant<V>(0), fc.constant<V>(['a'])));
const action = fc.record({ kind: fc.constantFrom('Put', 'Update', 'Delete', 'ConditionCheck'), expr: update, cond: condition, values, sk: fc.constantFrom('META', 'LIKE#1') });

function request(a: { kind: string; expr: string; cond?: string; values: Record<string, V>; sk: string }): Record<string, V> {
  const p: Record<string, V> = { TableName: 'Social' };
  if (a.kind === 'Put') p.Item = { PK: 'POST#1', SK: a.sk };
  else p.Key = { PK: 'POST#1', SK: a.sk };
  if (a.kind === 'Update') p.UpdateExpression = a.expr;
  if (a.cond) p.ConditionExpression = a.cond;
  if (Object.keys(a.values).length) p.ExpressionAttributeValues = a.values;
  p.ExpressionAttributeNames = { '#c': 'count' };
  return p;
}

describe('rules on random requests', () => {
  before(parsersReady);
  for (const d of ['json', 'ts-v3', 'ts-doc', 'py-client', 'py-resource'] as Dialect[]) {
    it(`${d}: no throw, ranges in bounds, fixes apply and keep the request readable`, () => {
      fc.assert(
        fc.property(fc.array(action, { minLength: 1, maxLength: 4 }), fc.boolean(), (actions, single) => {
          const code =
            single || d === 'py-resource'
              ? render(d, 'UpdateItem', request({ ...actions[0], kind: 'Update' }))
              : render(d, 'TransactWriteItems', { TransactItems: actions.map((a) => ({ [a.kind]: request(a) })) });
          const text = PRELUDE[d] + code;
          const sites = extract(text, LANGUAGE[d]).sites.length;
          for (const f of lint(text, LANGUAGE[d], { settingsRules: { 'non-idempotent-counter': 'hint' } })) {
            assert.ok(f.range.start >= 0 && f.range.end <= text.length && f.range.start <= f.range.end);
            for (const fix of f.fixes ?? []) {
              const out = applyEdits(text, fix.edits);
              assert.equal(extract(out, LANGUAGE[d]).sites.length, sites, `${fix.title} keeps the file readable:\n${out}`);
            }
          }
        }),
        fcParameters({ numRuns: 60, seed: 4 }),
      );
    });
  }
});
