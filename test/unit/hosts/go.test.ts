/**
 * The Go host (server/src/extract/go.ts): aws-sdk-go-v2 and v1 request literals onto the value model, exact ranges
 * through escapes and raw strings, constants, slices built with append, later mutations; the mission rules fire as in
 * TS with fixes written in Go that tree-sitter-go parses.
 */
import { strict as assert } from 'node:assert';
import { ensureParser, extract, prop } from '../../../server/src/extract';
import type { StringNode } from '../../../server/src/extract/model';
import { stringRange } from '../../../server/src/extract/model';
import { parsesClean } from './support';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';

const HEAD = `package likes

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)
`;

const lint = (text: string) => {
  const sites = extract(text, 'go').sites;
  return { sites, findings: runRules(text, 'go', sites) };
};

describe('go host', () => {
  before(() => ensureParser('go'));

  it('reads a v2 UpdateItemInput with constants, raw strings and escapes at exact ranges', () => {
    const text = `${HEAD}
const (
	table = "Social"
	upd   = \`SET #n = :n\`
)

func f(ctx context.Context, c *dynamodb.Client) {
	c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String(table),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a\\tb"}},
		UpdateExpression: aws.String(upd + ", c = \\u0063"),
		ExpressionAttributeNames: map[string]string{"#n": "name"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: "1"}},
	})
}
`;
    const [s] = extract(text, 'go').sites;
    assert.equal(s.api, 'UpdateItem');
    assert.equal(s.style, 'low-level');
    assert.equal(s.sdk, 'aws-sdk-go-v2');
    assert.equal(s.enclosingFunction?.name, 'f');
    assert.equal((prop(s.params, 'TableName') as StringNode).value, 'Social');
    const u = prop(s.params, 'UpdateExpression') as StringNode;
    assert.equal(u.value, 'SET #n = :n, c = c');
    const r = stringRange(u, 0, 3);
    assert.equal(text.slice(r.start, r.end), 'SET');
    const esc = stringRange(u, u.value.length - 1, u.value.length);
    assert.equal(text.slice(esc.start, esc.end), '\\u0063');
    const key = prop(prop(s.params, 'Key'), 'PK');
    assert.equal(key?.kind, 'object');
    const v = prop(prop(prop(s.params, 'ExpressionAttributeValues'), ':n'), 'N') as StringNode;
    assert.equal(v.value, '1');
    const typeKey = (prop(prop(s.params, 'ExpressionAttributeValues'), ':n') as { properties: { keyRange: { start: number; end: number } }[] }).properties[0].keyRange;
    assert.equal(text.slice(typeKey.start, typeKey.end), 'N');
  });

  it('reads v1 attribute values ({N: aws.String("1")}) and raw strings without carriage returns', () => {
    const text = 'package x\n\nimport "github.com/aws/aws-sdk-go/aws"\nimport "github.com/aws/aws-sdk-go/service/dynamodb"\n\nfunc f() {\n\tin := &dynamodb.UpdateItemInput{\n\t\tTableName: aws.String("T"),\n\t\tKey: map[string]*dynamodb.AttributeValue{"id": {S: aws.String("a")}},\n\t\tUpdateExpression: aws.String(`ADD\r\n c :one`),\n\t\tExpressionAttributeValues: map[string]*dynamodb.AttributeValue{":one": {N: aws.String("1")}},\n\t}\n\t_ = in\n}\n';
    const [s] = extract(text, 'go').sites;
    assert.equal(s.sdk, 'aws-sdk-go');
    const u = prop(s.params, 'UpdateExpression') as StringNode;
    assert.equal(u.value, 'ADD\n c :one');
    const r = stringRange(u, 3, 5);
    assert.equal(text.slice(r.start, r.end), '\n '); // the \r produced nothing
    assert.equal((prop(prop(prop(s.params, 'ExpressionAttributeValues'), ':one'), 'N') as StringNode).value, '1');
  });

  it('mission rules fire with Go fixes that parse: unguarded ADD in a transaction, ADD on a string, SET without if_not_exists', () => {
    const text = `${HEAD}
func like(ctx context.Context, c *dynamodb.Client, post, user string) error {
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{
				TableName: aws.String("Social"),
				Item: map[string]types.AttributeValue{
					"PK": &types.AttributeValueMemberS{Value: "POST#" + post},
					"SK": &types.AttributeValueMemberS{Value: "LIKE#" + user},
				},
			}},
			{Update: &types.Update{
				TableName:        aws.String("Social"),
				Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "POST#" + post}, "SK": &types.AttributeValueMemberS{Value: "META"}},
				UpdateExpression: aws.String("ADD likeTally :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":one": &types.AttributeValueMemberN{Value: "1"},
				},
			}},
		},
	})
	if err != nil {
		return err
	}
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String("Social"),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}, "SK": &types.AttributeValueMemberS{Value: "META"}},
		UpdateExpression: aws.String("ADD views :inc SET likeTally = likeTally + :inc"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":inc": &types.AttributeValueMemberS{Value: "1"}},
	})
	return err
}
`;
    const { findings } = lint(text);
    const ids = findings.map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}`);
    assert.ok(ids.includes('unguarded-add-in-transaction Put'), ids.join('\n'));
    assert.ok(ids.some((i) => i.startsWith('add-on-non-number :inc')), ids.join('\n'));
    assert.ok(ids.some((i) => i.startsWith('set-without-if-not-exists')), ids.join('\n'));
    for (const f of findings)
      for (const fix of f.fixes ?? []) {
        const out = applyEdits(text, fix.edits);
        assert.ok(parsesClean('go', out), `${f.ruleId}: ${fix.title}\n${out}`);
      }
    const guard = findings.find((f) => f.ruleId === 'unguarded-add-in-transaction')!.fixes![0];
    const fixed = applyEdits(text, guard.edits);
    assert.ok(fixed.includes('ConditionExpression: aws.String("attribute_not_exists(SK)"),'), fixed);
    assert.ok(!lint(fixed).findings.some((f) => f.ruleId === 'unguarded-add-in-transaction'));
    const num = findings.find((f) => f.ruleId === 'add-on-non-number')!.fixes![0];
    assert.ok(applyEdits(text, num.edits).includes('":inc": &types.AttributeValueMemberN{Value: "1"}'));
  });

  it('a transaction built with append: items known, a loop makes them samples', () => {
    const text = `${HEAD}
func f(ctx context.Context, c *dynamodb.Client, ids []string) {
	items := []types.TransactWriteItem{}
	items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("T"), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}}}})
	for _, id := range ids {
		items = append(items, types.TransactWriteItem{Update: &types.Update{TableName: aws.String("T"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: id}}, UpdateExpression: aws.String("ADD n :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}}})
	}
	c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
}
`;
    const [s] = extract(text, 'go').sites;
    const items = prop(s.params, 'TransactItems');
    assert.equal(items?.kind, 'array');
    if (items?.kind !== 'array') return;
    assert.equal(items.items.length, 2);
    assert.equal(items.samples, 1);
    assert.equal(items.complete, false);
  });

  it('a field set after its literal is read by the data flow; unknown values stay unknown (silent)', () => {
    const text = `${HEAD}
func f(ctx context.Context, c *dynamodb.Client, expr expression.Expression) {
	in := &dynamodb.UpdateItemInput{
		TableName:        aws.String("T"),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}},
		UpdateExpression: expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	}
	in.ConditionExpression = aws.String("attribute_exists(PK)")
	c.UpdateItem(ctx, in)
}
`;
    const { sites, findings } = lint(text);
    assert.equal(sites.length, 1);
    const cond = prop(sites[0].params, 'ConditionExpression');
    assert.equal(cond?.kind === 'string' && cond.value, 'attribute_exists(PK)');
    assert.equal(prop(sites[0].params, 'UpdateExpression')?.kind, 'unknown');
    assert.deepEqual(findings.map((f) => f.ruleId), []);
  });

  it('a function-local `var expr = "..."` is a binding the lookup reads, like `expr := "..."` (it was skipped)', () => {
    const body = (decl: string) => `${HEAD}
