/**
 * Go files importing both AWS SDKs (aws-sdk-go v1 and aws-sdk-go-v2: a migration in progress). Each request is read
 * as the SDK its type's package belongs to (`dynamodbv1.UpdateItemInput` v1, `dynamodb.UpdateItemInput` v2), so a fix
 * is written in that SDK's syntax; a request type of another package in such a file is unknown: no site (silent).
 * Shapes from public code: a repository importing `dynamodbV1`/`dynamodbV2` side by side (a DAX path on v1, the
 * main path on v2), and one with `ddbv2` for v2 next to v1's unaliased `dynamodb`.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, ensureParser, extract } from '../../../server/src/extract';
import { parsesClean } from './support';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';


const V1_BODY = (dynamodb: string, aws: string) => `&${dynamodb}.UpdateItemInput{
		TableName:                 ${aws}.String("Posts"),
		Key:                       map[string]*${dynamodb}.AttributeValue{"PK": {S: ${aws}.String(id)}},
		UpdateExpression:          ${aws}.String("SET likes = likes + :one"),
		ExpressionAttributeValues: map[string]*${dynamodb}.AttributeValue{":one": {N: ${aws}.String("1")}},
	}`;
const V2_BODY = (dynamodb: string, aws: string) => `&${dynamodb}.UpdateItemInput{
		TableName:                 ${aws}.String("Posts"),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: id}},
		UpdateExpression:          ${aws}.String("SET likes = likes + :one"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
	}`;

/** v2 imported as usual, v1 under aliases. */
const ALIASED_V1 = `package store

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	awsv1 "github.com/aws/aws-sdk-go/aws"
	dynamodbv1 "github.com/aws/aws-sdk-go/service/dynamodb"
)

func likeV1(svc *dynamodbv1.DynamoDB, id string) {
	svc.UpdateItem(${V1_BODY('dynamodbv1', 'awsv1')})
}

func likeV2(ctx context.Context, c *dynamodb.Client, id string) {
	c.UpdateItem(ctx, ${V2_BODY('dynamodb', 'aws')})
}
`;

/** v2 under an alias, v1 imported as usual (and its `aws`). */
const ALIASED_V2 = `package main

import (
	"context"

	ddbv2 "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
)

func likeV2(ctx context.Context, c *ddbv2.Client, id string) {
	c.UpdateItem(ctx, ${V2_BODY('ddbv2', 'aws')})
}

func likeV1(svc *dynamodb.DynamoDB, id string) {
	svc.UpdateItem(${V1_BODY('dynamodb', 'aws')})
}
`;

const sdks = (text: string) => extract(text, 'go').sites.map((s) => `${s.enclosingFunction?.name} ${s.sdk}`);

