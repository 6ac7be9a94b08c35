// Third-party notices for what the .vsix ships: every package esbuild bundled into the shipped bundles (from their
// metafiles' inputs) and every package file copied next to them (wasm grammars, the TypeScript compiler), each with
// its name, version, license and the text of its license files. Used by esbuild.mjs; the unit test checks the result.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * The package directories an esbuild metafile's inputs come from: `node_modules/@scope/name/...` or
 * `node_modules/name/...`, nested node_modules included (the innermost one names the package).
 * @param {{ inputs: Record<string, unknown> }} metafile
 * @param {string} root the directory esbuild ran in
 * @returns {string[]} package directories relative to root, sorted
 */
export function bundledPackageDirs(metafile, root) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const path = input.split('/').join(sep);
    const parts = relative(root, join(root, path)).split(sep);
    const i = parts.lastIndexOf('node_modules');
    if (i < 0) continue;
    const n = parts[i + 1]?.startsWith('@') ? 2 : 1;
    dirs.add(parts.slice(0, i + 1 + n).join('/'));
  }
  return [...dirs].sort();
}

/** The directory of package `name` that holds `file` (a package's `exports` may hide its package.json). */
export function packageDirOf(file, name) {
  let dir = dirname(file);
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj) && JSON.parse(readFileSync(pj, 'utf8')).name === name) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${name} above ${file}`);
    dir = up;
  }
}

const LICENSE_FILE = /^(licen[cs]e|copying|notice)(\..*)?$/i;

/** name, version, license and license texts of one package directory. */
export function packageInfo(root, dir) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const license = typeof pkg.license === 'string' ? pkg.license : pkg.license?.type ?? (Array.isArray(pkg.licenses) ? pkg.licenses.map((l) => l.type).join(' OR ') : 'UNKNOWN');
  const files = readdirSync(join(root, dir))
    .filter((f) => LICENSE_FILE.test(f))
    .sort();
  const texts = files.map((f) => ({ file: f, text: readFileSync(join(root, dir, f), 'utf8').replace(/\r\n/g, '\n').trim() }));
  return { name: pkg.name, version: pkg.version, license, homepage: pkg.homepage ?? pkg.repository?.url ?? pkg.repository, texts };
}

/** The notices text: a header, then one section per package (sorted by name, deduplicated by name@version). */
export function renderNotices(infos, product = 'Dynalint') {
  const seen = new Map();
  for (const i of infos) seen.set(`${i.name}@${i.version}`, i);
  const list = [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  const out = [
    'THIRD-PARTY SOFTWARE NOTICES AND INFORMATION',
    '',
    `${product} ships the following third-party packages, bundled into dist/extension.js, dist/server.js, dist/cli.js`,
    'and dist/eslint-plugin.js or copied next to them. Each is listed with its version, its license and the text of its',
    'license files.',
    '',
    ...list.map((i) => `- ${i.name} ${i.version} (${i.license})`),
    '',
  ];
  for (const i of list) {
    out.push('='.repeat(80), `${i.name} ${i.version}`, `License: ${i.license}`);
    if (i.homepage) out.push(`Source: ${typeof i.homepage === 'string' ? i.homepage : JSON.stringify(i.homepage)}`);
    out.push('-'.repeat(80));
    if (i.texts.length) for (const t of i.texts) out.push(`${t.file}:`, '', t.text, '');
    else out.push(`No license file in the package; its package.json declares: ${i.license}.`, '');
  }
  return out.join('\n') + '\n';
}

/**
 * Write the notices for the given metafiles plus copied packages (directories relative to root).
 * @returns {string[]} the package names listed
 */
export function writeNotices(root, metafiles, copiedPackageDirs, outFile) {
  const dirs = new Set([...metafiles.flatMap((m) => bundledPackageDirs(m, root)), ...copiedPackageDirs]);
  const infos = [...dirs].filter((d) => existsSync(join(root, d, 'package.json'))).map((d) => packageInfo(root, d));
  writeFileSync(outFile, renderNotices(infos));
  return infos.map((i) => i.name);
}
