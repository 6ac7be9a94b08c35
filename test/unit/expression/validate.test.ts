import { strict as assert } from 'node:assert';
import {
  EXPRESSION_FINDINGS,
  validateExpression,
  validateRequest,
  type ExpressionField,
  type ExpressionKind,
  type ExpressionRequest,
} from '../../../server/src/expression';
import { fmtAll, vals } from './helpers';

const KEYS = { partition: 'PK', sort: 'SK', all: ['PK', 'SK'] };
const FIELD: Record<ExpressionKind, ExpressionField> = {
  update: 'UpdateExpression',
  condition: 'ConditionExpression',
  filter: 'FilterExpression',
  keyCondition: 'KeyConditionExpression',
  projection: 'ProjectionExpression',
};

interface Case {
  kind: ExpressionKind;
  text: string;
  names?: Record<string, string>;
  /** Compact values: `{':n': 'N:5'}` (see helpers.val). */
  values?: Record<string, string>;
  keys?: boolean;
  /** Expected findings as `id@start-end` / `id@Map:key`, any order. Empty: valid. */
  expect: string[];
}

/** Build a request: names/values complete; every placeholder used but not listed gets a default definition. */
function request(c: Case): ExpressionRequest {
  const names: Record<string, string> = { ...(c.names ?? {}) };
  const values = vals(c.values ?? {});
  return {
    operation: c.kind === 'keyCondition' || c.kind === 'filter' ? 'Query' : c.kind === 'projection' ? 'Scan' : 'UpdateItem',
    expressions: { [FIELD[c.kind]]: c.text },
    names: c.names || /#/.test(c.text) ? { map: names, complete: true } : undefined,
    values: c.values ? { map: values, complete: true } : undefined,
    keyAttributes: c.keys ? KEYS : undefined,
  };
}

const N = { ':n': 'N:1' };
const S = { ':s': 'S:x' };

