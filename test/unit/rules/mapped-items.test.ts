/**
 * Transaction and batch items built by a callback (`ids.map((id) => ({ Put: {...} }))`, spread or not) or a Python list
 * comprehension: the element is linted as a representative item whose variables are unknown, and the array counts as
 * incomplete (other items may exist), so rules that need the whole list stay silent.
 */
import { strict as assert } from 'node:assert';
import { lint, parsersReady, slice } from './check';
import { applyEdits } from '../../../server/src/fix/apply';

const TS = `import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';\n`;
const PY = `import boto3\nclient = boto3.client('dynamodb')\n`;

/** Each case: code, language, and the findings expected as `ruleId: flagged text`. */
const CASES: { name: string; lang: string; code: string; expect: string[] }[] = [
  {
    name: 'TS: UpdateRequest built by .map in a BatchWrite',
    lang: 'typescript',
    code: `${TS}await doc.send(new BatchWriteCommand({ RequestItems: { Stats: ids.map((id) => ({ UpdateRequest: { Key: { PK: id }, UpdateExpression: 'ADD plays :one', ExpressionAttributeValues: { ':one': 1 } } })) } }));\n`,
    expect: ['batch-write-update-or-condition: UpdateRequest'],
  },
  {
    name: 'TS: a block-bodied callback with one return; the reserved word and placeholders inside it',
    lang: 'typescript',
    code: `${TS}await doc.send(new TransactWriteCommand({ TransactItems: ids.map(function (id) { return { Update: { TableName: 'T', Key: { PK: id }, UpdateExpression: 'SET status = :x', ExpressionAttributeValues: { ':closed': 'c' } } }; }) }));\n`,
    expect: ['reserved-word: status', 'undefined-value: :x', "unused-value: ':closed'"],
  },
  {
    name: 'TS: mapped child Puts spread next to the counter update, unguarded',
    lang: 'typescript',
    code: `${TS}await doc.send(new TransactWriteCommand({ TransactItems: [...users.map((u) => ({ Put: { TableName: 'Social', Item: { PK: postId, SK: \`LIKE#\${u}\` } } })), { Update: { TableName: 'Social', Key: { PK: postId, SK: 'META' }, UpdateExpression: 'ADD likeTally :n', ExpressionAttributeValues: { ':n': users.length } } }] }));\n`,
    expect: ['unguarded-add-in-transaction: Put'],
  },
  {
    name: 'TS: the same with the guard in the callback is clean',
    lang: 'typescript',
    code: `${TS}await doc.send(new TransactWriteCommand({ TransactItems: [...users.map((u) => ({ Put: { TableName: 'Social', Item: { PK: postId, SK: \`LIKE#\${u}\` }, ConditionExpression: 'attribute_not_exists(SK)' } })), { Update: { TableName: 'Social', Key: { PK: postId, SK: 'META' }, UpdateExpression: 'ADD likeTally :n', ExpressionAttributeValues: { ':n': users.length } } }] }));\n`,
    expect: [],
  },
  {
    name: 'TS: counters only from a map: other items may exist, so no "no guarded child" warning',
    lang: 'typescript',
    code: `${TS}await doc.send(new TransactWriteCommand({ TransactItems: ids.map((id) => ({ Update: { TableName: 'T', Key: { PK: id }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } })) }));\n`,
    expect: [],
  },
  {
    name: 'TS: a mapped element next to 100 literal actions is not "at least 101" (the map may be empty)',
    lang: 'typescript',
    code: `${TS}await doc.send(new TransactWriteCommand({ TransactItems: [...ids.map((id) => ({ ConditionCheck: { TableName: 'T', Key: { PK: id }, ConditionExpression: 'attribute_exists(PK)' } })), ${Array.from({ length: 100 }, (_, i) => `{ Put: { TableName: 'T', Item: { PK: 'P#${i}' } } }`).join(', ')}] }));\n`,
    expect: [],
  },
  {
    name: 'TS: a callback with several returns has no single element shape: nothing is assumed',
    lang: 'typescript',
    code: `${TS}await doc.send(new BatchWriteCommand({ RequestItems: { T: ids.map((id) => { if (id) { return { DeleteRequest: { Key: { PK: id } } }; } return { UpdateRequest: { Key: { PK: id }, UpdateExpression: 'ADD n :one' } }; }) } }));\n`,
    expect: [],
  },
  {
    name: 'Python: UpdateRequest built by a list comprehension',
    lang: 'python',
    code: `${PY}client.batch_write_item(RequestItems={'Stats': [{'UpdateRequest': {'Key': {'PK': {'S': v}}, 'UpdateExpression': 'ADD plays :one', 'ExpressionAttributeValues': {':one': {'N': '1'}}}} for v in ids]})\n`,
    expect: ["batch-write-update-or-condition: 'UpdateRequest'"],
  },
  {
    name: 'Python: a comprehension splatted next to the counter, unguarded',
    lang: 'python',
    code: `${PY}client.transact_write_items(TransactItems=[*[{'Put': {'TableName': 'Social', 'Item': {'PK': {'S': p}, 'SK': {'S': 'LIKE#' + u}}}} for u in users], {'Update': {'TableName': 'Social', 'Key': {'PK': {'S': p}, 'SK': {'S': 'META'}}, 'UpdateExpression': 'ADD likeTally :n', 'ExpressionAttributeValues': {':n': {'N': '1'}}}}])\n`,
    expect: ["unguarded-add-in-transaction: 'Put'"],
  },
];

describe('items built by .map callbacks and comprehensions', () => {
  before(parsersReady);
  for (const c of CASES) {
    it(c.name, () => {
      const found = lint(c.code, c.lang).filter((f) => f.severity !== 'hint');
      assert.deepEqual(found.map((f) => `${f.ruleId}: ${slice(c.code, f)}`).sort(), [...c.expect].sort());
    });
  }
  it('the guard fix lands inside the callback', () => {
    const c = CASES[2];
    const f = lint(c.code, c.lang).find((x) => x.ruleId === 'unguarded-add-in-transaction')!;
    const after = applyEdits(c.code, f.fixes![0].edits);
    assert.match(after, /users\.map\(\(u\) => \(\{ Put: \{ TableName: 'Social', Item: \{ PK: postId, SK: `LIKE#\$\{u\}` \}, ConditionExpression: 'attribute_not_exists\(SK\)' \} \}\)\)/);
    assert.deepEqual(lint(after, c.lang).filter((x) => x.severity !== 'hint').map((x) => x.ruleId), []);
  });
});