func f(ctx context.Context, c *dynamodb.Client) {
	${decl} "ADD tally :s"
	c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:        aws.String("T"),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}},
		UpdateExpression: aws.String(expr),
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: "1"}},
	})
}
`;
    const short = lint(body('expr :='));
    const declared = lint(body('var expr ='));
    assert.deepEqual(short.findings.map((f) => f.ruleId), ['add-on-non-number']);
    assert.deepEqual(declared.findings.map((f) => f.ruleId), ['add-on-non-number']);
    const update = prop(declared.sites[0].params, 'UpdateExpression');
    assert.equal(update?.kind === 'string' && update.value, 'ADD tally :s');
  });

  it('a file without the types import gets findings but no fix that would name it', () => {
    const text = `package x

import "github.com/aws/aws-sdk-go-v2/service/dynamodb"

func f() {
	_ = &dynamodb.UpdateItemInput{TableName: aws.String("T"), UpdateExpression: aws.String("SET #a = :v"), Key: k}
}
`;
    const { findings } = lint(text);
    assert.ok(findings.some((f) => f.ruleId === 'undefined-name'));
    for (const f of findings) for (const fix of f.fixes ?? []) assert.ok(parsesClean('go', applyEdits(text, fix.edits)), fix.title);
    assert.ok(!findings.some((f) => f.ruleId === 'undefined-name' && f.fixes?.length));
  });
  it('a method on the receiver called with -n is followed with its argument; a helper of another file is not', () => {
    const text = `${HEAD}
