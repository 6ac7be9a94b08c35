/**
 * Dynalint as an ESLint 9 flat-config plugin: every Dynalint rule is an ESLint rule `dynalint/<id>`, with the same
 * default severity (error/warning; ESLint has no info or hint: those rules are `warn`), message, docs URL and fixes
 * (the fix `dynalint lint --fix` would take as ESLint's `fix`, every other fix as a suggestion).
 *
 * The engine runs once per file and ESLint pass, on ESLint's source text (whatever parser produced the AST): every
 * enabled `dynalint/*` rule registers itself in `create` (ESLint creates every rule before it walks the tree), and
 * the first `Program` listener runs extraction + the enabled rules (`runRules`, so `dynalint-disable*` comments and
 * `unused-suppression` behave as in the editor and the CLI); each rule then reports its own findings. ESLint's
 * `eslint-disable*` comments are ESLint's own business: they apply to the line a problem starts on.
 * No `.dynalintrc.json` is read: ESLint's configuration says which rules run.
 */
import type { ESLint, Linter, Rule as ESLintRule, SourceCode } from 'eslint';
import type ts from 'typescript';
import { extract, languageIdForPath } from '../extract';
import { editsConflict, safeFixOf } from '../fix/apply';
import { allRules, runRules } from '../rules';
import type { Finding, Fix, Rule, SeveritySetting } from '../rules/types';
import { version } from '../../../package.json';

/**
 * What the plugin needs of the engine: the findings of one file (tests pass one that fails). `ast` is the parser's
 * TypeScript AST of the text when the parser has one (typescript-eslint), to be reused if it fits.
 */
export type Engine = (text: string, languageId: string, enabled: ReadonlySet<string>, ast?: unknown) => Finding[];

/** ASTs reused from typescript-eslint vs parsed again (tests; the bench). */
export const astStats = { reused: 0 };

/**
 * typescript-eslint's AST when the extractor can read it as its own: the same text, script kind and compiler (the
 * project's, which plugin's bundle uses too: see eslint/typescript.ts; a node kind numbered differently means another
 * compiler version made it).
 */
function reusable(ast: unknown, text: string, kind: ts.ScriptKind): ts.SourceFile | undefined {
  const sf = ast as (ts.SourceFile & { scriptKind?: ts.ScriptKind }) | undefined;
  if (!sf || sf.text !== text || sf.scriptKind !== kind) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const compiler = require('typescript') as typeof ts;
  if (sf.kind !== compiler.SyntaxKind.SourceFile || sf.endOfFileToken?.kind !== compiler.SyntaxKind.EndOfFileToken) return undefined;
  astStats.reused++;
  return sf;
}

/** The real engine: extract, then every enabled rule (the others `off`), suppressions applied. */
export const lintWithEngine: Engine = (text, languageId, enabled, ast) => {
  // Required here, not imported: the extractor (and so the compiler) loads on the first file that needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { setPreParsed } = ast ? (require('../extract/typescript') as typeof import('../extract/typescript')) : { setPreParsed: undefined };
  setPreParsed?.((t, kind) => reusable(ast, t, kind));
  try {
    const res = extract(text, languageId);
    // Skipped files (too large, binary, minified) are not problems of the code: ESLint users ignore generated files.
    if (res.skipped) return [];
    return runRules(text, languageId, res.sites, { settingsRules: onlyThese(enabled) });
  } finally {
    setPreParsed?.(undefined);
  }
};

const severityMaps = new Map<string, Record<string, SeveritySetting>>();

function onlyThese(enabled: ReadonlySet<string>): Record<string, SeveritySetting> {
  const key = [...enabled].sort().join(',');
  let map = severityMaps.get(key);
  // Every rule named: a configured rule reports all its findings at that severity (ESLint has one severity a rule).
  if (!map) severityMaps.set(key, (map = Object.fromEntries(allRules.map((r) => [r.id, enabled.has(r.id) ? 'warning' : 'off']))));
  return map;
}

/**
 * The language a file is read as: by its extension (`.ts`, `.tsx`, `.mjs`... and a processor's virtual
 * `README.md/0.ts`); ESLint's `<text>`/`<input>` (lintText without a path) as TypeScript, which reads JavaScript too;
 * undefined for an extension we do not read (`.vue`, `.svelte`: their text is not a script), so nothing is reported.
 */
export function languageOf(filename: string): string | undefined {
  const byExtension = languageIdForPath(filename);
  if (byExtension) return byExtension === 'python' ? undefined : byExtension;
  return /^<\w+>$/.test(filename) || !/\.[^\\/]+$/.test(filename) ? 'typescript' : undefined;
}

