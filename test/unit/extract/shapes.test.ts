/** Request-shaped literals passed to no call (issue 13): exact ranges, the API from the keys, and what stays silent. */
import { strict as assert } from 'node:assert';
import { extract, initParsers } from '../../../server/src/extract';

const slice = (text: string, r: { start: number; end: number }) => text.slice(r.start, r.end);

describe('extract: request-shaped literals', () => {
  before(() => initParsers());

  it('TS: a config map entry is a site at its literal, named by its key', () => {
    const text = "export const OPS = {\n  bump: { Key: { id: 1 }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } },\n};\n";
    const [s, ...rest] = extract(text, 'typescript').sites;
    assert.equal(rest.length, 0);
    assert.equal(s.api, 'UpdateItem');
    assert.equal(s.apiSource, 'inferred');
    assert.equal(slice(text, s.nameRange), 'bump');
    assert.equal(slice(text, s.range), "{ Key: { id: 1 }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } }");
    const expr = s.params.properties[1].value;
    assert.equal(expr.kind === 'string' && slice(text, { start: expr.offsets[4], end: expr.offsets[5] }), 'n');
  });

  it('Python: a fixture list entry is a site at its dict; low-level from typed values', () => {
    const text = 'CASES = [\n    {"Key": {"id": {"S": "1"}}, "UpdateExpression": "ADD n :one"},\n]\n';
    const [s, ...rest] = extract(text, 'python').sites;
    assert.equal(rest.length, 0);
    assert.equal(s.api, 'UpdateItem');
    assert.equal(s.style, 'low-level');
    assert.equal(slice(text, s.range), '{"Key": {"id": {"S": "1"}}, "UpdateExpression": "ADD n :one"}');
    assert.equal(slice(text, s.nameRange), '"Key"');
  });

  it('a shape a call takes is only that call, and nested entries of a shape are not sites of their own', () => {
    const ts = "import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst doc = DynamoDBDocumentClient.from({});\nexport const P = { TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :a' };\nexport const T = { TransactItems: [{ Update: { TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :a' } }] };\nexport const go = () => doc.send(new UpdateCommand(P));\n";
    const sites = extract(ts, 'typescript').sites;
    assert.deepEqual(sites.map((s) => `${s.api} ${s.apiSource}`), ['TransactWriteItems inferred', 'UpdateItem call']);
    const py = 'import boto3\ntable = boto3.resource("dynamodb").Table("T")\nP = {"Key": {"id": 1}, "UpdateExpression": "SET a = :a"}\n\n\ndef go():\n    table.update_item(**P)\n';
    assert.deepEqual(extract(py, 'python').sites.map((s) => `${s.api} ${s.apiSource}`), ['UpdateItem call']);
  });

  it('Key with ConditionExpression alone (delete? ConditionCheck?) is the Unknown operation; look-alikes stay silent', () => {
    // The bound literal with TableName is inferApi's DeleteItem (as before); the nested shape adds nothing.
    assert.deepEqual(extract("export const G = { TableName: 'T', Key: { id: 1 }, ConditionExpression: 'attribute_exists(id)', x: { Key: { id: 1 }, ConditionExpression: '#a = :b' } };", 'typescript').sites.map((s) => s.api), ['DeleteItem']);
    assert.deepEqual(extract("export const G = { x: { Key: { id: 1 }, ConditionExpression: '#a = :b' } };", 'typescript').sites.map((s) => s.api), ['Unknown']);
    assert.deepEqual(extract('G = {"x": {"Key": {"id": 1}, "ConditionExpression": "#a = :b"}}\n', 'python').sites.map((s) => s.api), ['Unknown']);
    assert.deepEqual(extract('q = {"Key": {"$eq": 1}, "FilterExpression": "status"}\n', 'python').sites, []);
    assert.deepEqual(extract("const el = { key: 'a', Item: { id: 1 }, FilterExpression: 'visible' };", 'typescript').sites, []);
  });

  it('bad input: 10,000 request-shaped literals in one function, each held by a name, are read in linear work', () => {
    // Each literal's holder, its later mentions and the held-by-another-site test are indexed once per function (the
    // pairwise versions took minutes here); the mocha timeout bounds it.
    const n = 10_000;
    const ts = `export function f() {\n${Array.from({ length: n }, (_, i) => `  const p${i} = { Key: { id: ${i} }, UpdateExpression: 'SET a = :a' };`).join('\n')}\n  p9999.ExpressionAttributeValues = { ':a': 1 };\n  return p0;\n}\n`;
    const tsSites = extract(ts, 'typescript').sites;
    assert.equal(tsSites.length, n);
    assert.equal(tsSites[n - 1].params.complete, false, 'the literal changed later is incomplete');
    assert.equal(tsSites[0].params.complete, false, 'p0 is returned: the caller may complete it');
    assert.equal(tsSites[1].params.complete, true);
    const py = `def f():\n${Array.from({ length: n }, (_, i) => `    p${i} = {"Key": {"id": ${i}}, "UpdateExpression": "SET a = :a"}`).join('\n')}\n    p9999["ExpressionAttributeValues"] = {":a": 1}\n    return p0\n`;
    const pySites = extract(py, 'python').sites;
    assert.equal(pySites.length, n);
    assert.equal(pySites[n - 1].params.complete, false);
    assert.equal(pySites[0].params.complete, false, 'p0 is returned: the caller may complete it');
    assert.equal(pySites[1].params.complete, true);
  });
});
