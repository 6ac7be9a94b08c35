/**
 * Requests completed at run time: literals completed later in the function (`params.X = ...`, `params['X'] = ...`,
 * `params.X![':v'] = ...`), Step Functions fields filled by JSONPath (`"X.$": "$.path"`) or JSONata (`"{% expr %}"`).
 * What the literal lacks is unknown, never reported as missing or wrong. Controls show the same request without the
 * run-time part is still reported.
 */
import { strict as assert } from 'node:assert';
import { lint, parsersReady, PRELUDE, slice } from './check';

const ts = PRELUDE['ts-doc'];
const py = PRELUDE['py-resource'];
const cases: { name: string; lang: string; code: string; expect: string[] }[] = [
  {
    name: 'TS: values map assigned after the literal',
    lang: 'typescript',
    code: `${ts}export async function f(id: string, name: string) {\n  const p = { TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET a = :a' } as UpdateCommandInput;\n  p.UpdateExpression += ', b = :b';\n  p.ExpressionAttributeValues = { ':a': 1, ':b': name };\n  await doc.send(new UpdateCommand(p));\n}\n`,
    expect: [],
  },
  {
    // Without name, :b is defined and unused: DynamoDB rejects that request ("Value provided in
    // ExpressionAttributeValues unused in expressions").
    name: 'TS: values map assigned after the literal, an expression part added on one branch only',
    lang: 'typescript',
    code: `${ts}export async function f(id: string, name?: string) {\n  const p = { TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET a = :a' } as UpdateCommandInput;\n  if (name) p.UpdateExpression += ', b = :b';\n  p.ExpressionAttributeValues = { ':a': 1, ':b': name };\n  await doc.send(new UpdateCommand(p));\n}\n`,
    expect: ["':b'"],
  },
  {
    name: 'TS: an entry added to a nested map through a non-null assertion',
    lang: 'typescript',
    code: `${ts}export async function f(id: string) {\n  const p: UpdateCommandInput = { TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET a = :a, b = :b', ExpressionAttributeValues: { ':a': 1 } };\n  p.ExpressionAttributeValues![':b'] = 2;\n  await doc.send(new UpdateCommand(p));\n}\n`,
    expect: [],
  },
  {
    name: 'TS control: nothing assigned later',
    lang: 'typescript',
    code: `${ts}export async function f(id: string) {\n  const p: UpdateCommandInput = { TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET a = :a, b = :b', ExpressionAttributeValues: { ':a': 1 } };\n  await doc.send(new UpdateCommand(p));\n}\n`,
    expect: [':b'],
  },
  {
    name: 'Python: values dict assigned to the kwargs after the literal',
    lang: 'python',
    code: `${py}\ndef f(pk):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a, #n = :b'}\n    params['ExpressionAttributeValues'] = {':a': 1, ':b': 2}\n    params['ExpressionAttributeNames'] = {'#n': 'name'}\n    table.update_item(**params)\n`,
    expect: [],
  },
  {
    name: 'Python: an entry added to a nested dict by subscript',
    lang: 'python',
    code: `${py}\ndef f(pk):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a, b = :b', 'ExpressionAttributeValues': {':a': 1}}\n    params['ExpressionAttributeValues'][':b'] = 2\n    table.update_item(**params)\n`,
    expect: [],
  },
  {
    name: 'Python: a nested dict updated in place',
    lang: 'python',
    code: `${py}\ndef f(pk, extra):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a, b = :b', 'ExpressionAttributeValues': {':a': 1}}\n    params['ExpressionAttributeValues'].update(extra)\n    table.update_item(**params)\n`,
    expect: [],
  },
  {
    name: 'Python control: nothing assigned later',
    lang: 'python',
    code: `${py}\ndef f(pk):\n    params = {'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :a'}\n    table.update_item(**params)\n`,
    expect: [':a'],
  },
  {
    name: 'Step Functions: ExpressionAttributeValues given by a JSONPath (".$")',
    lang: 'json',
    code: '{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:aws:states:::dynamodb:updateItem", "End": true, "Parameters": {"TableName": "T", "Key": {"pk": {"S.$": "$.id"}}, "UpdateExpression": "ADD likes :one", "ExpressionAttributeValues.$": "$.values"}}}}',
    expect: [],
  },
  {
    name: 'Step Functions control: no ExpressionAttributeValues at all',
    lang: 'json',
    code: '{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:aws:states:::dynamodb:updateItem", "End": true, "Parameters": {"TableName": "T", "Key": {"pk": {"S.$": "$.id"}}, "UpdateExpression": "ADD likes :one"}}}}',
    expect: [':one'],
  },
  {
    name: 'Step Functions: JSONata values ("{% ... %}") are computed, not literal numbers',
    lang: 'json',
    code: '{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:aws:states:::dynamodb:updateItem", "End": true, "Parameters": {"TableName": "T", "Key": {"pk": {"S": "{% $states.input.id %}"}}, "UpdateExpression": "SET n = :n", "ExpressionAttributeValues": {":n": {"N": "{% $string($states.input.n) %}"}}}}}}',
    expect: [],
  },
  {
    name: 'SAM DefinitionSubstitutions / Fn::Sub placeholders ("${Increment}") are filled at deploy time',
    lang: 'json',
    code: '{"StartAt": "A", "States": {"A": {"Type": "Task", "Resource": "arn:aws:states:::dynamodb:updateItem", "End": true, "Parameters": {"TableName": "${LikesTable}", "Key": {"pk": {"S": "P#1"}}, "UpdateExpression": "ADD likes :inc", "ExpressionAttributeValues": {":inc": {"N": "${Increment}"}}}}}}',
    expect: [],
  },
  {
    name: 'API Gateway mapping template values ("$input.path(...)") are filled at run time',
    lang: 'json',
    code: '{"TableName": "Posts", "Key": {"pk": {"S": "$input.params(\'id\')"}}, "UpdateExpression": "ADD viewCount :n", "ExpressionAttributeValues": {":n": {"N": "$input.path(\'$.count\')"}}}',
    expect: [],
  },
  {
    name: 'control: the same literal that is not a number is reported',
    lang: 'json',
    code: '{"TableName": "Posts", "Key": {"pk": {"S": "p"}}, "UpdateExpression": "ADD viewCount :n", "ExpressionAttributeValues": {":n": {"N": "count"}}}',
    expect: ['":n"'],
  },
];

describe('requests completed at run time', () => {
  before(parsersReady);
  for (const c of cases) {
    it(c.name, () => {
      const found = lint(c.code, c.lang).filter((f) => f.severity === 'error');
      assert.deepEqual(found.map((f) => slice(c.code, f)), c.expect, found.map((f) => `${f.ruleId}: ${f.message}`).join('\n'));
    });
  }
});
