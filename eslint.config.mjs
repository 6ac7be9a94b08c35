import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'test/fixtures/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', require: 'readonly', __dirname: 'readonly', module: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly', URL: 'readonly', Buffer: 'readonly', fetch: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only client/ imports vscode.' }] }],
    },
  },
  { files: ['client/**', 'test/vscode/**'], rules: { 'no-restricted-imports': 'off' } },
  // Layers (ARCHITECTURE.md, "Code map"): core/ (the DynamoDB data model and the value model) imports nothing of ours;
  // expression/ and flow/ stand on core/ only; extract/ never reads rules. Imports go down, never up.
  ...[
    ['server/src/core/**', ['../*', '!../core']],
    ['server/src/expression/**', ['../*', '!../core', '!../expression']],
    ['server/src/flow/**', ['../*', '!../core', '!../flow']],
    ['server/src/extract/**', ['../rules', '../rules/*', '../fix', '../fix/*', '../lsp', '../lsp/*', '../service', '../cli', '../cli/*']],
  ].map(([dir, group]) => ({
    files: [dir],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'Only client/ imports vscode.' }], patterns: [{ group, message: 'Imports go down the layers (ARCHITECTURE.md, Code map).' }] },
      ],
    },
  })),
  // A spread passes one argument per element: past ~120,000 elements (a long list literal, a big constant spread into
  // a request) the call throws a RangeError ("Maximum call stack size exceeded") and the file loses every finding.
  {
    files: ['server/src/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='push'] > SpreadElement",
          message: 'push(...xs) throws a RangeError past ~120,000 elements (one argument each): loop (for (const x of xs) a.push(x)).',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(min|max)$/] > SpreadElement",
          message: 'Math.min/max(...xs) throws a RangeError past ~120,000 elements (one argument each): loop or reduce.',
        },
      ],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
