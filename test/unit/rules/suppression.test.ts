import { strict as assert } from 'node:assert';
import { extract } from '../../../server/src/extract';
import { applyEdits } from '../../../server/src/rules/edit';
import { disableFileEdit, disableNextLineEdit, parseSuppressions } from '../../../server/src/rules/suppression';
import { PRELUDE, lint, parsersReady, slice } from './check';

const TS_CALL = "client.send(new UpdateItemCommand({ TableName: 'T', Key: { PK: { S: 'p' } }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': { N: '1' } } }));\n";
const PY_CALL = "client.update_item(TableName='T', Key={'PK': {'S': 'p'}}, UpdateExpression='SET n = n + :one', ExpressionAttributeValues={':one': {'N': '1'}})\n";
const TS_MULTI = (top: string, onExpr = '') =>
  `${top}client.send(new UpdateItemCommand({\n  TableName: 'T',\n  Key: { PK: { S: 'p' } },\n  UpdateExpression: 'SET n = n + :one',${onExpr}\n  ExpressionAttributeValues: { ':one': { N: '1' } },\n}));\n`;
const PY_MULTI = (top: string, first = '') => `${top}client.update_item(${first}\n    TableName='T',\n    Key={'PK': {'S': 'p'}},\n    UpdateExpression='SET n = n + :one',\n    ExpressionAttributeValues={':one': {'N': '1'}},\n)\n`;
const JSONC = (comment: string) => `{\n  "TableName": "T",\n  "Key": {"PK": {"S": "p"}},\n${comment}  "UpdateExpression": "SET n = n + :one",\n  "ExpressionAttributeValues": {":one": {"N": "1"}}\n}\n`;
/** An AppSync VTL mapping template: `##` and `#* *#` are its comments, `//` is template text, `#set` a directive. */
const VTL = (top: string, onExpr = '') =>
  `${top}#set($id = $ctx.args.id)\n{\n  "version": "2018-05-29",\n  "operation": "UpdateItem",\n  "key": { "id": $util.dynamodb.toDynamoDBJson($id) },\n  "update": {\n    "expression": "SET n = n + :one",${onExpr}\n    "expressionValues": { ":one": $util.dynamodb.toDynamoDBJson(1) }\n  }\n}\n`;
const ts = (s: string) => PRELUDE['ts-v3'] + s;
const py = (s: string) => PRELUDE['py-client'] + s;
const summary = (text: string, lang: string) => lint(text, lang).map((f) => `${f.ruleId}@${slice(text, f)}:${f.severity}`);

interface SupCase {
  name: string;
  lang: string;
  text: string;
  expect: string[];
}

