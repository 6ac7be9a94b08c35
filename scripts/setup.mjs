// Installs what the test tiers and the demo need and this machine lacks, once: Java 17+ (DynamoDB Local), Neovim (the
// editors tier), Chromium (browser tests) and code-server (the VS Code tiers, via scripts/install-code-server.sh).
// One line per thing installed; nothing when all is present. Where it cannot install (not root, no passwordless sudo,
// no apt-get) it prints one line saying what to run and exits 1, before any test runs.
//   node scripts/setup.mjs [tier|demo ...]     (no argument: everything `npm test` runs)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, onPath } from './chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CODE_SERVER_VERSION = '4.99.4';
const CODE_SERVER_OK = join(root, '.vscode-test', 'code-server', '.ok');

/** What each tier (and the demo) needs from the machine. */
const NEEDS = {
  differential: ['java'],
  reconcile: ['java', 'chromium'],
  editors: ['nvim'],
  vscode: ['java', 'chromium', 'code-server'],
  vsix: ['java', 'chromium', 'code-server'],
  demo: ['java'],
};
const ALL_TIERS = ['check', 'unit', 'differential', 'lsp', 'editors', 'reconcile', 'vscode', 'vsix'];

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: 'utf8', ...opts });
}

/** The major version of the `java` on the PATH, or 0 when there is none. */
function javaMajor() {
  const r = run('java', ['-version']);
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${r.stderr ?? ''}${r.stdout ?? ''}`);
  if (r.error || !m) return 0;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

/** Is a Debian package installed? */
const dpkgHas = (p) => run('dpkg-query', ['-W', '-f=${Status}', p]).stdout?.includes('install ok installed') ?? false;

/** Apt packages the code-server install builds with (native modules: kerberos, node-pty...) and copies (rg). */
function codeServerPackages() {
  const need = ['libkrb5-dev', 'pkg-config'].filter((p) => !dpkgHas(p));
  if (!onPath('rg')) need.push('ripgrep');
  if (!onPath('python3')) need.push('python3');
  if (!onPath('make')) need.push('make');
  if (!onPath('g++')) need.push('g++');
  return need;
}

/** What is missing for `wanted` (things from NEEDS), each with the apt packages it takes. */
function missing(wanted) {
  const out = [];
  if (wanted.has('java') && javaMajor() < 17) out.push({ what: 'Java 17 (for DynamoDB Local)', apt: ['java'] });
  if (wanted.has('nvim') && !onPath('nvim')) out.push({ what: 'Neovim (the editors tier)', apt: ['neovim'] });
  if (wanted.has('chromium') && !findChromium()) out.push({ what: 'Chromium (the browser tests)', apt: ['chromium'] });
  if (wanted.has('code-server') && !existsSync(CODE_SERVER_OK)) {
    out.push({ what: `code-server ${CODE_SERVER_VERSION} into .vscode-test/ (once, ~3 min)`, apt: codeServerPackages(), codeServer: true });
  }
  return out;
}

/** `sudo -n` when not root and sudo works without a password; '' as root; undefined when neither. */
function privilege() {
  if (process.getuid?.() === 0) return [];
  if (onPath('sudo') && run('sudo', ['-n', 'true']).status === 0) return ['sudo', '-n'];
  return undefined;
}

/** The JRE package this Debian has: openjdk-17 where it exists (bookworm), else the default JRE (17 or newer). */
function javaPackage() {
  const r = run('apt-cache', ['policy', 'openjdk-17-jre-headless']);
  return /Candidate: (?!\(none\))/.test(r.stdout ?? '') ? 'openjdk-17-jre-headless' : 'default-jre-headless';
}

function fail(line) {
  console.error(line);
  process.exit(1);
}

export function setup(targets) {
  const tiers = targets.length ? targets : ALL_TIERS;
  const wanted = new Set(tiers.flatMap((t) => NEEDS[t] ?? []));
  if (wanted.has('chromium') && process.env.CHROMIUM_PATH && !findChromium()) {
    fail(`setup: CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable file: fix it or unset it`);
  }
  const todo = missing(wanted);
  if (!todo.length) return;
  const aptNames = [...new Set(todo.flatMap((t) => t.apt))].map((p) => (p === 'java' ? 'openjdk-17-jre-headless' : p));
  const sudo = privilege();
  if (sudo === undefined || !onPath('apt-get')) {
    const pre = process.getuid?.() === 0 ? '' : 'sudo ';
    const steps = [];
    if (aptNames.length) steps.push(`${pre}apt-get install -y ${aptNames.join(' ')}`);
    if (todo.some((t) => t.codeServer)) steps.push(`${pre}bash scripts/install-code-server.sh`);
    fail(
      `setup: missing ${todo.map((t) => t.what.replace(/ \(.*/, '')).join(', ')} and cannot install it here (${sudo === undefined ? 'not root, no passwordless sudo' : 'no apt-get'}): run \`${steps.join(' && ')}\`, then run this again`,
    );
  }
  const asRoot = (cmd, args, opts = {}) => (sudo.length ? run(sudo[0], [...sudo.slice(1), cmd, ...args], opts) : run(cmd, args, opts));
  for (const t of todo) console.log(`setup: installing ${t.what}`);
  if (aptNames.length) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = asRoot('apt-get', ['update', '-qq'], { env });
    if (update.status !== 0) fail(`setup: apt-get update failed: ${(update.stderr || update.stdout).trim().split('\n').pop()}`);
    const packages = aptNames.map((p) => (p === 'openjdk-17-jre-headless' ? javaPackage() : p));
    const r = asRoot('apt-get', ['install', '-y', '-qq', ...packages], { env });
    if (r.status !== 0) fail(`setup: apt-get install ${packages.join(' ')} failed: ${(r.stderr || r.stdout).trim().split('\n').pop()}`);
  }
  if (todo.some((t) => t.codeServer)) {
    const r = run('bash', [join(root, 'scripts', 'install-code-server.sh')], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, SUDO: sudo.join(' ') } });
    if (r.status !== 0) fail(`setup: installing code-server failed (exit ${r.status}); its output is above`);
  }
  const left = missing(wanted);
  if (left.length) fail(`setup: still missing after installing: ${left.map((t) => t.what).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) setup(process.argv.slice(2));
