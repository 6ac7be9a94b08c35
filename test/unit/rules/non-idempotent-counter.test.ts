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
      { name: 'a conditional counter', dialect: d, config: on, code: r('ADD play_count :one', { ':one': 1 }, { ConditionExpression: 'attribute_exists(PK)' }) },
    ];
  }),
);
