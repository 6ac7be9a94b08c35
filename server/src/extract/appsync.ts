/**
 * AppSync JavaScript resolvers (`APPSYNC_JS`): the DynamoDB request objects a resolver's `request(ctx)` returns
 * (`{ operation: 'UpdateItem', key, update: {...}, condition: {...} }`, `PutItem` with `attributeValues`, `DeleteItem`,
 * `TransactWriteItems` with `transactItems`), read as DynamoDB requests through appsync-shape.ts. A separate pass over
 * the TypeScript/JavaScript document, added to the TS extractor's sites by index.ts.
 *
 * Which objects: in a file importing `@aws-appsync/utils` (or `/dynamodb`), every object literal whose `operation` is
 * one of the write operations; elsewhere only one returned by an exported `request` function. Values are document
 * style: plain JS values, `util.dynamodb.toMapValues({...})` / `toDynamoDB(x)` read as their argument; `ctx.args.x`,
 * `ctx.identity`, variables and other calls are unknown. The `@aws-appsync/utils/dynamodb` helpers (`update({ key,
 * update: { n: operations.increment(1) } })`, `put`, `remove`) are read by appsync-helpers.ts as the request they build.
 */
import ts from 'typescript';
import type { Api, HostLanguage, ObjectNode, Range, RequestSite, VNode } from './model';
import { continuesPrevious, createTsSourceFile, hasParseErrors, scriptKind } from './typescript';
import { ownCopy } from '../core/strings';
import { shiftSite } from './remap';
import { decodeJs } from './strings';
import { inferStyle } from './infer';
import { APPSYNC_OPERATIONS, appSyncOperation, mapAppSyncRequest } from './appsync-shape';
import { APPSYNC_HELPER_SDK, helperImports, helperOf, helperRequest, type HelperImports, type HelperReader } from './appsync-helpers';

/** Cheap test before the pass: an AppSync import or an `operation:` key. */
export function mayContainAppSync(text: string): boolean {
  return text.includes('@aws-appsync') || /\boperation['"]?\s*:/.test(text);
}

/**
 * Whether a text the prefilter rejected may hold a match after an edit (`span`, in `text` the new text): only around
 * the edit, as the text before it held none. The window covers any match overlapping or joined by the edit: `@aws-appsync`
 * (12 chars) either side, and `operation`, a quote, whitespace (any run, read here), `:` (so, before the edit, the
 * whitespace run ending there and 11 chars, one for `\b`; after it, 10 chars, the whitespace run from there, `:`). A
 * match the window's cut makes up (`\b` at its first char) only costs the full test.
 */
export function mayContainAppSyncNear(text: string, start: number, newEnd: number): boolean {
  let a = start;
  while (a > 0 && /\s/.test(text[a - 1])) a--;
  a = Math.max(0, Math.min(a - 11, start - 12));
  let b = Math.min(text.length, newEnd + 10);
  while (b < text.length && /\s/.test(text[b])) b++;
  b = Math.min(text.length, Math.max(b + 1, newEnd + 12));
  return mayContainAppSync(text.slice(a, b));
}

const MAX_DEPTH = 64;
/** Calls AppSync's runtime turns into attribute values: read as the value they convert (document style). */
const CONVERTERS = /^util\.dynamodb\.(toMapValues|toDynamoDB|toString|toNumber|toBoolean|toList|toMap)$/;

interface Ctx {
  /** What was parsed: the document, or a region of it (statements re-parsed after an edit). */
  text: string;
  sf: ts.SourceFile;
  /** Document offset of the parsed text's start. */
  delta: number;
}

/** A node's range in the document. */
const rangeOf = (c: Ctx, n: ts.Node): Range => ({ start: n.getStart(c.sf) + c.delta, end: n.end + c.delta });
/** The source text of a document range. */
const textOf = (c: Ctx, start: number, end: number): string => c.text.slice(start - c.delta, end - c.delta);
const unknown = (c: Ctx, n: ts.Node): VNode => {
  const r = rangeOf(c, n);
  return { kind: 'unknown', range: r, text: textOf(c, r.start, Math.min(r.end, r.start + 120)) };
};

function keyOf(c: Ctx, name: ts.PropertyName): { key: string; range: Range } | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return { key: name.text, range: rangeOf(c, name) };
  if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isNumericLiteral(name)) return { key: name.text, range: rangeOf(c, name) };
  return undefined;
}

