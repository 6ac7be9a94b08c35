/**
 * The ESLint plugin through the real ESLint 9 API (`new ESLint({ overrideConfig })`), on fixtures in every JS/TS style
 * (TS, TSX, JSX, ESM .mjs, CommonJS .cjs/.js; SDK v2 and v3, low-level and document clients), with typescript-eslint's
 * parser and with ESLint's own (espree) for the JavaScript files: the same findings at the same places as the engine,
 * `eslint --fix` giving the text `dynalint lint --fix` gives, both kinds of suppression comments, the cache, and bad
 * input (a rule id that does not exist, a file the parser or the engine cannot read).
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { main } from '../../../server/src/cli';
import { LineIndex } from '../../../server/src/cli/format';
import { lintText } from '../../../server/src/cli/lint';
import plugin, { astStats, createPlugin, eslintSeverity, languageOf } from '../../../server/src/eslint/plugin';
import { languageIdForPath } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { allRules } from '../../../server/src/rules';

const REPO = resolve(__dirname, '../../..');

/** Fixtures from the repository (real-world shapes) plus small ones for the styles they lack. */
const FROM_REPO: Record<string, string> = {
  'likes.ts': 'examples/likes.ts',
  'comments-service.ts': 'test/fixtures/realworld/comments-service.ts',
  'profile-repository.ts': 'test/fixtures/realworld/profile-repository.ts',
  'v3-lowlevel-commands.ts': 'test/fixtures/realworld/v3-lowlevel-commands.ts',
  'shorthand-and-casts.ts': 'test/fixtures/fixes/shorthand-and-casts.ts',
  'escapes-and-layouts.ts': 'test/fixtures/fixes/escapes-and-layouts.ts',
  'lambda-handlers.js': 'test/fixtures/realworld/lambda-handlers.js',
  'v2-lowlevel-callbacks.js': 'test/fixtures/realworld/v2-lowlevel-callbacks.js',
  'like-handler.js': 'test/fixtures/realworld/like-handler.js',
};

const WRITTEN: Record<string, string> = {
  'handler.mjs': [
    `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
    `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';`,
    `const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));`,
    `export const handler = async (event) => {`,
    `  await doc.send(new UpdateCommand({`,
    `    TableName: 'Posts',`,
    `    Key: { PK: event.id, SK: 'META' },`,
    `    UpdateExpression: 'SET status = :s, views = views + :one',`,
    `    ExpressionAttributeValues: { ':s': 'live', ':one': 1, ':unused': 0 },`,
    `  }));`,
    `};`,
    ``,
  ].join('\n'),
  'legacy.cjs': [
    `const AWS = require('aws-sdk');`,
    `const db = new AWS.DynamoDB.DocumentClient();`,
    `module.exports.rename = (id, name) =>`,
    `  db.update({ TableName: 'Users', Key: { id }, UpdateExpression: 'SET name = :n', ExpressionAttributeValues: { ':n': name } }).promise();`,
    ``,
  ].join('\n'),
  'Button.jsx': [
    `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
    `export function LikeButton({ client, id }) {`,
    `  const like = () => client.send(new UpdateCommand({ TableName: 'Posts', Key: { PK: id }, UpdateExpression: 'SET count = count + :one', ExpressionAttributeValues: { ':one': 1 } }));`,
    `  return <button onClick={like}>Like</button>;`,
    `}`,
    ``,
  ].join('\n'),
  'View.tsx': [
    `import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';`,
    `type Props = { client: DynamoDBDocumentClient; id: string };`,
    `export function Views({ client, id }: Props): JSX.Element {`,
    `  void client.send(new UpdateCommand({ TableName: 'Posts', Key: { PK: id } as const, UpdateExpression: 'ADD views :one', ExpressionAttributeValues: { ':one': 1 } satisfies Record<string, number> }));`,
    `  return <span>{id}</span>;`,
    `}`,
    ``,
  ].join('\n'),
  'crlf.ts': [`import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`, `export const c = new UpdateCommand({`, `  TableName: 'T',`, `  Key: { PK: 'a' },`, `  UpdateExpression: 'SET size = :s',`, `  ExpressionAttributeValues: { ':s': 1, ':x': 2 },`, `});`, ``].join('\r\n'),
  'clean.ts': `export const nothing = 'SET name = :n is just a string here';\n`,
};

const FILES = { ...Object.fromEntries(Object.entries(FROM_REPO).map(([k, v]) => [k, readFileSync(join(REPO, v), 'utf8')])), ...WRITTEN };
const JS = /\.(js|mjs|cjs|jsx)$/;

