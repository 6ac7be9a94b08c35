import { Case, ruleCases } from './check';

const upd = (values: string) =>
  `client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'ADD tags :t', ExpressionAttributeValues: { ${values} } }));\n`;
const put = (attrs: string) => `client.send(new PutItemCommand({ TableName: 'T', Item: { PK: { S: 'p' }, ${attrs} } }));\n`;

const cases: Case[] = [
  { name: 'string set repeating an element', dialect: 'ts-v3', code: upd(`':t': { SS: ['a', 'b', 'a'] }`), expect: [{ text: `':t'`, message: 'repeats a' }] },
  { name: 'number set with 1 and 1.0', dialect: 'ts-v3', code: upd(`':t': { NS: ['1', '1.0'] }`), expect: [{ text: `':t'`, message: '1, 1.0 and 1e0 are one number' }] },
  { name: 'number set with 100 and 1E2', dialect: 'ts-v3', code: upd(`':t': { NS: ['100', '1E2'] }`), expect: [{ text: `':t'`, message: 'repeats 1E2' }] },
  { name: 'number set with 0 and -0', dialect: 'ts-v3', code: upd(`':t': { NS: ['0', '-0'] }`), expect: [{ text: `':t'` }] },
  { name: 'set inside a list', dialect: 'ts-v3', code: upd(`':t': { L: [{ SS: ['x', 'x'] }] }`), expect: [{ text: `':t'` }] },
  { name: 'set inside a map', dialect: 'ts-v3', code: upd(`':t': { M: { k: { NS: ['2', '2'] } } }`), expect: [{ text: `':t'` }] },
  { name: 'one finding per value, on its key', dialect: 'ts-v3', code: upd(`':u': { SS: ['a'] }, ':t': { SS: ['b', 'b'] }`).replace('ADD tags :t', 'ADD tags :t, more :u'), expect: [{ text: `':t'` }] },
  { name: 'Item attribute of a Put', dialect: 'ts-v3', code: put(`tags: { SS: ['a', 'a'] }`), expect: [{ text: 'tags', message: 'Item attribute tags' }] },
  { name: 'JSON request', dialect: 'json', code: '{"TableName": "T", "Key": {"PK": {"S": "p"}}, "UpdateExpression": "ADD n :s", "ExpressionAttributeValues": {":s": {"NS": ["5", "5.00"]}}}\n', expect: [{ text: '":s"' }] },
  { name: 'boto3 client', dialect: 'py-client', code: 'client.update_item(TableName="T", Key={"PK": {"S": "p"}}, UpdateExpression="ADD tags :t", ExpressionAttributeValues={":t": {"SS": ["a", "a"]}})\n', expect: [{ text: '":t"' }] },
  // Case matters, trailing spaces matter, and a list may repeat elements.
  { name: 'distinct strings', dialect: 'ts-v3', code: upd(`':t': { SS: ['a', 'A', 'a '] }`) },
  { name: 'distinct numbers', dialect: 'ts-v3', code: upd(`':t': { NS: ['1', '10', '0.1'] }`) },
  { name: 'a list may repeat', dialect: 'ts-v3', code: upd(`':t': { L: [{ S: 'a' }, { S: 'a' }] }`) },
  { name: 'unknown elements are not compared', dialect: 'ts-v3', code: upd(`':t': { SS: [x, x] }`) },
  { name: 'a set with a spread is not judged', dialect: 'ts-v3', code: upd(`':t': { SS: ['a', ...rest, 'a'] }`) },
  // Native sets drop repeats before the SDK sends them.
  { name: 'new Set with a repeat', dialect: 'ts-doc', code: "doc.send(new UpdateCommand({ TableName: 'T', Key: { PK: 'p' }, UpdateExpression: 'ADD tags :t', ExpressionAttributeValues: { ':t': new Set(['a', 'a']) } }));\n" },
  { name: 'Python set literal with a repeat', dialect: 'py-resource', code: 'table.update_item(Key={"PK": "p"}, UpdateExpression="ADD tags :t", ExpressionAttributeValues={":t": {"a", "a"}})\n' },
];

ruleCases('duplicate-set-elements', cases);
