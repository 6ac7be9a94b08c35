/**
 * Cost with the table known (issue 14): index writes per GSI/LSI by projection, key changes as delete + put, sparse
 * puts, the billing mode first. The workspace index is in memory, built from template text; requests from TypeScript.
 */
import assert from 'node:assert/strict';
import { costHover, estimate } from '../../../server/src/cost';
import { extract } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { TableIndex } from '../../../server/src/tables';
import { extractTables } from '../../../server/src/tables/extract';

const TEMPLATE = (billing: string, lsi = '') => `Resources:
  PostsTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: posts
${billing}      AttributeDefinitions:
        - { AttributeName: PK, AttributeType: S }
        - { AttributeName: SK, AttributeType: S }
        - { AttributeName: author, AttributeType: S }
        - { AttributeName: created, AttributeType: S }
      KeySchema:
        - { AttributeName: PK, KeyType: HASH }
        - { AttributeName: SK, KeyType: RANGE }
      GlobalSecondaryIndexes:
        - IndexName: byAuthor
          KeySchema:
            - { AttributeName: author, KeyType: HASH }
            - { AttributeName: created, KeyType: RANGE }
          Projection: { ProjectionType: INCLUDE, NonKeyAttributes: [title] }
        - IndexName: keysOnly
          KeySchema:
            - { AttributeName: author, KeyType: HASH }
          Projection: { ProjectionType: KEYS_ONLY }
        - IndexName: everything
          KeySchema:
            - { AttributeName: created, KeyType: HASH }
          Projection: { ProjectionType: ALL }
${lsi}`;

const LSI = `      LocalSecondaryIndexes:
        - IndexName: byCreated
          KeySchema:
            - { AttributeName: PK, KeyType: HASH }
            - { AttributeName: created, KeyType: RANGE }
          Projection: { ProjectionType: KEYS_ONLY }
`;

const indexOf = (template: string) => TableIndex.from([extractTables('file:///w/template.yaml', 'template.yaml', template, 'yaml')]);
const PPR = indexOf(TEMPLATE('      BillingMode: PAY_PER_REQUEST\n'));
const DEFAULT = indexOf(TEMPLATE(''));
const WITH_LSI = indexOf(TEMPLATE('      BillingMode: PROVISIONED\n', LSI));

const BODY = 'x'.repeat(2000);
const PUT_FULL = `doc.send(new PutCommand({ TableName: 'posts', Item: { PK: 'POST#1', SK: 'META', author: 'ann', created: '2026-01-01', title: 'Hi', body: '${BODY}' } }));`;

interface Case {
  name: string;
  code: string;
  tables?: TableIndex;
  /** [index, units, why] per index write of the first operation. */
  index: Array<[string, number, string]>;
  wcu: number;
  gsi: number;
  lsi?: number;
  billing?: string;
  assumption?: RegExp;
}

const cases: Case[] = [
  {
    name: 'Put with every index key: INCLUDE and KEYS_ONLY by their projection, ALL by the whole item',
    code: PUT_FULL,
    tables: PPR,
    // Item ~2.05 KB -> 3 WCU; INCLUDE = keys + title (small) -> 1; KEYS_ONLY -> 1; ALL = item -> 3.
    index: [['byAuthor', 1, 'put'], ['keysOnly', 1, 'put'], ['everything', 3, 'put']],
    wcu: 3 + 5,
    gsi: 5,
    billing: 'PAY_PER_REQUEST',
  },
  {
    name: 'sparse: a complete item without `created` is not written to byAuthor or everything',
    code: `doc.send(new PutCommand({ TableName: 'posts', Item: { PK: 'POST#1', SK: 'META', author: 'ann' } }));`,
    tables: PPR,
    index: [['keysOnly', 1, 'put']],
    wcu: 2,
    gsi: 1,
    billing: 'PAY_PER_REQUEST',
  },
  {
    name: 'Update of an index key attribute: delete + put in each index keyed on it; ALL indexes on any change',
    code: `doc.send(new UpdateCommand({ TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' }, UpdateExpression: 'SET author = :a', ExpressionAttributeValues: { ':a': 'bob' } }));`,
    tables: PPR,
    index: [['byAuthor', 2, 'key change'], ['keysOnly', 2, 'key change'], ['everything', 1, 'projected attribute']],
    wcu: 1 + 5,
    gsi: 5,
    billing: 'PAY_PER_REQUEST',
    assumption: /delete \+ put \(2 writes\)/,
  },
  {
    name: 'Update of an INCLUDE attribute (through a #name): one write there and in ALL; KEYS_ONLY untouched',
    code: `doc.send(new UpdateCommand({ TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' }, UpdateExpression: 'SET #t = :t', ExpressionAttributeNames: { '#t': 'title' }, ExpressionAttributeValues: { ':t': 'x' } }));`,
    tables: PPR,
    index: [['byAuthor', 1, 'projected attribute'], ['everything', 1, 'projected attribute']],
    wcu: 3,
    gsi: 2,
    billing: 'PAY_PER_REQUEST',
  },
  {
    name: 'Delete: one write per index (the stored item is assumed to be in each)',
    code: `doc.send(new DeleteCommand({ TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' } }));`,
    tables: DEFAULT,
    index: [['byAuthor', 1, 'delete'], ['keysOnly', 1, 'delete'], ['everything', 1, 'delete']],
    wcu: 4,
    gsi: 3,
    // BillingMode absent on AWS::DynamoDB::Table: PROVISIONED (documented default).
    billing: 'PROVISIONED',
    assumption: /assume the stored item is in each index/,
  },
  {
    name: 'LSI writes count on the table capacity, apart from GSI writes',
    code: `doc.send(new UpdateCommand({ TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' }, UpdateExpression: 'SET created = :c', ExpressionAttributeValues: { ':c': '2026' } }));`,
    tables: WITH_LSI,
    index: [['byAuthor', 2, 'key change'], ['everything', 2, 'key change'], ['byCreated', 2, 'key change']],
    wcu: 1 + 6,
    gsi: 4,
    lsi: 2,
    billing: 'PROVISIONED',
  },
  {
    name: 'a read adds nothing, but the billing mode is known',
    code: `doc.send(new GetCommand({ TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' } }));`,
    tables: PPR,
    index: [],
    wcu: 0,
    gsi: 0,
    billing: 'PAY_PER_REQUEST',
  },
  {
    name: 'unknown table: as without an index (no index writes, no billing mode)',
    code: `doc.send(new PutCommand({ TableName: 'other', Item: { PK: 'a', SK: 'b', author: 'c', created: 'd' } }));`,
    tables: PPR,
    index: [],
    wcu: 1,
    gsi: 0,
  },
  {
    name: 'an UpdateExpression that is not literal: index writes not counted, and said',
    code: `doc.send(new UpdateCommand({ TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' }, UpdateExpression: expr }));`,
    tables: PPR,
    index: [],
    wcu: 1,
    gsi: 0,
    billing: 'PAY_PER_REQUEST',
    assumption: /not a literal; writes to the indexes of PostsTable are not counted/,
  },
];

