/**
 * Language server latency as users feel it: time from sending `didChange` to receiving the diagnostics of that
 * version (over stdio, JSON-RPC included) on a 5,000-line TypeScript file, as a ratio to the bare
 * `ts.createSourceFile` parse of the same file in this run; and the same for the last edit of a burst of 200 edits
 * sent back to back (coalescing keeps it near one lint, not 200).
 */
import ts from 'typescript';
import { LspClient } from '../../test/support/lsp-client';
import type { BenchRow } from '../bench';
import { median, timeMs } from '../bench';
import { tsFile } from './extract';

const EDITS = 15;
const BURST = 200;
const BURSTS = 5;

export async function run(): Promise<BenchRow[]> {
  const text = tsFile(5000);
  // The baseline is measured interleaved with our runs (this machine's load varies): one parse before each sample.
  const parseOnce = () => timeMs(() => ts.createSourceFile('bench.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS), 1, 0);
  const parses: number[] = [];
  timeMs(() => parseOnce(), 3, 0);
  const client = await LspClient.start();
  try {
    const uri = 'file:///bench/lsp-5000.ts';
    await client.open(uri, 'typescript', text);
    const first = await client.diagnosticsFor(uri, 1, 120_000);
    // Type inside an expression in the middle of the file: insert a space, then delete it (the text alternates).
    const at = text.indexOf("'ADD likes :one'", text.length >> 1) + 4;
    const typeAt = (i: number) => (client.text(uri)[at] === ' ' && i % 2 === 1 ? client.edit(uri, at, at + 1, '') : client.edit(uri, at, at, ' '));

    const single: number[] = [];
    for (let i = 0; i < EDITS + 3; i++) {
      if (i >= 3) parses.push(parseOnce());
      const t0 = process.hrtime.bigint();
      const v = await typeAt(i);
      await client.diagnosticsFor(uri, v, 120_000);
      if (i >= 3) single.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const perEdit = median(single);

    // Bursts: 200 edits sent back to back; the latency that matters is from the last one to its diagnostics.
    const afterLast: number[] = [];
    const totals: number[] = [];
    let lints = 0;
    for (let b = 0; b < BURSTS; b++) {
      parses.push(parseOnce());
      const publishedBefore = client.published.length;
      const t0 = process.hrtime.bigint();
      let last = 0;
      let lastSent = t0;
      for (let i = 0; i < BURST; i++) {
        last = await typeAt(i);
        lastSent = process.hrtime.bigint();
      }
      await client.diagnosticsFor(uri, last, 300_000);
      const end = process.hrtime.bigint();
      afterLast.push(Number(end - lastSent) / 1e6);
      totals.push(Number(end - t0) / 1e6);
      lints += client.published.slice(publishedBefore).filter((p) => p.uri === uri).length;
    }
    const burst = median(afterLast);
    const parse = median(parses);

    return [
      {
        area: 'lsp',
        name: `didChange -> diagnostics, 5,000-line TS (${first.length} findings)`,
        ours: `${perEdit.toFixed(1)} ms`,
        baseline: `ts.createSourceFile ${parse.toFixed(1)} ms`,
        ratio: perEdit / parse,
        note: 'aim <= 1.5',
      },
      {
        area: 'lsp',
        name: `burst of ${BURST} edits: last didChange -> its diagnostics`,
        ours: `${burst.toFixed(1)} ms`,
        baseline: `ts.createSourceFile ${parse.toFixed(1)} ms`,
        ratio: burst / parse,
        note: `median of ${BURSTS} bursts; ${(lints / BURSTS).toFixed(1)} lints published per ${BURST} versions; a burst takes ${median(totals).toFixed(0)} ms`,
      },
    ];
  } finally {
    await client.stop();
  }
}
