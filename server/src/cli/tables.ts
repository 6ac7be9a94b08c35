/**
 * The CLI's table index: definitions under the repository root (the folder holding `.git` above the working
 * directory, else the working directory) and under every linted file's folder outside it; definitions that could not
 * be read become information findings in their own files (rule `table-definition`).
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TableIndex } from '../tables';
import { scanTables } from '../tables/scan';
import type { FileReport, Position } from './format';
import { TABLE_DEFINITION } from '../rules/table/table-definition';

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

/** One report per file whose table definitions could not be read (information findings). */
export function tableProblemReports(index: TableIndex, cwd: string): FileReport[] {
  const byUri = new Map<string, ReturnType<TableIndex['problems']>>();
  for (const p of index.problems()) byUri.set(p.location.uri, [...(byUri.get(p.location.uri) ?? []), p]);
  const out: FileReport[] = [];
  for (const [uri, problems] of byUri) {
    const positions = new Map<number, Position>();
    const findings = problems.map((p, i) => {
      positions.set(2 * i, p.location.range.start);
      positions.set(2 * i + 1, p.location.range.end);
      return { ruleId: TABLE_DEFINITION, severity: 'info' as const, message: p.message, range: { start: 2 * i, end: 2 * i + 1 } };
    });
    const path = fileURLToPath(uri);
    const rel = relative(cwd, path);
    out.push({ file: (rel && !rel.startsWith('..') ? rel : path).split(sep).join('/'), findings, positions });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}
