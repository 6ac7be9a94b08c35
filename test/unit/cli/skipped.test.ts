/**
 * `dynalint lint` never skips in silence: files over the size limit, binary files and lines of minified code are
 * reported in every format (stylish warning line, json `skipped`, SARIF tool execution notification), `--strict` makes
 * them fail the run, and a long string line does not stop the rest of its file from being linted. Also `--jobs`: the
 * report is the same with worker threads.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Log } from 'sarif';
import { main } from '../../../server/src/cli';

const REPO = resolve(__dirname, '../../..');

/** A reserved word on line 5, the only finding of the request. */
const REQUEST = [
  `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
  `export const publish = new UpdateCommand({`,
  `  TableName: 'Posts',`,
  `  Key: { PK: 'POST#1', SK: 'META' },`,
  `  UpdateExpression: 'SET status = :s',`,
  `  ExpressionAttributeValues: { ':s': 'published' },`,
  `});`,
].join('\n');

const BASE64 = 'QUJD'.repeat(10_000); // 40,000 characters
const MINIFIED = `var a=function(b){return b+1};`.repeat(1_000); // 30,000 characters of code

const FILES: Record<string, string> = {
  'src/fixture.ts': `${REQUEST}\nexport const payload = '${BASE64}';\n`,
  'src/bundled.js': `${REQUEST}\n${MINIFIED}\n${'// padding so the file is mostly not minified\n'.repeat(1_000)}`,
  'src/huge.ts': `${REQUEST}\n${'// a big file\n'.repeat(20_000)}`,
  'src/binary.json': `{"TableName": "T"}\u0000\u0000`,
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('cli: what is not linted is reported', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-skip-'));
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

  /** --max-file-size just above every file but huge.ts. */
  const LIMIT = String(Buffer.byteLength(FILES['src/bundled.js']) + 1);

  it('json: findings on normal lines of long-line files; a skipped entry per file or region not linted', async () => {
    const r = await run('lint', '--format', 'json', '--max-file-size', LIMIT);
    const out = JSON.parse(r.stdout) as { file: string; diagnostics: { ruleId: string; range: { start: { line: number } } }[]; skipped?: { reason: string; range?: { start: { line: number }; end: { line: number } } }[] }[];
    assert.deepEqual(
      out.map((f) => [f.file, f.diagnostics.map((d) => `${d.ruleId}@${d.range.start.line}`), f.skipped?.map((s) => [s.reason.replace(/\d+/g, 'N'), s.range?.start.line, s.range?.end.line])]),
      [
        ['src/binary.json', [], [['binary or UTF-N file (NUL bytes)', undefined, undefined]]],
        ['src/bundled.js', ['reserved-word@4'], [['line N is minified code (N characters outside strings > N)', 7, 7]]],
        ['src/fixture.ts', ['reserved-word@4'], undefined],
        ['src/huge.ts', [], [['file too large (N bytes > max file size N)', undefined, undefined]]],
      ],
    );
    assert.match(out[1].skipped![0].reason, /^line 8 is minified code \(30000 characters outside strings > 20000\)$/);
    assert.equal(r.code, 1);
  });

  it('stylish: a warning line per file or region not linted, after the findings', async () => {
    const r = await run('lint', '--max-file-size', LIMIT);
    const lines = r.stdout.split('\n').filter((l) => /^\S/.test(l));
    assert.deepEqual(lines, [
      'src/bundled.js',
      'src/fixture.ts',
      '⚠ src/binary.json: not linted: binary or UTF-16 file (NUL bytes)',
      '⚠ src/bundled.js: not linted: line 8 is minified code (30000 characters outside strings > 20000)',
      `⚠ src/huge.ts: not linted: file too large (${Buffer.byteLength(FILES['src/huge.ts'])} bytes > max file size ${LIMIT})`,
      '✖ 2 problems (2 errors, 0 warnings)',
    ]);
  });

  it('stylish: only skipped files still print their lines; exit 0 without --strict, 1 with it', async () => {
    const plain = await run('lint', 'src/binary.json');
    assert.deepEqual(plain, { code: 0, stdout: '⚠ src/binary.json: not linted: binary or UTF-16 file (NUL bytes)\n\n', stderr: '' });
    const strict = await run('lint', 'src/binary.json', '--strict');
    assert.equal(strict.code, 1);
    assert.equal(strict.stdout, plain.stdout);
    assert.equal(strict.stderr, 'dynalint lint: --strict: 1 file or part not linted\n');
    assert.equal((await run('lint', 'src/fixture.ts', '--strict', '--format', 'json')).code, 1, 'its reserved word');
    writeFileSync(join(root, 'src/fixture.ts'), `export const payload = '${BASE64}';\n`);
    assert.deepEqual(await run('lint', 'src/fixture.ts', '--strict'), { code: 0, stdout: '', stderr: '' }, 'a long string line is linted: nothing to report');
  });

  it('sarif: one tool execution notification per file or region, still valid SARIF 2.1.0', async () => {
    const r = await run('lint', '--format', 'sarif', '--max-file-size', LIMIT);
    const log: Log = JSON.parse(r.stdout);
    const schema = JSON.parse(readFileSync(join(REPO, 'test/fixtures/cli/sarif-2.1.0-subset.schema.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    const invocation = log.runs[0].invocations?.[0];
    assert.equal(invocation?.executionSuccessful, true);
    assert.deepEqual(
      invocation?.toolExecutionNotifications?.map((n) => [n.level, n.message.text?.replace(/\d+/g, 'N'), n.locations?.[0].physicalLocation?.artifactLocation?.uri, n.locations?.[0].physicalLocation?.region?.startLine]),
      [
        ['warning', 'src/binary.json: not linted: binary or UTF-N file (NUL bytes)', 'src/binary.json', undefined],
        ['warning', 'src/bundled.js: not linted: line N is minified code (N characters outside strings > N)', 'src/bundled.js', 8],
        ['warning', 'src/huge.ts: not linted: file too large (N bytes > max file size N)', 'src/huge.ts', undefined],
      ],
    );
    assert.deepEqual(
      (log.runs[0].results ?? []).map((x) => [x.ruleId, x.locations?.[0].physicalLocation?.artifactLocation?.uri]),
      [
        ['reserved-word', 'src/bundled.js'],
        ['reserved-word', 'src/fixture.ts'],
      ],
    );
    // A clean run carries an invocation without notifications (and still validates).
    const clean: Log = JSON.parse((await run('lint', '--format', 'sarif', 'src/huge.ts')).stdout);
    assert.deepEqual(clean.runs[0].invocations, [{ executionSuccessful: true }]);
    assert.ok(validate(clean));
  });

  it('--max-file-size: bytes, over the config; the default (2 MB) lints every file here', async () => {
    const skippedFiles = async (...argv: string[]) =>
      (JSON.parse((await run('lint', '--format', 'json', ...argv)).stdout) as { file: string; skipped?: { reason: string }[] }[]).filter((f) => f.skipped?.some((s) => /too large/.test(s.reason))).map((f) => f.file);
    assert.deepEqual(await skippedFiles(), []);
    assert.deepEqual(await skippedFiles('--max-file-size', LIMIT), ['src/huge.ts']);
    assert.deepEqual(await skippedFiles('--max-file-size', '100'), ['src/bundled.js', 'src/fixture.ts', 'src/huge.ts']);
  });

  it('an explicitly named file of another kind is reported, not silently dropped', async () => {
    writeFileSync(join(root, 'notes.md'), 'SET status = :s\n');
    const r = await run('lint', 'notes.md');
    assert.deepEqual(r, { code: 0, stdout: '⚠ notes.md: not linted: not a file type Dynalint reads (JSON, TypeScript/JavaScript, Python, Go, Java, YAML, VTL)\n\n', stderr: '' });
  });

  const usage: [string[], RegExp][] = [
    [['--max-file-size', '0'], /--max-file-size needs a number of bytes/],
    [['--max-file-size', '2MB'], /--max-file-size needs a number of bytes/],
    [['--jobs', '0'], /--jobs needs a whole number/],
    [['--jobs', 'many'], /--jobs needs a whole number/],
    [['--strict=yes'], /--strict takes no value/],
  ];
  for (const [argv, message] of usage)
    it(`exit 2 on ${argv.join(' ')}`, async () => {
      const r = await run('lint', ...argv);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
    });

  it('--jobs 2 (worker threads) reports exactly what --jobs 1 does, in the same order', async function () {
    this.timeout(120_000);
    // 100 files (enough for 2 workers of 40+), varied: findings, clean files, skipped ones.
    for (let i = 0; i < 100; i++) {
      const dir = join(root, 'gen', `d${i % 7}`);
      mkdirSync(dir, { recursive: true });
      const kind = i % 5;
      const text =
        kind === 0
          ? REQUEST.replace('status', i % 2 ? 'status' : 'name')
          : kind === 1
            ? `{"TableName": "T", "Key": {"PK": {"S": "${i}"}}, "UpdateExpression": "SET date = :d"}\n`
            : kind === 2
              ? `import boto3\nboto3.resource('dynamodb').Table('T').update_item(Key={'PK': '${i}'}, UpdateExpression='SET size = :z')\n`
              : kind === 3
                ? `export const n${i} = ${i};\n`
                : `${REQUEST}\n${MINIFIED}\n${'//\n'.repeat(20_000)}`;
      writeFileSync(join(dir, `f${i}.${['ts', 'json', 'py', 'js', 'ts'][kind]}`), text);
    }
    const one = await run('lint', 'gen', '--format', 'json', '--jobs', '1');
    const two = await run('lint', 'gen', '--format', 'json', '--jobs', '2');
    assert.equal(one.code, 1);
    assert.equal(two.stderr, one.stderr);
    assert.equal(two.stdout, one.stdout);
    const out = JSON.parse(one.stdout) as { diagnostics: unknown[]; skipped?: unknown[] }[];
    assert.equal(out.length, 100);
    assert.ok(out.filter((f) => f.diagnostics.length).length >= 60);
    assert.equal(out.filter((f) => f.skipped).length, 20);
  });
});