const CASES: Record<string, Case[]> = {
  'syntax and limits': [
    { kind: 'update', text: 'SET a = = b', expect: ['expression-syntax@8-9'] },
    { kind: 'condition', text: '', expect: ['expression-syntax@0-0'] },
    { kind: 'update', text: `SET ${'a'.repeat(4088)} = b`, expect: [] },
    { kind: 'update', text: `SET ${'a'.repeat(4089)} = b`, expect: ['expression-too-long@0-4097'] },
    { kind: 'update', text: `SET ${'é'.repeat(2045)} = b`, expect: ['expression-syntax@4-5', 'expression-too-long@0-2053'] },
    { kind: 'condition', text: `a IN (${Array.from({ length: 100 }, (_, i) => `b${i}`).join(',')})`, expect: [] },
    { kind: 'condition', text: `a IN (${Array.from({ length: 101 }, (_, i) => `b${i}`).join(',')})`, expect: ['too-many-in-operands@0-401'] },
    { kind: 'projection', text: Array(32).fill('a').join('.'), expect: [] },
    { kind: 'projection', text: Array(33).fill('a').join('.'), expect: ['path-too-deep@0-65'] },
    { kind: 'projection', text: `a${'[0]'.repeat(32)}`, expect: ['path-too-deep@0-97'] },
    { kind: 'condition', text: Array.from({ length: 150 }, (_, i) => `a${i} = :s`).join(' AND '), values: S, expect: [] },
    { kind: 'condition', text: 'NOT '.repeat(300) + 'a = :s', values: S, expect: ['too-many-operators@0-1206'] },
    { kind: 'update', text: `SET ${Array.from({ length: 300 }, (_, i) => `a${i}=:n+:n`).join(',')}`, values: N, expect: [] },
    { kind: 'update', text: `SET ${Array.from({ length: 301 }, (_, i) => `a${i}=:n+:n`).join(',')}`, values: N, expect: ['too-many-operators@0-3204'] },
    { kind: 'update', text: 'SET a[2147483647] = :n', values: N, expect: [] },
    { kind: 'update', text: 'SET a[2147483648] = :n', values: N, expect: ['list-index-range@5-17'] },
    { kind: 'condition', text: '('.repeat(1500) + 'a = :s' + ')'.repeat(1500), values: S, expect: ['nesting-too-deep@1000-1001'] },
  ],
  'names and values': [
    { kind: 'update', text: 'SET a = :v', values: { ':v': 'S:x' }, expect: [] },
    { kind: 'update', text: 'SET a = :v', values: { ':w': 'S:x' }, expect: ['undefined-value@8-10', 'unused-value@ExpressionAttributeValues::w'] },
    { kind: 'update', text: 'SET #a = :v, #a.b = :v', values: { ':v': 'S:x' }, expect: ['empty-attribute-map@ExpressionAttributeNames', 'undefined-name@4-6', 'undefined-name@13-15', 'overlapping-paths@13-17'] },
    { kind: 'update', text: 'SET a = :v', names: { '#x': 'y' }, values: { ':v': 'S:x' }, expect: ['unused-name@ExpressionAttributeNames:#x'] },
    { kind: 'update', text: 'SET a = :v', names: {}, values: { ':v': 'S:x' }, expect: ['empty-attribute-map@ExpressionAttributeNames'] },
    { kind: 'update', text: 'SET #a = :v', names: { '#a': '' }, values: { ':v': 'S:x' }, expect: ['empty-attribute-name@ExpressionAttributeNames:#a'] },
    { kind: 'update', text: 'SET a = :v', values: { ':v': 'S:x', ':v-w': 'N:1' }, expect: ['invalid-placeholder-key@ExpressionAttributeValues::v-w'] },
    { kind: 'update', text: 'SET a = :v-w', values: { ':v': 'N:1' }, expect: [] },
    { kind: 'update', text: `SET a = :${'v'.repeat(254)}`, values: { [`:${'v'.repeat(254)}`]: 'S:x' }, expect: [] },
    { kind: 'update', text: `SET a = :${'v'.repeat(255)}`, values: { [`:${'v'.repeat(255)}`]: 'S:x' }, expect: [`placeholder-too-long@ExpressionAttributeValues::${'v'.repeat(255)}`] },
    { kind: 'condition', text: 'a.:v = :s', values: S, expect: ['undefined-name@2-4'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:123456789012345678901234567890123456789' }, expect: ['number-precision@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:1234567890123456789012345678901234567800000' }, expect: [] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:0.000000000001234567890123456789012345678' }, expect: [] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'NS:1,123456789012345678901234567890123456789' }, expect: ['number-precision@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:abc' }, expect: ['invalid-number@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:1e200' }, expect: ['invalid-number@ExpressionAttributeValues::n'] },
    // DynamoDB Local rejects surrounding whitespace ("A value provided cannot be converted into a number"); leading zeros are fine.
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N: 5' }, expect: ['invalid-number@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:5 ' }, expect: ['invalid-number@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'N:007' }, expect: [] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'SS:' }, expect: ['empty-set@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'SS:a,b,a' }, expect: ['duplicate-set-elements@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'NS:1,1.0' }, expect: ['duplicate-set-elements@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'NS:0.5,5e-1' }, expect: ['duplicate-set-elements@ExpressionAttributeValues::n'] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'NS:1,10,-1' }, expect: [] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'SS:a,A' }, expect: [] },
    { kind: 'update', text: 'SET a = :n', values: { ':n': 'NS:1,1,123456789012345678901234567890123456789' }, expect: ['duplicate-set-elements@ExpressionAttributeValues::n'] },
  ],
  'reserved words': [
    { kind: 'update', text: 'SET status = :s', values: S, expect: ['reserved-word@4-10'] },
    { kind: 'update', text: 'SET info.Status = :s', values: S, expect: ['reserved-word@9-15'] },
    { kind: 'projection', text: '#s.status, name, a', names: { '#s': 'x' }, expect: ['reserved-word@3-9', 'reserved-word@11-15'] },
    { kind: 'condition', text: 'attribute_exists(#status) AND size(a) > :n', names: { '#status': 'status' }, values: N, expect: [] },
    // The documented list has SIZE (DynamoDB Local lets it through; we follow the documentation).
    { kind: 'update', text: 'SET size = :s', values: S, expect: ['reserved-word@4-8'] },
    { kind: 'update', text: 'SET statuses = :s REMOVE date', values: S, expect: ['reserved-word@25-29'] },
    // After a syntax error, reserved words and placeholders are still judged from the tokens.
    { kind: 'update', text: 'SET status = = :s', values: S, expect: ['expression-syntax@13-14', 'reserved-word@4-10'] },
    // `_ttl` (Amplify-style `_version`, `_ttl`) is one unreadable name, not a bare reserved word `ttl`: a reserved-word
    // finding there would suggest a `#ttl` placeholder for the wrong attribute.
    { kind: 'update', text: 'SET _ttl = :n', values: N, expect: ['expression-syntax@4-5'] },
    { kind: 'condition', text: 'dateé = :n AND size > :n', values: N, expect: ['expression-syntax@4-5', 'reserved-word@15-19'] },
    // A reserved word written as an operator (SQL habits) is the syntax error, not a bare attribute name ...
    { kind: 'keyCondition', text: 'pk = :s AND sk LIKE :s', values: S, expect: ['expression-syntax@15-19'] },
    { kind: 'filter', text: 'a = :s WHERE b = :s', values: S, expect: ['expression-syntax@7-12'] },
    // ... but a reserved attribute name after a missing comma is still both.
    { kind: 'update', text: 'SET a = :s name = :s', values: S, expect: ['expression-syntax@11-15', 'reserved-word@11-15'] },
  ],
  functions: [
    { kind: 'update', text: 'SET a = foo(b)', expect: ['unknown-function@8-11'] },
    { kind: 'update', text: 'set a = LIST_APPEND(a, :l)', values: { ':l': 'L' }, expect: ['unknown-function@8-19'] },
    { kind: 'update', text: 'SET a = list_append(b)', expect: ['function-arity@8-22'] },
    { kind: 'condition', text: 'begins_with(a, :s, :s)', values: S, expect: ['function-arity@0-22'] },
    { kind: 'update', text: 'SET a = size(b)', expect: ['function-not-allowed@8-12'] },
    { kind: 'update', text: 'SET a = attribute_exists(b)', expect: ['function-not-allowed@8-24'] },
    { kind: 'condition', text: 'if_not_exists(a, :n) = :n', values: N, expect: ['function-not-allowed@0-13'] },
    { kind: 'condition', text: 'size(a)', expect: ['function-not-allowed@0-4'] },
    { kind: 'condition', text: 'a = attribute_exists(b)', expect: ['function-not-allowed@4-20'] },
    { kind: 'update', text: 'SET a = list_append(list_append(a, b), c)', expect: ['function-not-allowed@20-31'] },
    { kind: 'update', text: 'SET a = list_append(a, :l) + :n', values: { ':l': 'L', ...N }, expect: ['function-not-allowed@8-19'] },
    { kind: 'update', text: 'SET a = if_not_exists(a, list_append(b, c))', expect: ['function-not-allowed@25-36'] },
    { kind: 'update', text: 'SET a = list_append(if_not_exists(a, :l), :l)', values: { ':l': 'L' }, expect: [] },
    { kind: 'update', text: 'SET a = if_not_exists(a, :n) + :n, b = :n - if_not_exists(b, :n)', values: N, expect: [] },
    { kind: 'update', text: 'SET a = if_not_exists(:n, a)', values: N, expect: ['path-required@22-24'] },
    { kind: 'condition', text: 'attribute_exists(:s)', values: S, expect: ['path-required@17-19'] },
    { kind: 'update', text: 'SET a = if_not_exists((a), :n)', values: N, expect: [] },
    { kind: 'condition', text: 'attribute_type(a, :t)', values: { ':t': 'S:SS' }, expect: [] },
    { kind: 'condition', text: 'attribute_type(a, :t)', values: { ':t': 'S:ss' }, expect: ['invalid-attribute-type@18-20'] },
    { kind: 'condition', text: 'attribute_type(a, :t)', values: { ':t': 'N:1' }, expect: ['operand-type@18-20'] },
    { kind: 'condition', text: 'attribute_type(a, b)', expect: ['operand-type@18-19'] },
    { kind: 'condition', text: 'begins_with(a, :n)', values: N, expect: ['operand-type@15-17'] },
    { kind: 'condition', text: 'begins_with(a, size(b))', expect: ['operand-type@15-22'] },
    { kind: 'condition', text: 'contains(a, :b)', values: { ':b': 'BOOL' }, expect: [] },
    { kind: 'condition', text: 'size(size(a)) = :n', values: N, expect: ['operand-type@5-12'] },
    { kind: 'condition', text: 'size(:x) = :n', values: { ':x': 'NULL', ...N }, expect: ['operand-type@5-7'] },
    { kind: 'condition', text: 'size(:x) = :n', values: { ':x': 'SS:a', ...N }, expect: [] },
  ],
  'operand types': [
    { kind: 'update', text: 'SET a = :s + :n', values: { ...S, ...N }, expect: ['operand-type@8-10'] },
    { kind: 'update', text: 'SET a = if_not_exists(a, :s) + :n', values: { ...S, ...N }, expect: ['operand-type@8-28'] },
    { kind: 'update', text: 'SET a = list_append(:s, a)', values: S, expect: ['operand-type@20-22'] },
    { kind: 'condition', text: 'a < :b', values: { ':b': 'BOOL' }, expect: ['operand-type@4-6'] },
    { kind: 'condition', text: 'a >= :m', values: { ':m': 'M' }, expect: ['operand-type@5-7'] },
    { kind: 'condition', text: 'a = :m', values: { ':m': 'M' }, expect: [] },
    { kind: 'update', text: 'ADD a :v', values: { ':v': 'S:x' }, expect: ['add-operand-type@6-8'] },
    { kind: 'update', text: 'ADD a :v, b :w', values: { ':v': 'N:1', ':w': 'NS:1' }, expect: [] },
    { kind: 'update', text: 'ADD a :v', values: { ':v': 'BOOL' }, expect: ['add-operand-type@6-8'] },
    { kind: 'update', text: 'DELETE a :v', values: { ':v': 'N:1' }, expect: ['delete-operand-type@9-11'] },
    { kind: 'update', text: 'DELETE a :v', values: { ':v': 'SS:x' }, expect: [] },
    // The API reference allows ADD/DELETE on top-level attributes only (DynamoDB Local accepts nested ones).
    { kind: 'update', text: 'ADD a.b :v, c[0] :v', values: { ':v': 'N:1' }, expect: ['add-delete-nested-path@4-7', 'add-delete-nested-path@12-16'] },
    { kind: 'update', text: 'DELETE #a.#b :v', names: { '#a': 'a', '#b': 'b' }, values: { ':v': 'SS:x' }, expect: ['add-delete-nested-path@7-12'] },
  ],
  'update structure': [
    { kind: 'update', text: 'SET a = :s REMOVE b SET c = :s', values: S, expect: ['duplicate-clause@20-23'] },
    { kind: 'update', text: 'set a = :s add b :n SET c = :s', values: { ...S, ...N }, expect: ['duplicate-clause@20-23'] },
    { kind: 'update', text: 'SET a = :s, a.b = :s', values: S, expect: ['overlapping-paths@12-15'] },
    { kind: 'update', text: 'SET a.b = :s, a = :s', values: S, expect: ['overlapping-paths@14-15'] },
    { kind: 'update', text: 'SET a[1] = :s, a.b = :s', values: S, expect: ['overlapping-paths@15-18'] },
    { kind: 'update', text: 'SET a = :s REMOVE a', values: S, expect: ['overlapping-paths@18-19'] },
    { kind: 'update', text: 'SET #a = :s, a = :s', names: { '#a': 'a' }, values: S, expect: ['overlapping-paths@13-14'] },
    { kind: 'update', text: 'SET a.b = :s, a.c = :s, a[0] = :s', values: S, expect: ['overlapping-paths@24-28'] },
    { kind: 'update', text: 'SET a = :s, A = :s, b[0] = :s, b[1] = :s', values: S, expect: [] },
    { kind: 'update', text: 'SET PK = :s', values: S, keys: true, expect: ['update-key-attribute@4-6'] },
    { kind: 'update', text: 'REMOVE #k', names: { '#k': 'SK' }, keys: true, expect: ['update-key-attribute@7-9'] },
    { kind: 'update', text: 'SET a = PK.x', keys: true, expect: ['key-attribute-path@8-12'] },
    { kind: 'update', text: 'SET a = a, b = (c), d = (c + e)', expect: [] },
    { kind: 'update', text: 'SET a = ((b))', expect: ['redundant-parentheses@8-13'] },
  ],
  conditions: [
    { kind: 'condition', text: 'a = a', expect: ['identical-operands@4-5'] },
    { kind: 'condition', text: '#n = a', names: { '#n': 'a' }, expect: ['identical-operands@5-6'] },
    { kind: 'condition', text: 'a.b[1] <> a.b[1]', expect: ['identical-operands@10-16'] },
    { kind: 'condition', text: 'a IN (b, a)', expect: ['identical-operands@9-10'] },
    { kind: 'condition', text: 'begins_with(a, a) OR contains(b, b)', expect: ['identical-operands@15-16', 'identical-operands@33-34'] },
    { kind: 'condition', text: 'a BETWEEN a AND b', expect: ['identical-operands@10-11'] },
    { kind: 'condition', text: ':s = :s AND size(a) = size(a) AND a = b.a', values: S, expect: [] },
    { kind: 'condition', text: '((a = :s))', values: S, expect: ['redundant-parentheses@0-10'] },
    { kind: 'condition', text: 'NOT ((a = :s)) AND (b = :s)', values: S, expect: ['redundant-parentheses@4-14'] },
    { kind: 'condition', text: '((a = :s) AND b = :s) OR (c = :s)', values: S, expect: [] },
    { kind: 'condition', text: 'a = ((:s))', values: S, expect: ['redundant-parentheses@4-10'] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'N:10', ':l': 'N:9' }, expect: ['between-bounds@0-19'] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'N:1e1', ':l': 'N:9' }, expect: ['between-bounds@0-19'] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'N:1.0', ':l': 'N:1' }, expect: [] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'N:-5', ':l': 'N:-10' }, expect: ['between-bounds@0-19'] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'S:B', ':l': 'S:a' }, expect: [] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'S:é', ':l': 'S:z' }, expect: ['between-bounds@0-19'] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'N:1', ':l': 'S:x' }, expect: ['between-bounds@0-19'] },
    { kind: 'condition', text: 'a BETWEEN :h AND :l', values: { ':h': 'BOOL', ':l': 'BOOL' }, expect: ['operand-type@10-12', 'operand-type@17-19'] },
    { kind: 'filter', text: 'a = :s OR b = :s AND NOT c = :s', values: S, expect: [] },
    // Query (the filter cases run as a Query): no key attribute in the FilterExpression.
    { kind: 'filter', text: 'a = :s AND begins_with(#sk, :s)', names: { '#sk': 'SK' }, values: S, keys: true, expect: ['filter-key-attribute@23-26'] },
  ],
  'key conditions': [
    { kind: 'keyCondition', text: 'PK = :s', values: S, keys: true, expect: [] },
    { kind: 'keyCondition', text: ':s = PK AND begins_with(SK, :s)', values: S, keys: true, expect: [] },
    { kind: 'keyCondition', text: '(PK = :s AND SK BETWEEN :s AND :t)', values: { ...S, ':t': 'S:y' }, keys: true, expect: [] },
    { kind: 'keyCondition', text: 'PK = :s OR SK = :s', values: S, keys: true, expect: ['key-condition-invalid@8-10'] },
    { kind: 'keyCondition', text: 'PK = :s AND SK <> :s', values: S, keys: true, expect: ['key-condition-invalid@15-17'] },
    { kind: 'keyCondition', text: 'NOT PK = :s', values: S, keys: true, expect: ['key-condition-invalid@0-3'] },
    { kind: 'keyCondition', text: 'PK = :s AND SK IN (:s)', values: S, keys: true, expect: ['key-condition-invalid@12-22'] },
    { kind: 'keyCondition', text: 'PK = :s AND begins_with(:s, SK)', values: S, keys: true, expect: ['key-condition-invalid@12-31'] },
    { kind: 'keyCondition', text: 'PK = :s AND size(SK) = :n', values: { ...S, ...N }, keys: true, expect: ['key-condition-invalid@12-25'] },
    { kind: 'keyCondition', text: 'PK = :s AND contains(SK, :s)', values: S, keys: true, expect: ['key-condition-invalid@12-20'] },
    { kind: 'keyCondition', text: 'PK < :s', values: S, keys: true, expect: ['key-condition-invalid@0-7'] },
    { kind: 'keyCondition', text: 'PK < :s', values: S, expect: ['key-condition-invalid@0-7'] },
    { kind: 'keyCondition', text: 'a < :s AND b > :s', values: S, expect: ['key-condition-invalid@0-6'] },
    { kind: 'keyCondition', text: 'a = :s AND b > :s', values: S, expect: [] },
    { kind: 'keyCondition', text: 'PK = :s AND SK = :s AND SK = :s', values: S, keys: true, expect: ['key-condition-invalid@24-31'] },
    { kind: 'keyCondition', text: 'SK = :s', values: S, keys: true, expect: ['key-condition-invalid@0-7'] },
    { kind: 'keyCondition', text: 'PK = :s AND x = :s', values: S, keys: true, expect: ['key-condition-invalid@12-18'] },
    { kind: 'keyCondition', text: 'PK = SK', keys: true, expect: ['key-condition-invalid@0-7'] },
    { kind: 'keyCondition', text: 'PK = PK', keys: true, expect: ['identical-operands@5-7'] },
    { kind: 'keyCondition', text: 'PK.x = :s', values: S, keys: true, expect: ['key-condition-invalid@0-4'] },
    { kind: 'keyCondition', text: '#pk = :s', names: { '#pk': 'PK' }, values: S, keys: true, expect: [] },
    { kind: 'keyCondition', text: 'PK = :s AND begins_with(SK, :n)', values: { ...S, ...N }, keys: true, expect: ['operand-type@28-30'] },
  ],
  projection: [
    { kind: 'projection', text: 'a.b, c[1], #n', names: { '#n': 'x' }, expect: [] },
    { kind: 'projection', text: 'a, a.b', expect: ['overlapping-paths@3-6'] },
    { kind: 'projection', text: 'a, a', expect: ['overlapping-paths@3-4'] },
    { kind: 'projection', text: 'a[1], a[2], a[1].b', expect: ['overlapping-paths@12-18'] },
    { kind: 'projection', text: 'SK.b, a', keys: true, expect: ['key-attribute-path@0-4'] },
  ],
};

