// `eslint-plugin-dynalint`, the ESLint plugin as its own npm package, assembled from the build (node esbuild.mjs) into
// out/eslint-plugin-dynalint/ (then `npm publish out/eslint-plugin-dynalint`): dist/eslint-plugin.js as index.js, the
// notices, README and LICENSE. Its TypeScript compiler is the project's (a dependency: npm shares the project's copy
// when the versions agree), which typescript-eslint parses with, so no compiler is shipped in it.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'out', 'eslint-plugin-dynalint');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(join(root, 'dist', 'eslint-plugin.js'), join(out, 'index.js'));
cpSync(join(root, 'dist', 'ThirdPartyNotices.txt'), join(out, 'ThirdPartyNotices.txt'));
cpSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
writeFileSync(
  join(out, 'README.md'),
  [
    '# eslint-plugin-dynalint',
    '',
    'Dynalint\'s DynamoDB request rules as an ESLint 9 plugin: every rule of [Dynalint](' + pkg.homepage + ') as `dynalint/<id>`.',
    '',
    '```js',
    '// eslint.config.mjs',
    "import dynalint from 'eslint-plugin-dynalint';",
    'export default [dynalint.configs.recommended];',
    '```',
    '',
  ].join('\n'),
);
writeFileSync(
  join(out, 'package.json'),
  JSON.stringify(
    {
      name: 'eslint-plugin-dynalint',
      version: pkg.version,
      description: 'ESLint rules for DynamoDB requests in TypeScript/JavaScript: counters, transactions, expressions (Dynalint).',
      license: pkg.license,
      repository: pkg.repository,
      homepage: pkg.homepage,
      keywords: ['eslint', 'eslintplugin', 'eslint-plugin', 'dynamodb', 'aws'],
      main: 'index.js',
      files: ['index.js', 'ThirdPartyNotices.txt'],
      engines: { node: pkg.engines.node },
      peerDependencies: { eslint: '>=9' },
      dependencies: { typescript: '>=5.0' },
    },
    null,
    2,
  ) + '\n',
);
console.log(`eslint-plugin-dynalint ${pkg.version} in ${out}`);
