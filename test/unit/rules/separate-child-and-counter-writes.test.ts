import { Case, Dialect, PRELUDE, ruleCases } from './check';
import { V, raw, render } from './render';

const child = { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'LIKE#USER#7c20' } };
const counter = { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'META' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } };
const title = { TableName: 'Social', Key: { PK: 'POST#a91f', SK: 'META' }, UpdateExpression: 'SET title = :t', ExpressionAttributeValues: { ':t': 'x' } };
const NAME: Record<string, string> = { 'ts-v3': 'UpdateItemCommand', 'ts-doc': 'UpdateCommand', 'js-v2': 'update', 'py-client': 'update_item', 'py-resource': 'update_item' };

/** Calls wrapped in functions of the dialect. */
function fns(d: Dialect, ...bodies: [string, V][][]): string {
  return bodies
    .map((calls, i) => {
      const lines = calls.map(([api, p]) => render(d, api, p as Record<string, V>));
      if (d.startsWith('py')) return `def handler${i}():\n${lines.map((l) => '    ' + l).join('')}`;
      return `export async function handler${i}() {\n${lines.map((l) => '  await ' + l).join('')}}\n`;
    })
    .join('\n');
}

ruleCases(
  'separate-child-and-counter-writes',
  (['ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'] as Dialect[]).flatMap((d): Case[] => [
    {
      name: 'Put then counter update in one function',
      dialect: d,
      code: fns(d, [['PutItem', child], ['UpdateItem', counter]]),
      expect: [{ text: NAME[d], message: 'handler0 writes a child item and updates its counter in two separate calls' }],
    },
    { name: 'Delete and counter update', dialect: d, code: fns(d, [['UpdateItem', counter], ['DeleteItem', { TableName: 'Social', Key: child.Item }]]), expect: [{ text: NAME[d] }] },
    { name: 'in different functions', dialect: d, code: fns(d, [['PutItem', child]], [['UpdateItem', counter]]) },
    { name: 'an update that is not a counter', dialect: d, code: fns(d, [['PutItem', child], ['UpdateItem', title]]) },
    {
      name: 'a Put that creates the counter item itself (it holds the counter), then ADD',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'META', likeTally: 0 }, ConditionExpression: 'attribute_not_exists(PK)' }], ['UpdateItem', counter]]),
    },
    {
      name: 'a Put of the same key as the counter (the parent, not a child)',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'META', title: 'x' } }], ['UpdateItem', counter]]),
    },
    {
      name: 'an ADD operand of unknown type may be a set: "if :n is a number", at info',
      dialect: d,
      code: fns(d, [['PutItem', child], ['UpdateItem', { ...counter, UpdateExpression: 'ADD likeTally :n', ExpressionAttributeValues: { ':n': raw('n') } }]]),
      expect: [{ text: NAME[d], message: '(if :n is a number; adding to a set is harmless)', severity: 'info' }],
    },
    // (py-resource renders every call on one Table object: no second table to write to.)
    ...(d === 'py-resource'
      ? []
      : [
          {
            name: 'the same key in another table is a child write of its own',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Audit', Item: { PK: 'POST#a91f', SK: 'META' } }], ['UpdateItem', counter]]),
            expect: [{ text: NAME[d] }],
          },
          {
            name: 'a child in another table whose key mirrors the counter item\'s key',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Likes', Item: { PK: 'USER#7c20', SK: 'LIKE#POST#a91f' } }], ['UpdateItem', counter]]),
            expect: [{ text: NAME[d], severity: 'warning' as const }],
          },
          {
            name: 'a notification to the author in another table is not counted',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Notifications', Item: { PK: 'USER#b311', SK: 'NOTIF#2025-06-23T10:00', kind: 'like', postId: 'POST#a91f' } }], ['UpdateItem', counter]]),
          },
          {
            name: 'an audit row keyed by its own id in another table is not counted',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Audit', Item: { id: 'evt-81f2', at: 1750636800, subject: 'POST#a91f' } }], ['UpdateItem', counter]]),
          },
          // The counted thing (likeCount -> like) in a side table's name does not make it a child: side rows first.
          ...[['LikeNotifications', 'LikeNotifications'], ['like_events', 'like_events'], [raw(d.startsWith('py') ? 'self.like_notifications_table' : 'this.likeNotificationsTable'), 'a like-notifications table attribute']].map(
            ([table, label]): Case => ({
              name: `a side row in ${label} is not counted by likeCount`,
              dialect: d,
              code: fns(d, [['PutItem', { TableName: table, Item: { id: 'evt-81f2', kind: 'like', postId: 'POST#a91f' } }], ['UpdateItem', { ...counter, UpdateExpression: 'ADD likeCount :one' }]]),
            }),
          ),
          {
            name: 'control: a row keyed by its own id in Likes is counted by likeCount',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Likes', Item: { id: 'evt-81f2', postId: 'POST#a91f' } }], ['UpdateItem', { ...counter, UpdateExpression: 'ADD likeCount :one' }]]),
            expect: [{ text: NAME[d] }],
          },
        ]),
  ]),
);

