import { strict as assert } from 'node:assert';
import { ensureParser } from '../../../server/src/extract';
import { Case, lint, parsersReady, slice } from './check';
import { ruleCases } from './check';
import { TRANSACT_DIALECTS, V, raw, render } from './render';
import type { Dialect } from './check';

const POST = { PK: 'POST#a91f', SK: 'META' };
const LIKE = { PK: 'POST#a91f', SK: 'LIKE#USER#7c20' };

const counter = (expr: string, delta: number): V => ({
  Update: { TableName: 'Social', Key: POST, UpdateExpression: expr, ExpressionAttributeValues: { [delta < 0 ? ':minusOne' : ':one']: delta } },
});
const put = (cond?: string, extra: Record<string, V> = {}): V => ({
  Put: { TableName: 'Social', Item: { ...LIKE, likedAt: 1750636800 }, ...(cond ? { ConditionExpression: cond } : {}), ...extra },
});
const del = (cond?: string): V => ({ Delete: { TableName: 'Social', Key: LIKE, ...(cond ? { ConditionExpression: cond } : {}) } });
const tx = (d: Dialect, items: V[], extra: Record<string, V> = {}) => render(d, 'TransactWriteItems', { TransactItems: items, ...extra });
/** How a map key is written in the dialect (the finding points at the `Put` / `Delete` key). */
const key = (d: Dialect, k: string) => (d === 'json' ? `"${k}"` : d === 'py-client' ? `'${k}'` : k);