/** typescript-eslint's parser for every file. */
const withTypescriptEslint = (p: ESLint.Plugin & { configs: { recommended: Linter.Config } } = plugin): Linter.Config[] => [
  { files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'], languageOptions: { parser: tseslint.parser as Linter.Parser, parserOptions: { ecmaFeatures: { jsx: true } } } },
  p.configs.recommended,
];

/** ESLint's own parser (espree), JavaScript files only. */
const withEspree = (): Linter.Config[] => [
  { files: ['**/*.{js,jsx,mjs,cjs}'], languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } } },
  { files: ['**/*.cjs', 'lambda-handlers.js', 'v2-lowlevel-callbacks.js', 'like-handler.js'], languageOptions: { sourceType: 'commonjs' } },
  plugin.configs.recommended,
];

interface Msg {
  ruleId: string | null;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  message: string;
}

const pick = (m: Linter.LintMessage): Msg => ({ ruleId: m.ruleId, line: m.line, column: m.column, endLine: m.endLine, endColumn: m.endColumn, message: m.message });

/** What the engine (as `dynalint lint` runs it) reports for a file, in ESLint's terms (1-based lines and columns). */
function engineMessages(file: string, text: string): Msg[] {
  // ESLint reads the text without a BOM; none of the fixtures has one.
  const findings = lintText(text, languageIdForPath(file)!, DEFAULT_SETTINGS, (m) => assert.fail(m));
  const index = new LineIndex(text);
  return findings.map((f) => {
    const r = index.range(f.range);
    return { ruleId: `dynalint/${f.ruleId}`, line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1, message: f.message };
  });
}

const sortMsgs = (xs: Msg[]) => [...xs].sort((a, b) => a.line - b.line || a.column - b.column || String(a.ruleId).localeCompare(String(b.ruleId)));

