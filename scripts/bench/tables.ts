/**
 * Table definitions (issue 14): indexing a 5,000-file workspace (templates, Terraform, CDK among ordinary sources)
 * vs the floor of walking it and reading every file; and the rules of one handler with the index vs without it (an
 * edit to a handler must cost nothing extra).
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchRow, median, timeMs } from '../bench';
import { extract } from '../../server/src/extract';
import { runRules } from '../../server/src/rules';
import { scanTables } from '../../server/src/tables/scan';

const TEMPLATE = (i: number) => `Resources:
  T${i}:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: table-${i}
      AttributeDefinitions: [{AttributeName: PK, AttributeType: S}, {AttributeName: SK, AttributeType: S}]
      KeySchema: [{AttributeName: PK, KeyType: HASH}, {AttributeName: SK, KeyType: RANGE}]
  Fn${i}:
    Type: AWS::Serverless::Function
    Properties: {Environment: {Variables: {TABLE_${i}: !Ref T${i}}}}
`;
const TF = (i: number) => `resource "aws_dynamodb_table" "t${i}" {\n  name = "tf-${i}"\n  hash_key = "id"\n  attribute {\n    name = "id"\n    type = "S"\n  }\n}\n`;
const CDK = (i: number) => `import * as ddb from 'aws-cdk-lib/aws-dynamodb';\nexport const t = new ddb.Table(this, 'C${i}', { tableName: 'cdk-${i}', partitionKey: { name: 'id', type: ddb.AttributeType.STRING } });\n`;
const HANDLER = (i: number) =>
  `import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';\nconst doc = DynamoDBDocumentClient.from(client);\n` +
  Array.from({ length: 40 }, (_, j) => `export async function f${j}(id: string) {\n  return doc.send(new GetCommand({ TableName: process.env.TABLE_${i % 20}, Key: { PK: id, SK: 'x${j}' } }));\n}\n`).join('');

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'dynalint-bench-tables-'));
  for (let d = 0; d < 50; d++) {
    const dir = join(root, `pkg${d}`, 'src');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const i = d * 100 + f;
      const path = join(dir, i % 3 === 0 ? `m${i}.py` : i % 3 === 1 ? `m${i}.ts` : `m${i}.json`);
      writeFileSync(path, i % 3 === 1 ? HANDLER(i).slice(0, 2000) : `// module ${i}\n`.repeat(60));
    }
  }
  mkdirSync(join(root, 'infra'));
  for (let i = 0; i < 20; i++) writeFileSync(join(root, 'infra', `t${i}.yaml`), TEMPLATE(i));
  for (let i = 0; i < 5; i++) writeFileSync(join(root, 'infra', `t${i}.tf`), TF(i));
  for (let i = 0; i < 5; i++) writeFileSync(join(root, 'infra', `c${i}.ts`), CDK(i));
  return root;
}

function readAll(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += readAll(join(dir, e.name));
    else n += readFileSync(join(dir, e.name), 'utf8').length;
  }
  return n;
}

export async function run(): Promise<BenchRow[]> {
  const root = workspace();
  try {
    const scans: number[] = [];
    const floors: number[] = [];
    let tables = 0;
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      readAll(root);
      floors.push(performance.now() - t0);
      const { report } = await scanTables([root]);
      scans.push(report.durationMs);
      tables = report.tables;
    }
    const { index } = await scanTables([root]);
    const text = HANDLER(3);
    const sites = extract(text, 'typescript').sites;
    const without = timeMs(() => runRules(text, 'typescript', sites, {}), 15, 3);
    const withIndex = timeMs(() => runRules(text, 'typescript', sites, { tables: index }), 15, 3);
    const scan = median(scans);
    const floor = median(floors);
    return [
      { area: 'tables', name: `index a 5,030-file workspace (${tables} tables)`, ours: `${scan.toFixed(0)} ms`, baseline: `${floor.toFixed(0)} ms read every file`, ratio: scan / floor, note: 'first scan at start-up / first lint' },
      { area: 'tables', name: 'rules of a 40-request handler with the index', ours: `${withIndex.toFixed(2)} ms`, baseline: `${without.toFixed(2)} ms without`, ratio: withIndex / without },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
