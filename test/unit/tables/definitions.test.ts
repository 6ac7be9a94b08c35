/**
 * Table definitions, one case per source: the text of a file, its kind, and what the index must hold (name, keys with
 * types, indexes, billing, the line it is defined on, environment bindings, problems). Bad input never throws.
 */
import assert from 'node:assert/strict';
import { TableIndex } from '../../../server/src/tables';
import { ensureTableParsers, extractTables, type TableFileKind } from '../../../server/src/tables/extract';
import type { FileTables } from '../../../server/src/tables/model';

/** A table as `name pk:T sk:T [idx(kind):pk:T+sk:T ...] billing @line`. */
function summary(f: FileTables): string[] {
  const key = (k?: { name: string; type?: string }) => (k ? `${k.name}:${k.type ?? '?'}` : '');
  return [
    ...f.tables.map((t) => {
      const name = !t.name ? '(generated)' : 'literal' in t.name ? t.name.literal : `~${t.name.pattern}`;
      const ix = t.indexes.map((i) => `${i.name}(${i.kind[0]}):${key(i.partition)}${i.sort ? '+' + key(i.sort) : ''}${i.projection ? '/' + i.projection.type : ''}`).join(' ');
      return `${name} ${key(t.partition)} ${key(t.sort)} [${ix}]${t.indexesKnown ? '' : '?'} ${t.billing ?? '-'} @${t.location.label}`.replace(/ +/g, ' ');
    }),
    ...f.env.map((e) => `env ${e.variable}=${e.tableId ? e.tableId.replace(/^.*#/, '#') : e.name ? JSON.stringify(e.name) : '?'} @${e.location.label}`),
    ...f.problems.map((p) => `problem @${p.location.label}: ${p.message.slice(0, 40)}`),
  ];
}