/** Calls in the arms of conditionals: only calls that can both run are "separate writes". */
const ARMS: Dialect[] = ['ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'];
const call = (d: Dialect, api: string, p: Record<string, V>) => render(d, api, p).trimEnd();
function shaped(d: Dialect, shape: 'if-else' | 'elif' | 'if-then-after' | 'nested-same-arm' | 'ternary' | 'iife'): string {
  const put = call(d, 'PutItem', child);
  const upd = call(d, 'UpdateItem', counter);
  if (d.startsWith('py')) {
    const body = {
      'if-else': `    if exists:\n        ${upd}\n    else:\n        ${put}\n`,
      elif: `    if a:\n        ${put}\n    elif b:\n        ${upd}\n`,
      'if-then-after': `    if fresh:\n        ${put}\n    ${upd}\n`,
      'nested-same-arm': `    if a:\n        if b:\n            ${put}\n        ${upd}\n`,
      ternary: `    return (${put}) if fresh else (${upd})\n`,
      iife: '',
    }[shape];
    return `def handler(exists, a, b, fresh):\n${body}`;
  }
  const body = {
    'if-else': `  if (exists) {\n    await ${upd}\n  } else {\n    await ${put}\n  }\n`,
    elif: `  if (a) {\n    await ${put}\n  } else if (b) {\n    await ${upd}\n  }\n`,
    'if-then-after': `  if (fresh) await ${put}\n  await ${upd}\n`,
    'nested-same-arm': `  if (a) {\n    if (b) await ${put}\n    await ${upd}\n  }\n`,
    ternary: `  return fresh ? ${put.replace(/;$/, '')} : ${upd.replace(/;$/, '')};\n`,
    iife: `  if (a) await ${put}\n  await (async () => {\n    if (a) await ${upd}\n  })();\n`,
  }[shape];
  return `export async function handler(exists, a, b, fresh) {\n${body}}\n`;
}

ruleCases(
  'separate-child-and-counter-writes',
  ARMS.flatMap((d): Case[] => [
    { name: 'Update in the if, Put in the else: only one runs', dialect: d, code: shaped(d, 'if-else') },
    { name: 'Put in the if, Update in an else-if', dialect: d, code: shaped(d, 'elif') },
    { name: 'the two arms of a conditional expression', dialect: d, code: shaped(d, 'ternary') },
    { name: 'Put in an if, Update after it: both can run', dialect: d, code: shaped(d, 'if-then-after'), expect: [{ text: NAME[d] }] },
    { name: 'Put in a nested if, Update in the same outer arm: both can run', dialect: d, code: shaped(d, 'nested-same-arm'), expect: [{ text: NAME[d] }] },
    ...(d.startsWith('py') ? [] : [{ name: 'Put in an if, Update in an if inside an IIFE after it: both can run', dialect: d, code: shaped(d, 'iife'), expect: [{ text: NAME[d] }] }]),
  ]),
);

