/**
 * Table resolution gaps found by the held-out corpus (test/corpus/README.md, "Key-schema coverage check"), each with
 * the same shape where the link is not sound, which must stay silent:
 *   - a CreateTable request held in a variable (`const params = {...}; new CreateTableCommand(params)`, boto3
 *     `create_table(**params)`), not when the variable is changed, reassigned, passed elsewhere or out of scope;
 *   - Go `os.Getenv("T")` and Java `System.getenv("T")` through the environment bindings, not `os.Getenv("T") + "-x"`;
 *   - an environment variable and a table's `TableName` that are both `!Ref P` of one Parameter (never its Default).
 */
import assert from 'node:assert/strict';
import { TableIndex, envVariableOf } from '../../../server/src/tables';
import { ensureTableParsers, extractTables, type TableFileKind } from '../../../server/src/tables/extract';
import type { FileTables } from '../../../server/src/tables/model';
import { lint, parsersReady, slice } from '../rules/check';

const KEY_RULES = ['key-schema-mismatch', 'item-key-schema', 'key-condition-schema', 'unknown-index', 'consistent-read-gsi', 'filter-table-key', 'update-table-key'];

/** `name pk:T` per table, `env VAR=#Id` per binding. */
function summary(f: FileTables): string[] {
  return [
    ...f.tables.map((t) => `${!t.name ? '(generated)' : 'literal' in t.name ? t.name.literal : `~${t.name.pattern}`} ${t.partition.name}:${t.partition.type ?? '?'}${t.sort ? ` ${t.sort.name}:${t.sort.type ?? '?'}` : ''}`),
    ...f.env.map((e) => `env ${e.variable}=${e.tableId ? e.tableId.replace(/^.*#/, '#') : JSON.stringify(e.name)}`),
  ];
}

const TS_PARAMS = `const params = { TableName: "Emp", KeySchema: [{ AttributeName: "id", KeyType: "HASH" }], AttributeDefinitions: [{ AttributeName: "id", AttributeType: "N" }] };`;
const PY_PARAMS = `params = {"TableName": "Users", "KeySchema": [{"AttributeName": "email", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "email", "AttributeType": "S"}]}`;
const indent = (s: string) => s.replace(/^/gm, '    ');

