/**
 * Property: every fix Dynalint offers leaves a file its host language still parses. Applied one at a time to each
 * finding of every fixture (realworld corpus, rule articles, and the broken-on-purpose files of test/fixtures/fixes),
 * then re-parsed with the host's own parser: TypeScript's syntactic diagnostics, tree-sitter-python's error nodes,
 * jsonc-parser's errors. A fix never adds a parse error (files caught mid-edit, like midedit-handler.ts, start with some).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { parse as parseJsonc, ParseError } from 'jsonc-parser';
import { Language, Parser } from 'web-tree-sitter';
import { languageIdForPath } from '../../../server/src/extract';
import { applyEdits } from '../../../server/src/rules/edit';
import { lint, parsersReady } from '../rules/check';

let py: Parser | undefined;

function parseErrors(text: string, lang: string, file: string): string[] {
  if (lang === 'python') {
    const tree = py!.parse(text);
    const bad = !tree || tree.rootNode.hasError;
    tree?.delete();
    return bad ? ['tree-sitter: ERROR/MISSING node'] : [];
  }
  if (lang === 'json' || lang === 'jsonc') {
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { allowTrailingComma: lang === 'jsonc', disallowComments: lang === 'json' && !file.endsWith('.jsonc') });
    return errors.map((e) => `jsonc error ${e.error} at ${e.offset}`);
  }
  const kind = lang === 'javascript' ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const diags = (sf as unknown as { parseDiagnostics: ts.DiagnosticWithLocation[] }).parseDiagnostics;
  return diags.map((d) => `${ts.flattenDiagnosticMessageText(d.messageText, '\n')} at ${d.start}`);
}

const ROOT = path.join(__dirname, '..', '..', 'fixtures');
const FILES = ['realworld', 'rules', 'fixes'].flatMap((dir) =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => languageIdForPath(f) !== undefined)
    .map((f) => path.join(dir, f)),
);

/**
 * What each fixture offers, listed explicitly so no case passes by having nothing to check: the number of fixes over
 * all its findings, or, for a fixture with none, why — it is clean (no findings at all), or its findings have no
 * automatic fix. A rule that starts or stops offering a fix on a fixture changes this table on purpose.
 */
type Expected = number | { none: 'clean' | 'unfixable'; why: string };
const EXPECTED: Record<string, Expected> = {
  'realworld/accounts_service.py': 2,
  'realworld/bank-transfer.ts': { none: 'unfixable', why: 'LIKE is not DynamoDB syntax: which function (begins_with, contains) is meant is for the author to say' },
  'realworld/cli-batch-write.json': { none: 'clean', why: 'a batch of plain Put/Delete requests: nothing to report' },
  'realworld/cli-expression-values.json': { none: 'clean', why: 'an --expression-attribute-values file on its own, not a request' },
  'realworld/cli-input-update.json': 1,
  'realworld/comments-service.ts': 4,
  'realworld/ddb-namespace-import.ts': 1,
  'realworld/dynamic-builders.ts': { none: 'clean', why: 'expressions built at run time: nothing is statically known' },
  'realworld/dynamic_requests.py': { none: 'clean', why: 'requests assembled at run time: nothing is statically known' },
  'realworld/dynamodb-orms.ts': { none: 'clean', why: 'ORM calls (dynamoose, ElectroDB, OneTable) are not DynamoDB requests' },
  'realworld/dynamodb_orms.py': { none: 'clean', why: 'PynamoDB models and the legacy AttributeUpdates API: no expression strings to judge' },
  'realworld/expiry_jobs.py': 2,
  'realworld/follow-transact-items.json': 3,
  'realworld/inventory.ts': 2,
  'realworld/lambda-handlers.js': 1,
  'realworld/ledger_client.py': 2,
  'realworld/like-guard-variants.ts': { none: 'clean', why: 'every like/unlike variant is guarded' },
  'realworld/like-handler.js': 1,
  'realworld/like-helpers.ts': { none: 'clean', why: 'the guarded child write comes from helpers the rule cannot see into' },
  'realworld/midedit-handler.ts': 3,
  'realworld/not-dynamodb.json': { none: 'clean', why: 'JSON that is not a DynamoDB request' },
  'realworld/not-dynamodb.ts': { none: 'clean', why: 'code that is not about DynamoDB' },
  'realworld/not_dynamodb.py': { none: 'clean', why: 'code that is not about DynamoDB' },
  'realworld/optimistic_lock.py': { none: 'unfixable', why: 'the unused :expected is used on the other branch: removing it would break that request' },
  'realworld/order-workflow.asl.json': 2,
  'realworld/orders_repo.py': 3,
  'realworld/profile-repository.ts': 5,
  'realworld/seed-requests.jsonc': 8,
  'realworld/user-status.ts': 1,
  'realworld/v2-docclient-promise.js': 2,
  'realworld/v2-lowlevel-callbacks.js': 3,
  'realworld/v3-lowlevel-commands.ts': 2,
  'rules/conditional-update.safe.py': { none: 'clean', why: 'the rule article\'s safe version' },
  'rules/credits.broken.py': 2,
  'rules/like-post.broken.json': 1,
  'rules/like-post.safe.json': { none: 'clean', why: 'the rule article\'s safe version' },
  'rules/likes.broken.ts': 3,
  'rules/likes.safe.ts': { none: 'clean', why: 'the rule article\'s safe version' },
  'rules/unlike-post.broken.json': 1,
  'rules/unlike-post.safe.json': { none: 'clean', why: 'the rule article\'s safe version' },
  'rules/video-plays.broken.py': 3,
  'rules/video-plays.safe.py': { none: 'clean', why: 'the rule article\'s safe version' },
  'fixes/comments_and_splats.py': 9,
  'fixes/escapes-and-layouts.json': 17,
  'fixes/escapes-and-layouts.ts': 23,
  'fixes/escapes_and_layouts.py': 19,
  'fixes/shorthand-and-casts.ts': 9,
};

