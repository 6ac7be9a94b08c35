/**
 * Public entry of the extractors: text + languageId -> RequestSite[] (see model.ts), full or incremental.
 *
 *   await initParsers();                       // once: loads web-tree-sitter + the Python grammar
 *   extract(text, 'typescript').sites          // synchronous afterwards
 *   const doc = createDocumentExtractor('python'); doc.update(text1); doc.update(text2)   // incremental re-parse
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser, Query, Tree } from 'web-tree-sitter';
import { ExtractResult, HostLanguage, RequestSite } from './model';
import { DEFAULT_MAX_FILE_SIZE, mayContainRequest, skipReason } from './infer';
import { extractJson } from './json';
import { PyQueries, PyState, Span, extractPythonTree, pythonQueries } from './python';
import { TsDocument } from './typescript';

export * from './model';
export { operationsOf } from './operations';
export type { Operation, OperationKind } from './operations';

export interface ExtractOptions {
  /** Files longer than this (in characters) are skipped. Default 2 MB. */
  maxFileSize?: number;
}

/** One edit, VS Code style: replace `[start, end)` of the text as it was before this change with `text`. */
export interface TextChange {
  start: number;
  end: number;
  text: string;
}

const HOSTS: Record<string, HostLanguage> = {
  json: 'json',
  jsonc: 'json',
  typescript: 'typescript',
  typescriptreact: 'typescript',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  python: 'python',
};

const EXTENSIONS: Record<string, string> = {
  json: 'json',
  jsonc: 'jsonc',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
};

/** The languageId for a file path by its extension, or undefined when no extractor handles it. */
export function languageIdForPath(path: string): string | undefined {
  const m = /\.([A-Za-z]+)$/.exec(path);
  return m ? EXTENSIONS[m[1].toLowerCase()] : undefined;
}