describe('expression validator: data-driven cases', () => {
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      for (const c of cases) {
        const label = `${c.kind}: ${c.text.length > 70 ? `${c.text.slice(0, 67)}...` : c.text} -> ${c.expect.join(', ') || 'valid'}`;
        it(label, () => {
          assert.deepEqual(fmtAll(validateRequest(request(c))), [...c.expect].sort());
        });
      }
    });
  }

  it('every id in EXPRESSION_FINDINGS is exercised by a case here and is unique', () => {
    const ids = EXPRESSION_FINDINGS.map((f) => f.id);
    assert.equal(new Set(ids).size, ids.length);
    const seen = new Set(Object.values(CASES).flat().flatMap((c) => c.expect.map((e) => e.split('@')[0])));
    seen.add('map-without-expression').add('filter-key-attribute');
    // Request-level findings (issue 14) are exercised in request-shape.test.ts.
    for (const id of ['invalid-attribute-value', 'value-too-deep', 'item-too-large', 'legacy-with-expression', 'invalid-select']) seen.add(id);
    assert.deepEqual(ids.filter((id) => !seen.has(id)), []);
    for (const id of seen) assert.ok(ids.includes(id), `${id} missing from EXPRESSION_FINDINGS`);
  });
});

describe('expression validator: request-level behaviour', () => {
  it('judges names and values across all expressions of one request', () => {
    const f = validateRequest({
      operation: 'UpdateItem',
      expressions: { UpdateExpression: 'SET #c = #c + :inc', ConditionExpression: 'attribute_exists(#pk) AND #c < :max' },
      names: { map: { '#c': 'count', '#pk': 'PK', '#x': 'x' }, complete: true },
      values: { map: vals({ ':inc': 'N:1', ':max': 'N:10', ':zero': 'N:0' }), complete: true },
    });
    assert.deepEqual(fmtAll(f), ['unused-name@ExpressionAttributeNames:#x', 'unused-value@ExpressionAttributeValues::zero']);
    const unused = f.find((x) => x.id === 'unused-value');
    assert.equal(unused?.message, ':zero is defined but no expression uses it: remove it. DynamoDB: "Value provided in ExpressionAttributeValues unused in expressions: keys: {:zero}"');
    assert.deepEqual(unused?.data, { placeholder: ':zero' });
  });

  it('stays silent about absence when a map is incomplete, and about unused entries when an expression is unknown', () => {
    const f = validateRequest({
      operation: 'UpdateItem',
      expressions: { UpdateExpression: 'SET #a = :v' },
      unknownExpressions: ['ConditionExpression'],
      names: { map: {}, complete: false },
      values: { map: vals({ ':w': 'N:1' }), complete: false },
    });
    assert.deepEqual(fmtAll(f), []);
  });

  it('reports undefined placeholders in the field they appear in', () => {
    const f = validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: 'SET a = :v', ConditionExpression: '#b = :v' } });
    assert.deepEqual(
      f.map((x) => [x.id, x.location]),
      [
        ['undefined-name', { field: 'ConditionExpression', start: 0, end: 2 }],
        ['undefined-value', { field: 'UpdateExpression', start: 8, end: 10 }],
        ['undefined-value', { field: 'ConditionExpression', start: 5, end: 7 }],
      ],
    );
    assert.equal(f[1].message, ':v is not defined in ExpressionAttributeValues. DynamoDB: "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v"');
  });

  it('flags maps given without any expression, and ignores values on GetItem (no such parameter)', () => {
    assert.deepEqual(fmtAll(validateRequest({ operation: 'PutItem', expressions: {}, names: { map: { '#a': 'a' }, complete: true } })), ['map-without-expression@ExpressionAttributeNames']);
    assert.deepEqual(fmtAll(validateRequest({ operation: 'GetItem', expressions: { ProjectionExpression: 'a' }, values: { map: vals({ ':x': 'S:x' }), complete: true } })), []);
  });

  it('rejects a Query filter on the key condition attributes', () => {
    const f = validateRequest({
      operation: 'Query',
      expressions: { KeyConditionExpression: 'PK = :p AND SK > :s', FilterExpression: 'SK < :s AND a = :p' },
      values: { map: vals({ ':p': 'S:p', ':s': 'S:s' }), complete: true },
    });
    assert.deepEqual(fmtAll(f), ['filter-key-attribute@0-2']);
    assert.equal(f[0].location.field, 'FilterExpression');
  });

  it('orders binary BETWEEN bounds by unsigned bytes when the bytes are known', () => {
    const req = (lo: number[], hi: number[]): ExpressionRequest => ({
      operation: 'Scan',
      expressions: { FilterExpression: 'a BETWEEN :lo AND :hi' },
      values: { map: { ':lo': { type: 'B', bytes: Uint8Array.from(lo) }, ':hi': { type: 'B', bytes: Uint8Array.from(hi) } }, complete: true },
    });
    assert.deepEqual(fmtAll(validateRequest(req([2], [1]))), ['between-bounds@0-21']);
    assert.deepEqual(fmtAll(validateRequest(req([1], [255]))), []);
    assert.deepEqual(fmtAll(validateRequest(req([1, 0], [1]))), ['between-bounds@0-21']);
  });

  it('checks the literal attributes of a Put Item (empty sets, repeated set elements, numbers), located at the attribute', () => {
    const f = validateRequest({ operation: 'PutItem', expressions: {}, item: vals({ a: 'NS:7,7.0', b: 'SS:', c: 'N:1e200', d: 'SS:x,y' }) });
    assert.deepEqual(fmtAll(f), ['duplicate-set-elements@Item:a', 'empty-set@Item:b', 'invalid-number@Item:c']);
    assert.deepEqual(f[0].data, { attribute: 'a', element: '7.0' });
    assert.equal(f[0].message, 'Item attribute a holds a number set that repeats 7.0: set elements must be distinct (numbers compare by value: 1, 1.0 and 1e0 are one number). DynamoDB: "Input collection contains duplicates"');
    const [bs] = validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: 'ADD s :b' }, values: { map: { ':b': { type: 'BS', items: [1, 2, 1].map((x) => ({ type: 'B' as const, bytes: Uint8Array.of(x) })) } }, complete: true } });
    assert.equal(bs.message, ':b holds a binary set that repeats 0x01: set elements must be distinct. DynamoDB: "ExpressionAttributeValues contains invalid value: Input collection contains duplicates for key :b"');
  });

  it('carries what a fix needs in data', () => {
    const [r] = validateExpression('update', 'SET info.status = :s', { values: vals(S) });
    assert.equal(r.id, 'reserved-word');
    assert.deepEqual(r.data, { word: 'status', path: 'info.status' });
    assert.equal(r.message, '"status" is a DynamoDB reserved word: use an expression attribute name (#status) instead. DynamoDB: "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status"');
    const [o] = validateExpression('update', 'SET a[1] = :s, a.b = :s', { values: vals(S) });
    assert.deepEqual(o.data, { kind: 'conflict', path: '[a, b]', other: '[a, [1]]', otherStart: 4, otherEnd: 8 });
    assert.match(o.message, /Two document paths conflict with each other; must remove or rewrite one of these paths; path one: \[a, \[1\]\], path two: \[a, b\]/);
    const [u] = validateExpression('update', 'set a = LIST_APPEND(a, :l)');
    assert.deepEqual(u.data, { function: 'LIST_APPEND', suggestion: 'list_append' });
  });

  it('validateExpression without maps judges only the expression', () => {
    assert.deepEqual(fmtAll(validateExpression('update', 'SET #a = :v, b = :w')), []);
    assert.deepEqual(fmtAll(validateExpression('condition', 'a = :v', { values: {} })), ['empty-attribute-map@ExpressionAttributeValues', 'undefined-value@4-6']);
    assert.deepEqual(fmtAll(validateExpression('condition', 'a = :v', { values: vals({ ':w': 'S:x' }) })), ['undefined-value@4-6', 'unused-value@ExpressionAttributeValues::w']);
  });
});

describe('expression validator: values longer than a call takes arguments', () => {
  it('a list value of 150,000 numbers is looked through, without a RangeError', () => {
    // stack.push(...items) over 150,000 items overflows V8's stack (the validator then reported only that).
    const items = Array.from({ length: 150_000 }, (_, i) => ({ type: 'N' as const, text: String(i) }));
    items.push({ type: 'N', text: '123456789012345678901234567890123456789' });
    const values = { map: { ':v': { type: 'L' as const, items } }, complete: true };
    assert.deepEqual(fmtAll(validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: 'SET a = :v' }, values })), ['number-precision@ExpressionAttributeValues::v']);
  });
});