/** Which writes are the counter's own item (issue 13 follow-ups): key attribute names, key patterns, helpers. */
const follows = { TableName: 'Users', Key: { user_id: raw('userId') }, UpdateExpression: 'SET follow_version = follow_version + :one', ExpressionAttributeValues: { ':one': 1 } };
ruleCases(
  'separate-child-and-counter-writes',
  (['ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'] as Dialect[]).flatMap((d): Case[] => [
    {
      name: "a Delete whose Key has an attribute more than the counter's is another item (a child)",
      dialect: d,
      code: fns(d, [['DeleteItem', { TableName: 'Users', Key: { user_id: raw('userId'), follow: raw('follow') } }], ['UpdateItem', follows]]),
      expect: [{ text: NAME[d] }],
    },
    {
      name: "control: a Delete with exactly the counter's key (the counter item itself)",
      dialect: d,
      code: fns(d, [['DeleteItem', { TableName: 'Users', Key: { user_id: raw('userId') } }], ['UpdateItem', follows]]),
    },
    {
      name: 'a child Put holding its own counter attribute, keyed apart from the counter item, is a child',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Social', Item: { PK: 'POST#a91f', SK: 'LIKE#USER#7c20', likeTally: 0 } }], ['UpdateItem', counter]]),
      expect: [{ text: NAME[d] }],
    },
    {
      name: 'control: a Put holding the counter, keyed by the same variables as the counter (the counter item)',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Social', Item: { PK: raw('pk'), SK: raw('sk'), likeTally: 0 } }], ['UpdateItem', { ...counter, Key: { PK: raw('pk'), SK: raw('sk') } }]]),
    },
  ]),
);

/** Helpers of the same class: a `pk` of the helper and a `pk` of the caller are different variables. */
const REPO = (body: string) =>
  `${PRELUDE['ts-doc']}export class CategoryRepository {\n` +
  `  private async bump(parentId: string, n: number) {\n    const parent = await this.find(parentId);\n    const pk = parent.parentName || 'ROOT';\n    const sk = parent.name;\n` +
  `    await doc.send(new UpdateCommand({ TableName: 'Categories', Key: { PK: pk, SK: sk }, UpdateExpression: 'ADD children_count :n', ExpressionAttributeValues: { ':n': n } }));\n  }\n` +
  `${body}}\n`;
ruleCases('separate-child-and-counter-writes', [
  {
    name: "helper: a Delete keyed { PK: pk, SK: sk } in the caller, the counter's { PK: pk, SK: sk } in the helper: a child",
    dialect: 'ts-doc',
    code: REPO(`  async remove(id: string) {\n    const c = await this.find(id);\n    const pk = c.parentName || 'ROOT';\n    const sk = c.name;\n    await doc.send(new DeleteCommand({ TableName: 'Categories', Key: { PK: pk, SK: sk } }));\n    await this.bump(c.parentId, -1);\n  }\n`),
    expect: [{ text: 'bump' }],
  },
  {
    name: 'helper: a child Put that holds its own children_count: 0 is still a child',
    dialect: 'ts-doc',
    code: REPO(`  async create(parentId: string, name: string) {\n    const pk = parentId;\n    await doc.send(new PutCommand({ TableName: 'Categories', Item: { PK: pk, SK: name, children_count: 0 } }));\n    await this.bump(parentId, 1);\n  }\n`),
    expect: [{ text: 'bump' }],
  },
  {
    name: 'helper control: the child write goes to another table keyed by its own id',
    dialect: 'ts-doc',
    code: REPO(`  async audit(parentId: string, id: string) {\n    await doc.send(new PutCommand({ TableName: 'Audit', Item: { id, at: 1 } }));\n    await this.bump(parentId, 1);\n  }\n`),
  },
  {
    name: 'Python repository wrapper: a session Put keyed apart from the pk=/sk= of the counter update',
    dialect: 'py-resource',
    code:
      `${PRELUDE['py-resource']}\nclass AnalyticsRepository(DynamoDBRepository):\n    def track(self, session_id, content_id):\n` +
      `        self.update_item(pk=f"VIEWS#{content_id}", sk="VIEWS", update_expression="SET #data.viewCount = if_not_exists(#data.viewCount, :zero) + :inc", expression_attribute_values={":inc": 1, ":zero": 0}, expression_attribute_names={"#data": "Data"})\n` +
      `        self.put_item({"PK": f"SESSION#{session_id}", "SK": f"VIEW#{content_id}", "Data": {"viewedAt": 1}})\n`,
    expect: [{ text: 'update_item' }],
  },
  {
    name: 'Python repository wrapper control: a Put of the counter item itself (same pk/sk patterns, holding Data)',
    dialect: 'py-resource',
    code:
      `${PRELUDE['py-resource']}\nclass AnalyticsRepository(DynamoDBRepository):\n    def track(self, content_id):\n` +
      `        self.put_item({"PK": f"VIEWS#{content_id}", "SK": "VIEWS", "Data": {"viewCount": 0}})\n` +
      `        self.update_item(pk=f"VIEWS#{content_id}", sk="VIEWS", update_expression="SET #data.viewCount = if_not_exists(#data.viewCount, :zero) + :inc", expression_attribute_values={":inc": 1, ":zero": 0}, expression_attribute_names={"#data": "Data"})\n`,
  },
]);

