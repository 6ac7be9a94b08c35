/**
 * `lint --fix` and the bytes on disk: a CRLF file stays CRLF, a file that is not UTF-8 is reported and left byte for
 * byte, a BOM is kept, a read-only file is not written, a file that cannot be read is reported without stopping the
 * run, and a file changed between reading and writing is not overwritten. Every case compares the bytes.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli';
import { spawnSync } from 'node:child_process';
import { lintFile, writeFixed } from '../../../server/src/cli/lint-file';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { readTextFile } from '../../../server/src/io/read';

/** A request with a reserved word (`status`): the safe fix maps it to `#status` and adds ExpressionAttributeNames. */
const TS = [
  `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
  `export const publish = new UpdateCommand({`,
  `  TableName: 'Posts',`,
  `  Key: { PK: 'POST#1', SK: 'META' },`,
  `  UpdateExpression: 'SET status = :s',`,
  `  ExpressionAttributeValues: { ':s': 'published' },`,
  `});`,
  ``,
].join('\n');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('cli: lint --fix and the bytes on disk', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-bytes-'));
    writeFileSync(join(root, '.git'), ''); // the repository root: config lookup stops here
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function run(...argv: string[]): Promise<Run> {
    const r: Run = { code: 0, stdout: '', stderr: '' };
    r.code = await main(['lint', ...argv], { cwd: root, stdout: (t) => (r.stdout += t), stderr: (t) => (r.stderr += t) });
    return r;
  }
  const bytes = (f: string) => readFileSync(join(root, f));

  it('a CRLF file is fixed with CRLF line breaks only', async () => {
    writeFileSync(join(root, 'a.ts'), TS.replace(/\n/g, '\r\n'));
    const r = await run('--fix', 'a.ts');
    const after = bytes('a.ts').toString('utf8');
    assert.notEqual(after, TS.replace(/\n/g, '\r\n'), `fixed (${r.stderr})`);
    assert.match(after, /#status/);
    assert.deepEqual([...after.matchAll(/(?<!\r)\n/g)].length, 0, 'no bare LF');
  });

  it('a latin-1 file is reported as not linted and left byte for byte', async () => {
    const latin1 = Buffer.concat([Buffer.from(TS.replace("'published'", "'caf"), 'utf8'), Buffer.from([0xe9]), Buffer.from(TS.slice(TS.indexOf("'published'") + 10), 'utf8')]);
    writeFileSync(join(root, 'l.ts'), latin1);
    const r = await run('--fix', '--format', 'json', 'l.ts');
    assert.ok(bytes('l.ts').equals(latin1), 'unchanged bytes');
    const report = JSON.parse(r.stdout) as { file: string; skipped?: { reason: string }[] }[];
    assert.deepEqual(report[0].skipped?.map((s) => s.reason), [`not valid UTF-8 (byte 0xE9 at offset ${latin1.indexOf(0xe9)})`]);
    assert.equal(r.code, 0);
    assert.equal((await run('--strict', 'l.ts')).code, 1, '--strict fails on it');
  });

  it('a BOM is kept and line-1 columns do not count it', async () => {
    writeFileSync(join(root, 'b.json'), '\uFEFF{"TableName": "T", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET status = :s", "ExpressionAttributeValues": {":s": {"S": "x"}}}\n');
    const report = JSON.parse((await run('--format', 'json', 'b.json')).stdout) as { diagnostics: { ruleId: string; range: { start: { character: number } } }[] }[];
    const reserved = report[0].diagnostics.find((d) => d.ruleId === 'reserved-word');
    assert.equal(reserved?.range.start.character, '{"TableName": "T", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET '.length);
    await run('--fix', 'b.json');
    const after = bytes('b.json');
    assert.deepEqual([...after.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM kept');
    assert.match(after.toString('utf8'), /#status/);
    assert.equal(after.toString('utf8').lastIndexOf('\uFEFF'), 0, 'one BOM');
  });

  it('a read-only file is not written; the others are, and the run says which', async () => {
    writeFileSync(join(root, 'ro.ts'), TS);
    writeFileSync(join(root, 'rw.ts'), TS);
    chmodSync(join(root, 'ro.ts'), 0o444);
    const r = await run('--fix', 'ro.ts', 'rw.ts');
    assert.equal(bytes('ro.ts').toString('utf8'), TS, 'read-only file untouched');
    assert.equal(statSync(join(root, 'ro.ts')).mode & 0o777, 0o444);
    assert.match(bytes('rw.ts').toString('utf8'), /#status/);
    assert.match(r.stderr, /fixes not written to 1 file: ro\.ts \(the file is read-only\)/);
    assert.match(r.stderr, /in 1 file\n/);
    assert.equal(r.code, 2);
  });

  it('a file that is not a regular file is reported and the run carries on', async () => {
    assert.equal(spawnSync('mkfifo', [join(root, 'fifo.ts')]).status, 0);
    writeFileSync(join(root, 'ok.ts'), TS);
    const r = await run('--fix', '--format', 'json', 'fifo.ts', 'ok.ts');
    const report = JSON.parse(r.stdout) as { file: string; skipped?: { reason: string }[] }[];
    assert.deepEqual(report.map((f) => [f.file, f.skipped?.map((s) => s.reason)]), [['fifo.ts', ['not a regular file (a FIFO)']], ['ok.ts', undefined]]);
    assert.match(bytes('ok.ts').toString('utf8'), /#status/, 'the regular file was still fixed');
    assert.equal(r.code, 0);
  });

  it('a file that cannot be opened is reported as unreadable (the run then exits 2)', async () => {
    const o = await lintFile({ abs: join(root, 'gone.ts'), file: 'gone.ts', languageId: 'typescript', settings: DEFAULT_SETTINGS, fix: true, dryRun: false });
    assert.match(o.unreadable ?? '', /^cannot read: ENOENT/);
    assert.deepEqual(o.report.notLinted?.map((n) => n.reason), [o.unreadable]);
  });

  it('a file changed after it was read is not overwritten', () => {
    const f = join(root, 'c.ts');
    writeFileSync(f, TS);
    const read = readTextFile(f, 1 << 20);
    writeFileSync(f, TS + '// edited meanwhile\n');
    assert.equal(writeFixed(f, read, 'FIXED'), 'the file changed during the run');
    assert.equal(readFileSync(f, 'utf8'), TS + '// edited meanwhile\n');
    const again = readTextFile(f, 1 << 20);
    assert.equal(writeFixed(f, again, 'FIXED'), undefined);
    assert.equal(readFileSync(f, 'utf8'), 'FIXED');
  });

  it('keeps the file mode and leaves no temporary file', async () => {
    writeFileSync(join(root, 'x.ts'), TS);
    chmodSync(join(root, 'x.ts'), 0o640);
    await run('--fix', 'x.ts');
    assert.equal(statSync(join(root, 'x.ts')).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(root).filter((n) => n.includes('dynalint')), []);
  });

  it('stylish output escapes control characters that come from the source', async () => {
    writeFileSync(join(root, 'esc.json'), '{"TableName": "T", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET a = \\u001b]0;pwned\\u0007\\u001b[2J"}\n');
    const r = await run('esc.json');
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /\\u001b/, 'the escape is shown, escaped');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f]/, 'no raw control character reaches the terminal');
  });
});