describe('fixes: every offered fix keeps the file parseable in its host language', () => {
  before(async () => {
    await parsersReady();
    py = new Parser();
    py.setLanguage(await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm')));
  });

  it('lists an expectation for exactly the fixtures in the folders', () => {
    const key = (f: string) => f.split(path.sep).join('/');
    assert.deepEqual(FILES.map(key).sort(), Object.keys(EXPECTED).sort());
    assert.ok(Object.values(EXPECTED).filter((e) => typeof e === 'number').length >= 25, 'most fixtures exercise fixes');
  });

  for (const rel of FILES) {
    const expected = EXPECTED[rel.split(path.sep).join('/')];
    const title = typeof expected === 'number' ? `${rel}: ${expected} fixes, each re-parses` : `${rel}: no fix (${expected?.none}: ${expected?.why})`;
    it(title, () => {
      assert.ok(expected !== undefined, `no expectation listed for ${rel}`);
      const file = path.join(ROOT, rel);
      const lang = languageIdForPath(file)!;
      const text = fs.readFileSync(file, 'utf8');
      const before = parseErrors(text, lang, file);
      if (!rel.includes('midedit')) assert.deepEqual(before, [], 'the fixture itself parses');
      const findings = lint(text, lang);
      const fixes = findings.flatMap((f) => (f.fixes ?? []).map((fix) => ({ f, fix })));
      if (typeof expected !== 'number') {
        if (expected.none === 'clean') assert.deepEqual(findings.map((f) => f.ruleId), [], 'a clean fixture has no findings');
        else {
          assert.ok(findings.length > 0, 'an unfixable fixture has findings');
          assert.deepEqual(fixes.map(({ f, fix }) => `${f.ruleId}: ${fix.title}`), [], 'and none of them offers a fix');
        }
        return;
      }
      assert.equal(fixes.length, expected, `fixes offered: ${fixes.map(({ f, fix }) => `${f.ruleId}: ${fix.title}`).join(' | ')}`);
      const failures: string[] = [];
      for (const { f, fix } of fixes) {
        const out = applyEdits(text, fix.edits);
        if (out === text) failures.push(`${f.ruleId} / "${fix.title}": changes nothing`);
        const errors = parseErrors(out, lang, file);
        if (errors.length > before.length) failures.push(`${f.ruleId} / "${fix.title}": ${errors.join('; ')}`);
      }
      assert.deepEqual(failures, []);
    });
  }
});
