/**
 * What the ESLint plugin (dist/eslint-plugin.js) adds to an ESLint run: ESLint with typescript-eslint's recommended
 * rules (no type information) on a large tree, as a process, with and without `dynalint.configs.recommended`, in this
 * run, compared in CPU time (wall time on this shared 2-core machine varies by more than the difference measured). The tree is the CLI bench's: copies of our own sources, tests and fixtures, so DynamoDB requests are far denser
 * than in application code (most files of an application hold none and cost the plugin a substring scan).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from '../bench';
import { median } from '../bench';
import { makeTree } from './cli';

const ROOT = resolve(__dirname, '../..');
const COPIES = Number(process.env.DYNALINT_BENCH_ESLINT_COPIES ?? 2);
const RUNS = Number(process.env.DYNALINT_BENCH_ESLINT_RUNS ?? 5);

function eslintConfig(withPlugin: boolean): string {
  const url = (id: string) => JSON.stringify(pathToFileURL(require.resolve(id)).href);
  return [
    `import js from ${url('@eslint/js')};`,
    `import tseslint from ${url('typescript-eslint')};`,
    withPlugin ? `import dynalint from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/eslint-plugin.js')).href)};` : '',
    `export default tseslint.config({ files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'] }, js.configs.recommended, ...tseslint.configs.recommended${withPlugin ? ', dynalint.configs.recommended' : ''});`,
  ].join('\n');
}

/** CPU time (user + system, ms) written by the ESLint process itself as it exits: steadier than wall time on a shared machine. */
const CPU_REPORT = `process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeFileSync(process.env.DYNALINT_CPU_OUT, String((u.user + u.system) / 1000)); });`;

function eslintRun(cwd: string, config: string): { ms: number; cpuMs: number; files: number; dynalint: number } {
  const eslint = join(ROOT, 'node_modules/eslint/bin/eslint.js');
  const out = join(cwd, 'cpu.txt');
  const t0 = process.hrtime.bigint();
  const p = spawnSync(process.execPath, ['-r', join(cwd, 'cpu-report.cjs'), eslint, '--no-warn-ignored', '-c', config, '-f', 'json', '.'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, DYNALINT_CPU_OUT: out },
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (p.status === 2) throw new Error(`eslint failed: ${p.stderr}`);
  const results = JSON.parse(p.stdout) as { messages: { ruleId: string | null }[] }[];
  return { ms, cpuMs: Number(readFileSync(out, 'utf8')), files: results.length, dynalint: results.reduce((n, r) => n + r.messages.filter((m) => m.ruleId?.startsWith('dynalint/')).length, 0) };
}

export async function run(): Promise<BenchRow[]> {
  const tree = makeTree(COPIES);
  try {
    const without = join(tree.dir, 'eslint.without.mjs');
    const withPlugin = join(tree.dir, 'eslint.with.mjs');
    writeFileSync(without, eslintConfig(false));
    writeFileSync(withPlugin, eslintConfig(true));
    writeFileSync(join(tree.dir, 'cpu-report.cjs'), CPU_REPORT);
    const ratios: number[] = [];
    const base: number[] = [];
    const ours: number[] = [];
    let files = 0;
    let findings = 0;
    for (let i = 0; i < RUNS; i++) {
      // Interleaved: this machine's load varies, each sample of one is next to a sample of the other.
      const a = eslintRun(tree.dir, without);
      const b = eslintRun(tree.dir, withPlugin);
      if (a.dynalint !== 0 || b.files !== a.files) throw new Error('the two ESLint runs did not lint the same files');
      ratios.push(b.cpuMs / a.cpuMs);
      base.push(a.cpuMs);
      ours.push(b.cpuMs);
      files = b.files;
      findings = b.dynalint;
    }
    const ratio = median(ratios);
    return [
      {
        area: 'eslint',
        name: `ESLint+typescript-eslint on ${files} TS/JS files, + dynalint plugin`,
        ours: `${(median(ours) / 1000).toFixed(1)} s CPU (${findings} dynalint findings)`,
        baseline: `without the plugin ${(median(base) / 1000).toFixed(1)} s CPU`,
        ratio,
        note: `overhead ${((ratio - 1) * 100).toFixed(1)}%: median of ${RUNS} interleaved pairs, CPU time of the ESLint process; load average ${loadavg()[0].toFixed(1)}`,
      },
    ];
  } finally {
    rmSync(tree.dir, { recursive: true, force: true });
  }
}
