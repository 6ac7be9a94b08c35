/**
 * The only code that knows the LSP connection: capabilities, document sync, the lint schedule, settings pulls, and
 * handlers that delegate to the pure `DynalintService`. Every handler is wrapped: a failure is logged and answered
 * with an empty result, never thrown to the client.
 */
import {
  CodeActionKind,
  type Connection,
  type Diagnostic,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind,
  type InitializeResult,
  type ServerCapabilities,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureParser, resolveLanguageId } from '../extract';
import { allRules } from '../rules';
import { loadConfig } from '../config';
import { FIX_ALL_KIND, LintedNotification, type LintedParams, ListRulesRequest, type RuleSummary, type ServerStats, type StatsParams, StatsRequest } from '../protocol/lsp';
import { validationCacheStats } from '../rules/expression-rules';
import type { DynalintSettings } from '../protocol/settings';
import { type Analysis, DynalintService } from '../service';
import { IdleTrim, type ReducerOptions, idleTrimTiming, reducerSkipReason, reducerTiming } from './idle-trim';
import { LintScheduler } from './scheduler';
import { SettingsCache } from './settings';
import { WorkspaceTables } from './tables';
import { codeCachePending, codeCacheStates, writeCodeCaches } from '../io/code-cache';

export interface ServerHandle {
  service: DynalintService;
  documents: TextDocuments<TextDocument>;
}

