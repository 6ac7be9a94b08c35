/**
 * Issue 14: request-level rejections the validator models besides the expressions themselves — legacy parameters next
 * to expressions, Select, malformed low-level attribute values, SET arithmetic on two literal numbers, values nested past
 * 32 levels, Items over 400 KB — at the validator, and through source (what buildRequest passes, and what it keeps
 * silent about: variables, spreads, partial maps).
 */
import { strict as assert } from 'node:assert';
import { containerDepth, exactSum, validateRequest, type ExpressionRequest, type ValueInfo } from '../../../server/src/expression';
import { PRELUDE, lint, parsersReady, slice } from '../rules/check';
import { fmtAll, vals } from './helpers';

const NEW = ['legacy-with-expression', 'invalid-select', 'invalid-attribute-value', 'value-too-deep', 'item-too-large', 'number-precision', 'invalid-number'];

function run(req: Partial<ExpressionRequest> & Pick<ExpressionRequest, 'operation'>): string[] {
  return fmtAll(validateRequest({ expressions: {}, complete: true, ...req }));
}

const lists = (n: number): ValueInfo => (n === 0 ? { type: 'S', text: 'x' } : { type: 'L', items: [lists(n - 1)] });

describe('validator: request-level rejections (issue 14)', () => {
  describe('legacy parameters next to expressions', () => {
    it('reports every legacy parameter of a request with an expression, quoting both lists', () => {
      const f = validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: 'SET a = :v', ConditionExpression: 'attribute_exists(b)' }, values: { map: vals({ ':v': 'S:x' }), complete: true }, legacy: ['Expected', 'AttributeUpdates'] });
      assert.deepEqual(fmtAll(f), ['legacy-with-expression@AttributeUpdates', 'legacy-with-expression@Expected']);
      assert.match(f[0].message, /Non-expression parameters: \{Expected, AttributeUpdates\} Expression parameters: \{UpdateExpression, ConditionExpression\}/);
      assert.equal(f[0].severity, 'error');
    });
    it('is silent about legacy parameters alone, and about expressions alone', () => {
      assert.deepEqual(run({ operation: 'Query', legacy: ['KeyConditions', 'QueryFilter'] }), []);
      assert.deepEqual(run({ operation: 'Scan', expressions: { ProjectionExpression: 'a' } }), []);
    });
    it('an unknown expression (a variable) is not counted as present', () => {
      assert.deepEqual(run({ operation: 'Scan', legacy: ['ScanFilter'], unknownExpressions: ['FilterExpression'] }), []);
    });
  });

  describe('Select', () => {
    const cases: [string, Partial<ExpressionRequest>, string[]][] = [
      ['ALL_ATTRIBUTES + projection', { select: 'ALL_ATTRIBUTES', expressions: { ProjectionExpression: 'a' } }, ['invalid-select@Select']],
      ['COUNT + projection', { select: 'COUNT', expressions: { ProjectionExpression: 'a' } }, ['invalid-select@Select']],
      ['ALL_PROJECTED_ATTRIBUTES + projection', { select: 'ALL_PROJECTED_ATTRIBUTES', indexName: true, expressions: { ProjectionExpression: 'a' } }, ['invalid-select@Select']],
      ['COUNT + AttributesToGet', { select: 'COUNT', legacy: ['AttributesToGet'] }, ['invalid-select@Select']],
      ['ALL_PROJECTED_ATTRIBUTES without IndexName', { select: 'ALL_PROJECTED_ATTRIBUTES', indexName: false }, ['invalid-select@Select']],
      ['ALL_PROJECTED_ATTRIBUTES, IndexName unknown', { select: 'ALL_PROJECTED_ATTRIBUTES' }, []],
      ['ALL_PROJECTED_ATTRIBUTES with IndexName', { select: 'ALL_PROJECTED_ATTRIBUTES', indexName: true }, []],
      ['SPECIFIC_ATTRIBUTES without projection', { select: 'SPECIFIC_ATTRIBUTES' }, ['invalid-select@Select']],
      ['SPECIFIC_ATTRIBUTES, projection a variable', { select: 'SPECIFIC_ATTRIBUTES', unknownExpressions: ['ProjectionExpression'] }, []],
      ['SPECIFIC_ATTRIBUTES, request with a spread', { select: 'SPECIFIC_ATTRIBUTES', complete: false }, []],
      ['SPECIFIC_ATTRIBUTES + projection', { select: 'SPECIFIC_ATTRIBUTES', expressions: { ProjectionExpression: 'a' } }, []],
      ['SPECIFIC_ATTRIBUTES + AttributesToGet', { select: 'SPECIFIC_ATTRIBUTES', legacy: ['AttributesToGet'] }, []],
      ['an unknown value', { select: 'ALL' }, ['invalid-select@Select']],
      ['lower case', { select: 'count' }, ['invalid-select@Select']],
      ['COUNT alone', { select: 'COUNT' }, []],
    ];
    for (const [name, req, want] of cases) it(name, () => assert.deepEqual(run({ operation: 'Scan', ...req }), want));
    it('suggests the upper-case value', () => {
      assert.match(validateRequest({ operation: 'Query', expressions: {}, select: 'count' })[0].message, /case-sensitive: COUNT/);
    });
    it('GetItem has no Select: not judged', () => assert.deepEqual(run({ operation: 'GetItem', select: 'COUNT', expressions: { ProjectionExpression: 'a' } }), []));
  });

  describe('malformed attribute values', () => {
    it('reports them in Item, Key and ExpressionAttributeValues, nested too, once per value', () => {
      const bad = (malformed: ValueInfo['malformed']): ValueInfo => ({ type: 'unknown', malformed });
      assert.deepEqual(
        run({
          operation: 'PutItem',
          expressions: { ConditionExpression: 'a <> :v' },
          values: { map: { ':v': { type: 'L', items: [bad('empty'), bad('multiple')] } }, complete: true },
          item: { a: bad('multiple'), b: { type: 'M', items: [{ type: 'NULL', malformed: 'null-false' }] }, c: { type: 'S', text: 'ok' } },
          key: { PK: bad('empty'), SK: { type: 'S', text: 'x' } },
        }),
        ['invalid-attribute-value@ExpressionAttributeValues::v', 'invalid-attribute-value@Item:a', 'invalid-attribute-value@Item:b', 'invalid-attribute-value@Key:PK'],
      );
    });
    it("quotes DynamoDB's message for each kind", () => {
      const msg = (malformed: ValueInfo['malformed']) => validateRequest({ operation: 'PutItem', expressions: {}, item: { a: { type: 'unknown', malformed } } })[0].message;
      assert.match(msg('empty'), /Supplied AttributeValue is empty, must contain exactly one of the supported datatypes/);
      assert.match(msg('multiple'), /Supplied AttributeValue has more than one datatypes set/);
      assert.match(msg('null-false'), /Null attribute value types must have the value of true/);
    });
  });

  describe('SET arithmetic on two literal numbers', () => {
    const set = (a: string, b: string, op = '+', cond?: string) =>
      validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: `SET a = :x ${op} :y`, ...(cond ? { ConditionExpression: cond } : {}) }, values: { map: vals({ ':x': `N:${a}`, ':y': `N:${b}` }), complete: true } });
    const N38 = '9'.repeat(38);
    it('past 38 significant digits: an Error on the arithmetic', () => {
      const f = set(N38, N38);
      assert.deepEqual(fmtAll(f), ['number-precision@8-15']);
      assert.equal(f[0].severity, 'error');
      assert.match(f[0].message, /DynamoDB only supports precision up to 38 digits/);
    });
    it('exactly: 0.1 + 1e-38 has 38 digits, 1e100 + 1e-100 has 201', () => {
      assert.deepEqual(fmtAll(set('0.1', '1e-38')), []);
      assert.deepEqual(fmtAll(set('1e100', '1e-100')), ['number-precision@8-15']);
      assert.deepEqual(fmtAll(set(N38, N38, '-')), []);
    });
    it('out of range: overflow and underflow', () => {
      assert.match(set('9e125', '9e125')[0].message, /Number overflow/);
      assert.match(set('2e-130', '1.5e-130', '-')[0].message, /Number underflow/);
    });
    it('a Warning next to a ConditionExpression (a failing condition answers first)', () => {
      const f = set(N38, N38, '+', 'attribute_exists(b)');
      assert.deepEqual(f.map((x) => [x.id, x.severity]), [['number-precision', 'warning']]);
    });
    it('silent when an operand is a path, a function or not a known number', () => {
      const req = (u: string, values: Record<string, string>) => fmtAll(validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: u }, values: { map: vals(values), complete: true } }));
      assert.deepEqual(req('SET a = b + :y', { ':y': `N:${N38}` }), []);
      assert.deepEqual(req('SET a = if_not_exists(a, :x) + :y', { ':x': `N:${N38}`, ':y': `N:${N38}` }), []);
      assert.deepEqual(req('SET a = :x + :y', { ':x': 'N', ':y': `N:${N38}` }), []);
    });
    it('exactSum is exact', () => {
      assert.equal(exactSum('0.1', '0.2', '+'), '3e-1');
      assert.equal(exactSum('1e3', '1', '-'), '999e0');
      assert.equal(exactSum('x', '1', '+'), undefined);
    });
  });

  describe('values nested past 32 levels', () => {
    it('counts lists and maps, not sets or scalars', () => {
      assert.equal(containerDepth(lists(3)), 3);
      assert.equal(containerDepth({ type: 'M', items: [{ type: 'NS', items: [{ type: 'N', text: '1' }] }] }), 1);
      assert.equal(containerDepth({ type: 'L' }), 1);
    });
    it('Item attributes: 31 nested lists/maps stored, 32 rejected', () => {
      assert.deepEqual(run({ operation: 'PutItem', item: { a: lists(31) } }), []);
      assert.deepEqual(run({ operation: 'PutItem', item: { a: lists(32) } }), ['value-too-deep@Item:a']);
    });
    it('ExpressionAttributeValues: 33 rejected anywhere; 32 only when SET stores it at the top level', () => {
      const req = (expressions: ExpressionRequest['expressions'], n: number) => run({ operation: 'UpdateItem', expressions, values: { map: { ':v': lists(n), ':s': { type: 'S', text: 'x' } }, complete: true } });
      assert.deepEqual(req({ UpdateExpression: 'SET a = :v, b = :s' }, 33), ['value-too-deep@ExpressionAttributeValues::v']);
      assert.deepEqual(req({ UpdateExpression: 'SET a = :v, b = :s' }, 32), ['value-too-deep@8-10']);
      assert.deepEqual(req({ UpdateExpression: 'SET a = :v, b = :s' }, 31), []);
      assert.deepEqual(req({ UpdateExpression: 'SET b = :s', ConditionExpression: 'a <> :v' }, 32), []);
      assert.deepEqual(req({ UpdateExpression: 'SET a = if_not_exists(a, :v), b = :s' }, 32), []);
      const warn = validateRequest({ operation: 'UpdateItem', expressions: { UpdateExpression: 'SET a = :v', ConditionExpression: 'attribute_exists(b)' }, values: { map: { ':v': lists(32) }, complete: true } });
      assert.deepEqual(warn.map((f) => [f.id, f.severity]), [['value-too-deep', 'warning']]);
    });
  });

  describe('Items over 400 KB', () => {
    it('409,600 bytes stored, 409,601 rejected (PutItem only)', () => {
      assert.deepEqual(run({ operation: 'PutItem', itemBytes: 409_600 }), []);
      assert.deepEqual(run({ operation: 'PutItem', itemBytes: 409_601 }), ['item-too-large@Item']);
      assert.deepEqual(run({ operation: 'UpdateItem', itemBytes: 409_601 }), []);
    });
  });
});

