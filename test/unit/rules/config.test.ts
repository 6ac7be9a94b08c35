import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_FILE, findConfigFile, loadConfig, parseConfig } from '../../../server/src/config';
import { allRules } from '../../../server/src/rules';
import { PRELUDE, lint, parsersReady } from './check';

const KNOWN = new Set(allRules.map((r) => r.id));

describe('.dynalintrc.json', () => {
  describe('parseConfig', () => {
    it('reads JSONC (comments, trailing commas)', () => {
      const r = parseConfig('{\n  // stricter\n  "rules": { "set-without-if-not-exists": "error", "non-idempotent-counter": "hint", },\n}', KNOWN);
      assert.deepEqual(r, { rules: { 'set-without-if-not-exists': 'error', 'non-idempotent-counter': 'hint' }, problems: [] });
    });
    it('reports unknown rule ids, bad severities and unknown settings at their ranges', () => {
      const text = '{ "$schema": "./x.json", "rules": { "no-such-rule": "off", "add-on-non-number": "loud" }, "extends": "x" }';
      const r = parseConfig(text, KNOWN);
      assert.deepEqual(r.rules, {});
      assert.deepEqual(
        r.problems.map((p) => [p.severity, text.slice(p.range.start, p.range.end), p.message]),
        [
          ['warning', '"no-such-rule"', 'Unknown rule id "no-such-rule".'],
          ['error', '"loud"', `Invalid severity "loud" for rule "add-on-non-number": use one of "error", "warning", "info", "hint", "off" (ESLint's "warn", 0, 1, 2 also work).`],
          ['warning', '"extends"', 'Unknown setting "extends": only "rules" and "tables" are read.'],
        ],
      );
    });
    it("accepts ESLint's spellings: \"warn\" and 0/1/2; rejects other numbers and arrays", () => {
      const text = '{ "rules": { "reserved-word": "warn", "unused-value": 0, "add-on-non-number": 1, "set-without-if-not-exists": 2, "count-children-on-read": 3, "non-idempotent-counter": ["warn"] } }';
      const r = parseConfig(text, KNOWN);
      assert.deepEqual(r.rules, { 'reserved-word': 'warning', 'unused-value': 'off', 'add-on-non-number': 'warning', 'set-without-if-not-exists': 'error' });
      assert.deepEqual(
        r.problems.map((p) => [text.slice(p.range.start, p.range.end), p.message.slice(0, p.message.indexOf(':'))]),
        [
          ['3', 'Invalid severity 3 for rule "count-children-on-read"'],
          ['["warn"]', 'Invalid severity ["warn"] for rule "non-idempotent-counter"'],
        ],
      );
    });
    it('reports syntax errors and a non-object', () => {
      assert.equal(parseConfig('{ "rules": { "a": } }', KNOWN).problems[0].severity, 'error');
      assert.match(parseConfig('[]', KNOWN).problems[0].message, /must be an object/);
      assert.deepEqual(parseConfig('', KNOWN), { rules: {}, problems: [] });
    });
  });

  describe('loadConfig', () => {
    let root: string;
    before(() => {
      root = mkdtempSync(join(tmpdir(), 'dynalintrc-'));
      mkdirSync(join(root, 'ws', 'pkg', 'src'), { recursive: true });
      writeFileSync(join(root, CONFIG_FILE), '{ "rules": { "add-on-non-number": "off" } }');
      writeFileSync(join(root, 'ws', CONFIG_FILE), '{ "rules": { "set-without-if-not-exists": "error" } }');
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('walks up to the nearest file', () => {
      const c = loadConfig(join(root, 'ws', 'pkg', 'src'));
      assert.equal(c.path, join(root, 'ws', CONFIG_FILE));
      assert.deepEqual(c.rules, { 'set-without-if-not-exists': 'error' });
    });
    it('stops at the workspace root', () => {
      assert.equal(findConfigFile(join(root, 'ws', 'pkg'), join(root, 'ws', 'pkg')), undefined);
      assert.equal(findConfigFile(join(root, 'ws', 'pkg', 'src'), join(root, 'ws')), join(root, 'ws', CONFIG_FILE));
      assert.deepEqual(loadConfig(join(root, 'ws', 'pkg'), { stopDir: join(root, 'ws', 'pkg') }), { rules: {}, problems: [] });
    });
    it('its severities reach runRules, and settings override them', async () => {
      await parsersReady();
      const text = PRELUDE['ts-v3'] + "client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': { N: '1' } } }));\n";
      const fileRules = loadConfig(join(root, 'ws', 'pkg', 'src')).rules;
      assert.deepEqual(lint(text, 'typescript', { fileRules }).map((f) => f.severity), ['error']);
      assert.deepEqual(lint(text, 'typescript', { fileRules, settingsRules: { 'set-without-if-not-exists': 'info' } }).map((f) => f.severity), ['info']);
    });
  });
});