const cases: Case[] = TRANSACT_DIALECTS.flatMap((d): Case[] => [
  {
    name: 'like: Put without attribute_not_exists next to ADD likeTally :one',
    dialect: d,
    code: tx(d, [put(), counter('ADD likeTally :one', 1)]),
    expect: [
      {
        text: key(d, 'Put'),
        message: "counts it twice. Guard the Put at TransactItems[0] (it shares PK with the counter's item) with attribute_not_exists(SK)",
        severity: 'warning',
        related: ['likeTally :one'],
        titles: ['Add the condition attribute_not_exists(SK) to the Put'],
        fixes: [tx(d, [put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])],
      },
    ],
  },
  {
    name: 'like with SET likeTally = likeTally + :one',
    dialect: d,
    code: tx(d, [put(), counter('SET likeTally = if_not_exists(likeTally, :one) + :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('attribute_not_exists(SK)'), counter('SET likeTally = if_not_exists(likeTally, :one) + :one', 1)])] }],
  },
  {
    name: 'unlike: Delete without attribute_exists next to ADD likeTally :minusOne',
    dialect: d,
    code: tx(d, [del(), counter('ADD likeTally :minusOne', -1)]),
    expect: [{ text: key(d, 'Delete'), message: 'negative', fixes: [tx(d, [del('attribute_exists(SK)'), counter('ADD likeTally :minusOne', -1)])] }],
  },
  {
    name: 'a condition on an attribute the Put does not write is not a guard: the fix ANDs the guard after it',
    dialect: d,
    code: tx(d, [put('attribute_not_exists(blockedAt)'), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('(attribute_not_exists(blockedAt)) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  {
    name: 'an OR with a branch that still holds on the replay does not guard',
    dialect: d,
    code: tx(d, [put('attribute_not_exists(SK) OR attribute_not_exists(blockedAt)'), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('(attribute_not_exists(SK) OR attribute_not_exists(blockedAt)) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  // The Put writes likedAt, so the replay finds it: attribute_not_exists(likedAt) fails the second time.
  { name: 'attribute_not_exists of a non-key attribute the Put writes is a guard too', dialect: d, code: tx(d, [put('attribute_not_exists(likedAt)'), counter('ADD likeTally :one', 1)]) },
  { name: 'an OR of guards on attributes the Put writes', dialect: d, code: tx(d, [put('attribute_not_exists(SK) OR attribute_not_exists(likedAt)'), counter('ADD likeTally :one', 1)]) },
  // The child's own condition already requires the opposite guard on a key attribute: AND-ing the guard on would make
  // a condition that never holds (every like/unlike fails), so the finding says so and offers no fix.
  ...(
    [
      ['a Put requiring attribute_exists(SK)', put('attribute_exists(SK)'), 1, 'attribute_exists(SK)'],
      ['a Put requiring attribute_exists on the other key attribute', put('attribute_exists(PK)'), 1, 'attribute_exists(PK)'],
      ['a Put requiring attribute_exists(#sk) through a placeholder, after another conjunct', put('likedAt > :zero AND attribute_exists(#sk)', { ExpressionAttributeNames: { '#sk': 'SK' }, ExpressionAttributeValues: { ':zero': 0 } }), 1, 'attribute_exists(SK)'],
      ['a Put requiring NOT attribute_not_exists(SK)', put('NOT attribute_not_exists(SK)'), 1, 'attribute_exists(SK)'],
      ['a Delete requiring attribute_not_exists(SK)', del('attribute_not_exists(SK)'), -1, 'attribute_not_exists(SK)'],
      ['a Delete requiring attribute_not_exists(PK) OR attribute_not_exists(SK)', del('attribute_not_exists(PK) OR attribute_not_exists(SK)'), -1, 'attribute_not_exists(PK)'],
    ] as [string, V, number, string][]
  ).map(([what, child, delta, existing]): Case => ({
    name: `${what}: the guard would contradict it, no fix`,
    dialect: d,
    code: tx(d, [child, counter(delta < 0 ? 'ADD likeTally :minusOne' : 'ADD likeTally :one', delta)]),
    expect: [{ text: key(d, delta < 0 ? 'Delete' : 'Put'), message: `Its ConditionExpression already requires ${existing}, which contradicts that guard`, fixes: [] }],
  })),
  {
    name: 'a Put requiring attribute_exists of a non-key attribute: the guard is still ANDed on',
    dialect: d,
    code: tx(d, [put('attribute_exists(likedAt)'), counter('ADD likeTally :one', 1)]),
    expect: [{ text: key(d, 'Put'), fixes: [tx(d, [put('(attribute_exists(likedAt)) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])] }],
  },
  {
    name: 'a ClientRequestToken covers replays for 10 minutes only: said, at a lower severity',
    dialect: d,
    code: tx(d, [put(), counter('ADD likeTally :one', 1)], { ClientRequestToken: 'like-7c20-a91f' }),
    expect: [
      {
        text: key(d, 'Put'),
        message: 'ClientRequestToken makes a replay of this exact request within 10 minutes of the first call idempotent',
        severity: 'info',
        fixes: [tx(d, [put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)], { ClientRequestToken: 'like-7c20-a91f' })],
      },
    ],
  },
  {
    name: 'a ConditionCheck on another item does not guard the child',
    dialect: d,
    code: tx(d, [put(), { ConditionCheck: { TableName: 'Social', Key: { PK: 'USER#7c20', SK: 'PROFILE' }, ConditionExpression: 'attribute_not_exists(SK)' } }, counter('ADD likeTally :one', 1)]),
    expect: [
      {
        text: key(d, 'Put'),
        message: 'A ConditionCheck is no guard here',
        related: ['likeTally :one', key(d, 'ConditionCheck')],
        fixes: [tx(d, [put('attribute_not_exists(SK)'), { ConditionCheck: { TableName: 'Social', Key: { PK: 'USER#7c20', SK: 'PROFILE' }, ConditionExpression: 'attribute_not_exists(SK)' } }, counter('ADD likeTally :one', 1)])],
      },
    ],
  },
  {
    name: 'no child write at all: a counter-only transaction (a stream or queue handler) is retried by design',
    dialect: d,
    code: tx(d, [counter('ADD likeTally :one', 1)]),
    expect: [{ text: 'likeTally :one', message: 'This transaction only updates counters and none of its actions fails when it runs again', severity: 'warning', related: [] }],
  },
  { name: 'the article: Put guarded by attribute_not_exists(SK)', dialect: d, code: tx(d, [put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'guard on the partition key', dialect: d, code: tx(d, [put('attribute_not_exists(PK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'guard on both key attributes', dialect: d, code: tx(d, [put('attribute_not_exists(PK) AND attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'the article: Delete guarded by attribute_exists(SK)', dialect: d, code: tx(d, [del('attribute_exists(SK)'), counter('ADD likeTally :minusOne', -1)]) },
  { name: 'NOT attribute_exists(SK) is the same guard', dialect: d, code: tx(d, [put('NOT attribute_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'a parenthesised NOT (attribute_exists(PK)) guard', dialect: d, code: tx(d, [put('likedAt > :zero AND (NOT (attribute_exists(PK)))', { ExpressionAttributeValues: { ':zero': 0 } }), counter('ADD likeTally :one', 1)]) },
  { name: 'an OR of guards on both key attributes is the same guard', dialect: d, code: tx(d, [put('attribute_not_exists(PK) OR attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
  { name: 'unlike: an OR of attribute_exists on the key attributes', dialect: d, code: tx(d, [del('attribute_exists(PK) OR attribute_exists(SK)'), counter('ADD likeTally :minusOne', -1)]) },
  { name: 'unlike: NOT attribute_not_exists(SK)', dialect: d, code: tx(d, [del('NOT attribute_not_exists(SK)'), counter('ADD likeTally :minusOne', -1)]) },
  {
    name: 'a ConditionCheck next to the counter holds again on the replay',
    dialect: d,
    code: tx(d, [{ ConditionCheck: { TableName: 'Social', Key: LIKE, ConditionExpression: 'attribute_exists(SK)' } }, counter('ADD likeTally :one', 1)]),
    expect: [{ text: 'likeTally :one', message: 'A ConditionCheck is no guard here', related: [key(d, 'ConditionCheck')] }],
  },
  {
    name: 'a child written by an Update guarded by attribute_not_exists',
    dialect: d,
    code: tx(d, [{ Update: { TableName: 'Social', Key: LIKE, UpdateExpression: 'SET likedAt = :t', ConditionExpression: 'attribute_not_exists(SK)', ExpressionAttributeValues: { ':t': 1 } } }, counter('ADD likeTally :one', 1)]),
  },
  {
    name: 'no counter in the transaction',
    dialect: d,
    code: tx(d, [put(), { Update: { TableName: 'Social', Key: POST, UpdateExpression: 'SET title = :t', ExpressionAttributeValues: { ':t': 'x' } } }]),
  },
]);

/** Other child writes a like transaction carries: a reverse index (the user's likes) and an audit row in another table. */
const reverse = (cond?: string): V => ({ Put: { TableName: 'Social', Item: { PK: 'USER#7c20', SK: 'LIKE#POST#a91f' }, ...(cond ? { ConditionExpression: cond } : {}) } });
const audit: V = { Put: { TableName: 'Audit', Item: { PK: 'AUDIT#2025-06-23', SK: 'EVT#81f2' } } };
const upd = (expr: string, cond: string | undefined, values: Record<string, V>, names?: Record<string, string>, k: Record<string, V> = POST): V => ({
  Update: {
    TableName: 'Social',
    Key: k,
    UpdateExpression: expr,
    ...(cond ? { ConditionExpression: cond } : {}),
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  },
});

/** What makes a transaction safe from double counting: one action that fails when the same transaction runs again. */
cases.push(
  ...TRANSACT_DIALECTS.flatMap((d): Case[] => [
    // One guard anywhere: the replay fails there and DynamoDB cancels every action of it.
    { name: 'an unguarded reverse-index Put next to the guarded like', dialect: d, code: tx(d, [put('attribute_not_exists(SK)'), reverse(), counter('ADD likeTally :one', 1)]) },
    { name: 'an unguarded audit row in another table next to the guarded like', dialect: d, code: tx(d, [audit, put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]) },
    {
      name: 'unsafe with several child writes: one finding, on the Put sharing the counter item\'s key, the others related',
      dialect: d,
      code: tx(d, [reverse(), put(), counter('ADD likeTally :one', 1)]),
      expect: [
        {
          text: key(d, 'Put'),
          message: "Guard the Put at TransactItems[1] (it shares PK with the counter's item) with attribute_not_exists(SK). One such guard anywhere in the transaction is enough",
          related: ['likeTally :one', key(d, 'Put')],
          titles: ["Add the condition attribute_not_exists(SK) to the Put at TransactItems[1] (it shares PK with the counter's item)"],
          fixes: [tx(d, [reverse(), put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)])],
        },
      ],
    },
    {
      name: 'the counted child in another table is the one whose key mirrors the counter item\'s key, not the audit row',
      dialect: d,
      code: tx(d, [audit, { Put: { TableName: 'Likes', Item: { PK: 'USER#7c20', SK: 'POST#a91f' } } }, { Update: { TableName: 'Posts', Key: { PK: 'POST#a91f' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } }]),
      expect: [
        {
          text: key(d, 'Put'),
          message: "Guard the Put at TransactItems[1] (its key holds the counter item's PK) with attribute_not_exists(SK)",
          fixes: [
            tx(d, [audit, { Put: { TableName: 'Likes', Item: { PK: 'USER#7c20', SK: 'POST#a91f' }, ConditionExpression: 'attribute_not_exists(SK)' } }, { Update: { TableName: 'Posts', Key: { PK: 'POST#a91f' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } }]),
          ],
        },
      ],
    },
    // A version or value condition on the counter item itself: the transaction changes what it compares.
    { name: 'a version condition on the counter item (SET #v = :next IF #v = :seen)', dialect: d, code: tx(d, [put(), upd('SET #v = :next ADD likeTally :one', '#v = :seen', { ':next': 8, ':seen': 7, ':one': 1 }, { '#v': 'version' })]) },
    { name: 'a value condition on the counter itself (ADD likeTally :one IF likeTally = :seen)', dialect: d, code: tx(d, [put(), upd('ADD likeTally :one', 'likeTally = :seen', { ':one': 1, ':seen': 41 })]) },
    {
      name: 'a condition the transaction itself falsifies: #s = :active while it sets #s to :closed',
      dialect: d,
      code: tx(d, [upd('SET #s = :closed', '#s = :active', { ':closed': 'CLOSED', ':active': 'ACTIVE' }, { '#s': 'status' }, { PK: 'POLL#3', SK: 'META' }), upd('ADD closedPolls :one', undefined, { ':one': 1 }, undefined, { PK: 'STATS', SK: 'POLLS' })]),
    },
    { name: 'a monotonic sequence (attribute_not_exists(lastSeq) OR lastSeq < :seq, SET lastSeq = :seq)', dialect: d, code: tx(d, [upd('SET lastSeq = :seq ADD likeTally :one', 'attribute_not_exists(lastSeq) OR lastSeq < :seq', { ':seq': 1042, ':one': 1 })]) },
    { name: 'an event id kept in a list (NOT contains(processed, :id), list_append)', dialect: d, code: tx(d, [upd('SET processed = list_append(processed, :ids) ADD likeTally :one', 'NOT contains(processed, :id)', { ':ids': ['evt-81f2'], ':id': 'evt-81f2', ':one': 1 })]) },
    { name: 'a marker item for the event next to counter-only updates', dialect: d, code: tx(d, [{ Put: { TableName: 'Social', Item: { PK: 'EVENT#81f2', SK: 'EVENT#81f2' }, ConditionExpression: 'attribute_not_exists(PK)' } }, counter('ADD likeTally :one', 1)]) },
    {
      name: 'a lease (attribute_not_exists(PK) OR expiresAt < :now) is a guard until it expires',
      dialect: d,
      code: tx(d, [{ Put: { TableName: 'Social', Item: { ...LIKE, expiresAt: 1750640400 }, ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now', ExpressionAttributeValues: { ':now': 1750636800 } } }, counter('ADD likeTally :one', 1)]),
    },
    {
      name: 'a lease next to a proper guard',
      dialect: d,
      code: tx(d, [{ Put: { TableName: 'Social', Item: { PK: 'LOCK#a91f', SK: 'LOCK', expiresAt: 1750640400 }, ConditionExpression: 'attribute_not_exists(PK) OR expiresAt < :now', ExpressionAttributeValues: { ':now': 1750636800 } } }, put('attribute_not_exists(SK)'), counter('ADD likeTally :one', 1)]),
    },
    { name: 'unlike: a Delete conditioned on its owner (the replay finds no item)', dialect: d, code: tx(d, [del('userId = :me'), counter('ADD likeTally :minusOne', -1)].map((x, i) => (i ? x : { Delete: { TableName: 'Social', Key: LIKE, ConditionExpression: 'userId = :me', ExpressionAttributeValues: { ':me': 'USER#7c20' } } }))) },
    { name: 'unlike: an owner condition plus REMOVE of the owner on the counter item', dialect: d, code: tx(d, [upd('REMOVE likedBy.#u ADD likeTally :minusOne', 'attribute_exists(likedBy.#u)', { ':minusOne': -1 }, { '#u': 'u7c20' })]) },
    // Counter-only transactions: a floor, an existence check or a status check still holds on the replay.
    {
      name: 'counter-only with a floor condition: the floor is no guard',
      dialect: d,
      code: tx(d, [upd('ADD likeTally :minusOne', 'likeTally > :zero', { ':minusOne': -1, ':zero': 0 })]),
      expect: [{ text: 'likeTally :minusOne', message: 'Its ConditionExpression `likeTally > :zero` is no guard: it still holds when the same request runs again' }],
    },
    {
      name: 'counter-only with attribute_exists(PK): the item still exists on the replay',
      dialect: d,
      code: tx(d, [upd('ADD likeTally :one', 'attribute_exists(PK)', { ':one': 1 })]),
      expect: [{ text: 'likeTally :one', message: 'is no guard' }],
    },
    {
      name: 'two counters (per-post and per-user totals): one finding, the other counter related',
      dialect: d,
      code: tx(d, [counter('ADD likeTally :one', 1), upd('ADD likesGiven :one', undefined, { ':one': 1 }, undefined, { PK: 'USER#7c20', SK: 'META' })]),
      expect: [{ text: 'likeTally :one', related: ['likesGiven :one'] }],
    },
    // An ADD operand of unknown type may be a set, where adding the same element twice is harmless.
    {
      name: 'an ADD operand of unknown type: "if :n is a number", at a lower severity',
      dialect: d,
      code: tx(d, [put(), upd('ADD likeTally :n', undefined, { ':n': raw(d.startsWith('py') ? 'n' : 'n') })]),
      expect: [
        {
          text: key(d, 'Put'),
          message: 'counts it twice if :n is a number (adding the same element to a set twice is harmless)',
          severity: 'info',
          fixes: [tx(d, [put('attribute_not_exists(SK)'), upd('ADD likeTally :n', undefined, { ':n': raw('n') })])],
        },
      ],
    },
    {
      name: 'counter-only with an ADD operand of unknown type',
      dialect: d,
      code: tx(d, [upd('ADD likeTally :n', undefined, { ':n': raw('n') })]),
      expect: [{ text: 'likeTally :n', message: 'if :n is a number', severity: 'info' }],
    },
    // A key made on each call: a replay writes a new child, which no condition catches. (JSON has no calls.)
    ...(d === 'json' ? [] : [{
      name: 'a child keyed by a fresh id on each call: no guard can catch the replay; said at info, no fix',
      dialect: d,
      code: tx(d, [{ Put: { TableName: 'Votes', Item: { voter_id: raw(d.startsWith('py') ? 'str(uuid.uuid4())' : 'randomUUID()'), candidate: 'A' } } }, upd('ADD votes :one', undefined, { ':one': 1 }, undefined, { segment: 'A_3' })]),
      expect: [{ text: key(d, 'Put'), severity: 'info' as const, message: 'so no condition on it can catch the replay: key the Put at TransactItems[0] by something a replay repeats', fixes: [] }],
    }]),
    // Unknown means silent.
    { name: 'a ConditionExpression that is a variable', dialect: d, code: tx(d, [{ Put: { TableName: 'Social', Item: LIKE, ConditionExpression: raw('cond') } }, counter('ADD likeTally :one', 1)]) },
  ]),
);

/**
 * An action the extractor cannot read may be the guard (a guarded Put, a versioned Update): the rule is silent about
 * the transaction, which it would otherwise report as "only updates counters". Still reported: the same transactions
 * with every action known, and next to an unread ConditionCheck (no ConditionCheck guards a replay).
 */
const py = (d: Dialect) => d.startsWith('py');
cases.push(
  ...TRANSACT_DIALECTS.filter((d) => d !== 'json').flatMap((d): Case[] => [
    { name: 'a Put that is a variable next to ADD (it may be guarded)', dialect: d, code: tx(d, [{ Put: raw(py(d) ? 'put_action' : 'putAction') }, counter('ADD likeTally :one', 1)]) },
    { name: 'a Put made by a call next to ADD', dialect: d, code: tx(d, [{ Put: raw(py(d) ? 'like_put(post_id)' : 'likePut(postId)') }, counter('ADD likeTally :one', 1)]) },
    { name: 'an Update that is a variable next to ADD (it may carry a version condition)', dialect: d, code: tx(d, [counter('ADD likeTally :one', 1), { Update: raw(py(d) ? 'versioned' : 'versioned') }]) },
    { name: 'an entry made by a call next to ADD', dialect: d, code: tx(d, [raw(py(d) ? 'like_entry(post_id)' : 'likeEntry(postId)'), counter('ADD likeTally :one', 1)]) },
    { name: 'an entry spread from a variable next to ADD', dialect: d, code: tx(d, [raw(py(d) ? '{**like_entry}' : '{ ...likeEntry }'), counter('ADD likeTally :one', 1)]) },
    { name: 'a list spread from a variable next to ADD', dialect: d, code: tx(d, [raw(py(d) ? '*more_items' : '...moreItems'), counter('ADD likeTally :one', 1)]) },
    { name: 'an unknown Put next to a known unguarded Put and ADD', dialect: d, code: tx(d, [put(), { Put: raw(py(d) ? 'marker' : 'marker') }, counter('ADD likeTally :one', 1)]) },
    {
      name: 'a ConditionCheck that is a variable guards nothing: the unguarded Put is still reported',
      dialect: d,
      code: tx(d, [put(), { ConditionCheck: raw(py(d) ? 'user_check' : 'userCheck') }, counter('ADD likeTally :one', 1)]),
      expect: [
        {
          text: key(d, 'Put'),
          message: 'A ConditionCheck is no guard here',
          related: ['likeTally :one', key(d, 'ConditionCheck')],
          fixes: [tx(d, [put('attribute_not_exists(SK)'), { ConditionCheck: raw(py(d) ? 'user_check' : 'userCheck') }, counter('ADD likeTally :one', 1)])],
        },
      ],
    },
    {
      name: 'counter only next to a ConditionCheck that is a variable: still only counters',
      dialect: d,
      code: tx(d, [{ ConditionCheck: raw(py(d) ? 'user_check' : 'userCheck') }, counter('ADD likeTally :one', 1)]),
      expect: [{ text: 'likeTally :one', message: 'This transaction only updates counters', related: [key(d, 'ConditionCheck')] }],
    },
  ]),
  // JSON names no variable: an entry whose action a Step Functions path gives (`"Put.$"`) is not a transaction entry.
  {
    name: 'a Put given by a JSONPath (Put.$) next to ADD',
    dialect: 'json',
    code: tx('json', [{ 'Put.$': '$.likePut' }, counter('ADD likeTally :one', 1)]),
  },
);

cases.push({
  name: 'a reserved key attribute name gets a #placeholder',
  dialect: 'json',
  code: render('json', 'TransactWriteItems', {
    TransactItems: [
      { Put: { TableName: 'T', Item: { pk: 'P#1', name: 'C#1' } } },
      { Update: { TableName: 'T', Key: { pk: 'P#1', name: 'META' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
    ],
  }),
  expect: [
    {
      text: '"Put"',
      fixes: [
        render('json', 'TransactWriteItems', {
          TransactItems: [
            { Put: { TableName: 'T', Item: { pk: 'P#1', name: 'C#1' }, ConditionExpression: 'attribute_not_exists(#name)', ExpressionAttributeNames: { '#name': 'name' } } },
            { Update: { TableName: 'T', Key: { pk: 'P#1', name: 'META' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
          ],
        }),
      ],
    },
  ],
});

ruleCases('unguarded-add-in-transaction', cases);

/** The same shapes in the hosts the table above does not render: an unread action silences, a known one does not. */
describe('unguarded-add-in-transaction: unread actions in Go, Java and YAML', () => {
  before(() => Promise.all([ensureParser('go'), ensureParser('java'), ensureParser('yaml')]));
  const fired = (text: string, lang: string) => lint(text, lang).filter((f) => f.ruleId === 'unguarded-add-in-transaction').map((f) => `${slice(text, f)}: ${f.message.slice(0, 40)}`);

  const goTx = (first: string, params = 'put *types.Put') => `package likes

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func like(ctx context.Context, c *dynamodb.Client, ${params}) error {
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		${first},
		{Update: &types.Update{TableName: aws.String("Social"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "POST#a91f"}, "SK": &types.AttributeValueMemberS{Value: "META"}}, UpdateExpression: aws.String("ADD likeTally :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}}},
	}})
	return err
}
`;
  const goPut = '{Put: &types.Put{TableName: aws.String("Social"), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "POST#a91f"}, "SK": &types.AttributeValueMemberS{Value: "LIKE#7c20"}}}}';

  it('go: a Put that is a parameter or a call, an entry made by a call: silent', () => {
    assert.deepEqual(fired(goTx('{Put: put}'), 'go'), []);
    assert.deepEqual(fired(goTx('{Put: likePut(ctx)}'), 'go'), []);
    assert.deepEqual(fired(goTx('likeEntry(ctx)'), 'go'), []);
  });

  it('go: the same transactions with the Put known are reported', () => {
    assert.deepEqual(fired(goTx(goPut), 'go'), ['Put: No action of this transaction fails when']);
    assert.deepEqual(fired(goTx('{ConditionCheck: check}', 'check *types.ConditionCheck'), 'go'), ['likeTally :one: This transaction only updates counters a']);
  });

  const javaTx = (first: string, param = 'Put put') => `import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class Likes {
    private final DynamoDbClient client;

    public Likes(DynamoDbClient client) {
        this.client = client;
    }

    public void like(${param}) {
        client.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
            ${first},
            TransactWriteItem.builder().update(Update.builder()
                .tableName("Social")
                .key(Map.of("PK", AttributeValue.fromS("POST#a91f"), "SK", AttributeValue.fromS("META")))
                .updateExpression("ADD likeTally :one")
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))
                .build()).build()).build());
    }
}
`;
  const javaPut = 'TransactWriteItem.builder().put(Put.builder().tableName("Social").item(Map.of("PK", AttributeValue.fromS("POST#a91f"), "SK", AttributeValue.fromS("LIKE#7c20"))).build()).build()';

  it('java: a Put that is a parameter or a call, an entry that is a parameter: silent', () => {
    assert.deepEqual(fired(javaTx('TransactWriteItem.builder().put(put).build()'), 'java'), []);
    assert.deepEqual(fired(javaTx('TransactWriteItem.builder().put(likePut()).build()'), 'java'), []);
    assert.deepEqual(fired(javaTx('entry', 'TransactWriteItem entry'), 'java'), []);
  });

  it('java: the same transaction with the Put known is reported', () => {
    assert.deepEqual(fired(javaTx(javaPut), 'java'), ['put: No action of this transaction fails when']);
  });

  // A list filled in a loop (representatives) after entries nothing shows: silent; without them: reported.
  const goLoop = (start: string) => `package likes

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func like(ctx context.Context, c *dynamodb.Client, ids []string, more []types.TransactWriteItem) error {
	${start}
	for _, id := range ids {
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String("Social"), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "POST#a91f"}, "SK": &types.AttributeValueMemberS{Value: id}}}})
	}
	items = append(items, types.TransactWriteItem{Update: &types.Update{TableName: aws.String("Social"), Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "POST#a91f"}, "SK": &types.AttributeValueMemberS{Value: "META"}}, UpdateExpression: aws.String("ADD likeTally :one"), ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}}})
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
	return err
}
`;
  it('go: appends in a loop after a slice of unknown entries: silent; after an empty slice: reported', () => {
    assert.deepEqual(fired(goLoop('items := []types.TransactWriteItem{}\n\titems = append(items, more...)'), 'go'), []);
    assert.deepEqual(fired(goLoop('items := append([]types.TransactWriteItem{}, more...)'), 'go'), []);
    // Unknown entries appended after the loop's representatives.
    const after = goLoop('items := make([]types.TransactWriteItem, 0, 4)').replace('\t}\n\titems = append(items, types.TransactWriteItem{Update', '\t}\n\titems = append(items, more...)\n\titems = append(items, types.TransactWriteItem{Update');
    assert.ok(after.includes('append(items, more...)'));
    assert.deepEqual(fired(after, 'go'), []);
    assert.deepEqual(fired(goLoop('items := []types.TransactWriteItem{}'), 'go'), ['Put: No action of this transaction fails when']);
  });

  const javaLoop = (start: string) =>
    javaTx('x', 'List<String> ids, List<TransactWriteItem> more').replace(
      /client\.transactWriteItems\([^]*?\.build\(\)\)\.build\(\)\)\.build\(\)\);/,
      `${start}
        for (String id : ids) items.add(TransactWriteItem.builder().put(Put.builder().tableName("Social").item(Map.of("PK", AttributeValue.fromS("POST#a91f"), "SK", AttributeValue.fromS(id))).build()).build());
        items.add(TransactWriteItem.builder().update(Update.builder().tableName("Social").key(Map.of("PK", AttributeValue.fromS("POST#a91f"), "SK", AttributeValue.fromS("META"))).updateExpression("ADD likeTally :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))).build()).build());
        client.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(items).build());`,
    ).replace('import java.util.Map;', 'import java.util.ArrayList;\nimport java.util.List;\nimport java.util.Map;');
  it('java: adds in a loop after a list of unknown entries: silent; after an empty list: reported', () => {
    assert.deepEqual(fired(javaLoop('List<TransactWriteItem> items = new ArrayList<>();\n        items.addAll(more);'), 'java'), []);
    assert.deepEqual(fired(javaLoop('List<TransactWriteItem> items = new ArrayList<>(more);'), 'java'), []);
    assert.deepEqual(fired(javaLoop('List<TransactWriteItem> items = new ArrayList<>();'), 'java'), ['put: No action of this transaction fails when']);
  });

  const yamlTx = (first: string) => `StartAt: Like
States:
  Like:
    Type: Task
    Resource: arn:aws:states:::aws-sdk:dynamodb:transactWriteItems
    Parameters:
      TransactItems:
        - ${first}
        - Update:
            TableName: Social
            Key:
              PK: {S: "POST#a91f"}
              SK: {S: META}
            UpdateExpression: ADD likeTally :one
            ExpressionAttributeValues:
              ":one": {N: "1"}
    End: true
`;

  it('yaml (Step Functions): a Put given by a JSONPath is silent, a written one is reported', () => {
    assert.deepEqual(fired(yamlTx('Put.$: $.likePut'), 'yaml'), []);
    assert.deepEqual(fired(yamlTx('Put: {TableName: Social, Item: {PK: {S: "POST#a91f"}, SK: {S: "LIKE#7c20"}}}'), 'yaml'), ['Put: No action of this transaction fails when']);
  });
});

/**
 * Entries a `.map` / comprehension / loop push builds are judged by their representative, but a list that also holds
 * entries nothing shows (a spread of an unknown list) may hold the guard: `ArrayNode.unread`, kept through literals
 * and pushes (flow). The same lists without the unknown part are reported.
 */
describe('unguarded-add-in-transaction: representatives next to unknown entries', () => {
  before(parsersReady);
  const fired = (text: string, lang: string) => lint(text, lang).filter((f) => f.ruleId === 'unguarded-add-in-transaction').map((f) => slice(text, f));
  const TS = `import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
declare const doc: DynamoDBDocumentClient;
`;
  const UPD = "{ Update: { TableName: 'Social', Key: { PK: postId, SK: 'META' }, UpdateExpression: 'ADD likeTally :one', ExpressionAttributeValues: { ':one': 1 } } }";
  const PUT = "{ Put: { TableName: 'Social', Item: { PK: postId, SK: `LIKE#${id}` } } }";
  const ts = (body: string) => `${TS}export async function like(postId: string, ids: string[], more: object[]) {\n${body}\n}\n`;
  const PY = "import boto3\n\nclient = boto3.client('dynamodb')\n\n";
  const PUPD = "{'Update': {'TableName': 'Social', 'Key': {'PK': {'S': post_id}, 'SK': {'S': 'META'}}, 'UpdateExpression': 'ADD likeTally :one', 'ExpressionAttributeValues': {':one': {'N': '1'}}}}";
  const PPUT = "{'Put': {'TableName': 'Social', 'Item': {'PK': {'S': post_id}, 'SK': {'S': 'LIKE#' + i}}}}";
  const py = (body: string) => `${PY}def like(post_id, ids, more):\n${body}\n`;

  it('ts: a spread of an unknown array next to a .map, in the literal or before a loop of pushes: silent', () => {
    assert.deepEqual(fired(ts(`  await doc.send(new TransactWriteCommand({ TransactItems: [...ids.map((id) => (${PUT})), ...more, ${UPD}] }));`), 'typescript'), []);
    assert.deepEqual(fired(ts(`  const base = [...more];\n  await doc.send(new TransactWriteCommand({ TransactItems: [...ids.map((id) => (${PUT})), ...base, ${UPD}] }));`), 'typescript'), []);
    assert.deepEqual(fired(ts(`  const items = [...more];\n  for (const id of ids) items.push(${PUT});\n  items.push(${UPD});\n  await doc.send(new TransactWriteCommand({ TransactItems: items }));`), 'typescript'), []);
    // A push the flow cannot read (a spread of an unknown array) after the representatives.
    assert.deepEqual(fired(ts(`  const items: object[] = ids.map((id) => (${PUT}));\n  items.push(...more);\n  items.push(${UPD});\n  await doc.send(new TransactWriteCommand({ TransactItems: items }));`), 'typescript'), []);
  });

  it('ts: the same lists without the unknown part are reported on the representative Put', () => {
    assert.deepEqual(fired(ts(`  await doc.send(new TransactWriteCommand({ TransactItems: [...ids.map((id) => (${PUT})), ${UPD}] }));`), 'typescript'), ['Put']);
    assert.deepEqual(fired(ts(`  const items: object[] = [];\n  for (const id of ids) items.push(${PUT});\n  items.push(${UPD});\n  await doc.send(new TransactWriteCommand({ TransactItems: items }));`), 'typescript'), ['Put']);
  });

  it('python: a splat or extend of an unknown list next to a comprehension or loop appends: silent', () => {
    assert.deepEqual(fired(py(`    client.transact_write_items(TransactItems=[*[${PPUT} for i in ids], *more, ${PUPD}])`), 'python'), []);
    assert.deepEqual(fired(py(`    items = [*more]\n    for i in ids:\n        items.append(${PPUT})\n    items.append(${PUPD})\n    client.transact_write_items(TransactItems=items)`), 'python'), []);
    assert.deepEqual(fired(py(`    items = []\n    items.extend(more)\n    for i in ids:\n        items.append(${PPUT})\n    items.append(${PUPD})\n    client.transact_write_items(TransactItems=items)`), 'python'), []);
    assert.deepEqual(fired(py(`    items = []\n    for i in ids:\n        items.append(${PPUT})\n    items.extend(more)\n    items.append(${PUPD})\n    client.transact_write_items(TransactItems=items)`), 'python'), []);
  });

  it('python: the same lists without the unknown part are reported', () => {
    assert.deepEqual(fired(py(`    client.transact_write_items(TransactItems=[*[${PPUT} for i in ids], ${PUPD}])`), 'python'), ["'Put'"]);
    assert.deepEqual(fired(py(`    items = []\n    for i in ids:\n        items.append(${PPUT})\n    items.append(${PUPD})\n    client.transact_write_items(TransactItems=items)`), 'python'), ["'Put'"]);
  });
});
