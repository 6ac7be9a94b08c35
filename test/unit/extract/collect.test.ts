/**
 * What `TsDocument.collect` hands back after every update: the sites in document order, a request-shaped literal held
 * by another site's parameters dropped (a transaction's entry), one not held kept, across incremental edits in other
 * statements and in the statements themselves.
 */
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, RequestSite } from '../../../server/src/extract';

const TEXT = `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const params = { TableName: 'Posts', Key: { id: 1 }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } };

async function later() {
  /*A*/
  await doc.send(new UpdateCommand(params));
}

async function loose() {
  /*B*/
  const p = { TableName: 'Posts', Key: { id: 2 }, UpdateExpression: 'SET b = :b', ExpressionAttributeValues: { ':b': 2 } };
  await run(p);
}

async function first() {
  /*C*/
  await doc.send(new UpdateCommand({ TableName: 'Posts', Key: { id: 3 }, UpdateExpression: 'SET c = :c', ExpressionAttributeValues: { ':c': 3 } }));
}
export const T = { TransactItems: [{ Update: { TableName: 'Posts', Key: { id: 4 }, UpdateExpression: 'SET d = :d' } }] };
`;

const summary = (text: string, sites: RequestSite[]) => sites.map((s) => `${s.api} ${text.slice(s.params.range.start, s.params.range.start + 36)}`);

describe('TsDocument.collect', () => {
  it('sites in order, a held literal dropped and a loose one kept, after edits anywhere', () => {
    const d = createDocumentExtractor('typescript');
    let text = TEXT;
    const expected = ["UpdateItem { TableName: 'Posts', Key: { id: 1 }", "UpdateItem { TableName: 'Posts', Key: { id: 2 }", "UpdateItem { TableName: 'Posts', Key: { id: 3 }", 'TransactWriteItems { TransactItems: [{ Update: { TableN'];
    const check = (sites: RequestSite[]) => {
      for (let k = 1; k < sites.length; k++) assert.ok(sites[k - 1].range.start <= sites[k].range.start, 'in document order');
      const got = summary(text, sites);
      assert.deepEqual(got, expected);
    };
    check(d.update(text).sites);
    for (const mark of ['/*A*/', '/*B*/', '/*C*/', "'SET a = :a'", "'SET b = :b'", "'SET d = :d'"]) {
      for (let k = 0; k < 2; k++) {
        const at = text.indexOf(mark) + 2;
        text = text.slice(0, at) + ' ' + text.slice(at);
        check(d.update(text, [{ start: at, end: at, text: ' ' }]).sites);
      }
    }
  });
});
