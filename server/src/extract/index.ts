/**
 * Public entry of the extractors: text + languageId -> RequestSite[] (see model.ts), full or incremental.
 *
 *   await ensureParser('python');              // once per language: loads web-tree-sitter + the Python grammar
 *   extract(text, 'typescript').sites          // synchronous afterwards (the TypeScript compiler loads on first use)
 *   const doc = createDocumentExtractor('python'); doc.update(text1); doc.update(text2)   // incremental re-parse
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser, Query, Tree } from 'web-tree-sitter';
import type { ExtractResult as HostResult, HostLanguage, RequestSite } from './model';
import { DEFAULT_MAX_FILE_SIZE, mayContainRequest } from './infer';
import { JsonDocument, extractJson } from './json';
import { YamlDocument, extractYaml, mayContainYamlRequest } from './yaml';
import { PyQueries, PyState, Span, extractPythonTree, pythonQueries } from './python';
import type { TsDocument } from './typescript';
import { GO_HOST, JAVA_HOST, YAML_HOST } from './hosts';
import { TreeHostName, TreeState, initTreeSitter, loadTreeHost, runTreeHost, treeParser } from './treehost';
import { goHost } from './go';
import { javaHost } from './java';
import { extractVtl, isVtl } from './vtl';

export * from './model';
export { operationsOf } from './operations';
export type { Operation, OperationKind } from './operations';

/** A part of a document that was not linted (a line of minified code), reported to the user. */
export interface NotLintedRegion {
  start: number;
  end: number;
  reason: string;
}

export interface ExtractResult extends HostResult {
  /** Parts of the document not linted although the rest was (requests overlapping them are dropped). */
  notLinted?: NotLintedRegion[];
}

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
  go: GO_HOST,
  java: JAVA_HOST,
  yaml: YAML_HOST,
  // AppSync VTL mapping templates: a JSON body around VTL (vtl.ts); fixes are written as JSON.
  vtl: 'json',
  velocity: 'json',
};

/** The tree-sitter hosts of issue 15, by language id (their `HostLanguage` names come from hosts.ts). */
const TREE_HOSTS: Record<string, TreeHostName> = { go: 'go', java: 'java' };
const treeHostOf = (languageId: string): TreeHostName | undefined => TREE_HOSTS[languageId];
const newTreeHost = (h: TreeHostName) => (h === 'go' ? goHost() : javaHost());

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
  go: 'go',
  java: 'java',
  yaml: 'yaml',
  yml: 'yaml',
  vtl: 'vtl',
  // Amazon States Language definitions saved as `*.asl` (the AWS Toolkit's own extension): JSON.
  asl: 'json',
};

/** The languageId for a file path by its extension, or undefined when no extractor handles it. */
export function languageIdForPath(path: string): string | undefined {
  const m = /\.([A-Za-z]+)$/.exec(path);
  return m ? EXTENSIONS[m[1].toLowerCase()] : undefined;
}

/** Language ids editors send for the languages we read, and what we call them. */
const LANGUAGE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
  node: 'javascript',
  ecmascript: 'javascript',
  es6: 'javascript',
  py: 'python',
  pyi: 'python',
  python3: 'python',
  json5: 'jsonc',
  golang: 'go',
  yml: 'yaml',
  // The AWS Toolkit's language ids for Step Functions definitions.
  asl: 'json',
  'asl-yaml': 'yaml',
};

/**
 * The language we lint a document as: a known language id as sent, else a known alias (`js`, `py`...), else what the
 * uri's file extension says (Neovim without filetype detection sends `""`), else the id as sent (not lintable).
 */
