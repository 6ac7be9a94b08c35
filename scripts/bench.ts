/**
 * `npm run bench`: every figure is measured in this run, next to a floor or a peer measured in the same run,
 * and printed as a ratio. Each area contributes a module under scripts/bench/ exporting `run(): Promise<BenchRow[]>`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchRow {
  area: string;
  name: string;
  /** Our figure, with its unit. */
  ours: string;
  /** The floor or peer it is compared with, with its unit. */
  baseline: string;
  /** ours / baseline (or as described in `note`). */
  ratio: number;
  note?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall time in ms of `fn` over `runs` runs after `warmup` runs. */
export function timeMs(fn: () => unknown, runs = 15, warmup = 3): number {
  for (let i = 0; i < warmup; i++) fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(xs);
}

async function main(): Promise<void> {
  const dir = join(__dirname, 'bench');
  const only = process.argv[2];
  const rows: BenchRow[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    if (only && !f.startsWith(only)) continue;
    const mod = (await import(join(dir, f))) as { run: () => Promise<BenchRow[]> };
    rows.push(...(await mod.run()));
  }
  const cols = [
    ['area', (r: BenchRow) => r.area],
    ['measure', (r: BenchRow) => r.name],
    ['ours', (r: BenchRow) => r.ours],
    ['baseline', (r: BenchRow) => r.baseline],
  ] as const;
  const widths = cols.map(([h, get]) => Math.max(h.length, ...rows.map((r) => get(r).length)) + 2);
  console.log(cols.map(([h], i) => h.padEnd(widths[i])).join('') + 'ratio');
  for (const r of rows) {
    console.log(cols.map(([, get], i) => get(r).padEnd(widths[i])).join('') + r.ratio.toFixed(2) + (r.note ? `  (${r.note})` : ''));
  }
}

if (require.main === module) {
  void main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
