/**
 * Issue 8 fixes, data-driven: per fix and per request style (SDK v3 low-level, lib-dynamodb DocumentClient, SDK v2
 * DocumentClient, boto3 client, boto3 resource, AWS CLI JSON): the text before, the text after, the safe flag, and
 * a re-lint showing no Error of that kind left.
 */
import { strict as assert } from 'node:assert';
import { FixCase, checkFix, fixAllExpressions, lintExpressions, ready } from './helpers';
import { pairTypos, typoDistance } from '../../../server/src/fix/expression-fixes';
import { applyEdits } from '../../../server/src/fix/apply';

const v3 = (body: string) => `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';\nexport const cmd = new UpdateItemCommand({\n${body}\n});\n`;
const lib = (body: string) => `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nawait doc.send(new UpdateCommand({ ${body} }));\n`;
const v2 = (body: string) => `const AWS = require('aws-sdk');\nconst docClient = new AWS.DynamoDB.DocumentClient();\ndocClient.update({ ${body} }).promise();\n`;
const boto = (body: string) => `import boto3\nclient = boto3.client('dynamodb')\nclient.update_item(\n${body}\n)\n`;
const res = (body: string) => `import boto3\ntable = boto3.resource('dynamodb').Table('Posts')\ntable.update_item(${body})\n`;

