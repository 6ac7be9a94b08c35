/**
 * A minimal LSP client for protocol tests and benches: spawns `node dist/server.js --stdio`, speaks JSON-RPC through
 * vscode-languageserver-protocol, answers the server's requests (workspace/configuration from a settings function),
 * records every publishDiagnostics and log message, and waits on events with deadlines (never sleeps).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ClientCapabilities,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type Hover,
  type InitializeResult,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
  StreamMessageReader,
  StreamMessageWriter,
  type TextDocumentContentChangeEvent,
  type TextEdit,
  type WorkspaceEdit,
  createProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LintedNotification, type LintedParams, ListRulesRequest } from '../../server/src/protocol/lsp';

export const ROOT = join(__dirname, '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Build dist/ when it is missing or older than the server sources (`npm test` has built it already). */
export function ensureBuilt(): void {
  if (existsSync(SERVER) && statSync(SERVER).mtimeMs >= newestMtime(join(ROOT, 'server', 'src'))) return;
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}

// A root hook for every mocha run that loads this file (the lsp and editors tiers, run directly or by `npm test`): they
// test dist/server.js, so it is rebuilt first when older than server/src (a stat walk when it is fresh).
if (typeof before === 'function') {
  before(function () {
    this.timeout(120_000);
    ensureBuilt();
  });
}

export interface StartOptions {
  /** Declare pull diagnostics support (textDocument.diagnostic). Default false: the server pushes. */
  pull?: boolean;
  /** The `dynalint` section for a scopeUri (workspace/configuration), or a promise of it (held answers). Default: {}. */
  settings?: (scopeUri: string | undefined) => unknown;
  /** Workspace folder URIs. */
  folders?: string[];
  /** Declare workspace/configuration support. Default true. */
  configuration?: boolean;
}

/** A pending `waitFor`: re-checked on every message the client receives. */
type Waiter = { check: () => boolean; resolve: () => void; timer?: NodeJS.Timeout };

export class LspClient {
  readonly published: PublishDiagnosticsParams[] = [];
  readonly logs: string[] = [];
  /** `dynalint/linted` notifications (one per published lint). */
  readonly linted: LintedParams[] = [];
  /** Times the server asked the client to pull diagnostics again. */
  refreshes = 0;
  /**
   * `process.hrtime.bigint()` when the last `didChange` was handed to the connection: after this client updated its own
   * copy of the text (a bench times didChange -> diagnostics from here, not the test client's bookkeeping before it).
   */
  lastChangeSentAt = 0n;
  readonly configurationRequests: (string | undefined)[] = [];
  initializeResult!: InitializeResult;
  private readonly docs = new Map<string, TextDocument>();
  private readonly waiters = new Set<Waiter>();
  private stderr = '';