export function resolveLanguageId(languageId: string, uri: string): string {
  const id = languageId.trim().toLowerCase();
  if (HOSTS[id]) return id;
  if (LANGUAGE_ALIASES[id]) return LANGUAGE_ALIASES[id];
  const path = uri.replace(/[?#].*$/, '');
  const byExtension = /\.pyi$/i.test(path) ? 'python' : languageIdForPath(path);
  return byExtension ?? languageId;
}

export function hostOf(languageId: string): HostLanguage | undefined {
  return HOSTS[languageId];
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* TypeScript parser, loaded on first use                                                                             */

let tsModule: typeof import('./typescript') | undefined;

/**
 * The TS/JS extractor. Required on the first TS/JS document, not at start-up: in the bundles this is what loads the
 * TypeScript compiler (dist/typescript.js), whose compilation dominated the server's start-up.
 */
function newTsDocument(languageId: string, host: HostLanguage): TsDocument {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tsModule ??= require('./typescript') as typeof import('./typescript');
  return new tsModule.TsDocument(languageId, host);
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

/**
 * Make `languageId`'s parser ready: Python loads web-tree-sitter and its grammar (WASM) the first time; TypeScript and
 * JSON need nothing asynchronous (the compiler is required on first use). Idempotent, cheap once done.
 */
export function ensureParser(languageId: string): Promise<void> {
  const tree = treeHostOf(languageId);
  if (tree) return loadTreeHost(tree);
  return hostOf(languageId) === 'python' ? initParsers() : Promise.resolve();
}

/** Load web-tree-sitter and the Python grammar. Idempotent; TypeScript and JSON need no initialisation. */
export function initParsers(): Promise<void> {
  initializing ??= (async () => {
    await initTreeSitter();
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

/** Longest line of code (string contents not counted) read as is; longer ones are minified code. */
export const MAX_CODE_LINE = 20_000;

/** Why a whole file is not linted: too large, binary (NUL bytes: also UTF-16 text read as UTF-8). */
function fileSkipReason(text: string, maxFileSize: number): string | undefined {
  if (text.length > maxFileSize) return `file too large (${text.length} characters > maxFileSize ${maxFileSize})`;
  if (text.includes('\0')) return 'binary or UTF-16 file (NUL bytes)';
  return undefined;
}

/** Characters of a line outside string literals (quotes ' " `; escapes skipped; rough, as a size measure only). */
function codeLength(text: string, start: number, end: number): number {
  let code = 0;
  let quote = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
    } else if (c === 34 || c === 39 || c === 96) quote = c;
    else code++;
  }
  return code;
}

/**
 * Lines holding more than MAX_CODE_LINE characters of code (minified code; a long string — a base64 fixture, an
 * embedded payload — is read as is: scanning a string literal is cheap). JSON is never minified code.
 */
function minifiedLines(text: string, host: HostLanguage, window?: Span): NotLintedRegion[] {
  if (host === 'json' || text.length <= MAX_CODE_LINE) return [];
  // Only the lines the edit touched when the text before it had no minified line (the others are unchanged): the whole
  // text is read again only when one of them is (for its line number).
  if (window) {
    const from = text.lastIndexOf('\n', window.start - 1) + 1;
    const nl = text.indexOf('\n', window.newEnd);
    const to = nl < 0 ? text.length : nl;
    let longest = 0;
    for (let start = from; start <= to; ) {
      const e = text.indexOf('\n', start);
      const end = e < 0 || e > to ? to : e;
      longest = Math.max(longest, end - start);
      start = end + 1;
    }
    if (longest <= MAX_CODE_LINE) return [];
  }
  const out: NotLintedRegion[] = [];
  let line = 0;
  for (let start = 0; start <= text.length; line++) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    if (end - start > MAX_CODE_LINE) {
      const code = codeLength(text, start, end);
      if (code > MAX_CODE_LINE) out.push({ start, end, reason: `line ${line + 1} is minified code (${code} characters outside strings > ${MAX_CODE_LINE})` });
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  return out;
}

/** The text with the regions blanked out (spaces; offsets and line breaks unchanged). */
function blank(text: string, regions: NotLintedRegion[]): string {
  let out = '';
  let at = 0;
  for (const r of regions) {
    out += text.slice(at, r.start) + ' '.repeat(r.end - r.start);
    at = r.end;
  }
  return out + text.slice(at);
}

/** Requests that do not overlap a region left out (their contents there are unknown). */
const outside = (sites: RequestSite[], regions: NotLintedRegion[]) => sites.filter((s) => !regions.some((r) => s.range.start < r.end && r.start < s.range.end));

interface Prepared {
  /** What the parser reads: the text, minified lines blanked out. */
  text: string;
  notLinted?: NotLintedRegion[];
}

/** Checks shared by full and incremental extraction: a result to return now, or the text to parse. */
function precheck(text: string, host: HostLanguage | undefined, languageId: string, opts?: ExtractOptions, lines?: { free: boolean; window?: Span }): ExtractResult | Prepared {
  if (lines) lines.free = false;
  if (!host) return { sites: [], skipped: `unsupported language '${languageId}'` };
  const skipped = fileSkipReason(text, opts?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
  if (skipped) return { sites: [], skipped };
  const regions = minifiedLines(text, host, lines?.window);
  if (lines) lines.free = regions.length === 0;
  // Mostly minified (a bundle): the file is generated, not written; reported as skipped as a whole.
  const minified = regions.reduce((n, r) => n + r.end - r.start, 0);
  if (minified * 2 > text.length) return { sites: [], skipped: `minified file (${regions.length === 1 ? regions[0].reason : `${regions.length} lines of minified code, ${minified} of ${text.length} characters`})` };
  if (!mayContainRequest(text) || (languageId === 'yaml' && !mayContainYamlRequest(text))) return regions.length ? { sites: [], notLinted: regions } : { sites: [] };
  if (host === 'python' && !python) return { sites: [], skipped: 'Python parser not initialised (call ensureParser() first)' };
  const tree = treeHostOf(languageId);
  if (tree && !treeParser(tree)) return { sites: [], skipped: `${tree === 'go' ? 'Go' : 'Java'} parser not initialised (call ensureParser() first)` };
  return regions.length ? { text: blank(text, regions), notLinted: regions } : { text };
}

/** Every DynamoDB request in a document. Synchronous; Python needs `ensureParser('python')` to have completed. */
export function extract(text: string, languageId: string, opts?: ExtractOptions): ExtractResult {
  const host = hostOf(languageId);
  const ready = precheck(text, host, languageId, opts);
  if ('sites' in ready) return ready;
  const sites = extractHost(ready.text, host!, languageId);
  return ready.notLinted ? { sites: outside(sites, ready.notLinted), notLinted: ready.notLinted } : { sites };
}

function extractHost(text: string, host: HostLanguage, languageId: string): RequestSite[] {
  if (languageId === 'yaml') return extractYaml(text);
  if (isVtl(languageId)) return extractVtl(text);
  if (host === 'json') return extractJson(text);
  const th = treeHostOf(languageId);
  if (th) {
    const tree = treeParser(th)!.parse(text);
    if (!tree) return [];
    try {
      return runTreeHost(newTreeHost(th), text, tree).sites;
    } finally {
      tree.delete();
    }
  }
  if (host === 'python') {
    const tree = python!.parser.parse(text);
    if (!tree) return [];
    try {
      return extractPythonTree(text, tree, python!.queries).sites;
    } finally {
      tree.delete();
    }
  }
  return withAppSync(newTsDocument(languageId, host).full(text), text, languageId, host);
}

let appsyncModule: typeof import('./appsync') | undefined;
/** The TS extractor's sites plus the AppSync resolver requests of the document (a whole-document pass, cheap prefilter). */
function withAppSync(sites: RequestSite[], text: string, languageId: string, host: HostLanguage): RequestSite[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  appsyncModule ??= require('./appsync') as typeof import('./appsync');
  if (!appsyncModule.mayContainAppSync(text)) return sites;
  return appsyncModule.withAppSync(sites, appsyncModule.extractAppSync(text, languageId, host));
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
  /**
   * The last update: `incremental` when only the units the edit touched were re-parsed (TypeScript: top-level
   * statements, plus those reading a value declared in them; JSON: members of the root object/array; Python: top-level
   * statements queried), and how many units that was (all of them after a full parse).
   */
  readonly last: { update: 'incremental' | 'full'; reparsed: number };
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
  let appDoc: import('./appsync').AppSyncDocument | undefined;
  let jsonDoc: JsonDocument | undefined;
  let yamlDoc: YamlDocument | undefined;
  let tree: Tree | undefined;
  let pyState: PyState | undefined;
  const th = treeHostOf(languageId);
  const treeHost = th ? newTreeHost(th) : undefined;
  let treeState: TreeState | undefined;
  let last: ExtractResult = { sites: [] };
  const stats = { full: 0, incremental: 0 };
  const lastUpdate: { update: 'incremental' | 'full'; reparsed: number } = { update: 'full', reparsed: 0 };
  /**
   * Whether the text `of` has no minified line (`precheck`), and the span of the edit to check alone then (only when
   * `of` is the text the edit starts from: an extraction that threw leaves `text` at the version before).
   */
  const minified: { free: boolean; window?: Span; of?: string } = { free: false };

  const drop = () => {
    tsDoc = undefined;
    appDoc = undefined;
    jsonDoc = undefined;
    yamlDoc = undefined;
    pyState = undefined;
    treeState = undefined;
    tree?.delete();
    tree = undefined;
  };

  const parsePy = (newText: string, span?: Span): Tree | undefined => {
    const parser = th ? treeParser(th)! : python!.parser;
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
    let next = parser.parse(newText, tree ?? null) ?? undefined;
    tree?.delete();
    // tree-sitter's error recovery is not the same with an old tree to reuse: broken code may parse differently from a
    // fresh parse of the same text (a stray `}` in a Java method: the incremental tree kept the class and its later
    // methods, the fresh one put them in an ERROR). Sites come from the tree, so a tree with errors is parsed afresh.
    if (tree && next?.rootNode.hasError) {
      next.delete();
      next = parser.parse(newText) ?? undefined;
    }
    return next;
  };

  return {
    languageId,
    stats,
    last: lastUpdate,
    update(newText: string, changes?: TextChange[]): ExtractResult {
      if (newText === text) return last;
      const span = text !== undefined ? changedSpan(text, newText, changes) : undefined;
      minified.window = minified.free && minified.of === text && span ? span : undefined;
      const ready = precheck(newText, host, languageId, opts, minified);
      minified.of = newText;
      if ('sites' in ready || ready.notLinted) {
        // Skipped, or minified lines blanked out (rare): a full extraction, no state kept for the next update.
        drop();
        text = newText;
        last = 'sites' in ready ? ready : { sites: outside(extractHost(ready.text, host!, languageId), ready.notLinted!), notLinted: ready.notLinted };
        if (!('sites' in ready)) text = undefined;
        stats.full++;
        lastUpdate.update = 'full';
        lastUpdate.reparsed = 0;
        return last;
      }
      let sites: RequestSite[];
      let incremental = false;
      let reparsed: number;
      if (treeHost) {
        const prev = tree && span && treeState ? { state: treeState, span } : undefined;
        tree = parsePy(newText, span);
        const r = tree ? runTreeHost(treeHost, newText, tree, prev) : { sites: [], state: { units: [] }, reparsed: 0 };
        incremental = !!prev;
        sites = r.sites;
        treeState = r.state;
        reparsed = r.reparsed;
      } else if (host === 'python') {
        const prev = tree && span && pyState ? { state: pyState, span } : undefined;
        tree = parsePy(newText, span);
        const r = tree ? extractPythonTree(newText, tree, python!.queries, prev) : { sites: [], state: { units: [] }, reparsed: 0 };
        incremental = !!prev;
        sites = r.sites;
        pyState = r.state;
        reparsed = r.reparsed;
      } else if (languageId === 'yaml') {
        if (yamlDoc && span && text !== undefined) {
          sites = yamlDoc.update(newText, span, text);
          incremental = yamlDoc.lastWasIncremental;
        } else {
          yamlDoc = new YamlDocument();
          sites = yamlDoc.full(newText);
        }
        reparsed = yamlDoc.lastReparsed;
      } else if (isVtl(languageId)) {
        // Templates are small and usually one request: every update reads the whole template.
        sites = extractVtl(newText);
        reparsed = 1;
      } else if (host === 'json') {
        if (jsonDoc && span) {
          sites = jsonDoc.update(newText, span);
          incremental = jsonDoc.lastWasIncremental;
        } else {
          jsonDoc = new JsonDocument();
          sites = jsonDoc.full(newText);
        }
        reparsed = jsonDoc.lastReparsed;
      } else {
        if (tsDoc && span) {
          sites = tsDoc.update(newText, span);
          incremental = tsDoc.lastWasIncremental;
        } else {
          tsDoc = newTsDocument(languageId, host!);
          sites = tsDoc.full(newText);
        }
        reparsed = tsDoc.lastReparsed;
        // AppSync requests: a pass of its own, per top-level statement as well (appsync.ts).
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        appsyncModule ??= require('./appsync') as typeof import('./appsync');
        const hadApp = !!appDoc;
        appDoc ??= new appsyncModule.AppSyncDocument(languageId, host!);
        sites = appsyncModule.withAppSync(sites, hadApp && span ? appDoc.update(newText, span) : appDoc.full(newText));
      }
      stats[incremental ? 'incremental' : 'full']++;
      lastUpdate.update = incremental ? 'incremental' : 'full';
      lastUpdate.reparsed = reparsed;
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
