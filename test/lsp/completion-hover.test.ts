/**
 * Completion and hover inside expression strings over stdio, in JSON, TypeScript and Python. Each case is a
 * document with a `|` marking the cursor; the expected labels are exact (order as the server sends them).
 */
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { extract, initParsers } from '../../server/src/extract';
import { costHover } from '../../server/src/cost';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import { LspClient } from '../support/lsp-client';

let n = 0;
async function openAt(client: LspClient, languageId: string, marked: string) {
  const at = marked.indexOf('|');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const uri = `file:///w/case-${n++}.${languageId === 'python' ? 'py' : languageId === 'json' ? 'json' : 'ts'}`;
  await client.open(uri, languageId, text);
  return { uri, text, position: client.doc(uri).positionAt(at) };
}

const TS_SET = `new UpdateItemCommand({
  TableName: 'T',
  Key: { PK: { S: 'x' }, name: { S: 'y' }, 'odd-name': { S: 'z' } },
  UpdateExpression: 'SET #c = |',
  ExpressionAttributeNames: { '#c': 'count', '#n': 'name' },
  ExpressionAttributeValues: { ':one': { N: '1' } },
});`;

const completionCases: { name: string; languageId: string; text: string; labels: string[]; edits?: Record<string, string> }[] = [
  {
    name: 'TS SET value: value functions, #names, attributes of the Key (a reserved one through its placeholder), :values',
    languageId: 'typescript',
    text: TS_SET,
    labels: ['if_not_exists', 'list_append', '#c', '#n', 'PK', 'name', ':one'],
    edits: { if_not_exists: 'if_not_exists(${1:path}, ${2:value})', name: '#n' },
  },
  {
    name: 'TS after a complete SET action: the clauses not used yet',
    languageId: 'typescript',
    text: `new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: 'SET a = :one |', ExpressionAttributeValues: { ':one': { N: '1' } } });`,
    labels: ['REMOVE', 'ADD', 'DELETE'],
  },
  {
    name: 'TS ConditionExpression at an operand: condition functions and NOT, never update functions',
    languageId: 'typescript',
    text: `new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: 'SET a = :one', ConditionExpression: 'attribute_|', ExpressionAttributeValues: { ':one': { N: '1' } } });`,
    labels: ['NOT', 'attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'PK', ':one'],
  },
  {
    name: 'TS ConditionExpression after an operand: the operators',
    languageId: 'typescript',
    text: `new PutItemCommand({ TableName: 'T', Item: { PK: { S: 'x' } }, ConditionExpression: 'attribute_not_exists(PK) |' });`,
    labels: ['AND', 'OR', 'BETWEEN', 'IN'],
  },
  {
    name: 'TS KeyConditionExpression: only begins_with, no OR/IN/contains',
    languageId: 'typescript',
    text: `new QueryCommand({ TableName: 'T', KeyConditionExpression: 'PK = :pk AND |', ExpressionAttributeValues: { ':pk': { S: '1' } } });`,
    labels: ['begins_with', ':pk'],
  },
  {
    name: 'TS ExpressionAttributeValues map: the placeholders used but not defined, as new entries',
    languageId: 'typescript',
    text: `new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: 'SET a = :one, b = :two, c = :three', ExpressionAttributeValues: { ':one': { N: '1' }, | } });`,
    labels: [':two', ':three'],
    edits: { ':two': "':two': $1" },
  },
  {
    name: 'TS ExpressionAttributeNames map inside a half-typed quoted key',
    languageId: 'typescript',
    text: `new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: 'SET #a = :v REMOVE #b', ExpressionAttributeNames: { '#a': 'a', '#|' }, ExpressionAttributeValues: { ':v': { N: '1' } } });`,
    labels: ['#b'],
    edits: { '#b': '#b' },
  },
  {
    name: 'JSON ADD value position: only :values',
    languageId: 'json',
    text: `{"TableName": "T", "Key": {"PK": {"S": "x"}}, "UpdateExpression": "SET a = :one ADD b :|", "ExpressionAttributeValues": {":one": {"N": "1"}, ":two": {"N": "2"}}}`,
    labels: [':one', ':two'],
  },
  {
    name: 'JSON map: a missing value key, quoted the JSON way',
    languageId: 'json',
    text: `{"TableName": "T", "Key": {"PK": {"S": "x"}}, "UpdateExpression": "ADD n :inc", "ExpressionAttributeValues": {|}}`,
    labels: [':inc'],
    edits: { ':inc': '":inc": $1' },
  },
  {
    name: 'Python keyword argument: #name after a dot is a nested segment (names only)',
    languageId: 'python',
    text: `table.update_item(Key={"PK": k}, UpdateExpression="SET info.| = :one", ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":one": 1})`,
    labels: ['#s'],
  },
  {
    name: 'Python REMOVE path position: attributes and #names',
    languageId: 'python',
    text: `table.update_item(Key={"PK": k, "SK": s}, UpdateExpression="REMOVE |", ExpressionAttributeNames={"#s": "status"})`,
    labels: ['#s', 'PK', 'SK'],
  },
];

describe('lsp: completion and hover in expressions', function () {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
  });
  after(() => client?.stop());

  it('advertises completion (trigger characters # and :) and hover', () => {
    const caps = client.initializeResult.capabilities;
    assert.deepEqual(caps.completionProvider?.triggerCharacters, ['#', ':']);
    assert.equal(caps.hoverProvider, true);
  });

  for (const c of completionCases)
    it(c.name, async () => {
      const { uri, position } = await openAt(client, c.languageId, c.text);
      const items = await client.completion(uri, position);
      assert.deepEqual(items.map((i) => i.label), c.labels);
      for (const [label, newText] of Object.entries(c.edits ?? {})) {
        const item = items.find((i) => i.label === label)!;
        assert.equal(item.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : undefined, newText, label);
      }
      // Every edit replaces the word being typed and ends at the cursor.
      for (const i of items) assert.deepEqual(i.textEdit && 'range' in i.textEdit ? i.textEdit.range.end : undefined, position, i.label);
    });

  it('completes nothing outside expression strings and maps', async () => {
    const { uri, position } = await openAt(client, 'typescript', `new UpdateItemCommand({ TableName: 'T|', Key: { PK: { S: 'x' } }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': { N: '1' } } });`);
    assert.deepEqual(await client.completion(uri, position), []);
  });

  const hoverCases: { name: string; languageId: string; text: string; covers: string; value: string | RegExp }[] = [
    {
      name: 'a function: signature, what it does and where it is allowed (Python)',
      languageId: 'python',
      text: `table.update_item(Key={"PK": k}, UpdateExpression="SET a = if_not_e|xists(a, :z) + :one", ExpressionAttributeValues={":one": 1, ":z": 0})`,
      covers: 'if_not_exists',
      value: /^```\nif_not_exists\(path, value\)\n```\n\nThe attribute at `path` when it exists, otherwise `value`\..*\n\nAllowed in: `UpdateExpression`\.$/s,
    },
    {
      name: 'a function in the wrong expression kind says so (TypeScript KeyConditionExpression)',
      languageId: 'typescript',
      text: `new QueryCommand({ TableName: 'T', KeyConditionExpression: 'PK = :pk AND con|tains(SK, :s)', ExpressionAttributeValues: { ':pk': { S: '1' }, ':s': { S: 'x' } } });`,
      covers: 'contains',
      value: /Allowed in: `ConditionExpression`, `FilterExpression`\.\n\n\*\*Not allowed in `KeyConditionExpression`\*\*: DynamoDB rejects it there\.$/,
    },
    {
      name: 'a keyword (JSON, lower case)',
      languageId: 'json',
      text: `{"TableName": "T", "Key": {"PK": {"S": "x"}}, "UpdateExpression": "a|dd n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}`,
      covers: 'add',
      value: /^```\nADD path :value \[, \.\.\.\]\n```\n\nAdds a number/,
    },
    {
      name: 'a #name shows what it maps to',
      languageId: 'typescript',
      text: TS_SET.replace("'SET #c = |'", "'SET #|c = :one'"),
      covers: '#c',
      value: "`#c` (ExpressionAttributeNames)\n\n```\n'count'\n```",
    },
    {
      name: 'an undefined :value says so',
      languageId: 'typescript',
      text: TS_SET.replace("'SET #c = |'", "'SET #c = :tw|o'"),
      covers: ':two',
      value: '`:two` is not defined in `ExpressionAttributeValues`.',
    },
  ];

  for (const c of hoverCases)
    it(`hover: ${c.name}`, async () => {
      const { uri, position } = await openAt(client, c.languageId, c.text);
      const h = await client.hover(uri, position);
      assert.ok(h?.range, 'hover without a range');
      assert.equal(client.slice(uri, h.range), c.covers);
      const value = (h.contents as MarkupContent).value;
      if (typeof c.value === 'string') assert.equal(value, c.value);
      else assert.match(value, c.value);
    });

  it('hover on the operation name is the cost estimate (delegated to the cost model)', async () => {
    const marked = `new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } });`;
    const { uri, text, position } = await openAt(client, 'typescript', marked.replace('UpdateItemCommand', 'Update|ItemCommand'));
    const h = await client.hover(uri, position);
    const expected = costHover(extract(text, 'typescript').sites[0], DEFAULT_SETTINGS);
    assert.ok(expected.includes('WCU'));
    assert.equal((h?.contents as MarkupContent).value, expected);
    const onKey = await client.hover(uri, client.positionOf(uri, 'UpdateExpression', 3));
    assert.equal((onKey?.contents as MarkupContent).value, expected);
  });

  // The cost hover in every host language: on the operation, the figures the cost model computes for that request.
  const costCases: { name: string; languageId: string; marked: string; units: RegExp }[] = [
    {
      name: 'JSON like transaction (Put child + ADD on the parent): about 4 WCU',
      languageId: 'json',
      marked: `{"Trans|actItems": [
  {"Put": {"TableName": "Social", "Item": {"PK": {"S": "POST#a91f"}, "SK": {"S": "LIKE#USER#7c20"}}, "ConditionExpression": "attribute_not_exists(SK)"}},
  {"Update": {"TableName": "Social", "Key": {"PK": {"S": "POST#a91f"}, "SK": {"S": "META"}}, "UpdateExpression": "ADD likeTally :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}
]}`,
      units: /\*\*Per call:\*\* 4 WCU/,
    },
    {
      name: 'Python boto3 Table update_item: 1 WCU',
      languageId: 'python',
      marked: `import boto3\ntable = boto3.resource("dynamodb").Table("Videos")\ntable.update_i|tem(Key={"PK": "VID#9f3a", "SK": "STATS#TOTAL"}, UpdateExpression="ADD play_count :one", ExpressionAttributeValues={":one": 1})\n`,
      units: /\*\*Per call:\*\* 1 WCU/,
    },
    {
      name: 'Python boto3 client query with Select COUNT: read units',
      languageId: 'python',
      marked: `import boto3\nclient = boto3.client("dynamodb")\nclient.qu|ery(TableName="Social", KeyConditionExpression="PK = :pk AND begins_with(SK, :p)", ExpressionAttributeValues={":pk": {"S": "POST#a91f"}, ":p": {"S": "LIKE#"}}, Select="COUNT")\n`,
      units: /RCU/,
    },
  ];
  for (const c of costCases)
    it(`cost hover: ${c.name}`, async () => {
      await initParsers();
      const { uri, text, position } = await openAt(client, c.languageId, c.marked);
      const h = await client.hover(uri, position);
      const value = (h?.contents as MarkupContent | undefined)?.value ?? '';
      assert.equal(value, costHover(extract(text, c.languageId).sites[0], DEFAULT_SETTINGS));
      assert.match(value, c.units);
    });

  it('no hover outside requests', async () => {
    const { uri, position } = await openAt(client, 'typescript', `const x| = 1;\nnew UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'x' } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } });`);
    assert.equal(await client.hover(uri, position), null);
  });
});
