/**
 * `TsDocument.stringEdit` (an edit inside an expression string re-extracts nothing) must not be taken when the edited
 * literal's value reaches another site, or when a forwarded copy's arms count inside the edited helper: each case
 * equals a fresh extraction (review of session 10: spreads and named literals were missed by a walk that skipped
 * subtrees by their range; a forwarded copy kept its old arm ids).
 */
import { strict as assert } from 'node:assert';
import { TsDocument } from '../../../server/src/extract/typescript';

const HEAD = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export class Repo {
  async m(id: string) {
`;
const P = `    const p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } };
    await ddb.send(new UpdateCommand(p));
`;
const TAIL = `  }
}
`;
const cases: [string, string][] = [
  ['a transaction item naming the literal', HEAD + P + `    await ddb.send(new TransactWriteCommand({ TransactItems: [{ Update: p }] }));\n` + TAIL],
  ['a spread of the literal', HEAD + P + `    await ddb.send(new UpdateCommand({ ...p, TableName: 'Other' }));\n` + TAIL],
  ['a concatenation of the property', HEAD + P + `    await ddb.send(new UpdateCommand({ TableName: 'T', Key: { id }, UpdateExpression: p.UpdateExpression + ', b = :v', ExpressionAttributeValues: { ':v': 1 } }));\n` + TAIL],
  ['the property read by another request', HEAD + P + `    await ddb.send(new UpdateCommand({ TableName: 'U', Key: { id }, UpdateExpression: p.UpdateExpression, ExpressionAttributeValues: { ':v': 1 } }));\n` + TAIL],
  [
    'a local constant used alone and joined',
    HEAD +
      `    const e = 'SET a = :v';
    await ddb.send(new UpdateCommand({ TableName: 'T', Key: { id }, UpdateExpression: e, ExpressionAttributeValues: { ':v': 1 } }));
    await ddb.send(new UpdateCommand({ TableName: 'U', Key: { id }, UpdateExpression: e + ', b = :v', ExpressionAttributeValues: { ':v': 1 } }));
` +
      TAIL,
  ],
  [
    "a forwarded copy whose helper holds the edit (the copy's arm ids)",
    HEAD +
      `    const h = async () => {
      const k = async () => {
        await ddb.send(new UpdateCommand({ TableName: 'T', Key: { id }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } }));
      };
      if (id) await ddb.send(new PutCommand({ TableName: 'T', Item: { id } }));
      else await ddb.send(new PutCommand({ TableName: 'U', Item: { id } }));
    };
    const g = async () => {
      await h();
    };
` +
      TAIL,
  ],
];

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

describe('stringEdit: the edited literal reaching other sites', () => {
  for (const [name, text0] of cases)
    for (const typed of ['b, ', 'x'])
      it(`${name}, typing ${JSON.stringify(typed)}: equals a fresh extraction`, () => {
        const doc = new TsDocument('typescript', 'typescript');
        doc.full(text0);
        const at = text0.indexOf("'SET a = :v'") + 5;
        const text = text0.slice(0, at) + typed + text0.slice(at);
        const got = doc.update(text, { start: at, oldEnd: at, newEnd: at + typed.length });
        assert.deepEqual(json(got), json(new TsDocument('typescript', 'typescript').full(text)));
      });
});
