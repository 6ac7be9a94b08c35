/**
 * Expression constants shared by several requests (QA-8): one diagnostic per (rule, range, message), and fixes that
 * edit the constant either define what they introduce in every request using it, or are not offered.
 */
import { strict as assert } from 'node:assert';
import { applyEdits } from '../../../server/src/rules/edit';
import { PRELUDE, lint, parsersReady, slice } from './check';

const pre = PRELUDE['ts-doc'];
const upd = (expr: string, extra = '') => `doc.send(new UpdateCommand({ TableName: 'T', Key: { id: 'x' }, UpdateExpression: ${expr}, ExpressionAttributeValues: { ':s': 1 }${extra} }));\n`;
const file = (constant: string, ...requests: string[]) => `${pre}const EXPR = ${constant};\n${requests.join('')}`;
const summary = (text: string) => lint(text, 'typescript').map((f) => `${f.ruleId}@${slice(text, f)}`);

describe('findings and fixes on source shared by several requests', () => {
  before(parsersReady);

  it('reports a reserved word in a shared constant once; its fix defines the placeholder in every request', () => {
    const text = file(`'SET status = :s'`, upd('EXPR'), upd('EXPR', `, ConditionExpression: 'attribute_exists(id)'`), upd(`'SET a = :s'`));
    const findings = lint(text, 'typescript');
    assert.deepEqual(findings.map((f) => `${f.ruleId}@${slice(text, f)}`), ['reserved-word@status']);
    const [fix] = findings[0].fixes!;
    assert.equal(fix.title, 'Use placeholder #status for "status"');
    assert.equal(fix.safe, false);
    const after = applyEdits(text, fix.edits);
    assert.equal(
      after,
      file(
        `'SET #status = :s'`,
        upd('EXPR', `, ExpressionAttributeNames: { '#status': 'status' }`),
        upd('EXPR', `, ConditionExpression: 'attribute_exists(id)', ExpressionAttributeNames: { '#status': 'status' }`),
        upd(`'SET a = :s'`),
      ),
    );
    assert.deepEqual(summary(after), []);
  });

  it('picks a placeholder free in every sharing request and reuses a mapping a request already has', () => {
    const text = file(`'SET status = :s'`, upd('EXPR', `, ExpressionAttributeNames: { '#status': 'state' }, ConditionExpression: '#status = :s'`), upd('EXPR'));
    const [f] = lint(text, 'typescript');
    const after = applyEdits(text, f.fixes![0].edits);
    assert.match(after, /const EXPR = 'SET #status1 = :s';/);
    assert.deepEqual(summary(after), []);
    const both = file(`'SET status = :s'`, upd('EXPR', `, ExpressionAttributeNames: { '#st': 'status' }, ConditionExpression: '#st = :s'`), upd('EXPR'));
    const [g] = lint(both, 'typescript');
    const fixed = applyEdits(both, g.fixes![0].edits);
    assert.match(fixed, /const EXPR = 'SET #st = :s';/);
    assert.deepEqual(summary(fixed), []);
  });

  it('withholds a fix that would define a new value in one sharing request only, and keeps it for a single user', () => {
    const shared = file(`'SET n = n + :s'`, upd('EXPR'), upd('EXPR'));
    const found = lint(shared, 'typescript').filter((f) => f.ruleId === 'set-without-if-not-exists');
    // The if_not_exists rewrite needs a new :zero value; rewriting as ADD keeps the same placeholders.
    assert.deepEqual(found.map((f) => [slice(shared, f), f.fixes?.map((x) => x.title)]), [['n = n + :s', ['Rewrite as ADD n :s']]]);
    const single = file(`'SET n = n + :s'`, upd('EXPR'));
    const [own] = lint(single, 'typescript').filter((f) => f.ruleId === 'set-without-if-not-exists');
    assert.deepEqual(own.fixes?.map((x) => x.title), ['Wrap n in if_not_exists(n, :zero)', 'Rewrite as ADD n :s']);
  });

  it('keeps a fix on shared source that introduces no placeholder', () => {
    const text = file(`'SET a = :s'`, upd('EXPR', `, ConditionExpression: COND`), upd('EXPR', `, ConditionExpression: COND`)).replace('const EXPR', 'const COND = \'((a = :s))\';\nconst EXPR');
    const [f] = lint(text, 'typescript');
    assert.equal(f.ruleId, 'redundant-parentheses');
    assert.equal(lint(text, 'typescript').length, 1);
    const after = applyEdits(text, f.fixes![0].edits);
    assert.match(after, /const COND = '\(a = :s\)';/);
    assert.deepEqual(summary(after), []);
  });
});