const CASES: { name: string; file: string; kind: TableFileKind; text: string; expect: string[] }[] = [
  {
    name: 'CloudFormation JSON: literal name, GSI, provisioned throughput',
    file: 'stack.json',
    kind: 'json',
    text: JSON.stringify({ AWSTemplateFormatVersion: '2010-09-09', Resources: { Orders: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: 'orders', ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 }, AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'N' }, { AttributeName: 'cust', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], GlobalSecondaryIndexes: [{ IndexName: 'byCust', KeySchema: [{ AttributeName: 'cust', KeyType: 'HASH' }, { AttributeName: 'id', KeyType: 'RANGE' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['total'] } }] } } } }, null, 2),
    expect: ['orders id:N [byCust(g):cust:S+id:N/INCLUDE] PROVISIONED @stack.json:4'],
  },
  {
    name: 'CloudFormation YAML with short tags: !Sub name, !Ref environment (Globals and function), unknown intrinsic',
    file: 'template.yaml',
    kind: 'yaml',
    text: `Globals:
  Function:
    Environment:
      Variables:
        TABLE: !Ref Likes
Resources:
  Likes:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Sub "\${AWS::StackName}-likes"
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{AttributeName: PK, AttributeType: S}, {AttributeName: SK, AttributeType: S}]
      KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: SK, KeyType: RANGE}]
      LocalSecondaryIndexes: !If [HasLsi, [], !Ref AWS::NoValue]
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Environment:
        Variables:
          NAME: !Sub "\${Likes}"
          OTHER: !GetAtt Likes.Arn
`,
    expect: ['~*-likes PK:S SK:S []? PAY_PER_REQUEST @template.yaml:7', 'env NAME=#Likes @template.yaml:20', 'env TABLE=#Likes @template.yaml:5'],
  },
  {
    name: 'SAM SimpleTable: default key id (S), explicit PrimaryKey, generated name',
    file: 'sam.yaml',
    kind: 'yaml',
    text: `Transform: AWS::Serverless-2016-10-31
Resources:
  Plain:
    Type: AWS::Serverless::SimpleTable
  Keyed:
    Type: AWS::Serverless::SimpleTable
    Properties:
      TableName: keyed
      PrimaryKey: {Name: userId, Type: Number}
`,
    expect: ['~*-Plain-* id:S [] PAY_PER_REQUEST @sam.yaml:3', 'keyed userId:N [] PAY_PER_REQUEST @sam.yaml:5'],
  },
  {
    name: 'serverless.yml: ${self:service} and ${opt:stage} in the name, provider and function environment',
    file: 'serverless.yml',
    kind: 'yaml',
    text: `service: likes-api
provider:
  name: aws
  environment:
    LIKES_TABLE: \${self:service}-\${opt:stage, 'dev'}-likes
functions:
  like:
    handler: handler.like
    environment:
      REF_TABLE: {Ref: LikesTable}
resources:
  Resources:
    LikesTable:
      Type: AWS::DynamoDB::Table
      Properties:
        TableName: \${self:service}-\${opt:stage, 'dev'}-likes
        AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
        KeySchema: [{AttributeName: pk, KeyType: HASH}]
        BillingMode: PAY_PER_REQUEST
`,
    expect: ['~likes-api-*-likes pk:S [] PAY_PER_REQUEST @serverless.yml:13', 'env LIKES_TABLE={"pattern":"likes-api-*-likes"} @serverless.yml:5', 'env REF_TABLE=#LikesTable @serverless.yml:10'],
  },
  {
    name: 'CDK TypeScript: Table + addGlobalSecondaryIndex + addLocalSecondaryIndex, environment and addEnvironment; TableV2 with indexes',
    file: 'lib/stack.ts',
    kind: 'typescript',
    text: `import { aws_dynamodb as ddb, aws_lambda as lambda } from 'aws-cdk-lib';
const PREFIX = 'app';
export class Stack {
  constructor(scope: any) {
    const likes = new ddb.Table(this, 'Likes', {
      tableName: \`\${PREFIX}-likes\`,
      partitionKey: { name: 'PK', type: ddb.AttributeType.STRING },
      sortKey: { name: 'SK', type: ddb.AttributeType.STRING },
    });
    likes.addGlobalSecondaryIndex({ indexName: 'byUser', partitionKey: { name: 'userId', type: ddb.AttributeType.STRING }, projectionType: ddb.ProjectionType.KEYS_ONLY });
    likes.addLocalSecondaryIndex({ indexName: 'byDate', sortKey: { name: 'date', type: ddb.AttributeType.NUMBER } });
    this.events = new ddb.TableV2(this, 'Events', { partitionKey: { name: 'id', type: ddb.AttributeType.BINARY }, globalSecondaryIndexes: [{ indexName: 'g', partitionKey: { name: 'k', type: ddb.AttributeType.NUMBER } }] });
    const fn = new lambda.Function(this, 'Fn', { environment: { LIKES: likes.tableName, EVENTS: this.events.tableName } });
    fn.addEnvironment('LIKES2', likes.tableName);
  }
}
`,
    expect: ['app-likes PK:S SK:S [byUser(g):userId:S/KEYS_ONLY byDate(l):PK:S+date:N/ALL] PROVISIONED @lib/stack.ts:5', '~*-Events* id:B [g(g):k:N/ALL] PAY_PER_REQUEST @lib/stack.ts:12', 'env LIKES=#Likes @lib/stack.ts:13', 'env EVENTS=#Events @lib/stack.ts:13', 'env LIKES2=#Likes @lib/stack.ts:14'],
  },
  {
    name: 'CDK Python: keyword arguments, f-string name with a module constant, add_global_secondary_index, environment',
    file: 'app/stack.py',
    kind: 'python',
    text: `from aws_cdk import aws_dynamodb as dynamodb, aws_lambda as _lambda
PREFIX = "app"
class Stack:
    def __init__(self, scope, stage):
        table = dynamodb.Table(self, "Likes",
            table_name=f"{PREFIX}-likes-{stage}",
            partition_key=dynamodb.Attribute(name="PK", type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST)
        table.add_global_secondary_index(index_name="byUser", partition_key=dynamodb.Attribute(name="userId", type=dynamodb.AttributeType.NUMBER))
        _lambda.Function(self, "Fn", environment={"TABLE": table.table_name})
`,
    expect: ['~app-likes-* PK:S [byUser(g):userId:N/ALL] PAY_PER_REQUEST @app/stack.py:5', 'env TABLE=#Likes @app/stack.py:10'],
  },
  {
    name: 'Terraform: interpolated name, attributes, GSI with projection, Lambda environment',
    file: 'main.tf',
    kind: 'terraform',
    text: `resource "aws_dynamodb_table" "likes" {
  name         = "likes-\${var.stage}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "PK"
  range_key    = "SK"
  attribute {
    name = "PK"
    type = "S"
  }
  attribute {
    name = "SK"
    type = "N"
  }
  global_secondary_index {
    name            = "byUser"
    hash_key        = "SK"
    projection_type = "KEYS_ONLY"
  }
}
resource "aws_lambda_function" "fn" {
  environment {
    variables = {
      TABLE = aws_dynamodb_table.likes.name
    }
  }
}
`,
    expect: ['~likes-* PK:S SK:N [byUser(g):SK:N/KEYS_ONLY] PAY_PER_REQUEST @main.tf:1', 'env TABLE=#aws_dynamodb_table.likes @main.tf:23'],
  },
  {
    name: 'CreateTable: a CLI input JSON file',
    file: 'tables/orders.json',
    kind: 'json',
    text: '{"TableName": "Orders", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"}',
    expect: ['Orders id:S [] PAY_PER_REQUEST @tables/orders.json:1'],
  },
  {
    name: 'CreateTable: SDK v3 command and boto3 create_table',
    file: 'setup.ts',
    kind: 'typescript',
    text: `await client.send(new CreateTableCommand({ TableName: 'Orders', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }, { AttributeName: 'ts', KeyType: 'RANGE' }], AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }, { AttributeName: 'ts', AttributeType: 'N' }] }));`,
    expect: ['Orders id:S ts:N [] - @setup.ts:1'],
  },
  {
    name: 'CreateTable: boto3',
    file: 'setup.py',
    kind: 'python',
    text: `client.create_table(TableName="Users", KeySchema=[{"AttributeName": "email", "KeyType": "HASH"}], AttributeDefinitions=[{"AttributeName": "email", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")\n`,
    expect: ['Users email:S [] PAY_PER_REQUEST @setup.py:1'],
  },
  {
    name: '.dynalintrc.json tables',
    file: '.dynalintrc.json',
    kind: 'rc',
    text: `{ "rules": {}, "tables": { "legacy": { "partitionKey": { "name": "id", "type": "N" }, "sortKey": "ts", "indexes": { "byX": { "partitionKey": "x" } } } } }`,
    expect: ['legacy id:N ts:? [byX(g):x:?] - @.dynalintrc.json:1'],
  },
  {
    name: 'bad input: YAML syntax error, one problem, no throw',
    file: 'broken.yaml',
    kind: 'yaml',
    text: 'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties: [\n',
    expect: ['problem @broken.yaml:5: YAML syntax error: Flow sequence in bloc'],
  },
  {
    name: 'bad input: key schema from an intrinsic, circular !Ref, unknown tag',
    file: 'odd.yaml',
    kind: 'yaml',
    text: 'Resources:\n  A:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref B\n      KeySchema: !Frobnicate x\n  B:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Ref A\n      KeySchema: [{AttributeName: k, KeyType: HASH}]\n',
    expect: ['(generated) k:? [] - @odd.yaml:7', 'problem @odd.yaml:2: A: its KeySchema is not a literal list o'],
  },
  {
    name: 'bad input: Terraform hash_key from a variable',
    file: 'var.tf',
    kind: 'terraform',
    text: 'resource "aws_dynamodb_table" "t" {\n  name = "t"\n  hash_key = var.key\n}\n',
    expect: ['problem @var.tf:1: aws_dynamodb_table.t: hash_key is not a '],
  },
];

