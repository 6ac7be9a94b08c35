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

describe('fixes: every offered fix keeps the file parseable in its host language', () => {
  before(async () => {
    await parsersReady();
    py = new Parser();
    py.setLanguage(await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm')));
  });

  it('covers the fixture folders', () => assert.ok(FILES.length >= 40, `${FILES.length} files`));

  for (const rel of FILES) {
    it(rel, () => {
      const file = path.join(ROOT, rel);
      const lang = languageIdForPath(file)!;
      const text = fs.readFileSync(file, 'utf8');
      const before = parseErrors(text, lang, file);
      if (!rel.includes('midedit')) assert.deepEqual(before, [], 'the fixture itself parses');
      const failures: string[] = [];
      for (const f of lint(text, lang)) {
        for (const fix of f.fixes ?? []) {
          const out = applyEdits(text, fix.edits);
          const errors = parseErrors(out, lang, file);
          if (errors.length > before.length) failures.push(`${f.ruleId} / "${fix.title}": ${errors.join('; ')}`);
        }
      }
      assert.deepEqual(failures, []);
    });
  }
});
