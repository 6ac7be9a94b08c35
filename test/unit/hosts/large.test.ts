/**
 * Go and Java hosts over very long lists: more than ~120,000 elements spread into a call's arguments (`push(...xs)`,
 * `Math.min(...xs)`) throw a RangeError; these shapes are read with loops.
 */
import { strict as assert } from 'node:assert';
import { ensureParser, extract, prop, type RequestSite, type VNode } from '../../../server/src/extract';
import { decodeJavaTextBlock } from '../../../server/src/extract/host-strings';
import { maxRef } from '../../../server/src/extract/remap';

const N = 150_000;
const BIG = { maxFileSize: 64 * 1024 * 1024 };
const GO_HEAD = `package x\n\nimport (\n\t"context"\n\n\t"github.com/aws/aws-sdk-go-v2/aws"\n\t"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb"\n\t"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"\n)\n\n`;

describe('Go/Java hosts: lists of 150,000 elements', () => {
  before(() => Promise.all([ensureParser('go'), ensureParser('java')]));

  it('Java: a text block of 150,000 lines', () => {
    // Between the delimiters: the rest of the opening line, the lines, the closing line's indentation.
    const raw = `\n${'    a\n'.repeat(N)}    `;
    const s = decodeJavaTextBlock(raw, 0, { start: 0, end: raw.length });
    assert.equal(s?.value, 'a\n'.repeat(N));
  });

  it('maxRef: a site holding a list of 150,000 items', () => {
    const items: VNode[] = Array.from({ length: N }, (_, i) => ({ kind: 'number', text: '1', range: { start: i, end: i + 1 } }));
    const params = { kind: 'object', properties: [{ key: 'L', keyRange: { start: 0, end: 1 }, value: { kind: 'array', items, complete: true, range: { start: 0, end: 1 } }, range: { start: 0, end: 1 } }], complete: true, range: { start: 0, end: 1 } };
    const site = { api: 'PutItem', range: { start: 0, end: 1 }, nameRange: { start: 0, end: 1 }, params } as unknown as RequestSite;
    // Walked without recursion; every offset counts (the last number item ends at N: bf6ca18, review 1 D2).
    assert.equal(maxRef([site]), N);
  });

  it('Go: a condition IN of 80,000 expression values (160,000 pieces)', () => {
    // One a line: a long line reads as minified code.
    const values = Array.from({ length: 80_000 }, (_, i) => `\t\texpression.Value(${i}),`).join('\n');
    const text = `${GO_HEAD}func f(ctx context.Context, c *dynamodb.Client) error {\n\texpr, _ := expression.NewBuilder().WithCondition(expression.Name("a").In(\n${values}\n\t)).Build()\n\t_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("T"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}}, ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})\n\treturn err\n}\n`;
    const sites = extract(text, 'go', BIG).sites;
    const cond = prop(sites[0].params, 'ConditionExpression');
    assert.ok(cond?.kind === 'string' && cond.value.startsWith('#0 IN (:0, :1, '), cond?.kind);
  });

  it('Go: a var block of 150,000 specs', () => {
    const specs = Array.from({ length: N }, (_, i) => `\tv${i} = ${i}`).join('\n');
    const text = `${GO_HEAD}var (\n${specs}\n)\n\nfunc f(ctx context.Context, c *dynamodb.Client) error {\n\titem := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}}\n\t_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("T"), Item: item})\n\treturn err\n}\n`;
    const sites = extract(text, 'go', BIG).sites;
    assert.equal(sites.length, 1);
  });

});
