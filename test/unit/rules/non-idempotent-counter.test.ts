import { Case, ruleCases } from './check';
import { Dialect } from './check';
import { ALL_DIALECTS, V, raw, render } from './render';

const on = { settingsRules: { 'non-idempotent-counter': 'hint' as const } };
const upd = (expr: string, values: Record<string, V>, extra: Record<string, V> = {}): Record<string, V> => ({
  TableName: 'Videos',
  Key: { PK: 'VID#9f3a', SK: 'STATS#TOTAL' },
  UpdateExpression: expr,
  ...extra,
  ExpressionAttributeValues: values,
});

/** The variables the conditional-update fix binds, in the dialect's value style. */
function vars(d: Dialect): Record<string, V> {
  const py = d.startsWith('py');
  const [n, c] = py ? ['next_value', 'current_value'] : ['nextValue', 'currentValue'];
  const wrap = (x: string) => (d === 'ts-v3' ? `{ N: String(${x}) }` : d === 'py-client' ? `{'N': str(${x})}` : x);
  return { ':next': raw(wrap(n)), ':current': raw(wrap(c)) };
}

ruleCases(
  'non-idempotent-counter',
  ALL_DIALECTS.flatMap((d): Case[] => {
    const r = (expr: string, values: Record<string, V>, extra?: Record<string, V>) => render(d, 'UpdateItem', upd(expr, values, extra));
    // The fix appends ConditionExpression after the last parameter; JSON cannot name a variable, so it gets no fix.
    const fixed = (expr: string, values: Record<string, V>, cond: string) =>
      d === 'json' ? [] : [render(d, 'UpdateItem', { ...upd(expr, values), ConditionExpression: cond })];
    return [
      { name: 'off by default', dialect: d, code: r('ADD play_count :one', { ':one': 1 }) },
      {
        name: 'ADD counter, enabled',
        dialect: d,
        config: on,
        code: r('ADD play_count :one', { ':one': 1 }),
        expect: [{ text: 'play_count :one', message: 'SET play_count = :next with ConditionExpression play_count = :current', fixes: fixed('SET play_count = :next', vars(d), 'play_count = :current') }],
      },
      {
        name: 'SET counter, enabled: values only the arithmetic used go',
        dialect: d,
        config: on,
        code: r('SET n = if_not_exists(n, :z) + :one, title = :t', { ':one': 1, ':t': 'x', ':z': 0 }),
        expect: [{ text: 'n = if_not_exists(n, :z) + :one', fixes: fixed('SET n = :next, title = :t', { ':next': vars(d)[':next'], ':t': 'x', ':current': vars(d)[':current'] }, 'n = :current') }],
      },
      { name: 'the conditional update of the article', dialect: d, config: on, code: r('SET play_count = :next', { ':next': 42, ':current': 41 }, { ConditionExpression: 'play_count = :current' }) },
      {
        name: 'attribute_exists(PK) does not stop a retry: the item still exists the second time',
        dialect: d,
        config: on,
        code: r('ADD play_count :one', { ':one': 1 }, { ConditionExpression: 'attribute_exists(PK)' }),
        expect: [
          {
            text: 'play_count :one',
            message: 'Its ConditionExpression `attribute_exists(PK)` does not stop the retry',
            fixes: d === 'json' ? [] : [r('SET play_count = :next', vars(d), { ConditionExpression: '(attribute_exists(PK)) AND play_count = :current' })],
          },
        ],
      },
      {
        name: 'a floor does not stop a retry either',
        dialect: d,
        config: on,
        code: r('SET stock = stock - :qty', { ':qty': 2 }, { ConditionExpression: 'stock >= :qty' }),
        expect: [{ text: 'stock = stock - :qty', message: 'does not stop the retry', fixes: d === 'json' ? [] : [r('SET stock = :next', { ':qty': 2, ...vars(d) }, { ConditionExpression: '(stock >= :qty) AND stock = :current' })] }],
      },
      { name: 'a value condition on the counter (ADD n :one IF n = :seen) stops a retry', dialect: d, config: on, code: r('ADD play_count :one', { ':one': 1, ':seen': 41 }, { ConditionExpression: 'play_count = :seen' }) },
      { name: 'a version condition the update changes stops a retry', dialect: d, config: on, code: r('SET #v = :next ADD play_count :one', { ':one': 1, ':next': 8, ':seen': 7 }, { ConditionExpression: '#v = :seen', ExpressionAttributeNames: { '#v': 'version' } }) },
      { name: 'a condition held in a variable', dialect: d, config: on, code: r('ADD play_count :one', { ':one': 1 }, { ConditionExpression: raw('cond') }) },
      {
        name: 'an ADD operand of unknown type may be a set: "if :n is a number"',
        dialect: d,
        config: on,
        code: r('ADD play_count :n', { ':n': raw('n') }),
        expect: [{ text: 'play_count :n', message: 'applies twice if :n is a number', fixes: fixed('SET play_count = :next', vars(d), 'play_count = :current') }],
      },
    ];
  }),
);