export function startServer(connection: Connection): ServerHandle {
  // DYNALINT_SERVER_LOG=<file>: every log line and every request's outcome also go to that file (the VS Code suite sets
  // it so a failure in CI leaves the server's side of the story behind).
  const logFile = process.env.DYNALINT_SERVER_LOG;
  const toFile = (m: string) => {
    if (!logFile) return;
    try {
      appendFileSync(logFile, `${new Date().toISOString()} [${process.pid}] ${m}\n`);
    } catch {
      /* the log is best effort */
    }
  };
  const log = (m: string) => {
    connection.console.log(m);
    toFile(m);
  };
  const service = new DynalintService(log);
  const documents = new TextDocuments(TextDocument);
  // Table definitions of the workspace folders: built once after initialize (lints wait for it), then per file.
  const tables = new WorkspaceTables(connection, documents, log, () => relintAll());
  service.tables = tables.index;
  /** The parser of a document's language, loaded with the first document of that language (not at start-up). */
  const ready = async (uri: string): Promise<void> => {
    await tables.ready;
    const doc = documents.get(uri);
    return doc ? ensureParser(resolveLanguageId(doc.languageId, uri)).catch((e: unknown) => log(`parser initialisation failed: ${String(e)}`)) : Promise.resolve();
  };
  let settings: SettingsCache | undefined;
  let pullDiagnostics = false;
  let refreshSupport = false;
  let configurationChanges = false;
  let folders: string[] = [];
  let folderChanges = false;
  let watchedFilesRegistration = false;
  const toPaths = (uris: string[]) => uris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));

  /** Rule severities from the nearest `.dynalintrc.json`, searched up to the document's workspace folder. */
  function fileRules(uri: string) {
    if (!uri.startsWith('file:')) return undefined;
    const path = fileURLToPath(uri);
    const stopDir = folders.filter((f) => path.startsWith(f + '/') || path.startsWith(f + '\\')).sort((a, b) => b.length - a.length)[0];
    return loadConfig(dirname(path), { stopDir }).rules;
  }

  /** Requests being answered (but stats): the idle trim waits while any is, e.g. a pull awaiting its settings. */
  let answering = 0;
  /** Wrap a handler: log and answer `empty` when it throws or rejects. Every message but stats is activity (idle trim). */
  function guard<P extends unknown[], R>(name: string, empty: R, fn: (...args: P) => R | Promise<R>) {
    return async (...args: P): Promise<R> => {
      const counted = name !== 'dynalint/stats';
      if (counted) {
        trim.activity();
        // A request while a lint is queued may analyse the new version itself: a lint starting ends the reducer's watch.
        if (scheduler.busy) trim.linting();
        answering++;
      }
      try {
        const r = await fn(...args);
        if (logFile) toFile(`${name} ${describeParams(args[0])} -> ${describeResult(r)}`);
        return r;
      } catch (e) {
        log(`${name} failed: ${(e as Error)?.stack ?? String(e)}`);
        return empty;
      } finally {
        if (counted) answering--;
      }
    };
  }

  /** Lint the latest version of a document and publish, unless a newer version arrived meanwhile. */
  async function lintAndPublish(uri: string): Promise<void> {
    await ready(uri);
    const ds = await docAndSettings(uri);
    if (!ds) return;
    const { doc, s } = ds;
    // TextDocuments updates a document in place: the version read now is the one this lint is about. If a change
    // arrives during extraction the lint stops (the newer version is already queued); otherwise the rules, the
    // conversion and the publish run without yielding, so what is published is exactly this version's lint.
    const version = doc.version;
    const current = () => documents.get(uri) === doc && doc.version === version;
    trim.linting();
    const a = await service.analyzeUnlessSuperseded(doc, s, current);
    if (!a) return;
    // The diagnostics go out first (what the editor waits for), then the status bar's report: both in one pipe write
    // at the end of this synchronous stretch (framing.ts), in this order.
    const diagnostics = service.diagnostics(doc, s, a);
    void connection.sendDiagnostics({ uri, version, diagnostics });
    reportLint(doc, s, diagnostics, a);
    trim.linted();
  }

  /** Diagnostics of a document version, reported to the client's status bar (`dynalint/linted`). */
  function lint(doc: TextDocument, s: DynalintSettings): Diagnostic[] {
    trim.linting();
    const a = service.analyze(doc, s);
    const diagnostics = service.diagnostics(doc, s, a);
    reportLint(doc, s, diagnostics, a);
    trim.linted();
    return diagnostics;
  }

  /** `dynalint/linted` for a lint whose diagnostics were just made from `a` (the status bar, the output channel when verbose). */
  function reportLint(doc: TextDocument, s: DynalintSettings, diagnostics: Diagnostic[], a: Analysis): void {
    const linted: LintedParams = { uri: doc.uri, version: doc.version, findings: diagnostics.length, durationMs: a.durationMs, skipped: a.skipped };
    if (a.notLinted?.length) linted.notLinted = a.notLinted.map((r) => r.reason);
    void connection.sendNotification(LintedNotification, linted);
    // The compiler's code cache, once, after its first lint (code-cache.ts): after the diagnostics are on their way.
    if (codeCachePending()) setImmediate(writeCodeCaches);
    if (s.trace === 'verbose') log(`linted ${doc.uri} v${doc.version}: ${diagnostics.length} findings in ${a.durationMs.toFixed(1)} ms`);
  }

  const scheduler = new LintScheduler(lintAndPublish, (uri, e) => log(`lint of ${uri} failed: ${(e as Error)?.stack ?? String(e)}`));
  // After a lint that grew V8's young generation (> 8 MB committed), scavenges while idle let V8 shrink it (idle-trim.ts).
  const trim = new IdleTrim({
    ...idleTrimTiming(process.env.DYNALINT_IDLE_TRIM_MS),
    thresholdBytes: 8 * 1048576,
    newSpaceBytes,
    minorGc: () => gcFunction()({ type: 'minor' }),
    // A lint queued or running (push), or a request awaiting something (a pull's settings, `ready`): no scavenge then.
    busy: () => scheduler.busy || answering > 0,
    onError: (e) => log(`idle trim failed, off from now on: ${(e as Error)?.stack ?? String(e)}`),
    onFinish: (shrunk, t, pauses) =>
      log(`idle trim: new space ${mb(t.newSpaceBefore)} -> ${mb(t.newSpaceAfter)} MB${shrunk ? '' : ' (gave up)'} after ${t.gcs} scavenge(s) of ${pauses.map((p) => p.toFixed(1)).join(', ')} ms`),
    // Then, once quiet for longer, nudges so that V8's memory reducer runs its GCs now rather than ~100 s later.
    reducer: reducerStep(process.env.DYNALINT_IDLE_TRIM_MS, process.env.DYNALINT_IDLE_REDUCER),
    onReducer: (r) =>
      log(`idle trim: V8's memory reducer ${r.gcs ? `ran ${r.gcs} GC(s), pauses ${r.pausesMs.map((p) => p.toFixed(1)).join(', ')} ms` : 'ran no GC'} after the nudges; RSS ${mb(r.rssBefore)} -> ${mb(r.rssAfter)} MB`),
  });

  /** Relint every open document (push) or ask the client to pull again. */
  function relintAll(): void {
    if (pullDiagnostics) {
      if (refreshSupport) void connection.languages.diagnostics.refresh().catch((e: unknown) => log(`diagnostic refresh failed: ${String(e)}`));
    } else for (const d of documents.all()) scheduler.request(d.uri);
  }

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    pullDiagnostics = !!caps.textDocument?.diagnostic;
    tables.pull = pullDiagnostics;
    refreshSupport = !!caps.workspace?.diagnostics?.refreshSupport;
    configurationChanges = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    folders = toPaths(params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []));
    folderChanges = !!caps.workspace?.workspaceFolders;
    settings = new SettingsCache(connection, !!caps.workspace?.configuration, fileRules, log);
    const capabilities: ServerCapabilities = {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
      completionProvider: { triggerCharacters: ['#', ':'] },
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
      definitionProvider: true,
    };
    watchedFilesRegistration = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    if (folderChanges) capabilities.workspace = { workspaceFolders: { supported: true, changeNotifications: true } };
    if (pullDiagnostics) capabilities.diagnosticProvider = { identifier: 'dynalint', interFileDependencies: false, workspaceDiagnostics: false };
    return { capabilities, serverInfo: { name: 'dynalint' } };
  });

  connection.onInitialized(() => {
    // Workspace folders bound the search for .dynalintrc.json (multi-root: each folder is a root).
    if (folderChanges)
      connection.workspace.onDidChangeWorkspaceFolders(
        guard('didChangeWorkspaceFolders', undefined, (e) => {
          const removed = new Set(toPaths(e.removed.map((f) => f.uri)));
          folders = [...folders.filter((f) => !removed.has(f)), ...toPaths(e.added.map((f) => f.uri))];
          tables.start(folders);
          settings?.clear();
          relintAll();
        }),
      );
    if (configurationChanges) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'dynalint' });
    if (watchedFilesRegistration) void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: tables.watchers() }).catch((e: unknown) => log(`file watch registration failed: ${String(e)}`));
    tables.start(folders);
  });

  connection.onDidChangeConfiguration(
    guard('didChangeConfiguration', undefined, (params) => {
      const pushed = (params.settings as Record<string, unknown> | null)?.dynalint;
      settings?.clear(pushed ?? undefined);
      relintAll();
    }),
  );
  connection.onDidChangeWatchedFiles(
    guard('didChangeWatchedFiles', undefined, async (params) => {
      settings?.clear();
      await tables.filesChanged(params.changes);
      relintAll();
    }),
  );

  documents.onDidOpen((e) => {
    trim.activity();
    toFile(`didOpen ${e.document.uri} v${e.document.version}`);
    if (!pullDiagnostics) scheduler.request(e.document.uri);
    tables.documentOpened(e.document.uri);
  });
  documents.onDidChangeContent((e) => {
    trim.activity();
    tables.documentChanged(e.document);
    if (!pullDiagnostics) scheduler.request(e.document.uri);
  });
  documents.onDidClose((e) => {
    trim.activity();
    toFile(`didClose ${e.document.uri}`);
    const uri = e.document.uri;
    scheduler.cancel(uri);
    service.forget(uri);
    settings?.delete(uri);
    if (!pullDiagnostics) void connection.sendDiagnostics({ uri, diagnostics: [] });
    tables.documentClosed(uri);
    trim.closed();
  });

  /**
   * The open document and its settings, after parsers are ready; undefined when the document is not open, or was
   * closed while we waited (nothing is analysed or cached for a closed uri: a close storm must not leak). The version
   * may have moved on meanwhile: callers read it after this returns, without yielding.
   */
  async function docAndSettings(uri: string) {
    await ready(uri);
    if (!documents.get(uri) || !settings) return undefined;
    const cache = settings;
    const s = await cache.get(uri);
    const doc = documents.get(uri);
    if (!doc) {
      cache.delete(uri); // closed while its settings were pulled: do not keep them
      return undefined;
    }
    return { doc, s };
  }

  connection.languages.diagnostics.on(
    guard('textDocument/diagnostic', { kind: DocumentDiagnosticReportKind.Full, items: [] }, async (params) => {
      const ds = await docAndSettings(params.textDocument.uri);
      if (!ds) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
      const resultId = `${ds.doc.version}:${settings?.generation}`;
      if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
      return { kind: DocumentDiagnosticReportKind.Full, resultId, items: lint(ds.doc, ds.s) };
    }),
  );

  connection.onCodeAction(
    guard('textDocument/codeAction', [], async (params) => {
      const ds = await docAndSettings(params.textDocument.uri);
      return ds ? service.codeActions(ds.doc, ds.s, params.range, params.context.only) : [];
    }),
  );
  connection.onCompletion(
    guard('textDocument/completion', [], async (params) => {
      const ds = await docAndSettings(params.textDocument.uri);
      return ds ? service.completion(ds.doc, ds.s, params.position) : [];
    }),
  );
  connection.onHover(
    guard('textDocument/hover', null, async (params) => {
      const ds = await docAndSettings(params.textDocument.uri);
      return ds ? service.hover(ds.doc, ds.s, params.position) : null;
    }),
  );
  connection.onDefinition(
    guard('textDocument/definition', [], async (params) => {
      const ds = await docAndSettings(params.textDocument.uri);
      return ds ? service.definition(ds.doc, ds.s, params.position) : [];
    }),
  );
  connection.onCodeLens(
    guard('textDocument/codeLens', [], async (params) => {
      const ds = await docAndSettings(params.textDocument.uri);
      return ds ? service.codeLenses(ds.doc, ds.s) : [];
    }),
  );
  connection.onRequest(
    ListRulesRequest,
    guard('dynalint/listRules', [] as RuleSummary[], () =>
      allRules.map((r) => ({
        id: r.id,
        description: r.meta.description,
        docs: r.meta.docs,
        category: r.meta.category,
        defaultSeverity: r.meta.defaultSeverity,
        fixable: r.meta.fixable,
      })),
    ),
  );

  connection.onRequest(
    StatsRequest,
    guard('dynalint/stats', undefined as ServerStats | undefined, (params?: StatsParams): ServerStats => {
      if (params?.collectGarbage) collectGarbage();
      const v = validationCacheStats();
      const m = process.memoryUsage();
      return {
        openDocuments: documents.all().length,
        ...service.stats(),
        settings: settings?.size ?? 0,
        validationCacheEntries: v.entries,
        validationCacheBytes: v.bytes,
        heapUsedBytes: m.heapUsed,
        heapTotalBytes: m.heapTotal,
        externalBytes: m.external,
        rssBytes: m.rss,
        newSpaceBytes: newSpaceBytes(),
        idleTrim: trim.stats(),
        codeCache: codeCacheStates(),
      };
    }),
  );

  documents.listen(connection);
  connection.listen();
  return { service, documents };
}

