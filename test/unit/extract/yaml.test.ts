/**
 * The YAML host: Step Functions (ASL files, SAM/CloudFormation `Definition`, Serverless `stepFunctions`) and AWS CLI
 * skeletons; exact offsets through every scalar style (plain, quoted, block, folding, escapes), unknown values
 * (JSONPath `.$`, JSONata, tags, substitutions), fixes written as YAML that re-parse, incremental re-extraction equal to
 * a fresh one, and bad input never throwing.
 */
import { strict as assert } from 'node:assert';
import { parseAllDocuments, stringify, Scalar } from 'yaml';
import { ArrayNode, createDocumentExtractor, extract, prop, RequestSite, StringNode } from '../../../server/src/extract';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';
import { strings } from './support';

/**
 * The offsets contract for YAML: the source char at each offset is the char itself, the backslash of its escape, the
 * first quote of `''`, or whitespace/a line break for a char made by folding.
 */
function assertYamlOffsets(text: string, s: StringNode): void {
  assert.equal(s.offsets.length, s.value.length + 1);
  for (let k = 0; k < s.value.length; k++) {
    const src = text[s.offsets[k]];
    const ok = src === s.value[k] || src === '\\' || (/\s/.test(s.value[k]) && /\s/.test(src));
    assert.ok(ok, `char ${k} of ${JSON.stringify(s.value)}: ${JSON.stringify(src)} at ${s.offsets[k]}\n${text}`);
    assert.ok(s.offsets[k + 1] >= s.offsets[k]);
  }
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ASL = `Comment: likes
StartAt: Like
States:
  Like:
    Type: Task
    Resource: arn:aws:states:::aws-sdk:dynamodb:transactWriteItems
    Parameters:
      TransactItems:
        - Put:
            TableName: Likes
            Item:
              PK: {S.$: "States.Format('POST#{}', $.postId)"}
              SK: {S.$: $.userId}
        - Update:
            TableName: Likes
            Key:
              PK: {S.$: $.postId}
              SK: {S: META}
            UpdateExpression: >-
              ADD likes
              :one
            ExpressionAttributeValues:
              ":one": {N: '1'}
    Next: Count
  Count:
    Type: Task
    Resource: arn:aws:states:::dynamodb:updateItem
    Parameters:
      TableName: Likes
      Key: {PK: {S.$: $.postId}}
      UpdateExpression: 'SET views = views + :one'   # counter
      ExpressionAttributeValues:
        ':one': {N: "1"}
    Next: Tag
  Tag:
    Type: Task
    Resource: arn:aws:states:::dynamodb:updateItem
    Parameters:
      TableName: Likes
      Key: {PK: {S.$: $.postId}}
      UpdateExpression: ADD tags :t
      ExpressionAttributeValues:
        ':t': {S: 'x'}
    End: true
`;

const lint = (text: string) => {
  const sites = extract(text, 'yaml').sites;
  return { sites, findings: runRules(text, 'yaml', sites) };
};

const expr = (s: RequestSite, key = 'UpdateExpression') => prop(s.params, key) as StringNode;

describe('extract: YAML', () => {
  it('ASL tasks: API from the Resource ARN, Parameters as the request, ranges exact', () => {
    const { sites, findings } = lint(ASL);
    assert.deepEqual(sites.map((s) => [s.api, s.apiSource, s.style, s.sdk]), [
      ['TransactWriteItems', 'call', 'low-level', 'step-functions-yaml'],
      ['UpdateItem', 'call', 'low-level', 'step-functions-yaml'],
      ['UpdateItem', 'call', 'low-level', 'step-functions-yaml'],
    ]);
    for (const s of sites) for (const n of strings(s.params)) assertYamlOffsets(ASL, n);
    const byRule = findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.ruleId} ${ASL.slice(f.range.start, f.range.end)}`);
    assert.ok(byRule.includes('unguarded-add-in-transaction Put'), byRule.join('\n'));
    assert.ok(byRule.includes('set-without-if-not-exists views = views + :one'), byRule.join('\n'));
    assert.ok(byRule.includes("add-on-non-number :t"), byRule.join('\n'));
    // JSONPath values are unknown, not invalid: the Put's Item keys are present, their values unknown.
    const item = prop(prop((prop(sites[0].params, 'TransactItems') as ArrayNode).items[0], 'Put'), 'Item');
    assert.equal(prop(prop(item, 'PK'), 'S')?.kind, 'unknown');
  });

  it('every fix writes YAML that parses, and the finding goes away', () => {
    const { findings } = lint(ASL);
    let n = 0;
    for (const f of findings)
      for (const fix of f.fixes ?? []) {
        const out = applyEdits(ASL, fix.edits);
        const docs = parseAllDocuments(out);
        assert.deepEqual(docs.flatMap((d) => d.errors.map((e) => e.message)), [], `${fix.title}\n${out}`);
        n++;
        if (fix.safe === false) continue;
        const again = lint(out).findings.filter((g) => g.ruleId === f.ruleId && out.slice(g.range.start, g.range.end) === ASL.slice(f.range.start, f.range.end));
        assert.ok(again.length < findings.filter((g) => g.ruleId === f.ruleId).length || again.length === 0, `${fix.title} did not fix ${f.ruleId}\n${out}`);
      }
    assert.ok(n >= 4);
  });

  it('the guard fix adds a ConditionExpression line at the map indentation', () => {
    const f = lint(ASL).findings.find((x) => x.ruleId === 'unguarded-add-in-transaction')!;
    const out = applyEdits(ASL, f.fixes![0].edits);
    assert.match(out, /\n {14}SK: \{S\.\$: \$\.userId\}\n {12}ConditionExpression: "attribute_not_exists\(SK\)"\n {8}- Update:/);
  });

  it('several edits in one plain scalar are judged together: in place when the result is still plain, else one double-quoted rewrite', () => {
    const text = `StartAt: View
States:
  View:
    Type: Task
    Resource: arn:aws:states:::dynamodb:updateItem
    Parameters:
      TableName: Social
      Key: {PK: {S.$: $.postId}}
      UpdateExpression: SET views = views + :one
      ConditionExpression: attribute_exists(PK)
      ExpressionAttributeValues:
        ":one": {N: "1"}
    End: true
`;
    const { findings } = lint(text);
    const fixOf = (title: string) => findings.flatMap((f) => f.fixes ?? []).find((x) => x.title.startsWith(title))!;
    const value = (out: string) => (parseAllDocuments(out)[0].toJS() as { States: { View: { Parameters: Record<string, string> } } }).States.View.Parameters;
    // if_not_exists( and , :zero): each alone would be judged on its own value (the comma needs quotes, the other not):
    // the two edits used to overlap (a rewrite next to an in-place insertion).
    const wrap = applyEdits(text, fixOf('Wrap views').edits);
    assert.equal(value(wrap).UpdateExpression, 'SET views = if_not_exists(views, :zero) + :one');
    assert.ok(wrap.includes('UpdateExpression: "SET views = if_not_exists(views, :zero) + :one"'), wrap);
    // #views in a plain scalar would start a comment (` #`) and cut the expression to "SET".
    const names = applyEdits(text, fixOf('Use placeholder #views').edits);
    assert.equal(value(names).UpdateExpression, 'SET #views = #views + :one');
    assert.deepEqual(lint(wrap).findings.filter((f) => f.ruleId === 'set-without-if-not-exists'), []);
  });

  it('SAM / CloudFormation: only state machine definitions; templates without one yield nothing', () => {
    const sam = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  LikesTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: Likes
      KeySchema: [{AttributeName: PK, KeyType: HASH}]
  Machine:
    Type: AWS::Serverless::StateMachine
    Properties:
      Definition:
        StartAt: Inc
        States:
          Inc:
            Type: Task
            Resource: arn:aws:states:::dynamodb:updateItem
            Parameters:
              TableName: !Ref LikesTable
              Key: {PK: {S.$: $.id}}
              UpdateExpression: SET hits = hits + :one
              ExpressionAttributeValues: {":one": {N: "1"}}
            End: true
  Other:
    Type: AWS::Lambda::Function
    Properties:
      Environment:
        Variables:
          UpdateExpression: SET a = :b
          TableName: x
`;
    const { sites, findings } = lint(sam);
    assert.deepEqual(sites.map((s) => s.api), ['UpdateItem']);
    assert.equal(prop(sites[0].params, 'TableName')?.kind, 'unknown');
    assert.ok(findings.some((f) => f.ruleId === 'set-without-if-not-exists'));
    assert.deepEqual(extract(sam.replace(/ {2}Machine:[^]*?(?= {2}Other:)/, ''), 'yaml').sites, []);
    // `!Sub arn:${AWS::Partition}:states:::dynamodb:deleteItem` names the API too (no inference from the fields).
    const sub = sam.replace('Resource: arn:aws:states:::dynamodb:updateItem', 'Resource: !Sub arn:${AWS::Partition}:states:::dynamodb:deleteItem');
    assert.deepEqual(extract(sub, 'yaml').sites.map((s) => [s.api, s.apiSource]), [['DeleteItem', 'call']]);
  });

  it('Serverless stepFunctions, CLI skeletons, anchors, !Sub, JSONata and ${} substitutions', () => {
    const sls = `service: x
stepFunctions:
  stateMachines:
    m:
      definition:
        StartAt: A
        States:
          A:
            Type: Task
            Resource: arn:aws:states:::dynamodb:putItem
            Parameters:
              TableName: \${self:custom.table}
              Item: {PK: {S: a}}
              ConditionExpression: attribute_not_exists(PK)
            End: true
`;
    assert.deepEqual(extract(sls, 'yaml').sites.map((s) => [s.api, s.sdk]), [['PutItem', 'step-functions-yaml']]);
    const cli = `TableName: Posts
Key:
  PK: {S: p1}
UpdateExpression: "SET #c = #c + :one"
ExpressionAttributeNames: {"#c": count}
ExpressionAttributeValues:
  ":one": {N: "1"}
`;
    const c = lint(cli);
    assert.deepEqual(c.sites.map((s) => [s.api, s.sdk]), [['UpdateItem', 'aws-cli-yaml']]);
    assert.deepEqual(c.findings.filter((f) => f.severity === 'warning').map((f) => f.ruleId), ['set-without-if-not-exists']);
    const anchors = `base: &key {PK: {S: p1}}
expr: &e SET a = :v
TableName: T
Key: *key
UpdateExpression: *e
ExpressionAttributeValues: {":v": {S: x}}
`;
    const a = extract(anchors, 'yaml').sites[0];
    assert.equal(expr(a).value, 'SET a = :v');
    assertYamlOffsets(anchors, expr(a));
    const tags = `TableName: !Sub "\${Stage}-t"
Key: {PK: {S: !Ref Id}}
UpdateExpression: !Sub 'SET a = :v'
ConditionExpression: "{% $exists %}"
ExpressionAttributeValues: {":v": {N: !GetAtt X.Y}}
`;
    const t = extract(tags, 'yaml').sites[0];
    assert.equal(prop(t.params, 'TableName')?.kind, 'unknown');
    assert.equal(expr(t).value, 'SET a = :v');
    assert.equal(prop(t.params, 'ConditionExpression')?.kind, 'unknown');
    assert.deepEqual(lint(tags).findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), []);
  });

  it('offsets are exact in every scalar style (property test against the yaml package)', () => {
    const rand = rng(7);
    const alphabet = ['a', 'b', ' ', ' ', ':', '#', "'", '"', '\\', '\n', '\n', '\t', 'é', '=', '(', ')', '-', ','];
    const types = [Scalar.PLAIN, Scalar.QUOTE_SINGLE, Scalar.QUOTE_DOUBLE, Scalar.BLOCK_LITERAL, Scalar.BLOCK_FOLDED] as const;
    let checked = 0;
    for (let i = 0; i < 600; i++) {
      let v = 'SET ';
      const len = 1 + Math.floor(rand() * 60);
      for (let k = 0; k < len; k++) v += alphabet[Math.floor(rand() * alphabet.length)];
      const type = types[i % types.length];
      const doc = { TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: v };
      const text = stringify(doc, { defaultStringType: type, lineWidth: 20 + (i % 30), minContentWidth: 5 });
      const site = extract(text, 'yaml').sites[0];
      assert.ok(site, text);
      const node = prop(site.params, 'UpdateExpression')!;
      assert.equal(node.kind, 'string', `${type}: ${JSON.stringify(v)} not decoded exactly\n${text}`);
      // What the yaml package reads back (its stringify does not always round-trip a trailing backslash).
      assert.equal((node as StringNode).value, (parseAllDocuments(text)[0].toJS() as { UpdateExpression: string }).UpdateExpression);
      assertYamlOffsets(text, node as StringNode);
      checked++;
    }
    assert.equal(checked, 600);
  });

  it('incremental: 80 random edits give the same sites as a fresh extraction', () => {
    const template = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
${[0, 1, 2, 3].map((i) => `  Machine${i}:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      Definition:
        StartAt: A
        States:
          A:
            Type: Task
            Resource: arn:aws:states:::dynamodb:updateItem
            Parameters:
              TableName: T${i}
              Key: {PK: {S.$: $.id}}
              UpdateExpression: 'SET n${i} = n${i} + :one'
              ExpressionAttributeValues: {":one": {N: "1"}}
            End: true
`).join('')}`;
    for (const base of [template, ASL]) {
      const rand = rng(base.length);
      const doc = createDocumentExtractor('yaml');
      let text = base;
      doc.update(text);
      for (let i = 0; i < 80; i++) {
        const at = Math.floor(rand() * text.length);
        const del = rand() < 0.4 ? Math.floor(rand() * 4) : 0;
        const ins = ['x', ' ', '1', ':', "'", '\n', 'SET ', '#', ''][Math.floor(rand() * 9)];
        const next = text.slice(0, at) + ins + text.slice(at + del);
        const got = doc.update(next, [{ start: at, end: at + del, text: ins }]);
        const fresh = extract(next, 'yaml');
        assert.deepEqual(JSON.parse(JSON.stringify(got.sites)), JSON.parse(JSON.stringify(fresh.sites)), `edit ${i} at ${at}`);
        text = next;
      }
      // Edits that keep the document valid (typing inside a word) re-parse one unit.
      const clean = createDocumentExtractor('yaml');
      clean.update(base);
      text = base;
      let incremental = 0;
      for (let i = 0; i < 40; i++) {
        const words = [...text.matchAll(/[a-z]{3,}/g)].filter((m) => m.index! > text.indexOf('\n  ', text.indexOf('Resources:') + 1 || text.indexOf('States:')));
        const m = words[Math.floor(rand() * words.length)];
        const at = m.index! + 1;
        const next = text.slice(0, at) + 'q' + text.slice(at);
        const got = clean.update(next, [{ start: at, end: at, text: 'q' }]);
        if (clean.last.update === 'incremental') incremental++;
        assert.deepEqual(JSON.parse(JSON.stringify(got.sites)), JSON.parse(JSON.stringify(extract(next, 'yaml').sites)), `clean edit ${i}`);
        text = next;
      }
      assert.ok(incremental >= 30, `only ${incremental} of 40 updates were incremental`);
    }
  });

  it('bad input: malformed, truncated, huge, deeply nested, alias bombs and binary never throw', () => {
    for (let cut = 0; cut < ASL.length; cut += 7) extract(ASL.slice(0, cut), 'yaml');
    assert.ok(extract(ASL.replace('Parameters:', 'Parameters: [{'), 'yaml'));
    const deep = 'TableName: T\nUpdateExpression: SET a = :b\nKey: ' + '['.repeat(5000) + ']'.repeat(5000) + '\n';
    extract(deep, 'yaml');
    const nested = 'TableName: T\nUpdateExpression: x\n' + Array.from({ length: 300 }, (_, i) => ' '.repeat(i) + 'k:').join('\n');
    extract(nested, 'yaml');
    const bomb = `a: &a ["TableName", "TableName"]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e]\n`;
    extract(bomb, 'yaml');
    assert.match(extract('TableName: T\0', 'yaml').skipped ?? '', /binary/);
    const huge = ASL.repeat(400);
    assert.ok(huge.length < 2 * 1024 * 1024);
    assert.equal(extract(huge, 'yaml').sites.length >= 3, true);
    assert.deepEqual(extract('kind: Deployment\nspec:\n  replicas: 2\n', 'yaml').sites, []);
  });
});
