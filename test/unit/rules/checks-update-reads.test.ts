/**
 * The counter rules read an Update action once per operation object (rules/update-reads.ts): the parsed
 * UpdateExpression, condition, names map and counter actions are shared by the rules asking for them, and are what
 * analysis.ts computes for the action.
 */
import { strict as assert } from 'node:assert';
import { extract } from '../../../server/src/extract';
import { conditionOf, counterActions, namesOf, operations, updateOf } from '../../../server/src/rules/analysis';
import { updateReads } from '../../../server/src/rules/update-reads';

const text = `import { DynamoDBDocumentClient, UpdateCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
export async function f(id) {
  await doc.send(new UpdateCommand({ TableName: 'Posts', Key: { PK: id }, UpdateExpression: 'SET #c = #c + :one ADD views :one', ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeNames: { '#c': 'likes' }, ExpressionAttributeValues: { ':one': 1 } }));
  await doc.send(new UpdateCommand({ TableName: 'Posts', Key: { PK: id }, UpdateExpression: 'SET = broken' }));
  await doc.send(new PutCommand({ TableName: 'Posts', Item: { PK: id } }));
}
`;

describe('update-reads: an Update action read once for the counter rules', () => {
  const { sites } = extract(text, 'typescript');
  const [counter, broken, put] = sites.map((s) => operations(s)[0]);

  it('one object per operation, its parts computed once and what analysis.ts gives', () => {
    const r = updateReads(counter)!;
    assert.equal(updateReads(counter), r);
    assert.deepEqual(r.upd, updateOf(counter.params));
    assert.equal(r.condition(), r.condition());
    assert.deepEqual(r.condition(), conditionOf(counter.params));
    assert.equal(r.namesMap(), r.namesMap());
    assert.deepEqual(r.namesMap(), namesOf(counter.params));
    assert.equal(r.counterActions(), r.counterActions());
    assert.deepEqual(r.counterActions(), counterActions(counter, r.upd));
    assert.deepEqual(
      r.counterActions().map((c) => [c.form, c.key]),
      [
        ['set', 'likes'],
        ['add', 'views'],
      ],
    );
  });

  it('none for an UpdateExpression that does not parse, or no UpdateExpression (asked once)', () => {
    assert.equal(updateReads(broken), undefined);
    assert.equal(updateReads(broken), undefined);
    assert.equal(updateReads(put), undefined);
  });
});
