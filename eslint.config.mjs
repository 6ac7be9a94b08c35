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
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
