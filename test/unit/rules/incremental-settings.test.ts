/**
 * The rule cache keeps site findings in their final form (rules/run.ts `finalize`: severity resolved, `unless` left
 * out) and run.ts's document-level steps work per rule block (superseded ids, dedupe): as a property, one long-lived
 * service lints successive versions of a document while edits (inside strings and statements, and anywhere) alternate
 * with settings changes (severity overrides, a rule turned off, a superseding rule turned off so the superseded one
 * reports, severities of rules whose findings carry their own), and suppression comments are typed and removed. After
 * every step the findings (order, severities, messages, ranges, related, fixes) must deep-equal a fresh lint (full
 * extraction, no cache) and the LSP diagnostics a fresh service's. Also: findings of sites handed back are the same
 * objects as the lint before's (not copied per lint), and a severity change is not served from the cache.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { extract, initParsers } from '../../../server/src/extract';
import { DEFAULT_SETTINGS, type DynalintSettings } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import type { Finding } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';
import { fcParameters } from '../../support/fc';

interface Shape {
  languageId: string;
  uri: string;
  text: string;
  /** Pieces typed at random places. */
  pieces: string[];
}

const TS: Shape = {
  languageId: 'typescript',
  uri: 'file:///w/settings.ts',
  text: `import { DynamoDBDocumentClient, UpdateCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'likes';
const INCREMENT = 'SET #c = #c + :one';
const RESERVED = 'SET status = :s';

export async function a(id) {
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: id }, UpdateExpression: INCREMENT, ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': 1 } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: id, SK: 'M' }, UpdateExpression: 'ADD n :v', ExpressionAttributeValues: { ':v': 'a', ':unused': 2 } }));
}

export async function b(id) {
  // dynalint-disable-next-line reserved-word
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: id }, UpdateExpression: RESERVED, ExpressionAttributeValues: { ':s': 'x' } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: id, SK: 'C' }, UpdateExpression: INCREMENT, ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': 1 } }));
  await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: id, SK: 'C#1' } }));
}

export async function c(id) {
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: id }, UpdateExpression: 'SET name = :n, size = size - :one', ExpressionAttributeValues: { ':n': 1, ':one': 1 } }));
  await doc.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: { PK: id, SK: 'C#2' } } }, { Update: { TableName: TABLE, Key: { PK: id, SK: 'META' }, UpdateExpression: 'ADD likes :one', ExpressionAttributeValues: { ':one': 1 } } }] }));
}
// dynalint-disable-next-line set-without-if-not-exists
const unusedHere = 1;
`,
  pieces: ['x', ' ', '\n', "'", '}', ',', '#', ':one', 'status', ' + ', '// dynalint-disable-next-line reserved-word\n', '// dynalint-disable-next-line expression-syntax\n', 'ADD '],
};

const JSON_ARRAY: Shape = {
  languageId: 'json',
  uri: 'file:///w/settings.json',
  text: `[
  {"TableName": "likes", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET a = a + :a, \\"x\\" = :a", "ExpressionAttributeValues": {":a": {"S": "1"}}},
  {"TableName": "likes", "Key": {"PK": {"S": "2"}}, "UpdateExpression": "ADD n :v", "ExpressionAttributeValues": {":v": {"S": "a"}, ":w": {"N": "1"}}},
  {"TableName": "likes", "Key": {"PK": {"S": "3"}}, "UpdateExpression": "SET name = :n", "ExpressionAttributeValues": {":n": {"N": "1"}}},
  {"TableName": "likes", "Item": {"PK": {"S": "4"}}, "ConditionExpression": "attribute_not_exists(size)"}
]
`,
  pieces: ['x', ' ', '"', ',', '#', ':a', 'status', ' + ', '\\n', '}'],
};

/** Rule settings the steps switch between (the rules' own defaults, overrides, rules turned off). */
const RULES: (Record<string, string> | undefined)[] = [
  undefined,
  { 'reserved-word': 'hint', 'expression-syntax': 'warning' },
  { 'expression-syntax': 'off', 'non-idempotent-counter': 'info' },
  // The superseding rule off: the superseded ones report.
  { 'add-on-non-number': 'off' },
  { 'add-on-non-number': 'info', 'add-operand-type': 'error', 'unused-expression-attribute': 'error' },
  { 'set-without-if-not-exists': 'off', 'decrement-without-floor': 'hint', 'unused-suppression': 'off' },
  { 'reserved-word': 'off', 'unused-suppression': 'error', 'unguarded-add-in-transaction': 'warning' },
];

const settingsOf = (i: number): DynalintSettings => ({ ...DEFAULT_SETTINGS, ...(RULES[i] ? { rules: RULES[i] as DynalintSettings['rules'] } : {}) });

