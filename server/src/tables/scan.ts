/**
 * Building the index from files: walk folders for candidate files (templates, Terraform, CDK code, serverless.yml,
 * .dynalintrc.json), a cheap `includes` prefilter before any parse, bounded by file count and size, and everything
 * not read said (never skipped in silence). Used by the CLI and the language server alike.
 */
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TableIndex } from './index';
import { TableFileKind, ensureTableParsers, extractTables, mayDefineTables, tableFileKind } from './extract';
import type { FileTables } from './model';

/** Folders never entered: dependencies, VCS, and build outputs that copy the sources' definitions (cdk.out...). */
export const SKIPPED_DIRS = new Set(['node_modules', '.git', 'cdk.out', '.serverless', '.aws-sam', '.terraform', '.venv', 'venv', '__pycache__', 'dist', 'build', 'out', 'coverage', '.next']);

export interface ScanLimits {
  /** Files looked at (by name) before the walk stops. Default 50,000. */
  maxFiles?: number;
  /** Files larger than this are not read for tables (and are reported). Default 2 MB, as for linting. */
  maxFileSize?: number;
}

export interface ScanReport {
  /** Files whose names made them candidates. */
  candidates: number;
  /** Candidates that passed the text prefilter and were parsed. */
  parsed: number;
  tables: number;
  /** What was not read, and why (one line each). */
  notRead: string[];
  durationMs: number;
}

/** The candidate files under `root` (names only; nothing read). */
export function candidateFiles(root: string, limits: ScanLimits = {}): { files: string[]; truncated: boolean } {
  const max = limits.maxFiles ?? 50_000;
  const files: string[] = [];
  let seen = 0;
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !(e.name.startsWith('.') && e.name !== '.dynalint')) stack.push(join(dir, e.name));
        continue;
      }
      if (!e.isFile()) continue;
      if (++seen > max) return { files, truncated: true };
      if (tableFileKind(e.name)) files.push(join(dir, e.name));
    }
  }
  return { files, truncated: false };
}

/** Read at most `max` bytes of a file as UTF-8 (undefined when larger or unreadable). */
function readSmall(path: string, max: number): { text?: string; size: number } {
  try {
    const size = statSync(path).size;
    if (size > max) return { size };
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(size);
      let off = 0;
      while (off < size) {
        const n = readSync(fd, buf, off, size - off, off);
        if (n <= 0) break;
        off += n;
      }
      return { text: buf.toString('utf8', 0, off), size };
    } finally {
      closeSync(fd);
    }
  } catch {
    return { size: -1 };
  }
}

/** Facts of one file on disk (`label` relative to `root`); undefined when it defines nothing (or cannot be read). */
export async function tablesOfFile(path: string, root: string, maxFileSize = 2 * 1024 * 1024, text?: string): Promise<FileTables | { notRead: string } | undefined> {
  const kind = tableFileKind(path);
  if (!kind) return undefined;
  let body = text;
  if (body === undefined) {
    const r = readSmall(path, maxFileSize);
    if (r.text === undefined) return r.size > maxFileSize ? { notRead: `${label(path, root)}: not read for table definitions (${r.size} bytes > ${maxFileSize})` } : undefined;
    body = r.text;
  }
  if (!mayDefineTables(kind, body)) return undefined;
  await ensureTableParsers(kind);
  return extractTables(pathToFileURL(path).href, label(path, root), body, kind);
}

export function label(path: string, root: string): string {
  const rel = relative(root, path);
  return rel && !rel.startsWith('..') ? rel.split(sep).join('/') : path.split(sep).join('/');
}

/** Index every candidate file under the roots (each file once). */
export async function scanTables(roots: string[], index: TableIndex = new TableIndex(), limits: ScanLimits = {}): Promise<{ index: TableIndex; report: ScanReport }> {
  const t0 = performance.now();
  const report: ScanReport = { candidates: 0, parsed: 0, tables: 0, notRead: [], durationMs: 0 };
  const done = new Set<string>();
  for (const root of roots) {
    const { files, truncated } = candidateFiles(root, limits);
    if (truncated) report.notRead.push(`${root}: stopped looking for table definitions after ${limits.maxFiles ?? 50_000} files`);
    for (const f of files) {
      if (done.has(f)) continue;
      done.add(f);
      report.candidates++;
      const facts = await tablesOfFile(f, root, limits.maxFileSize);
      if (!facts) continue;
      if ('notRead' in facts) {
        report.notRead.push(facts.notRead);
        continue;
      }
      report.parsed++;
      report.tables += facts.tables.length;
      index.setFile(facts);
    }
  }
  report.durationMs = performance.now() - t0;
  return { index, report };
}

export type { TableFileKind };