const cases: FixCase[] = [
  /* ---------------------------------------------------------------- reserved words ---------------------------- */
  {
    name: 'reserved word, SDK v3 low-level, names map created (multi-line, trailing comma)',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: true,
    before: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET status = :s',\n  ExpressionAttributeValues: { ':s': { S: 'open' } },`),
    after: v3(
      `  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET #status = :s',\n  ExpressionAttributeValues: { ':s': { S: 'open' } },\n  ExpressionAttributeNames: { '#status': 'status' },`,
    ),
  },
  {
    name: 'reserved word in both the update and the condition, DocumentClient (lib-dynamodb), one line',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: true,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET status = :s', ConditionExpression: 'status <> :s', ExpressionAttributeValues: { ':s': 'open' }`),
    after: lib(
      `TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #status = :s', ConditionExpression: '#status <> :s', ExpressionAttributeValues: { ':s': 'open' }, ExpressionAttributeNames: { '#status': 'status' }`,
    ),
  },
  {
    name: 'reserved word with an existing names map (entry added), SDK v2 DocumentClient, double quotes',
    languageId: 'javascript',
    ruleId: 'reserved-word',
    safe: true,
    before: v2(`TableName: "Posts", Key: { PK: "POST#1" }, UpdateExpression: "SET #t = :t, date = :d", ExpressionAttributeNames: { "#t": "title" }, ExpressionAttributeValues: { ":t": "x", ":d": "2026-11-30" }`),
    after: v2(
      `TableName: "Posts", Key: { PK: "POST#1" }, UpdateExpression: "SET #t = :t, #date = :d", ExpressionAttributeNames: { "#t": "title", "#date": "date" }, ExpressionAttributeValues: { ":t": "x", ":d": "2026-11-30" }`,
    ),
  },
  {
    name: 'nested segment in update and condition, boto3 client kwargs',
    languageId: 'python',
    ruleId: 'reserved-word',
    safe: true,
    before: boto(
      `    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET info.status = :s',\n    ConditionExpression='attribute_exists(info.status)',\n    ExpressionAttributeValues={':s': {'S': 'open'}},`,
    ),
    after: boto(
      `    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET info.#status = :s',\n    ConditionExpression='attribute_exists(info.#status)',\n    ExpressionAttributeValues={':s': {'S': 'open'}},\n    ExpressionAttributeNames={'#status': 'status'},`,
    ),
  },
  {
    name: 'placeholder name collision (#status maps to another attribute), boto3 resource',
    languageId: 'python',
    ruleId: 'reserved-word',
    safe: true,
    before: res(`Key={'PK': 'POST#1'}, UpdateExpression='SET #status = :v, status = :s', ExpressionAttributeNames={'#status': 'state'}, ExpressionAttributeValues={':v': 1, ':s': 'open'}`),
    after: res(
      `Key={'PK': 'POST#1'}, UpdateExpression='SET #status = :v, #status1 = :s', ExpressionAttributeNames={'#status': 'state', '#status1': 'status'}, ExpressionAttributeValues={':v': 1, ':s': 'open'}`,
    ),
  },
  {
    name: 'an existing placeholder mapping to the word is reused (no new entry)',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: true,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #st = :s', ConditionExpression: 'status <> :s', ExpressionAttributeNames: { '#st': 'status' }, ExpressionAttributeValues: { ':s': 'open' }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #st = :s', ConditionExpression: '#st <> :s', ExpressionAttributeNames: { '#st': 'status' }, ExpressionAttributeValues: { ':s': 'open' }`),
  },
  {
    name: 'AWS CLI JSON: every occurrence of the word, map created after the last entry',
    languageId: 'json',
    ruleId: 'reserved-word',
    safe: true,
    before: `{\n  "TableName": "Videos",\n  "Key": {"PK": {"S": "VIDEO#1"}},\n  "UpdateExpression": "SET views = views + :one",\n  "ExpressionAttributeValues": {":one": {"N": "1"}}\n}\n`,
    after: `{\n  "TableName": "Videos",\n  "Key": {"PK": {"S": "VIDEO#1"}},\n  "UpdateExpression": "SET #views = #views + :one",\n  "ExpressionAttributeValues": {":one": {"N": "1"}},\n  "ExpressionAttributeNames": {"#views": "views"}\n}\n`,
  },
  {
    name: 'several reserved words in one request, all at once (the request-wide fix)',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    fix: /placeholders/,
    safe: true,
    before: lib(`TableName: 'Users', Key: { PK: 'USER#1' }, UpdateExpression: 'SET name = :n, status = :s REMOVE comment', ExpressionAttributeValues: { ':n': 'Ann', ':s': 'active' }`),
    after: lib(
      `TableName: 'Users', Key: { PK: 'USER#1' }, UpdateExpression: 'SET #name = :n, #status = :s REMOVE #comment', ExpressionAttributeValues: { ':n': 'Ann', ':s': 'active' }, ExpressionAttributeNames: { '#name': 'name', '#status': 'status', '#comment': 'comment' }`,
    ),
  },
  {
    name: 'reserved word in a projection of a Query, with the key condition untouched',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: true,
    before: `import { QueryCommand } from '@aws-sdk/lib-dynamodb';\nnew QueryCommand({ TableName: 'Posts', KeyConditionExpression: 'PK = :pk', ProjectionExpression: 'PK, title, date', ExpressionAttributeValues: { ':pk': 'POST#1' } });\n`,
    after: `import { QueryCommand } from '@aws-sdk/lib-dynamodb';\nnew QueryCommand({ TableName: 'Posts', KeyConditionExpression: 'PK = :pk', ProjectionExpression: 'PK, title, #date', ExpressionAttributeValues: { ':pk': 'POST#1' }, ExpressionAttributeNames: { '#date': 'date' } });\n`,
  },
  {
    name: 'reserved word written across concatenated pieces: the smallest edit inside the pieces',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: true,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET stat' + 'us = :s', ExpressionAttributeValues: { ':s': 'open' }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #stat' + 'us = :s', ExpressionAttributeValues: { ':s': 'open' }, ExpressionAttributeNames: { '#status': 'status' }`),
  },

  /* ---------------------------------------------------------------- undefined names ---------------------------- */
  {
    name: 'undefined #name, map created, DocumentClient',
    languageId: 'typescript',
    ruleId: 'undefined-name',
    safe: true,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #c = :c', ExpressionAttributeValues: { ':c': 1 }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #c = :c', ExpressionAttributeValues: { ':c': 1 }, ExpressionAttributeNames: { '#c': 'c' }`),
  },
  {
    name: 'undefined #name added to an existing map, boto3 client',
    languageId: 'python',
    ruleId: 'undefined-name',
    safe: true,
    before: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET #a = :a, #b = :a',\n    ExpressionAttributeNames={'#a': 'a'},\n    ExpressionAttributeValues={':a': {'S': 'x'}}`),
    after: boto(
      `    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET #a = :a, #b = :a',\n    ExpressionAttributeNames={'#a': 'a', '#b': 'b'},\n    ExpressionAttributeValues={':a': {'S': 'x'}}`,
    ),
  },

  /* ---------------------------------------------------------------- undefined values --------------------------- */
  {
    name: 'undefined :value in arithmetic -> a number, low-level, map created (not safe)',
    languageId: 'typescript',
    ruleId: 'undefined-value',
    safe: false,
    before: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET likeTally = likeTally + :inc'`),
    after: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET likeTally = likeTally + :inc',\n  ExpressionAttributeValues: { ':inc': { N: '1' } }`),
  },
  {
    name: 'undefined :value as an ADD operand -> a number, boto3 resource',
    languageId: 'python',
    ruleId: 'undefined-value',
    safe: false,
    before: res(`Key={'PK': 'VIDEO#1'}, UpdateExpression='SET title = :t ADD plays :n', ExpressionAttributeValues={':t': 'x'}`),
    after: res(`Key={'PK': 'VIDEO#1'}, UpdateExpression='SET title = :t ADD plays :n', ExpressionAttributeValues={':t': 'x', ':n': 1}`),
  },
  {
    name: 'undefined :value compared with an attribute -> a string, boto3 client',
    languageId: 'python',
    ruleId: 'undefined-value',
    safe: false,
    before: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET title = :t',\n    ConditionExpression='title <> :old',\n    ExpressionAttributeValues={':t': {'S': 'x'}}`),
    after: boto(
      `    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET title = :t',\n    ConditionExpression='title <> :old',\n    ExpressionAttributeValues={':t': {'S': 'x'}, ':old': {'S': 'TODO'}}`,
    ),
  },
  {
    name: 'undefined :value compared with size() -> a number, AWS CLI JSON',
    languageId: 'json',
    ruleId: 'undefined-value',
    safe: false,
    before: `{"TableName": "Posts", "Key": {"PK": {"S": "POST#1"}}, "ConditionExpression": "size(tags) < :max"}\n`,
    after: `{"TableName": "Posts", "Key": {"PK": {"S": "POST#1"}}, "ConditionExpression": "size(tags) < :max", "ExpressionAttributeValues": {":max": {"N": "1"}}}\n`,
  },

  /* ---------------------------------------------------------------- unused entries ----------------------------- */
  {
    name: 'unused value in the middle of a map, low-level',
    languageId: 'typescript',
    ruleId: 'unused-value',
    safe: true,
    before: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET a = :a, c = :c',\n  ExpressionAttributeValues: { ':a': { S: 'x' }, ':two': { N: '2' }, ':c': { S: 'y' } },`),
    after: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET a = :a, c = :c',\n  ExpressionAttributeValues: { ':a': { S: 'x' }, ':c': { S: 'y' } },`),
  },
  {
    name: 'unused value last in a multi-line map with a trailing comma, DocumentClient',
    languageId: 'typescript',
    ruleId: 'unused-value',
    safe: true,
    before: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nnew UpdateCommand({\n  TableName: 'Posts',\n  Key: { PK: 'POST#1' },\n  UpdateExpression: 'SET a = :a',\n  ExpressionAttributeValues: {\n    ':a': 1,\n    ':b': 2,\n  },\n});\n`,
    after: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nnew UpdateCommand({\n  TableName: 'Posts',\n  Key: { PK: 'POST#1' },\n  UpdateExpression: 'SET a = :a',\n  ExpressionAttributeValues: {\n    ':a': 1,\n  },\n});\n`,
  },
  {
    name: 'unused name, the only entry: the map goes, boto3 client kwargs',
    languageId: 'python',
    ruleId: 'unused-name',
    safe: true,
    before: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET a = :a',\n    ExpressionAttributeNames={'#n': 'name'},\n    ExpressionAttributeValues={':a': {'S': 'x'}},`),
    after: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET a = :a',\n    ExpressionAttributeValues={':a': {'S': 'x'}},`),
  },
  {
    name: 'unused value, the only entry and the last argument: the map goes with its comma, boto3 resource',
    languageId: 'python',
    ruleId: 'unused-value',
    safe: true,
    before: res(`Key={'PK': 'POST#1'}, UpdateExpression='REMOVE draft', ExpressionAttributeValues={':x': 1}`),
    after: res(`Key={'PK': 'POST#1'}, UpdateExpression='REMOVE draft'`),
  },
  {
    name: 'unused value first in a JSON map',
    languageId: 'json',
    ruleId: 'unused-value',
    safe: true,
    before: `{\n  "TableName": "Posts",\n  "Key": {"PK": {"S": "POST#1"}},\n  "UpdateExpression": "SET a = :a",\n  "ExpressionAttributeValues": {\n    ":zero": {"N": "0"},\n    ":a": {"S": "x"}\n  }\n}\n`,
    after: `{\n  "TableName": "Posts",\n  "Key": {"PK": {"S": "POST#1"}},\n  "UpdateExpression": "SET a = :a",\n  "ExpressionAttributeValues": {\n    ":a": {"S": "x"}\n  }\n}\n`,
  },
  {
    name: 'unused name in a transaction item, SDK v3 TransactWriteItems',
    languageId: 'typescript',
    ruleId: 'unused-name',
    safe: true,
    before: `import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';\nnew TransactWriteItemsCommand({ TransactItems: [{ Update: { TableName: 'Posts', Key: { PK: { S: 'P' } }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeNames: { '#x': 'x' }, ExpressionAttributeValues: { ':one': { N: '1' } } } }] });\n`,
    after: `import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';\nnew TransactWriteItemsCommand({ TransactItems: [{ Update: { TableName: 'Posts', Key: { PK: { S: 'P' } }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': { N: '1' } } } }] });\n`,
  },

  /* ---------------------------------------------------------------- placeholder typos -------------------------- */
  {
    name: 'typo: :titel used, :title defined and unused, SDK v3 low-level: the use renamed (offered on the undefined value)',
    languageId: 'typescript',
    ruleId: 'undefined-value',
    safe: false,
    before: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET title = :titel',\n  ExpressionAttributeValues: { ':title': { S: 'Hello' } },`),
    after: v3(`  TableName: 'Posts',\n  Key: { PK: { S: 'POST#1' } },\n  UpdateExpression: 'SET title = :title',\n  ExpressionAttributeValues: { ':title': { S: 'Hello' } },`),
  },
  {
    name: 'typo: the same rename offered on the unused value, every use in update and condition, DocumentClient',
    languageId: 'typescript',
    ruleId: 'unused-value',
    safe: false,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET title = :titel', ConditionExpression: 'title <> :titel', ExpressionAttributeValues: { ':title': title }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET title = :title', ConditionExpression: 'title <> :title', ExpressionAttributeValues: { ':title': title }`),
  },
  {
    name: 'typo: #stat used, #status defined and unused, DocumentClient: the use renamed, not mapped to a new attribute',
    languageId: 'typescript',
    ruleId: 'undefined-name',
    safe: false,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #stat = :s', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':s': s }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #status = :s', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':s': s }`),
  },
  {
    name: 'typo: one undefined and one unused value far apart (:d, :date) are still a pair, SDK v2 DocumentClient',
    languageId: 'javascript',
    ruleId: 'undefined-value',
    safe: false,
    before: v2(`TableName: "Items", Key: { id: id }, UpdateExpression: "SET updatedAt = :d", ExpressionAttributeValues: { ":date": Date.now() }`),
    after: v2(`TableName: "Items", Key: { id: id }, UpdateExpression: "SET updatedAt = :date", ExpressionAttributeValues: { ":date": Date.now() }`),
  },
  {
    name: 'typo: a name typo in a nested path and a condition, boto3 client',
    languageId: 'python',
    ruleId: 'unused-name',
    safe: false,
    before: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET info.#stauts = :s',\n    ConditionExpression='attribute_exists(info.#stauts)',\n    ExpressionAttributeNames={'#status': 'status'},\n    ExpressionAttributeValues={':s': {'S': 'open'}},`),
    after: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'POST#1'}},\n    UpdateExpression='SET info.#status = :s',\n    ConditionExpression='attribute_exists(info.#status)',\n    ExpressionAttributeNames={'#status': 'status'},\n    ExpressionAttributeValues={':s': {'S': 'open'}},`),
  },
  {
    name: 'typo: AWS CLI JSON, value typo',
    languageId: 'json',
    ruleId: 'undefined-value',
    safe: false,
    before: `{"TableName": "Posts", "Key": {"PK": {"S": "POST#1"}}, "UpdateExpression": "ADD views :icnr", "ExpressionAttributeValues": {":incr": {"N": "1"}}}\n`,
    after: `{"TableName": "Posts", "Key": {"PK": {"S": "POST#1"}}, "UpdateExpression": "ADD views :incr", "ExpressionAttributeValues": {":incr": {"N": "1"}}}\n`,
  },
  {
    name: 'typo: the removal is still offered, not safe',
    languageId: 'typescript',
    ruleId: 'unused-value',
    fix: /^Remove/,
    safe: false,
    before: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET title = :titel', ExpressionAttributeValues: { ':title': title }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET title = :titel'`),
  },

  /* ---------------------------------------------------------------- whole maps --------------------------------- */
  {
    name: 'an empty values map is removed, AWS CLI JSON',
    languageId: 'json',
    ruleId: 'empty-attribute-map',
    safe: true,
    before: `{"TableName": "Posts", "Key": {"PK": {"S": "P"}}, "UpdateExpression": "REMOVE draft", "ExpressionAttributeValues": {}}\n`,
    after: `{"TableName": "Posts", "Key": {"PK": {"S": "P"}}, "UpdateExpression": "REMOVE draft"}\n`,
  },
  {
    name: 'a names map in a request without expressions is removed, SDK v3 PutItem',
    languageId: 'typescript',
    ruleId: 'map-without-expression',
    safe: true,
    before: `import { PutItemCommand } from '@aws-sdk/client-dynamodb';\nnew PutItemCommand({ TableName: 'Posts', Item: { PK: { S: 'P' } }, ExpressionAttributeNames: { '#p': 'PK' }, ReturnValues: 'NONE' });\n`,
    after: `import { PutItemCommand } from '@aws-sdk/client-dynamodb';\nnew PutItemCommand({ TableName: 'Posts', Item: { PK: { S: 'P' } }, ReturnValues: 'NONE' });\n`,
  },
  /* ---------------------------------------------------------------- expression shape -------------------------- */
  {
    name: 'redundant parentheses: the outer pair goes, boto3 client',
    languageId: 'python',
    ruleId: 'redundant-parentheses',
    safe: true,
    before: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'P'}},\n    ConditionExpression='((a = :a)) OR b = :a',\n    ExpressionAttributeValues={':a': {'S': 'x'}},`),
    after: boto(`    TableName='Posts',\n    Key={'PK': {'S': 'P'}},\n    ConditionExpression='(a = :a) OR b = :a',\n    ExpressionAttributeValues={':a': {'S': 'x'}},`),
  },
  {
    name: 'repeated SET clauses merged into the first, the REMOVE between kept, DocumentClient',
    languageId: 'typescript',
    ruleId: 'duplicate-clause',
    safe: true,
    before: lib(`TableName: 'Posts', Key: { PK: 'P' }, UpdateExpression: 'SET a = :a REMOVE c SET b = :b, d = :a', ExpressionAttributeValues: { ':a': 1, ':b': 2 }`),
    after: lib(`TableName: 'Posts', Key: { PK: 'P' }, UpdateExpression: 'SET a = :a, b = :b, d = :a REMOVE c', ExpressionAttributeValues: { ':a': 1, ':b': 2 }`),
  },
  {
    name: 'a request object passed by name to the call: fixed in the object literal, safe',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: true,
    before: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst params = { TableName: 'T', Key: { PK: 'P' }, UpdateExpression: 'SET status = :s', ExpressionAttributeValues: { ':s': 1 } };\nawait doc.send(new UpdateCommand(params));\n`,
    after: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst params = { TableName: 'T', Key: { PK: 'P' }, UpdateExpression: 'SET #status = :s', ExpressionAttributeValues: { ':s': 1 }, ExpressionAttributeNames: { '#status': 'status' } };\nawait doc.send(new UpdateCommand(params));\n`,
  },
  {
    name: 'a reserved word inside a constant defined elsewhere: offered, not safe (other code may share it)',
    languageId: 'typescript',
    ruleId: 'reserved-word',
    safe: false,
    before: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst EXPR = 'SET status = :s';\nnew UpdateCommand({ TableName: 'Posts', Key: { PK: 'P' }, UpdateExpression: EXPR, ExpressionAttributeValues: { ':s': 'open' } });\n`,
    after: `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst EXPR = 'SET #status = :s';\nnew UpdateCommand({ TableName: 'Posts', Key: { PK: 'P' }, UpdateExpression: EXPR, ExpressionAttributeValues: { ':s': 'open' }, ExpressionAttributeNames: { '#status': 'status' } });\n`,
  },
];