type Step = { kind: 'edit'; at: number; del: number; piece: number } | { kind: 'settings'; which: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), del: fc.nat({ max: 4 }), piece: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settings' as const), which: fc.nat({ max: RULES.length - 1 }) }) },
);

const plain = (fs: Finding[]) => JSON.parse(JSON.stringify(fs)) as unknown;

function freshLint(shape: Shape, text: string, settings: DynalintSettings): Finding[] {
  const res = extract(text, shape.languageId, { maxFileSize: settings.maxFileSize });
  return res.skipped ? [] : runRules(text, shape.languageId, res.sites, { settingsRules: settings.rules });
}

/** One service through every step; each version compared with a fresh lint and a fresh service's diagnostics. */
function stepsEqualFresh(shape: Shape, steps: Step[], inString: boolean): void {
  const service = new DynalintService();
  let text = shape.text;
  let settings = settingsOf(0);
  let version = 1;
  const check = (what: string) => {
    const doc = TextDocument.create(shape.uri, shape.languageId, version, text);
    const got = service.analyze(doc, settings);
    assert.deepEqual(plain(got.findings), plain(freshLint(shape, text, settings)), `${what}\n--- settings ---\n${JSON.stringify(settings.rules)}\n--- text ---\n${text}`);
    assert.deepStrictEqual(service.diagnostics(doc, settings), new DynalintService().diagnostics(doc, settings), `${what}: diagnostics`);
  };
  check('the template');
  for (const [i, s] of steps.entries()) {
    if (s.kind === 'settings') settings = settingsOf(s.which);
    else {
      // Inside a string of a request (the cache's usual case) or anywhere.
      let start = s.at % (text.length + 1);
      if (inString) {
        const quotes = [...text.matchAll(/Expression(?:\\")?"?'?: ?['"]/g)].map((m) => m.index + m[0].length);
        start = quotes[s.at % quotes.length] + (s.del % 3);
      }
      const end = Math.min(text.length, start + (inString ? 0 : s.del));
      text = text.slice(0, start) + shape.pieces[s.piece % shape.pieces.length] + text.slice(end);
    }
    version++;
    check(`after step ${i}: ${JSON.stringify(s)}`);
  }
}

describe('rules: incremental lint through settings changes (final findings in the rule cache) equals a fresh lint', () => {
  before(() => initParsers());

  for (const shape of [TS, JSON_ARRAY]) {
    it(`${shape.languageId}: edits inside expression strings and settings changes`, () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 14 }), (steps) => stepsEqualFresh(shape, steps, true)),
        fcParameters({ numRuns: 30 }),
      );
    });
    it(`${shape.languageId}: edits anywhere and settings changes`, () => {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 14 }), (steps) => stepsEqualFresh(shape, steps, false)),
        fcParameters({ numRuns: 30 }),
      );
    });
  }

  it('findings of sites handed back are the lint before\'s objects; a severity change gives new ones with the new severity', () => {
    const service = new DynalintService();
    const lines = Array.from({ length: 40 }, (_, i) => `  {"TableName": "t", "Key": {"PK": {"S": "${i}"}}, "UpdateExpression": "SET a = a + :a, \\"x\\" = :a", "ExpressionAttributeValues": {":a": {"N": "1"}}}`);
    let text = `[\n${lines.join(',\n')}\n]\n`;
    const lint = (v: number, settings = DEFAULT_SETTINGS) => service.analyze(TextDocument.create('file:///w/same.json', 'json', v, text), settings).findings;
    const at = text.lastIndexOf('SET a') + 3;
    lint(0);
    // (The extractor's first update of a small document may extract it all again: one edit first.)
    text = text.slice(0, at) + ' ' + text.slice(at);
    const first = lint(1);
    assert.equal(first.length, 40);
    // A character typed in the last request: the 39 before it are not touched, their findings the same objects.
    text = text.slice(0, at) + ' ' + text.slice(at);
    const second = lint(2);
    assert.equal(second.length, 40);
    for (let i = 0; i < 39; i++) assert.equal(second[i], first[i], `finding ${i} copied`);
    assert.notEqual(second[39], first[39]);
    // The severity configured: every finding has it (none from the cache's previous form).
    const third = lint(3, { ...DEFAULT_SETTINGS, rules: { 'expression-syntax': 'hint' } });
    assert.deepEqual(new Set(third.map((f) => f.severity)), new Set(['hint']));
    assert.deepEqual(plain(third), plain(freshLint(JSON_ARRAY, text, { ...DEFAULT_SETTINGS, rules: { 'expression-syntax': 'hint' } })));
    // And back: the default again.
    const fourth = lint(4);
    assert.deepEqual(plain(fourth), plain(first.map((f) => (f === first[39] ? second[39] : f))));
  });
});