describe('tables: definitions per source', () => {
  for (const c of CASES)
    it(c.name, async () => {
      await ensureTableParsers(c.kind);
      assert.deepEqual(summary(extractTables(`file:///w/${c.file}`, c.file, c.text, c.kind)), c.expect);
    });

  it('a 10 MB generated template is read without throwing, and its tables are found', async () => {
    const table = (i: number) => `  T${i}:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t${i}\n      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n`;
    const parts = ['Resources:\n'];
    let size = 0;
    for (let i = 0; size < 10 * 1024 * 1024; i++) size += (parts[parts.push(table(i)) - 1]).length;
    const f = extractTables('file:///w/big.yaml', 'big.yaml', parts.join(''), 'yaml');
    assert.equal(f.tables.length, parts.length - 1);
  });

  it('two tables with one name: both are candidates, and a lookup by name returns both', () => {
    const a = extractTables('file:///w/a.json', 'a.json', '{"TableName": "same", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "AttributeDefinitions": []}', 'json');
    const b = extractTables('file:///w/b.json', 'b.json', '{"TableName": "same", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": []}', 'json');
    const ix = TableIndex.from([a, b]);
    assert.deepEqual(ix.definitionOf('same').map((t) => t.partition.name), ['id', 'pk']);
    assert.equal(ix.definitionOf('other').length, 0);
  });
});