const cases: SupCase[] = [
  { name: 'no comment', lang: 'typescript', text: ts(TS_CALL), expect: ['set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'next-line with the id', lang: 'typescript', text: ts('// dynalint-disable-next-line set-without-if-not-exists\n' + TS_CALL), expect: [] },
  { name: 'next-line, two ids, one unused', lang: 'typescript', text: ts('// dynalint-disable-next-line set-without-if-not-exists, count-children-on-read\n' + TS_CALL), expect: ['unused-suppression@count-children-on-read:hint'] },
  { name: 'next-line with a reason after --', lang: 'typescript', text: ts('// dynalint-disable-next-line set-without-if-not-exists -- seeded at creation\n' + TS_CALL), expect: [] },
  { name: 'next-line with another id', lang: 'typescript', text: ts('// dynalint-disable-next-line add-on-non-number\n' + TS_CALL), expect: ['unused-suppression@add-on-non-number:hint', 'set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'an unknown id', lang: 'typescript', text: ts('// dynalint-disable-next-line set-without-if-not-exits\n' + TS_CALL), expect: ['unused-suppression@set-without-if-not-exits:hint', 'set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'next-line two lines above does not apply', lang: 'typescript', text: ts('// dynalint-disable-next-line set-without-if-not-exists\n\n' + TS_CALL), expect: ['unused-suppression@set-without-if-not-exists:hint', 'set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'file-level with the id', lang: 'typescript', text: '/* dynalint-disable set-without-if-not-exists */\n' + ts(TS_CALL), expect: [] },
  { name: 'file-level for every rule', lang: 'typescript', text: '/* dynalint-disable */\n' + ts(TS_CALL), expect: [] },
  { name: 'file-level that suppresses nothing', lang: 'typescript', text: '/* dynalint-disable */\n' + PRELUDE['ts-v3'], expect: ['unused-suppression@/* dynalint-disable */:hint'] },
  { name: 'Python next-line', lang: 'python', text: py('# dynalint-disable-next-line set-without-if-not-exists\n' + PY_CALL), expect: [] },
  { name: 'Python file-level', lang: 'python', text: '# dynalint-disable set-without-if-not-exists\n' + py(PY_CALL), expect: [] },
  { name: 'Python // is not a comment', lang: 'python', text: py(PY_CALL), expect: ['set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'JSONC // comment', lang: 'jsonc', text: JSONC('  // dynalint-disable-next-line set-without-if-not-exists\n'), expect: [] },
  { name: 'disable-line, trailing // comment', lang: 'typescript', text: ts(TS_CALL.replace('\n', ' // dynalint-disable-line set-without-if-not-exists\n')), expect: [] },
  { name: 'disable-line, trailing /* */ comment', lang: 'typescript', text: ts(TS_CALL.replace(';\n', '; /* dynalint-disable-line set-without-if-not-exists */\n')), expect: [] },
  { name: 'disable-line on the finding line of a multi-line call', lang: 'typescript', text: ts(TS_MULTI('', ' // dynalint-disable-line set-without-if-not-exists')), expect: [] },
  {
    name: 'disable-line on the line above does not apply',
    lang: 'typescript',
    text: ts('// dynalint-disable-line set-without-if-not-exists\n' + TS_CALL),
    expect: ['unused-suppression@set-without-if-not-exists:hint', 'set-without-if-not-exists@n = n + :one:warning'],
  },
  { name: 'Python disable-line', lang: 'python', text: py(PY_CALL.replace('\n', '  # dynalint-disable-line set-without-if-not-exists\n')), expect: [] },
  { name: 'JSONC disable-line', lang: 'jsonc', text: JSONC('').replace(':one",\n', ':one", // dynalint-disable-line set-without-if-not-exists\n'), expect: [] },
  { name: 'next-line above a multi-line call covers the whole call', lang: 'typescript', text: ts(TS_MULTI('// dynalint-disable-next-line set-without-if-not-exists\n')), expect: [] },
  { name: 'next-line with no ids above a multi-line call', lang: 'typescript', text: ts(TS_MULTI('// dynalint-disable-next-line\n')), expect: [] },
  { name: 'Python next-line above a multi-line call', lang: 'python', text: py(PY_MULTI('# dynalint-disable-next-line set-without-if-not-exists\n')), expect: [] },
  { name: 'Python disable-line on the first line of a multi-line call', lang: 'python', text: py(PY_MULTI('', '  # dynalint-disable-line set-without-if-not-exists')), expect: [] },
  {
    name: 'next-line above an inner line of a call covers only that line',
    lang: 'typescript',
    text: ts(TS_MULTI('').replace("  Key:", '  // dynalint-disable-next-line set-without-if-not-exists\n  Key:')),
    expect: ['unused-suppression@set-without-if-not-exists:hint', 'set-without-if-not-exists@n = n + :one:warning'],
  },
  {
    name: 'next-line above a call does not reach the next call',
    lang: 'typescript',
    text: ts(TS_MULTI('// dynalint-disable-next-line set-without-if-not-exists\n') + TS_MULTI('')),
    expect: ['set-without-if-not-exists@n = n + :one:warning'],
  },
  {
    name: 'an unknown directive is reported',
    lang: 'typescript',
    text: ts('// dynalint-disable-lines set-without-if-not-exists\n' + TS_CALL),
    expect: ['unused-suppression@dynalint-disable-lines:hint', 'set-without-if-not-exists@n = n + :one:warning'],
  },
  { name: 'JSONC without comment', lang: 'jsonc', text: JSONC(''), expect: ['set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'VTL without comment', lang: 'vtl', text: VTL(''), expect: ['set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'VTL ## next-line above the template', lang: 'vtl', text: VTL('', '').replace('{\n  "version"', '## dynalint-disable-next-line set-without-if-not-exists\n{\n  "version"'), expect: [] },
  { name: 'VTL ## next-line above the expression', lang: 'velocity', text: VTL('').replace('    "expression"', '    ## dynalint-disable-next-line set-without-if-not-exists\n    "expression"'), expect: [] },
  { name: 'VTL #* *# disable-line', lang: 'vtl', text: VTL('', ' #* dynalint-disable-line set-without-if-not-exists *#'), expect: [] },
  { name: 'VTL ## file-level', lang: 'vtl', text: VTL('## dynalint-disable set-without-if-not-exists\n'), expect: [] },
  { name: 'VTL // is template text, not a comment', lang: 'vtl', text: VTL('// dynalint-disable set-without-if-not-exists\n'), expect: ['set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'VTL a lone # is not a comment', lang: 'vtl', text: VTL('# dynalint-disable set-without-if-not-exists\n'), expect: ['set-without-if-not-exists@n = n + :one:warning'] },
  { name: 'VTL unused ## suppression', lang: 'vtl', text: VTL('## dynalint-disable add-on-non-number\n'), expect: ['unused-suppression@add-on-non-number:hint', 'set-without-if-not-exists@n = n + :one:warning'] },
];

describe('suppression comments', () => {
  before(parsersReady);
  for (const c of cases) it(`${c.lang}: ${c.name}`, () => assert.deepEqual(summary(c.text, c.lang), c.expect));

  it('reads ids and ranges', () => {
    const text = 'x\n  // dynalint-disable-next-line a-b, c\n/* dynalint-disable */\ny; /* dynalint-disable-line d */\n// dynalint-enable\n';
    const s = parseSuppressions(text, 'typescript');
    assert.deepEqual(
      s.map((x) => ({ kind: x.kind, line: x.line, ids: x.ids.map((i) => text.slice(i.range.start, i.range.end)), comment: text.slice(x.range.start, x.range.end) })),
      [
        { kind: 'next-line', line: 2, ids: ['a-b', 'c'], comment: '// dynalint-disable-next-line a-b, c' },
        { kind: 'file', line: 2, ids: [], comment: '/* dynalint-disable */' },
        { kind: 'line', line: 3, ids: ['d'], comment: '/* dynalint-disable-line d */' },
        { kind: 'unknown', line: 4, ids: [], comment: '// dynalint-enable' },
      ],
    );
    assert.deepEqual(parseSuppressions('{"a": "// dynalint-disable-next-line x"}', 'json'), []);
  });

  it('the unused-suppression fix removes the comment line, or just the unused id', () => {
    const alone = ts('// dynalint-disable-next-line add-on-non-number\n' + TS_CALL);
    const [u] = lint(alone, 'typescript').filter((f) => f.ruleId === 'unused-suppression');
    assert.equal(applyEdits(alone, u.fixes![0].edits), ts(TS_CALL));
    const two = ts('// dynalint-disable-next-line set-without-if-not-exists, count-children-on-read\n' + TS_CALL);
    const [v] = lint(two, 'typescript').filter((f) => f.ruleId === 'unused-suppression');
    const fixed = applyEdits(two, v.fixes![0].edits);
    assert.equal(fixed, ts('// dynalint-disable-next-line set-without-if-not-exists\n' + TS_CALL));
    assert.deepEqual(summary(fixed, 'typescript'), []);
  });

  it('a suppression for a rule turned off here is not reported as unused', () => {
    const text = ts('// dynalint-disable-next-line set-without-if-not-exists\n' + TS_CALL);
    assert.deepEqual(lint(text, 'typescript', { fileRules: { 'set-without-if-not-exists': 'off' } }), []);
  });

  it('unused-suppression follows the configured severity, and can be turned off', () => {
    const text = ts('// dynalint-disable-next-line add-on-non-number\n' + TS_CALL);
    assert.deepEqual(lint(text, 'typescript', { fileRules: { 'unused-suppression': 'warning' } }).map((f) => f.severity), ['warning', 'warning']);
    assert.deepEqual(lint(text, 'typescript', { settingsRules: { 'unused-suppression': 'off' } }).map((f) => f.ruleId), ['set-without-if-not-exists']);
  });

  describe('disable edits (code actions)', () => {
    const indented = `${PRELUDE['ts-v3']}export async function f() {\n  await ${TS_CALL}}\n`;
    for (const [lang, text, expected] of [
      ['typescript', indented, `${PRELUDE['ts-v3']}export async function f() {\n  // dynalint-disable-next-line set-without-if-not-exists\n  await ${TS_CALL}}\n`],
      ['python', py(PY_CALL), py('# dynalint-disable-next-line set-without-if-not-exists\n' + PY_CALL)],
      ['jsonc', JSONC(''), JSONC('  // dynalint-disable-next-line set-without-if-not-exists\n')],
      ['vtl', VTL(''), VTL('').replace('    "expression"', '    ## dynalint-disable-next-line set-without-if-not-exists\n    "expression"')],
    ] as const) {
      it(`next-line in ${lang}: inserted with the line's indentation, then the finding is gone`, () => {
        const [f] = lint(text, lang);
        const fixed = applyEdits(text, [disableNextLineEdit(text, lang, f.range.start, f.ruleId)!]);
        assert.equal(fixed, expected);
        assert.deepEqual(summary(fixed, lang), []);
      });
    }
    it('a finding inside a multi-line string: the comment goes above the string, and suppresses it', () => {
      const text = py("client.update_item(\n    TableName='T',\n    Key={'PK': {'S': 'p'}},\n    UpdateExpression=\"\"\"SET a = :one,\n        n = n + :one\"\"\",\n    ExpressionAttributeValues={':one': {'N': '1'}},\n)\n");
      const [f] = lint(text, 'python');
      assert.equal(slice(text, f), 'n = n + :one');
      const edit = disableNextLineEdit(text, 'python', f.range.start, f.ruleId, extract(text, 'python').sites)!;
      const fixed = applyEdits(text, [edit]);
      assert.ok(fixed.includes("    # dynalint-disable-next-line set-without-if-not-exists\n    UpdateExpression=\"\"\"SET"), fixed);
      assert.deepEqual(summary(fixed, 'python'), []);
    });
    it('adds the id to an existing next-line comment', () => {
      const text = ts('// dynalint-disable-next-line add-on-non-number\n' + TS_CALL);
      const f = lint(text, 'typescript').find((x) => x.ruleId === 'set-without-if-not-exists')!;
      const fixed = applyEdits(text, [disableNextLineEdit(text, 'typescript', f.range.start, f.ruleId)!]);
      assert.equal(fixed, ts('// dynalint-disable-next-line add-on-non-number, set-without-if-not-exists\n' + TS_CALL));
    });
    it('adds the id to an existing disable-line comment on the same line', () => {
      const text = ts(TS_CALL.replace('\n', ' // dynalint-disable-line add-on-non-number\n'));
      const f = lint(text, 'typescript').find((x) => x.ruleId === 'set-without-if-not-exists')!;
      const fixed = applyEdits(text, [disableNextLineEdit(text, 'typescript', f.range.start, f.ruleId)!]);
      assert.equal(fixed, ts(TS_CALL.replace('\n', ' // dynalint-disable-line add-on-non-number, set-without-if-not-exists\n')));
      assert.deepEqual(summary(fixed, 'typescript'), ['unused-suppression@add-on-non-number:hint']);
    });
    it('plain JSON has no comments: no edit', () => {
      assert.equal(disableNextLineEdit('{\n "a": 1\n}', 'json', 4, 'x'), undefined);
      assert.equal(disableFileEdit('{}', 'json', 'x'), undefined);
    });
    it('file-level, after a shebang', () => {
      const text = '#!/usr/bin/env python3\n' + py(PY_CALL);
      const fixed = applyEdits(text, [disableFileEdit(text, 'python', 'set-without-if-not-exists')!]);
      assert.equal(fixed, '#!/usr/bin/env python3\n# dynalint-disable set-without-if-not-exists\n' + py(PY_CALL));
      assert.deepEqual(summary(fixed, 'python'), []);
      const t2 = ts(TS_CALL);
      assert.equal(applyEdits(t2, [disableFileEdit(t2, 'typescript', 'a')!]), '/* dynalint-disable a */\n' + t2);
      const t3 = VTL('');
      const fixed3 = applyEdits(t3, [disableFileEdit(t3, 'vtl', 'set-without-if-not-exists')!]);
      assert.equal(fixed3, '## dynalint-disable set-without-if-not-exists\n' + t3);
      assert.deepEqual(summary(fixed3, 'vtl'), []);
    });
  });
});