describe('fixes: expression findings (issue 8)', () => {
  before(ready);
  for (const c of cases) it(c.name, () => void checkFix(c));

  it('offers the per-word fix as preferred and the request-wide fix second when several words are reserved', () => {
    const text = lib(`TableName: 'Users', Key: { PK: 'USER#1' }, UpdateExpression: 'SET name = :n, status = :s', ExpressionAttributeValues: { ':n': 'Ann', ':s': 'active' }`);
    const findings = lintExpressions(text, 'typescript').filter((f) => f.ruleId === 'reserved-word');
    assert.deepEqual(
      findings.map((f) => f.fixes?.map((x) => [x.title, x.safe, x.preferred ?? false])),
      [
        [['Use placeholder #name for "name"', true, true], ['Use placeholders #name for "name", #status for "status"', true, false]],
        [['Use placeholder #status for "status"', true, true], ['Use placeholders #name for "name", #status for "status"', true, false]],
      ],
    );
  });

  it('marks unused entries as unnecessary code', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1, ':b': 2 }`);
    const f = lintExpressions(text, 'typescript').find((x) => x.ruleId === 'unused-value');
    assert.equal(f?.unnecessary, true);
    assert.equal(text.slice(f!.range.start, f!.range.end), "':b'");
  });

  it('points a reserved word finding at the word inside the string (through an escape elsewhere in it)', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET \\u0061 = :a, status = :a', ExpressionAttributeValues: { ':a': 1 }`);
    const f = lintExpressions(text, 'typescript').find((x) => x.ruleId === 'reserved-word');
    assert.equal(text.slice(f!.range.start, f!.range.end), 'status');
  });

  it('offers no fix when the names map is a variable', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET status = :s', ExpressionAttributeNames: names, ExpressionAttributeValues: { ':s': 1 }`);
    const f = lintExpressions(text, 'typescript').find((x) => x.ruleId === 'reserved-word');
    assert.ok(f);
    assert.deepEqual(f.fixes ?? [], []);
  });

  it('does not call a value unused when an expression is not a literal', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET a = :a', ConditionExpression: cond, ExpressionAttributeValues: { ':a': 1, ':b': 2 }`);
    assert.deepEqual(lintExpressions(text, 'typescript').filter((x) => x.ruleId === 'unused-value'), []);
  });
});

