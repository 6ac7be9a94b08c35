/**
 * Entry of dist/eslint-plugin.js (the `eslint-plugin-dynalint` package's main): `module.exports` is the plugin itself,
 * so both `import dynalint from 'eslint-plugin-dynalint'` (Node gives an ES module a CommonJS module's exports as its
 * default) and `require('eslint-plugin-dynalint')` get it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { default: plugin } = require('./plugin') as typeof import('./plugin');
module.exports = plugin;
