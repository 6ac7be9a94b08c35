/**
 * `dynalint lint` on a large tree, as processes: our CLI (dist/cli.js) with 1 and 2 worker threads against ESLint with
 * typescript-eslint's recommended rules (no type information) on the same tree, in this run. The tree is copies of our
 * own sources, tests and fixtures (TS/JS/JSON/Python with DynamoDB requests in them); ESLint reads the TS/JS files only.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from '../bench';
import { median } from '../bench';

const ROOT = resolve(__dirname, '../..');
const COPIES = Number(process.env.DYNALINT_BENCH_CLI_COPIES ?? 4);
const RUNS = Number(process.env.DYNALINT_BENCH_CLI_RUNS ?? 3);
const SOURCES = ['server/src', 'test/unit', 'test/fixtures', 'examples'];
const LINTED = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|json|py)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) walk(full, out);
    else if (LINTED.test(e.name)) out.push(full);
  }
  return out;
}

/** The tree: COPIES copies of SOURCES; returns its root, file count and bytes. */
export function makeTree(copies = COPIES): { dir: string; files: number; bytes: number } {
  const dir = mkdtempSync(join(tmpdir(), 'dynalint-bench-cli-'));
  let files = 0;
  let bytes = 0;
  for (let k = 0; k < copies; k++) {
    for (const src of SOURCES) {
      for (const f of walk(join(ROOT, src))) {
        const to = join(dir, `copy${k}`, relative(ROOT, f));
        mkdirSync(resolve(to, '..'), { recursive: true });
        cpSync(f, to);
        files++;
        bytes += statSync(f).size;
      }
    }
  }
  return { dir, files, bytes };
}

function wallMs(cmd: string, args: string[], cwd: string): { ms: number; status: number | null; stdout: string; stderr: string } {
  const t0 = process.hrtime.bigint();
  const p = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: p.status, stdout: p.stdout, stderr: p.stderr };
}

export async function run(): Promise<BenchRow[]> {
  const tree = makeTree();
  try {
    const eslintConfig = join(tree.dir, 'eslint.config.mjs');
    writeFileSync(
      eslintConfig,
      [
        `import js from ${JSON.stringify(pathToFileURL(require.resolve('@eslint/js')).href)};`,
        `import tseslint from ${JSON.stringify(pathToFileURL(require.resolve('typescript-eslint')).href)};`,
        `export default tseslint.config({ files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'] }, js.configs.recommended, ...tseslint.configs.recommended);`,
      ].join('\n'),
    );
    const cli = join(ROOT, 'dist/cli.js');
    const eslint = join(ROOT, 'node_modules/eslint/bin/eslint.js');
    const ours = (jobs: number) => wallMs(process.execPath, [cli, 'lint', '.', '--format', 'json', '--jobs', String(jobs)], tree.dir);
    const theirs = () => wallMs(process.execPath, [eslint, '--no-warn-ignored', '-f', 'json', '.'], tree.dir);
    const one: number[] = [];
    const two: number[] = [];
    const es: number[] = [];
    let outputs: [string, string] | undefined;
    let eslintFiles = 0;
    for (let i = 0; i < RUNS; i++) {
      // Interleaved: this machine's load varies, each sample of one is next to a sample of the others.
      const a = ours(1);
      const b = ours(2);
      const e = theirs();
      if (a.status === 2 || b.status === 2) throw new Error(`dynalint lint failed: ${a.stderr}${b.stderr}`);
      if (e.status === 2) throw new Error(`eslint failed: ${e.stderr}`);
      outputs ??= [a.stdout, b.stdout];
      eslintFiles = (JSON.parse(e.stdout) as unknown[]).length;
      one.push(a.ms);
      two.push(b.ms);
      es.push(e.ms);
    }
    if (outputs && outputs[0] !== outputs[1]) throw new Error('dynalint lint: --jobs 1 and --jobs 2 reported differently');
    const perSec = (ms: number) => (tree.files / ms) * 1000;
    const mb = (tree.bytes / 1e6).toFixed(1);
    const [m1, m2, me] = [median(one), median(two), median(es)];
    return [
      {
        area: 'cli',
        name: `lint ${tree.files} files (${mb} MB), --jobs 1`,
        ours: `${perSec(m1).toFixed(0)} files/s (${(m1 / 1000).toFixed(1)} s)`,
        baseline: `ESLint+typescript-eslint ${((eslintFiles / me) * 1000).toFixed(0)} files/s (${(me / 1000).toFixed(1)} s, ${eslintFiles} TS/JS files)`,
        ratio: m1 / me,
        note: 'our wall time / ESLint wall time, whole tree each (ESLint reads the TS/JS files only)',
      },
      {
        area: 'cli',
        name: `lint ${tree.files} files, --jobs 2 vs --jobs 1`,
        ours: `${perSec(m2).toFixed(0)} files/s (${(m2 / 1000).toFixed(1)} s)`,
        baseline: `--jobs 1 ${(m1 / 1000).toFixed(1)} s`,
        ratio: m2 / m1,
        note: `same JSON output; median of ${RUNS}; ${statLoad()}`,
      },
    ];
  } finally {
    rmSync(tree.dir, { recursive: true, force: true });
  }
}

const statLoad = (): string => `load average ${loadavg()[0].toFixed(1)}`;
