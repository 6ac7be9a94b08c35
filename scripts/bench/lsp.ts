/**
 * Language server latency as users feel it: time from sending `didChange` to receiving the diagnostics of that
 * version (over stdio, JSON-RPC included; the clock starts when the notification is handed to the connection, after
 * the test client has updated its own copy of the text: `LspClient.lastChangeSentAt`) on a 5,000-line TypeScript file, as a ratio to the bare
 * `ts.createSourceFile` parse of the same file in this run; and the same for the last edit of a burst of 200 edits
 * sent back to back (coalescing keeps it near one lint, not 200). Per statement shape of TypeScript, and in the
 * 5,000-line Python file against a bare tree-sitter parse of its text.
 */
import ts from 'typescript';
import { Language, Parser } from 'web-tree-sitter';
import { LspClient } from '../../test/support/lsp-client';
import { initParsers } from '../../server/src/extract';
import { type ServerStats, StatsRequest } from '../../server/src/protocol/lsp';
import type { BenchRow } from '../bench';
import { median, timeMs } from '../bench';
import { TS_SHAPE_EDITS, middle, pyFile, tsFile, tsShapesFile } from './extract';

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
      const v = await typeAt(i);
      const sent = client.lastChangeSentAt;
      await client.diagnosticsFor(uri, v, 120_000);
      if (i >= 3) single.push(Number(process.hrtime.bigint() - sent) / 1e6);
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
        lastSent = client.lastChangeSentAt;
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
      ...(await shapeRows()),
      ...(await pythonRows()),
      ...(await memoryRows()),
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

/** didChange -> diagnostics for a one-character edit inside each statement shape, ratio to a bare TS parse of the text. */
/** Unmeasured edits per shape before any shape is measured (an even number: the text ends as it began). */
const SHAPE_WARM_UP = 20;

