/**
 * Quick fixes on alternatives from data flow (issue 13, rules/alternatives.ts): a finding on one alternative of a
 * variable assigned in branches, or of a conditional spread, offers its fix when the edit lands in text the user wrote
 * and every alternative the edit touches reports the same finding with the same fix; otherwise none.
 */
import { strict as assert } from 'node:assert';
import { extract, prop } from '../../../server/src/extract';
import type { RequestSite } from '../../../server/src/extract/model';
import { runRules } from '../../../server/src/rules';
import { runRuleSet } from '../../../server/src/rules/run';
import type { Rule } from '../../../server/src/rules/types';
import { Case, lint, ruleCases } from './check';

const tsBranches = (a: string, b: string) =>
  `export async function f(id: string, c: boolean) {\n  let p;\n  if (c) {\n    p = ${a};\n  } else {\n    p = ${b};\n  }\n  await doc.send(new UpdateCommand(p));\n}\n`;
const pyBranches = (a: string, b: string) => `def f(pk, c):\n    if c:\n        p = ${a}\n    else:\n        p = ${b}\n    table.update_item(**p)\n`;

const tsName = "{ TableName: 'T', Key: { id }, UpdateExpression: 'SET name = :v', ExpressionAttributeValues: { ':v': 1 } }";
const tsOther = "{ TableName: 'T', Key: { id }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } }";
const tsNameFixed = "{ TableName: 'T', Key: { id }, UpdateExpression: 'SET #name = :v', ExpressionAttributeValues: { ':v': 1 }, ExpressionAttributeNames: { '#name': 'name' } }";
// (In Python a reserved-word fix through `**params` adds a placeholder to a dict outside the call, which the shared
// source check withholds for every request, alternatives or not: the Python cases use removals.)
const pyUnused = "{'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :v', 'ExpressionAttributeValues': {':v': 1, ':w': 2}}";
const pyOther = "{'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :v', 'ExpressionAttributeValues': {':v': 1}}";
const pyUnusedFixed = "{'Key': {'pk': pk}, 'UpdateExpression': 'SET a = :v', 'ExpressionAttributeValues': {':v': 1}}";

const tsSpread = (update: string, names: string, cond: string) =>
  `export async function f(id: string, c: boolean) {\n  await doc.send(new UpdateCommand({ TableName: 'T', Key: { id }, UpdateExpression: '${update}', ExpressionAttributeValues: { ':v': 1 }${names}, ...(c ? { ConditionExpression: '${cond}' } : {}) }));\n}\n`;
const pySpread = (update: string, names: string, cond: string) =>
  `def f(pk, c):\n    p = {'Key': {'pk': pk}, 'UpdateExpression': '${update}', 'ExpressionAttributeValues': {':v': 1}${names}}\n    if c:\n        p['ConditionExpression'] = '${cond}'\n    table.update_item(**p)\n`;

const reserved: Case[] = [
  {
    name: 'a variable assigned in branches: the reserved word is in one branch literal only, the fix edits that literal',
    dialect: 'ts-doc',
    code: tsBranches(tsName, tsOther),
    expect: [{ text: 'name', fixes: [tsBranches(tsNameFixed, tsOther)] }],
  },
  {
    name: 'a conditional spread: the shared expression and an existing names map, the same fix for both alternatives',
    dialect: 'ts-doc',
    code: tsSpread('SET status = :v', ", ExpressionAttributeNames: { '#x': 'x' }", 'attribute_exists(#x)'),
    expect: [{ text: 'status', fixes: [tsSpread('SET #status = :v', ", ExpressionAttributeNames: { '#x': 'x', '#status': 'status' }", 'attribute_exists(#x)')] }],
  },
];
ruleCases('reserved-word', reserved);

ruleCases('unused-value', [
  {
    name: 'if/else dicts: the value unused in one dict is removed from that dict only',
    dialect: 'py-resource',
    code: pyBranches(pyUnused, pyOther),
    expect: [{ text: "':w'", fixes: [pyBranches(pyUnusedFixed, pyOther)] }],
  },
  {
    name: 'a variable assigned in branches: the value unused in one literal is removed from it',
    dialect: 'ts-doc',
    code: tsBranches(tsOther.replace("{ ':v': 1 }", "{ ':v': 1, ':w': 2 }"), tsName),
    expect: [
      { text: "':w'", fixes: [tsBranches(tsOther, tsName)] },
    ],
  },
]);

ruleCases('unused-name', [
  {
    name: 'a name only the conditional part uses: unused on the other alternative, its removal would break the first: no fix',
    dialect: 'ts-doc',
    code: tsSpread('SET a = :v', ", ExpressionAttributeNames: { '#x': 'x' }", 'attribute_exists(#x)'),
    expect: [{ text: "'#x'" }],
  },
  {
    name: 'a name only the branch condition uses: no fix',
    dialect: 'py-resource',
    code: pySpread('SET a = :v', ", 'ExpressionAttributeNames': {'#x': 'x'}", 'attribute_exists(#x)'),
    expect: [{ text: "'#x'" }],
  },
  {
    name: 'control: unused on every alternative, the same removal for each: the fix',
    dialect: 'ts-doc',
    code: tsSpread('SET a = :v', ", ExpressionAttributeNames: { '#x': 'x' }", 'attribute_exists(id)'),
    expect: [{ text: "'#x'", fixes: [tsSpread('SET a = :v', '', 'attribute_exists(id)')] }],
  },
  {
    name: 'control (Python): unused on every alternative: the fix',
    dialect: 'py-resource',
    code: pySpread('SET a = :v', ", 'ExpressionAttributeNames': {'#x': 'x'}", 'attribute_exists(pk)'),
    expect: [{ text: "'#x'", fixes: [pySpread('SET a = :v', '', 'attribute_exists(pk)')] }],
  },
]);

