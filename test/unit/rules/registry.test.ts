import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { configSchema } from '../../../server/src/config';
import { extract } from '../../../server/src/extract';
import { allRules, resolveSeverity, ruleById } from '../../../server/src/rules';
import { coreRules } from '../../../server/src/rules/core';
import { runRuleSet } from '../../../server/src/rules/run';
import { DOCS_BASE, Rule } from '../../../server/src/rules/types';
import { PRELUDE, parsersReady } from './check';

const ROOT = join(__dirname, '..', '..', '..');
const DOCS = join(ROOT, 'docs', 'rules');

describe('rule registry', () => {
  it('is sorted by id, ids unique and kebab-case', () => {
    const ids = allRules.map((r) => r.id);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });

  it('holds the mission rules with their severities', () => {
    assert.equal(ruleById('unguarded-add-in-transaction')?.meta.defaultSeverity, 'warning');
    assert.equal(ruleById('set-without-if-not-exists')?.meta.defaultSeverity, 'warning');
    assert.equal(ruleById('add-on-non-number')?.meta.defaultSeverity, 'error');
    assert.equal(ruleById('non-idempotent-counter')?.meta.defaultSeverity, 'off');
    for (const r of coreRules) assert.ok(allRules.includes(r), r.id);
  });

  it('every rule has complete metadata and its docs URL', () => {
    for (const r of allRules) {
      assert.equal(r.meta.docs, `${DOCS_BASE}/${r.id}.md`, r.id);
      assert.ok(r.meta.description.length > 10, r.id);
      assert.equal(typeof r.meta.fixable, 'boolean');
    }
  });

  it('every registered rule has a docs page, and every docs page a rule', () => {
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();
    assert.deepEqual(allRules.map((r) => r.id).filter((id) => !pages.includes(id)), [], 'rules without a page');
    assert.deepEqual(pages.filter((p) => !ruleById(p)), [], 'pages without a rule');
  });

  it('every docs page says what, why, example, use instead, references', () => {
    for (const r of allRules) {
      const file = join(DOCS, `${r.id}.md`);
      if (!existsSync(file)) continue; // reported by the test above
      const md = readFileSync(file, 'utf8');
      assert.ok(md.startsWith(`# ${r.id}\n`), `${r.id}: title`);
      const header = /^Default severity: \*\*(\w+)\*\*.*· Category: (\w+) · Quick fix: (yes|no)/m.exec(md);
      assert.ok(header, `${r.id}: header line`);
      assert.deepEqual(header.slice(1), [r.meta.defaultSeverity, r.meta.category, r.meta.fixable ? 'yes' : 'no'], `${r.id}: header matches the metadata`);
      for (const h of ['## What it does', '## Why is this bad?', '## Example', '## Use instead', '## References']) assert.ok(md.includes(h), `${r.id}: ${h}`);
    }
  });

  it('the shipped .dynalintrc.json schema lists exactly the registered rules (regenerate: npx tsx server/src/config/write-schema.ts)', () => {
    const shipped = JSON.parse(readFileSync(join(ROOT, 'schemas', 'dynalintrc.schema.json'), 'utf8'));
    assert.deepEqual(Object.keys(shipped.properties.rules.properties), allRules.map((r) => r.id));
    assert.deepEqual(shipped, JSON.parse(JSON.stringify(configSchema(allRules))));
    const validate = new Ajv({ strict: false }).compile(shipped);
    assert.ok(validate({ rules: { 'add-on-non-number': 'warning', 'non-idempotent-counter': 'hint' } }));
    assert.ok(!validate({ rules: { 'add-on-non-number': 'loud' } }));
    assert.ok(!validate({ rules: { 'no-such-rule': 'off' } }));
  });
});

describe('runRules', () => {
  before(parsersReady);
  const text = PRELUDE['ts-v3'] + "client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { S: 'x' } } }));\n";
  const sites = () => extract(text, 'typescript').sites;
  const rule = (id: string, check: Rule['check']): Rule => ({ id, meta: { description: 'test rule', docs: '', defaultSeverity: 'warning', fixable: false, category: 'style' }, check });

  it('resolves severity: rule default < .dynalintrc.json < settings', () => {
    const r = ruleById('add-on-non-number')!;
    assert.equal(resolveSeverity(r), 'error');
    assert.equal(resolveSeverity(r, { fileRules: { 'add-on-non-number': 'info' } }), 'info');
    assert.equal(resolveSeverity(r, { fileRules: { 'add-on-non-number': 'info' }, settingsRules: { 'add-on-non-number': 'hint' } }), 'hint');
    assert.equal(resolveSeverity(r, { settingsRules: { 'add-on-non-number': 'bogus' as never } }), 'error');
    const sev = (config: object) => runRuleSet(allRules, text, 'typescript', sites(), config).map((f) => `${f.ruleId}:${f.severity}`);
    assert.deepEqual(sev({}), ['add-on-non-number:error']);
    assert.deepEqual(sev({ fileRules: { 'add-on-non-number': 'warning' } }), ['add-on-non-number:warning']);
    // Turned off, it no longer supersedes the validator's own (fix-less) finding on the same operand.
    assert.deepEqual(sev({ fileRules: { 'add-on-non-number': 'warning' }, settingsRules: { 'add-on-non-number': 'off' } }), ['add-operand-type:error']);
    const counter = text.replace("{ S: 'x' }", "{ N: '1' }");
    const sevOf = (config: object) => runRuleSet(allRules, counter, 'typescript', extract(counter, 'typescript').sites, config).map((f) => `${f.ruleId}:${f.severity}`);
    assert.deepEqual(sevOf({}), []);
    assert.deepEqual(sevOf({ settingsRules: { 'non-idempotent-counter': 'info' } }), ['non-idempotent-counter:info']);
  });

  it('a rule that throws is logged and skipped; the others still report', () => {
    const logs: string[] = [];
    const boom = rule('boom', () => {
      throw new Error('kaput');
    });
    const ok = rule('ok', ({ sites: s }) => s.map((x) => ({ ruleId: 'ok', message: 'seen', range: x.nameRange })));
    const out = runRuleSet([boom, ok], text, 'typescript', sites(), { log: (m) => logs.push(m) });
    assert.deepEqual(out.map((f) => `${f.ruleId}:${f.severity}:${text.slice(f.range.start, f.range.end)}`), ['ok:warning:UpdateItemCommand']);
    assert.equal(logs.length, 1);
    assert.match(logs[0], /rule boom failed.*kaput/s);
  });

  it('a severity a rule reports itself is kept unless configured', () => {
    const own = rule('own', ({ sites: s }) => s.map((x) => ({ ruleId: 'own', message: 'm', range: x.nameRange, severity: 'info' as const })));
    assert.deepEqual(runRuleSet([own], text, 'typescript', sites()).map((f) => f.severity), ['info']);
    assert.deepEqual(runRuleSet([own], text, 'typescript', sites(), { settingsRules: { own: 'error' } }).map((f) => f.severity), ['error']);
  });

  it('returns findings sorted by position', () => {
    const two = text + text.slice(PRELUDE['ts-v3'].length);
    const out = runRuleSet(allRules, two, 'typescript', extract(two, 'typescript').sites);
    assert.deepEqual(out.map((f) => f.range.start), out.map((f) => f.range.start).sort((a, b) => a - b));
    assert.equal(out.length, 2);
  });
});