/** A value tree in document style (iterative over nesting through `depth`, capped). */
function value(c: Ctx, e: ts.Expression, depth: number): VNode {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  if (depth > MAX_DEPTH) return unknown(c, e);
  const range = rangeOf(c, e);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return decodeJs(textOf(c, range.start + 1, range.end - 1), range.start + 1, range, ts.isNoSubstitutionTemplateLiteral(e));
  if (ts.isTemplateExpression(e)) return { ...(unknown(c, e) as { kind: 'unknown'; range: Range; text?: string }), type: 'S' };
  if (ts.isNumericLiteral(e)) return { kind: 'number', text: textOf(c, range.start, range.end).replace(/_/g, ''), range };
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return { kind: 'number', text: '-' + e.operand.text, range };
  if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return { kind: 'bool', value: e.kind === ts.SyntaxKind.TrueKeyword, range };
  if (e.kind === ts.SyntaxKind.NullKeyword) return { kind: 'null', range };
  if (ts.isObjectLiteralExpression(e)) return object(c, e, depth);
  if (ts.isArrayLiteralExpression(e)) {
    const items: VNode[] = [];
    let complete = true;
    for (const el of e.elements) {
      if (ts.isSpreadElement(el) || ts.isOmittedExpression(el)) complete = false;
      else items.push(value(c, el, depth + 1));
    }
    return { kind: 'array', items, complete, range };
  }
  if (ts.isCallExpression(e) && e.arguments.length === 1 && CONVERTERS.test(e.expression.getText(c.sf).replace(/\s+/g, ''))) return value(c, e.arguments[0], depth + 1);
  return unknown(c, e);
}

function object(c: Ctx, e: ts.ObjectLiteralExpression, depth: number): ObjectNode {
  const o: ObjectNode = { kind: 'object', properties: [], complete: true, range: rangeOf(c, e) };
  for (const p of e.properties) {
    if (ts.isPropertyAssignment(p)) {
      const k = keyOf(c, p.name);
      if (!k) {
        o.complete = false;
        continue;
      }
      o.properties.push({ key: k.key, keyRange: k.range, value: value(c, p.initializer, depth + 1), range: rangeOf(c, p) });
    } else if (ts.isShorthandPropertyAssignment(p)) {
      // `{ id }`: a variable's value, unknown here. (Ranges are never shared: sites are shifted in place after edits.)
      const r = rangeOf(c, p.name);
      o.properties.push({ key: p.name.text, keyRange: r, value: { kind: 'unknown', range: { ...r }, text: p.name.text }, range: rangeOf(c, p) });
    } else o.complete = false;
  }
  return o;
}

const isExported = (n: ts.Node) => !!ts.canHaveModifiers(n) && !!ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The exported `request` function a statement declares (`export function request`, `export const request = (ctx) =>`). */
function exportedRequest(s: ts.Statement): { name: string; node: ts.Node } | undefined {
  if (!isExported(s)) return undefined;
  if (ts.isFunctionDeclaration(s) && s.name?.text === 'request' && s.body) return { name: 'request', node: s };
  if (ts.isVariableStatement(s))
    for (const d of s.declarationList.declarations)
      if (ts.isIdentifier(d.name) && d.name.text === 'request' && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) return { name: 'request', node: d.initializer };
  return undefined;
}

/** Object literals a function returns (its `return {...}` statements, a concise arrow body), not nested functions'. */
function returnedObjects(fn: ts.Node): ts.ObjectLiteralExpression[] {
  const out: ts.ObjectLiteralExpression[] = [];
  const body = ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isArrowFunction(fn) ? fn.body : undefined;
  if (!body) return out;
  const strip = (e: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) ? strip(e.expression) : e);
  if (!ts.isBlock(body)) {
    const e = strip(body);
    if (ts.isObjectLiteralExpression(e)) out.push(e);
    return out;
  }
  const stack: ts.Node[] = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (ts.isReturnStatement(n) && n.expression) {
      const e = strip(n.expression);
      if (ts.isObjectLiteralExpression(e)) out.push(e);
      continue;
    }
    if (n !== body && ts.isFunctionLike(n)) continue;
    n.forEachChild((ch) => void stack.push(ch));
  }
  return out;
}

function imports(sf: ts.SourceFile): boolean {
  return sf.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && /^@aws-appsync\/utils(\/dynamodb)?$/.test(s.moduleSpecifier.text));
}

interface Candidate {
  node: ts.ObjectLiteralExpression;
  fn?: { name: string; range: Range };
}

interface HelperCall {
  call: ts.CallExpression;
  helper: { helper: string; api: Api; name: ts.Node };
  fn?: { name: string; range: Range };
}

/**
 * Every object literal with an `operation:` key in the file, and every `@aws-appsync/utils/dynamodb` helper call, with
 * the function around it (iterative walk).
 */
