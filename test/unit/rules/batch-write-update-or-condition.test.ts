import { Case, Dialect, ruleCases } from './check';
import { render } from './render';

const k = (d: Dialect, s: string) => (d === 'json' ? `"${s}"` : d.startsWith('py') ? `'${s}'` : s);
/** A top-level parameter name (a keyword argument in Python). */
const top = (d: Dialect, s: string) => (d.startsWith('py') ? s : k(d, s));
const put = { PutRequest: { Item: { PK: 'VID#1', SK: 'STATS' } } };

ruleCases(
  'batch-write-update-or-condition',
  (['json', 'ts-v3', 'ts-doc', 'js-v2', 'py-client'] as Dialect[]).flatMap((d): Case[] => {
    const r = (entries: object[], extra: object = {}) => render(d, 'BatchWriteItem', { RequestItems: { Stats: entries }, ...extra } as never);
    return [
      { name: 'an UpdateRequest', dialect: d, code: r([put, { UpdateRequest: { Key: { PK: 'VID#1' }, UpdateExpression: 'ADD n :one' } }]), expect: [{ text: k(d, 'UpdateRequest'), message: 'only PutRequest and DeleteRequest' }] },
      { name: 'a batch of UpdateRequests only', dialect: d, code: r([{ UpdateRequest: { Key: { PK: 'VID#1' }, UpdateExpression: 'ADD n :one' } }]), expect: [{ text: k(d, 'UpdateRequest') }] },
      { name: 'a conditional PutRequest', dialect: d, code: r([{ PutRequest: { Item: { PK: 'VID#1' }, ConditionExpression: 'attribute_not_exists(PK)' } }]), expect: [{ text: k(d, 'ConditionExpression'), message: 'unconditional' }] },
      { name: 'a condition on the whole batch', dialect: d, code: r([put], { ConditionExpression: 'attribute_not_exists(PK)' }), expect: [{ text: top(d, 'ConditionExpression') }] },
      { name: 'puts and deletes', dialect: d, code: r([put, { DeleteRequest: { Key: { PK: 'VID#2', SK: 'STATS' } } }]) },
    ];
  }),
);

// The AWS CLI's bare `--request-items file://items.json` shape: the file is the RequestItems map itself.
ruleCases('batch-write-update-or-condition', [
  {
    name: 'bare --request-items file with an UpdateRequest',
    dialect: 'json',
    code: '{\n  "Social": [\n    {"PutRequest": {"Item": {"PK": {"S": "P#1"}, "SK": {"S": "LIKE#a"}}}},\n    {"UpdateRequest": {"Key": {"PK": {"S": "P#1"}, "SK": {"S": "META"}}, "UpdateExpression": "ADD likeTally :n", "ExpressionAttributeValues": {":n": {"N": "1"}}}}\n  ]\n}\n',
    expect: [{ text: '"UpdateRequest"' }],
  },
]);
