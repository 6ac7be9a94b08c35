/**
 * Dynalint's own additions to the LSP, shared by the client and the server (one copy, imported by both).
 * Plain method names and payload types: no dependency on vscode or on the connection.
 */

/** The configuration section the server pulls with `workspace/configuration` (`dynalint.*` settings). */
export const CONFIG_SECTION = 'dynalint';
/** `Diagnostic.source` of every diagnostic. */
export const DIAGNOSTIC_SOURCE = 'dynalint';
/** Code action kind of fix-all (a sub-kind of `source.fixAll`, so "fix all on save" picks it up). */
export const FIX_ALL_KIND = 'source.fixAll.dynalint';

/** One quick fix as it travels in `Diagnostic.data`: edits in LSP line/character ranges of the linted version. */
export interface DiagnosticFixData {
  title: string;
  safe: boolean;
  preferred?: boolean;
  edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[];
}

/** `Diagnostic.data` of every Dynalint diagnostic: written by the rule that found it. */
export interface DiagnosticData {
  ruleId: string;
  /** The document version the diagnostic (and its edits) belong to. */
  version: number;
  fixes: DiagnosticFixData[];
}

/** Server -> client notification after each lint published for a document (drives the status bar). */
export const LintedNotification = 'dynalint/linted';
export interface LintedParams {
  uri: string;
  version: number;
  /** Number of findings published. */
  findings: number;
  /** Wall time of the lint, ms. */
  durationMs: number;
  /** Set when the document was not linted (too large, binary, language disabled). */
  skipped?: string;
  /** Parts of a linted document that were not linted (lines of minified code), one reason each. */
  notLinted?: string[];
}

/** Client -> server request: the rule registry (for "Dynalint: Open rule docs"). */
export const ListRulesRequest = 'dynalint/listRules';
export interface RuleSummary {
  id: string;
  description: string;
  docs: string;
  category: string;
  defaultSeverity: string;
  fixable: boolean;
}

/**
 * Client -> server request: what the server holds in memory. Everything per document is kept only while the document
 * is open, so after the last close `analyses`, `extractors` and `settings` are 0 (protocol tests assert it).
 */
export const StatsRequest = 'dynalint/stats';
export interface StatsParams {
  /** Run a full garbage collection first (benchmarks of retained memory). */
  collectGarbage?: boolean;
}
export interface ServerStats {
  openDocuments: number;
  /** Cached analyses (extraction + findings), one per open document at most. */
  analyses: number;
  /** Incremental per-document extractors (parse state). */
  extractors: number;
  /** Cached per-document settings. */
  settings: number;
  /** The content-keyed validation cache, shared by all documents and bounded by bytes. */
  validationCacheEntries: number;
  validationCacheBytes: number;
  heapUsedBytes: number;
  /** V8's committed heap (what the garbage collector holds from the system, used or not). */
  heapTotalBytes: number;
  /** Memory outside the V8 heap that V8 accounts for (buffers, wasm memory). */
  externalBytes: number;
  rssBytes: number;
  /** V8's committed young generation (new space), from `v8.getHeapSpaceStatistics()`. */
  newSpaceBytes?: number;
  /** The idle memory trim (lsp/idle-trim.ts): scavenges run while idle so V8 gives back the new space a lint grew. */
  idleTrim?: IdleTrimStats;
  /** Scripts loaded through a V8 code cache (the TypeScript compiler, io/code-cache.ts): how each was loaded. */
  codeCache?: { file: string; loaded: string; reason?: string; written: boolean }[];
}

export interface IdleTrimStats {
  /** Trims that ended with new space back at or under the threshold. */
  trims: number;
  /** Trims that stopped after their bounded number of scavenges with new space still above it. */
  givenUp: number;
  /** Trims cancelled after their first scavenge by a message or a lint (started over once the server is quiet). */
  cancelled: number;
  /** Steps put off because a lint was queued or running or a request was being answered. */
  deferred: number;
  /** Scavenges run by the trim, and the pause of the last ones (ms). */
  gcs: number;
  pausesMs: number[];
  /** The last finished trim: its scavenges, new space committed before and after (bytes). */
  last?: { gcs: number; newSpaceBefore: number; newSpaceAfter: number };
  /** The reducer step (idle-trim.ts): nudges that let V8's memory reducer run its GCs once idle, and the GCs seen. */
  reducer: {
    /** The server has the step (DYNALINT_IDLE_REDUCER=off: not). */
    enabled: boolean;
    /** Steps whose nudges all ran (then the watch), at most one per lint or close, each 30 s after the server fell quiet. Counted when the watch starts; `last` and the log line come when it ends. */
    steps: number;
    /** A step's watch is on now (its `last` comes when it ends). */
    watching: boolean;
    /** Steps due but not run: the old generation was small, or had not grown 10% / 10 MB since the last step. */
    skipped: number;
    /** Why the last skipped step was skipped. */
    lastSkip?: string;
    /** Nudge sequences cancelled by a message or a lint (started over once quiet). */
    cancelled: number;
    /** Nudges run (each a little old-generation allocation and a scavenge of ~1 ms). */
    nudges: number;
    /** Memory-reducing GCs V8 ran during the watches (at most 3 per watch; a lint starting ends a watch), and the pause of the last ones (ms). */
    gcs: number;
    pausesMs: number[];
    /** The last step: V8's GCs seen (their pauses) and RSS (bytes) before the nudges and at the end of the watch. */
    last?: { gcs: number; pausesMs: number[]; rssBefore: number; rssAfter: number };
  };
}

/** Command ids registered by the client (package.json `contributes.commands`). */
export const Commands = {
  restartServer: 'dynalint.restartServer',
  showOutput: 'dynalint.showOutput',
  openRuleDocs: 'dynalint.openRuleDocs',
  reconcile: 'dynalint.reconcile',
  fixAll: 'dynalint.fixAll',
} as const;
