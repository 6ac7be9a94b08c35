/**
 * `dynalint lint --format sarif` against what GitHub code scanning asks beyond the SARIF schema: partial fingerprints
 * that do not move with line numbers, relative artifact locations with a uriBaseId, rule help text and markdown.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Log, Result } from 'sarif';
import { main } from '../../../server/src/cli';
import { FINGERPRINT_KEY } from '../../../server/src/cli/sarif-github';
import { allRules } from '../../../server/src/rules';

const REPO = resolve(__dirname, '../../..');

const REQUEST = (indent: string) =>
  [
    `${indent}await doc.send(new UpdateCommand({`,
    `${indent}  TableName: 'Posts',`,
    `${indent}  Key: { PK: id, SK: 'META' },`,
    `${indent}  UpdateExpression: 'SET status = :s',`,
    `${indent}  ExpressionAttributeValues: { ':s': 'live', ':unused': 0 },`,
    `${indent}}));`,
  ].join('\n');

const source = (above: string, indent = '  ') => [`import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`, above, `export async function a(doc, id) {`, REQUEST(indent), `}`, `export async function b(doc, id) {`, REQUEST(indent), `}`, ``].join('\n');

describe('cli: SARIF for GitHub code scanning', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-sarif-'));
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'src'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  async function sarif(text: string, name = 'src/posts.ts'): Promise<Log> {
    writeFileSync(join(root, name), text);
    let out = '';
    await main(['lint', '--format', 'sarif', name], { cwd: root, stdout: (t) => (out += t), stderr: () => undefined });
    return JSON.parse(out) as Log;
  }
  const results = (log: Log): Result[] => log.runs[0].results ?? [];
  const fp = (r: Result) => r.partialFingerprints?.[FINGERPRINT_KEY];

  it('valid against the SARIF 2.1.0 schema subset, every result with a partial fingerprint and a relative location', async () => {
    const log = await sarif(source(''));
    const schema = JSON.parse(readFileSync(join(REPO, 'test/fixtures/cli/sarif-2.1.0-subset.schema.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
    assert.equal(results(log).length, 4);
    for (const r of results(log)) {
      assert.match(fp(r) ?? '', /^[0-9a-f]{32}:\d+$/);
      assert.deepEqual(r.locations?.[0].physicalLocation?.artifactLocation, { uri: 'src/posts.ts', uriBaseId: 'SRCROOT' });
    }
    assert.deepEqual(Object.keys(log.runs[0].originalUriBaseIds ?? {}), ['SRCROOT']);
  });

  it('fingerprints do not change when lines are added above or the code is re-indented; identical lines stay apart', async () => {
    const before = results(await sarif(source('')));
    const after = results(await sarif(source('// a comment\n// and another\n', '    ')));
    assert.notDeepEqual(
      before.map((r) => r.locations?.[0].physicalLocation?.region?.startLine),
      after.map((r) => r.locations?.[0].physicalLocation?.region?.startLine),
    );
    assert.deepEqual(after.map(fp), before.map(fp));
    // The two functions hold the same request: same hash, told apart by the occurrence count.
    const [a1, a2, b1, b2] = before.map((r) => fp(r)!);
    assert.equal(a1.split(':')[0], b1.split(':')[0]);
    assert.deepEqual([a1.split(':')[1], b1.split(':')[1]], ['1', '2']);
    assert.equal(new Set([a1, a2, b1, b2]).size, 4);
  });

  it('a fingerprint changes with the rule, the file or the text of the line', async () => {
    const base = results(await sarif(source('')));
    const moved = results(await sarif(source(''), 'src/other.ts'));
    assert.ok(base.every((r, i) => fp(r) !== fp(moved[i])), 'another file');
    const edited = results(await sarif(source('').replace(/':unused': 0/g, "':unused': 1")));
    const unused = (rs: Result[]) => rs.filter((r) => r.ruleId === 'unused-value').map(fp);
    const reserved = (rs: Result[]) => rs.filter((r) => r.ruleId === 'reserved-word').map(fp);
    assert.notDeepEqual(unused(edited), unused(base));
    assert.deepEqual(reserved(edited), reserved(base));
    assert.notEqual(reserved(base)[0], unused(base)[0]);
  });

  it('every rule has help text and markdown naming its documentation, and a full description', async () => {
    const log = await sarif(source(''));
    const rules = log.runs[0].tool.driver.rules ?? [];
    assert.equal(rules.length, allRules.length);
    for (const d of rules) {
      const rule = allRules.find((r) => r.id === d.id)!;
      const help = d.help!;
      assert.ok(help.text.includes(rule.meta.description) && help.text.includes(rule.meta.docs), d.id);
      assert.ok(!help.text.includes('`'), `${d.id}: plain text has no markdown`);
      assert.ok(help.markdown?.includes(`](${rule.meta.docs})`), d.id);
      assert.ok(help.markdown?.includes(`dynalint-disable-next-line ${d.id}`), d.id);
      assert.equal(d.fullDescription?.text, rule.meta.description);
    }
  });

  it('--fix: the fingerprints are those of the fixed text', async () => {
    // :missing is never defined (its fix is not safe: the finding stays); the reserved word is fixed.
    writeFileSync(join(root, 'src/posts.ts'), source('').replace(/SET status = :s/g, 'SET status = :s, note = :missing'));
    let out = '';
    await main(['lint', '--fix', '--format', 'sarif', 'src/posts.ts'], { cwd: root, stdout: (t) => (out += t), stderr: () => undefined });
    const fixed = results(JSON.parse(out) as Log);
    const relinted = results(await sarif(readFileSync(join(root, 'src/posts.ts'), 'utf8')));
    assert.deepEqual(
      fixed.map((r) => r.ruleId),
      ['undefined-value', 'unused-value', 'undefined-value', 'unused-value'],
    );
    assert.deepEqual(fixed.map(fp), relinted.map(fp));
  });
});