describe('eslint plugin: the engine as ESLint 9 rules', function () {
  this.timeout(120_000);
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'dynalint-eslint-'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(root, name), text);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const eslintWith = (overrideConfig: Linter.Config[], extra: Partial<ESLint.Options> = {}) => new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig, ...extra });

  it('every Dynalint rule is an ESLint rule with its docs URL, fixability and default severity (info/hint as warn)', () => {
    assert.deepEqual(Object.keys(plugin.rules!).sort(), allRules.map((r) => r.id).sort());
    assert.deepEqual(plugin.meta, { name: 'eslint-plugin-dynalint', version: JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version });
    const recommended = plugin.configs.recommended.rules!;
    for (const r of allRules) {
      const meta = plugin.rules![r.id].meta!;
      assert.equal(meta.docs?.url, r.meta.docs, r.id);
      assert.equal(meta.docs?.description, r.meta.description, r.id);
      assert.equal(meta.fixable, r.meta.fixable ? 'code' : undefined, r.id);
      assert.equal(recommended[`dynalint/${r.id}`], eslintSeverity(r.meta.defaultSeverity), r.id);
    }
    assert.equal(recommended['dynalint/reserved-word'], 'error');
    assert.equal(recommended['dynalint/set-without-if-not-exists'], 'warn');
    assert.equal(recommended['dynalint/count-children-on-read'], 'warn');
    assert.equal(recommended['dynalint/non-idempotent-counter'], 'off');
  });

  it('reads the language from the file name (processor blocks too); ESLint without a path reads as TypeScript', () => {
    assert.deepEqual(
      ['a.ts', 'b.tsx', 'c.mjs', 'd.cjs', 'e.jsx', 'README.md/0.ts', '<text>', 'x.vue', 'y.py'].map(languageOf),
      ['typescript', 'typescriptreact', 'javascript', 'javascript', 'javascriptreact', 'typescript', 'typescript', undefined, undefined],
    );
  });

  for (const [label, config, only] of [
    ['typescript-eslint', withTypescriptEslint, /./],
    ['espree', withEspree, JS],
  ] as const) {
    it(`${label}: the same findings, at the same places, as the engine for every fixture`, async () => {
      const reusedBefore = astStats.reused;
      const results = await eslintWith(config()).lintFiles(['.']);
      // typescript-eslint's TypeScript AST is read instead of parsing the file again; espree has none to give.
      if (label === 'typescript-eslint') assert.ok(astStats.reused - reusedBefore >= 10, `${astStats.reused - reusedBefore} ASTs reused`);
      else assert.equal(astStats.reused, reusedBefore);
      const linted = results.map((r) => r.filePath.slice(root.length + 1)).sort();
      assert.deepEqual(linted, Object.keys(FILES).filter((f) => only.test(f)).sort());
      let total = 0;
      for (const r of results) {
        const name = r.filePath.slice(root.length + 1);
        assert.equal(r.messages.filter((m) => m.fatal).length, 0, `${name}: ${r.messages.map((m) => m.message).join('; ')}`);
        const expected = engineMessages(name, FILES[name]);
        assert.deepEqual(sortMsgs(r.messages.map(pick)), sortMsgs(expected), name);
        total += expected.length;
      }
      // The fixtures do hold problems (the comparison above is not of two empty lists).
      assert.ok(total >= (only === JS ? 10 : 50), `${total} findings`);
    });
  }

  it('a few findings pinned: place, message, severity, docs-linked rule id', async () => {
    const [r] = await eslintWith(withTypescriptEslint()).lintFiles(['handler.mjs']);
    assert.deepEqual(
      r.messages.map((m) => [m.ruleId, m.severity, `${m.line}:${m.column}-${m.endLine}:${m.endColumn}`]),
      [
        ['dynalint/reserved-word', 2, '8:28-8:34'],
        ['dynalint/reserved-word', 2, '8:41-8:46'],
        ['dynalint/set-without-if-not-exists', 1, '8:41-8:61'],
        ['dynalint/reserved-word', 2, '8:49-8:54'],
        ['dynalint/unused-value', 2, '9:59-9:68'],
      ],
    );
    assert.match(r.messages[0].message, /^"status" is a DynamoDB reserved word/);
    assert.equal(r.fixableErrorCount, 4);
    assert.equal(r.fixableWarningCount, 1);
  });

  it('safe fixes are ESLint fixes; the other fixes are suggestions with their titles', async () => {
    const [r] = await eslintWith(withTypescriptEslint()).lintFiles(['profile-repository.ts']);
    const reserved = r.messages.find((m) => m.ruleId === 'dynalint/reserved-word')!;
    assert.ok(reserved.fix, 'reserved-word has a fix');
    assert.equal(reserved.suggestions, undefined);
    const undef = r.messages.find((m) => m.ruleId === 'dynalint/undefined-value')!;
    assert.equal(undef.fix, undefined, 'an unsafe fix is not applied by --fix');
    assert.equal(undef.suggestions?.length, 2);
    for (const s of undef.suggestions!) assert.ok(s.desc.length > 0 && s.fix.range[0] <= s.fix.range[1]);
    // A rule without fixes reports none.
    const [c] = await eslintWith(withTypescriptEslint()).lintFiles(['likes.ts']);
    const count = c.messages.find((m) => m.ruleId === 'dynalint/count-children-on-read')!;
    assert.equal(count.fix, undefined);
    assert.equal(count.suggestions, undefined);
  });

  it('eslint --fix gives the text dynalint lint --fix gives, file by file', async () => {
    const results = await eslintWith(withTypescriptEslint(), { fix: true }).lintFiles(['.']);
    const dir = join(root, 'cli');
    mkdirSync(join(dir, '.git'), { recursive: true });
    for (const name of Object.keys(FILES)) cpSync(join(root, name), join(dir, name));
    const code = await main(['lint', '--fix', '.'], { cwd: dir, stdout: () => undefined, stderr: () => undefined });
    assert.ok(code === 0 || code === 1, `dynalint lint --fix exit ${code}`);
    let changed = 0;
    for (const r of results) {
      const name = r.filePath.slice(root.length + 1);
      const eslintText = r.output ?? FILES[name];
      const ours = readFileSync(join(dir, name), 'utf8');
      assert.equal(eslintText, ours, name);
      if (ours !== FILES[name]) changed++;
    }
    assert.ok(changed >= 8, `${changed} files fixed`);
  });

  it('honours eslint-disable-next-line dynalint/<id> (the line the problem starts on) and dynalint-disable-next-line (the whole request)', async () => {
    const src = (comment1: string, comment2: string) =>
      [
        `import { UpdateCommand } from '@aws-sdk/lib-dynamodb';`,
        comment1,
        `export const a = new UpdateCommand({`,
        `  TableName: 'T',`,
        `  Key: { PK: 'a' },`,
        comment2,
        `  UpdateExpression: 'SET status = :s',`,
        `  ExpressionAttributeValues: { ':s': 1 },`,
        `});`,
        ``,
      ].join('\n');
    const lint = async (text: string) => (await eslintWith(withTypescriptEslint(), { overrideConfig: [...withTypescriptEslint(), { linterOptions: { reportUnusedDisableDirectives: 'error' } }] }).lintText(text, { filePath: join(root, 's.ts') }))[0].messages.map((m) => m.ruleId);
    assert.deepEqual(await lint(src('', '')), ['dynalint/reserved-word']);
    assert.deepEqual(await lint(src('', '  // eslint-disable-next-line dynalint/reserved-word')), []);
    assert.deepEqual(await lint(src('// dynalint-disable-next-line reserved-word', '')), []);
    assert.deepEqual(await lint(src('', '  /* eslint-disable-next-line dynalint/unused-value */')), [null, 'dynalint/reserved-word']);
    assert.deepEqual(await lint(src('// dynalint-disable-next-line unused-value', '')), ['dynalint/unused-suppression', 'dynalint/reserved-word']);
    // A Dynalint rule turned off in ESLint is off in the engine: its suppression comment is then not "unused".
    const off = await eslintWith([...withTypescriptEslint(), { rules: { 'dynalint/reserved-word': 'off' } }]).lintText(src('// dynalint-disable-next-line reserved-word', ''), { filePath: join(root, 's.ts') });
    assert.deepEqual(
      off[0].messages.map((m) => m.ruleId),
      [],
    );
  });

  it('only the rules ESLint enables report; a rule set to off in ESLint is not run', async () => {
    const config: Linter.Config[] = [...withTypescriptEslint(), { rules: Object.fromEntries(allRules.map((r) => [`dynalint/${r.id}`, r.id === 'unused-value' ? 'warn' : 'off'])) }];
    const [r] = await eslintWith(config).lintFiles(['handler.mjs']);
    assert.deepEqual(
      r.messages.map((m) => [m.ruleId, m.severity]),
      [['dynalint/unused-value', 1]],
    );
  });

  it('--cache: the same results with and without the cache, the second run read from it', async () => {
    const strip = (rs: ESLint.LintResult[]) => rs.map((r) => [r.filePath, r.messages.map(pick)]);
    const cacheLocation = join(root, '.eslintcache');
    const plain = strip(await eslintWith(withTypescriptEslint()).lintFiles(['.']));
    const first = strip(await eslintWith(withTypescriptEslint(), { cache: true, cacheLocation }).lintFiles(['.']));
    const cache = readFileSync(cacheLocation, 'utf8');
    assert.ok(cache.includes('likes.ts'), 'the cache holds the files');
    const second = strip(await eslintWith(withTypescriptEslint(), { cache: true, cacheLocation }).lintFiles(['.']));
    assert.deepEqual(first, plain);
    assert.deepEqual(second, plain);
  });

  it('bad input: a rule id that does not exist is an ESLint configuration error naming it', async () => {
    const eslint = eslintWith([...withTypescriptEslint(), { rules: { 'dynalint/no-such-rule': 'error' } }]);
    await assert.rejects(eslint.lintFiles(['likes.ts']), (e: Error) => /Could not find "no-such-rule" in plugin "dynalint"/.test(e.message));
  });

  it('bad input: a file the parser cannot read is ESLint\'s parsing error; the other files are linted', async () => {
    writeFileSync(join(root, 'broken.ts'), `export const x = new UpdateCommand({ UpdateExpression: 'SET status = :s', \n`);
    const results = await eslintWith(withTypescriptEslint()).lintFiles(['broken.ts', 'handler.mjs']);
    const broken = results.find((r) => r.filePath.endsWith('broken.ts'))!;
    assert.equal(broken.messages.length, 1);
    assert.equal(broken.messages[0].fatal, true);
    assert.match(broken.messages[0].message, /^Parsing error/);
    assert.equal(results.find((r) => r.filePath.endsWith('handler.mjs'))!.messages.length, 5);
  });

  it('bad input: when the engine fails on a file, one ESLint message says so; no crash, the other files are linted', async () => {
    const failing = createPlugin((text) => {
      if (text.includes('likeTally')) throw new Error('cannot read this\n    at stack frame');
      return [];
    });
    const results = await eslintWith(withTypescriptEslint(failing)).lintFiles(['likes.ts', 'handler.mjs']);
    const likes = results.find((r) => r.filePath.endsWith('likes.ts'))!;
    assert.deepEqual(
      likes.messages.map((m) => [m.message, m.line, m.fatal ?? false]),
      [['Dynalint could not lint this file: cannot read this', 1, false]],
    );
    assert.match(likes.messages[0].ruleId ?? '', /^dynalint\//);
    assert.deepEqual(results.find((r) => r.filePath.endsWith('handler.mjs'))!.messages, []);
  });

  it('files it does not read (.vue) are left alone; a file without requests costs no findings', async () => {
    const vue: Linter.Config[] = [{ files: ['**/*.vue'], languageOptions: { parser: tseslint.parser as Linter.Parser } }, plugin.configs.recommended];
    const [r] = await eslintWith(vue).lintText(FILES['handler.mjs'], { filePath: join(root, 'Comp.vue') });
    assert.deepEqual(r.messages, []);
    const [asMjs] = await eslintWith(withTypescriptEslint()).lintText(FILES['handler.mjs'], { filePath: join(root, 'Comp.mjs') });
    assert.equal(asMjs.messages.length, 5);
    const [clean] = await eslintWith(withTypescriptEslint()).lintFiles(['clean.ts']);
    assert.deepEqual(clean.messages, []);
  });
});