/** A short account of a request's params for the server log file: the document and position or range. */
function describeParams(p: unknown): string {
  const o = p as { textDocument?: { uri?: string }; range?: { start: { line: number } }; position?: { line: number } } | undefined;
  const uri = o?.textDocument?.uri?.replace(/^.*\//, '') ?? '';
  const at = o?.range ? ` line ${o.range.start.line}` : o?.position ? ` line ${o.position.line}` : '';
  return uri + at;
}

/** A short account of a handler's answer for the server log file: how many items, or its kind. */
function describeResult(r: unknown): string {
  if (Array.isArray(r)) return `${r.length} item(s)`;
  if (r && typeof r === 'object' && 'items' in r && Array.isArray((r as { items: unknown[] }).items)) return `${(r as { items: unknown[] }).items.length} item(s)`;
  if (r && typeof r === 'object' && 'kind' in r) return String((r as { kind: unknown }).kind);
  return r === null || r === undefined ? 'empty' : typeof r;
}

type GcFunction = (options?: { type?: 'minor' | 'major' }) => void;
let gcFn: GcFunction | undefined;

/** V8's `gc` (the documented flag, enabled at run time; a new context gets the function), obtained once. */
function gcFunction(): GcFunction {
  if (!gcFn) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as GcFunction;
  }
  return gcFn;
}