export function hostOf(languageId: string): HostLanguage | undefined {
  return HOSTS[languageId];
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Python parser (WASM)                                                                                               */

let python: { parser: Parser; queries: PyQueries } | undefined;
let initializing: Promise<void> | undefined;

/** Where a wasm file is: next to the bundle (dist/), else in node_modules (tests, tsx). */
function wasmPath(file: string, resolveFromModules: () => string): string {
  const here = typeof __dirname === 'string' ? join(__dirname, file) : undefined;
  if (here && existsSync(here)) return here;
  return resolveFromModules();
}

/** Resolution through node_modules at run time (kept opaque to the bundler, which has copied the files to dist/). */
const fromModules = (id: string): string => require.resolve(id);

/** Load web-tree-sitter and the Python grammar. Idempotent; TypeScript and JSON need no initialisation. */
export function initParsers(): Promise<void> {
  initializing ??= (async () => {
    const runtime = wasmPath('tree-sitter.wasm', () => join(fromModules('web-tree-sitter').replace(/[\\/][^\\/]+$/, ''), 'tree-sitter.wasm'));
    await Parser.init({ locateFile: () => runtime });
    const grammar = wasmPath('tree-sitter-python.wasm', () => fromModules('tree-sitter-python/tree-sitter-python.wasm'));
    const language = await Language.load(grammar);
    const parser = new Parser();
    parser.setLanguage(language);
    python = { parser, queries: pythonQueries(language, (l, src) => new Query(l, src)) };
  })();
  return initializing;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Full extraction                                                                                                    */

/** Checks shared by full and incremental extraction: a result to return now, or undefined to go on and parse. */
function precheck(text: string, host: HostLanguage | undefined, languageId: string, opts?: ExtractOptions): ExtractResult | undefined {
  if (!host) return { sites: [], skipped: `unsupported language '${languageId}'` };
  const skipped = skipReason(text, opts?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, host);
  if (skipped) return { sites: [], skipped };
  if (!mayContainRequest(text)) return { sites: [] };
  if (host === 'python' && !python) return { sites: [], skipped: 'Python parser not initialised (call initParsers() first)' };
  return undefined;
}

/** Every DynamoDB request in a document. Synchronous; Python needs `initParsers()` to have completed. */
export function extract(text: string, languageId: string, opts?: ExtractOptions): ExtractResult {
  const host = hostOf(languageId);
  const early = precheck(text, host, languageId, opts);
  if (early) return early;
  return { sites: extractHost(text, host!, languageId) };
}

function extractHost(text: string, host: HostLanguage, languageId: string): RequestSite[] {
  if (host === 'json') return extractJson(text);
  if (host === 'python') {
    const tree = python!.parser.parse(text);
    if (!tree) return [];
    try {
      return extractPythonTree(text, tree, python!.queries).sites;
    } finally {
      tree.delete();
    }
  }
  return new TsDocument(languageId, host).full(text);
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Incremental extraction                                                                                             */

export interface DocumentExtractor {
  readonly languageId: string;
  /**
   * Extract from the document's new full text. `changes` (optional) are the edits since the previous call; when
   * absent or inconsistent the changed span is found by comparing texts. The parser re-parses incrementally
   * (TypeScript: only the top-level statements the edit touched; Python: tree-sitter `edit` + re-parse, queries and
   * conversion only in the touched statements) when it has a previous state.
   *
   * Sites are reused between updates: a site in a statement the edit did not touch is returned again as the same
   * object, its offsets shifted in place when the edit was before it. Copy what you keep across updates.
   */
  update(text: string, changes?: TextChange[]): ExtractResult;
  /** How many updates re-parsed incrementally vs fully (for tests and the bench). */
  readonly stats: { full: number; incremental: number };
  /** Free the parse tree (tree-sitter trees live in WASM memory). */
  dispose(): void;
}

/** The one span that differs between two texts (collapsing several edits). */
function changedSpan(oldText: string, newText: string, changes?: TextChange[]): Span {
  if (changes?.length === 1) {
    const c = changes[0];
    if (c.start >= 0 && c.start <= c.end && c.end <= oldText.length && oldText.length - (c.end - c.start) + c.text.length === newText.length)
      return { start: c.start, oldEnd: c.end, newEnd: c.start + c.text.length };
  }
  const max = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  let suffix = 0;
  while (suffix < max - start && oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)) suffix++;
  return { start, oldEnd: oldText.length - suffix, newEnd: newText.length - suffix };
}

function pointAt(text: string, offset: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

export function createDocumentExtractor(languageId: string, opts?: ExtractOptions): DocumentExtractor {
  const host = hostOf(languageId);
  let text: string | undefined;
  let tsDoc: TsDocument | undefined;
  let tree: Tree | undefined;
  let pyState: PyState | undefined;
  let last: ExtractResult = { sites: [] };
  const stats = { full: 0, incremental: 0 };

  const drop = () => {
    tsDoc = undefined;
    pyState = undefined;
    tree?.delete();
    tree = undefined;
  };

  const parsePy = (newText: string, span?: Span): Tree | undefined => {
    const parser = python!.parser;
    if (tree && span && text !== undefined) {
      tree.edit({
        startIndex: span.start,
        oldEndIndex: span.oldEnd,
        newEndIndex: span.newEnd,
        startPosition: pointAt(text, span.start),
        oldEndPosition: pointAt(text, span.oldEnd),
        newEndPosition: pointAt(newText, span.newEnd),
      });
    }
    const next = parser.parse(newText, tree ?? null) ?? undefined;
    tree?.delete();
    return next;
  };

  return {
    languageId,
    stats,
    update(newText: string, changes?: TextChange[]): ExtractResult {
      if (newText === text) return last;
      const early = precheck(newText, host, languageId, opts);
      if (early) {
        drop();
        text = newText;
        last = early;
        return early;
      }
      const span = text !== undefined ? changedSpan(text, newText, changes) : undefined;
      let sites: RequestSite[];
      let incremental = false;
      if (host === 'python') {
        const prev = tree && span && pyState ? { state: pyState, span } : undefined;
        tree = parsePy(newText, span);
        const r = tree ? extractPythonTree(newText, tree, python!.queries, prev) : { sites: [], state: { units: [] } };
        incremental = !!prev;
        sites = r.sites;
        pyState = r.state;
      } else if (host === 'json') {
        sites = extractJson(newText);
      } else if (tsDoc && span) {
        sites = tsDoc.update(newText, span);
        incremental = tsDoc.lastWasIncremental;
      } else {
        tsDoc = new TsDocument(languageId, host!);
        sites = tsDoc.full(newText);
      }
      stats[incremental ? 'incremental' : 'full']++;
      text = newText;
      last = { sites };
      return last;
    },
    dispose() {
      drop();
      text = undefined;
    },
  };
}