ruleCases('reserved-word', [
  {
    name: 'a new names map would be inserted at different places for the two alternatives of a conditional spread: no fix',
    dialect: 'ts-doc',
    code: tsSpread('SET status = :v', '', 'attribute_exists(id)'),
    expect: [{ text: 'status' }],
  },
]);

describe('fixes on alternatives: a tree larger than a call takes arguments', () => {
  it('a branch literal with 150,000 entries next to a reserved word still gets its fix, without a RangeError', () => {
    // 150,000 entries are 150,000+ nodes: Math.min(...ranges) over them overflows V8's stack.
    const big = `{ TableName: 'T', Key: { id }, UpdateExpression: 'SET name = :v', ExpressionAttributeValues: { ':v': 1 }, Extra: { ${Array.from({ length: 150_000 }, (_, i) => `k${i.toString(36)}: 1`).join(',\n')} } }`;
    const findings = lint(tsBranches(big, tsOther), 'typescript').filter((f) => f.ruleId === 'reserved-word');
    assert.equal(findings.length, 1);
    assert.equal(findings[0].fixes?.length, 1, 'the fix of the one branch holding the reserved word');
  });

  it('a branch literal with an array literal of 150,000 items (one a line) next to a reserved word keeps its finding and fix', () => {
    const big = `{ TableName: 'T', Key: { id }, UpdateExpression: 'SET name = :v', ExpressionAttributeValues: { ':v': 1 }, Extra: [\n${Array.from({ length: 150_000 }, (_, i) => String(i % 10)).join(',\n')}\n] }`;
    // (lint asserts nothing was logged: no post-step failed and fell back.)
    const findings = lint(tsBranches(big, tsOther), 'typescript').filter((f) => f.ruleId === 'reserved-word');
    assert.equal(findings.length, 1);
    assert.equal(findings[0].fixes?.length, 1, 'the fix of the one branch holding the reserved word');
  });

  it('a branch literal holding an array of 150,000 items next to a reserved word keeps its finding and fix, without a RangeError', () => {
    // stack.push(...items) over 150,000 items overflows V8's stack. The items are added to the extracted tree (an
    // array literal that long in the source is read by extraction steps with their own limits, not the point here).
    const text = tsBranches("{ TableName: 'T', Key: { id }, UpdateExpression: 'SET name = :v', ExpressionAttributeValues: { ':v': 1 }, Extra: [0] }", tsOther);
    const sites = extract(text, 'typescript').sites;
    const arr = sites.map((s) => prop(s.params, 'Extra')).find((v) => v?.kind === 'array');
    assert.ok(arr?.kind === 'array' && arr.items.length === 1);
    for (let i = 1; i < 150_000; i++) arr.items.push({ ...arr.items[0] });
    const errors: string[] = [];
    const findings = runRules(text, 'typescript', sites, { log: (m) => errors.push(m) }).filter((f) => f.ruleId === 'reserved-word');
    assert.deepEqual(errors, [], 'no post-step failed and fell back');
    assert.equal(findings.length, 1);
    assert.equal(findings[0].fixes?.length, 1, 'the fix of the one branch holding the reserved word');
  });
});

describe('fixes on alternatives: a check that fails withholds fixes, never findings', () => {
  it('the alternatives check throwing keeps the finding, without its fix, and logs', () => {
    const text = 'p = { a: 1 }\n';
    // Two alternatives whose tree cannot be read: the check of fixes on alternatives throws.
    const params = { kind: 'object', range: { start: 4, end: 12 }, complete: true, get properties(): never { throw new RangeError('Maximum call stack size exceeded'); } };
    const sites = [0, 1].map((index) => ({ api: 'UpdateItem', range: { start: 4, end: 12 }, params, alternative: { index, count: 2 } }) as unknown as RequestSite);
    const rule: Rule = {
      id: 'probe',
      meta: { description: 'probe', docs: '', defaultSeverity: 'warning', fixable: true, category: 'correctness' } as Rule['meta'],
      check: () => [{ ruleId: 'probe', message: 'probe', range: { start: 6, end: 7 }, fixes: [{ title: 'rename', edits: [{ range: { start: 6, end: 7 }, newText: 'b' }], safe: true }] }],
    };
    const logged: string[] = [];
    const findings = runRuleSet([rule], text, 'typescript', sites, { log: (m) => logged.push(m) });
    assert.deepEqual(
      findings.map((f) => [f.ruleId, f.message, f.fixes]),
      [['probe', 'probe', undefined]],
    );
    assert.equal(logged.length, 1);
    assert.match(logged[0], /alternatives check of fixes failed, their fixes are withheld: RangeError/);
  });
});
