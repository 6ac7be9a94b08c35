/**
 * The TypeScript compiler of dist/eslint-plugin.js (esbuild.mjs resolves the extractor's `typescript` to this file in
 * that bundle only): the project's own when it has one of 5.0 or later, which is the one typescript-eslint parses with
 * (its ASTs are then reused, see plugin.ts, and ESLint's process loads one compiler, not two); else the copy next to
 * the bundle (dist/typescript.js: a project linting with espree and no TypeScript installed).
 */
function load(): unknown {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ts = require('typescript') as { versionMajorMinor?: string };
    if (Number(ts.versionMajorMinor?.split('.')[0]) >= 5) return ts;
  } catch {
    /* no TypeScript in the project */
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./typescript.js');
}
module.exports = load();