/** A full garbage collection, for `dynalint/stats` measurements. */
function collectGarbage(): void {
  gcFunction()();
}

const mb = (b: number) => (b / 1048576).toFixed(0);

/** Below this much committed old generation (MB) the reducer step is skipped (an idle server holds ~10 MB). */
const REDUCER_MIN_HEAP_MB = 48;

/** What each nudge allocates in the old generation: an array above V8's 128 KB regular-object limit (large-object space). */
const nudgeBallast: { array?: number[] } = {};

/**
 * The idle trim's reducer step (idle-trim.ts). DYNALINT_IDLE_REDUCER=off disables it, =<MB> sets the committed heap
 * below which it is skipped (tests: 0); DYNALINT_IDLE_TRIM_MS (tests) shortens its waits.
 */
function reducerStep(trimMs: string | undefined, env: string | undefined): ReducerOptions | undefined {
  if (env === 'off') return undefined;
  const t = reducerTiming(trimMs);
  if (!t) return undefined;
  const minBytes = (env && Number.isFinite(Number(env)) ? Number(env) : REDUCER_MIN_HEAP_MB) * 1048576;
  /** The old generation at the end of the last step (whether its watch saw V8's GCs or not). */
  let atLastStep: number | undefined;
  return {
    ...t,
    nudge: () => {
      nudgeBallast.array = new Array<number>(20_000).fill(0);
      gcFunction()({ type: 'minor' });
    },
    release: () => {
      nudgeBallast.array = undefined;
    },
    skipReason: () => reducerSkipReason(oldGenerationBytes(), minBytes, atLastStep),
    watch: (onGc) => {
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const d = (e as unknown as { detail?: { kind: number; flags: number } }).detail;
          // The reducer's GCs: major, with the flag it passes (collect all external memory). V8 passes it too for a
          // GC forced by external-memory pressure: a lint starting ends the watch (IdleTrim.linting).
          if (d && d.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR && d.flags & perfConstants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY) onGc(e.duration);
        }
      });
      observer.observe({ entryTypes: ['gc'] });
      return () => {
        observer.disconnect();
        atLastStep = oldGenerationBytes();
      };
    },
    rss: () => process.memoryUsage.rss(),
  };
}

/** V8's committed old generation (old, code and large-object spaces; not new space), bytes: what its memory reducer measures. */
function oldGenerationBytes(): number {
  let n = 0;
  for (const s of getHeapSpaceStatistics()) if (/^(old|code|large_object|code_large_object)_space$/.test(s.space_name)) n += s.space_size;
  return n;
}

/** V8's committed new space (both semi-spaces), bytes. */
function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}