type Repo struct{ c *dynamodb.Client }

func (r *Repo) bump(ctx context.Context, post string, delta int64) error {
	_, err := r.c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String("T"),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}},
		UpdateExpression:          aws.String("ADD Likes :d"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": &types.AttributeValueMemberN{Value: strconv.FormatInt(delta, 10)}},
	})
	return err
}

func (r *Repo) Unlike(ctx context.Context, post string, n int64) error {
	if n > 0 {
		return r.bump(ctx, post, -n)
	}
	return unlikeElsewhere(ctx, post, -n)
}
`;
    const { sites, findings } = lint(text);
    const fwd = sites.filter((s) => s.forwarded);
    assert.deepEqual(fwd.map((s) => [s.enclosingFunction?.name, text.slice(s.nameRange.start, s.nameRange.end), s.forwarded?.bound, (s.branch ?? '').startsWith('/')]), [['Unlike', 'bump', true, true]]);
    const av = prop(prop(fwd[0].params, 'ExpressionAttributeValues'), ':d');
    const d = av?.kind === 'object' ? av.properties[0].value : undefined;
    assert.equal(d?.kind === 'unknown' ? d.sign : undefined, -1);
    assert.deepEqual(findings.map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)} ${f.fixes?.length ?? 0}`), ['decrement-without-floor Likes :d 0']);
  });

  it('a nil slice grown on one branch gives one request per alternative, each its own tree', () => {
    const text = `${HEAD}
func f(ctx context.Context, c *dynamodb.Client, post string, guard bool) {
	var items []types.TransactWriteItem
	if guard {
		items = append(items, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String("T"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}}, ConditionExpression: aws.String("attribute_exists(PK)")}})
	}
	items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("T"), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: post}}}})
	c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
}
`;
    const { sites } = lint(text);
    assert.deepEqual(sites.map((s) => [s.alternative, (prop(s.params, 'TransactItems') as { items: unknown[] }).items.length]), [
      [{ index: 0, count: 2 }, 2],
      [{ index: 1, count: 2 }, 1],
    ]);
    const [a, b] = sites.map((s) => prop(s.params, 'TransactItems') as { items: { range: object }[] });
    assert.notEqual(a.items[1], b.items[0]);
    assert.deepEqual(a.items[1].range, b.items[0].range);
  });
});

