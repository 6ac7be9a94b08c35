import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseExpression, validateRequest, type ExpressionKind } from '../../../server/src/expression';
import { fcParameters } from '../../support/fc';

const KINDS: ExpressionKind[] = ['update', 'condition', 'filter', 'keyCondition', 'projection'];
const FIELD = { update: 'UpdateExpression', condition: 'ConditionExpression', filter: 'FilterExpression', keyCondition: 'KeyConditionExpression', projection: 'ProjectionExpression' } as const;

/** Pieces of the language and near-misses, so random strings hit the grammar's corners. */
const FRAGMENTS = ['SET ', 'REMOVE ', 'ADD ', 'DELETE ', ' AND ', ' OR ', 'NOT ', ' BETWEEN ', ' IN ', 'a', 'status', '#n', ':v', ':v-w', '.', '[', ']', '[0]', '01', '(', ')', ',', '=', '<>', '<', '>=', '+', '-', ' ', 'size(', 'attribute_exists(', 'list_append(', 'if_not_exists(', 'FOO(', "'", 'é', '\u00a0', '#', ':'];

const path = fc.tuple(fc.constantFrom('a', 'b', 'c1', '#n', '#m'), fc.array(fc.constantFrom('.x', '.#n', '[0]', '[12]'), { maxLength: 3 })).map(([h, t]) => h + t.join(''));
const value = fc.constantFrom(':v', ':w', ':n');
const operand = fc.oneof(path, value, path.map((p) => `size(${p})`));

const { cond } = fc.letrec<{ cond: string }>((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(operand, fc.constantFrom('=', '<>', '<', '<=', '>', '>='), operand).map(([l, o, r]) => `${l} ${o} ${r}`),
    fc.tuple(operand, operand, operand).map(([x, lo, hi]) => `${x} BETWEEN ${lo} AND ${hi}`),
    fc.tuple(operand, fc.array(operand, { minLength: 1, maxLength: 4 })).map(([x, l]) => `${x} IN (${l.join(', ')})`),
    fc.tuple(fc.constantFrom('attribute_exists', 'attribute_not_exists'), path).map(([f, p]) => `${f}(${p})`),
    fc.tuple(fc.constantFrom('begins_with', 'contains'), path, value).map(([f, p, v]) => `${f}(${p}, ${v})`),
    tie('cond').map((c) => `NOT ${c}`),
    tie('cond').map((c) => `(${c})`),
    fc.tuple(tie('cond'), fc.constantFrom(' AND ', ' OR ', ' and ', ' Or '), tie('cond')).map(([l, o, r]) => l + o + r),
  ),
}));

const setValue = fc.oneof(
  operand.filter((o) => !o.startsWith('size')),
  fc.tuple(path, value).map(([p, v]) => `if_not_exists(${p}, ${v})`),
  fc.tuple(path, value).map(([p, v]) => `list_append(${p}, ${v})`),
  fc.tuple(value, fc.constantFrom('+', '-'), path).map(([v, o, p]) => `${v} ${o} ${p}`),
);
const update = fc
  .tuple(
    fc.array(fc.tuple(path, setValue).map(([p, v]) => `${p} = ${v}`), { minLength: 1, maxLength: 3 }),
    fc.array(path, { maxLength: 2 }),
    fc.array(fc.tuple(path, value).map(([p, v]) => `${p} ${v}`), { maxLength: 2 }),
  )
  .map(([sets, removes, adds]) => [`SET ${sets.join(', ')}`, removes.length ? `remove ${removes.join(', ')}` : '', adds.length ? `Add ${adds.join(', ')}` : ''].filter(Boolean).join(' '));

const mutation = fc.tuple(fc.nat(), fc.constantFrom(...FRAGMENTS), fc.constantFrom('insert', 'delete', 'truncate'));
function mutate(text: string, [at, piece, how]: [number, string, string]): string {
  const i = text.length ? at % text.length : 0;
  if (how === 'insert') return text.slice(0, i) + piece + text.slice(i);
  if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
  return text.slice(0, i);
}

