import { strict as assert } from 'node:assert';
import { Position, TextDocument } from 'vscode-languageserver-textdocument';
import { createDocumentExtractor, extract, initParsers, operationsOf, prop, str, tableNameOf } from '../../../server/src/extract';
import { tableId } from '../../../server/src/rules/analysis';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { DynalintService } from '../../../server/src/service';
import { assertOffsets, assertSameExtraction } from './support';

const HEAD = `import os
import boto3
ddb = boto3.resource("dynamodb")
`;

/**
 * Each case: Python after HEAD, and per extracted site (in order) the table its operations name, `null` when unknown.
 * `receiver` (default: the same as `tables[0]` for a Table call) is the table carried by the site's receiver.
 */
const CASES: { name: string; code: string; tables: (string | null)[][]; receiver?: (string | null)[] }[] = [
  { name: 'module-level Table literal', code: `table = ddb.Table("Social")\ndef f():\n    table.put_item(Item={"PK": "a"})`, tables: [['Social']] },
  { name: 'Table(name=...) on a chained resource', code: `table = boto3.resource("dynamodb").Table(name='Social')\ntable.get_item(Key={"PK": "a"})`, tables: [['Social']] },
  { name: 'a constant', code: `TABLE = 'Social'\ntable = ddb.Table(TABLE)\ntable.delete_item(Key={"PK": "a"})`, tables: [['Social']] },
  { name: 'a concatenation of constants', code: `STAGE = 'prod'\ntable = ddb.Table(STAGE + '-' "likes")\ntable.scan(FilterExpression="a > :a")`, tables: [['prod-likes']] },
  { name: 'an f-string without substitutions', code: `table = ddb.Table(f"Social")\ntable.query(KeyConditionExpression="PK = :p")`, tables: [['Social']] },
  { name: 'a function-local assignment', code: `def f():\n    t = ddb.Table("Local")\n    t.update_item(Key={"PK": "a"}, UpdateExpression="SET a = :a")`, tables: [['Local']] },
  {
    name: 'the latest assignment before the call',
    code: `def f():\n    t = ddb.Table("A")\n    t.put_item(Item={"PK": "a"})\n    t = ddb.Table("B")\n    t.put_item(Item={"PK": "a"})`,
    tables: [['A'], ['B']],
  },
  {
    name: 'a local of another function does not leak',
    code: `def f():\n    t = ddb.Table("A")\ndef g():\n    t.put_item(Item={"PK": "a"})`,
    tables: [[null]],
  },
  { name: 'aioboto3: awaited Table', code: `async def f(res):\n    t = await res.Table("Async")\n    await t.put_item(Item={"PK": "a"})`, tables: [['Async']] },
  { name: 'a direct chain', code: `boto3.resource('dynamodb').Table('Chain').put_item(Item={"PK": "a"})`, tables: [['Chain']] },
  {
    name: 'self.table set in __init__, used in a method',
    code: `class Repo:\n    def __init__(self):\n        self.table = ddb.Table("Social")\n    def like(self):\n        self.table.update_item(Key={"PK": "a"}, UpdateExpression="ADD n :one")`,
    tables: [['Social']],
  },
  {
    name: 'self.table through a local and a constant',
    code: `T = "Social"\nclass Repo:\n    def __init__(self):\n        table = ddb.Table(T)\n        self.table = table\n    def like(self):\n        self.table.put_item(Item={"PK": "a"})`,
    tables: [['Social']],
  },
  {
    name: 'a class attribute',
    code: `class Repo:\n    posts = ddb.Table("Posts")\n    def get(self):\n        return self.posts.get_item(Key={"PK": "a"})`,
    tables: [['Posts']],
  },
  {
    name: 'each class its own self.table',
    code: `class A:\n    def __init__(self):\n        self.table = ddb.Table("A")\n    def f(self):\n        self.table.put_item(Item={"PK": "a"})\nclass B:\n    def __init__(self):\n        self.table = ddb.Table("B")\n    def f(self):\n        self.table.put_item(Item={"PK": "a"})`,
    tables: [['A'], ['B']],
  },
  {
    name: 'self.table bound to two different tables: unknown',
    code: `class Repo:\n    def __init__(self):\n        self.table = ddb.Table("A")\n    def switch(self):\n        self.table = ddb.Table("B")\n    def f(self):\n        self.table.put_item(Item={"PK": "a"})`,
    tables: [[null]],
  },
  {
    name: 'self.table given by the caller: unknown',
    code: `class Repo:\n    def __init__(self, table):\n        self.table = table\n    def f(self):\n        self.table.put_item(Item={"PK": "a"})`,
    tables: [[null]],
  },
  { name: 'os.environ: unknown', code: `table = ddb.Table(os.environ["TABLE"])\ntable.put_item(Item={"PK": "a"})`, tables: [[null]] },
  { name: 'os.environ.get with a default: unknown', code: `table = ddb.Table(os.environ.get("T", "Social"))\ntable.put_item(Item={"PK": "a"})`, tables: [[null]] },
  { name: 'an f-string with substitutions: unknown', code: `STAGE = "prod"\ntable = ddb.Table(f"{STAGE}-likes")\ntable.put_item(Item={"PK": "a"})`, tables: [[null]] },
  { name: 'a parameter: unknown', code: `def f(name):\n    ddb.Table(name).put_item(Item={"PK": "a"})`, tables: [[null]] },
  {
    name: 'a parameter shadowing a module constant: unknown',
    code: `TABLE = "Social"\ndef f(TABLE="x", *rest, **kw):\n    t = ddb.Table(TABLE)\n    t.put_item(Item={"PK": "a"})`,
    tables: [[null]],
  },
  { name: 'a Table received as a parameter: unknown', code: `def f(table):\n    table.put_item(Item={"PK": "a"})`, tables: [[null]] },
  {
    name: 'meta.client is the low-level client: it names its own tables',
    code: `table = ddb.Table("Social")\ntable.meta.client.transact_write_items(TransactItems=[{"Put": {"TableName": "Likes", "Item": {"PK": {"S": "a"}}}}, {"Update": {"TableName": "Posts", "Key": {"PK": {"S": "a"}}, "UpdateExpression": "ADD n :o", "ExpressionAttributeValues": {":o": {"N": "1"}}}}])`,
    tables: [['Likes', 'Posts']],
    receiver: [null],
  },
  {
    name: 'a client call names its table; a resource batch names them per entry',
    code: `c = boto3.client("dynamodb")\nc.put_item(TableName="Posts", Item={"PK": {"S": "a"}})\nddb.batch_write_item(RequestItems={"Likes": [{"PutRequest": {"Item": {"PK": "a"}}}]})`,
    tables: [['Posts'], ['Likes']],
    receiver: [null, null],
  },
];

