/**
 * `dynalint lint` over a tree with infrastructure code: a Terraform table wired to a Python handler through the Lambda
 * environment, a CDK stack, a handler with a literal table name; a template that cannot be read is reported as
 * information in its own file; `--jobs 2` gives the same report (the index travels to the workers).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli';

describe('cli: lint with table definitions from the tree', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-cli-tables-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'infra'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'infra', 'main.tf'), `resource "aws_dynamodb_table" "likes" {
  name      = "likes-\${var.stage}"
  hash_key  = "PK"
  range_key = "SK"
  attribute {
    name = "PK"
    type = "S"
  }
  attribute {
    name = "SK"
    type = "S"
  }
}
resource "aws_lambda_function" "like" {
  environment {
    variables = { LIKES = aws_dynamodb_table.likes.name }
  }
}
`);
    writeFileSync(join(root, 'infra', 'broken.yaml'), 'Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: !If [c, a, b]\n');
    writeFileSync(join(root, 'src', 'like.py'), `import os
import boto3

table = boto3.resource("dynamodb").Table(os.environ["LIKES"])
client = boto3.client("dynamodb")


def like(post_id):
    client.get_item(TableName=os.environ["LIKES"], Key={"PK": {"S": post_id}})
    client.put_item(TableName="likes-prod", Item={"PK": {"S": post_id}, "SK": {"N": "1"}})
`);
    for (let i = 0; i < 90; i++) writeFileSync(join(root, 'src', `other${i}.ts`), `export const x${i} = ${i};\n`);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function run(...argv: string[]) {
    const r = { code: -1, stdout: '', stderr: '' };
    r.code = await main(argv, { cwd: root, stdout: (t) => (r.stdout += t), stderr: (t) => (r.stderr += t) });
    return r;
  }

  it('reports key errors against the Terraform table, through the environment and a stage pattern', async () => {
    const r = await run('lint', 'src', '--format', 'json');
    assert.equal(r.code, 1);
    const files = JSON.parse(r.stdout) as { file: string; diagnostics: { ruleId: string; severity: string; message: string; range: { start: { line: number } } }[] }[];
    const py = files.find((f) => f.file === 'src/like.py')!;
    assert.deepEqual(py.diagnostics.map((f) => [f.ruleId, f.range.start.line]), [['key-schema-mismatch', 8], ['item-key-schema', 9]]);
    assert.match(py.diagnostics[0].message, /aws_dynamodb_table\.likes, defined at infra\/main\.tf:1; os\.environ\["LIKES"\] is set by infra\/main\.tf:16/);
    assert.match(py.diagnostics[1].message, /SK is a key attribute declared string \(S\), but the Item holds a number \(N\)/);
    // A definition that could not be read, in a file not linted: no report for that file, a line on stderr.
    assert.equal(files.find((f) => f.file === 'infra/broken.yaml'), undefined);
    assert.match(r.stderr, /^dynalint lint: infra\/broken\.yaml:\d+: .*\(table-definition; that file is not linted\)$/m);
  });

  it('a definition that could not be read is a finding of its file when that file is linted, in its one report', async () => {
    const r = await run('lint', 'src', 'infra', '--format', 'json');
    const files = JSON.parse(r.stdout) as { file: string; diagnostics: { ruleId: string; severity: string; range: { start: { line: number } } }[] }[];
    const broken = files.filter((f) => f.file === 'infra/broken.yaml');
    assert.equal(broken.length, 1, 'one report per file');
    assert.deepEqual(broken[0].diagnostics.map((f) => [f.ruleId, f.severity, f.range.start.line]), [['table-definition', 'info', 1]]);
    assert.doesNotMatch(r.stderr, /table-definition; that file is not linted/);
    writeFileSync(join(root, 'quiet.json'), JSON.stringify({ rules: { 'table-definition': 'off' } }));
    const off = await run('lint', 'infra', '--format', 'json', '--config', 'quiet.json');
    assert.deepEqual((JSON.parse(off.stdout) as { file: string; diagnostics: unknown[] }[]).find((f) => f.file === 'infra/broken.yaml')?.diagnostics, []);
  });

  it('--jobs 2 gives the same report', async () => {
    const one = await run('lint', 'src', '--format', 'json');
    const two = await run('lint', 'src', '--format', 'json', '--jobs', '2');
    assert.equal(two.stdout, one.stdout);
  });
});
