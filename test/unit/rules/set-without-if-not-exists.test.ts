import { strict as assert } from 'node:assert';
import { Case, PRELUDE, lint, parsersReady, ruleCases, slice } from './check';
import { applyEdits } from '../../../server/src/rules/edit';
import { ALL_DIALECTS, V, dec, render } from './render';

const KEY = { PK: 'VID#9f3a', SK: 'STATS#TOTAL' };
const update = (expr: string, values?: Record<string, V>, extra: Record<string, V> = {}): Record<string, V> => ({
  TableName: 'Videos',
  Key: KEY,
  UpdateExpression: expr,
  ...extra,
  ...(values ? { ExpressionAttributeValues: values } : {}),
});

const cases: Case[] = ALL_DIALECTS.flatMap((d): Case[] => {
  const r = (p: Record<string, V>) => render(d, 'UpdateItem', p);
  return [
    {
      name: 'x = x + :n: wrap with if_not_exists, or rewrite as ADD',
      dialect: d,
      code: r(update('SET play_count = play_count + :one', { ':one': 1 })),
      expect: [
        {
          text: 'play_count = play_count + :one',
          message: 'no play_count yet',
          fixes: [
            r(update('SET play_count = if_not_exists(play_count, :zero) + :one', { ':one': 1, ':zero': dec(0) })),
            r(update('ADD play_count :one', { ':one': 1 })),
          ],
        },
      ],
    },
    {
      name: 'x = :n + x',
      dialect: d,
      code: r(update('SET play_count = :one + play_count', { ':one': 1 })),
      expect: [
        {
          text: 'play_count = :one + play_count',
          fixes: [
            r(update('SET play_count = :one + if_not_exists(play_count, :zero)', { ':one': 1, ':zero': dec(0) })),
            r(update('ADD play_count :one', { ':one': 1 })),
          ],
        },
      ],
    },
    {
      name: 'x = x - :n: only the wrap (ADD would need a negated value)',
      dialect: d,
      code: r(update('SET stock = stock - :qty', { ':qty': 2 }, { ConditionExpression: 'attribute_exists(sku)' })),
      expect: [
        {
          text: 'stock = stock - :qty',
          fixes: [r(update('SET stock = if_not_exists(stock, :zero) - :qty', { ':qty': 2, ':zero': dec(0) }, { ConditionExpression: 'attribute_exists(sku)' }))],
        },
      ],
    },
    {
      name: 'a condition that does not need the counter (<>, OR) leaves the update exposed',
      dialect: d,
      code: r(update('SET n = n + :one', { ':one': 1, ':z': 0 }, { ConditionExpression: 'n <> :z OR attribute_exists(n)' })),
      expect: [
        {
          text: 'n = n + :one',
          fixes: [
            r(update('SET n = if_not_exists(n, :z) + :one', { ':one': 1, ':z': 0 }, { ConditionExpression: 'n <> :z OR attribute_exists(n)' })),
            r(update('ADD n :one', { ':one': 1, ':z': 0 }, { ConditionExpression: 'n <> :z OR attribute_exists(n)' })),
          ],
        },
      ],
    },
    // A condition that needs the counter fails first (ConditionalCheckFailedException): checked against DynamoDB Local.
    { name: 'floor condition on the counter', dialect: d, code: r(update('SET stock = stock - :qty', { ':qty': 2 }, { ConditionExpression: 'stock >= :qty' })) },
    { name: 'optimistic lock on the counter', dialect: d, code: r(update('SET v = v + :one', { ':one': 1, ':e': 3 }, { ConditionExpression: 'attribute_exists(PK) AND v = :e' })) },
    { name: 'attribute_exists on the counter', dialect: d, code: r(update('SET n = n + :one', { ':one': 1 }, { ConditionExpression: '(attribute_exists(n))' })) },
    {
      name: 'an existing zero placeholder is reused; a taken :zero is not',
      dialect: d,
      code: r(update('SET n = n + :zero, created = if_not_exists(created, :z)', { ':zero': 5, ':z': 0 })),
      expect: [
        {
          text: 'n = n + :zero',
          fixes: [
            r(update('SET n = if_not_exists(n, :z) + :zero, created = if_not_exists(created, :z)', { ':zero': 5, ':z': 0 })),
            r(update('SET created = if_not_exists(created, :z) ADD n :zero', { ':zero': 5, ':z': 0 })),
          ],
        },
      ],
    },
    {
      name: 'no ExpressionAttributeValues yet: the map is created',
      dialect: d,
      code: r(update('SET total = total + delta')),
      expect: [{ text: 'total = total + delta', fixes: [r(update('SET total = if_not_exists(total, :zero) + delta', { ':zero': dec(0) }))] }],
    },
    {
      name: '#name placeholders are kept',
      dialect: d,
      code: r(update('SET #c = #c + :one', { ':one': 1 }, { ExpressionAttributeNames: { '#c': 'count' } })),
      expect: [
        {
          text: '#c = #c + :one',
          message: 'when the item has no #c (count) yet',
          fixes: [
            r(update('SET #c = if_not_exists(#c, :zero) + :one', { ':one': 1, ':zero': dec(0) }, { ExpressionAttributeNames: { '#c': 'count' } })),
            r(update('ADD #c :one', { ':one': 1 }, { ExpressionAttributeNames: { '#c': 'count' } })),
          ],
        },
      ],
    },
    { name: 'wrapped in if_not_exists', dialect: d, code: r(update('SET n = if_not_exists(n, :zero) + :one', { ':zero': 0, ':one': 1 })) },
    { name: 'ADD', dialect: d, code: r(update('ADD play_count :one', { ':one': 1 })) },
    { name: 'arithmetic on another attribute', dialect: d, code: r(update('SET total = base + :one', { ':one': 1 })) },
    { name: 'plain SET', dialect: d, code: r(update('SET title = :t', { ':t': 'x' })) },
  ];
});

