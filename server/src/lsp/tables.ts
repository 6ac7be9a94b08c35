/**
 * The language server's side of the table index: the first scan of the workspace folders (lints wait for it), updates
 * from `workspace/didChangeWatchedFiles` and from edits of open definition files, definitions that could not be read
 * published as information diagnostics in their own files, and a re-lint of open documents when a definition changed.
 */
import type { Connection, FileEvent, TextDocuments } from 'vscode-languageserver';
import { DiagnosticSeverity, FileChangeType } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import { TableIndex } from '../tables';
import { hostOf, resolveLanguageId } from '../extract';
import { extractTables, ensureTableParsers, mayDefineTables, tableFileKind } from '../tables/extract';
import { label, scanTables, tablesOfFile } from '../tables/scan';
import { TABLE_DEFINITION } from '../rules/table/table-definition';
import { DIAGNOSTIC_SOURCE } from '../protocol/lsp';
import { docsUrl } from '../service';

/** How long after an edit of an open document its table definitions are read again (at most once per this while typing). */
const TABLES_AFTER_EDIT_MS = 100;

export class WorkspaceTables {
  readonly index = new TableIndex();
  /** Resolves when the current scan is done (never rejects). */
  ready: Promise<void> = Promise.resolve();
  private folders: string[] = [];
  private published = new Set<string>();
  private scanning = 0;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly log: (m: string) => void,
    private readonly relint: () => void,
  ) {}

  /** Glob patterns of the files that may define tables (registered with the client's file watcher). */
  watchers(): { globPattern: string }[] {
    return ['**/*.{yaml,yml,template,json,tf}', '**/*.{ts,mts,cts,js,mjs,cjs,py}'].map((globPattern) => ({ globPattern }));
  }

  /** (Re)build the index from the folders; lints wait for it. */
  start(folders: string[]): void {
    this.folders = folders;
    const run = ++this.scanning;
    this.ready = (async () => {
      try {
        const fresh = new TableIndex();
        const { report } = await scanTables(folders, fresh);
        if (run !== this.scanning) return;
        this.index.clear();
        for (const f of fresh.snapshot()) this.index.setFile(f);
        this.log(`table definitions: ${report.tables} in ${report.parsed} of ${report.candidates} candidate files, ${report.durationMs.toFixed(0)} ms`);
        for (const m of report.notRead) this.log(`table definitions: ${m}`);
        this.publishProblems();
      } catch (e) {
        this.log(`table definitions could not be indexed: ${(e as Error)?.stack ?? String(e)}`);
      }
    })();
    void this.ready.then(() => this.relint());
  }

  private rootOf(path: string): string {
    return this.folders.filter((f) => path.startsWith(f)).sort((a, b) => b.length - a.length)[0] ?? '';
  }

  private async update(uri: string, text?: string): Promise<boolean> {
    if (!uri.startsWith('file:') || !tableFileKind(uri)) return false;
    const path = fileURLToPath(uri);
    const facts = await tablesOfFile(path, this.rootOf(path), undefined, text);
    const changed = facts && !('notRead' in facts) ? this.index.setFile(facts) : this.index.removeFile(uri);
    if (changed) this.publishProblems();
    return changed;
  }

  async filesChanged(changes: FileEvent[]): Promise<void> {
    await this.ready;
    let changed = false;
    for (const c of changes) {
      if (this.documents.get(c.uri)) continue; // an open document's text is what counts
      if (c.type === FileChangeType.Deleted) changed = this.index.removeFile(c.uri) || changed;
      else changed = (await this.update(c.uri)) || changed;
    }
    if (changed) this.publishProblems();
  }

  /**
   * An open document changed: a definition file is re-read from its text (no parse unless it may define tables), at
   * most once per `TABLES_AFTER_EDIT_MS` while the user types, never on the keystroke's own path: the word check alone
   * scanned the whole text (0.45 ms of a 5,000-line file, a tenth of a didChange -> diagnostics), and a definition file
   * (a CDK stack) was parsed again per keystroke. The lint of the edit runs first; a definition that changed re-lints.
   */
  documentChanged(doc: TextDocument): void {
    const kind = tableFileKind(doc.uri);
    if (!kind || !doc.uri.startsWith('file:')) return;
    this.edited.add(doc.uri);
    this.editTimer ??= setTimeout(() => this.readEdited(), TABLES_AFTER_EDIT_MS);
  }

  private readonly edited = new Set<string>();
  private editTimer?: ReturnType<typeof setTimeout>;

  /** Read the definitions of the documents edited since the last time (their latest text; closed ones are not). */
  private readEdited(): void {
    this.editTimer = undefined;
    const uris = [...this.edited];
    this.edited.clear();
    for (const uri of uris) {
      const doc = this.documents.get(uri);
      const kind = tableFileKind(uri);
      if (!doc || !kind) continue;
      const text = doc.getText();
      if (!this.index.has(uri) && !mayDefineTables(kind, text)) continue;
      void ensureTableParsers(kind).then(() => {
        // A newer version was read meanwhile (or the document closed): that read is the one that counts.
        if (this.documents.get(uri)?.getText() !== text) return;
        const path = fileURLToPath(uri);
        const facts = extractTables(uri, label(path, this.rootOf(path)), text, kind);
        if (this.index.setFile(facts)) {
          this.publishProblems();
          this.relint();
        }
      });
    }
  }

  /** An opened document reports its own definition problems from now on (the service's lint): stop pushing them here. */
  documentOpened(uri: string): void {
    if (this.published.has(uri)) this.publishProblems();
  }

  /** A closed document: what counts again is the file on disk, and its problems are pushed from here again. */
  documentClosed(uri: string): void {
    if (!this.index.uris().includes(uri)) return;
    void this.update(uri).then((changed) => {
      if (!changed) this.publishProblems();
      if (changed) this.relint();
    });
  }

  /**
   * Push the problems of definition files that are not open. An open document's problems are findings of its own lint
   * (service.ts, rule table-definition), in its one set of diagnostics: a push here would replace that set in a push
   * client, or show the problems twice next to the pulled ones. Leaving an open document: with pull diagnostics the
   * pushed set is its own collection (cleared here); with push, the lint's publish has replaced it (nothing sent, which
   * could race with that publish).
   */
  private publishProblems(): void {
    const now = new Set<string>();
    for (const uri of this.index.uris()) {
      const problems = this.index.problems(uri);
      if (!problems.length || this.linted(uri)) continue;
      now.add(uri);
      void this.connection.sendDiagnostics({
        uri,
        diagnostics: problems.map((p) => ({ range: p.location.range, severity: DiagnosticSeverity.Information, code: TABLE_DEFINITION, codeDescription: { href: docsUrl(TABLE_DEFINITION) }, source: DIAGNOSTIC_SOURCE, message: p.message })),
      });
    }
    for (const uri of this.published) if (!now.has(uri) && (this.pull || !this.linted(uri))) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    this.published = now;
  }

  /** Whether the client pulls the documents' diagnostics (set from its capabilities at initialize). */
  pull = false;

  /** An open document a host reads (so its lint reports its problems); a Terraform file, say, is never linted. */
  private linted(uri: string): boolean {
    const doc = this.documents.get(uri);
    return !!doc && hostOf(resolveLanguageId(doc.languageId, uri)) !== undefined;
  }
}
