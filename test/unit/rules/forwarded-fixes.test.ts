/**
 * Fixes and findings of requests that reach the rules as copies: one alternative of several (data flow), a request sent
 * through a helper of the file (`site.forwarded.from`), a request read from a repository wrapper's arguments
 * (`site.forwarded.wrapper`).
 */
import * as assert from 'assert';
import { PRELUDE, lint, parsersReady, slice } from './check';

const ts = PRELUDE['ts-doc'];
const py = PRELUDE['py-resource'];
const show = (code: string, lang: string) => lint(code, lang).map((f) => `${f.ruleId}@${slice(code, f)}${f.fixes?.length ? ` fixes=${f.fixes.length}` : ''}`);

describe('fixes and findings of forwarded and alternative requests', () => {
  before(parsersReady);

  it('TS repository wrapper: the finding, and no fix written into the wrapper call', () => {
    const code = `${ts}export class PostRepository {\n  async like(id: string) {\n    await this.updateItem({ pk: id }, 'SET status = :a', { ':a': 1 });\n  }\n}\n`;
    assert.deepEqual(show(code, 'typescript'), ['reserved-word@status']);
  });

  it('TS control: the same request sent directly has its fix', () => {
    const code = `${ts}export async function like(id: string) {\n  await doc.send(new UpdateCommand({ TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET status = :a', ExpressionAttributeValues: { ':a': 1 } }));\n}\n`;
    assert.deepEqual(show(code, 'typescript'), ['reserved-word@status fixes=1']);
  });

  it('Python repository wrapper (snake_case keywords): the finding, no fix', () => {
    const code = `${py}\nclass PostRepository(DynamoDBRepository):\n    def like(self, pk):\n        self.update_item(key={'pk': pk}, update_expression='SET status = :one', expression_attribute_values={':one': 1})\n`;
    assert.deepEqual(show(code, 'python'), ['reserved-word@status']);
  });

  it('alternatives of one request: the finding of each alternative on the shared literal, with no fix', () => {
    const code = `${ts}export async function f(id: string, strict: boolean) {\n  const p: UpdateCommandInput = { TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } };\n  if (strict) p.ConditionExpression = 'attribute_exists(pk)';\n  await doc.send(new UpdateCommand(p));\n}\n`;
    // Two findings (one message per alternative: with and without the condition), neither with a fix.
    assert.deepEqual(show(code, 'typescript'), ['set-without-if-not-exists@n = n + :one', 'set-without-if-not-exists@n = n + :one']);
  });

  it('a helper called twice: a finding on its literal is reported once, never at the calls', () => {
    const code =
      `${ts}export class Repo {\n  private async touch(id: string) {\n    await doc.send(new UpdateCommand({ TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET a = :a' }));\n  }\n` +
      `  async one(id: string) {\n    await this.touch(id);\n  }\n  async two(id: string) {\n    await this.touch(id);\n    await this.touch(id + '1');\n  }\n}\n`;
    assert.deepEqual(show(code, 'typescript'), ['undefined-value@:a fixes=1']);
  });

  it('a helper: an unused value in its literal is reported once and its fix edits the helper', () => {
    const code =
      `${ts}export class Repo {\n  private async touch(id: string) {\n    await doc.send(new UpdateCommand({ TableName: 'T', Key: { pk: id }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1, ':b': 2 } }));\n  }\n` +
      `  async one(id: string) {\n    await this.touch(id);\n  }\n}\n`;
    const found = lint(code, 'typescript').filter((f) => f.ruleId === 'unused-value');
    assert.deepEqual(found.map((f) => slice(code, f)), ["':b'"]);
    const helper = { start: code.indexOf('private async touch'), end: code.indexOf('async one') };
    for (const fix of found[0].fixes ?? []) for (const e of fix.edits) assert.ok(e.range.start >= helper.start && e.range.end <= helper.end, 'the fix edits the helper');
    assert.ok(found[0].fixes?.length);
  });
});
