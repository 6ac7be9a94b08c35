import { strict as assert } from 'node:assert';
import { createDocumentExtractor, extract, initParsers } from '../../../server/src/extract';
import { shiftSite } from '../../../server/src/extract/remap';
import { operationsOf } from '../../../server/src/extract/operations';
import { transactionOf } from '../../../server/src/rules/analysis';
import { TableIndex } from '../../../server/src/tables';
import { extractTables } from '../../../server/src/tables/extract';

/**
 * Results cached per site across edits (rules/analysis.ts `transactionOf`, the table index's `forOperation`) must
 * give the ranges of the site as it is now: a compact node's `range` is a copy (core/compact.ts), so a range read once
 * and kept is not moved by `shiftSite` with its node. Found by review of the compact nodes.
 */
describe('ranges of results cached per site across edits', () => {
  before(initParsers);

  it('transactionOf: an entry that could not be read keeps pointing at it after an edit above the request', () => {
    const body = `
async function like(doc: any, e: any) {
  await doc.send(new TransactWriteCommand({ TransactItems: [makeItem(e), { ...e }, { Put: makePut() }, { Put: { TableName: 'T', Item: { pk: 'a' } } }] }));
}
`;
    const head = `import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';\n`;
    const v1 = `${head}const a = 1;\n${body}`;
    const v2 = `${head}const a = 12345;\n${body}`;
    const doc = createDocumentExtractor('typescript');
    const [s1] = doc.update(v1).sites;
    const unread1 = transactionOf(s1)!.unread.map((u) => v1.slice(u.range.start, u.range.end));
    assert.deepEqual(unread1, ['makeItem(e)', '{ ...e }', '{ Put: makePut() }']);
    const [s2] = doc.update(v2).sites;
    assert.equal(s2, s1, 'the untouched statement hands back the same site (moved), so its cached result is used');
    assert.deepEqual(
      transactionOf(s2)!.unread.map((u) => v2.slice(u.range.start, u.range.end)),
      unread1,
    );
  });

  it('forOperation: the table name range follows its node when the node moved and the request did not', () => {
    const template = `Resources:
  Likes:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: likes
      AttributeDefinitions: [{AttributeName: PK, AttributeType: S}]
      KeySchema: [{AttributeName: PK, KeyType: HASH}]
`;
    const index = TableIndex.from([extractTables('file:///w/template.yaml', 'template.yaml', template, 'yaml')]);
    const text = `import boto3

def like(post_id):
    table.put_item(Item={"PK": post_id})

table = boto3.resource("dynamodb").Table("likes")
`;
    const [site] = extract(text, 'python').sites;
    assert.ok(site.receiverTable, 'the receiver table is known');
    const [op] = operationsOf(site);
    const first = index.forOperation(op)!;
    assert.equal(text.slice(first.range.start, first.range.end), '"likes"');
    // Three characters typed between the request and the table's declaration: the table moves, the request does not.
    const at = text.indexOf('table = ');
    const moved = text.slice(0, at) + '   ' + text.slice(at);
    shiftSite(site, at, 3);
    const again = index.forOperation(op)!;
    assert.equal(moved.slice(again.range.start, again.range.end), '"likes"');
  });
});
