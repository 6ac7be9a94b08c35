/**
 * Property: every fix Dynalint offers leaves a file its host language still parses. Applied one at a time to each
 * finding of every fixture (realworld corpus, rule articles, and the broken-on-purpose files of test/fixtures/fixes),
 * then re-parsed with the host's own parser. A fix never adds a parse error (files caught mid-edit, like
 * midedit-handler.ts, start with some). What "parses" means per host:
 * - TypeScript/JavaScript: the compiler's syntactic diagnostics (`parseDiagnostics`; no type checking).
 * - Python, Go, Java: the tree-sitter grammars the extractors load (tree-sitter-python/-go/-java WASM): every ERROR or
 *   MISSING node. Tree-sitter grammars accept some code the real compilers reject (Go's unused variables, Java's
 *   types, a `Map.of` with more than 10 pairs): syntax only.
 * - JSON/JSONC: jsonc-parser's errors (comments only in .jsonc, trailing commas only in JSONC).
 * - YAML: the `yaml` package's errors, every document of the file (the parser the YAML host reads with), and no
 *   comment more than before: ` #` written into a plain scalar parses as a comment and cuts the expression short.
 * - AppSync VTL: there is no Velocity parser here. What is checked is the project's own reading of a template
 *   (extract/vtl.ts `blankVtl`): (1) the JSON body with VTL blanked out (comments, directives, references) still
 *   parses with jsonc-parser, and (2) the VTL left in the file is unchanged: the same comments, directives and
 *   references, in the same order, byte for byte (so a fix writes no `#if`/`#end`/`$x` into a string and never edits
 *   inside a reference such as `$util.dynamodb.toDynamoDBJson(1)`). Not checked: that Velocity renders the result, or
 *   that the rendered text is JSON for every value the references take at run time.
 * The checker itself is tested on a broken text per host (it must report it), so no host passes by checking nothing.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { parse as parseJsonc, ParseError } from 'jsonc-parser';
import { Language, Parser } from 'web-tree-sitter';
import type { Node as TNode } from 'web-tree-sitter';
import { Lexer, parseAllDocuments } from 'yaml';
import { ensureParser, languageIdForPath } from '../../../server/src/extract';
import { blankVtl } from '../../../server/src/extract/vtl';
import { applyEdits } from '../../../server/src/rules/edit';
import { lint, parsersReady } from '../rules/check';

type Grammar = 'python' | 'go' | 'java';
const grammars = new Map<Grammar, Parser>();

async function loadGrammar(name: Grammar): Promise<void> {
  const parser = new Parser();
  parser.setLanguage(await Language.load(require.resolve(`tree-sitter-${name}/tree-sitter-${name}.wasm`)));
  grammars.set(name, parser);
}

/** Every ERROR and MISSING node of a tree-sitter parse, with its offset. */
function treeErrors(name: Grammar, text: string): string[] {
  const tree = grammars.get(name)!.parse(text);
  if (!tree) return [`tree-sitter-${name}: no tree`];
  const out: string[] = [];
  const stack: TNode[] = [tree.rootNode];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n.hasError && !n.isMissing) continue;
    if (n.isError || n.isMissing) out.push(`tree-sitter-${name}: ${n.isMissing ? `MISSING ${n.type}` : 'ERROR'} at ${n.startIndex}`);
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  tree.delete();
  return out;
}

/** The VTL of a template (comments, directives, references) in order: the runs `blankVtl` replaced, as written. */
function vtlParts(text: string): string[] {
  const { json } = blankVtl(text);
  const parts: string[] = [];
  for (let i = 0; i < text.length; ) {
    if (json[i] === text[i]) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && json[i] !== text[i]) i++;
    parts.push(text.slice(start, i));
  }
  return parts;
}