function operationObjects(c: Ctx, root: ts.Node, imp?: HelperImports): { objects: Candidate[]; calls: HelperCall[] } {
  const out: Candidate[] = [];
  const calls: HelperCall[] = [];
  const stack: { n: ts.Node; fn?: { name: string; range: Range } }[] = [{ n: root }];
  while (stack.length) {
    const { n, fn } = stack.pop()!;
    if (ts.isObjectLiteralExpression(n) && n.properties.some((p) => ts.isPropertyAssignment(p) && keyOf(c, p.name)?.key === 'operation')) {
      out.push({ node: n, fn });
      continue;
    }
    const helper = imp && ts.isCallExpression(n) ? helperOf(n, imp) : undefined;
    if (helper) {
      calls.push({ call: n as ts.CallExpression, helper, fn });
      continue;
    }
    let inner = fn;
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) inner = n.name && ts.isIdentifier(n.name) ? { name: n.name.text, range: rangeOf(c, n) } : fn;
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) inner = { name: n.name.text, range: rangeOf(c, n.initializer) };
    const children: ts.Node[] = [];
    n.forEachChild((ch) => void children.push(ch));
    for (let i = children.length - 1; i >= 0; i--) stack.push({ n: children[i], fn: inner });
  }
  return { objects: out, calls };
}

/** What the file's imports decide for every statement: whether it imports AppSync's utils, and the helper names. */
interface Mode {
  imports: boolean;
  imp?: HelperImports;
}

function modeOf(sf: ts.SourceFile): Mode {
  return imports(sf) ? { imports: true, imp: helperImports(sf) } : { imports: false };
}

/** The AppSync requests of one top-level statement, in document order. */
function statementSites(c: Ctx, stmt: ts.Statement, mode: Mode, host: HostLanguage): RequestSite[] {
  let candidates: Candidate[];
  let calls: HelperCall[] = [];
  const imp = mode.imp;
  if (mode.imports) ({ objects: candidates, calls } = operationObjects(c, stmt, imp));
  else {
    candidates = [];
    const r = exportedRequest(stmt);
    if (r) for (const node of returnedObjects(r.node)) candidates.push({ node, fn: { name: r.name, range: rangeOf(c, r.node) } });
  }
  const sites: RequestSite[] = [];
  for (const cand of candidates) {
    const o = object(c, cand.node, 0);
    const op = appSyncOperation(o);
    const api = op && APPSYNC_OPERATIONS.get(op.op);
    if (!op || !api) continue;
    const params = mapAppSyncRequest(o, op.op);
    const site: RequestSite = { api, apiSource: 'call', style: inferStyle(params, 'document'), host, range: { ...o.range }, nameRange: { ...op.range }, params, sdk: 'appsync-js' };
    if (cand.fn) site.enclosingFunction = cand.fn;
    sites.push(site);
  }
  if (calls.length) {
    const reader: HelperReader = { sf: c.sf, value: (e) => value(c, e, 1), range: (n) => rangeOf(c, n), key: (n) => keyOf(c, n)?.key };
    for (const { call, helper, fn } of calls) {
      const params = helperRequest(reader, call, helper.helper, imp!);
      if (!params) continue;
      const site: RequestSite = { api: helper.api, apiSource: 'call', style: 'document', host, range: rangeOf(c, call), nameRange: rangeOf(c, helper.name), params, sdk: APPSYNC_HELPER_SDK };
      if (fn) site.enclosingFunction = fn;
      sites.push(site);
    }
  }
  // Document order (a stable sort): the statements' lists then concatenate into the document's order.
  return sites.length > 1 ? sites.sort((a, b) => a.range.start - b.range.start) : sites;
}

/** The AppSync requests of a TS/JS document (empty when it has none). */
export function extractAppSync(text: string, languageId: string, host: HostLanguage): RequestSite[] {
  return new AppSyncDocument(languageId, host).full(text);
}

/** A top-level statement: where it is (its leading trivia included, as the parser's `pos`) and its requests. */
interface Unit {
  pos: number;
  end: number;
  /** An import declaration: what it imports decides how every statement is read (`Mode`). */
  isImport: boolean;
  sites: RequestSite[];
}

/**
 * The AppSync pass of a TS/JS document kept between edits, per top-level statement like the TS extractor (typescript.ts
 * `TsDocument`): after an edit only the statements it touches are parsed again (on their own, offsets moved by their
 * start) and read; the others keep their sites, shifted in place when after the edit. What a statement yields depends
 * on the rest of the file only through its imports (`Mode`), so the whole document is read again when the edit touches
 * or makes an import, the re-parsed text has syntax errors, a statement boundary could join its neighbour (ASI), or
 * the last full parse had syntax errors or had to flatten deep nesting. A document the prefilter rejects holds nothing (and is not parsed).
 */