const DEFINITIONS: { name: string; kind: TableFileKind; text: string; expect: string[] }[] = [
  { name: 'TS: CreateTableCommand(params), params a const object literal read for its TableName', kind: 'typescript', text: `${TS_PARAMS}\nawait c.send(new CreateTableCommand(params));\nawait waitUntilTableExists({ client: c }, { TableName: params.TableName });\n`, expect: ['Emp id:N'] },
  { name: 'JS (SDK v2): dynamodb.createTable(params).promise(), params declared with let and never written', kind: 'javascript', text: `async function setup() {\n  let params = { TableName: "Emp", KeySchema: [{ AttributeName: "id", KeyType: "HASH" }], AttributeDefinitions: [{ AttributeName: "id", AttributeType: "N" }] };\n  await dynamodb.createTable(params).promise();\n}\n`, expect: ['Emp id:N'] },
  { name: 'TS negative: a key added to params.KeySchema afterwards', kind: 'typescript', text: `${TS_PARAMS}\nparams.KeySchema.push({ AttributeName: "ts", KeyType: "RANGE" });\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: a property written', kind: 'typescript', text: `${TS_PARAMS}\nparams.TableName = "Other";\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: a property deleted', kind: 'typescript', text: `${TS_PARAMS}\ndelete params.AttributeDefinitions;\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: the variable reassigned', kind: 'typescript', text: TS_PARAMS.replace('const', 'let') + `\nif (stage) params = other;\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: handed to another function first', kind: 'typescript', text: `${TS_PARAMS}\naddStage(params);\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: a list read out of it (can be changed through the alias)', kind: 'typescript', text: `${TS_PARAMS}\nconst ks = params.KeySchema;\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: destructured into', kind: 'typescript', text: `${TS_PARAMS}\n[params.TableName] = names;\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: declared in another function (another variable at the call)', kind: 'typescript', text: `function a() {\n${indent(TS_PARAMS)}\n}\nasync function b() {\n  await c.send(new CreateTableCommand(params));\n}\n`, expect: [] },
  { name: 'TS negative: two declarations of the name', kind: 'typescript', text: `function a() {\n${indent(TS_PARAMS)}\n  return c.send(new CreateTableCommand(params));\n}\nfunction b(params) {\n  return c.send(new CreateTableCommand(params));\n}\n`, expect: [] },
  { name: 'TS negative: an exported declaration (another module may change it before the call)', kind: 'typescript', text: `export ${TS_PARAMS}\nexport async function create() {\n  await c.send(new CreateTableCommand(params));\n}\n`, expect: [] },
  { name: 'TS negative: a spread in the held object (it may add a sort key)', kind: 'typescript', text: `${TS_PARAMS.replace(' };', ', ...(withSortKey ? base : {}) };')}\nawait c.send(new CreateTableCommand(params));\n`, expect: [] },
  { name: 'TS negative: a spread in an inline CreateTable request', kind: 'typescript', text: `await c.send(new CreateTableCommand({ TableName: "Emp", KeySchema: [{ AttributeName: "id", KeyType: "HASH" }], AttributeDefinitions: [], ...extra }));\n`, expect: [] },
  { name: 'TS negative: a computed key in the request', kind: 'typescript', text: `await c.send(new CreateTableCommand({ TableName: "Emp", KeySchema: [{ AttributeName: "id", KeyType: "HASH" }], AttributeDefinitions: [], [extraKey]: extra }));\n`, expect: [] },
  { name: 'CDK negative: table props with a spread (a sortKey may be in it)', kind: 'typescript', text: `new dynamodb.Table(this, 'Likes', { ...common, partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });\n`, expect: [] },
  {
    name: 'TS negative: the file\'s own createTable helper (it adds an index), called bare and through this',
    kind: 'typescript',
    text: `async function createTable(input) {\n  const withIndex = { ...input, GlobalSecondaryIndexes: [GSI1] };\n  return client.send(new CreateTableCommand(withIndex));\n}\nexport async function setup() {\n${indent(TS_PARAMS)}\n  await createTable(params);\n  await createTable({ TableName: "Likes", KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }], AttributeDefinitions: [] });\n}\nclass Repo {\n  createTable(p) { return helper(p); }\n  setup() { return this.createTable({ TableName: "Users", KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }], AttributeDefinitions: [] }); }\n}\n`,
    expect: [],
  },
  { name: 'TS negative: this.createTable(...) (a method of the class, defined elsewhere)', kind: 'typescript', text: `class Repo extends Base {\n  setup() { return this.createTable({ TableName: "Users", KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }], AttributeDefinitions: [] }); }\n}\n`, expect: [] },
  { name: 'JS (SDK v2): this.client.createTable({...}).promise() is the SDK', kind: 'javascript', text: `class Repo {\n  setup() { return this.client.createTable({ TableName: "Users", KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }], AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }] }).promise(); }\n}\n`, expect: ['Users pk:S'] },
  { name: 'TS negative: the command\'s input changed through its variable', kind: 'typescript', text: `${TS_PARAMS}\nconst cmd = new CreateTableCommand(params);\ncmd.input.KeySchema!.push({ AttributeName: "sk", KeyType: "RANGE" });\nawait c.send(cmd);\n`, expect: [] },
  {
    name: 'Python negative: the file\'s own def create_table (a test base class adding an index), self.create_table(**params)',
    kind: 'python',
    text: `class DynamoTestCase:\n    def create_table(self, **kwargs):\n        return self.client.create_table(GlobalSecondaryIndexes=GSI, **kwargs)\n\n    def setUp(self):\n${indent(indent(PY_PARAMS))}\n        self.create_table(**params)\n`,
    expect: [],
  },
  { name: 'Python negative: self.create_table(...) (an inherited helper)', kind: 'python', text: `class T(Base):\n    def setUp(self):\n        self.create_table(TableName="Users", KeySchema=[{"AttributeName": "email", "KeyType": "HASH"}], AttributeDefinitions=[])\n`, expect: [] },
  { name: 'Python: self.client.create_table(...) is boto3', kind: 'python', text: `class T:\n    def setUp(self):\n        self.client.create_table(TableName="Users", KeySchema=[{"AttributeName": "email", "KeyType": "HASH"}], AttributeDefinitions=[{"AttributeName": "email", "AttributeType": "S"}])\n`, expect: ['Users email:S'] },
  { name: 'Python negative: another splat (**extra may hold an index)', kind: 'python', text: `client.create_table(TableName="Users", KeySchema=[{"AttributeName": "email", "KeyType": "HASH"}], AttributeDefinitions=[], **extra)\n`, expect: [] },
  { name: 'Python negative: a dict key that is not a literal', kind: 'python', text: `${PY_PARAMS.replace('{"TableName"', '{key_name: x, "TableName"')}\nclient.create_table(**params)\n`, expect: [] },
  { name: 'Python CDK: a Table with its keys as keywords (as before)', kind: 'python', text: `dynamodb.Table(self, "Likes", table_name="Likes", partition_key=dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING))\n`, expect: ['Likes pk:S'] },
  { name: 'Python CDK negative: a Table with **props (a sort_key may be in it)', kind: 'python', text: `dynamodb.Table(self, "Likes", table_name="Likes", partition_key=dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING), **common)\n`, expect: [] },
  { name: 'Python: module level', kind: 'python', text: `${PY_PARAMS}\nclient.create_table(**params)\n`, expect: ['Users email:S'] },
  { name: 'Python: client.create_table(**params) with params a dict in the same function', kind: 'python', text: `def setup(client):\n${indent(PY_PARAMS)}\n    client.create_table(**params, BillingMode="PAY_PER_REQUEST")\n    print(params["TableName"])\n`, expect: ['Users email:S'] },
  { name: 'Python negative: an entry assigned afterwards', kind: 'python', text: `${PY_PARAMS}\nparams["TableName"] = "Other"\nclient.create_table(**params)\n`, expect: [] },
  { name: 'Python negative: params.update(...)', kind: 'python', text: `${PY_PARAMS}\nparams.update(extra)\nclient.create_table(**params)\n`, expect: [] },
  { name: 'Python negative: a key appended to its KeySchema', kind: 'python', text: `${PY_PARAMS}\nparams["KeySchema"].append({"AttributeName": "ts", "KeyType": "RANGE"})\nclient.create_table(**params)\n`, expect: [] },
  { name: 'Python negative: assigned twice', kind: 'python', text: `${PY_PARAMS}\nif stage:\n    params = other\nclient.create_table(**params)\n`, expect: [] },
  { name: 'Python negative: assigned in another function', kind: 'python', text: `def a():\n${indent(PY_PARAMS)}\ndef b(client):\n    client.create_table(**params)\n`, expect: [] },
  { name: 'Python negative: a function parameter of the same name', kind: 'python', text: `${PY_PARAMS}\ndef b(client, params):\n    client.create_table(**params)\n`, expect: [] },
  {
    name: 'CloudFormation: env var and TableName both !Ref one Parameter are linked (the Default is not a name)',
    kind: 'yaml',
    text: `Parameters:\n  P: {Type: String, Default: users}\nGlobals:\n  Function:\n    Environment:\n      Variables:\n        G: !Ref P\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n      Environment:\n        Variables:\n          TABLE: !Ref P\n          SUB: !Sub "\${P}"\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref P\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n`,
    expect: ['(generated) pk:S', 'env TABLE=#T', 'env SUB=#T', 'env G=#T'],
  },
  {
    name: 'CloudFormation negative: two Parameters (even with one Default), a Parameter no table uses',
    kind: 'yaml',
    text: `Parameters:\n  P: {Type: String, Default: users}\n  Q: {Type: String, Default: users}\nResources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Environment:\n        Variables:\n          TABLE: !Ref Q\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref P\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n`,
    expect: ['(generated) pk:S'],
  },
  {
    name: 'CloudFormation negative: a name built from the Parameter is not the Parameter',
    kind: 'yaml',
    text: `Parameters:\n  P: {Type: String}\nResources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Environment:\n        Variables:\n          TABLE: !Ref P\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub "\${P}-t"\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n`,
    expect: ['~*-t pk:S'],
  },
];

describe('tables: resolution gaps from the held-out corpus', () => {
  before(async () => {
    await parsersReady();
    await ensureTableParsers('python');
  });

  for (const c of DEFINITIONS)
    it(c.name, () => {
      const file = { typescript: 'setup.ts', javascript: 'setup.js', python: 'setup.py', yaml: 'template.yaml' }[c.kind as string] ?? 'x';
      assert.deepEqual(summary(extractTables(`file:///w/${file}`, file, c.text, c.kind)), c.expect);
    });

  it('envVariableOf: the Go and Java forms; a fallback is fine, anything built on the variable is another name', () => {
    const cases: [string, string | undefined][] = [
      ['os.Getenv("TABLE")', 'TABLE'],
      ['os.Getenv(`TABLE`)', 'TABLE'],
      ['System.getenv("TABLE")', 'TABLE'],
      ['System.getenv().get("TABLE")', 'TABLE'],
      ['System.getenv().getOrDefault("TABLE", "x")', 'TABLE'],
      ['process.env.TABLE', 'TABLE'],
      ['process.env.TABLE!', 'TABLE'],
      ["process.env.TABLE || 'likes'", 'TABLE'],
      ['process.env["TABLE"] ?? "likes"', 'TABLE'],
      ['os.environ["TABLE"]', 'TABLE'],
      ['os.environ.get("TABLE", "likes")', 'TABLE'],
      ['os.environ.get("TABLE") or "likes"', 'TABLE'],
      ['os.getenv("TABLE")', 'TABLE'],
      ['os.Getenv("PREFIX") + "-likes"', undefined],
      ['System.getenv("PREFIX") + "-likes"', undefined],
      ["process.env.PREFIX + '-likes'", undefined],
      ['process.env.TABLE.toLowerCase()', undefined],
      ['os.environ["PREFIX"] + "-likes"', undefined],
      ['System.getenv("T") != null ? System.getenv("T") : "x"', undefined],
      ['os.environ.get("TABLE") or "Likes" if not AUDITING else "Audit"', undefined],
      ['os.environ["TABLE"] or "Likes" if not AUDITING else "Audit"', undefined],
      ['process.env.TABLE || "likes" ? a : b', undefined],
      ['process.env.TABLE ?? (audit ? "a" : "b")', 'TABLE'],
      ['os.environ.get("TABLE") or ("a" if audit else "b")', 'TABLE'],
      ['os.environ.get("TABLE") or "gift if"', 'TABLE'],
      ['os.environ.get("TABLE") or default_if_unset', 'TABLE'],
      ['process.env.TABLE || cfg?.table', 'TABLE'],
      ['os.LookupEnv("TABLE")', undefined],
      ['getenv("TABLE")', undefined],
    ];
    assert.deepEqual(
      cases.map(([t]) => [t, envVariableOf(t)]),
      cases,
    );
  });

  describe('end to end: a request checked against the table the link finds', () => {
    const TEMPLATE = `Parameters:\n  P: {Type: String, Default: users}\n  Q: {Type: String}\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n      Environment:\n        Variables:\n          TABLE: !Ref Likes\n          PTABLE: !Ref P\n          QTABLE: !Ref Q\n  Likes:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: likes\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n  Users:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref P\n      AttributeDefinitions: [{AttributeName: uid, AttributeType: S}]\n      KeySchema: [{AttributeName: uid, KeyType: HASH}]\n`;
    let index: TableIndex;
    before(async () => {
      await parsersReady();
      await ensureTableParsers('python');
      index = TableIndex.from([
        extractTables('file:///w/template.yaml', 'template.yaml', TEMPLATE, 'yaml'),
        extractTables('file:///w/setup.ts', 'setup.ts', `${TS_PARAMS}\nawait c.send(new CreateTableCommand(params));\n`, 'typescript'),
        extractTables('file:///w/setup.py', 'setup.py', `${PY_PARAMS}\nclient.create_table(**params)\n`, 'python'),
      ]);
    });
    const GO = (name: string, key: string) =>
      `package main\n\nimport (\n\t"os"\n\n\t"github.com/aws/aws-sdk-go/aws"\n\t"github.com/aws/aws-sdk-go/service/dynamodb"\n)\n\nfunc get(svc *dynamodb.DynamoDB) {\n\tsvc.GetItem(&dynamodb.GetItemInput{TableName: aws.String(${name}), Key: map[string]*dynamodb.AttributeValue{"${key}": {N: aws.String("1")}}})\n}\n`;
    const JAVA = (name: string) =>
      `import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\nimport software.amazon.awssdk.services.dynamodb.model.*;\nimport java.util.Map;\n\nclass Get {\n  void get(DynamoDbClient c) {\n    c.getItem(GetItemRequest.builder().tableName(${name}).key(Map.of("pk", AttributeValue.builder().n("1").build())).build());\n  }\n}\n`;
    const TS = (name: string, key: string) => `import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';\nconst c = new DynamoDBClient({});\nawait c.send(new GetItemCommand({ TableName: ${name}, Key: ${key} }));\n`;
    const DOC = (name: string, key: string) => `import { GetCommand } from '@aws-sdk/lib-dynamodb';\nawait doc.send(new GetCommand({ TableName: ${name}, Key: ${key} }));\n`;
    const PY = (name: string) => `import boto3\n\nclient = boto3.client("dynamodb")\nclient.get_item(TableName=${name}, Key={"email": {"N": "1"}})\n`;
    /** A package-level `var tableName = os.Getenv("TABLE")` read by `get`, with `extra` declarations after it. */
    const GO_VAR = (extra: string) => GO('tableName', 'pk').replace('\nfunc get(', `\nvar tableName = os.Getenv("TABLE")\n\n${extra}\nfunc get(`);
    /** Java classes: `body` inside class Repos (fields, nested classes). */
    const JAVA_CLASS = (body: string) =>
      `import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\nimport software.amazon.awssdk.services.dynamodb.model.*;\nimport java.util.Map;\n\npublic class Repos {\n${body}\n}\n`;
    const JAVA_GET = (name: string) => `  void get(DynamoDbClient c) {\n    c.getItem(GetItemRequest.builder().tableName(${name}).key(Map.of("pk", AttributeValue.builder().n("1").build())).build());\n  }`;
    const CASES: { name: string; language: string; text: string; expect: [string, string][]; message?: RegExp }[] = [
      { name: 'Go package var never written: read as its initializer', language: 'go', text: GO_VAR(''), expect: [['key-schema-mismatch', '{N: aws.String("1")}']] },
      { name: 'Go negative: a package var reassigned in init()', language: 'go', text: GO_VAR('func init() {\n\tif os.Getenv("ARCHIVE") == "1" {\n\t\ttableName = tableName + "-archive"\n\t}\n}\n'), expect: [] },
      { name: 'Go negative: a package var appended to (+=)', language: 'go', text: GO_VAR('func init() {\n\ttableName += "-v2"\n}\n'), expect: [] },
      { name: 'Go negative: a package var whose address is taken', language: 'go', text: GO_VAR('func init() {\n\tflag.StringVar(&tableName, "table", tableName, "")\n}\n'), expect: [] },
      { name: 'Java static field never written: read as its initializer', language: 'java', text: JAVA_CLASS(`  private static String TABLE = System.getenv("TABLE");\n${JAVA_GET('TABLE')}`), expect: [['key-schema-mismatch', 'AttributeValue.builder().n("1").build()']] },
      { name: 'Java final field: read as its initializer', language: 'java', text: JAVA_CLASS(`  private static final String TABLE = System.getenv("TABLE");\n${JAVA_GET('TABLE')}`), expect: [['key-schema-mismatch', 'AttributeValue.builder().n("1").build()']] },
      { name: 'Java negative: a static field reassigned in a static block', language: 'java', text: JAVA_CLASS(`  private static String TABLE = System.getenv("TABLE");\n  static {\n    if (System.getenv("ARCHIVE") != null) TABLE = TABLE + "-archive";\n  }\n${JAVA_GET('TABLE')}`), expect: [] },
      { name: 'Java negative: a field written through this in a method', language: 'java', text: JAVA_CLASS(`  private String table = System.getenv("TABLE");\n  void archive() { this.table += "-archive"; }\n${JAVA_GET('this.table')}`), expect: [] },
      {
        name: 'Java negative: a field name declared in two nested classes (each reads its own)',
        language: 'java',
        text: JAVA_CLASS(`  static class B {\n    private static final String TABLE = System.getenv("TABLE");\n  }\n  static class A {\n    private static final String TABLE = System.getenv("OTHER");\n${indent(JAVA_GET('TABLE'))}\n  }\n  static class C {\n    private static final String TABLE = System.getenv("OTHER");\n${indent(JAVA_GET('TABLE'))}\n  }`),
        expect: [],
      },
      { name: 'Go os.Getenv through the template binding', language: 'go', text: GO('os.Getenv("TABLE")', 'pk'), expect: [['key-schema-mismatch', '{N: aws.String("1")}']], message: /os\.Getenv\("TABLE"\) is set by template\.yaml:10/ },
      { name: 'Go os.Getenv held in a local variable', language: 'go', text: GO('t', 'pk').replace('\tsvc.GetItem', '\tt := os.Getenv("TABLE")\n\tsvc.GetItem'), expect: [['key-schema-mismatch', '{N: aws.String("1")}']] },
      { name: 'Go negative: a variable no deployment sets', language: 'go', text: GO('os.Getenv("NOPE")', 'pk'), expect: [] },
      { name: 'Go negative: a name built on the variable', language: 'go', text: GO('os.Getenv("TABLE") + "-v2"', 'pk'), expect: [] },
      { name: 'Java System.getenv through the template binding', language: 'java', text: JAVA('System.getenv("TABLE")'), expect: [['key-schema-mismatch', 'AttributeValue.builder().n("1").build()']], message: /System\.getenv\("TABLE"\) is set by template\.yaml:10/ },
      { name: 'Java negative: a variable no deployment sets', language: 'java', text: JAVA('System.getenv("NOPE")'), expect: [] },
      { name: 'a CreateTableCommand held in a variable defines the table a GetItemCommand names', language: 'typescript', text: TS('"Emp"', '{ id: { S: "3" } }'), expect: [['key-schema-mismatch', '{ S: "3" }']], message: /defined at setup\.ts:2/ },
      { name: 'boto3 create_table(**params) defines the table a client get_item names', language: 'python', text: PY('"Users"'), expect: [['key-schema-mismatch', '{"N": "1"}']] },
      { name: 'Python os.environ.get through the template binding (as before)', language: 'python', text: `import os\n${PY('os.environ.get("TABLE") or "x"')}`, expect: [['key-schema-mismatch', '{"email": {"N": "1"}}'], ['key-schema-mismatch', '"email"']] },
      {
        name: 'Python negative: a fallback then a conditional (the whole name depends on it)',
        language: 'python',
        text: `import os\nAUDITING = os.environ.get("AUDITING") == "1"\nTABLE = os.environ.get("TABLE") or "Likes" if not AUDITING else "Audit"\n${PY('TABLE')}${PY('os.environ.get("TABLE") or "Likes" if not AUDITING else "Audit"').replace(/^import boto3\n\nclient = .*\n/, '')}`,
        expect: [],
      },
      { name: 'an env var and TableName on one Parameter: checked against that table', language: 'typescript', text: DOC('process.env.PTABLE', '{ pk: 1 }'), expect: [['key-schema-mismatch', '{ pk: 1 }'], ['key-schema-mismatch', 'pk']], message: /table Users, defined at template\.yaml:19; process\.env\.PTABLE is set by template\.yaml:11/ },
      { name: 'boto3 resource Table(os.environ["TABLE"]) through the template binding', language: 'python', text: `import boto3, os\n\nboto3.resource("dynamodb").Table(os.environ["TABLE"]).get_item(Key={"pk": 1})\n`, expect: [['key-schema-mismatch', '1']], message: /os\.environ\["TABLE"\] is set by template\.yaml:10/ },
      { name: 'boto3 resource Table bound to a variable, os.environ.get', language: 'python', text: `import boto3, os\n\ntable = boto3.resource("dynamodb").Table(os.environ.get("TABLE"))\ntable.get_item(Key={"pk": 1})\n`, expect: [['key-schema-mismatch', '1']] },
      { name: 'boto3 resource negative: an unknown variable, a name built on the variable', language: 'python', text: `import boto3, os\n\nddb = boto3.resource("dynamodb")\nddb.Table(os.environ["NOPE"]).get_item(Key={"pk": 1})\nddb.Table(os.environ["TABLE"] + "-v2").get_item(Key={"pk": 1})\n`, expect: [] },
      { name: 'negative: an env var on another Parameter', language: 'typescript', text: DOC('process.env.QTABLE', '{ pk: 1 }'), expect: [] },
      { name: 'process.env through the template binding (as before)', language: 'typescript', text: DOC('process.env.TABLE', '{ pk: 1 }'), expect: [['key-schema-mismatch', '1']] },
      { name: 'negative: a name built on process.env.TABLE is another table', language: 'typescript', text: DOC('process.env.TABLE + "-v2"', '{ pk: 1 }'), expect: [] },
      { name: 'negative: the Parameter Default as a literal name', language: 'typescript', text: DOC('"users"', '{ pk: 1 }'), expect: [] },
    ];
    for (const c of CASES)
      it(c.name, () => {
        const found = lint(c.text, c.language, { tables: index }).filter((f) => f.severity === 'error' && KEY_RULES.includes(f.ruleId));
        assert.deepEqual(found.map((f) => [f.ruleId, slice(c.text, f)]), c.expect);
        if (c.message) assert.match(found[0].message, c.message);
      });
  });
});