/** The `expression` builder read as the expressions it builds (server/src/extract/go-expression.ts). */
describe('go host: the expression builder', () => {
  before(() => ensureParser('go'));

  const BUILDER_HEAD = HEAD.replace('"github.com/aws/aws-sdk-go-v2/aws"', '"github.com/aws/aws-sdk-go-v2/aws"\n\t"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"');
  const request = (body: string, fields = 'UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()') => `${BUILDER_HEAD}
func f(ctx context.Context, c *dynamodb.Client, n int, who interface{}) error {
${body}
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("T"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "a"}}, ${fields}})
	return err
}
`;
  const str = (v: unknown) => (v as StringNode).value;
  const under = (text: string, s: StringNode, a: number, b: number) => {
    const r = stringRange(s, a, b);
    return text.slice(r.start, r.end);
  };
  const names = (v: unknown) => Object.fromEntries((v as { properties: { key: string; value: StringNode }[] }).properties.map((p) => [p.key, p.value.value]));

  it('renders the SDK text: modes sorted, names deduplicated across trees, values in order, each char on its builder call', () => {
    const text = request(`	update := expression.Set(expression.Name("title"), expression.Value("x")).Add(expression.Name("likes"), expression.Value(1)).Remove(expression.Name("a.b[2]"))
	cond := expression.Name("PK").AttributeNotExists().Or(expression.Name("likes").LessThan(expression.Value(100)))
	expr, err := expression.NewBuilder().WithUpdate(update).WithCondition(cond).Build()
	if err != nil {
		return err
	}`);
    const [s] = extract(text, 'go').sites;
    assert.equal(s.built, true);
    const upd = prop(s.params, 'UpdateExpression') as StringNode;
    const cond = prop(s.params, 'ConditionExpression') as StringNode;
    assert.equal(cond.value, '(attribute_not_exists (#0)) OR (#1 < :0)');
    assert.equal(upd.value, 'ADD #1 :1\nREMOVE #2.#3[2]\nSET #4 = :2\n');
    assert.deepEqual(names(prop(s.params, 'ExpressionAttributeNames')), { '#0': 'PK', '#1': 'likes', '#2': 'a', '#3': 'b', '#4': 'title' });
    const values = prop(s.params, 'ExpressionAttributeValues') as { properties: { key: string; value: { properties: { key: string }[] } }[] };
    assert.deepEqual(values.properties.map((p) => `${p.key}=${p.value.properties[0].key}`), [':0=N', ':1=N', ':2=S']);
    // `ADD #1 :1` spans the Add call's arguments; `:1` is the Value call; a dotted name's parts are its chars.
    assert.equal(under(text, upd, 4, 9), 'expression.Name("likes"), expression.Value(1)');
    assert.equal(under(text, upd, 7, 9), 'expression.Value(1)');
    const remove = upd.value.indexOf('#2.#3[2]');
    assert.equal(under(text, upd, remove + 3, remove + 5), 'b');
    assert.equal(under(text, cond, 0, cond.value.length), 'expression.Name("PK").AttributeNotExists().Or(expression.Name("likes").LessThan(expression.Value(100)))');
    // The names map points at the names as written.
    const entry = (prop(s.params, 'ExpressionAttributeNames') as { properties: { key: string; keyRange: { start: number; end: number } }[] }).properties[4];
    assert.equal(text.slice(entry.keyRange.start, entry.keyRange.end), 'title');
  });

  it('the mission rules see it, on the builder calls, with no fix; a condition the builder lacks is not sent', () => {
    const text = request(`	expr, _ := expression.NewBuilder().WithUpdate(expression.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(1))).Add(expression.Name("score"), expression.Value("5"))).Build()`);
    const { sites, findings } = lint(text);
    assert.equal(prop(sites[0].params, 'ConditionExpression'), undefined);
    assert.equal(sites[0].params.complete, true);
    const shown = findings.map((f) => `${f.ruleId} ${text.slice(f.range.start, f.range.end)}`);
    assert.ok(shown.includes('set-without-if-not-exists expression.Name("views"), expression.Name("views").Plus(expression.Value(1))'), shown.join('\n'));
    assert.ok(shown.includes('add-on-non-number expression.Value("5")'), shown.join('\n'));
    assert.ok(findings.every((f) => !f.fixes?.length), 'no fix is written into a builder chain');
  });

  it('negatives: IfNotExists, a floor, a value of unknown type, -n as a decrement', () => {
    const clean = [
      `	v := expression.Name("views")
	expr, _ := expression.NewBuilder().WithUpdate(expression.Set(v, expression.Plus(expression.IfNotExists(v, expression.Value(0)), expression.Value(1)))).Build()`,
      `	expr, _ := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("stock"), expression.Value(-1))).WithCondition(expression.Name("stock").GreaterThanEqual(expression.Value(1))).Build()`,
      `	expr, _ := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("score"), expression.Value(who))).Build()`,
    ];
    for (const body of clean) {
      const text = request(body);
      const { sites, findings } = lint(text);
      assert.equal(sites[0].built, true, body);
      assert.deepEqual(findings.map((f) => f.ruleId), [], body);
    }
    const text = request(`	expr, _ := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("stock"), expression.Value(-n))).Build()`);
    const f = lint(text).findings.find((x) => x.ruleId === 'decrement-without-floor');
    assert.ok(f);
    assert.equal(text.slice(f.range.start, f.range.end), 'expression.Name("stock"), expression.Value(-n)');
  });

  it('expression.Value(strconv.Itoa(n)) is a string: an ADD of it is add-on-non-number, never a decrement (-n, -1 included)', () => {
    for (const arg of ['strconv.Itoa(n)', 'strconv.Itoa(-n)', 'strconv.Itoa(-1)', 'strconv.FormatInt(int64(-n), 10)', 'fmt.Sprint(-n)']) {
      const text = request(`	expr, _ := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("stock"), expression.Value(${arg}))).Build()`);
      const { sites, findings } = lint(text);
      const values = prop(sites[0].params, 'ExpressionAttributeValues') as { properties: { value: { properties: { key: string }[] } }[] };
      assert.equal(values.properties[0].value.properties[0].key, 'S', arg);
      const ids = findings.map((f) => f.ruleId);
      assert.ok(!ids.includes('decrement-without-floor'), `${arg}: ${ids.join()}`);
      assert.ok(ids.includes('add-on-non-number'), `${arg}: ${ids.join()}`);
    }
  });

  it('unknown builder parts are unknown (silent): if/else arms, a loop, an unknown call, a name that is not a literal', () => {
    const bodies = [
      `	u := expression.Set(expression.Name("a"), expression.Value(1))
	if n > 0 {
		u = u.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(1)))
	} else {
		u = u.Remove(expression.Name("b"))
	}
	expr, _ := expression.NewBuilder().WithUpdate(u).Build()`,
      `	u := expression.Set(expression.Name("a"), expression.Value(1))
	for i := 0; i < n; i++ {
		u = u.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(1)))
	}
	expr, _ := expression.NewBuilder().WithUpdate(u).Build()`,
      `	expr, _ := expression.NewBuilder().WithUpdate(expression.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(1)).Other())).Build()`,
      `	expr, _ := expression.NewBuilder().WithUpdate(expression.Add(expression.Name(fmt.Sprint(n)), expression.Value("5"))).Build()`,
    ];
    for (const body of bodies) {
      const text = request(body);
      const { sites, findings } = lint(text);
      assert.equal(prop(sites[0].params, 'UpdateExpression')?.kind, 'unknown', body);
      assert.deepEqual(findings.map((x) => x.ruleId), [], body);
    }
    // Extended under an `if` without `else`: the run taking the branch.
    const text = request(`	u := expression.Set(expression.Name("a"), expression.Value(1))
	if n > 0 {
		u = u.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(1)))
	}
	expr, _ := expression.NewBuilder().WithUpdate(u).Build()`);
    assert.equal(str(prop(extract(text, 'go').sites[0].params, 'UpdateExpression')), 'SET #0 = :0, #1 = #1 + :1\n');
    // Declared again with := inside an if: another variable, ours is unchanged after the block.
    const shadow = request(`	u := expression.Set(expression.Name("a"), expression.Value(1))
	if n > 0 {
		u := expression.Set(expression.Name("views"), expression.Name("views").Plus(expression.Value(1)))
		_ = u
	}
	expr, _ := expression.NewBuilder().WithUpdate(u).Build()`);
    assert.equal(str(prop(extract(shadow, 'go').sites[0].params, 'UpdateExpression')), 'SET #0 = :0\n');
  });

  it('v1 (service/dynamodb/expression), an import alias, key conditions and a helper returning Build()', () => {
    const text = `package q

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
	ex "github.com/aws/aws-sdk-go/service/dynamodb/expression"
)

func keyExpr(id string) (ex.Expression, error) {
	if id == "" {
		return ex.Expression{}, nil
	}
	return ex.NewBuilder().WithKeyCondition(ex.Key("PK").Equal(ex.Value(id)).And(ex.KeyBeginsWith(ex.Key("SK"), "ORDER#"))).WithProjection(ex.NamesList(ex.Name("total"), ex.Name("status"))).Build()
}

func q(c *dynamodb.DynamoDB, id string) {
	expr, _ := keyExpr(id)
	c.Query(&dynamodb.QueryInput{TableName: aws.String("T"), KeyConditionExpression: expr.KeyCondition(), ProjectionExpression: expr.Projection(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()})
}
`;
    const [s] = extract(text, 'go').sites;
    assert.equal(s.sdk, 'aws-sdk-go');
    assert.equal(str(prop(s.params, 'KeyConditionExpression')), '(#0 = :0) AND (begins_with (#1, :1))');
    assert.equal(str(prop(s.params, 'ProjectionExpression')), '#2, #3');
    assert.deepEqual(names(prop(s.params, 'ExpressionAttributeNames')), { '#0': 'PK', '#1': 'SK', '#2': 'total', '#3': 'status' });
    assert.deepEqual(lint(text).findings.map((f) => f.ruleId), []);
  });

  it('recursive helpers and self-referencing builders end (unknown)', () => {
    const text = `${BUILDER_HEAD}
func a(n int) (expression.Expression, error) {
	return b(n)
}

func b(n int) (expression.Expression, error) {
	return a(n)
}

func g() (expression.Expression, error) {
	e, _ := g()
	return expression.NewBuilder().WithUpdate(expression.Set(expression.Name("x"), expression.Value(e.Update()))).Build()
}

func f(ctx context.Context, c *dynamodb.Client) {
	loop, _ := g()
	c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("T"), UpdateExpression: loop.Update()})
	u := expression.Set(expression.Name("x"), expression.Value(1))
	u = u.Set(expression.Name("y"), expression.Value(2))
	expr, _ := a(1)
	other, _ := expression.NewBuilder().WithUpdate(u).Build()
	c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("T"), UpdateExpression: expr.Update(), ConditionExpression: other.Update()})
}
`;
    const [loop, s] = extract(text, 'go').sites;
    assert.equal(str(prop(loop.params, 'UpdateExpression')), 'SET #0 = :0\n');
    assert.equal(prop(s.params, 'UpdateExpression')?.kind, 'unknown');
    assert.equal(str(prop(s.params, 'ConditionExpression')), 'SET #0 = :0, #1 = :1\n');
  });
});