/** The invariants of any parse: an AST or an error with a range inside the text, and validation with ranges inside. */
function checkTotal(kind: ExpressionKind, text: string): void {
  const r = parseExpression(kind, text);
  assert.ok((r.ast === undefined) !== (r.error === undefined), 'exactly one of ast / error');
  if (r.error) {
    assert.ok(r.error.start >= 0 && r.error.start <= r.error.end && r.error.end <= text.length);
    assert.ok(r.error.message.startsWith(`Invalid ${FIELD[kind]}: `), r.error.message);
  }
  const findings = validateRequest({ operation: 'Query', expressions: { [FIELD[kind]]: text }, values: { map: { ':v': { type: 'S', text: 'x' } }, complete: true } });
  for (const f of findings) {
    assert.equal(f.severity, 'error');
    assert.match(f.id, /^[a-z]+(-[a-z]+)*$/);
    if ('start' in f.location) assert.ok(f.location.start >= 0 && f.location.start <= f.location.end && f.location.end <= text.length, `${f.id} range`);
  }
  if (r.error) assert.ok(findings.some((f) => f.id === 'expression-syntax' || f.id === 'nesting-too-deep'));
}

describe('expression language: properties', () => {
  it('random strings of language fragments never throw and always give a well-formed verdict', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }), (kind, parts) => checkTotal(kind, parts.join(''))),
      { numRuns: 1500 },
    );
  });

  it('arbitrary unicode never throws', () => {
    fc.assert(fc.property(fc.constantFrom(...KINDS), fc.string({ unit: 'binary', maxLength: 200 }), (kind, s) => checkTotal(kind, s)), fcParameters({ numRuns: 500 }));
  });

  it('generated conditions parse, span the whole text, and survive mutation', () => {
    fc.assert(
      fc.property(cond, mutation, (text, m) => {
        const r = parseExpression('condition', text);
        assert.equal(r.error, undefined, `${text}: ${r.error?.message}`);
        assert.ok(r.ast && 'start' in r.ast);
        assert.deepEqual([r.ast.start, r.ast.end], [0, text.length]);
        checkTotal('condition', mutate(text, m));
      }),
      { numRuns: 800 },
    );
  });

  it('generated updates parse and survive mutation', () => {
    fc.assert(
      fc.property(update, mutation, (text, m) => {
        const r = parseExpression('update', text);
        assert.equal(r.error, undefined, `${text}: ${r.error?.message}`);
        assert.ok(r.ast?.type === 'update');
        assert.equal(r.ast.clauses.length, text.split(/SET |remove |Add /).length - 1);
        checkTotal('update', mutate(text, m));
      }),
      { numRuns: 800 },
    );
  });

  it('large pathological inputs complete with the right verdict (linear: no backtracking, no recursion blow-up)', () => {
    const cases: [ExpressionKind, string, string][] = [
      ['condition', '('.repeat(100_000), 'expression-syntax'],
      ['condition', `${'('.repeat(50_000)}a = :v${')'.repeat(50_000)}`, 'nesting-too-deep'],
      ['condition', `${'size('.repeat(20_000)}a${')'.repeat(20_000)} = :v`, 'nesting-too-deep'],
      ['condition', `${'NOT '.repeat(20_000)}a = :v`, 'too-many-operators'],
      ['condition', Array.from({ length: 10_000 }, (_, i) => `a${i} = :v`).join(' AND '), 'too-many-operators'],
      ['update', `SET ${Array.from({ length: 10_000 }, (_, i) => `a${i} = :v + a${i}`).join(', ')}`, 'too-many-operators'],
      ['projection', `${Array.from({ length: 20_000 }, (_, i) => `a.b${i}[${i}]`).join(', ')}, a`, 'overlapping-paths'],
      ['projection', `${Array.from({ length: 20_000 }, (_, i) => `a.b${i}`).join(', ')}, a[1]`, 'overlapping-paths'],
      ['update', `REMOVE ${Array.from({ length: 20_000 }, (_, i) => `a${i}`).join(', ')} x`, 'expression-syntax'],
      ['filter', `a = :v AND ${':'.repeat(50_000)}`, 'expression-syntax'],
      ['condition', `a IN (${Array(20_000).fill(':v').join(',')})`, 'too-many-in-operands'],
    ];
    for (const [kind, text, id] of cases) {
      const ids = new Set(validateRequest({ operation: 'Scan', expressions: { [FIELD[kind]]: text } }).map((f) => f.id));
      assert.ok(ids.has(id), `${kind} ${text.slice(0, 30)}: ${[...ids].join(', ')}`);
      assert.ok(ids.has('expression-too-long'));
    }
  });
});