describe('extract: the table of a boto3 Table receiver', () => {
  before(() => initParsers());

  for (const c of CASES)
    it(c.name, () => {
      const text = HEAD + c.code + '\n';
      const sites = extract(text, 'python').sites;
      assert.deepEqual(
        sites.map((s) => operationsOf(s).map((o) => o.table ?? null)),
        c.tables,
      );
      assert.deepEqual(
        sites.map((s) => (s.receiverTable?.kind === 'string' ? s.receiverTable.value : null)),
        c.receiver ?? c.tables.map((t) => t[0]),
      );
      for (const s of sites) {
        // The name points at the characters that spell it, and rules compare tables through it.
        if (s.receiverTable?.kind === 'string') assertOffsets(text, s.receiverTable);
        assert.equal(tableNameOf(s), (s.receiverTable?.kind === 'string' ? s.receiverTable.value : undefined) ?? str(prop(s.params, 'TableName')));
        for (const op of operationsOf(s)) if (op.table) assert.equal(tableId(text, op), op.table);
      }
    });

  it('the name range covers the literal, also through a constant', () => {
    const text = `${HEAD}TABLE = 'Social'\ntable = ddb.Table(TABLE)\ntable.put_item(Item={"PK": "a"})\n`;
    const [site] = extract(text, 'python').sites;
    assert.deepEqual(site.receiverTable?.range, { start: text.indexOf("'Social'"), end: text.indexOf("'Social'") + 8 });
    assert.equal(site.receiverTable?.kind === 'string' && site.receiverTable.offsets[0], text.indexOf("'Social'") + 1);
  });

  it('is kept, shifted, by the incremental extractor', () => {
    const text = `${HEAD}def f():\n    pass\n\nclass Repo:\n    def __init__(self):\n        self.table = ddb.Table("Social")\n    def g(self):\n        self.table.put_item(Item={"PK": "a"})\n`;
    const doc = createDocumentExtractor('python');
    try {
      const before = doc.update(text).sites[0];
      const at = text.indexOf('pass');
      const edited = text.slice(0, at) + 'x = 1\n    ' + text.slice(at);
      const got = doc.update(edited, [{ start: at, end: at, text: 'x = 1\n    ' }]);
      assert.deepEqual(doc.stats, { full: 1, incremental: 1 });
      assert.equal(got.sites[0], before, 'the untouched class keeps its site');
      assertSameExtraction(got, extract(edited, 'python'));
      const r = got.sites[0].receiverTable!.range;
      assert.equal(edited.slice(r.start, r.end), '"Social"');
    } finally {
      doc.dispose();
    }
  });
});

describe('the cost hover names the table of a boto3 Table call', () => {
  before(() => initParsers());

  it('update_item on self.table', () => {
    const text = `${HEAD}class Repo:\n    def __init__(self):\n        self.table = ddb.Table("Social")\n    def like(self):\n        self.table.update_item(Key={"PK": "a"}, UpdateExpression="ADD likes :one", ExpressionAttributeValues={":one": 1})\n`;
    const doc = TextDocument.create('file:///repo.py', 'python', 1, text);
    const at: Position = doc.positionAt(text.indexOf('update_item') + 3);
    const hover = new DynalintService().hover(doc, DEFAULT_SETTINGS, at);
    const value = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    assert.match(value, /^\*\*UpdateItem\*\* · cost estimate/);
    assert.ok(value.split('\n').includes('| Update `Social` | 1 KB (assumed) | 1 WCU |'), value);
  });
});