/** Parse errors of `text` in its host language (see the header for what each host checks). `base`: the VTL of the fixture. */
function parseErrors(text: string, lang: string, file: string, base?: string): string[] {
  if (lang === 'python' || lang === 'go' || lang === 'java') return treeErrors(lang, text);
  if (lang === 'json' || lang === 'jsonc') {
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { allowTrailingComma: lang === 'jsonc', disallowComments: lang === 'json' && !file.endsWith('.jsonc') });
    return errors.map((e) => `jsonc error ${e.error} at ${e.offset}`);
  }
  if (lang === 'yaml') {
    const out = parseAllDocuments(text).flatMap((d) => d.errors.map((e) => `yaml: ${e.code} at ${e.pos[0]}`));
    const comments = (t: string) => [...new Lexer().lex(t)].filter((tok) => tok.startsWith('#')).length;
    if (base !== undefined && comments(text) > comments(base)) out.push(`yaml: ${comments(text) - comments(base)} more comment(s)`);
    return out;
  }
  if (lang === 'vtl' || lang === 'velocity') {
    const errors: ParseError[] = [];
    parseJsonc(blankVtl(text).json, errors, { allowTrailingComma: false, disallowComments: true });
    const out = errors.map((e) => `JSON body (VTL blanked): jsonc error ${e.error} at ${e.offset}`);
    if (base !== undefined) {
      const [was, now] = [vtlParts(base), vtlParts(text)];
      if (JSON.stringify(was) !== JSON.stringify(now)) out.push(`the VTL changed: ${JSON.stringify(now.filter((p) => !was.includes(p)))}`);
    }
    return out;
  }
  if (lang !== 'typescript' && lang !== 'typescriptreact' && lang !== 'javascript' && lang !== 'javascriptreact') return [`no parser for ${lang}`];
  const kind = lang === 'javascript' ? ts.ScriptKind.JS : lang === 'javascriptreact' ? ts.ScriptKind.JSX : lang === 'typescriptreact' ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
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
  'realworld/CreditLedger.java': { none: 'unfixable', why: "the decrement is the helper's ADD read with spend's -amount: the floor would need the amount's magnitude, and the helper is every caller's" },
  'realworld/LegacyCounters.java': 5,
  'realworld/TicketReservations.java': 1,
  'realworld/UnreadFlows.java': { none: 'clean', why: 'lists and requests the data flow cannot read whole: unknown means silent' },
  'realworld/accounts_service.py': 2,
  'realworld/appsync-helpers-unknown.js': { none: 'clean', why: 'AppSync helper requests whose values are not known from the source' },
  'realworld/appsync-helpers.js': { none: 'unfixable', why: "helper requests have no DynamoDB field written in the source, and #status cannot be written into AppSync's shape" },
  'realworld/appsync-like.request.vtl': { none: 'unfixable', why: "the Put's guard would be AppSync's \"condition\" object: no DynamoDB field is written into AppSync's shape" },
  'realworld/appsync-notify.request.vtl': { none: 'clean', why: 'a guarded update whose expression and maps VTL builds at run time' },
  'realworld/appsync-views.request.vtl': 2,
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
  'realworld/expression_builder.go': { none: 'unfixable', why: "three findings are on expressions the Go expression builder generates, and a request holding one offers no fix (`built`): the like transaction's literal Put included" },
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
  'realworld/tag_counts.go': 2,
  'realworld/unread_flows.go': { none: 'clean', why: 'slices and requests the data flow cannot read whole: unknown means silent' },
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
  'fixes/LiteralForms.java': 12,
  'fixes/comments_and_splats.py': 9,
  'fixes/directive-words.vtl': 8,
  'fixes/escapes-and-layouts.json': 17,
  'fixes/escapes-and-layouts.ts': 23,
  'fixes/escapes_and_layouts.py': 19,
  'fixes/literal_forms.go': 11,
  'fixes/shorthand-and-casts.ts': 9,
  'fixes/step-functions-scalars.asl.yaml': 13,
};

describe('fixes: every offered fix keeps the file parseable in its host language', () => {
  before(async () => {
    await parsersReady();
    await Promise.all([ensureParser('go'), ensureParser('java'), ...(['python', 'go', 'java'] as const).map(loadGrammar)]);
  });

  /** One valid and one broken text per host: the checker finds no error in the first and at least one in the second. */
  const SAMPLES: [lang: string, file: string, valid: string, broken: string][] = [
    ['typescript', 'a.ts', 'const a = { b: 1 };\n', 'const a = { b: 1 ;\n'],
    ['javascript', 'a.js', 'f({ a: "x" });\n', 'f({ a: "x" );\n'],
    ['python', 'a.py', "f(a={'b': 1})\n", "f(a={'b': 1)\n"],
    ['json', 'a.json', '{"a": [1, 2]}', '{"a": [1, 2}'],
    ['jsonc', 'a.jsonc', '{"a": 1, // c\n}', '{"a": 1 "b": 2}'],
    ['go', 'a.go', 'package p\n\nvar x = map[string]int{"a": 1}\n', 'package p\n\nvar x = map[string]int{"a": 1\n'],
    ['java', 'A.java', 'class A { void f() { g(h("x")); } }\n', 'class A { void f() { g(h("x"); } }\n'],
    ['yaml', 'a.yaml', 'a:\n  b: "x"\n', 'a:\n  b: "x\n'],
    ['vtl', 'a.vtl', '#set($x = 1)\n{ "a": $util.toJson($x), "b": "c" }\n', '#set($x = 1)\n{ "a": $util.toJson($x) "b": "c" }\n'],
  ];
  for (const [lang, file, valid, broken] of SAMPLES) {
    it(`the ${lang} checker passes a valid text and reports a broken one`, () => {
      assert.deepEqual(parseErrors(valid, lang, file, valid), []);
      assert.ok(parseErrors(broken, lang, file, broken).length > 0, 'the broken text is reported');
    });
  }

  it('the YAML checker reports a comment a fix would start', () => {
    const base = 'UpdateExpression: SET views = views + :one\n';
    assert.deepEqual(parseErrors('UpdateExpression: "SET #views = #views + :one"\n', 'yaml', 'a.yaml', base), []);
    assert.ok(parseErrors('UpdateExpression: SET #views = #views + :one\n', 'yaml', 'a.yaml', base).length > 0);
  });

  it('the VTL checker reports VTL a fix would add or change', () => {
    const base = '{ "expression": "SET a = :v", "v": $util.dynamodb.toDynamoDBJson(1) }\n';
    assert.deepEqual(parseErrors(base.replace('SET a', 'SET #a'), 'vtl', 'a.vtl', base), [], 'a #placeholder is not VTL');
    assert.ok(parseErrors(base.replace('SET a', 'SET #end'), 'vtl', 'a.vtl', base).length > 0, 'a directive written into a string');
    assert.ok(parseErrors(base.replace('(1)', '(2)'), 'vtl', 'a.vtl', base).length > 0, 'an edit inside a reference');
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
      const before = parseErrors(text, lang, file, text);
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
        const errors = parseErrors(out, lang, file, text);
        if (errors.length > before.length) failures.push(`${f.ruleId} / "${fix.title}": ${errors.join('; ')}`);
      }
      assert.deepEqual(failures, []);
    });
  }
});