describe('cost: index writes and billing mode from the workspace index', () => {
  for (const c of cases) {
    it(c.name, () => {
      const site = extract(c.code, 'typescript').sites[0];
      const e = estimate(site, DEFAULT_SETTINGS, c.tables);
      assert.deepEqual(
        (e.operations[0].indexWrites ?? []).map((w) => [w.index, w.units, w.why]),
        c.index,
      );
      assert.equal(e.wcu, c.wcu);
      assert.equal(e.gsiWcu, c.gsi);
      assert.equal(e.lsiWcu, c.lsi ?? 0);
      assert.equal(e.billing?.mode, c.billing);
      if (c.assumption) assert.ok(e.assumptions.some((a) => c.assumption!.test(a)), JSON.stringify(e.assumptions));
    });
  }

  it('without an index the estimate is the request-only one', () => {
    const site = extract(PUT_FULL, 'typescript').sites[0];
    assert.equal(costHover(site, DEFAULT_SETTINGS), costHover(site, DEFAULT_SETTINGS, new TableIndex()));
    assert.equal(estimate(site, DEFAULT_SETTINGS).wcu, 3);
  });

  it('hover: index rows under the write, table + GSI units, the table mode first', () => {
    const site = extract(PUT_FULL, 'typescript').sites[0];
    const md = costHover(site, DEFAULT_SETTINGS, PPR);
    assert.match(md, /\| ↳ GSI `byAuthor` \(INCLUDE\) \| \d+ B \| 1 WCU \(put\) \|/);
    assert.match(md, /\*\*Per call:\*\* 8 WCU \(table 3 WCU \+ GSI 5 WCU\) · billing mode `PAY_PER_REQUEST`, `PostsTable \(template\.yaml:2\)`/);
    const lines = md.split('\n');
    const onDemand = lines.findIndex((l) => l.startsWith('**On-demand** (this table)'));
    const provisioned = lines.findIndex((l) => l.startsWith('Provisioned instead'));
    assert.ok(onDemand > 0 && provisioned === onDemand + 1, md);
    const prov = costHover(site, DEFAULT_SETTINGS, DEFAULT);
    assert.match(prov, /billing mode `PROVISIONED` \(BillingMode not given: the default\)/);
    assert.match(prov, /\*\*Provisioned\*\* \(this table\) for 1 call\/s: .*\nOn-demand instead: /);
  });

  it('a transaction: index writes at the standard rate, and said', () => {
    const code = `doc.send(new TransactWriteCommand({ TransactItems: [{ Delete: { TableName: 'posts', Key: { PK: 'POST#1', SK: 'META' } } }] }));`;
    const e = estimate(extract(code, 'typescript').sites[0], DEFAULT_SETTINGS, PPR);
    assert.equal(e.wcu, 2 + 3);
    assert.ok(e.assumptions.some((a) => /standard rate/.test(a)), JSON.stringify(e.assumptions));
  });
});
