/**
 * A template literal or f-string with substitutions has unknown text but is surely a string: sent by a DocumentClient or
 * a boto3 Table as a value it is an S, so `ADD n :d` with it is rejected. In low-level style it is only the text of an
 * `{N: ...}`, which is fine.
 */
import { strict as assert } from 'node:assert';
import { lint, parsersReady, slice } from './check';

const CASES: { name: string; lang: string; code: string; expect: string[] }[] = [
  {
    name: 'lib-dynamodb: ADD with a template literal value',
    lang: 'typescript',
    code: "import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nexport const c = (id: string, delta: number) => new UpdateCommand({ TableName: 'T', Key: { PK: id }, UpdateExpression: 'ADD plays :d', ExpressionAttributeValues: { ':d': `${delta}` } });\n",
    expect: ['add-on-non-number'],
  },
  {
    name: 'low-level: the same template as the text of an N is fine',
    lang: 'typescript',
    code: "import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';\nexport const c = (id: string, delta: number) => new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: id } }, UpdateExpression: 'ADD plays :d', ExpressionAttributeValues: { ':d': { N: `${delta}` } } });\n",
    expect: [],
  },
  {
    name: 'boto3 Table: ADD with an f-string value',
    lang: 'python',
    code: "import boto3\ntable = boto3.resource('dynamodb').Table('T')\ndef f(pk, d):\n    table.update_item(Key={'PK': pk}, UpdateExpression='ADD plays :d', ExpressionAttributeValues={':d': f'{d}'})\n",
    expect: ['add-on-non-number'],
  },
  {
    name: 'boto3 client: an f-string as the text of an N is fine',
    lang: 'python',
    code: "import boto3\nclient = boto3.client('dynamodb')\ndef f(pk, d):\n    client.update_item(TableName='T', Key={'PK': {'S': pk}}, UpdateExpression='ADD plays :d', ExpressionAttributeValues={':d': {'N': f'{d}'}})\n",
    expect: [],
  },
];

describe('string-typed unknown values', () => {
  before(parsersReady);
  for (const c of CASES) {
    it(c.name, () => {
      const found = lint(c.code, c.lang).filter((f) => f.severity === 'error');
      assert.deepEqual(found.map((f) => f.ruleId), c.expect, found.map((f) => `${f.ruleId}: ${slice(c.code, f)} ${f.message}`).join('\n'));
      for (const f of found) assert.deepEqual(f.fixes?.filter((x) => x.safe) ?? [], [], 'no safe fix for an unknown string');
    });
  }
});
