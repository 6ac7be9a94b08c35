// Bundles as Latin-1 sources (esbuild.mjs): see `latin1Comments`.
import * as esbuild from 'esbuild';

/**
 * V8 keeps a script's source for as long as the script lives, as a one-byte string when every character is Latin-1 and
 * as a two-byte one (twice the size) otherwise. esbuild escapes non-ASCII characters in strings and identifiers, not in
 * the comments it keeps (nor in regular expression literals and raw templates).
 *
 * Returns `code` with every UTF-16 unit above U+00FF replaced by '?' (same length: a source map's columns still hold)
 * when only comments change — the code and its rewrite minify (whitespace, which drops comments) to the same code.
 * Otherwise returns `code` unchanged and calls `warn`: the bundle works as written and only costs the two-byte source.
 */
export function latin1Comments(code, file, warn = (m) => console.warn(m)) {
  const latin1 = code.replace(/[\u0100-\uffff]/g, '?');
  if (latin1 === code) return code;
  const strip = (c) => esbuild.transformSync(c, { minifyWhitespace: true, format: 'cjs', target: 'node20', legalComments: 'none' }).code;
  if (strip(latin1) !== strip(code)) {
    warn(`latin1-bundle: ${file} keeps a character above U+00FF outside a comment (a regular expression or a raw template?); left as built, its source is held as a two-byte string`);
    return code;
  }
  return latin1;
}