describe('fixes: placeholder typos (an undefined placeholder next to an unused one of its kind)', () => {
  before(ready);
  const offered = (text: string, languageId: string) =>
    lintExpressions(text, languageId)
      .filter((f) => /^(undefined|unused)-(name|value)$/.test(f.ruleId))
      .map((f) => [f.ruleId, text.slice(f.range.start, f.range.end), (f.fixes ?? []).map((x) => [x.title, x.safe, x.preferred ?? false])]);

  it('offers the rename first and preferred, the removal and the definition not safe', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #stat = :titel', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':title': title }`);
    assert.deepEqual(offered(text, 'typescript'), [
      ['undefined-name', '#stat', [['Rename #stat to #status', false, true], ['Define #stat as "stat" in ExpressionAttributeNames', false, false]]],
      ['undefined-value', ':titel', [['Rename :titel to :title', false, true], ['Define :titel in ExpressionAttributeValues (a string: fill in its value)', false, false]]],
      ['unused-name', "'#status'", [['Rename #stat to #status', false, true], ['Remove unused #status from ExpressionAttributeNames', false, false]]],
      ['unused-value', "':title'", [['Rename :titel to :title', false, true], ['Remove unused :title from ExpressionAttributeValues', false, false]]],
    ]);
  });

  it('renames each of two typos to its own close match, boto3 resource', () => {
    const text = res(`Key={'PK': 'POST#1'}, UpdateExpression='SET title = :titel, body = :bdy', ExpressionAttributeValues={':title': title, ':body': body}`);
    const renames = lintExpressions(text, 'python').map((f) => [f.ruleId, f.fixes?.[0].title]);
    assert.deepEqual(renames, [
      ['undefined-value', 'Rename :titel to :title'],
      ['undefined-value', 'Rename :bdy to :body'],
      ['unused-value', 'Rename :titel to :title'],
      ['unused-value', 'Rename :bdy to :body'],
    ]);
    const f = lintExpressions(text, 'python').find((x) => x.fixes?.[0].title === 'Rename :bdy to :body')!;
    assert.equal(applyEdits(text, f.fixes![0].edits), text.replace('body = :bdy', 'body = :body'));
  });

  it('offers no rename when the pairing is ambiguous, and prefers nothing', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET a = :x, b = :y', ExpressionAttributeValues: { ':z': 1 }`);
    assert.deepEqual(offered(text, 'typescript'), [
      ['undefined-value', ':x', [['Define :x in ExpressionAttributeValues (a string: fill in its value)', false, false]]],
      ['undefined-value', ':y', [['Define :y in ExpressionAttributeValues (a string: fill in its value)', false, false]]],
      ['unused-value', "':z'", [['Remove unused :z from ExpressionAttributeValues', false, false]]],
    ]);
  });

  it('keeps removal safe when nothing of that kind is undefined, and defining safe when nothing of that kind is unused', () => {
    const text = lib(`TableName: 'Posts', Key: { PK: 'POST#1' }, UpdateExpression: 'SET #c = :titel', ExpressionAttributeNames: {}, ExpressionAttributeValues: { ':title': 1, ':s': 2 }`).replace('ExpressionAttributeNames: {}, ', '');
    assert.deepEqual(offered(text, 'typescript'), [
      ['undefined-name', '#c', [['Define #c as "c" in ExpressionAttributeNames', true, true]]],
      ['undefined-value', ':titel', [['Rename :titel to :title', false, true], ['Define :titel in ExpressionAttributeValues (a string: fill in its value)', false, false]]],
      ['unused-value', "':title'", [['Rename :titel to :title', false, true], ['Remove unused :title from ExpressionAttributeValues', false, false]]],
      ['unused-value', "':s'", [['Remove unused :s from ExpressionAttributeValues', false, false]]],
    ]);
  });

  const typoFiles: { name: string; languageId: string; text: string; fixed?: string }[] = [
    {
      name: 'TypeScript: SDK v3 low-level and lib-dynamodb',
      languageId: 'typescript',
      text: [
        `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';`,
        `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
        `export const retitle = new UpdateItemCommand({ TableName: 'Posts', Key: { id: { S: '1' } }, UpdateExpression: 'SET title = :titel', ExpressionAttributeValues: { ':title': { S: 'Hello' } } });`,
        `export const restatus = (s: string) => doc.send(new UpdateCommand({ TableName: 'Posts', Key: { id: '1' }, UpdateExpression: 'SET #stat = :s', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':s': s } }));`,
        `export const touch = () => doc.send(new UpdateCommand({ TableName: 'Items', Key: { id: '1' }, UpdateExpression: 'SET date = :d', ExpressionAttributeValues: { ':date': Date.now() } }));`,
        ``,
      ].join('\n'),
      // Only the reserved word is fixed: :date stays (the user's value), no #stat invented.
      fixed: `export const touch = () => doc.send(new UpdateCommand({ TableName: 'Items', Key: { id: '1' }, UpdateExpression: 'SET #date = :d', ExpressionAttributeValues: { ':date': Date.now() }, ExpressionAttributeNames: { '#date': 'date' } }));`,
    },
    {
      name: 'Python: boto3 resource and client',
      languageId: 'python',
      text: [
        `import boto3`,
        `table = boto3.resource('dynamodb').Table('Posts')`,
        `client = boto3.client('dynamodb')`,
        `table.update_item(Key={'id': '1'}, UpdateExpression='SET title = :titel', ExpressionAttributeValues={':title': title})`,
        `client.update_item(TableName='Posts', Key={'id': {'S': '1'}}, UpdateExpression='SET #stat = :s', ExpressionAttributeNames={'#status': 'status'}, ExpressionAttributeValues={':s': {'S': s}})`,
        ``,
      ].join('\n'),
    },
    {
      name: 'AWS CLI JSON',
      languageId: 'json',
      text: `{"TableName": "Posts", "Key": {"id": {"S": "1"}}, "UpdateExpression": "SET #stat = :titel", "ExpressionAttributeNames": {"#status": "status"}, "ExpressionAttributeValues": {":title": {"S": "Hello"}}}\n`,
    },
  ];
  for (const c of typoFiles) {
    it(`fix-all removes nothing and invents nothing: ${c.name}`, () => {
      const r = fixAllExpressions(c.text, c.languageId);
      const lines = c.text.split('\n');
      if (c.fixed) lines[lines.findIndex((l) => l.includes('touch'))] = c.fixed;
      assert.equal(r.text, lines.join('\n'));
      // Every typo is still reported, each offering the rename (not safe, preferred).
      const typos = r.remaining.filter((f) => /^(undefined|unused)-/.test(f.ruleId));
      assert.ok(typos.length >= 4, typos.map((f) => f.ruleId).join(', '));
      for (const f of typos) assert.deepEqual([f.fixes?.[0].title.startsWith('Rename '), f.fixes?.some((x) => x.safe)], [true, false], f.message);
    });
  }
});

describe('fixes: pairing placeholder typos', () => {
  const distances: [string, string, number][] = [
    ['titel', 'title', 1],
    ['stat', 'status', 2],
    ['icnr', 'incr', 1],
    ['d', 'date', 3],
    ['abc', 'abc', 0],
    ['ca', 'abc', 3],
  ];
  for (const [a, b, n] of distances) it(`distance ${a} / ${b} = ${n}`, () => assert.equal(typoDistance(a, b), n));

  const pairs: [string[], string[], [string, string][]][] = [
    [[':titel'], [':title'], [[':titel', ':title']]],
    [[':d'], [':date'], [[':d', ':date']]],
    [[':titel', ':bdy'], [':title', ':body'], [[':titel', ':title'], [':bdy', ':body']]],
    [[':x', ':y'], [':z'], []],
    [[':x'], [':y', ':z'], []],
    [[':titel', ':titl'], [':title'], []],
    [[':titel', ':zzz'], [':title', ':other'], [[':titel', ':title']]],
  ];
  for (const [u, v, want] of pairs) it(`pairs ${u.join(',')} with ${v.join(',')}`, () => assert.deepEqual([...pairTypos(u, v)], want));
});

describe('fixes: fix-all on a file with many requests', () => {
  before(ready);

  const file = [
    `import { UpdateCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';`,
    `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';`,
    `export async function a(doc) {`,
    `  await doc.send(new UpdateCommand({ TableName: 'Users', Key: { PK: 'U#1' }, UpdateExpression: 'SET name = :n, status = :s, #d = :n', ExpressionAttributeValues: { ':n': 'Ann', ':s': 'on', ':unused': 0 } }));`,
    `  await doc.send(new QueryCommand({ TableName: 'Posts', KeyConditionExpression: 'PK = :pk', FilterExpression: 'size(comment) > :min', ExpressionAttributeValues: { ':pk': 'P#1' } }));`,
    `  await doc.send(new TransactWriteCommand({ TransactItems: [`,
    `    { Put: { TableName: 'Likes', Item: { PK: 'P#1', SK: 'LIKE#u' }, ConditionExpression: 'attribute_not_exists(PK)', ExpressionAttributeNames: { '#gone': 'gone' } } },`,
    `    { Update: { TableName: 'Posts', Key: { PK: 'P#1' }, UpdateExpression: 'SET count = count + :one, total = total + :one', ExpressionAttributeValues: { ':one': 1 } } },`,
    `  ] }));`,
    `}`,
    `export const raw = new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: '1' } }, UpdateExpression: 'SET data.size = :v', ExpressionAttributeValues: { ':v': { N: '1' }, ':w': { N: '2' } } });`,
    ``,
  ].join('\n');

  it('applies every safe fix, leaves the unsafe one offered, and ends with no fixable error', () => {
    const r = fixAllExpressions(file, 'typescript');
    assert.equal(
      r.text,
      [
        `import { UpdateCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';`,
        `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';`,
        `export async function a(doc) {`,
        `  await doc.send(new UpdateCommand({ TableName: 'Users', Key: { PK: 'U#1' }, UpdateExpression: 'SET #name = :n, #status = :s, #d = :n', ExpressionAttributeValues: { ':n': 'Ann', ':s': 'on' }, ExpressionAttributeNames: { '#name': 'name', '#status': 'status', '#d': 'd' } }));`,
        `  await doc.send(new QueryCommand({ TableName: 'Posts', KeyConditionExpression: 'PK = :pk', FilterExpression: 'size(#comment) > :min', ExpressionAttributeValues: { ':pk': 'P#1' }, ExpressionAttributeNames: { '#comment': 'comment' } }));`,
        `  await doc.send(new TransactWriteCommand({ TransactItems: [`,
        `    { Put: { TableName: 'Likes', Item: { PK: 'P#1', SK: 'LIKE#u' }, ConditionExpression: 'attribute_not_exists(PK)' } },`,
        `    { Update: { TableName: 'Posts', Key: { PK: 'P#1' }, UpdateExpression: 'SET #count = #count + :one, #total = #total + :one', ExpressionAttributeValues: { ':one': 1 }, ExpressionAttributeNames: { '#count': 'count', '#total': 'total' } } },`,
        `  ] }));`,
        `}`,
        `export const raw = new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: '1' } }, UpdateExpression: 'SET #data.#size = :v', ExpressionAttributeValues: { ':v': { N: '1' } }, ExpressionAttributeNames: { '#data': 'data', '#size': 'size' } });`,
        ``,
      ].join('\n'),
    );
    // Only the invented value is left: offered, never applied.
    assert.deepEqual(
      r.remaining.map((f) => [f.ruleId, f.fixes?.map((x) => x.safe)]),
      [['undefined-value', [false]]],
    );
  });

  it('fixes a request with more distinct reserved words than a few passes can take (one per pass)', () => {
    const words = ['status', 'name', 'date', 'count', 'size', 'data', 'timestamp', 'user', 'comment', 'value', 'level', 'type', 'region', 'year'];
    const body = (set: string, names: string) =>
      `TableName: 'T', Key: { PK: 'P#1' }, UpdateExpression: 'SET ${set}', ExpressionAttributeValues: { ':v': 1 }${names}`;
    const before = lib(body(words.map((w) => `${w} = :v`).join(', '), ''));
    const r = fixAllExpressions(before, 'typescript');
    assert.equal(
      r.text,
      lib(body(words.map((w) => `#${w} = :v`).join(', '), `, ExpressionAttributeNames: { ${words.map((w) => `'#${w}': '${w}'`).join(', ')} }`)),
    );
    assert.deepEqual(r.remaining, []);
    assert.equal(r.fixed, words.length);
  });

  it('Python: boto3 resource and client requests in one file, every error fixed', () => {
    const lines = (name: string, update: string, condition: string, values: string, names: string) => [
      `def ${name}(post_id):`,
      `    table.update_item(`,
      `        Key={'PK': post_id, 'SK': 'META'},`,
      `        UpdateExpression='${update}',`,
      `        ConditionExpression='${condition}',`,
      `        ExpressionAttributeValues={${values}},${names}`,
      `    )`,
      ``,
    ];
    const query = (projection: string, names: string) => [
      `def children(post_id):`,
      `    return client.query(`,
      `        TableName='Posts',`,
      `        KeyConditionExpression='PK = :pk',`,
      `        ProjectionExpression='${projection}',`,
      `        ExpressionAttributeValues={':pk': {'S': post_id}},`,
      `        ExpressionAttributeNames={${names}},`,
      `    )`,
      ``,
    ];
    const head = [`import boto3`, `client = boto3.client('dynamodb')`, `table = boto3.resource('dynamodb').Table('Posts')`, ``];
    const before = [
      ...head,
      ...lines('publish', 'SET status = :s, date = :d REMOVE #draft', 'attribute_exists(PK) AND status <> :s', `':s': 'published', ':d': '2026-11-30', ':unused': 1`, ''),
      ...query('PK, SK, data.size', `'#x': 'x'`),
    ].join('\n');
    const after = [
      ...head,
      ...lines(
        'publish',
        'SET #status = :s, #date = :d REMOVE #draft',
        'attribute_exists(PK) AND #status <> :s',
        `':s': 'published', ':d': '2026-11-30'`,
        `\n        ExpressionAttributeNames={'#status': 'status', '#date': 'date', '#draft': 'draft'},`,
      ),
      ...query('PK, SK, #data.#size', `'#data': 'data', '#size': 'size'`),
    ].join('\n');
    const r = fixAllExpressions(before, 'python');
    assert.equal(r.text, after);
    assert.deepEqual(r.remaining, []);
  });
});
