/**
 * Files a workspace controls are read only when they are regular, small enough and UTF-8: a FIFO or a link to
 * /dev/zero named `.dynalintrc.json` is refused at once (it used to hang or abort the server and the CLI).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../server/src/config';
import { readTextFile } from '../../../server/src/io/read';

describe('io: reading files the workspace controls', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dynalint-read-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const reason = (path: string, max = 1024) => {
    try {
      readTextFile(path, max);
      return 'read';
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('reads a regular UTF-8 file, reporting and removing a BOM', () => {
    writeFileSync(join(dir, 'a'), '\uFEFF{"rules": {}}\n');
    const f = readTextFile(join(dir, 'a'), 1024);
    assert.deepEqual({ text: f.text, bom: f.bom, size: f.size }, { text: '{"rules": {}}\n', bom: true, size: 17 });
    writeFileSync(join(dir, 'b'), 'h\u00e9llo \u{1F600}');
    assert.deepEqual({ text: readTextFile(join(dir, 'b'), 1024).text, bom: readTextFile(join(dir, 'b'), 1024).bom }, { text: 'h\u00e9llo \u{1F600}', bom: false });
  });

  it('refuses a FIFO at once', function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(dir, 'fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.equal(reason(fifo), 'not a regular file (a FIFO)');
  });

  it('refuses a link to a character device and a directory', function () {
    if (process.platform === 'win32') this.skip();
    symlinkSync('/dev/zero', join(dir, 'zero'));
    assert.equal(reason(join(dir, 'zero')), 'not a regular file (a character device)');
    mkdirSync(join(dir, 'd'));
    assert.equal(reason(join(dir, 'd')), 'not a regular file (a directory)');
  });

  it('refuses a file over the cap before reading it', () => {
    writeFileSync(join(dir, 'big'), 'x'.repeat(2000));
    assert.equal(reason(join(dir, 'big'), 1000), '2000 bytes, over the limit of 1000');
  });

  it('refuses bytes that are not UTF-8, saying where', () => {
    writeFileSync(join(dir, 'latin1'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    assert.equal(reason(join(dir, 'latin1')), 'not valid UTF-8 (byte 0xE9 at offset 3)');
    writeFileSync(join(dir, 'utf16'), Buffer.from('\uFEFFhi', 'utf16le'));
    assert.match(reason(join(dir, 'utf16')), /^not valid UTF-8 \(byte 0xFF at offset 0\)$/);
  });

  it('a FIFO or /dev/zero named .dynalintrc.json is a config problem, not a hang', function () {
    if (process.platform === 'win32') this.skip();
    assert.equal(spawnSync('mkfifo', [join(dir, '.dynalintrc.json')]).status, 0);
    const c = loadConfig(dir, { stopDir: dir });
    assert.deepEqual(c.problems.map((p) => p.message), ['Cannot read .dynalintrc.json: not a regular file (a FIFO)']);
    rmSync(join(dir, '.dynalintrc.json'));
    symlinkSync('/dev/zero', join(dir, '.dynalintrc.json'));
    assert.deepEqual(loadConfig(dir, { stopDir: dir }).problems.map((p) => p.message), ['Cannot read .dynalintrc.json: not a regular file (a character device)']);
  });
});