export async function shapeRows(): Promise<BenchRow[]> {
  const text = tsShapesFile(5000);
  const parseOnce = () => timeMs(() => ts.createSourceFile('bench.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS), 1, 0);
  timeMs(() => parseOnce(), 3, 0);
  const client = await LspClient.start();
  const rows: BenchRow[] = [];
  try {
    const uri = 'file:///bench/lsp-shapes-5000.ts';
    await client.open(uri, 'typescript', text);
    await client.diagnosticsFor(uri, 1, 120_000);
    // A warm-up pass over every shape, not measured: V8 is still compiling the per-edit code during a fresh server's
    // first ~30 edits (its compiler threads took 3-12 ms of CPU per edit there), so without it the first shapes in the
    // list paid for the others' warm-up and the rows depended on their order. An editor's server is warm after a few
    // seconds of typing.
    for (const e of TS_SHAPE_EDITS) {
      const at = middle(text, e.needle, e.skip);
      for (let i = 0; i < SHAPE_WARM_UP; i++) {
        const v = await (i % 2 === 0 ? client.edit(uri, at, at, ' ') : client.edit(uri, at, at + 1, ''));
        await client.diagnosticsFor(uri, v, 120_000);
      }
      if (client.text(uri) !== text) throw new Error(`shape warm-up left the text changed (${e.name})`);
    }
    for (const e of TS_SHAPE_EDITS) {
      const at = middle(text, e.needle, e.skip);
      const parses: number[] = [];
      const times: number[] = [];
      for (let i = 0; i < EDITS + 3; i++) {
        if (i >= 3) parses.push(parseOnce());
        // Insert a space, then delete it: the text alternates.
        const v = await (i % 2 === 0 ? client.edit(uri, at, at, ' ') : client.edit(uri, at, at + 1, ''));
        const sent = client.lastChangeSentAt;
        await client.diagnosticsFor(uri, v, 120_000);
        if (i >= 3) times.push(Number(process.hrtime.bigint() - sent) / 1e6);
      }
      if (client.text(uri) !== text) await client.edit(uri, at, at + 1, '');
      const ours = median(times);
      const parse = median(parses);
      rows.push({ area: 'lsp', name: `didChange -> diagnostics, edit ${e.name}`, ours: `${ours.toFixed(1)} ms`, baseline: `ts.createSourceFile ${parse.toFixed(1)} ms`, ratio: ours / parse, note: `aim <= 0.25; after a warm-up pass of ${SHAPE_WARM_UP} edits per shape` });
    }
  } finally {
    await client.stop();
  }
  return rows;
}

/** One-character edits in the 5,000-line Python bench file, ratio to a bare tree-sitter parse of the same text. */
const PY_EDITS: { name: string; needle: string }[] = [
  { name: 'inside a function', needle: '    kw =' },
  { name: "inside a request's expression string", needle: '"ADD' },
];

export async function pythonRows(): Promise<BenchRow[]> {
  const text = pyFile(5000);
  await initParsers();
  const parser = new Parser();
  parser.setLanguage(await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm')));
  const parseOnce = () => timeMs(() => parser.parse(text)?.delete(), 1, 0);
  timeMs(() => parseOnce(), 3, 0);
  const client = await LspClient.start();
  const rows: BenchRow[] = [];
  try {
    const uri = 'file:///bench/lsp-5000.py';
    await client.open(uri, 'python', text);
    await client.diagnosticsFor(uri, 1, 120_000);
    for (const e of PY_EDITS) {
      const at = middle(text, e.needle);
      const parses: number[] = [];
      const times: number[] = [];
      for (let i = 0; i < EDITS + 3; i++) {
        if (i >= 3) parses.push(parseOnce());
        const v = await (i % 2 === 0 ? client.edit(uri, at, at, ' ') : client.edit(uri, at, at + 1, ''));
        const sent = client.lastChangeSentAt;
        await client.diagnosticsFor(uri, v, 120_000);
        if (i >= 3) times.push(Number(process.hrtime.bigint() - sent) / 1e6);
      }
      if (client.text(uri) !== text) await client.edit(uri, at, at + 1, '');
      const ours = median(times);
      const parse = median(parses);
      rows.push({ area: 'lsp', name: `didChange -> diagnostics, 5,000-line Python, edit ${e.name}`, ours: `${ours.toFixed(1)} ms`, baseline: `tree-sitter parse ${parse.toFixed(1)} ms`, ratio: ours / parse });
    }
  } finally {
    await client.stop();
    parser.delete();
  }
  return rows;
}

/**
 * Poll `dynalint/stats` (every 250 ms: allocates little) until the server's idle trim has finished once more than it
 * had: its scavenges, then its reducer step (nudges, then the watch of V8's memory-reducing GCs) or its skip. Deadline
 * 150 s (scavenges up to ~31 s, then 30 s of quiet, 1.2 s of nudges and a watch of up to 20 s; V8's reducer checks
 * every 8 s): `timedOut` then. `first`: the stats when it started (the counts in them are running totals).
 */
async function afterIdleTrim(client: LspClient): Promise<{ stats: ServerStats; first: ServerStats; waitedMs: number; timedOut: boolean; scavenged?: { rss: number; ms: number } }> {
  const stats = () => client.connection.sendRequest<ServerStats>(StatsRequest, {});
  const scavenges = (s: ServerStats) => (s.idleTrim ? s.idleTrim.trims + s.idleTrim.givenUp : 0);
  const reducer = (s: ServerStats) => (s.idleTrim ? s.idleTrim.reducer.steps - (s.idleTrim.reducer.watching ? 1 : 0) + s.idleTrim.reducer.skipped : 0);
  const t0 = Date.now();
  const first = await stats();
  let scavenged: { rss: number; ms: number } | undefined;
  for (;;) {
    const s = await stats();
    if (!scavenged && scavenges(s) > scavenges(first)) scavenged = { rss: s.rssBytes, ms: Date.now() - t0 };
    if (reducer(s) > reducer(first) || (scavenged && !s.idleTrim?.reducer.enabled)) return { stats: s, first, waitedMs: Date.now() - t0, timedOut: false, scavenged };
    if (Date.now() - t0 > 150_000) return { stats: s, first, waitedMs: Date.now() - t0, timedOut: true, scavenged };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The server's resident memory with one 50,000-line TypeScript document open (analysed), next to an idle server's. */
export async function memoryRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // The steady state: the TypeScript compiler loads from its code cache (io/code-cache.ts), which a server writes
  // after its first TS lint. One small lint first, so the figures do not depend on whether a run before left one.
  const warm = await LspClient.start();
  let compiler = 'compiler: no code cache';
  try {
    await warm.open('file:///bench/warm.ts', 'typescript', tsFile(50));
    await warm.diagnosticsFor('file:///bench/warm.ts', 1, 120_000);
    const c = ((await warm.connection.sendRequest('dynalint/stats', {})) as { codeCache?: { loaded: string; written: boolean }[] }).codeCache?.[0];
    if (c) compiler = c.loaded === 'cache' || c.written ? 'compiler from its code cache' : 'compiler compiled from source (cache not writable)';
  } finally {
    await warm.stop();
  }
  for (const [name, text] of [
    ['tsFile', tsFile(50_000)],
    ['statement shapes', tsShapesFile(50_000)],
  ] as const) {
    // A 50,000-line file is above the default size limit (2 MB): raised, so the document is analysed.
    const client = await LspClient.start({ settings: () => ({ maxFileSize: 16 * 1024 * 1024 }) });
    try {
      const stats = async (collectGarbage = false) => (await client.connection.sendRequest('dynalint/stats', { collectGarbage })) as { rssBytes: number; heapUsedBytes: number };
      const idle = (await stats()).rssBytes;
      const uri = `file:///bench/rss-${name.replace(/ /g, '-')}.ts`;
      await client.open(uri, 'typescript', text);
      await client.diagnosticsFor(uri, 1, 300_000);
      // One edit, so the incremental state (not only the first full extraction) is what is held.
      const at = middle(text, "'ADD likes :");
      await client.diagnosticsFor(uri, await client.edit(uri, at, at, ' '), 300_000);
      const open = (await stats()).rssBytes;
      const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
      rows.push({ area: 'lsp', name: `server RSS, 50,000-line TS open (${name})`, ours: mb(open), baseline: `idle server ${mb(idle)}`, ratio: open / idle, note: `aim <= 150 MB; ${compiler}` });
      // The same server once idle: its idle trim (lsp/idle-trim.ts) runs scavenges until V8 gives back the new space
      // the lint grew, then (30 s of quiet later) nudges V8's memory reducer into running its GCs. Polled until the
      // trim reports both, with a deadline: past it, the row reports no figure (the step may not have run).
      const trimmed = await afterIdleTrim(client);
      const it = trimmed.stats.idleTrim;
      const t = it?.last;
      const r = it?.reducer;
      const r0 = trimmed.first.idleTrim?.reducer;
      // Running totals: what happened since the edit.
      const skipped = (r?.skipped ?? 0) - (r0?.skipped ?? 0);
      const nudges = (r?.nudges ?? 0) - (r0?.nudges ?? 0);
      const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      const scav = !t ? 'no scavenges' : `new space ${mb(t.newSpaceBefore)} -> ${mb(t.newSpaceAfter)} after ${t.gcs} scavenges (${it.pausesMs.slice(-t.gcs).map((p) => p.toFixed(1)).join(', ')} ms)${trimmed.scavenged ? `, RSS ${mb(trimmed.scavenged.rss)} at ${sec(trimmed.scavenged.ms)}` : ''}`;
      const red = !r?.enabled
        ? 'no reducer step'
        : skipped
          ? `reducer step skipped (${r.lastSkip ?? 'no reason given'})`
          : r.last && !trimmed.timedOut
            ? `then ${nudges} nudges; V8's memory reducer ran ${r.last.gcs} GC(s)${r.last.gcs ? ` (pauses ${r.last.pausesMs.map((p) => p.toFixed(1)).join(', ')} ms)` : ''}`
            : 'the reducer step did not finish';
      rows.push({
        area: 'lsp',
        name: `server RSS, 50,000-line TS open, idle: when its idle trim has run (${name})${trimmed.timedOut ? ' TIMED OUT' : ''}`,
        ours: trimmed.timedOut ? 'n/a' : mb(trimmed.stats.rssBytes),
        baseline: `right after the edit ${mb(open)}`,
        ratio: trimmed.timedOut ? NaN : trimmed.stats.rssBytes / open,
        note: `aim <= 150 MB; ${trimmed.timedOut ? `timed out after ${sec(trimmed.waitedMs)} (RSS then ${mb(trimmed.stats.rssBytes)})` : `${sec(trimmed.waitedMs)} after the edit`}: ${scav}; ${red}`,
      });
      if (name !== 'tsFile') continue;
      // Edits in 20 different statements: what the server holds must not grow with the versions it has seen.
      const heapBefore = (await stats(true)).heapUsedBytes;
      let from = at;
      for (let i = 0; i < 20; i++) {
        const next = client.text(uri).indexOf("'ADD likes :", from + 20_000) + 4;
        from = next;
        await client.diagnosticsFor(uri, await client.edit(uri, next, next, ' '), 300_000);
      }
      const heapAfter = (await stats(true)).heapUsedBytes;
      rows.push({ area: 'lsp', name: `server heap after GC, after 20 more edits in different statements (${name})`, ours: mb(heapAfter), baseline: `after the first edit ${mb(heapBefore)}`, ratio: heapAfter / heapBefore, note: 'aim ~1: nothing kept per version' });
    } finally {
      await client.stop();
    }
  }
  return rows;
}