describe('go host: a file importing both SDKs', () => {
  before(() => ensureParser('go'));

  it('each request is read as the SDK of its type\'s package (v1 aliased, or v2 aliased)', () => {
    assert.deepEqual(sdks(ALIASED_V1), ['likeV1 aws-sdk-go', 'likeV2 aws-sdk-go-v2']);
    assert.deepEqual(sdks(ALIASED_V2), ['likeV2 aws-sdk-go-v2', 'likeV1 aws-sdk-go']);
  });

  it('fixes are written in the SDK of their request: v1 `{N: awsv1.String("0")}`, v2 `&types.AttributeValueMemberN{...}`', () => {
    const findings = runRules(ALIASED_V1, 'go', extract(ALIASED_V1, 'go').sites).filter((f) => f.ruleId === 'set-without-if-not-exists');
    assert.equal(findings.length, 2);
    const [v1, v2] = findings.sort((a, b) => a.range.start - b.range.start).map((f) => f.fixes?.find((x) => x.edits.some((e) => e.newText.includes('0'))));
    assert.ok(v1 && v2, 'both requests get the fix');
    const v1Text = v1.edits.map((e) => e.newText).join('\n');
    const v2Text = v2.edits.map((e) => e.newText).join('\n');
    assert.ok(v1Text.includes('{N: awsv1.String("0")}') && !v1Text.includes('types.'), v1Text);
    assert.ok(v2Text.includes('&types.AttributeValueMemberN{Value: "0"}'), v2Text);
    for (const fix of [v1, v2]) assert.ok(parsesClean('go', applyEdits(ALIASED_V1, fix.edits)), fix.title);
    // v1 under its own names: `aws` is v1's, so the v2 request's insertion has no `aws` of its SDK (no such fix).
    const other = runRules(ALIASED_V2, 'go', extract(ALIASED_V2, 'go').sites).filter((f) => f.ruleId === 'set-without-if-not-exists');
    const inserts = other.map((f) => f.fixes?.find((x) => x.edits.some((e) => e.newText.includes('0'))));
    assert.equal(inserts.length, 2);
    assert.equal(inserts[0], undefined);
    assert.ok(inserts[1]?.edits.some((e) => e.newText.includes('":zero": {N: aws.String("0")}')), JSON.stringify(inserts[1]));
    assert.ok(parsesClean('go', applyEdits(ALIASED_V2, inserts[1]!.edits)));
  });

  it('`aws.String` under an alias of either SDK\'s `aws` package (`awsv1.String("x")`) is its argument', () => {
    const [s] = extract(ALIASED_V1, 'go').sites;
    const table = s.params.kind === 'object' ? s.params.properties.find((p) => p.key === 'TableName')?.value : undefined;
    assert.equal(table?.kind === 'string' ? table.value : table?.kind, 'Posts');
  });

  it('a v1 file that imports a v2 package other than DynamoDB (config), or names v2 in a comment, is v1', () => {
    const v1 = `package store

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
)

// TODO: move to github.com/aws/aws-sdk-go-v2
func likeV1(svc *dynamodb.DynamoDB, id string) {
	svc.UpdateItem(${V1_BODY('dynamodb', 'aws')})
}
`;
    assert.deepEqual(sdks(v1), ['likeV1 aws-sdk-go']);
    const withConfig = v1.replace('import (\n', 'import (\n\t"github.com/aws/aws-sdk-go-v2/config"\n');
    assert.deepEqual(sdks(withConfig), ['likeV1 aws-sdk-go']);
  });

  it('unknown is silent: a request type of another package in a file importing both DynamoDB packages has no site', () => {
    const text = ALIASED_V1.replace('svc.UpdateItem(&dynamodbv1.UpdateItemInput{', 'svc.UpdateItem(&store.UpdateItemInput{');
    assert.deepEqual(sdks(text), ['likeV2 aws-sdk-go-v2']);
    // Two imports giving one name both SDKs: unknown too.
    const clash = ALIASED_V1.replace('dynamodbv1 "github.com/aws/aws-sdk-go/service/dynamodb"', 'dynamodb "github.com/aws/aws-sdk-go/service/dynamodb"').replace(/dynamodbv1\./g, 'dynamodb.');
    assert.deepEqual(sdks(clash), []);
  });

  it('negatives of the above: with one SDK imported, a request type of another package is still read, as that SDK', () => {
    const v2Only = ALIASED_V1.replace(/\tawsv1 [^\n]*\n\tdynamodbv1 [^\n]*\n/, '').replace(/func likeV1[\s\S]*?\n}\n\n/, '');
    assert.deepEqual(sdks(v2Only.replace('c.UpdateItem(ctx, &dynamodb.UpdateItemInput{', 'c.UpdateItem(ctx, &store.UpdateItemInput{')), ['likeV2 aws-sdk-go-v2']);
    // A dot import names the package of a bare type.
    const dot = ALIASED_V1.replace('dynamodbv1 "github.com/aws/aws-sdk-go/service/dynamodb"', '. "github.com/aws/aws-sdk-go/service/dynamodb"').replace('&dynamodbv1.UpdateItemInput{', '&UpdateItemInput{');
    assert.deepEqual(sdks(dot), ['likeV1 aws-sdk-go', 'likeV2 aws-sdk-go-v2']);
  });

  it('incremental: typing `-v2` into a comment inside a v1 function changes no request\'s SDK (it was read from the whole text)', () => {
    const text = `package store

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
)

func likeV1(svc *dynamodb.DynamoDB, id string) {
	svc.UpdateItem(${V1_BODY('dynamodb', 'aws')})
}

func other() {
	// see github.com/aws/aws-sdk-go
}
`;
    const doc = createDocumentExtractor('go');
    doc.update(text);
    const at = text.indexOf('aws-sdk-go\n') + 'aws-sdk-go'.length;
    const next = text.slice(0, at) + '-v2' + text.slice(at);
    const got = doc.update(next, [{ start: at, end: at, text: '-v2' }]);
    assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(extract(next, 'go'))));
    assert.deepEqual(got.sites.map((s) => s.sdk), ['aws-sdk-go']);
    doc.dispose();
  });
});