describe('request-level rejections through source (buildRequest)', function () {
  this.timeout(20_000);
  before(() => parsersReady());
  const found = (body: string, dialect: 'ts-v3' | 'ts-doc' | 'json' = 'ts-v3') => {
    const text = dialect === 'json' ? body : PRELUDE[dialect] + body;
    return lint(text, dialect === 'json' ? 'json' : 'typescript')
      .filter((f) => NEW.includes(f.ruleId))
      .map((f) => `${f.ruleId}@${slice(text, f)}:${f.severity}`);
  };

  it('legacy parameters next to an expression, pointing at each legacy parameter', () => {
    assert.deepEqual(found(`await client.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'a' } }, QueryFilter: { a: { ComparisonOperator: 'NULL' } } }));\n`), ['legacy-with-expression@QueryFilter:error']);
  });
  it('a legacy parameter given by a variable (maybe undefined) is not judged', () => {
    assert.deepEqual(found(`declare const qf: any;\nawait client.send(new QueryCommand({ TableName: 'T', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'a' } }, QueryFilter: qf }));\n`), []);
  });
  it('Select against the projection, the index and the request’s completeness', () => {
    assert.deepEqual(found(`await client.send(new ScanCommand({ TableName: 'T', Select: 'COUNT', ProjectionExpression: 'a' }));\n`), ['invalid-select@Select:error']);
    assert.deepEqual(found(`await client.send(new ScanCommand({ TableName: 'T', Select: 'SPECIFIC_ATTRIBUTES' }));\n`), ['invalid-select@Select:error']);
    assert.deepEqual(found(`declare const base: any;\nawait client.send(new ScanCommand({ ...base, TableName: 'T', Select: 'SPECIFIC_ATTRIBUTES' }));\n`), []);
    assert.deepEqual(found(`await client.send(new QueryCommand({ TableName: 'T', Select: 'ALL_PROJECTED_ATTRIBUTES', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'a' } } }));\n`), ['invalid-select@Select:error']);
    assert.deepEqual(found(`declare const idx: string | undefined;\nawait client.send(new QueryCommand({ TableName: 'T', IndexName: idx, Select: 'ALL_PROJECTED_ATTRIBUTES', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': { S: 'a' } } }));\n`), []);
  });
  it('malformed low-level values in Item, Key and ExpressionAttributeValues; variables silent', () => {
    assert.deepEqual(
      found(`await client.send(new PutItemCommand({ TableName: 'T', Item: { PK: { S: 'a' }, a: {}, b: { S: 'x', N: '1' }, c: { NULL: false }, d: { L: [{}] } } }));\n`),
      ['invalid-attribute-value@a:error', 'invalid-attribute-value@b:error', 'invalid-attribute-value@c:error', 'invalid-attribute-value@d:error'],
    );
    assert.deepEqual(found(`await client.send(new DeleteItemCommand({ TableName: 'T', Key: { PK: { X: 'a' } } }));\n`), ['invalid-attribute-value@PK:error']);
    assert.deepEqual(found(`declare const s: string, v: any;\nawait client.send(new PutItemCommand({ TableName: 'T', Item: { PK: { S: 'a' }, a: { S: s, N: v }, b: { ...v }, c: v, d: { NULL: true } } }));\n`), []);
  });
  it('document-style values are plain JSON: never malformed', () => {
    assert.deepEqual(found(`await doc.send(new PutCommand({ TableName: 'T', Item: { PK: 'a', a: {}, b: { S: 'x', N: '1' } } }));\n`, 'ts-doc'), []);
  });
  it('SET arithmetic on two literal numbers past 38 digits', () => {
    assert.deepEqual(found(`await client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'a' } }, UpdateExpression: 'SET a = :x + :y', ExpressionAttributeValues: { ':x': { N: '${'9'.repeat(38)}' }, ':y': { N: '${'9'.repeat(38)}' } } }));\n`), ['number-precision@:x + :y:error']);
  });
  it('a literal Item over 400 KB (JSON)', () => {
    const json = JSON.stringify({ TableName: 'T', Item: { PK: { S: 'a' }, a: { S: 'x'.repeat(409_600) } } });
    assert.deepEqual(found(json, 'json'), ['item-too-large@"Item":error']);
  });
});
