/**
 * The CLI's table index: definitions under the repository root (the folder holding `.git` above the working
 * directory, else the working directory) and under every linted file's folder outside it; definitions that could not
 * be read become findings of their own files when those are linted (rule `table-definition`, cli/lint-file.ts).
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TableIndex } from '../tables';
import { scanTables } from '../tables/scan';
import type { LintJob } from './lint-file';

function repositoryRoot(dir: string): string {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return resolve(dir);
  }
}

/** Index the repository (and linted folders outside it); what was not read is said through `warn`. */
export async function treeTables(cwd: string, files: string[], warn: (message: string) => void): Promise<TableIndex> {
  const root = repositoryRoot(cwd);
  const roots = [root];
  for (const f of files) {
    const d = dirname(f);
    if (relative(root, d).startsWith('..') && !roots.some((r) => !relative(r, d).startsWith('..'))) roots.push(d);
  }
  const { index, report } = await scanTables(roots);
  for (const m of report.notRead) warn(m);
  return index;
}

/** The table index's problems (definitions it could not read) by absolute file path, for the lint jobs of those files. */
export function definitionProblemsByPath(index: TableIndex): Map<string, NonNullable<LintJob['definitionProblems']> & { label: string }[]> {
  const out = new Map<string, NonNullable<LintJob['definitionProblems']> & { label: string }[]>();
  for (const p of index.problems()) {
    const path = resolve(fileURLToPath(p.location.uri));
    out.set(path, [...(out.get(path) ?? []), { message: p.message, range: p.location.range, label: p.location.label }]);
  }
  return out;
}