  private constructor(
    readonly proc: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {}

  static async start(options: StartOptions = {}): Promise<LspClient> {
    ensureBuilt();
    // DYNALINT_SERVER_NODE_ARGS: node options for the server process only (profiling a bench: `--cpu-prof --cpu-prof-dir=...`).
    const nodeArgs = process.env.DYNALINT_SERVER_NODE_ARGS?.split(' ').filter((a) => a) ?? [];
    const proc = spawn(process.execPath, [...nodeArgs, SERVER, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const client = new LspClient(proc, connection);
    proc.stderr!.on('data', (d: Buffer) => (client.stderr += d.toString()));
    proc.on('exit', () => client.notify());
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      client.published.push(p);
      client.notify();
    });
    connection.onNotification('window/logMessage', (p: { message: string }) => {
      client.logs.push(p.message);
      client.notify();
    });
    connection.onNotification(LintedNotification, (params: LintedParams) => {
      client.linted.push(params);
      client.notify();
    });
    connection.onRequest('workspace/configuration', (p: { items: { scopeUri?: string; section?: string }[] }) =>
      Promise.all(
        p.items.map(async (i) => {
          client.configurationRequests.push(i.scopeUri);
          return (await options.settings?.(i.scopeUri)) ?? {};
        }),
      ),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/diagnostic/refresh', () => {
      client.refreshes++;
      client.notify();
      return null;
    });
    connection.listen();
    const capabilities: ClientCapabilities = {
      workspace: {
        configuration: options.configuration ?? true,
        diagnostics: { refreshSupport: true },
        didChangeConfiguration: { dynamicRegistration: false },
        workspaceFolders: !!options.folders,
      },
      textDocument: {
        publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
        synchronization: { dynamicRegistration: false },
        completion: { completionItem: { snippetSupport: true } },
        hover: { contentFormat: ['markdown'] },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } } },
        ...(options.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
      },
    };
    client.initializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: options.folders?.[0] ?? null,
      workspaceFolders: options.folders?.map((uri) => ({ uri, name: uri.split('/').pop() })) ?? null,
      capabilities,
    });
    await connection.sendNotification('initialized', {});
    return client;
  }

  private notify(): void {
    for (const w of [...this.waiters])
      if (w.check()) {
        this.waiters.delete(w);
        w.resolve();
      }
  }

  /** Resolve with `probe()`'s value once it is defined (re-checked on each incoming message); reject at the deadline. */
  waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    return new Promise((resolve, reject) => {
      let value: T | undefined;
      const w: Waiter = {
        check: () => (value = probe()) !== undefined || this.proc.exitCode !== null,
        resolve: () => {
          clearTimeout(w.timer);
          if (value !== undefined) resolve(value);
          else reject(new Error(`server exited (${this.proc.exitCode}) waiting for ${what}\n${this.stderr}`));
        },
      };
      if (w.check()) return w.resolve();
      w.timer = setTimeout(() => {
        this.waiters.delete(w);
        reject(new Error(`timed out waiting for ${what}\n${this.stderr}`));
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  /**
   * A request round trip. The server answers in order, and the client handles messages in the order they arrive, so
   * once this resolves every notification the server sent before it read the request (a publish that goes out with a
   * lint, say) has been recorded: assert "nothing arrived" after it, never at an arbitrary instant.
   */
  async roundTrip(): Promise<void> {
    await this.connection.sendRequest(ListRulesRequest);
  }

  /** Diagnostics published for `uri` at exactly `version`. */
  diagnosticsFor(uri: string, version: number, timeoutMs?: number): Promise<Diagnostic[]> {
    return this.waitFor(() => this.published.find((p) => p.uri === uri && p.version === version)?.diagnostics, `diagnostics of ${uri} v${version}`, timeoutMs);
  }

  text(uri: string): string {
    return this.doc(uri).getText();
  }

  doc(uri: string): TextDocument {
    const d = this.docs.get(uri);
    if (!d) throw new Error(`not open: ${uri}`);
    return d;
  }

  async open(uri: string, languageId: string, text: string, version = 1): Promise<void> {
    this.docs.set(uri, TextDocument.create(uri, languageId, version, text));
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  /** Send incremental changes (ranges in the current text, applied in order); returns the new version. */
  async change(uri: string, changes: TextDocumentContentChangeEvent[]): Promise<number> {
    const d = this.doc(uri);
    const next = TextDocument.update(d, changes, d.version + 1);
    this.docs.set(uri, next);
    this.lastChangeSentAt = process.hrtime.bigint();
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: next.version }, contentChanges: changes });
    return next.version;
  }

  /** Replace `[start, end)` (offsets) with `text`, as one incremental change. */
  edit(uri: string, start: number, end: number, text: string): Promise<number> {
    const d = this.doc(uri);
    return this.change(uri, [{ range: { start: d.positionAt(start), end: d.positionAt(end) }, text }]);
  }

  async close(uri: string): Promise<void> {
    this.docs.delete(uri);
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Position of the `nth` occurrence of `needle` (plus `delta` characters) in an open document. */
  positionOf(uri: string, needle: string, delta = 0, nth = 0): Position {
    const text = this.text(uri);
    let at = -1;
    for (let i = 0; i <= nth; i++) {
      at = text.indexOf(needle, at + 1);
      if (at < 0) throw new Error(`'${needle}' not found in ${uri}`);
    }
    return this.doc(uri).positionAt(at + delta);
  }

  /** The text a range covers in the current version. */
  slice(uri: string, range: Range): string {
    return this.doc(uri).getText(range);
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[] = [], only?: string[]): Promise<CodeAction[]> {
    return this.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, only } });
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const r = await this.connection.sendRequest<CompletionItem[] | CompletionList | null>('textDocument/completion', { textDocument: { uri }, position });
    return !r ? [] : Array.isArray(r) ? r : r.items;
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
  }

  pullDiagnostics(uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport> {
    return this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId });
  }

  /** The text of an open document after applying a workspace edit to it. */
  applied(uri: string, edit: WorkspaceEdit | undefined): string {
    const edits: TextEdit[] = edit?.changes?.[uri] ?? [];
    return TextDocument.applyEdits(this.doc(uri), edits);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode === null) {
      const exited = new Promise((r) => this.proc.once('exit', r));
      try {
        await this.connection.sendRequest('shutdown');
        await this.connection.sendNotification('exit');
      } catch {
        this.proc.kill();
      }
      await exited;
    }
    this.connection.dispose();
  }
}