export class AppSyncDocument {
  private units: Unit[] = [];
  private text = '';
  private mode: Mode = { imports: false };
  /** Whether `units` describe `text` (a parse, not flattened, of a text the prefilter let through). */
  private active = false;
  /** Whether the prefilter rejected `text` (then an edit is tested around itself only: `mayContainAppSyncNear`). */
  private rejected = false;
  /** Whether the last update re-read only the statements the edit touched. */
  lastWasIncremental = false;
  /** Statements parsed and read by the last update (0 when the prefilter rejected the text). */
  lastReparsed = 0;

  constructor(
    private languageId: string,
    private host: HostLanguage,
  ) {}

  full(text: string): RequestSite[] {
    this.text = text;
    this.units = [];
    this.active = false;
    this.lastReparsed = 0;
    this.rejected = !mayContainAppSync(text);
    if (this.rejected) return [];
    const sf = createTsSourceFile(text, this.languageId);
    const c: Ctx = { text, sf, delta: 0 };
    this.mode = modeOf(sf);
    this.units = sf.statements.map((stmt) => ({ pos: stmt.pos, end: stmt.end, isImport: ts.isImportDeclaration(stmt), sites: statementSites(c, stmt, this.mode, this.host) }));
    // Statements of a parse with errors may end where the error recovery put them, which a later parse of one of them
    // alone would not reproduce: only a clean parse is kept for the next edit (the property tests fail without it).
    this.active = sf.text === text && !hasParseErrors(sf);
    this.lastReparsed = this.units.length;
    return this.collect();
  }

  /** Sites of the new text, given the one span that changed since the last `full` / `update`. */
  update(text: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] {
    if (this.rejected && !mayContainAppSyncNear(text, span.start, span.newEnd)) {
      // As `full` would: the whole text again (~0.06 ms on the 5,000-line shapes file at each edit).
      this.text = text;
      this.lastWasIncremental = false;
      this.lastReparsed = 0;
      return [];
    }
    const sites = this.active && mayContainAppSync(text) ? this.incremental(text, span) : undefined;
    this.lastWasIncremental = !!sites;
    return sites ?? this.full(text);
  }

  private collect(): RequestSite[] {
    const out: RequestSite[] = [];
    for (const u of this.units) for (const s of u.sites) out.push(s);
    return out;
  }

  private incremental(newText: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] | undefined {
    const units = this.units;
    const n = units.length;
    if (!n) return undefined;
    let i = 0;
    while (i < n - 1 && units[i].end < span.start) i++;
    let j = i;
    while (j + 1 < n && units[j + 1].pos <= span.oldEnd) j++;
    const toEnd = j === n - 1;
    const regionStart = units[i].pos;
    const regionEndOld = toEnd ? this.text.length : units[j].end;
    if (span.start < regionStart || span.oldEnd > regionEndOld) return undefined;
    for (let k = i; k <= j; k++) if (units[k].isImport) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const regionText = ownCopy(newText.slice(regionStart, regionEndOld + diff));
    if ((i > 0 && continuesPrevious(regionText)) || (!toEnd && continuesPrevious(newText, regionEndOld + diff))) return undefined;
    let sf: ts.SourceFile;
    try {
      sf = ts.createSourceFile('file', regionText, ts.ScriptTarget.Latest, false, scriptKind(this.languageId));
    } catch {
      return undefined;
    }
    if (hasParseErrors(sf) || !sf.statements.length) return undefined;
    if (!toEnd && sf.statements[sf.statements.length - 1].end !== regionText.length) return undefined;
    if (sf.statements.some((st) => ts.isImportDeclaration(st))) return undefined;
    const c: Ctx = { text: regionText, sf, delta: regionStart };
    const fresh: Unit[] = sf.statements.map((stmt) => ({ pos: stmt.pos + regionStart, end: stmt.end + regionStart, isImport: false, sites: statementSites(c, stmt, this.mode, this.host) }));
    if (diff !== 0)
      for (let k = j + 1; k < n; k++) {
        const u = units[k];
        u.pos += diff;
        u.end += diff;
        for (const site of u.sites) shiftSite(site, regionEndOld, diff);
      }
    this.units = [...units.slice(0, i), ...fresh, ...units.slice(j + 1)];
    this.text = newText;
    this.lastReparsed = fresh.length;
    return this.collect();
  }
}

/** The TS extractor's sites and the AppSync ones, in document order (neither list is changed; both are in order). */
export function withAppSync(sites: RequestSite[], app: RequestSite[]): RequestSite[] {
  if (!app.length) return sites;
  // A merge; on equal starts the TS site first, as a stable sort of the concatenation put it.
  const out: RequestSite[] = [];
  let a = 0;
  let b = 0;
  while (a < sites.length && b < app.length) out.push(app[b].range.start < sites[a].range.start ? app[b++] : sites[a++]);
  while (a < sites.length) out.push(sites[a++]);
  while (b < app.length) out.push(app[b++]);
  return out;
}