const json = (expr: string) => render('json', 'UpdateItem', update(expr, { ':one': 1, ':a': 'a', ':t': ['x'] }));
cases.push(
  {
    name: 'ADD rewrite leaves the other SET actions and clauses in place',
    dialect: 'json',
    code: json('SET a = :a, n = n + :one REMOVE b, c[0]'),
    expect: [{ text: 'n = n + :one', fixes: [json('SET a = :a, n = if_not_exists(n, :zero) + :one REMOVE b, c[0]'), json('SET a = :a REMOVE b, c[0] ADD n :one')] }],
  },
  {
    name: 'ADD rewrite joins an existing ADD clause',
    dialect: 'json',
    code: json('SET n = n + :one, a = :a ADD tags :t'),
    expect: [{ text: 'n = n + :one', fixes: [json('SET n = if_not_exists(n, :zero) + :one, a = :a ADD tags :t'), json('SET a = :a ADD tags :t, n :one')] }],
  },
);
// The zero value goes after the last entry of the existing map.
for (const c of cases.slice(-2)) c.expect![0].fixes![0] = c.expect![0].fixes![0].replace('"L": [{"S": "x"}]}}', '"L": [{"S": "x"}]}, ":zero": {"N": "0"}}');

/** The counter cannot be missing: the same document creates the item with it set to a number. */
cases.push(
  ...ALL_DIALECTS.flatMap((d): Case[] => {
    const r = (p: Record<string, V>) => render(d, 'UpdateItem', p);
    const create = (item: Record<string, V>, table = 'Videos') => render(d, 'PutItem', { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' });
    const bump = r(update('SET viewCount = viewCount + :one', { ':one': 1 }));
    const wrapped = r(update('SET viewCount = if_not_exists(viewCount, :zero) + :one', { ':one': 1, ':zero': dec(0) }));
    const added = r(update('ADD viewCount :one', { ':one': 1 }));
    // JSON holds one request per document: the Put goes into a list with the update.
    const both = (put: string, upd: string) => (d === 'json' ? `[${put.trimEnd()},\n${upd.trimEnd()}]\n` : put + upd);
    return [
      { name: 'a Put of the same item with viewCount: 0 in the same file', dialect: d, code: both(create({ ...KEY, viewCount: 0 }), bump) },
      { name: 'the Put holds the counter as a number written in the document style', dialect: d, code: both(create({ ...KEY, title: 'x', viewCount: dec(0) }), bump) },
      {
        name: 'a Put of the same item without the counter: still flagged',
        dialect: d,
        code: both(create({ ...KEY, title: 'x' }), bump),
        expect: [{ text: 'viewCount = viewCount + :one', severity: 'warning', fixes: [both(create({ ...KEY, title: 'x' }), wrapped), both(create({ ...KEY, title: 'x' }), added)] }],
      },
      {
        name: 'a Put of another item (another sort key) with the counter: still flagged',
        dialect: d,
        code: both(create({ PK: 'VID#9f3a', SK: 'STATS#DAILY', viewCount: 0 }), bump),
        expect: [{ text: 'viewCount = viewCount + :one', fixes: [both(create({ PK: 'VID#9f3a', SK: 'STATS#DAILY', viewCount: 0 }), wrapped), both(create({ PK: 'VID#9f3a', SK: 'STATS#DAILY', viewCount: 0 }), added)] }],
      },
      {
        name: 'the counter held as a string is no number: still flagged',
        dialect: d,
        code: both(create({ ...KEY, viewCount: 'none' }), bump),
        expect: [{ text: 'viewCount = viewCount + :one', fixes: [both(create({ ...KEY, viewCount: 'none' }), wrapped), both(create({ ...KEY, viewCount: 'none' }), added)] }],
      },
      // (py-resource renders every call on one Table object: no second table to write to.)
      ...(d === 'py-resource'
        ? []
        : [
            {
              name: 'a Put with the counter in another table: still flagged',
              dialect: d,
              code: both(create({ ...KEY, viewCount: 0 }, 'Archive'), bump),
              expect: [{ text: 'viewCount = viewCount + :one', fixes: [both(create({ ...KEY, viewCount: 0 }, 'Archive'), wrapped), both(create({ ...KEY, viewCount: 0 }, 'Archive'), added)] }],
            },
          ]),
      // The condition makes sure the item exists, not the counter: whether an item can exist without it is decided where
      // items are created, which this request does not show.
      {
        name: 'a condition requiring the item (attribute_exists(PK)): said as an assumption, at info',
        dialect: d,
        code: r(update('SET viewCount = viewCount + :one', { ':one': 1 }, { ConditionExpression: 'attribute_exists(PK)' })),
        expect: [
          {
            text: 'viewCount = viewCount + :one',
            severity: 'info',
            message: 'fails with a ValidationException if the item can exist without viewCount (the condition makes sure the item exists, not viewCount)',
            fixes: [
              r(update('SET viewCount = if_not_exists(viewCount, :zero) + :one', { ':one': 1, ':zero': dec(0) }, { ConditionExpression: 'attribute_exists(PK)' })),
              r(update('ADD viewCount :one', { ':one': 1 }, { ConditionExpression: 'attribute_exists(PK)' })),
            ],
          },
        ],
      },
    ];
  }),
);

/** Key patterns: a template or f-string key fits a Put written with other variable names. */
const TS_DOC = (put: string, upd: string) => `export async function create(id: string) {
  await doc.send(new PutCommand({ TableName: 'Videos', Item: ${put}, ConditionExpression: 'attribute_not_exists(PK)' }));
}
export async function play(videoId: string) {
  await doc.send(new UpdateCommand({ TableName: 'Videos', Key: ${upd}, UpdateExpression: 'SET #c = #c + :one', ExpressionAttributeNames: { '#c': 'viewCount' }, ExpressionAttributeValues: { ':one': 1 } }));
}
`;
const PY_RES = (put: string, upd: string) => `def create(vid):
    table.put_item(Item=${put}, ConditionExpression='attribute_not_exists(PK)')


def play(video_id):
    table.update_item(Key=${upd}, UpdateExpression='SET #c = #c + :one', ExpressionAttributeNames={'#c': 'viewCount'}, ExpressionAttributeValues={':one': 1})
`;
cases.push(
  { name: 'template keys with other variable names fit', dialect: 'ts-doc', code: TS_DOC("{ PK: `VID#${id}`, SK: 'STATS', viewCount: 0 }", "{ PK: `VID#${videoId}`, SK: 'STATS' }") },
  { name: 'a concatenated key fits a template key', dialect: 'ts-doc', code: TS_DOC("{ PK: 'VID#' + id, SK: 'STATS', viewCount: 0 }", "{ PK: `VID#${videoId}`, SK: 'STATS' }") },
  {
    name: 'template keys of another entity do not fit',
    dialect: 'ts-doc',
    code: TS_DOC("{ PK: `USER#${id}`, SK: 'STATS', viewCount: 0 }", "{ PK: `VID#${videoId}`, SK: 'STATS' }"),
    expect: [{ text: '#c = #c + :one', message: 'when the item has no #c (viewCount) yet', fixes: [TS_DOC("{ PK: `USER#${id}`, SK: 'STATS', viewCount: 0 }", "{ PK: `VID#${videoId}`, SK: 'STATS' }").replace('#c = #c + :one', '#c = if_not_exists(#c, :zero) + :one').replace("{ ':one': 1 }", "{ ':one': 1, ':zero': 0 }"), TS_DOC("{ PK: `USER#${id}`, SK: 'STATS', viewCount: 0 }", "{ PK: `VID#${videoId}`, SK: 'STATS' }").replace('SET #c = #c + :one', 'ADD #c :one')] }],
  },
  { name: 'f-string keys with other variable names fit', dialect: 'py-resource', code: PY_RES("{'PK': f'VID#{vid}', 'SK': 'STATS', 'viewCount': 0}", "{'PK': f'VID#{video_id}', 'SK': 'STATS'}") },
  { name: 'a key passed as a variable fits any Put of the table', dialect: 'py-resource', code: PY_RES("{'PK': vid, 'SK': 'STATS', 'viewCount': Decimal(0)}", "{'PK': video_id, 'SK': 'STATS'}") },
);

/** Step Functions: `.$` keys are filled in at run time; `#name` placeholders resolve through ExpressionAttributeNames. */
const sfn = (states: Record<string, unknown>) => JSON.stringify({ StartAt: Object.keys(states)[0], States: states }, null, 2) + '\n';
const task = (api: string, parameters: Record<string, unknown>) => ({ Type: 'Task', Resource: `arn:aws:states:::dynamodb:${api}`, Parameters: parameters, End: true });
const sfnUpdate = (cond?: string) =>
  task('updateItem', {
    TableName: 'Videos',
    Key: { PK: { 'S.$': '$.videoId' }, SK: { S: 'STATS' } },
    UpdateExpression: 'SET #c = #c + :one',
    ...(cond ? { ConditionExpression: cond } : {}),
    ExpressionAttributeNames: { '#c': 'viewCount' },
    ExpressionAttributeValues: { ':one': { N: '1' } },
  });
cases.push(
  { name: 'Step Functions: the condition names the counter through #c (attribute_exists(#c))', dialect: 'json', code: sfn({ Count: sfnUpdate('attribute_exists(#c)') }) },
  { name: 'Step Functions: the condition compares the counter through #c', dialect: 'json', code: sfn({ Count: { ...sfnUpdate(), Parameters: { ...sfnUpdate().Parameters, ConditionExpression: '#c < :max', ExpressionAttributeValues: { ':one': { N: '1' }, ':max': { 'N.$': '$.max' } } } } }) },
  {
    name: 'Step Functions: a Put state creates the item with the counter at 0',
    dialect: 'json',
    code: sfn({ Create: task('putItem', { TableName: 'Videos', Item: { PK: { 'S.$': '$.videoId' }, SK: { S: 'STATS' }, viewCount: { N: '0' } } }), Count: sfnUpdate() }),
  },
  {
    name: 'Step Functions: an update requiring only the item is said as an assumption',
    dialect: 'json',
    code: sfn({ Count: sfnUpdate('attribute_exists(PK)') }),
    expect: [
      {
        text: '#c = #c + :one',
        severity: 'info',
        message: 'if the item can exist without #c (viewCount)',
        fixes: [
          sfn({ Count: sfnUpdate('attribute_exists(PK)') })
            .replace('SET #c = #c + :one', 'SET #c = if_not_exists(#c, :zero) + :one')
            .replace('"N": "1"\n          }\n', '"N": "1"\n          },\n          ":zero": {"N": "0"}\n'),
          sfn({ Count: sfnUpdate('attribute_exists(PK)') }).replace('SET #c = #c + :one', 'ADD #c :one'),
        ],
      },
    ],
  },
);

ruleCases('set-without-if-not-exists', cases);

describe('set-without-if-not-exists: host layouts', () => {
  before(parsersReady);
  const fixesOf = (text: string, lang: string) => {
    const f = lint(text, lang).filter((x) => x.ruleId === 'set-without-if-not-exists');
    assert.equal(f.length, 1);
    return f[0].fixes!.map((x) => applyEdits(text, x.edits));
  };

  it('boto3 resource without a decimal import gets `from decimal import Decimal` after the imports', () => {
    const text = "import boto3\n\ntable = boto3.resource('dynamodb').Table('T')\ntable.update_item(Key={'PK': 'p'}, UpdateExpression='SET n = n + :one', ExpressionAttributeValues={':one': 1})\n";
    assert.equal(
      fixesOf(text, 'python')[0],
      "import boto3\nfrom decimal import Decimal\n\ntable = boto3.resource('dynamodb').Table('T')\ntable.update_item(Key={'PK': 'p'}, UpdateExpression='SET n = if_not_exists(n, :zero) + :one', ExpressionAttributeValues={':one': 1, ':zero': Decimal(0)})\n",
    );
  });

  it('multi-line TypeScript with trailing commas keeps its layout and quotes', () => {
    const text = `${PRELUDE['ts-doc']}export async function play() {
  await doc.send(new UpdateCommand({
    TableName: "Videos",
    Key: { PK: "VID#9f3a", SK: "STATS#TOTAL" },
    UpdateExpression: "SET play_count = play_count + :one",
  }));
}
`;
    const [wrap] = fixesOf(text, 'typescript');
    assert.equal(
      wrap.slice(PRELUDE['ts-doc'].length),
      `export async function play() {
  await doc.send(new UpdateCommand({
    TableName: "Videos",
    Key: { PK: "VID#9f3a", SK: "STATS#TOTAL" },
    UpdateExpression: "SET play_count = if_not_exists(play_count, :zero) + :one",
    ExpressionAttributeValues: { ":zero": 0 },
  }));
}
`,
    );
  });

  it('edits land inside the right piece of a concatenated expression string', () => {
    const text = `${PRELUDE['ts-v3']}client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'SET a = :a, ' + 'n = n + :one', ExpressionAttributeValues: { ':a': { S: 'a' }, ':one': { N: '1' } } }));\n`;
    const f = lint(text, 'typescript').filter((x) => x.ruleId === 'set-without-if-not-exists');
    assert.deepEqual(f.map((x) => slice(text, x)), ['n = n + :one']);
    const [wrap, add] = fixesOf(text, 'typescript').map((t) => t.slice(PRELUDE['ts-v3'].length));
    assert.equal(wrap, `client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'SET a = :a, ' + 'n = if_not_exists(n, :zero) + :one', ExpressionAttributeValues: { ':a': { S: 'a' }, ':one': { N: '1' }, ':zero': { N: '0' } } }));\n`);
    assert.equal(add, `client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'SET a = :a ADD n :one', ExpressionAttributeValues: { ':a': { S: 'a' }, ':one': { N: '1' } } }));\n`);
  });
});
