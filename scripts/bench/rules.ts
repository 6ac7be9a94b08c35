/**
 * The rules on the 5,000-line TypeScript bench file (`tsFile`, ~1,000 requests): every rule over every request (as
 * the CLI runs them), per rule, and through the language service's rule cache after a one-character edit (only the
 * edited function's requests recomputed), each against a bare `ts.createSourceFile` parse of the same text.
 */
import ts from 'typescript';
import { createDocumentExtractor } from '../../server/src/extract';
import { runRules } from '../../server/src/rules';
import { RuleCache } from '../../server/src/rules/incremental';
import { TableIndex } from '../../server/src/tables';
import type { BenchRow } from '../bench';
import { median, timeMs } from '../bench';
import { tsFile } from './extract';

const RUNS = 15;

export async function run(): Promise<BenchRow[]> {
  const text = tsFile(5000);
  const parse = timeMs(() => ts.createSourceFile('bench.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS), 15, 3);
  const tables = new TableIndex();
  const at = text.indexOf("'ADD likes :one'", text.length >> 1) + 4;
  const edited = text.slice(0, at) + ' ' + text.slice(at);
  const ms = (x: number) => `${x.toFixed(1)} ms`;

  // Every rule over every request, no cache: per rule (the time of its `check`, expression rules sharing one validation).
  const ex = createDocumentExtractor('typescript');
  let sites = ex.update(text).sites;
  const totals: number[] = [];
  const perRule = new Map<string, number[]>();
  for (let i = 0; i < RUNS + 3; i++) {
    const cur = i % 2 ? edited : text;
    sites = ex.update(cur).sites;
    const timings = new Map<string, number>();
    const t0 = performance.now();
    runRules(cur, 'typescript', sites, { tables, timings });
    if (i < 3) continue;
    totals.push(performance.now() - t0);
    for (const [id, t] of timings) perRule.set(id, [...(perRule.get(id) ?? []), t]);
  }
  const full = median(totals);
  const top = [...perRule].map(([id, xs]) => [id, median(xs)] as const).sort((a, b) => b[1] - a[1]).slice(0, 6);

  // Through the service's cache: the edit alternates, the document extractor hands back the untouched sites.
  const cache = new RuleCache();
  const doc = createDocumentExtractor('typescript');
  let prev: string | undefined;
  const step = (cur: string) => {
    cache.edited(prev, cur);
    prev = cur;
    return doc.update(cur).sites;
  };
  runRules(text, 'typescript', step(text), { tables, cache });
  const incremental: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const cur = i % 2 ? text : edited;
    const s = step(cur);
    const t0 = performance.now();
    runRules(cur, 'typescript', s, { tables, cache });
    if (i >= 3) incremental.push(performance.now() - t0);
  }
  const inc = median(incremental);

  return [
    { area: 'rules', name: `every rule, every request, 5,000-line TS (${sites.length} requests)`, ours: ms(full), baseline: `ts.createSourceFile ${ms(parse)}`, ratio: full / parse, note: `slowest: ${top.map(([id, t]) => `${id} ${t.toFixed(1)}`).join(', ')}` },
    { area: 'rules', name: 'after a 1-char edit, through the rule cache', ours: ms(inc), baseline: `ts.createSourceFile ${ms(parse)}`, ratio: inc / parse, note: `${cache.stats.computed} sites computed, ${cache.stats.reused} reused` },
  ];
}
