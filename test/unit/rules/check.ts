/**
 * The one helper behind the data-driven rule tests: extract + run every registered rule over source text, apply a
 * fix, and run a table of valid/invalid cases (expected range texts, text after each fix, finding gone after the fix).
 */
import { strict as assert } from 'node:assert';
import { ensureParser, extract, initParsers } from '../../../server/src/extract';
import { runRules, type RunConfig } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';
import type { Finding } from '../../../server/src/rules/types';

/** Host dialects the cases are written in; each has a prelude making the snippet a real file. */
export type Dialect = 'json' | 'ts-v3' | 'ts-doc' | 'js-v2' | 'py-client' | 'py-resource';

export const PRELUDE: Record<Dialect, string> = {
  json: '',
  'ts-v3':
    "import { DynamoDBClient, UpdateItemCommand, PutItemCommand, DeleteItemCommand, QueryCommand, ScanCommand, BatchWriteItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';\n" +
    'const client = new DynamoDBClient({});\n',
  'ts-doc':
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n" +
    "import { DynamoDBDocumentClient, UpdateCommand, PutCommand, DeleteCommand, QueryCommand, ScanCommand, BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';\n" +
    'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n',
  'js-v2': "const AWS = require('aws-sdk');\nconst docClient = new AWS.DynamoDB.DocumentClient();\n",
  'py-client': "import boto3\n\nclient = boto3.client('dynamodb')\n",
  'py-resource': "import boto3\nfrom decimal import Decimal\n\ntable = boto3.resource('dynamodb').Table('T')\n",
};

export const LANGUAGE: Record<Dialect, string> = {
  json: 'json',
  'ts-v3': 'typescript',
  'ts-doc': 'typescript',
  'js-v2': 'javascript',
  'py-client': 'python',
  'py-resource': 'python',
};

let ready: Promise<void> | undefined;
export function parsersReady(): Promise<void> {
  // Every host with an asynchronous parser (Python, Go, Java), so no test depends on another having loaded one first.
  return (ready ??= Promise.all([initParsers(), ensureParser('go'), ensureParser('java')]).then(() => undefined));
}

/** Extract + run every registered rule (default severities unless `config` says otherwise). */
export function lint(text: string, languageId: string, config: RunConfig = {}): Finding[] {
  const errors: string[] = [];
  const findings = runRules(text, languageId, extract(text, languageId).sites, { ...config, log: (m) => errors.push(m) });
  assert.deepEqual(errors, [], 'no rule may throw');
  return findings;
}

export const slice = (text: string, f: Pick<Finding, 'range'>) => text.slice(f.range.start, f.range.end);

export interface Expected {
  /** Source text under the finding's range. */
  text: string;
  /** Expected snippet (without prelude) after applying each fix, in order; exactly as many as the finding offers. */
  fixes?: string[];
  /** Substring the message must contain. */
  message?: string;
  /** Substring the message must not contain. */
  notMessage?: string;
  /** The finding's severity (under the case's config). */
  severity?: Finding['severity'];
  /** Source texts under the related-information ranges, in order. */
  related?: string[];
  /** The fixes' titles, in order. */
  titles?: string[];
}

export interface Case {
  name: string;
  dialect: Dialect;
  code: string;
  /** Findings of the rule under test, in document order; [] (or absent) for a valid case. */
  expect?: Expected[];
  config?: RunConfig;
}

/** Register mocha tests for a table of cases of one rule. */
export function ruleCases(ruleId: string, cases: Case[]): void {
  describe(ruleId, () => {
    before(parsersReady);
    for (const c of cases) {
      const kind = c.expect?.length ? 'invalid' : 'valid';
      it(`${kind} [${c.dialect}] ${c.name}`, () => {
        const prelude = PRELUDE[c.dialect];
        const lang = LANGUAGE[c.dialect];
        const text = prelude + c.code;
        const all = lint(text, lang, c.config);
        const mine = all.filter((f) => f.ruleId === ruleId);
        assert.deepEqual(mine.map((f) => slice(text, f)), (c.expect ?? []).map((e) => e.text), 'findings (range texts)');
        mine.forEach((f, i) => {
          const exp = c.expect![i];
          if (exp.message) assert.ok(f.message.includes(exp.message), `message "${f.message}" should contain "${exp.message}"`);
          if (exp.notMessage) assert.ok(!f.message.includes(exp.notMessage), `message "${f.message}" should not contain "${exp.notMessage}"`);
          if (exp.severity) assert.equal(f.severity, exp.severity, 'severity');
          if (exp.titles) assert.deepEqual((f.fixes ?? []).map((x) => x.title), exp.titles, 'fix titles');
          if (exp.related) assert.deepEqual((f.related ?? []).map((r) => slice(text, r)), exp.related, 'related information (range texts)');
          assert.ok(!f.message.includes(ruleId), 'the message never repeats the rule id');
          assert.deepEqual((f.fixes ?? []).length, (exp.fixes ?? []).length, `number of fixes of finding ${i}: ${JSON.stringify(f.fixes?.map((x) => x.title))}`);
          (f.fixes ?? []).forEach((fix, j) => {
            const out = applyEdits(text, fix.edits);
            assert.equal(out.startsWith(prelude) ? out.slice(prelude.length) : out, exp.fixes![j], `text after fix "${fix.title}"`);
            const after = lint(out, lang, c.config).filter((g) => g.ruleId === ruleId);
            assert.ok(after.length < mine.length, `after "${fix.title}" the finding is gone: ${after.map((g) => slice(out, g)).join(' | ')}`);
          });
        });
      });
    }
  });
}
