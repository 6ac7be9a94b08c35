/**
 * The tree-sitter grammars the table readers use (Terraform, Python), loaded on first need: web-tree-sitter's runtime
 * and each grammar's WASM, next to the bundle (dist/) or from node_modules (tests, tsx).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';

function wasmPath(file: string, fromModules: () => string): string {
  const here = typeof __dirname === 'string' ? join(__dirname, file) : undefined;
  return here && existsSync(here) ? here : fromModules();
}
/** Resolution through node_modules at run time (kept opaque to the bundler, which has copied the files to dist/). */
const resolveAtRunTime = (id: string): string => require.resolve(id);

const GRAMMARS = {
  terraform: { file: 'tree-sitter-terraform.wasm', module: '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm' },
  python: { file: 'tree-sitter-python.wasm', module: 'tree-sitter-python/tree-sitter-python.wasm' },
} as const;
export type Grammar = keyof typeof GRAMMARS;

const parsers = new Map<Grammar, Parser>();
const loading = new Map<Grammar, Promise<void>>();
let runtime: Promise<void> | undefined;

/** Load a grammar (idempotent); `parserFor` answers synchronously afterwards. */
export function ensureGrammar(g: Grammar): Promise<void> {
  let p = loading.get(g);
  if (!p) {
    p = (async () => {
      runtime ??= Parser.init({ locateFile: () => wasmPath('tree-sitter.wasm', () => join(resolveAtRunTime('web-tree-sitter').replace(/[\\/][^\\/]+$/, ''), 'tree-sitter.wasm')) });
      await runtime;
      const language = await Language.load(wasmPath(GRAMMARS[g].file, () => resolveAtRunTime(GRAMMARS[g].module)));
      const parser = new Parser();
      parser.setLanguage(language);
      parsers.set(g, parser);
    })();
    loading.set(g, p);
  }
  return p;
}

export function parserFor(g: Grammar): Parser | undefined {
  return parsers.get(g);
}