/**
 * A child write to another table counts only on positive evidence that the counter counts it (issue 13): the counted
 * thing (`followerCount` -> follower) names the child's table or its key prefix. Unknown means silent.
 */
const followers = { TableName: 'Users', Key: { user_id: raw('userId') }, UpdateExpression: 'SET followerCount = followerCount - :one', ExpressionAttributeValues: { ':one': 1 } };
const unfollow = { follower_alias: raw('me'), followee_alias: raw('them') };
const envTable = (d: Dialect, name: string) => raw(d.startsWith('py') ? `os.environ['${name}']` : `process.env.${name}`);
ruleCases(
  'separate-child-and-counter-writes',
  (['ts-v3', 'ts-doc', 'js-v2', 'py-client'] as Dialect[]).flatMap((d): Case[] => [
    {
      name: 'another table named for the counted thing (Follows, followerCount): a child',
      dialect: d,
      code: fns(d, [['DeleteItem', { TableName: 'Follows', Key: unfollow }], ['UpdateItem', followers]]),
      expect: [{ text: NAME[d], related: [NAME[d].replace(/Update|update/, (m) => (m === 'Update' ? 'Delete' : 'delete'))] }],
    },
    {
      name: 'a table named by an expression whose words name the counted thing (FOLLOWS_TABLE): a child',
      dialect: d,
      code: fns(d, [['DeleteItem', { TableName: envTable(d, 'FOLLOWS_TABLE'), Key: unfollow }], ['UpdateItem', followers]]),
      expect: [{ text: NAME[d] }],
    },
    {
      name: 'a key prefix naming the counted thing (LIKE#..., likeTally) in a table of another name: a child',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Edges', Item: { PK: 'LIKE#b2', SK: 'USER#7c20' } }], ['UpdateItem', counter]]),
      expect: [{ text: NAME[d] }],
    },
    {
      name: 'a notification about the follow, keyed FOLLOW#..., is not counted (side table)',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Notifications', Item: { PK: raw('them'), SK: 'FOLLOW#2025-06-23' } }], ['UpdateItem', followers]]),
    },
    {
      name: 'another table whose name and keys say nothing of the counted thing is not counted',
      dialect: d,
      code: fns(d, [['DeleteItem', { TableName: 'Sessions', Key: { id: raw('sid') } }], ['UpdateItem', followers]]),
    },
    {
      name: 'a table named for what holds the counter, not what it counts (Posts, likeTally), is not counted',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Posts', Item: { PK: 'POST#b3', title: 'x' } }], ['UpdateItem', counter]]),
    },
    {
      name: 'a counter named by no counted thing (total) says nothing of another table',
      dialect: d,
      code: fns(d, [['PutItem', { TableName: 'Totals', Item: { PK: 'DAY#1' } }], ['UpdateItem', { ...counter, UpdateExpression: 'ADD total :one' }]]),
    },
  ]),
);

/** A child whose Item (Key) is not known may be the counter's own item in the same table: silent; in a table named for the counted thing it is a child. */
ruleCases(
  'separate-child-and-counter-writes',
  (['ts-v3', 'ts-doc', 'js-v2', 'py-client', 'py-resource'] as Dialect[]).flatMap((d): Case[] => [
    { name: "a Put whose Item is a variable, in the counter's table", dialect: d, code: fns(d, [['PutItem', { TableName: 'Social', Item: raw('item') }], ['UpdateItem', counter]]) },
    { name: "a Delete whose Key is a call, in the counter's table", dialect: d, code: fns(d, [['UpdateItem', counter], ['DeleteItem', { TableName: 'Social', Key: raw(d.startsWith('py') ? 'key_of(post)' : 'keyOf(post)') }]]) },
    ...(d === 'py-resource'
      ? []
      : [
          {
            name: 'a Put whose Item is a variable, in a table named for the counted thing (Likes, likeTally): a child',
            dialect: d,
            code: fns(d, [['PutItem', { TableName: 'Likes', Item: raw('like') }], ['UpdateItem', counter]]),
            expect: [{ text: NAME[d] }],
          },
        ]),
  ]),
);
