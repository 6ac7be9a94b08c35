/**
 * `dynalint lint` end to end, in-process through the CLI's `main` (the same code dist/cli.js runs) on a project tree
 * written to a temporary directory: the three formats, exit codes, --max-warnings, --config, --fix, --fix-dry-run,
 * .gitignore and node_modules. One test also runs the CLI as a separate process.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { pathToFileURL } from 'node:url';
import type { Log } from 'sarif';
import { main } from '../../../server/src/cli';
import { allRules } from '../../../server/src/rules';
import { ownStderr } from '../../support/stderr';

const REPO = resolve(__dirname, '../../..');

const FILES: Record<string, string> = {
  '.gitignore': 'generated/\n*.log\n',
  'src/posts.ts': [
    `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
    `export const publish = new UpdateCommand({`,
    `  TableName: 'Posts',`,
    `  Key: { PK: 'POST#1', SK: 'META' },`,
    `  UpdateExpression: 'SET status = :s',`,
    `  ExpressionAttributeValues: { ':s': 'published', ':unused': 0 },`,
    `});`,
    ``,
  ].join('\n'),
  'src/counter.ts': [
    `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
    `export const play = new UpdateCommand({`,
    `  TableName: 'Videos',`,
    `  Key: { PK: 'VIDEO#1', SK: 'STATS' },`,
    `  UpdateExpression: 'SET plays = plays + :one',`,
    `  ExpressionAttributeValues: { ':one': 1 },`,
    `});`,
    ``,
  ].join('\n'),
  'src/clean.py': [
    `import boto3`,
    `table = boto3.resource('dynamodb').Table('Videos')`,
    `table.update_item(Key={'PK': 'VIDEO#1', 'SK': 'STATS'}, UpdateExpression='ADD plays :one', ExpressionAttributeValues={':one': 1})`,
    ``,
  ].join('\n'),
  'generated/bad.json': `{"TableName": "T", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET name = :n"}\n`,
  'node_modules/pkg/bad.json': `{"TableName": "T", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET name = :n"}\n`,
  'debug.log': 'SET name = :n\n',
  'README.md': '# not linted\n',
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('cli: dynalint lint', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-cli-'));
    // A repository root: the .dynalintrc.json and .gitignore lookups stop here, whatever lies above the temp folder.
    mkdirSync(join(root, '.git'));
    for (const [rel, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function run(...argv: string[]): Promise<Run> {
    const r: Run = { code: -1, stdout: '', stderr: '' };
    r.code = await main(argv, { cwd: root, stdout: (t) => (r.stdout += t), stderr: (t) => (r.stderr += t) });
    return r;
  }

  it('stylish (default): problems grouped by file, 1-based positions, summary; exit 1 on errors', async () => {
    const r = await run('lint');
    assert.equal(r.stderr, '');
    const lines = r.stdout.split('\n');
    assert.deepEqual(
      lines.filter((l) => /^\S/.test(l)),
      ['src/counter.ts', 'src/posts.ts', '✖ 3 problems (2 errors, 1 warning)'],
    );
    assert.match(r.stdout, /^ {2}5:26 +warning +`SET plays = plays \+ :one` .* +set-without-if-not-exists$/m);
    assert.match(r.stdout, /^ {2}5:26 +error +"status" is a DynamoDB reserved word.* +reserved-word$/m);
    assert.match(r.stdout, /^ {2}6:51 +error +:unused is defined but no expression uses it.* +unused-value$/m);
    assert.match(r.stdout, /2 errors and 1 warning potentially fixable with the `--fix` option\./);
    assert.equal(r.code, 1);
  });

  it('--format text (and any case of a format name) is stylish', async () => {
    const stylish = await run('lint');
    assert.deepEqual(await run('lint', '--format', 'text'), stylish);
    assert.deepEqual(await run('lint', '--format=Stylish'), stylish);
    assert.equal((await run('lint', '--format', 'JSON')).stdout, (await run('lint', '--format', 'json')).stdout);
  });

  it('json: files with 0-based LSP ranges, ignored and node_modules files absent', async () => {
    const r = await run('lint', '--format', 'json');
    const out = JSON.parse(r.stdout) as { file: string; diagnostics: { ruleId: string; severity: string; range: unknown }[] }[];
    assert.deepEqual(
      out.map((f) => [f.file, f.diagnostics.map((d) => [d.ruleId, d.severity, d.range])]),
      [
        ['src/clean.py', []],
        ['src/counter.ts', [['set-without-if-not-exists', 'warning', { start: { line: 4, character: 25 }, end: { line: 4, character: 45 } }]]],
        [
          'src/posts.ts',
          [
            ['reserved-word', 'error', { start: { line: 4, character: 25 }, end: { line: 4, character: 31 } }],
            ['unused-value', 'error', { start: { line: 5, character: 50 }, end: { line: 5, character: 59 } }],
          ],
        ],
      ],
    );
    assert.equal(r.code, 1);
  });

  it('sarif: valid SARIF 2.1.0 with rule metadata (helpUri) for code scanning', async () => {
    const r = await run('lint', '--format=sarif');
    const log: Log = JSON.parse(r.stdout);
    const schema = JSON.parse(readFileSync(join(REPO, 'test/fixtures/cli/sarif-2.1.0-subset.schema.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    const run0 = log.runs[0];
    const rules = run0.tool.driver.rules ?? [];
    assert.equal(run0.tool.driver.name, 'dynalint');
    assert.deepEqual(
      rules.map((d) => d.id),
      allRules.map((x) => x.id),
    );
    for (const d of rules) assert.equal(d.helpUri, allRules.find((x) => x.id === d.id)!.meta.docs);
    assert.deepEqual(
      (run0.results ?? []).map((x) => [
        x.ruleId,
        rules[x.ruleIndex ?? -1]?.id,
        x.level,
        x.locations?.[0].physicalLocation?.artifactLocation?.uri,
        x.locations?.[0].physicalLocation?.region,
      ]),
      [
        ['set-without-if-not-exists', 'set-without-if-not-exists', 'warning', 'src/counter.ts', { startLine: 5, startColumn: 26, endLine: 5, endColumn: 46 }],
        ['reserved-word', 'reserved-word', 'error', 'src/posts.ts', { startLine: 5, startColumn: 26, endLine: 5, endColumn: 32 }],
        ['unused-value', 'unused-value', 'error', 'src/posts.ts', { startLine: 6, startColumn: 51, endLine: 6, endColumn: 60 }],
      ],
    );
    assert.equal(r.code, 1);
  });

  it('sarif: names with # or spaces are percent-encoded; files outside the working directory get absolute URIs', async () => {
    cpSync(join(root, 'src/counter.ts'), join(root, 'src/LIKE#1 copy.ts'));
    cpSync(join(root, 'src/counter.ts'), join(root, 'outside.ts'));
    let out = '';
    const code = await main(['lint', '--format', 'sarif', 'LIKE#1 copy.ts', '../outside.ts'], { cwd: join(root, 'src'), stdout: (t) => (out += t), stderr: () => undefined });
    assert.equal(code, 0);
    const log: Log = JSON.parse(out);
    assert.deepEqual(
      (log.runs[0].results ?? []).map((x) => x.locations?.[0].physicalLocation?.artifactLocation),
      [{ uri: pathToFileURL(join(root, 'outside.ts')).href }, { uri: 'LIKE%231%20copy.ts', uriBaseId: 'SRCROOT' }],
    );
    // The log names no absolute path under the working directory: SRCROOT is for the consumer to bind.
    assert.equal(log.runs[0].originalUriBaseIds?.SRCROOT.uri, undefined);
    assert.ok(!JSON.stringify({ ...log.runs[0], results: log.runs[0].results?.filter((x) => x.locations?.[0].physicalLocation?.artifactLocation?.uriBaseId) }).includes(root), 'no absolute working directory in the log');
  });

  it('the schema subset rejects what SARIF 2.1.0 rejects', () => {
    const schema = JSON.parse(readFileSync(join(REPO, 'test/fixtures/cli/sarif-2.1.0-subset.schema.json'), 'utf8'));
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const ok = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'error' }] }] };
    assert.equal(validate(ok), true);
    const bad = [
      { runs: [] }, // version required
      { version: '2.0.0', runs: [] },
      { version: '2.1.0', runs: [{ tool: {} }] }, // driver required
      { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ level: 'error' }] }] }, // message required
      { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] },
      { version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules: [{ name: 'no id' }] } } }] },
      { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { region: { startLine: 0 } } }] }] }] },
      { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, resultz: [] }] }, // additionalProperties: false
    ];
    for (const b of bad) assert.equal(validate(b), false, JSON.stringify(b));
  });

  it('exit 0 on warnings only; 1 when warnings exceed --max-warnings', async () => {
    assert.equal((await run('lint', 'src/counter.ts')).code, 0);
    assert.equal((await run('lint', 'src/counter.ts', '--max-warnings', '1')).code, 0);
    const r = await run('lint', 'src/counter.ts', '--max-warnings', '0');
    assert.equal(r.code, 1);
    assert.match(r.stdout, /too many warnings \(maximum: 0\)/);
  });

  it('stylish counts info and hint findings under their own names; exit 0', async () => {
    writeFileSync(join(root, 'src/advice.py'), `# dynalint-disable-next-line reserved-word\nimport boto3\n`);
    writeFileSync(join(root, '.dynalintrc.json'), '{ "rules": { "count-children-on-read": "info" } }');
    writeFileSync(
      join(root, 'src/count.py'),
      `import boto3\nboto3.client('dynamodb').query(TableName='T', KeyConditionExpression='PK = :p', ExpressionAttributeValues={':p': {'S': 'POST#1'}}, Select='COUNT')\n`,
    );
    const r = await run('lint', 'src/advice.py', 'src/count.py');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}1:30 +hint +Unused suppression: no reserved-word finding on the next line\. +unused-suppression$/m);
    assert.match(r.stdout, /^ {2}2:\d+ +info +.* +count-children-on-read$/m);
    assert.match(r.stdout, /^✖ 2 problems \(0 errors, 0 warnings, 1 info, 1 hint\)$/m);
  });

  it('exit 0 and no output when clean', async () => {
    const r = await run('lint', 'src/clean.py');
    assert.deepEqual(r, { code: 0, stdout: '', stderr: '' });
  });

  it('a glob argument, and explicitly named files even when .gitignore lists them', async () => {
    const g = JSON.parse((await run('lint', 'src/*.py', '--format', 'json')).stdout);
    assert.deepEqual(g.map((f: { file: string }) => f.file), ['src/clean.py']);
    const e = JSON.parse((await run('lint', 'generated/bad.json', '--format', 'json')).stdout);
    assert.deepEqual(e.map((f: { file: string; diagnostics: { ruleId: string }[] }) => [f.file, f.diagnostics.map((d) => d.ruleId)]), [['generated/bad.json', ['reserved-word', 'undefined-value']]]);
  });

  it('--config sets severities (off, error)', async () => {
    writeFileSync(join(root, 'strict.json'), JSON.stringify({ rules: { 'reserved-word': 'off', 'unused-value': 'off', 'set-without-if-not-exists': 'error' } }));
    const r = await run('lint', '--config', 'strict.json', '--format', 'json');
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.flatMap((f: { diagnostics: { ruleId: string; severity: string }[] }) => f.diagnostics.map((d) => [d.ruleId, d.severity])), [['set-without-if-not-exists', 'error']]);
    assert.equal(r.code, 1);
  });

  it('warns about unknown rule ids in the config and goes on', async () => {
    writeFileSync(join(root, 'typo.json'), '{ "rules": { "reserved-wrod": "off" } }');
    const r = await run('lint', 'src/clean.py', '--config', 'typo.json');
    assert.deepEqual(r, { code: 0, stdout: '', stderr: 'dynalint lint: typo.json:1:14: Unknown rule id "reserved-wrod".\n' });
  });

  it('each file gets the nearest .dynalintrc.json above it, whatever the working directory; "warn" and numbers work', async () => {
    mkdirSync(join(root, 'app', 'api'), { recursive: true });
    cpSync(join(root, 'src/posts.ts'), join(root, 'app/api/posts.ts'));
    writeFileSync(join(root, 'app', '.dynalintrc.json'), '{ "rules": { "reserved-word": "warn", "unused-value": 0 } }');
    const rules = (r: Run) =>
      JSON.parse(r.stdout).map((f: { file: string; diagnostics: { ruleId: string; severity: string }[] }) => [f.file, f.diagnostics.map((d) => `${d.ruleId}:${d.severity}`)]);
    const expected = [
      ['app/api/posts.ts', ['reserved-word:warning']],
      ['src/posts.ts', ['reserved-word:error', 'unused-value:error']],
    ];
    assert.deepEqual(rules(await run('lint', '--format', 'json', 'app/api/posts.ts', 'src/posts.ts')), expected);
    let out = '';
    await main(['lint', '--format', 'json', '../app/api/posts.ts', 'posts.ts'], { cwd: join(root, 'src'), stdout: (t) => (out += t), stderr: () => undefined });
    assert.deepEqual(rules({ code: 0, stdout: out, stderr: '' }), [
      ['../app/api/posts.ts', ['reserved-word:warning']],
      ['posts.ts', ['reserved-word:error', 'unused-value:error']],
    ]);
  });

  it('the search stops at the repository root (a folder holding .git)', async () => {
    writeFileSync(join(root, '.dynalintrc.json'), '{ "rules": { "reserved-word": "off" } }');
    mkdirSync(join(root, 'vendor', 'lib', '.git'), { recursive: true });
    cpSync(join(root, 'src/posts.ts'), join(root, 'vendor/lib/posts.ts'));
    const r = await run('lint', '--format', 'json', 'vendor/lib/posts.ts', 'src/posts.ts');
    assert.deepEqual(
      JSON.parse(r.stdout).map((f: { file: string; diagnostics: { ruleId: string }[] }) => [f.file, f.diagnostics.map((d) => d.ruleId)]),
      [
        ['src/posts.ts', ['unused-value']],
        ['vendor/lib/posts.ts', ['reserved-word', 'unused-value']],
      ],
    );
  });

  it('reads .dynalintrc.json from the working directory by default', async () => {
    writeFileSync(join(root, '.dynalintrc.json'), '{\n  // comments are fine\n  "rules": { "reserved-word": "warning", "unused-value": "off", "set-without-if-not-exists": "off" }\n}\n');
    const r = await run('lint', '--format', 'json');
    assert.deepEqual(JSON.parse(r.stdout).flatMap((f: { diagnostics: { ruleId: string; severity: string }[] }) => f.diagnostics.map((d) => [d.ruleId, d.severity])), [['reserved-word', 'warning']]);
    assert.equal(r.code, 0);
  });

  const usage: [string, string[], RegExp][] = [
    ['no command', [], /Usage: dynalint <command>/],
    ['unknown command', ['lnt'], /unknown command "lnt"/],
    ['unknown option', ['lint', '--fromat', 'json'], /unknown option --fromat/],
    ['bad format', ['lint', '--format', 'xml'], /--format must be one of stylish, json, sarif \(text = stylish\)/],
    ['bad --max-warnings', ['lint', '--max-warnings', 'many'], /--max-warnings needs a whole number/],
    ['missing value', ['lint', '--format'], /--format needs a value/],
    ['missing path', ['lint', 'nope/'], /no files matching "nope\/"/],
    ['glob matching nothing', ['lint', 'src/**/*.rb'], /no files matching "src\/\*\*\/\*\.rb"/],
    ['missing config', ['lint', '--config', 'nope.json'], /config file not found: nope\.json/],
    ['both fix modes', ['lint', '--fix', '--fix-dry-run'], /cannot be combined/],
    ['demo with an unknown option', ['demo', '--bogus'], /^dynalint demo: unknown option --bogus\n\nUsage: dynalint demo\n/],
    ['demo with an argument', ['demo', 'now'], /^dynalint demo: unexpected argument now\n/],
  ];
  for (const [name, argv, message] of usage) {
    it(`exit 2 on bad usage: ${name}`, async () => {
      const r = await run(...argv);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    });
  }

  it('exit 2 on an invalid config file', async () => {
    writeFileSync(join(root, 'broken.json'), '{ "rules": { "reserved-word": "loud" } }');
    const r = await run('lint', '--config', 'broken.json');
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `dynalint lint: broken.json:1:31: Invalid severity "loud" for rule "reserved-word": use one of "error", "warning", "info", "hint", "off" (ESLint's "warn", 0, 1, 2 also work).\n`);
  });

  it('an invalid .dynalintrc.json found for a file stops the run before --fix writes anything', async () => {
    writeFileSync(join(root, 'src', '.dynalintrc.json'), '{ "rules": { "reserved-word": "loud" } }');
    const r = await run('lint', '--fix');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^dynalint lint: src\/\.dynalintrc\.json:1:31: Invalid severity "loud" for rule "reserved-word"/);
    assert.equal(readFileSync(join(root, 'src/posts.ts'), 'utf8'), FILES['src/posts.ts']);
  });

  it('--fix-dry-run prints a unified diff of the safe fixes and writes nothing', async () => {
    const before = readFileSync(join(root, 'src/posts.ts'), 'utf8');
    const r = await run('lint', 'src/posts.ts', '--fix-dry-run');
    assert.equal(
      r.stdout,
      [
        '--- a/src/posts.ts',
        '+++ b/src/posts.ts',
        '@@ -2,6 +2,7 @@',
        ' export const publish = new UpdateCommand({',
        "   TableName: 'Posts',",
        "   Key: { PK: 'POST#1', SK: 'META' },",
        "-  UpdateExpression: 'SET status = :s',",
        "-  ExpressionAttributeValues: { ':s': 'published', ':unused': 0 },",
        "+  UpdateExpression: 'SET #status = :s',",
        "+  ExpressionAttributeValues: { ':s': 'published' },",
        "+  ExpressionAttributeNames: { '#status': 'status' },",
        ' });',
        '',
      ].join('\n'),
    );
    assert.match(r.stderr, /2 fixes would be applied/);
    assert.equal(readFileSync(join(root, 'src/posts.ts'), 'utf8'), before);
    assert.equal(r.code, 0);
  });

  it('--fix writes the safe fixes, reports what is left, and a second run is clean', async () => {
    const r = await run('lint', '--fix');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /3 fixes applied/);
    assert.equal(
      readFileSync(join(root, 'src/posts.ts'), 'utf8'),
      FILES['src/posts.ts']
        .replace("'SET status = :s'", "'SET #status = :s'")
        .replace(", ':unused': 0 },", " },\n  ExpressionAttributeNames: { '#status': 'status' },"),
    );
    assert.match(readFileSync(join(root, 'src/counter.ts'), 'utf8'), /SET plays = if_not_exists\(plays, :zero\) \+ :one/);
    assert.equal(readFileSync(join(root, 'generated/bad.json'), 'utf8'), FILES['generated/bad.json'], 'ignored files are not touched');
    assert.deepEqual(await run('lint'), { code: 0, stdout: '', stderr: '' });
  });

  it('as a process, a reader closing the pipe early (`| head -1`) ends it quietly with its own exit code', async function () {
    this.timeout(60_000);
    // About a megabyte of JSON: far more than a pipe buffer, so the CLI is still writing when the reader goes away.
    const line = "table.update_item(Key={'PK': 'a'}, UpdateExpression='SET name = :n, status = :s, date = :d, size = :z')";
    writeFileSync(join(root, 'big.py'), `import boto3\ntable = boto3.resource('dynamodb').Table('T')\n${`${line}\n`.repeat(300)}`);
    const child = spawn(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'server/src/cli.ts'), 'lint', '--format', 'json', 'big.py'], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    assert.equal(ownStderr(stderr), '');
    assert.equal(code, 1);
  });

  it('runs as a process: exit code and output of the real entry point', function () {
    this.timeout(60_000);
    const copy = mkdtempSync(join(tmpdir(), 'dynalint-cli-proc-'));
    try {
      cpSync(root, copy, { recursive: true });
      const p = spawnSync(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'server/src/cli.ts'), 'lint', '--format', 'json', 'src'], { cwd: copy, encoding: 'utf8' });
      assert.equal(p.status, 1, p.stderr);
      assert.deepEqual(
        JSON.parse(p.stdout).map((f: { file: string; diagnostics: unknown[] }) => [f.file, f.diagnostics.length]),
        [
          ['src/clean.py', 0],
          ['src/counter.ts', 1],
          ['src/posts.ts', 2],
        ],
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