/** ESLint's severity for a Dynalint default: ESLint has no info or hint level. */
export function eslintSeverity(s: SeveritySetting): Linter.RuleSeverity {
  return s === 'off' ? 'off' : s === 'error' ? 'error' : 'warn';
}

interface FileState {
  enabled: Set<string>;
  findings?: Map<string, Finding[]>;
  /** The engine failed on this file: the message, reported once (by the first rule to ask). */
  failure?: string;
  failureReported?: boolean;
}

/** Fixes whose edits overlap one another cannot be one ESLint fix (and `dynalint lint --fix` skips them too). */
function applicable(fix: Fix): boolean {
  if (!fix.edits.length) return false;
  const sorted = [...fix.edits].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  return !sorted.some((e, i) => i > 0 && editsConflict(sorted[i - 1], e));
}

const toFixer = (fix: Fix) => (fixer: ESLintRule.RuleFixer) => fix.edits.map((e) => fixer.replaceTextRange([e.range.start, e.range.end], e.newText));

function createPlugin(engine: Engine): ESLint.Plugin & { configs: { recommended: Linter.Config } } {
  const states = new WeakMap<SourceCode, FileState>();

  const stateOf = (sourceCode: SourceCode): FileState => {
    let s = states.get(sourceCode);
    if (!s) states.set(sourceCode, (s = { enabled: new Set() }));
    return s;
  };

  const compute = (state: FileState, text: string, languageId: string, ast: unknown): Map<string, Finding[]> => {
    const byRule = new Map<string, Finding[]>();
    try {
      for (const f of engine(text, languageId, state.enabled, ast)) {
        const list = byRule.get(f.ruleId);
        if (list) list.push(f);
        else byRule.set(f.ruleId, [f]);
      }
    } catch (e) {
      const why = e instanceof Error ? e.message || e.name : String(e);
      state.failure = `Dynalint could not lint this file: ${why.split('\n')[0]}`;
    }
    return byRule;
  };

  const eslintRule = (rule: Rule): ESLintRule.RuleModule => ({
    meta: {
      type: rule.meta.category === 'style' || rule.meta.category === 'cost' ? 'suggestion' : 'problem',
      docs: { description: rule.meta.description, url: rule.meta.docs, recommended: rule.meta.defaultSeverity !== 'off' },
      ...(rule.meta.fixable ? { fixable: 'code' as const, hasSuggestions: true } : {}),
      schema: [],
    },
    create(context) {
      const languageId = languageOf(context.filename);
      if (!languageId) return {};
      const sourceCode = context.sourceCode;
      const state = stateOf(sourceCode);
      state.enabled.add(rule.id);
      return {
        Program() {
          state.findings ??= compute(state, sourceCode.text, languageId, sourceCode.parserServices?.esTreeNodeToTSNodeMap?.get(sourceCode.ast));
          if (state.failure && !state.failureReported) {
            state.failureReported = true;
            context.report({ loc: { line: 1, column: 0 }, message: state.failure });
          }
          for (const f of state.findings.get(rule.id) ?? []) {
            const fixes = rule.meta.fixable ? (f.fixes ?? []).filter(applicable) : [];
            const safe = safeFixOf({ ...f, fixes });
            const suggestions = fixes.filter((x) => x !== safe);
            const start = sourceCode.getLocFromIndex(f.range.start);
            const end = sourceCode.getLocFromIndex(f.range.end);
            context.report({
              loc: { start, end },
              message: f.message,
              ...(safe ? { fix: toFixer(safe) } : {}),
              ...(suggestions.length ? { suggest: suggestions.map((x) => ({ desc: x.title, fix: toFixer(x) })) } : {}),
            });
          }
        },
      };
    },
  });

  const rules = Object.fromEntries(allRules.map((r) => [r.id, eslintRule(r)]));
  const plugin = {
    meta: { name: 'eslint-plugin-dynalint', version },
    rules,
    configs: {} as { recommended: Linter.Config },
  };
  plugin.configs.recommended = {
    name: 'dynalint/recommended',
    plugins: { dynalint: plugin },
    rules: Object.fromEntries(allRules.map((r) => [`dynalint/${r.id}`, eslintSeverity(r.meta.defaultSeverity)])),
  };
  return plugin;
}

export { createPlugin };

/** The plugin (`import dynalint from 'eslint-plugin-dynalint'`). */
const plugin = createPlugin(lintWithEngine);
export default plugin;
