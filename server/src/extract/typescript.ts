/**
 * TypeScript / JavaScript via the TypeScript compiler's parser (no type checker): SDK v3 commands (client and
 * lib-dynamodb), aggregated clients, SDK v2 DynamoDB / DocumentClient, typed inputs, and object literals passed by name.
 */
import ts from 'typescript';
import { Api, ArrayNode, HostLanguage, ObjectNode, Property, Range, RequestSite, StringNode, UnknownNode, VNode, ValueStyle, prop, unreadEntries } from './model';
import { DOC_COMMANDS, DOC_METHODS, LOW_COMMANDS, LOW_METHODS, MAX_PARSE_DEPTH, apiOfTypeName, EXPRESSION_KEYS, flattenDeepNesting, inferApi, shapeApi, dropHeldShapes, inferStyle, looksLikeRequest, markIncomplete, markMutatedLater, mutatedLater } from './infer';
import { base64DecodedLength, utf8Length } from '../core/dynamodb';
import { concatStrings, ownCopy, plain, plainBase } from '../core/strings';
import { FnSpan, Moves, bornIn, bornInPlace, entry, fnSpan, objectNode, unknownNode, withProperties, withValue } from '../core/compact';
import { decodeJs } from './strings';
import { SiteSpan, freezeSites, maxRef, ownReceiver, shiftSite, shiftSites } from './remap';
import { MAX_ALTERNATIVES, Op, State, applyAll, cloneTree, flatten, join, oneOf, spreadChoices, valueOf, variants } from '../flow';

const K = ts.SyntaxKind;
const MAX_VALUE_DEPTH = 64;
const MAX_RESOLVE = 16;
/** Statements the data flow of one statement may interpret in all (bounded work on any input). */
const FLOW_BUDGET = 200_000;
/** What reading a declaration's initialiser costs of FLOW_BUDGET (at most 2,000 reads a statement). */
const RESOLVE_COST = 100;
/** How deep requests are followed through helpers that call helpers. */
const MAX_FORWARD_DEPTH = 3;
/** Methods named like a DynamoDB API on `this` whose definition is not in the file (an inherited repository helper). */
/** Words saying a class or statement is about a database repository (read from the statement only: incremental). */
export const DAO_WORDS = /dynamo|repositor|dao/i;
const WRAPPER_METHODS: Record<string, Api> = { putItem: 'PutItem', updateItem: 'UpdateItem', deleteItem: 'DeleteItem' };

type ClientKind = 'v3-low-agg' | 'v3-low-bare' | 'v3-doc-agg' | 'v3-doc-bare' | 'v2-low' | 'v2-doc';
const CLIENTS: Record<ClientKind, { style: ValueStyle; sdk: string; methods?: Map<string, Api> }> = {
  'v3-low-agg': { style: 'low-level', sdk: 'sdk-v3', methods: LOW_METHODS },
  'v3-low-bare': { style: 'low-level', sdk: 'sdk-v3' },
  'v3-doc-agg': { style: 'document', sdk: 'sdk-v3-lib', methods: DOC_METHODS },
  'v3-doc-bare': { style: 'document', sdk: 'sdk-v3-lib' },
  'v2-low': { style: 'low-level', sdk: 'sdk-v2', methods: LOW_METHODS },
  'v2-doc': { style: 'document', sdk: 'sdk-v2-doc', methods: DOC_METHODS },
};

const V3_LOW = '@aws-sdk/client-dynamodb';
const V3_DOC = '@aws-sdk/lib-dynamodb';
const isV2Module = (m: string) => m === 'aws-sdk' || m.startsWith('aws-sdk/');
/** `return p` around a mention of a local name: the text before it, and after it (the value ends there). */
const RETURN_BEFORE = /(?:^|[^\w$.])return\s*\(?\s*$/;
const RETURN_AFTER = /^\s*(?:[);}\n]|$|\[|\.|!)/;

/**
 * A top-level statement. While it is extracted it holds its parse (`stmt`); afterwards only its boundaries, its sites,
 * what it contributes to the environment (`key`, `decls`) and which environment statements it read (`deps`), so an
 * open document keeps sites and boundaries, not its AST. `sf` is a text-only stand-in for the parse's source file
 * (positions in `sf.text` plus `delta` are document offsets).
 */
interface Unit {
  sf: ts.SourceFile;
  delta: number;
  /** The statement's node while extracting it; dropped afterwards (re-extraction re-parses the statement's text). */
  stmt?: ts.Statement;
  /** The statement's `pos` / `end` in `sf`. */
  pos: number;
  end: number;
  /** What the statement contributes to the environment apart from values (names, clients, wrappers, imports). */
  key: string;
  /** Its module-level declarations, in order (their values are read by other statements, which record that in `deps`). */
  decls: Decl[];
  /** The other statements whose declarations its extraction read (`NO_DEPS` when none: read-only, shared). */
  deps: ReadonlySet<Unit>;
  sites: RequestSite[];
  consumed: ts.Node[];
  /** A class body's or an object literal's function members, when one may be re-extracted alone (`TsDocument.memberEdit`). */
  members?: Members;
  /** Top-level object literals that are requests only if no call in any statement consumes them. */
  deferred: Candidate[];
  /** Largest document offset its sites mention (they may point into constants elsewhere). */
  maxRef: number;
  /**
   * The `sites` array `hasShape` and `ordered` were found for (`collect`; a unit's `sites` is replaced, never changed):
   * whether it holds a shape site, whether its sites are in order and start inside the statement (then, the units
   * being in document order, the document's sites are in order without reading each one at every edit).
   */
  checked: RequestSite[] | undefined;
  /**
   * The sites in document order (`collect` hands these out): `sites` itself, or, when they all start inside the
   * statement but not in order (a helper's request forwarded to a call above it), a copy sorted once per sites array
   * (stably, by start: what sorting the document's list did). Moves keep it in order: they move every offset of a
   * statement other than the edited ones by the same monotonic rule.
   */
  inOrder: RequestSite[];
  hasShape: boolean;
  ordered: boolean;
  /**
   * `const x = {...}` after a member edit that parsed only the member (`TsDocument.memberEdit`): `sf`, `decls` (the
   * declaration other statements read) are of the statement's text before the edit; the first read of one of its
   * declarations parses the statement again (`Env.refresh`). Its boundaries, sites and members are current.
   */
  stale?: boolean;
  /**
   * The statement holds a parse error, or the parser reported one at the next statement's first token (a one-parse full
   * extraction of a document with errors; chunks and regions parse without). Its recovery may have ended it only
   * because of that token, so an edit there could extend it in a fresh parse, and an edit inside it may make a region
   * that parses alone but not so in the document: the statement path neither re-parses it (a span starting in it or
   * reaching into it) nor starts right after it.
   */
  broken?: boolean;
}

interface Decl {
  name: string;
  init?: ts.Expression;
  /** A module-level function or class value: what resolving it gives (an unknown node, in `unit.sf` positions) without keeping its AST. */
  opaque?: { start: number; end: number; text: string };
  isConst: boolean;
  scope: ts.Node;
  pos: number;
  unit: Unit;
}

interface Fn {
  name: string;
  range: Range;
}

/** A call of `this.m(...)` / `f(...)` inside a function: a local helper's requests are forwarded to it (`forwardCalls`). */
interface CallRec {
  name: string;
  method: boolean;
  fn: Fn;
  branch: string;
  range: Range;
  nameRange: Range;
}

/**
 * What a member's extraction (`TsDocument.memberEdit`) takes from the rest of its statement, as the statement's full
 * extraction saw it: the clients after the walk, the local names declared before the member (a bare call of such a
 * name is no wrapper call), the helper keys of the other members (`wrapperCall`), whether the statement names a
 * repository.
 */
interface MemberSeed {
  /** The member to walk when the unit's statement is the whole statement (a `const x = {...}` parsed again), and its parent. */
  root?: { node: ts.Node; parent: ts.Node };
  clients: Map<string, ClientKind>;
  priorDecls: Set<string>;
  fnKeys: Set<string>;
  dao: boolean;
}

/**
 * What one part of a statement (a function member of a class body or an object literal, or the rest of the statement)
 * contributed to its extraction, in the unit's own coordinates (document offset - `unit.delta`): the named functions
 * it defines (helpers others may call), its helper calls, the clients it sets (in order), its local declaration names,
 * the other statements it read and the module-level literals it consumed.
 */
interface Part {
  fns: { key: string; fn: Fn }[];
  calls: CallRec[];
  clients: string;
  decls: string[];
  deps: Unit[];
  consumed: ts.Node[];
}

/** A function member (method, accessor, constructor, property holding a function): re-extracted alone after an edit inside it. */
interface Member extends Part {
  pos: number;
  end: number;
  /** Its first token. */
  start: number;
  /** Its text without the function's body: an edit that changes it re-extracts the statement. */
  head: string;
}

/** The members of a class body or of `x = {...}`, and what the statement's extraction needs to re-extract one alone. */
interface Members {
  /** `var`: `const x = {...}` (a declaration other statements may read: re-parsed whole, its member extracted alone). */
  kind: 'object' | 'class' | 'var';
  list: Member[];
  rest: Part;
  /** Every local declaration of the statement (unit coordinates), in order. */
  declsAt: { at: number; name: string }[];
  clients: Map<string, ClientKind>;
  dao: boolean;
  /** Flow statements the statement's extraction interpreted (an upper bound after member edits). */
  budget: number;
}

/** What the data flow of one local name is reading (see `UnitExtractor.flow`). */
interface FlowCtx {
  name: string;
  mention: RegExp;
  use: ts.Node;
  depth: number;
  hops: number;
  isConst: boolean;
}

interface Candidate {
  node: ts.Node;
  fn?: Fn;
  parent?: ts.Node;
  /**
   * A literal typed by a signature: the enclosing function's declared return type (`(): UpdateCommandInput => ({...})`)
   * or the parameter type of the wrapper it is passed to (`update({...})`, `function update(p: UpdateCommandInput)`).
   */
  returnType?: ts.TypeNode;
  /** What names the request (hover, related locations) when not the type: the wrapper's name at the call. */
  name?: ts.Node;
  /**
   * An object literal that is a request by its shape alone (`shapeApi`), passed to no call: an exported constant, a
   * config map entry, a fixture. `outer`: the module-level declaration's literal it sits in (a call of another
   * statement consuming that literal takes it too).
   */
  shape?: { outer?: ts.Node };
}

/** Sites of request-shaped literals (`Candidate.shape`): dropped when another site's parameters contain them. */
const shapeSites = new WeakSet<RequestSite>();

/** Find `Unit.hasShape` and `Unit.ordered` for the unit's current sites (document offsets as they are now). */
function checkUnit(u: Unit): void {
  const sites = u.sites;
  const start = u.pos + u.delta;
  const end = u.end + u.delta;
  let ordered = true;
  let inside = true;
  let prev = start;
  let shape = false;
  const starts: number[] = [];
  for (const s of sites) {
    const at = s.range.start;
    starts.push(at);
    if (at < prev) ordered = false;
    if (at < start || at >= end) inside = false;
    prev = at;
    if (!shape && shapeSites.has(s)) shape = true;
  }
  u.checked = sites;
  u.hasShape = shape;
  u.ordered = ordered && inside;
  u.inOrder = sites;
  if (!ordered && inside) {
    // Array.prototype.sort is stable: equal starts keep their order, as in the document-wide sort.
    const order = sites.map((_, k) => k).sort((a, b) => starts[a] - starts[b]);
    u.inOrder = order.map((k) => sites[k]);
    u.ordered = true;
  }
}

/** An object literal with a DynamoDB expression key or `TransactItems` (the cheap test before `shapeApi`). */
function hasShapeKey(o: ts.ObjectLiteralExpression): boolean {
  for (const p of o.properties) {
    const n = p.name;
    if (n && (ts.isIdentifier(n) || ts.isStringLiteral(n)) && (EXPRESSION_KEYS.has(n.text) || n.text === 'TransactItems')) return true;
  }
  return false;
}

/**
 * Whether `candidate` may make a site of a module-level `const x = {...}` (deferred to the document): the declaration
 * is typed, or the literal has a key that is or may be `TableName` (a spread, a computed key). Otherwise it never does
 * (an untyped plain candidate needs a `TableName` of its own), whatever the values: nothing to evaluate at each edit.
 */
function mayHoldTableName(d: ts.VariableDeclaration): boolean {
  if (d.type) return true;
  const o = unwrap(d.initializer!) as ts.ObjectLiteralExpression;
  for (const p of o.properties) {
    const n = p.name;
    if (!n || !(ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isPrivateIdentifier(n)) || n.text === 'TableName') return true;
  }
  return false;
}

/**
 * The value of a transaction entry's action key (`{ Update: {...} }`): one action of a transaction built elsewhere, not
 * a request sent on its own; inside a function such a literal is no request by shape (its transaction is unknown).
 */
function isTransactionAction(parent: ts.Node): boolean {
  return ts.isPropertyAssignment(parent) && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)) && TRANSACTION_ACTIONS.has(parent.name.text);
}
const TRANSACTION_ACTIONS = new Set(['Put', 'Update', 'Delete', 'ConditionCheck', 'Get']);

/** Names visible to every statement: imports, module-level declarations, clients, which SDKs the file uses. */
interface Env {
  imports: Map<string, { name: string; module: string }>;
  decls: Map<string, Decl[]>;
  clients: Map<string, ClientKind>;
  usesV3: boolean;
  usesLib: boolean;
  /** Module-level wrappers taking a request input: `function update(params: UpdateCommandInput)` -> its typed parameters. */
  wrappers: Map<string, { index: number; type: ts.TypeNode }[]>;
  /** Brings a `stale` unit's parse and declarations up to the document's text (swapped in `decls` in place). */
  refresh?: (u: Unit) => void;
}

export function scriptKind(languageId: string): ts.ScriptKind {
  return languageId === 'typescriptreact' ? ts.ScriptKind.TSX : languageId === 'typescript' ? ts.ScriptKind.TS : languageId === 'javascriptreact' ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

/**
 * A parse of exactly this text that the host already made with this compiler (the ESLint plugin passes
 * typescript-eslint's), reused instead of parsing again; undefined to parse. See eslint/typescript.ts.
 */
let preParsed: ((text: string, kind: ts.ScriptKind) => ts.SourceFile | undefined) | undefined;
export function setPreParsed(provider: typeof preParsed): void {
  preParsed = provider;
}

/** Whether the parser reported syntax errors (an unknown answer counts as errors). */
export function hasParseErrors(sf: ts.SourceFile): boolean {
  const diagnostics = (sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics;
  return !diagnostics || diagnostics.length > 0;
}

export function createTsSourceFile(text: string, languageId: string): ts.SourceFile {
  const reused = preParsed?.(text, scriptKind(languageId));
  if (reused) return reused;
  const parse = (t: string) => ts.createSourceFile('file', t, ts.ScriptTarget.Latest, false, scriptKind(languageId));
  try {
    return parse(text);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return parse(flattenDeepNesting(text, MAX_PARSE_DEPTH));
  }
}

function unwrap(e: ts.Expression): ts.Expression {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e) || ts.isAwaitExpression(e)) e = e.expression;
    else return e;
  }
}

/** `a.b.C` -> ['a', 'b', 'C'] for identifiers and property accesses (also `this.x`). */
function dotted(e: ts.Node): string[] | undefined {
  const parts: string[] = [];
  for (;;) {
    if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return [e.text, ...parts];
    if (e.kind === K.ThisKeyword) return ['this', ...parts];
    if (ts.isPropertyAccessExpression(e)) {
      parts.unshift(e.name.text);
      e = e.expression;
    } else if (ts.isQualifiedName(e)) {
      parts.unshift(e.right.text);
      e = e.left;
    } else if (ts.isTypeReferenceNode(e)) e = e.typeName;
    else return undefined;
  }
}

const FUNCTION_KINDS = new Set([K.FunctionDeclaration, K.MethodDeclaration, K.GetAccessor, K.SetAccessor, K.Constructor, K.FunctionExpression, K.ArrowFunction]);
const SCOPE_KINDS = new Set([...FUNCTION_KINDS, K.Block, K.SourceFile, K.ModuleBlock, K.CaseBlock, K.ForStatement, K.ForOfStatement, K.ForInStatement, K.ClassDeclaration, K.ClassExpression]);

/** Parameters typed with a request input type name (`params: UpdateCommandInput`), by position. */
function typedParameters(f: ts.SignatureDeclaration): { index: number; type: ts.TypeNode }[] {
  const out: { index: number; type: ts.TypeNode }[] = [];
  f.parameters.forEach((p, index) => {
    const name = p.type && ts.isTypeReferenceNode(p.type) ? dotted(p.type.typeName as unknown as ts.Expression)?.pop() : undefined;
    if (name && apiOfTypeName(name) && p.type) out.push({ index, type: p.type });
  });
  return out;
}

/** A wrapper's signature as other statements see it: name, typed parameter positions and types. */
function wrapperKey(name: string, typed: { index: number; type: ts.TypeNode }[], sf: ts.SourceFile): string {
  return `${name}(${typed.map((t) => `${t.index}:${t.type.getText(sf)}`).join(',')})`;
}

function requireOf(init: ts.Expression | undefined): string | undefined {
  return init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' && init.arguments[0] && ts.isStringLiteral(init.arguments[0]) ? init.arguments[0].text : undefined;
}

/**
 * Requests sent by a local helper, seen from its callers: for each call in `from` of a named function or method of the
 * statement (`this.putFollows(follow)`, `save(item)`), a copy of each site inside it, at the call, in the caller's
 * function and arms (`RequestSite.forwarded`). `own`: the statement's own sites (not forwarded, not shapes), `calls`:
 * all its helper calls, `fns`: its named functions. Helpers calling helpers are followed MAX_FORWARD_DEPTH deep;
 * recursion stops there too. What a helper sends depends only on the helper and the depth left, so the copies for one
 * call do not depend on which other calls are forwarded (a member re-extracted alone forwards only its own calls).
 */
function forwardCalls(own: RequestSite[], calls: CallRec[], fns: Map<string, Fn[]>, from: CallRec[]): RequestSite[] {
  const out: RequestSite[] = [];
  if (!from.length) return out;
  const byFn = new Map<string, RequestSite[]>();
  const key = (r: Range) => `${r.start}:${r.end}`;
  for (const s of own) {
    if (!s.enclosingFunction) continue;
    const k = key(s.enclosingFunction.range);
    const list = byFn.get(k);
    if (list) list.push(s);
    else byFn.set(k, [s]);
  }
  const callsByFn = new Map<string, CallRec[]>();
  for (const c of calls) {
    const k = key(c.fn.range);
    const list = callsByFn.get(k);
    if (list) list.push(c);
    else callsByFn.set(k, [c]);
  }
  // What a function sends, its own sites and its helpers' (memoised per depth left).
  const memo = new Map<string, RequestSite[]>();
  const sends = (fn: Fn, depth: number): RequestSite[] => {
    const k = key(fn.range);
    const mk = `${k}@${depth}`;
    const known = memo.get(mk);
    if (known) return known;
    memo.set(mk, []);
    const list = [...(byFn.get(k) ?? [])];
    if (depth > 0) for (const c of callsByFn.get(k) ?? []) for (const x of forwardCall(c, fns, sends, depth - 1)) list.push(x);
    memo.set(mk, list);
    return list;
  };
  for (const c of from) for (const x of forwardCall(c, fns, sends, MAX_FORWARD_DEPTH - 1)) out.push(x);
  return out;
}

function forwardCall(c: CallRec, fns: Map<string, Fn[]>, sends: (fn: Fn, depth: number) => RequestSite[], depth: number): RequestSite[] {
  const targets = fns.get(`${c.method ? 'm' : 'f'}:${c.name}`) ?? [];
  if (targets.length !== 1 || targets[0].range.start === c.fn.range.start) return [];
  const out: RequestSite[] = [];
  const at = `f${c.range.start - c.fn.range.start}`;
  for (const s of sends(targets[0], depth)) {
    const f: RequestSite = { ...s, range: { ...c.range }, nameRange: { ...c.nameRange }, params: cloneTree(s.params) as ObjectNode, enclosingFunction: c.fn, forwarded: { ...s.forwarded, from: { ...(s.forwarded?.from ?? s.range) } } };
    if (s.receiverTable) f.receiverTable = ownReceiver(s.receiverTable);
    // The helper's own arms stay apart (prefixed by the call), under the call's arms in the caller.
    const inner = (s.branch ?? '').replace(/\/([^/:]+):/g, `/${at}.$1:`);
    const branch = c.branch + inner;
    if (branch) f.branch = branch;
    else delete f.branch;
    out.push(f);
  }
  return out;
}

/** Extraction for one statement, against the document's environment. */
class UnitExtractor {
  readonly decls = new Map<string, Decl[]>();
  private imports = new Map<string, { name: string; module: string }>();
  clients = new Map<string, ClientKind>();
  private calls: Candidate[] = [];
  /** Calls of `this.m(...)` / `f(...)` inside functions: requests of a local helper `m`/`f` are forwarded to them. */
  readonly helperCalls: CallRec[] = [];
  /** Named functions and methods of the statement (`m:` methods and class properties, `f:` functions). */
  readonly fnsByName = new Map<string, Fn[]>();
  /** What the walk saw where (unit coordinates), for `membersOf`: clients set, whether a `require` bound a local name. */
  readonly clientLog: { at: number; name: string; kind: ClientKind }[] = [];
  boundRequire = false;
  /** Whether a name resolved to this statement's own module-level declaration (a member may then read another's text). */
  readsItself = false;
  private walkAt = 0;
  /** The node `run` is reading (unit coordinates): the statements read and the literals consumed are logged at it. */
  private cur = -1;
  readonly depLog: { at: number; unit: Unit }[] = [];
  readonly consumedLog: { at: number; node: ts.Node }[] = [];
  /** How many of `run`'s sites are the statement's own (calls and typed/plain literals; shapes follow, forwarded copies between). */
  ownCount = 0;
  /** Statements the data flow may still interpret (see FLOW_BUDGET). */
  private flowBudget = FLOW_BUDGET;
  /** Whether a value was built through data flow (then each site gets its own copy of its tree). */
  private flowed = false;
  /** Declarations whose initialiser is being read (a name met again inside is a cycle: unknown). */
  private readonly resolving = new Set<Decl>();
  /** `RequestSite.branch` of the calls found in conditional arms. */
  private branchOf = new Map<ts.Node, string>();
  private typed: Candidate[] = [];
  private plain: Candidate[] = [];
  private shapes: Candidate[] = [];
  /** Expressions a function returns (unwrapped): a request-shaped literal there is incomplete (`shapeSite`). */
  private readonly returnedLiterals = new Set<ts.Node>();
  readonly deferred: Candidate[] = [];
  readonly consumed = new Set<ts.Node>();
  /** Consumed object literals bound to module-level names (the only ones other statements' deferred candidates test). */
  readonly consumedTop = new Set<ts.Node>();
  /** The other statements whose module-level declarations this extraction read. */
  readonly deps = new Set<Unit>();

  /**
   * @param reads when given, receives what this extraction asked the environment and did not find or could see
   * overridden by a later statement (`d:`/`c:`/`w:`/`i:` + name, `f` for the SDK flags): a chunked full extraction
   * re-extracts the statement when a later chunk sets one of them.
   */
  constructor(
    private env: Env,
    private unit: Unit,
    private host: HostLanguage,
    private reads?: Set<string>,
    private seed?: MemberSeed,
  ) {}

  /** Flow statements interpreted so far (see FLOW_BUDGET). */
  get flowUsed(): number {
    return FLOW_BUDGET - this.flowBudget;
  }

  private get usesV3(): boolean {
    this.reads?.add('f');
    return this.env.usesV3;
  }

  private get usesLib(): boolean {
    this.reads?.add('f');
    return this.env.usesLib;
  }

  run(): RequestSite[] {
    this.walk();
    // A member read alone: the clients its statement's walk ended with; trees always copied (as after data flow).
    if (this.seed) {
      this.clients = this.seed.clients;
      this.flowed = true;
    }
    const sites: RequestSite[] = [];
    for (const c of this.calls) {
      this.cur = c.node.pos;
      const s = ts.isNewExpression(c.node) ? this.command(c.node, c.fn) : this.methodCall(c.node as ts.CallExpression, c.fn, c.parent);
      for (const x of s) sites.push(x);
    }
    for (const c of [...this.typed, ...this.plain]) {
      this.cur = c.node.pos;
      const s = this.candidate(c, this.consumed);
      if (s) sites.push(s);
    }
    this.ownCount = sites.length;
    // A member read alone: its forwarded copies are made once the rest of its statement is in place (`memberEdit`).
    const out = sites;
    if (!this.seed && this.helperCalls.length) for (const x of forwardCalls(sites, this.helperCalls, this.fnsByName, this.helperCalls)) out.push(x);
    // Request-shaped literals: in a module-level declaration's literal they wait for every statement's calls.
    const stmt = this.unit.stmt!;
    const outers = ts.isVariableStatement(stmt) ? stmt.declarationList.declarations.map((d) => d.initializer && unwrap(d.initializer)).filter((e): e is ts.Expression => !!e && ts.isObjectLiteralExpression(e)) : [];
    for (const c of this.shapes) {
      this.cur = c.node.pos;
      const outer = c.fn ? undefined : outers.find((o) => o.pos <= c.node.pos && c.node.end <= o.end);
      if (outer) this.deferred.push({ ...c, shape: { outer } });
      else {
        const s = this.candidate(c, this.consumed);
        if (s) out.push(s);
      }
    }
    return out;
  }

  /** Sites of one call or literal for each alternative its parameters may be (see RequestSite.alternative). */
  private alternatives(sites: RequestSite[], fn?: Fn): RequestSite[] {
    if (sites.length < 2) return sites;
    sites.forEach((s, index) => {
      s.alternative = { index, count: sites.length };
      if (fn) s.branch = `${s.branch ?? ''}/a${s.range.start - fn.range.start}:${index}`;
    });
    return sites;
  }

  /** A typed input or a plain request-looking object literal, unless a call already took it. */
  candidate(c: Candidate, consumed: Set<ts.Node>): RequestSite | undefined {
    if (c.shape) return this.shapeSite(c, consumed);
    if (c.returnType) {
      // A function typed to return a request input: each object literal it returns is that request.
      const lit = unwrap(c.node as ts.Expression);
      const info = this.typeInfo(c.returnType);
      if (!info || !ts.isObjectLiteralExpression(lit) || consumed.has(lit)) return undefined;
      return this.site(info.api, 'call', info.style, info.sdk, lit, c.name ?? c.returnType, this.value(lit, this.unit, 0, 0) as ObjectNode, c.fn);
    }
    const n = c.node as ts.VariableDeclaration | ts.SatisfiesExpression | ts.AsExpression;
    const lit = unwrap((ts.isVariableDeclaration(n) ? n.initializer : n.expression)!);
    if (consumed.has(lit)) return undefined;
    const u = this.unit;
    const params = this.value(lit, u, 0, 0) as ObjectNode;
    if (c.fn) this.markHolderMutated(lit, params);
    const info = n.type ? this.typeInfo(n.type) : undefined;
    if (info) return this.site(info.api, 'call', info.style, info.sdk, lit, n.type!, params, c.fn);
    const api = inferApi(params);
    if (!api || !prop(params, 'TableName')) return undefined;
    const style = inferStyle(params, this.usesLib ? 'document' : 'low-level');
    const v2 = !this.usesV3;
    const sdk = style === 'document' ? (v2 ? 'sdk-v2-doc' : 'sdk-v3-lib') : v2 ? 'sdk-v2' : 'sdk-v3';
    return this.site(api, 'inferred', style, sdk, lit, (n as ts.VariableDeclaration).name, params, c.fn);
  }

  /** A request-shaped literal (`Candidate.shape`) that no call took: its API and value style from its fields. */
  private shapeSite(c: Candidate, consumed: Set<ts.Node>): RequestSite | undefined {
    const lit = c.node as ts.ObjectLiteralExpression;
    if (consumed.has(lit) || (c.shape?.outer && consumed.has(c.shape.outer))) return undefined;
    const params = this.value(lit, this.unit, 0, 0);
    if (params.kind !== 'object') return undefined;
    const api = shapeApi(params);
    if (!api) return undefined;
    if (c.fn) {
      // Held by a name that flows on (to a call, into another value): where it goes decides.
      const h = this.holderOf(lit);
      if (h && this.flowsOn(h)) return undefined;
      this.markHolderMutated(lit, params, h);
      // Returned (`return {...}`, an arrow's body, `return p`): the caller may add to it (a names map, a condition), so
      // what it lacks is unknown, not missing; what it holds is still checked.
      if (h ? this.returnedBy(h) : this.returnedLiterals.has(lit)) params.complete = false;
    }
    const style = inferStyle(params, this.usesLib ? 'document' : 'low-level');
    const v2 = !this.usesV3;
    const sdk = style === 'document' ? (v2 ? 'sdk-v2-doc' : 'sdk-v3-lib') : v2 ? 'sdk-v2' : 'sdk-v3';
    const s = this.site(api, 'inferred', style, sdk, lit, c.name ?? lit.properties[0].name ?? lit, params, c.fn);
    shapeSites.add(s);
    return s;
  }

  /**
   * The local name a literal inside a function is bound to (`const p = {...}`, `p = {...}`, `this.p = {...}`, also
   * nested: `const ops = { bump: {...} }`), with where the text after the outermost literal holding it starts, and the
   * enclosing function (`block`). Undefined for a literal no name holds (returned, an arrow's body, an expression
   * statement).
   */
  private holderOf(lit: ts.Node): { name: string; restPos: number; block: ts.Node; nested: boolean } | undefined {
    // Descend from the statement to the literal, remembering the innermost function and the outermost literal chain
    // (statement lists by binary search: a function of 10,000 statements costs a few steps per literal, not 10,000).
    let block: ts.Node = this.unit.stmt!;
    let holder: ts.Node | undefined;
    let top: ts.Node | undefined;
    const literalish = (k: ts.Node) => ts.isObjectLiteralExpression(k) || ts.isArrayLiteralExpression(k) || ts.isPropertyAssignment(k) || ts.isParenthesizedExpression(k) || ts.isAsExpression(k) || ts.isSatisfiesExpression(k) || ts.isNonNullExpression(k) || ts.isConditionalExpression(k);
    const holds = (k: ts.Node) => k.pos <= lit.pos && lit.end <= k.end;
    for (let n: ts.Node | undefined = this.unit.stmt!; n && n !== lit; ) {
      let next: ts.Node | undefined;
      const list: ts.NodeArray<ts.Statement> | undefined = (n as { statements?: ts.NodeArray<ts.Statement> }).statements;
      if (list && list.length > 8) {
        let lo = 0;
        let hi = list.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (list[mid].pos <= lit.pos) lo = mid;
          else hi = mid - 1;
        }
        if (holds(list[lo])) next = list[lo];
      }
      if (!next)
        ts.forEachChild(n, (k) => {
          if (!next && holds(k)) next = k;
        });
      if (!next) return undefined;
      if (literalish(next)) top ??= next;
      else {
        top = undefined;
        holder = next;
        if (FUNCTION_KINDS.has(next.kind)) block = next;
      }
      n = next;
    }
    top ??= lit;
    let name: string | undefined;
    if (holder && ts.isVariableDeclaration(holder) && holder.initializer && ts.isIdentifier(holder.name)) name = holder.name.text;
    else if (holder && ts.isBinaryExpression(holder) && holder.operatorToken.kind === K.EqualsToken && holder.right.pos <= top.pos) name = dotted(holder.left)?.join('.');
    return name ? { name, restPos: top.end, block, nested: top !== lit } : undefined;
  }

  /** Per function: where each identifier occurs, and where it occurs inside a call's arguments (built once, iteratively). */
  private mentions = new Map<ts.Node, { all: Map<string, number[]>; args: Map<string, number[]> }>();

  private mentionsIn(block: ts.Node): { all: Map<string, number[]>; args: Map<string, number[]> } {
    let m = this.mentions.get(block);
    if (m) return m;
    m = { all: new Map(), args: new Map() };
    const add = (into: Map<string, number[]>, k: string, at: number) => {
      const list = into.get(k);
      if (list) list.push(at);
      else into.set(k, [at]);
    };
    const nodes: ts.Node[] = [block];
    const inArgs: boolean[] = [false];
    while (nodes.length) {
      const n = nodes.pop()!;
      const arg = inArgs.pop()!;
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) {
        const at = n.end - n.text.length;
        add(m.all, n.text, at);
        if (arg) add(m.args, n.text, at);
        continue;
      }
      const call = ts.isCallExpression(n) || ts.isNewExpression(n) ? n : undefined;
      ts.forEachChild(n, (k) => {
        nodes.push(k);
        inArgs.push(arg || (!!call && k !== call.expression));
      });
    }
    this.mentions.set(block, m);
    return m;
  }

  /**
   * Whether the held literal flows on after it: its name mentioned in a call's arguments (`send(new UpdateCommand(p))`,
   * `run(p)`: that call's business), or anywhere else but a `return` of it or a change to it (`{ ...p, X }`, `q = p`,
   * `[p]`: part of another value, which may complete it). Then it is no request of its own.
   */
  private flowsOn(h: { name: string; restPos: number; block: ts.Node }): boolean {
    const last = h.name.slice(h.name.lastIndexOf('.') + 1);
    const m = this.mentionsIn(h.block);
    if ((m.args.get(last) ?? []).some((at) => at >= h.restPos)) return true;
    const text = this.unit.sf.text;
    const start = h.name.length - last.length;
    return (m.all.get(last) ?? []).some((at) => {
      if (at < h.restPos) return false;
      const from = at - start;
      if (text.slice(from, at + last.length) !== h.name) return true;
      const before = text.slice(Math.max(h.restPos, from - 24), from);
      const after = text.slice(at + last.length, Math.min(h.block.end, at + last.length + 400));
      if (RETURN_BEFORE.test(before) && RETURN_AFTER.test(after)) return false;
      if (/(?:Object\.assign\(\s*|delete\s+)$/.test(before)) return false;
      return !mutatedLater(h.name, h.name + after, 'js');
    });
  }

  /** Whether the function returns the name holding a literal (`return p`): the caller may then add to it. */
  private returnedBy(h: { name: string; restPos: number; block: ts.Node }): boolean {
    if (h.name.includes('.')) return false;
    const text = this.unit.sf.text;
    return (this.mentionsIn(h.block).all.get(h.name) ?? []).some(
      (at) => at >= h.restPos && RETURN_BEFORE.test(text.slice(Math.max(h.restPos, at - 24), at)) && RETURN_AFTER.test(text.slice(at + h.name.length, Math.min(h.block.end, at + h.name.length + 400))),
    );
  }

  /**
   * A literal held by a name that the function changes afterwards (`p.ExpressionAttributeValues = ...`,
   * `Object.assign(p, ...)`, `ops.bump.X = ...`) is not the whole request: marked incomplete (nested: every map in it),
   * so what the change may add is unknown, never missing. A returned one is incomplete too (`shapeSite`).
   * Only the text around each later mention of the name is read (a change starts there): linear in the mentions.
   */
  private markHolderMutated(lit: ts.Node, params: VNode, h = this.holderOf(lit)): void {
    if (!h) return;
    const text = this.unit.sf.text;
    const last = h.name.slice(h.name.lastIndexOf('.') + 1);
    const around = (this.mentionsIn(h.block).all.get(last) ?? [])
      .filter((at) => at >= h.restPos)
      .map((at) => text.slice(Math.max(h.restPos, at - h.name.length - 24), Math.min(h.block.end, at + 400)));
    const rest = around.join('\n;\n');
    if (!around.length || !mutatedLater(h.name, rest, 'js')) return;
    if (h.nested) markIncomplete(params);
    else markMutatedLater(params, h.name, rest, 'js');
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* One iterative walk of the statement: local declarations, clients, candidate calls, enclosing functions.         */

  private walk(): void {
    const { sf } = this.unit;
    const stmt = this.unit.stmt!;
    // Parallel stacks (no per-node allocation); tokens, identifiers, type nodes and JSDoc are never pushed.
    const nodes: ts.Node[] = [this.seed?.root?.node ?? stmt];
    const parents: (ts.Node | undefined)[] = [this.seed?.root?.parent ?? sf];
    const fns: (Fn | undefined)[] = [undefined];
    const scopes: ts.Node[] = [sf];
    // The declared return type of the innermost enclosing function, when it names a request input type.
    const rets: (ts.TypeNode | undefined)[] = [undefined];
    // The conditional arms around a node inside its function (`RequestSite.branch`), and that function's start.
    const branches: string[] = [''];
    const fnStarts: number[] = [0];
    // Whether the node sits in a call's arguments (below it, up to a function or class): never a bare request shape.
    const inArgs: boolean[] = [false];
    const kids: ts.Node[] = [];
    const collect = (c: ts.Node) => {
      const k = c.kind;
      if (k > K.LastToken && !(k >= K.FirstTypeNode && k <= K.LastTypeNode) && k < K.FirstJSDocNode) kids.push(c);
    };
    while (nodes.length) {
      const n = nodes.pop()!;
      const parent = parents.pop();
      const outerFn = fns.pop();
      const outerScope = scopes.pop()!;
      let ret = rets.pop();
      let branch = branches.pop()!;
      let fnStart = fnStarts.pop()!;
      let inArg = inArgs.pop()!;
      this.walkAt = n.pos;
      const fn = (FUNCTION_KINDS.has(n.kind) && this.functionOf(n, parent)) || outerFn;
      // Arms are counted within the enclosing function a site reports (an anonymous arrow or IIFE stays in it).
      if (fn !== outerFn) {
        branch = '';
        fnStart = n.pos;
      }
      const scope = SCOPE_KINDS.has(n.kind) ? n : outerScope;
      if (fn && fn !== outerFn) this.noteFunction(n as ts.SignatureDeclaration, parent, fn);
      if (FUNCTION_KINDS.has(n.kind)) {
        const f = n as ts.SignatureDeclaration & { body?: ts.Node };
        let t = f.type;
        // `async (): Promise<UpdateCommandInput>` returns the same literal.
        if (t && ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName) && t.typeName.text === 'Promise' && t.typeArguments?.length === 1) t = t.typeArguments[0];
        ret = t && this.typeInfo(t) ? t : undefined;
        // `(): UpdateCommandInput => ({ ... })`: the concise body is the returned literal.
        if (ret && ts.isArrowFunction(n) && !ts.isBlock(n.body) && ts.isObjectLiteralExpression(unwrap(n.body))) this.typed.push({ node: n.body, fn, returnType: ret });
      }
      // What a function returns (`return {...}`, an arrow's concise body): a literal there may be completed by the caller.
      if (ts.isArrowFunction(n) && !ts.isBlock(n.body)) this.returnedLiterals.add(unwrap(n.body));
      else if (n.kind === K.ReturnStatement && (n as ts.ReturnStatement).expression) this.returnedLiterals.add(unwrap((n as ts.ReturnStatement).expression!));
      switch (n.kind) {
        case K.ReturnStatement: {
          const e = (n as ts.ReturnStatement).expression;
          if (ret && e && ts.isObjectLiteralExpression(unwrap(e))) this.typed.push({ node: e, fn, returnType: ret });
          break;
        }
        case K.VariableDeclaration:
          this.varDecl(n as ts.VariableDeclaration, parent, outerScope, fn);
          break;
        case K.PropertyDeclaration:
        case K.Parameter: {
          const d = n as ts.PropertyDeclaration | ts.ParameterDeclaration;
          if (ts.isIdentifier(d.name) || ts.isPrivateIdentifier(d.name)) this.noteClient(this.clients, d.name.text, d.initializer, d.type);
          break;
        }
        case K.BinaryExpression: {
          const b = n as ts.BinaryExpression;
          const target = b.operatorToken.kind === K.EqualsToken ? dotted(b.left) : undefined;
          if (target) this.noteClient(this.clients, target[target.length - 1], b.right);
          break;
        }
        case K.NewExpression:
          this.calls.push({ node: n, fn });
          if (branch && fn) this.branchOf.set(n, branch);
          break;
        case K.CallExpression: {
          const callee = (n as ts.CallExpression).expression;
          if (fn) {
            const method = ts.isPropertyAccessExpression(callee) && callee.expression.kind === K.ThisKeyword;
            if (method || ts.isIdentifier(callee)) {
              const u = this.unit;
              this.helperCalls.push({ name: method ? callee.name.text : (callee as ts.Identifier).text, method, fn, branch, range: this.range(n, u), nameRange: this.range(method ? callee.name : callee, u) });
            }
          }
          if (ts.isPropertyAccessExpression(callee) && (LOW_METHODS.has(callee.name.text) || DOC_METHODS.has(callee.name.text))) {
            this.calls.push({ node: n, fn, parent });
            if (branch && fn) this.branchOf.set(n, branch);
          }
          else if (ts.isIdentifier(callee) && !this.decls.has(callee.text) && !this.seed?.priorDecls.has(callee.text)) {
            // `update({ ... })` where `function update(params: UpdateCommandInput)`: the literal argument is that input.
            const args = (n as ts.CallExpression).arguments;
            this.reads?.add(`w:${callee.text}`);
            for (const w of this.env.wrappers.get(callee.text) ?? []) {
              const arg = args[w.index];
              if (arg && ts.isObjectLiteralExpression(unwrap(arg))) this.typed.push({ node: arg, fn, returnType: w.type, name: callee });
            }
          }
          break;
        }
        case K.ObjectLiteralExpression:
          // Never in a call's arguments (the call's business); inside a function, one a call reached through data flow is
          // dropped as held by that call's site (`dropHeldShapes`).
          if (!inArg && hasShapeKey(n as ts.ObjectLiteralExpression) && !(fn && parent && isTransactionAction(parent))) {
            const named = parent && (ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent)) ? parent.name : undefined;
            this.shapes.push({ node: n, fn, shape: {}, ...(named ? { name: named } : {}) });
          }
          break;
        case K.SatisfiesExpression:
        case K.AsExpression: {
          const e = n as ts.SatisfiesExpression | ts.AsExpression;
          if (ts.isObjectLiteralExpression(unwrap(e.expression)) && this.typeInfo(e.type)) (ts.isSourceFile(outerScope) ? this.deferred : this.typed).push({ node: n, fn });
          break;
        }
      }
      kids.length = 0;
      ts.forEachChild(n, collect);
      const call = ts.isCallExpression(n) || ts.isNewExpression(n);
      if (FUNCTION_KINDS.has(n.kind) || ts.isClassLike(n)) inArg = false;
      for (let i = kids.length - 1; i >= 0; i--) {
        nodes.push(kids[i]);
        inArgs.push(inArg || (call && kids[i] !== (n as ts.CallExpression).expression));
        parents.push(n);
        fns.push(fn);
        scopes.push(scope);
        rets.push(ret);
        fnStarts.push(fnStart);
        // Arms of `if`/`else` and `c ? a : b` never both run.
        const k = kids[i];
        const arm =
          ts.isIfStatement(n) ? (k === n.thenStatement ? 't' : k === n.elseStatement ? 'e' : undefined)
          : ts.isConditionalExpression(n) ? (k === n.whenTrue ? 't' : k === n.whenFalse ? 'e' : undefined)
          : undefined;
        branches.push(arm ? `${branch}/${n.pos - fnStart}:${arm}` : branch);
      }
    }
  }

  /** Record a named function or method (a helper other functions of the statement may call). */
  private noteFunction(n: ts.SignatureDeclaration, p: ts.Node | undefined, fn: Fn): void {
    let key: string | undefined;
    if (ts.isMethodDeclaration(n)) key = `m:${fn.name}`;
    else if (ts.isFunctionDeclaration(n)) key = `f:${fn.name}`;
    else if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && p) key = ts.isPropertyDeclaration(p) ? `m:${fn.name}` : ts.isVariableDeclaration(p) ? `f:${fn.name}` : undefined;
    if (!key) return;
    const list = this.fnsByName.get(key);
    if (list) list.push(fn);
    else this.fnsByName.set(key, [fn]);
  }

  private functionOf(n: ts.Node, p: ts.Node | undefined): Fn | undefined {
    let name: ts.Node | undefined;
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n)) name = n.name;
    else if (ts.isConstructorDeclaration(n)) return fnSpan('constructor', this.range(n, this.unit), n.getStart(this.unit.sf) - n.pos);
    else if (ts.isFunctionExpression(n) || ts.isArrowFunction(n)) {
      name = ts.isFunctionExpression(n) ? n.name : undefined;
      if (!name && p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p))) name = p.name;
      // Handlers are often anonymous: `exports.handler = async () => {}`, `router.post('/x', async (req) => {})`.
      const anonymous = !name && p ? this.anonymousName(n, p) : undefined;
      if (anonymous) return fnSpan(anonymous, this.range(n, this.unit), n.getStart(this.unit.sf) - n.pos);
    } else return undefined;
    if (!name || !(ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name))) return undefined;
    return fnSpan(name.text, this.range(n, this.unit), n.getStart(this.unit.sf) - n.pos);
  }

  private anonymousName(n: ts.Node, p: ts.Node): string | undefined {
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === K.EqualsToken && p.right === n) return dotted(p.left)?.pop();
    if (ts.isExportAssignment(p)) return 'default';
    if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.arguments?.includes(n as ts.Expression)) {
      const callee = dotted(p.expression)?.join('.') ?? 'anonymous';
      return `${callee} callback`;
    }
    return undefined;
  }

  private varDecl(d: ts.VariableDeclaration, list: ts.Node | undefined, scope: ts.Node, fn?: Fn): void {
    const init = d.initializer;
    const topLevel = ts.isSourceFile(scope);
    if (!topLevel) {
      const req = requireOf(init);
      if (req !== undefined) {
        bindRequire(this.imports, d, req);
        this.boundRequire = true;
        return;
      }
      if (!ts.isIdentifier(d.name)) return;
      const isConst = !!list && ts.isVariableDeclarationList(list) && (list.flags & ts.NodeFlags.Const) !== 0;
      const arr = this.decls.get(d.name.text);
      const decl: Decl = { name: d.name.text, init, isConst, scope, pos: d.pos, unit: this.unit };
      if (arr) arr.push(decl);
      else this.decls.set(d.name.text, [decl]);
      this.noteClient(this.clients, d.name.text, init, d.type);
    }
    if (!ts.isIdentifier(d.name) || !init || !ts.isObjectLiteralExpression(unwrap(init))) return;
    // `= {...} satisfies XInput` is already a typed candidate of its own.
    if ((ts.isSatisfiesExpression(init) || ts.isAsExpression(init)) && this.typeInfo(init.type)) return;
    const c = { node: d, fn };
    if (topLevel) {
      if (mayHoldTableName(d)) this.deferred.push(c);
    }
    else (d.type && this.typeInfo(d.type) ? this.typed : this.plain).push(c);
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Clients and names                                                                                               */

  noteClient(into: Map<string, ClientKind>, name: string, init?: ts.Expression, type?: ts.TypeNode): void {
    const kind = this.clientKind(init, type);
    if (!kind) return;
    into.set(name, kind);
    if (into === this.clients) this.clientLog.push({ at: this.walkAt, name, kind });
  }

  clientKind(init?: ts.Expression, type?: ts.TypeNode): ClientKind | undefined {
    return (init && this.clientKindOf(init)) ?? (type && this.clientKindOfName(dotted(type))) ?? undefined;
  }

  private importNamed(local: string): { name: string; module: string } | undefined {
    const own = this.imports.get(local);
    if (own) return own;
    this.reads?.add(`i:${local}`);
    return this.env.imports.get(local);
  }

  private clientKindOf(e: ts.Expression): ClientKind | undefined {
    e = unwrap(e);
    if (ts.isNewExpression(e)) return this.clientKindOfName(dotted(e.expression));
    if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'from') {
      const last = dotted(e.expression.expression)?.pop();
      return last === 'DynamoDBDocument' ? 'v3-doc-agg' : last === 'DynamoDBDocumentClient' ? 'v3-doc-bare' : undefined;
    }
    return undefined;
  }

  private clientKindOfName(parts: string[] | undefined): ClientKind | undefined {
    if (!parts) return undefined;
    const last = parts[parts.length - 1];
    const imported = this.importNamed(parts[0]);
    const name = parts.length === 1 && imported && imported.name !== '*' && imported.name !== 'default' ? imported.name : last;
    if (name === 'DynamoDBDocumentClient') return 'v3-doc-bare';
    if (name === 'DynamoDBDocument') return 'v3-doc-agg';
    if (name === 'DynamoDBClient') return 'v3-low-bare';
    if (name === 'DocumentClient') return 'v2-doc';
    if (name !== 'DynamoDB') return undefined;
    if (imported) return isV2Module(imported.module) ? 'v2-low' : imported.module === V3_LOW ? 'v3-low-agg' : undefined;
    return parts.length > 1 || !this.usesV3 ? 'v2-low' : 'v3-low-agg';
  }

  private clientOfReceiver(recv: ts.Expression): ClientKind | undefined {
    const parts = dotted(unwrap(recv));
    if (!parts) return this.clientKindOf(recv);
    const name = parts[parts.length - 1];
    const own = this.clients.get(name);
    if (own) return own;
    this.reads?.add(`c:${name}`);
    return this.env.clients.get(name);
  }

  /** The imported name and module of a command class reference (`UpdateCommand`, `ddb.UpdateItemCommand`). */
  private importOf(e: ts.Expression): { name: string; module?: string } | undefined {
    const parts = dotted(e);
    if (!parts) return undefined;
    const imp = this.importNamed(parts[0]);
    if (parts.length === 1) return imp ? { name: imp.name, module: imp.module } : { name: parts[0] };
    return { name: parts[parts.length - 1], module: imp?.name === '*' || imp?.name === 'default' ? imp.module : undefined };
  }

  private typeInfo(t: ts.TypeNode): { api: Api; style: ValueStyle; sdk: string } | undefined {
    const parts = dotted(t);
    if (!parts) return undefined;
    const imp = parts.length === 1 ? this.importNamed(parts[0]) : undefined;
    const name = imp && imp.name !== '*' && imp.name !== 'default' ? imp.name : parts[parts.length - 1];
    const info = apiOfTypeName(name);
    if (!info) return undefined;
    const module = imp?.module ?? (parts.length > 1 ? this.importNamed(parts[0])?.module : undefined);
    if (info.family === 'v2') {
      const doc = parts.includes('DocumentClient') || name.includes('DocumentClient');
      return { api: info.api, style: doc ? 'document' : 'low-level', sdk: doc ? 'sdk-v2-doc' : 'sdk-v2' };
    }
    const doc = module === V3_DOC || (module !== V3_LOW && info.family === 'doc');
    const lowName = LOW_COMMANDS.has(name.replace(/Input$/, ''));
    if (doc || (!module && !lowName)) return { api: info.api, style: 'document', sdk: 'sdk-v3-lib' };
    return { api: info.api, style: 'low-level', sdk: 'sdk-v3' };
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Sites                                                                                                           */

  private command(n: ts.NewExpression, fn?: Fn): RequestSite[] {
    const imp = this.importOf(n.expression);
    if (!imp) return [];
    const low = LOW_COMMANDS.get(imp.name);
    const doc = DOC_COMMANDS.get(imp.name);
    if (!low && !doc) return [];
    if (imp.module && imp.module !== V3_LOW && imp.module !== V3_DOC) return [];
    const out: RequestSite[] = [];
    for (const params of this.paramsOf(n.arguments?.[0])) {
      let style: ValueStyle;
      if (imp.module) style = imp.module === V3_DOC ? 'document' : 'low-level';
      else if (low && doc) style = inferStyle(params, this.usesLib ? 'document' : 'low-level');
      else style = doc ? 'document' : 'low-level';
      const api = style === 'document' ? (doc ?? low)! : (low ?? doc)!;
      // Without an import, a command-like class name is only trusted when its input looks like a request.
      if (!imp.module && !looksLikeRequest(params, api)) continue;
      out.push(this.site(api, 'call', style, style === 'document' ? 'sdk-v3-lib' : 'sdk-v3', n, n.expression, params, fn));
    }
    return this.alternatives(out, fn);
  }

  private methodCall(n: ts.CallExpression, fn?: Fn, parent?: ts.Node): RequestSite[] {
    const callee = n.expression as ts.PropertyAccessExpression;
    const method = callee.name.text;
    const kind = this.clientOfReceiver(callee.expression);
    const out: RequestSite[] = [];
    const all = this.paramsOf(n.arguments[0]);
    for (const params of all) {
      if (kind) {
        const c = CLIENTS[kind];
        const api = c.methods?.get(method);
        if (api) out.push(this.site(api, 'call', c.style, c.sdk, n, callee.name, params, fn));
        continue;
      }
      const low = LOW_METHODS.get(method);
      const doc = DOC_METHODS.get(method);
      const recvName = dotted(unwrap(callee.expression))?.pop() ?? '';
      const style: ValueStyle = low && doc ? inferStyle(params, /doc/i.test(recvName) ? 'document' : 'low-level') : doc ? 'document' : 'low-level';
      const api = (style === 'document' ? (doc ?? low) : (low ?? doc))!;
      if (!looksLikeRequest(params, api)) continue;
      const v2 = !this.usesV3 || (!!parent && ts.isPropertyAccessExpression(parent) && parent.name.text === 'promise');
      const sdk = style === 'document' ? (v2 ? 'sdk-v2-doc' : 'sdk-v3-lib') : v2 ? 'sdk-v2' : 'sdk-v3';
      out.push(this.site(api, 'call', style, sdk, n, callee.name, params, fn));
    }
    if (!out.length && !kind) {
      const w = this.wrapperCall(n, fn);
      if (w) out.push(w);
    }
    return this.alternatives(out, fn);
  }

  /**
   * `this.putItem(item)`, `this.updateItem(key, 'SET c = c + :inc', { ':inc': 1 })`, `this.deleteItem(key)` in a class
   * whose method of that name is not in the file (an inherited repository helper), in a statement about a repository
   * (`DAO_WORDS`: DynamoDB, repository, DAO): the
   * request read from the arguments by what they hold (a string that is an update expression, a map of `:values`, of
   * `#names`, the item or key map). Incomplete (what the helper adds is unknown); `forwarded.wrapper` says so.
   */
  private wrapperCall(n: ts.CallExpression, fn?: Fn): RequestSite | undefined {
    const callee = n.expression as ts.PropertyAccessExpression;
    const api = WRAPPER_METHODS[callee.name.text];
    if (!api || callee.expression.kind !== K.ThisKeyword || this.fnsByName.has(`m:${callee.name.text}`) || this.seed?.fnKeys.has(`m:${callee.name.text}`)) return undefined;
    if (!(this.seed ? this.seed.dao : DAO_WORDS.test(this.unit.sf.text.slice(this.unit.pos, this.unit.end)))) return undefined;
    const u = this.unit;
    const properties: Property[] = [];
    const add = (key: string, arg: ts.Expression, value: VNode) => {
      if (!properties.some((p) => p.key === key)) properties.push(entry(key, this.range(arg, u), value, this.range(arg, u)));
    };
    for (const arg of n.arguments) {
      if (ts.isSpreadElement(arg)) return undefined;
      const v = this.value(arg, u, 1, 0);
      if (v.kind === 'string' && /^\s*(SET|REMOVE|ADD|DELETE)\s/i.test(v.value) && api === 'UpdateItem') add('UpdateExpression', arg, v);
      else if (v.kind === 'object' && v.properties.length && v.properties.every((p) => p.key.startsWith(':'))) add('ExpressionAttributeValues', arg, v);
      else if (v.kind === 'object' && v.properties.length && v.properties.every((p) => p.key.startsWith('#'))) add('ExpressionAttributeNames', arg, v);
      else if (v.kind === 'object' && v.properties.length && v.properties.every((p) => !/^[:#]/.test(p.key))) add(api === 'PutItem' ? 'Item' : 'Key', arg, v);
    }
    if (!properties.some((p) => p.key === (api === 'PutItem' ? 'Item' : api === 'UpdateItem' ? 'UpdateExpression' : 'Key'))) return undefined;
    const params: ObjectNode = objectNode(properties, false, this.range(n, u));
    const style = inferStyle(params, 'document');
    const sdk = style === 'document' ? (this.usesV3 ? 'sdk-v3-lib' : 'sdk-v2-doc') : this.usesV3 ? 'sdk-v3' : 'sdk-v2';
    const s = this.site(api, 'inferred', style, sdk, n, callee.name, params, fn);
    s.forwarded = { wrapper: callee.name.text };
    return s;
  }

  private site(api: Api, apiSource: 'call' | 'inferred', style: ValueStyle, sdk: string, node: ts.Node, name: ts.Node, params: ObjectNode, fn?: Fn): RequestSite {
    const u = this.unit;
    const s: RequestSite = new SiteSpan(api, apiSource, style, this.host, this.range(node, u), this.range(name, u), params, sdk);
    if (fn) s.enclosingFunction = fn;
    const branch = this.branchOf.get(node);
    if (branch) s.branch = branch;
    return s;
  }

  /** The request object an argument denotes: an object literal, or a name bound to one. Marks it consumed. */
  private paramsOf(arg: ts.Expression | undefined): ObjectNode[] {
    if (!arg) return [];
    let e = unwrap(arg);
    let u = this.unit;
    let top = false;
    if (ts.isIdentifier(e)) {
      const d = this.lookup(e.text, e.pos, u);
      // A local name: what data flow says it holds at the call (alternatives, later assignments, pushes).
      const flowed = d && d.unit === this.unit && !ts.isSourceFile(d.scope) ? this.flow(d, e, 0, 0) : undefined;
      if (flowed) {
        const init = d!.init && unwrap(d!.init);
        if (init && ts.isObjectLiteralExpression(init)) this.consumed.add(init);
        return this.objects(flowed);
      }
      if (d?.init) {
        e = unwrap(d.init);
        u = d.unit;
        top = ts.isSourceFile(d.scope);
      }
    }
    if (!ts.isObjectLiteralExpression(e) && !ts.isConditionalExpression(e)) return [];
    if (ts.isObjectLiteralExpression(e)) {
      this.consumed.add(e);
      if (top) {
        this.consumedTop.add(e);
        this.consumedLog.push({ at: this.cur, node: e });
      }
    } else
      for (let arm of [e.whenTrue, e.whenFalse]) {
        arm = unwrap(arm);
        const init = ts.isIdentifier(arm) ? this.lookup(arm.text, arm.pos, u)?.init : undefined;
        if (init && ts.isObjectLiteralExpression(unwrap(init))) arm = unwrap(init);
        if (ts.isObjectLiteralExpression(arm)) this.consumed.add(arm);
      }
    const v = this.value(e, u, 0, 0);
    if (ts.isIdentifier(unwrap(arg))) markMutated(v, (unwrap(arg) as ts.Identifier).text, this.lookup((unwrap(arg) as ts.Identifier).text, arg.pos, this.unit));
    return this.objects(v);
  }

  /** The request objects a value may be: each alternative, each with its own tree when there are several. */
  private objects(v: VNode): ObjectNode[] {
    const all = variants(v).filter((x): x is ObjectNode => x.kind === 'object');
    return all.length > 1 || this.flowed ? all.map((x) => cloneTree(x) as ObjectNode) : all;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Data flow of a local name (server/src/flow holds the model; this binds TypeScript's statements to it)           */

  /**
   * What the local `d` holds at `use`: its initialiser, then every statement of its block up to the one holding the use,
   * read in order (`p.X = v`, `p['X'] = v`, `Object.assign(p, {...})`, `p.push(...)`, `p = p.concat(...)`, `delete
   * p.X`, `p = {...}`), `if`/`else` and `switch` arms joined as alternatives, arms ending in `return`/`throw` dropped,
   * loops read as zero or more passes (pushes become representatives). Undefined when the flow cannot be read
   * exactly (the use in a closure, the declaration outside a block, the budget spent): the caller falls back.
   */
  private flow(d: Decl, use: ts.Node, depth: number, hops: number): VNode | undefined {
    const scope = d.scope;
    if (!ts.isBlock(scope) || hops >= MAX_RESOLVE || this.flowBudget <= 0) return undefined;
    // A use inside a function nested in the scope may run after anything later in the scope: not read here.
    for (let p = use.parent; p && p !== scope; p = p.parent) if (ts.isFunctionLike(p)) return undefined;
    const stmts = scope.statements;
    const k = stmts.findIndex((st) => st.pos <= d.pos && d.pos < st.end);
    if (k < 0 || !ts.isVariableStatement(stmts[k])) return undefined;
    const u = this.unit;
    const name = d.name;
    const mention = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    const init: State = d.init ? flatten([this.value(d.init, u, depth, hops + 1)]) : [];
    const r = this.steps(stmts, k + 1, init, { name, mention, use, depth, hops, isConst: d.isConst }, 0);
    if (!r.reached) return undefined;
    this.flowed = true;
    return valueOf(r.state, this.unknown(use, u));
  }

  private steps(stmts: readonly ts.Statement[], from: number, state: State | 'dead', f: FlowCtx, nest: number): { state: State | 'dead'; reached: boolean } {
    let s = state;
    for (let i = from; i < stmts.length; i++) {
      if (s === 'dead') return { state: s, reached: false };
      const st = stmts[i];
      if (st.pos <= f.use.pos && f.use.end <= st.end) return { state: this.into(st, s, f, nest), reached: true };
      s = this.step(st, s, f, nest);
    }
    return { state: s, reached: false };
  }

  /** The state at the use, inside the statement holding it. */
  private into(st: ts.Statement, s: State, f: FlowCtx, nest: number): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    const inside = (n: ts.Node | undefined) => !!n && n.pos <= f.use.pos && f.use.end <= n.end;
    const list = (n: ts.Statement) => (ts.isBlock(n) ? n.statements : [n]);
    if (ts.isBlock(st)) return this.steps(st.statements, 0, s, f, nest + 1).state;
    if (ts.isIfStatement(st)) {
      if (inside(st.thenStatement)) return this.steps(list(st.thenStatement), 0, s, f, nest + 1).state;
      if (st.elseStatement && inside(st.elseStatement)) return this.steps(list(st.elseStatement), 0, s, f, nest + 1).state;
      return s;
    }
    if (ts.isTryStatement(st) && inside(st.tryBlock)) return this.steps(st.tryBlock.statements, 0, s, f, nest + 1).state;
    // A loop, a `catch`, a `switch` holding the use: what its body changes may have run before (another pass).
    const text = this.unit.sf.text.slice(st.pos, st.end);
    return this.changes(text, f) ? this.unreadable(s, text, f) : s;
  }

  /** The state after a statement that does not hold the use. */
  private step(st: ts.Statement, s: State, f: FlowCtx, nest: number, loop = false): State | 'dead' {
    if (nest > 32 || --this.flowBudget <= 0) return undefined;
    if (ts.isReturnStatement(st) || ts.isThrowStatement(st)) return 'dead';
    const u = this.unit;
    const text = u.sf.text.slice(st.pos, st.end);
    if (!f.mention.test(text)) return s;
    if (ts.isBlock(st)) {
      let cur: State | 'dead' = s;
      for (const x of st.statements) {
        if (cur === 'dead') break;
        cur = this.step(x, cur, f, nest + 1, loop);
      }
      return cur;
    }
    if (ts.isIfStatement(st)) {
      if (f.mention.test(u.sf.text.slice(st.expression.pos, st.expression.end)) && this.changes(u.sf.text.slice(st.expression.pos, st.expression.end), f)) return this.unreadable(s, text, f);
      const a = this.step(st.thenStatement, s, f, nest + 1, loop);
      const b = st.elseStatement ? this.step(st.elseStatement, s, f, nest + 1, loop) : s;
      return join(a, b);
    }
    if (ts.isSwitchStatement(st)) {
      if (this.changes(u.sf.text.slice(st.expression.pos, st.expression.end), f)) return this.unreadable(s, text, f);
      const arms: (State | 'dead')[] = [];
      let hasDefault = false;
      for (const clause of st.caseBlock.clauses) {
        if (ts.isDefaultClause(clause)) hasDefault = true;
        if (!clause.statements.length) continue;
        const last = clause.statements[clause.statements.length - 1];
        const exits = ts.isBreakStatement(last) || ts.isReturnStatement(last) || ts.isThrowStatement(last);
        // Falling through into the next clause: not read.
        if (!exits) return this.unreadable(s, text, f);
        let cur: State | 'dead' = s;
        for (const x of clause.statements) {
          if (cur === 'dead' || ts.isBreakStatement(x)) break;
          if (this.mentionsBreak(x)) return this.unreadable(s, text, f);
          cur = this.step(x, cur, f, nest + 1, loop);
        }
        arms.push(cur);
      }
      if (!hasDefault) arms.push(s);
      return join(...arms);
    }
    if (ts.isForStatement(st) || ts.isForOfStatement(st) || ts.isForInStatement(st) || ts.isWhileStatement(st) || ts.isDoStatement(st)) {
      // Zero or more passes: pushes become representatives of entries, anything else makes the value unreadable.
      const body = this.step(st.statement, s, f, nest + 1, true);
      return body === 'dead' ? s : body;
    }
    if (ts.isExpressionStatement(st)) {
      const op = this.opOf(st.expression, f, loop);
      if (op === 'assign') {
        const b = unwrap(st.expression) as ts.BinaryExpression;
        if (f.isConst || loop) return undefined;
        // `p = p.concat(x)`: a push; `p = { ...p, X }` and other self-references: unreadable.
        const r = unwrap(b.right);
        if (ts.isCallExpression(r) && ts.isPropertyAccessExpression(r.expression) && r.expression.name.text === 'concat' && ts.isIdentifier(r.expression.expression) && r.expression.expression.text === f.name) {
          const items = this.pushed(r.arguments, f, false, true);
          return items ? applyAll(s, items) : undefined;
        }
        if (f.mention.test(u.sf.text.slice(r.pos, r.end))) return undefined;
        // A literal the flow read for the name is that request's, even on a path that returns before the use.
        if (ts.isObjectLiteralExpression(r)) this.consumed.add(r);
        return flatten([this.value(r, u, f.depth + 1, f.hops + 1)]);
      }
      if (op) return applyAll(s, op);
    }
    if (ts.isVariableStatement(st) && !this.changes(text, f) && !st.declarationList.declarations.some((x) => x.initializer && ts.isIdentifier(unwrap(x.initializer)) && (unwrap(x.initializer) as ts.Identifier).text === f.name)) return s;
    return this.changes(text, f) ? this.unreadable(s, text, f) : s;
  }

  private mentionsBreak(st: ts.Statement): boolean {
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found || ts.isFunctionLike(n) || ts.isIterationStatement(n, false) || ts.isSwitchStatement(n)) return;
      if (ts.isBreakStatement(n) || ts.isContinueStatement(n)) found = true;
      else ts.forEachChild(n, visit);
    };
    visit(st);
    return found;
  }

  /** Whether text may change the name: a mutation through it, or (for `let`) an assignment to it. */
  private changes(text: string, f: FlowCtx): boolean {
    if (!f.mention.test(text)) return false;
    if (mutatedLater(f.name, text, 'js')) return true;
    if (f.isConst) return false;
    return new RegExp(`(?<![\\w$.])${f.name.replace(/\$/g, '\\$')}\\s*(?:[-+*/%&|^]|\\?\\?|\\|\\||&&)?=(?![=>])`).test(text) || /\+\+|--/.test(text);
  }

  /** A change the flow cannot read: the value is no longer whole (a `let` reassigned somewhere: unknown). */
  private unreadable(s: State, text: string, f: FlowCtx): State {
    if (!f.isConst && new RegExp(`(?<![\\w$.])${f.name.replace(/\$/g, '\\$')}\\s*=(?![=>])`).test(text)) return undefined;
    return applyAll(s, { kind: 'opaque', deep: mutatedLater(f.name, text, 'js', true) });
  }

  /**
   * The change an expression statement makes to the name: a set/delete/merge/push, `'assign'` for `p = ...`, an
   * opaque change for anything else mentioning it that may change it, undefined when it only reads it.
   */
  private opOf(e: ts.Expression, f: FlowCtx, loop: boolean): Op | 'assign' | undefined {
    e = unwrap(e);
    const u = this.unit;
    const text = u.sf.text.slice(e.pos, e.end);
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === K.EqualsToken) {
      if (ts.isIdentifier(e.left) && e.left.text === f.name) return 'assign';
      const path = this.pathOf(e.left, f);
      if (path && !f.mention.test(u.sf.text.slice(e.right.pos, e.right.end))) {
        if (loop) return { kind: 'opaque', deep: path.keys.length > 1 };
        return { kind: 'set', path: path.keys, keyRange: path.keyRange, value: this.value(e.right, u, f.depth + 1, f.hops + 1), range: this.range(e, u) };
      }
    }
    if (ts.isDeleteExpression(e)) {
      const path = this.pathOf(e.expression, f);
      if (path && !loop) return { kind: 'delete', path: path.keys };
    }
    if (ts.isCallExpression(e)) {
      const c = e.expression;
      // `p.push(a, ...more)`
      if (ts.isPropertyAccessExpression(c) && c.name.text === 'push' && ts.isIdentifier(c.expression) && c.expression.text === f.name) return this.pushed(e.arguments, f, loop) ?? { kind: 'opaque', deep: false };
      // `Object.assign(p, {...}, ...)`
      if (ts.isPropertyAccessExpression(c) && c.name.text === 'assign' && ts.isIdentifier(c.expression) && c.expression.text === 'Object' && e.arguments[0] && ts.isIdentifier(unwrap(e.arguments[0])) && (unwrap(e.arguments[0]) as ts.Identifier).text === f.name && !loop) {
        const rest = e.arguments.slice(1);
        if (rest.some((a) => ts.isSpreadElement(a) || f.mention.test(u.sf.text.slice(a.pos, a.end)))) return { kind: 'opaque', deep: true };
        const merged = rest.map((a) => this.value(a, u, f.depth + 1, f.hops + 1));
        return merged.length === 1 ? { kind: 'merge', value: merged[0] } : { kind: 'merge', value: { kind: 'object', properties: merged.flatMap((m) => (m.kind === 'object' ? m.properties : [])), complete: merged.every((m) => m.kind === 'object' && m.complete), range: this.range(e, u) } };
      }
    }
    if (!this.changes(text, f)) return undefined;
    return { kind: 'opaque', deep: mutatedLater(f.name, text, 'js', true) };
  }

  /** Items pushed (`push(a, ...b)`, `concat(a, [b])`): spreads of known arrays contribute their items. */
  private pushed(args: ts.NodeArray<ts.Expression>, f: FlowCtx, loop: boolean, concat = false): Op | undefined {
    const u = this.unit;
    const items: VNode[] = [];
    let complete = true;
    let samples = 0;
    let unread = false;
    for (const a of args) {
      if (f.mention.test(u.sf.text.slice(a.pos, a.end))) return undefined;
      const spread = ts.isSpreadElement(a);
      const v = this.value(spread ? a.expression : a, u, f.depth + 1, f.hops + 1);
      if (spread || (concat && v.kind === 'array')) {
        if (v.kind !== 'array') return { kind: 'opaque', deep: false };
        for (const x of v.items) items.push(x);
        samples += v.samples ?? 0;
        complete &&= v.complete;
        unread ||= unreadEntries(v);
      } else items.push(v);
    }
    const more = unread ? { unread: true as const } : {};
    // In a loop each item stands for zero or more entries.
    return loop ? { kind: 'push', items, complete: false, samples: items.length, ...more } : { kind: 'push', items, complete, ...(samples ? { samples } : {}), ...more };
  }

  /** `p.A.B` / `p['A']` / `p.A![':v']` rooted at the name, with literal keys: the keys and the last key's range. */
  private pathOf(e: ts.Expression, f: FlowCtx): { keys: string[]; keyRange: Range } | undefined {
    const keys: string[] = [];
    let keyRange: Range | undefined;
    let n: ts.Expression = e;
    for (;;) {
      n = ts.isNonNullExpression(n) || ts.isParenthesizedExpression(n) ? n.expression : n;
      if (ts.isIdentifier(n)) return n.text === f.name && keys.length && keyRange ? { keys, keyRange } : undefined;
      if (ts.isPropertyAccessExpression(n)) {
        keys.unshift(n.name.text);
        keyRange ??= this.range(n.name, this.unit);
        n = n.expression;
      } else if (ts.isElementAccessExpression(n)) {
        const k = this.value(n.argumentExpression, this.unit, f.depth + 1, f.hops + 1);
        if (k.kind !== 'string') return undefined;
        keys.unshift(k.value);
        keyRange ??= this.range(n.argumentExpression, this.unit);
        n = n.expression;
      } else return undefined;
    }
  }

  /**
   * The declaration a name at `pos` of unit `u` refers to: in this statement, the nearest one before `pos` whose scope
   * encloses it (declarations are recorded in document order: binary search); else the module-level one.
   */
  private lookup(name: string, pos: number, u: Unit): Decl | undefined {
    const arr = u === this.unit ? this.decls.get(name) : undefined;
    if (arr) {
      let lo = 0;
      let hi = arr.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (arr[mid].pos <= pos) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo - 1; i >= 0; i--) if (arr[i].scope.pos <= pos && pos < arr[i].scope.end) return arr[i];
    }
    const mod = this.env.decls.get(name);
    if (!mod) {
      this.reads?.add(`d:${name}`);
      return undefined;
    }
    const at = pos + u.delta;
    let best: Decl | undefined;
    for (const d of mod) if (d.pos + d.unit.delta <= at) best = d;
    best ??= mod[0];
    if (best.unit.stale && this.env.refresh) {
      // Its declaration starts before the member edits that made it stale: the same document offset after the refresh.
      const k = mod.indexOf(best);
      this.env.refresh(best.unit);
      best = mod[k];
    }
    if (best.unit === this.unit) this.readsItself = true;
    else {
      this.deps.add(best.unit);
      const last = this.depLog[this.depLog.length - 1];
      if (!last || last.at !== this.cur || last.unit !== best.unit) this.depLog.push({ at: this.cur, unit: best.unit });
    }
    return best;
  }

  /* ---------------------------------------------------------------------------------------------------------------- */
  /* Values                                                                                                          */

  private range(n: ts.Node, u: Unit): Range {
    return { start: n.getStart(u.sf) + u.delta, end: n.end + u.delta };
  }

  private unknown(n: ts.Node, u: Unit): VNode {
    const r = this.range(n, u);
    const start = r.start - u.delta;
    return unknownNode(r, u.sf.text.slice(start, Math.min(n.end, start + 120)));
  }

  private unknownText(n: ts.Node, u: Unit): string {
    const start = n.getStart(u.sf);
    return u.sf.text.slice(start, Math.min(n.end, start + 120));
  }

  private value(n: ts.Expression, u: Unit, depth: number, hops: number): VNode {
    n = unwrap(n);
    if (depth > MAX_VALUE_DEPTH) return this.unknown(n, u);
    const range = this.range(n, u);
    switch (n.kind) {
      case K.StringLiteral:
      case K.NoSubstitutionTemplateLiteral: {
        const start = range.start - u.delta + 1;
        return decodeJs(u.sf.text.slice(start, Math.max(start, n.end - 1)), start + u.delta, range, n.kind !== K.StringLiteral);
      }
      case K.TemplateExpression:
        return this.template(n as ts.TemplateExpression, u, depth, hops);
      case K.NumericLiteral:
      case K.BigIntLiteral:
        return { kind: 'number', text: numberText(n.getText(u.sf)), range };
      case K.PrefixUnaryExpression: {
        const p = n as ts.PrefixUnaryExpression;
        const inner = this.value(p.operand, u, depth + 1, hops);
        if (inner.kind === 'number' && (p.operator === K.MinusToken || p.operator === K.PlusToken)) return { kind: 'number', text: (p.operator === K.MinusToken ? '-' : '') + inner.text, range };
        return this.unknown(n, u);
      }
      case K.TrueKeyword:
      case K.FalseKeyword:
        return { kind: 'bool', value: n.kind === K.TrueKeyword, range };
      case K.NullKeyword:
        return { kind: 'null', range };
      case K.BinaryExpression:
        return this.concat(n as ts.BinaryExpression, u, depth, hops);
      case K.Identifier:
        return this.resolveName(n as ts.Identifier, u, depth, hops);
      case K.ArrayLiteralExpression: {
        const a = n as ts.ArrayLiteralExpression;
        const items: VNode[] = [];
        let complete = true;
        let samples = 0;
        // Entries nothing shows (a spread of an unknown array): said apart from representatives (`unread`).
        let unread = false;
        for (const e of a.elements) {
          if (ts.isOmittedExpression(e)) {
            complete = false;
            unread = true;
          } else if (!ts.isSpreadElement(e)) items.push(this.value(e, u, depth + 1, hops));
          else {
            // `...ids.map((id) => ({ Put: {...} }))` or `...CONST_ITEMS`: what is known of the spread array is in it.
            const v = this.value(e.expression, u, depth + 1, hops);
            if (v.kind === 'array') {
              for (const x of v.items) items.push(x);
              samples += v.samples ?? 0;
            }
            complete &&= v.kind === 'array' && v.complete;
            unread ||= v.kind !== 'array' || unreadEntries(v);
          }
        }
        return { kind: 'array', items, complete, range, ...(samples ? { samples, ...(unread ? { unread: true as const } : {}) } : {}) };
      }
      case K.ObjectLiteralExpression:
        return this.object(n as ts.ObjectLiteralExpression, u, depth, hops);
      case K.ConditionalExpression: {
        // `c ? a : b`: two known alternatives, not one unknown.
        const c = n as ts.ConditionalExpression;
        return oneOf([this.value(c.whenTrue, u, depth + 1, hops), this.value(c.whenFalse, u, depth + 1, hops)], range, this.unknownText(n, u));
      }
      case K.NewExpression:
      case K.CallExpression:
        return this.construct(n as ts.NewExpression | ts.CallExpression, u, depth, hops);
      default:
        return this.unknown(n, u);
    }
  }

  private resolveName(id: ts.Identifier, u: Unit, depth: number, hops: number): VNode {
    const d = id.text === 'undefined' || hops >= MAX_RESOLVE ? undefined : this.lookup(id.text, id.pos, u);
    // A name read inside its own initialiser (`const p = { a: p }`: a TDZ error, `var`: undefined) holds nothing
    // known. Broken code does this as the user types (`{ id: 1 //}` swallows the lines after it into the literal):
    // resolving it again from there re-read the initialiser once per hop, exponentially (a 5 KB file took 0.6 s).
    if (d?.init && d.unit === u && d.init.pos <= id.pos && id.end <= d.init.end) return this.unknown(id, u);
    if (d?.opaque) return unknownNode({ start: d.opaque.start + d.unit.delta, end: d.opaque.end + d.unit.delta }, d.opaque.text);
    // A local of this statement: what the flow up to this use says it holds.
    const flowed = d && u === this.unit && d.unit === this.unit && !ts.isSourceFile(d.scope) ? this.flow(d, id, depth, hops) : undefined;
    if (flowed) return flowed;
    if (!d?.init || !(d.isConst || ts.isSourceFile(d.scope))) return this.unknown(id, u);
    // Declarations that read each other (`const a = { x: b }; const b = { y: a }`, typed or broken code: a TDZ error at
    // run time) hold nothing known; re-reading them once per hop grew as (reads per initialiser)^16 and ran the server
    // out of memory with three.
    if (this.resolving.has(d)) return this.unknown(id, u);
    // Each read of an initialiser is paid from the flow budget: declarations that reuse each other without a cycle
    // (`const a2 = { x: a1, y: a1 }; const a3 = { x: a2, y: a2 }...`) are read once per use, 2^depth times.
    this.flowBudget -= RESOLVE_COST;
    if (this.flowBudget <= 0) return this.unknown(id, u);
    this.resolving.add(d);
    try {
      return markMutated(this.value(d.init, d.unit, depth, hops + 1), id.text, d);
    } finally {
      this.resolving.delete(d);
    }
  }

  private template(t: ts.TemplateExpression, u: Unit, depth: number, hops: number): VNode {
    const text = u.sf.text;
    const piece = (lit: ts.TemplateLiteralLikeNode, tail: boolean): StringNode => {
      const start = lit.getStart(u.sf) + 1;
      const end = lit.end - (tail ? 1 : 2);
      return decodeJs(text.slice(start, end), start + u.delta, { start: start - 1 + u.delta, end: lit.end + u.delta }, true);
    };
    const pieces: StringNode[] = [piece(t.head, false)];
    for (const span of t.templateSpans) {
      const s = asString(this.value(span.expression, u, depth + 1, hops));
      if (!s) {
        // `${delta}`: unknown text, but a string all the same (a DocumentClient sends it as an S).
        const unknown = this.unknown(t, u) as UnknownNode;
        return unknownNode(unknown.range, unknown.text, 'S');
      }
      pieces.push(s, piece(span.literal, ts.isTemplateTail(span.literal)));
    }
    return concatStrings(pieces, this.range(t, u));
  }

  /** `a + b + c`: a left-deep chain, flattened without recursion. */
  private concat(b: ts.BinaryExpression, u: Unit, depth: number, hops: number): VNode {
    if (b.operatorToken.kind !== K.PlusToken) return this.unknown(b, u);
    const operands: ts.Expression[] = [];
    let e: ts.Expression = b;
    while (ts.isBinaryExpression(e) && e.operatorToken.kind === K.PlusToken) {
      operands.push(e.right);
      e = unwrap(e.left);
    }
    operands.push(e);
    operands.reverse();
    const pieces: StringNode[] = [];
    for (const o of operands) {
      const v = this.value(o, u, depth + 1, hops);
      const s = v.kind === 'string' || (v.kind === 'number' && pieces.length) ? asString(v) : undefined;
      if (!s) return this.unknown(b, u);
      pieces.push(s);
    }
    return concatStrings(pieces, this.range(b, u));
  }

  private object(o: ts.ObjectLiteralExpression, u: Unit, depth: number, hops: number): VNode {
    const properties: Property[] = [];
    let complete = true;
    // `...(c ? { A } : {})`: each alternative of the spread gives its own object (combinations, capped).
    let choices: { at: number; of: ObjectNode[] }[] | undefined;
    for (const p of o.properties) {
      if (ts.isSpreadAssignment(p)) {
        const v = this.value(p.expression, u, depth + 1, hops);
        const of = v.kind === 'object' ? undefined : spreadChoices(v);
        if (of) (choices ??= []).push({ at: properties.length, of });
        else if (v.kind === 'object') {
          for (const x of v.properties) properties.push(x);
          complete &&= v.complete;
        } else complete = false;
        continue;
      }
      const key = this.keyOf(p.name, u, depth, hops);
      if (key === undefined) {
        complete = false;
        continue;
      }
      let value: VNode;
      if (ts.isPropertyAssignment(p)) value = this.value(p.initializer, u, depth + 1, hops);
      else if (ts.isShorthandPropertyAssignment(p)) value = this.resolveName(p.name, u, depth + 1, hops);
      else {
        complete = false;
        continue;
      }
      properties.push(entry(key, this.range(p.name, u), value, this.range(p, u)));
    }
    const range = this.range(o, u);
    if (!choices) return objectNode(properties, complete, range);
    let count = 1;
    for (const c of choices) count *= c.of.length;
    if (count > MAX_ALTERNATIVES) return objectNode(properties, false, range);
    let objects: ObjectNode[] = [objectNode([], complete, range)];
    let at = 0;
    const take = (to: number) => {
      for (const obj of objects) for (const x of properties.slice(at, to)) obj.properties.push(x);
      at = to;
    };
    for (const c of choices) {
      take(c.at);
      objects = objects.flatMap((obj) => c.of.map((x) => withProperties(obj, [...obj.properties, ...x.properties], obj.complete && x.complete)));
    }
    take(properties.length);
    return oneOf(objects, range, this.unknownText(o, u));
  }

  private keyOf(name: ts.PropertyName, u: Unit, depth: number, hops: number): string | undefined {
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
    if (ts.isComputedPropertyName(name)) {
      const v = this.value(name.expression, u, depth + 1, hops);
      return v.kind === 'string' ? v.value : v.kind === 'number' ? v.text : undefined;
    }
    return undefined;
  }

  /** `new Set([...])`, `createSet([...])`, `Buffer.from(...)`, `new Uint8Array(...)`, `TextEncoder.encode`. */
  private construct(n: ts.NewExpression | ts.CallExpression, u: Unit, depth: number, hops: number): VNode {
    const parts = dotted(n.expression);
    const last = parts?.[parts.length - 1];
    const range = this.range(n, u);
    const arg = n.arguments?.[0];
    // `ids.map((id) => ({ Update: {...} }))`: an array of unknown length whose every element is built by the callback,
    // so its element is known up to the callback's variables (which stay unknown): one representative element.
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'map' && arg && (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg))) {
      const element = returnedExpression(arg);
      return element ? { kind: 'array', items: [this.value(element, u, depth + 1, hops)], complete: false, samples: 1, range } : { kind: 'array', items: [], complete: false, range };
    }
    if ((ts.isNewExpression(n) && last === 'Set') || (ts.isCallExpression(n) && last === 'createSet')) {
      if (!arg) return { kind: 'set', items: [], range };
      const v = this.value(arg, u, depth + 1, hops);
      return v.kind === 'array' && v.complete ? { kind: 'set', items: v.items, range } : this.unknown(n, u);
    }
    const binary = (length?: number): VNode => ({ kind: 'binary', range, ...(length !== undefined ? { length } : {}) });
    const argValue = (i: number) => (n.arguments?.[i] ? this.value(n.arguments[i], u, depth + 1, hops) : undefined);
    const argCount = n.arguments?.length ?? 0;
    // `new Uint8Array(buffer, offset, length)` / `Buffer.from(buffer, offset, length)`: a view, its length not the source's.
    if (ts.isNewExpression(n) && (last === 'Uint8Array' || last === 'Buffer' || last === 'ArrayBuffer')) return binary(argCount === 1 ? byteLength(argValue(0)) : argCount === 0 ? 0 : undefined);
    if (parts && parts.length === 2 && ['Buffer', 'Uint8Array'].includes(parts[0]) && ['from', 'alloc', 'of'].includes(parts[1])) {
      if (parts[1] === 'of') return binary(n.arguments?.every((a) => !ts.isSpreadElement(a)) ? n.arguments.length : undefined);
      const first = argValue(0);
      if (parts[1] === 'alloc') return binary(byteLength(first?.kind === 'number' ? first : undefined));
      if (first?.kind !== 'string' && argCount > 1) return binary();
      const enc = argValue(1);
      return binary(byteLength(first, enc === undefined ? 'utf8' : enc.kind === 'string' ? enc.value : undefined));
    }
    const callee = n.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'encode' && ts.isNewExpression(callee.expression) && dotted(callee.expression.expression)?.pop() === 'TextEncoder')
      return binary(byteLength(argValue(0), 'utf8'));
    return this.unknown(n, u);
  }
}

/** The expression a callback returns: its concise body, or the object literal of its block's one top-level return. */
function returnedExpression(f: ts.ArrowFunction | ts.FunctionExpression): ts.Expression | undefined {
  if (!ts.isBlock(f.body)) return f.body;
  // Every `return` of this callback (not of functions nested in it): with more than one, no single element shape.
  const returns: ts.ReturnStatement[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isReturnStatement(n)) returns.push(n);
    else if (!ts.isFunctionLike(n) && !ts.isClassLike(n)) ts.forEachChild(n, visit);
  };
  ts.forEachChild(f.body, visit);
  const only = returns.length === 1 ? returns[0].expression : undefined;
  return only && ts.isObjectLiteralExpression(unwrap(only)) ? only : undefined;
}

/**
 * The byte length of what `Buffer.from(x, encoding)` / `new Uint8Array(x)` / `Buffer.alloc(n)` build from a resolved
 * value: a string in a known encoding, a complete array of numbers, a non-negative integer size, or another binary.
 */
function byteLength(v: VNode | undefined, encoding?: string): number | undefined {
  if (!v) return undefined;
  if (v.kind === 'binary') return v.length;
  if (v.kind === 'array') return v.complete && v.items.every((i) => i.kind === 'number') ? v.items.length : undefined;
  if (v.kind === 'number') return /^\d+$/.test(v.text) ? Number(v.text) : undefined;
  if (v.kind !== 'string' || encoding === undefined) return undefined;
  switch (encoding.toLowerCase()) {
    case 'utf8':
    case 'utf-8':
      return utf8Length(v.value);
    case 'base64':
    case 'base64url':
      return base64DecodedLength(v.value);
    case 'hex':
      return /^([0-9a-f]{2})*$/i.test(v.value) ? v.value.length / 2 : undefined;
    case 'latin1':
    case 'binary':
    case 'ascii':
      return v.value.length;
    case 'utf16le':
    case 'ucs2':
      return v.value.length * 2;
    default:
      return undefined;
  }
}

/** A literal bound to a local name that is changed later in its scope (`params.X = ...`, `items.push(...)`) is incomplete. */
function markMutated(v: VNode, name: string, d: Decl | undefined): VNode {
  return d?.init && !ts.isSourceFile(d.scope) ? markMutatedLater(v, name, d.unit.sf.text.slice(d.init.end, d.scope.end), 'js') : v;
}

function bindRequire(into: Map<string, { name: string; module: string }>, d: ts.VariableDeclaration, module: string): void {
  if (ts.isIdentifier(d.name)) into.set(d.name.text, { name: '*', module });
  else if (ts.isObjectBindingPattern(d.name))
    for (const el of d.name.elements)
      if (ts.isIdentifier(el.name)) into.set(el.name.text, { name: el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : el.name.text, module });
}

/** A number's decimal text: `1_000` -> `1000`, `0x10` -> `16`, `5n` -> `5`; plain decimals stay as written. */
function numberText(raw: string): string {
  const t = raw.replace(/_/g, '').replace(/n$/, '');
  return /^0[xXoObB]/.test(t) ? BigInt(t).toString() : t;
}

function asString(v: VNode): StringNode | undefined {
  if (v.kind === 'string') return v;
  if (v.kind !== 'number') return undefined;
  const n = v.text.length;
  const offsets = Array.from({ length: n + 1 }, (_, i) => Math.min(v.range.start + i, v.range.end));
  return { kind: 'string', value: v.text, offsets, range: v.range };
}


/* ------------------------------------------------------------------------------------------------------------------ */
/* The document: statements as units, full or incremental                                                             */

/**
 * A call whose value `UnitExtractor.construct` never reads (so it is unknown whatever its arguments): e.g.
 * `middy(async (event) => {...})`. Mirrors `construct`'s cases: `.map(cb)`, `createSet`, `Buffer.*` / `Uint8Array.*`,
 * `.encode`.
 */
function opaqueCall(n: ts.Expression): boolean {
  if (!ts.isCallExpression(n)) return false;
  if (ts.isPropertyAccessExpression(n.expression) && (n.expression.name.text === 'map' || n.expression.name.text === 'encode')) return false;
  const parts = dotted(n.expression);
  if (!parts) return true;
  if (parts[parts.length - 1] === 'createSet') return false;
  return !(parts.length === 2 && (parts[0] === 'Buffer' || parts[0] === 'Uint8Array'));
}

/** A text-only stand-in for a parse's source file: what `getStart` / `getText` and the walk read of it. */
function liteSource(text: string): ts.SourceFile {
  return { kind: K.SourceFile, text, pos: 0, end: text.length, flags: 0 } as unknown as ts.SourceFile;
}

/** The `deps` of every unit that read no other statement (an empty Set costs ~150 B; 2,500 units of the 50,000-line file). */
const NO_DEPS: ReadonlySet<Unit> = new Set<Unit>();

function newUnit(sf: ts.SourceFile, delta: number, stmt: ts.Statement): Unit {
  return { sf, delta, stmt, pos: stmt.pos, end: stmt.end, key: '', decls: [], deps: NO_DEPS, sites: [], consumed: [], deferred: [], maxRef: 0, checked: undefined, inOrder: [], hasShape: false, ordered: false };
}

/**
 * The class body or the object literal of `x = {...}` / `export default {...}` / `const x = {...}` (one declaration) whose function members
 * may be re-extracted alone, with the literal (`node`) and, for a declaration, the declaration.
 */
function containerOf(s: ts.Statement): { kind: Members['kind']; members: ts.NodeArray<ts.Node>; node: ts.Node; decl?: ts.VariableDeclaration } | undefined {
  if (ts.isClassDeclaration(s)) return s.members.some((m) => ts.isClassStaticBlockDeclaration(m)) ? undefined : { kind: 'class', members: s.members, node: s };
  let o: ts.Expression | undefined;
  let decl: ts.VariableDeclaration | undefined;
  if (ts.isExpressionStatement(s) && ts.isBinaryExpression(s.expression) && s.expression.operatorToken.kind === K.EqualsToken) o = s.expression.right;
  else if (ts.isExportAssignment(s)) o = s.expression;
  else if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1 && ts.isIdentifier(s.declarationList.declarations[0].name)) {
    decl = s.declarationList.declarations[0];
    o = decl.initializer;
  }
  // A member named like a request key would make the literal a request shape of its own.
  if (!o || !ts.isObjectLiteralExpression(o) || hasShapeKey(o)) return undefined;
  return { kind: decl ? 'var' : 'object', members: o.properties, node: o, decl };
}

/** The function of a member that is one (method, accessor, constructor, property holding a function), named plainly. */
function memberFunction(m: ts.Node): (ts.FunctionLikeDeclaration & { body: ts.Node }) | undefined {
  const name = (m as { name?: ts.Node }).name;
  if (name && !(ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name))) return undefined;
  if ((ts.isMethodDeclaration(m) || ts.isGetAccessor(m) || ts.isSetAccessor(m) || ts.isConstructorDeclaration(m)) && m.body) return m as ts.FunctionLikeDeclaration & { body: ts.Node };
  if ((ts.isPropertyAssignment(m) || ts.isPropertyDeclaration(m)) && m.initializer && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer))) return m.initializer;
  return undefined;
}

function headOf(m: ts.Node, f: { body: ts.Node }, sf: ts.SourceFile): string {
  return `${sf.text.slice(m.getStart(sf), f.body.pos)}\u0000${sf.text.slice(f.body.end, m.end)}`;
}

/**
 * A site's `branch` after an edit ending at `from` changed the length by `diff` inside its enclosing function: an arm's
 * id is its conditional's offset from the function node's start (`pos`, with its leading trivia), an alternative's
 * (`a<n>`) the site's offset from the function's `range.start`; those at or after `from` move. Undefined for a form it
 * does not know.
 */
function movedArms(branch: string, pos: number, start: number, from: number, diff: number): string | undefined {
  const segs = branch.split('/');
  for (let q = 1; q < segs.length; q++) {
    const m = /^(a?)(\d+):([^/]*)$/.exec(segs[q]);
    if (!m) return undefined;
    const n = Number(m[2]);
    if ((m[1] ? start : pos) + n >= from) segs[q] = `${m[1]}${n + diff}:${m[3]}`;
  }
  return segs[0] === '' ? segs.join('/') : undefined;
}

/** What typing or deleting inside a plain string literal must not touch for `TsDocument.stringEdit` (its tokens change). */
const UNSAFE_IN_STRING = /['"`\\\r\n\u2028\u2029]/;

/**
 * Whether a quote (`'` or `"`) comes before `start` and after `end` on the line of `text` holding them: what an edit
 * inside a one-line plain literal has (`TsDocument.stringEdit`'s hit cannot hold a line break or an escape). A cheap
 * test before walking every node of the statement's sites: most edits in a member are not in a string (~0.1 ms a
 * walk in the shapes file's `handlers` member). Returning true only lets the walk decide.
 */
function quotesAround(text: string, start: number, end: number): boolean {
  let before = false;
  for (let p = start - 1; p >= 0; p--) {
    const c = text.charCodeAt(p);
    if (c === 0x27 || c === 0x22) {
      before = true;
      break;
    }
    if (c === 0x0a || c === 0x0d) return false;
  }
  if (!before) return false;
  for (let p = end; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c === 0x27 || c === 0x22) return true;
    if (c === 0x0a || c === 0x0d) return false;
  }
  return false;
}

/** Wrappers a member's text is parsed in on its own (`TsDocument.memberEdit`). */
const MEMBER_WRAP = { object: ['({', '\n})'], class: ['class _ {', '\n}'] } as const;


/** Move a part's helper records (unit coordinates) at or after `from` by `diff`; each function object once. */
function shiftPart(p: Part, from: number, diff: number): void {
  const fns = new Set<Fn>();
  const move = (r: Range) => {
    if (r.start >= from) r.start += diff;
    if (r.end >= from) r.end += diff;
  };
  for (const e of p.fns) fns.add(e.fn);
  for (const c of p.calls) {
    fns.add(c.fn);
    move(c.range);
    move(c.nameRange);
  }
  for (const f of fns) move(f.range);
}

function emptyPart(): Part {
  return { fns: [], calls: [], clients: '', decls: [], deps: [], consumed: [] };
}

/** A copy of a helper call with its offsets moved by `k` (document <-> unit coordinates). */
function movedCall(c: CallRec, k: number, fn = movedFn(c.fn, k)): CallRec {
  return { ...c, fn, range: { start: c.range.start + k, end: c.range.end + k }, nameRange: { start: c.nameRange.start + k, end: c.nameRange.end + k } };
}

function movedFn(f: Fn, k: number): Fn {
  return { name: f.name, range: { start: f.range.start + k, end: f.range.end + k } };
}

/** Attribute what a unit's extraction recorded to its parts (see `Part`), from the positions it was recorded at. */
function fillParts(x: UnitExtractor, delta: number, partAt: (at: number) => Part): void {
  const fnCopies = new Map<Fn, Fn>();
  const rel = (f: Fn) => {
    let r = fnCopies.get(f);
    if (!r) fnCopies.set(f, (r = movedFn(f, -delta)));
    return r;
  };
  for (const [key, fns] of x.fnsByName) for (const fn of fns) partAt(fn.range.start - delta).fns.push({ key, fn: rel(fn) });
  for (const c of x.helperCalls) partAt(c.range.start - delta).calls.push(movedCall(c, -delta, rel(c.fn)));
  const clients = new Map<Part, string[]>();
  for (const e of x.clientLog) {
    const p = partAt(e.at);
    const list = clients.get(p);
    if (list) list.push(`${e.name}=${e.kind}`);
    else clients.set(p, [`${e.name}=${e.kind}`]);
  }
  for (const [p, list] of clients) p.clients = list.join(';');
  for (const [name, decls] of x.decls) for (const d of decls) partAt(d.pos).decls.push(name);
  for (const e of x.depLog) partAt(e.at).deps.push(e.unit);
  for (const e of x.consumedLog) partAt(e.at).consumed.push(e.node);
}

/**
 * The function members of a class body or of `x = {...}` (see `Members`), when the statement's extraction allows one
 * to be re-extracted alone: nothing deferred to the document (no module-level literal of its own), no `require` bound
 * inside it (imports are statement-wide), no name resolved to its own declaration (what a member reads of
 * `const x = {...}` holds the other members' text), well within the flow budget.
 */
function membersOf(u: Unit, x: UnitExtractor): Members | undefined {
  const c = containerOf(u.stmt!);
  if (!c || x.boundRequire || x.readsItself || x.flowUsed * 2 >= FLOW_BUDGET) return undefined;
  // Deferred to the document: for a declaration only its own literal (a request if no statement consumes it), made
  // again from the new parse after a member edit.
  if (c.decl ? u.deferred.length > 1 || (u.deferred.length === 1 && u.deferred[0].node !== c.decl) : u.deferred.length) return undefined;
  const sf = u.sf;
  const list: Member[] = [];
  for (const m of c.members) {
    const f = memberFunction(m);
    if (f) list.push({ pos: m.pos, end: m.end, start: m.getStart(sf), head: headOf(m, f, sf), ...emptyPart() });
  }
  if (!list.length) return undefined;
  const ms: Members = { kind: c.kind, list, rest: emptyPart(), declsAt: [], clients: x.clients, dao: DAO_WORDS.test(sf.text.slice(u.pos, u.end)), budget: x.flowUsed };
  fillParts(x, u.delta, (at) => memberAt(list, at) ?? ms.rest);
  for (const [name, decls] of x.decls) for (const d of decls) ms.declsAt.push({ at: d.pos, name });
  ms.declsAt.sort((a, b) => a.at - b.at);
  for (const m of list) m.decls.sort();
  return ms;
}

/** The member holding a unit offset (binary search: members are in order and apart). */
function memberAt(list: Member[], at: number): Member | undefined {
  let lo = 0;
  let hi = list.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (list[mid].pos <= at) lo = mid;
    else hi = mid - 1;
  }
  const m = list[lo];
  return m && m.pos <= at && at < m.end ? m : undefined;
}

function emptyEnv(): Env {
  return { imports: new Map(), decls: new Map(), clients: new Map(), usesV3: false, usesLib: false, wrappers: new Map() };
}

type Typed = { index: number; type: ts.TypeNode }[];

/**
 * What a statement contributes to the environment. Sets `u.decls` (module-level declarations, in order) and `u.key`:
 * everything other statements see of it except declared values (imports, names, client kinds, wrapper signatures),
 * so two versions of a statement with the same key differ only in values, which their readers record in `deps`.
 * `const handler = async () => {...}` contributes `decl handler`, whatever its body.
 */
function contribution(u: Unit, env: Env, host: HostLanguage, reads?: Set<string>): { wrappers: [string, Typed][]; clients: [string, ClientKind][] } {
  const s = u.stmt!;
  const sf = u.sf;
  const keys: string[] = [];
  const wrappers: [string, Typed][] = [];
  const clients: [string, ClientKind][] = [];
  u.decls = [];
  if (ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s)) keys.push(`import ${s.getText(sf)}`);
  else if (ts.isFunctionDeclaration(s)) {
    const typed = typedParameters(s);
    if (typed.length) {
      if (s.name) wrappers.push([s.name.text, typed]);
      keys.push(`wrapper ${wrapperKey(s.name?.text ?? '', typed, sf)}`);
    }
  } else if (ts.isVariableStatement(s)) {
    const x = new UnitExtractor(env, u, host, reads);
    const isConst = (s.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of s.declarationList.declarations) {
      if (requireOf(d.initializer) !== undefined) {
        keys.push(`require ${d.getText(sf)}`);
        continue;
      }
      if (!ts.isIdentifier(d.name)) continue;
      const name = d.name.text;
      const init = d.initializer && unwrap(d.initializer);
      const fnLike = !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
      const typed = fnLike ? typedParameters(init as ts.ArrowFunction) : [];
      if (isConst && typed.length) {
        wrappers.push([name, typed]);
        keys.push(`wrapper ${wrapperKey(name, typed, sf)}`);
      }
      let opaque: Decl['opaque'];
      if (init && (fnLike || ts.isClassExpression(init) || opaqueCall(init))) {
        const start = init.getStart(sf);
        opaque = { start, end: init.end, text: sf.text.slice(start, Math.min(init.end, start + 120)) };
      }
      u.decls.push({ name, init: opaque ? undefined : d.initializer, opaque, isConst, scope: sf, pos: d.pos, unit: u });
      keys.push(`decl ${name} ${isConst}`);
      const kind = x.clientKind(d.initializer, d.type);
      if (kind) clients.push([name, kind]);
    }
  } else if (ts.isExpressionStatement(s) && ts.isBinaryExpression(s.expression) && s.expression.operatorToken.kind === K.EqualsToken) {
    const target = dotted(s.expression.left);
    const kind = target && new UnitExtractor(env, u, host, reads).clientKind(s.expression.right);
    if (target && kind) clients.push([target[target.length - 1], kind]);
  }
  for (const [name, kind] of clients) keys.push(`client ${name}=${kind}`);
  u.key = keys.join('\n');
  return { wrappers, clients };
}

/** Add a statement's imports (and `require`s) to the environment; `set` hears each name and flag it sets. */
function addImports(env: Env, u: Unit, set?: (key: string) => void): void {
  const s = u.stmt!;
  const bound = new Map<string, { name: string; module: string }>();
  const noteModule = (m: string) => {
    if (m.startsWith('@aws-sdk/') && !env.usesV3) {
      env.usesV3 = true;
      set?.('f');
    }
    if (m === V3_DOC && !env.usesLib) {
      env.usesLib = true;
      set?.('f');
    }
  };
  if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier)) {
    const module = s.moduleSpecifier.text;
    noteModule(module);
    const c = s.importClause;
    if (c?.name) bound.set(c.name.text, { name: 'default', module });
    const b = c?.namedBindings;
    if (b && ts.isNamespaceImport(b)) bound.set(b.name.text, { name: '*', module });
    if (b && ts.isNamedImports(b)) for (const el of b.elements) bound.set(el.name.text, { name: (el.propertyName ?? el.name).text, module });
  } else if (ts.isVariableStatement(s))
    for (const d of s.declarationList.declarations) {
      const req = requireOf(d.initializer);
      if (req !== undefined) {
        noteModule(req);
        bindRequire(bound, d, req);
      }
    }
  for (const [name, imp] of bound) {
    env.imports.set(name, imp);
    set?.(`i:${name}`);
  }
}

/** Add a statement's contribution (see `contribution`) to the environment. */
function addContribution(env: Env, u: Unit, host: HostLanguage, reads?: Set<string>, set?: (key: string) => void): void {
  const c = contribution(u, env, host, reads);
  for (const [name, typed] of c.wrappers) {
    env.wrappers.set(name, typed);
    set?.(`w:${name}`);
  }
  for (const [name, kind] of c.clients) {
    env.clients.set(name, kind);
    set?.(`c:${name}`);
  }
  for (const d of u.decls) {
    const arr = env.decls.get(d.name);
    if (arr) arr.push(d);
    else env.decls.set(d.name, [d]);
    set?.(`d:${d.name}`);
  }
}

function buildEnv(units: Unit[], host: HostLanguage): Env {
  const env = emptyEnv();
  for (const u of units) addImports(env, u);
  for (const u of units) addContribution(env, u, host);
  return env;
}

/** The offset after the whitespace and comments at `from`; -1 inside an unterminated block comment. */
export function skipTrivia(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) {
      const e = text.indexOf('*/', i + 2);
      if (e < 0) return -1;
      i = e + 2;
    } else return i;
  }
}

/** Does the text at `from` (after trivia) start with a token that could continue the statement before it? */
export function continuesPrevious(text: string, from = 0): boolean {
  const i = skipTrivia(text, from);
  return i < 0 || (i < text.length && '([`+-*/%,.?:=<>&|^!~'.includes(text[i]));
}

/** Lines that start a top-level statement (at column 0): where a large document is cut into chunks to parse. */
const STATEMENT_LINE = /\n(?=(?:export|function|async function|const|let|var|class|interface|type|enum|declare|abstract|module\.exports|exports\.)[\s.=({<*]|import[\s{*'"])/g;

/** Characters per chunk of a chunked full parse (the AST of one chunk at a time is alive, not the document's). */
export const TS_CHUNK_CHARS = 32 * 1024;

/**
 * A TypeScript/JavaScript document kept between edits. Each top-level statement is a unit with its own sites. After
 * an edit, only the statements it touches are re-parsed (on their own, positions shifted by `delta`) and re-extracted,
 * plus the statements whose extraction read a value declared in them (`deps`, re-parsed from their unchanged text);
 * the others keep their sites, moved by the edit's length change. Whenever that could differ from a full parse (the
 * edit changes what a statement contributes to the environment other than values: an import, a declared name, a
 * client, a wrapper signature; the re-parsed text has syntax errors; a statement boundary could join with its
 * neighbour) or would cost about as much (the statements to redo hold half the document), the whole document is
 * parsed again.
 */
export class TsDocument {
  private units: Unit[] = [];
  private env: Env = emptyEnv();
  private text = '';
  private flattened = false;
  /** Whether the last `update` re-parsed only the statements the edit touched (and their readers). */
  lastWasIncremental = false;
  /** How many top-level statements the last `full` / `update` parsed and extracted. */
  lastReparsed = 0;
  /** Whether the last `update` re-parsed one member of a class body or object literal alone (`memberEdit`). */
  lastMember = false;
  /** Whether the last `update` only changed the value of one expression string of a member's request (`stringEdit`). */
  lastString = false;
  /** How many characters the last `update` handed to the parser (tests: a member edit parses the member alone). */
  lastParsedChars = 0;
  /** A stale unit's statement did not parse again (`refresh`): the update is done by a full extraction instead. */
  private refreshFailed = false;
  private readonly refresher = (u: Unit) => this.refresh(u);
  /**
   * The moves of this document's offsets since its last full extraction: the compact nodes of its sites take them when
   * read instead of being moved in place (core/compact.ts `Moves`; `moveUnits` records them).
   */
  private moves = new Moves();
  /** The deferred candidates' sites the last `collect` made (new ones each time: let go at the next update). */
  private lastDeferred: RequestSite[] = [];

  /** @param chunkChars documents longer than twice this are parsed chunk by chunk (tests lower it). */
  constructor(
    private languageId: string,
    private host: HostLanguage,
    private chunkChars = TS_CHUNK_CHARS,
  ) {}

  full(text: string): RequestSite[] {
    this.moves = new Moves();
    this.lastDeferred = [];
    bornIn(this.moves, 0);
    try {
      return this.fullExtraction(text);
    } finally {
      bornInPlace();
    }
  }

  private fullExtraction(text: string): RequestSite[] {
    const chunked = text.length > 2 * this.chunkChars ? this.fullChunked(text) : undefined;
    if (chunked) return chunked;
    const sf = createTsSourceFile(text, this.languageId);
    this.text = text;
    this.flattened = sf.text !== text;
    const lite = liteSource(sf.text);
    this.units = sf.statements.map((stmt) => newUnit(lite, 0, stmt));
    const errors = (sf as unknown as { parseDiagnostics?: { start: number }[] }).parseDiagnostics;
    if (errors?.length) {
      const at = errors.map((e) => e.start).sort((a, b) => a - b);
      let q = 0;
      // An error the parser reports at the next statement's first token (`a,` then `let`) is this statement's too.
      for (const u of this.units) {
        while (q < at.length && at[q] < u.pos) q++;
        if (q < at.length && at[q] <= Math.max(u.end, skipTrivia(sf.text, u.end))) u.broken = true;
      }
    }
    this.env = buildEnv(this.units, this.host);
    this.env.refresh = this.refresher;
    for (const u of this.units) this.extractUnit(u);
    this.lastReparsed = this.units.length;
    return this.collect();
  }

  /** Sites of the new text, given the one span that changed (see `changedSpan`). */
  update(text: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] {
    this.lastMember = false;
    this.lastString = false;
    this.lastParsedChars = 0;
    this.refreshFailed = false;
    freezeSites(this.lastDeferred);
    this.lastDeferred = [];
    // Nodes made by this update are in the new text's offsets: after the move it records (when the length changed).
    const taken = this.moves.n + (span.newEnd !== span.oldEnd ? 1 : 0);
    bornIn(this.moves, taken);
    let sites: RequestSite[] | undefined;
    try {
      sites = this.units.length && !this.flattened ? this.incremental(text, span) : undefined;
    } finally {
      bornInPlace();
    }
    if (this.refreshFailed || this.moves.n !== taken) {
      sites = undefined;
      this.lastMember = false;
      this.lastString = false;
    }
    this.lastWasIncremental = !!sites;
    return sites ?? this.full(text);
  }

  /**
   * Parse a `stale` unit's statement again from the document's text (at its current place: callers keep `this.text`
   * and the units' offsets in step), its declarations swapped in the environment in place and its members' records
   * moved to the new parse's coordinates. On failure the unit stays stale and the update falls back to a full extraction.
   */
  private refresh(u: Unit): void {
    const members = u.members;
    const at = u.pos + u.delta;
    const by = u.delta - at;
    if (!this.reparseInPlace(u, this.text, at)) {
      this.refreshFailed = true;
      return;
    }
    u.stmt = undefined;
    if (members && by) {
      for (const p of [members.rest, ...members.list]) shiftPart(p, -Infinity, by);
      for (const o of members.list) {
        o.pos += by;
        o.end += by;
        o.start += by;
      }
      for (const d of members.declsAt) d.at += by;
    }
  }

  /**
   * A full extraction parsing the document in chunks cut before lines that start a top-level statement, so only one
   * chunk's AST is alive at a time (a 50,000-line file's AST is most of the server's memory otherwise). Each chunk
   * must parse without errors and end with a statement followed only by trivia; its statements are extracted against
   * the environment of the chunks so far, recording what they asked it (`reads`); a statement that asked for a name
   * a later chunk set is re-extracted at the end (re-parsed alone), and an environment contribution computed too early
   * falls back to the one-parse full extraction. Undefined when it cannot be used.
   */
  private fullChunked(text: string): RequestSite[] | undefined {
    const env = emptyEnv();
    env.refresh = this.refresher;
    this.env = env;
    const setAt = new Map<string, number>();
    const units: Unit[] = [];
    const pending: { u: Unit; chunk: number; reads: Set<string> }[] = [];
    const contributed: { chunk: number; reads: Set<string> }[] = [];
    let p = 0;
    for (let chunk = 0; p < text.length; chunk++) {
      // Cut before a statement line; when the chunk does not parse on its own (the line was inside a template, a
      // comment or a badly indented block) or holds no statement, try the next such line, a few times.
      let from = p + this.chunkChars;
      let cut = text.length;
      let sf: ts.SourceFile | undefined;
      for (let attempt = 0; attempt < 8 && !sf; attempt++) {
        STATEMENT_LINE.lastIndex = from;
        const m = from < text.length ? STATEMENT_LINE.exec(text) : null;
        cut = m ? m.index + 1 : text.length;
        const candidate = this.parseRegion(text.slice(p, cut), true);
        if (candidate && (cut === text.length || skipTrivia(candidate.text, candidate.statements[candidate.statements.length - 1].end) === cut - p)) sf = candidate;
        else if (cut === text.length) return undefined;
        from = cut;
      }
      if (!sf) return undefined;
      const toEnd = cut === text.length;
      const slice = sf.text;
      if (p > 0 && continuesPrevious(slice)) return undefined;
      const last = sf.statements[sf.statements.length - 1];
      const lite = liteSource(slice);
      const fresh = sf.statements.map((st) => newUnit(lite, p, st));
      const set = (key: string) => setAt.set(key, chunk);
      for (const u of fresh) addImports(env, u, set);
      for (const u of fresh) {
        const reads = new Set<string>();
        addContribution(env, u, this.host, reads, set);
        contributed.push({ chunk, reads });
      }
      for (const u of fresh) {
        const reads = new Set<string>();
        this.extractUnit(u, reads);
        pending.push({ u, chunk, reads });
      }
      for (const x of fresh) units.push(x);
      p = toEnd ? text.length : p + last.end;
    }
    const stale = (reads: Set<string>, chunk: number) => {
      for (const k of reads) if ((setAt.get(k) ?? -1) > chunk) return true;
      return false;
    };
    if (contributed.some((c) => stale(c.reads, c.chunk))) return undefined;
    this.units = units;
    this.text = text;
    this.flattened = false;
    for (const { u, chunk, reads } of pending) {
      if (!stale(reads, chunk)) continue;
      if (!this.reparseInPlace(u, text, u.pos + u.delta)) return undefined;
      this.extractUnit(u);
    }
    this.lastReparsed = units.length;
    return this.collect();
  }

  /** Re-parse a statement whose text is unchanged (now at `at`) in place, its declarations swapped in the environment. */
  private reparseInPlace(u: Unit, text: string, at: number, parsed?: ts.SourceFile): boolean {
    const sf = parsed ?? this.parseRegion(ownCopy(text.slice(at, at + u.end - u.pos)), false);
    if (!sf || sf.statements.length !== 1) return false;
    const before = u.decls;
    u.stale = false;
    u.sf = liteSource(sf.text);
    u.delta = at;
    u.stmt = sf.statements[0];
    u.pos = u.stmt.pos;
    u.end = u.stmt.end;
    const c = contribution(u, this.env, this.host);
    for (let k = 0; k < before.length; k++) {
      const arr = this.env.decls.get(before[k].name)!;
      arr[arr.indexOf(before[k])] = u.decls[k];
    }
    for (const [name, typed] of c.wrappers) this.env.wrappers.set(name, typed);
    return true;
  }

  private extractUnit(u: Unit, reads?: Set<string>): void {
    // The sites it held are let go (a reader of a changed statement, extracted again).
    if (u.sites.length) freezeSites(u.sites);
    const x = new UnitExtractor(this.env, u, this.host, reads);
    u.sites = x.run();
    u.consumed = [...x.consumedTop];
    u.deferred = x.deferred;
    u.deps = x.deps.size ? x.deps : NO_DEPS;
    u.maxRef = maxRef(u.sites);
    u.members = membersOf(u, x);
    // Sites, boundaries, declarations and deferred candidates are all that is kept: not the statement's AST.
    u.stmt = undefined;
  }

  /**
   * The document's sites: the units' own, in order, and the deferred candidates of each unit, evaluated again (what
   * other statements consumed may have changed). Whether a unit's sites hold a shape and are in order inside its
   * statement is found once per sites array (`checkUnit`, which also sorts, once, the sites of a unit that all start
   * inside it but not in order: `Unit.inOrder`), not per edit; the list is checked (and sorted if need be) only when a
   * unit's sites do not all start inside it or a deferred candidate made a site (the order check read every site, ~0.1
   * ms an edit on the 5,000-line shapes file, and ~0.2 ms more once a site's ranges were getters: `SiteSpan`).
   */
  private collect(): RequestSite[] {
    // Sized up front: grown push by push, its copies were ~25 KB an edit on the 5,000-line shapes file.
    let count = 0;
    for (const u of this.units) count += u.sites.length;
    const out: RequestSite[] = new Array<RequestSite>(count);
    let at = 0;
    let shapes = false;
    let ordered = true;
    let consumed: Set<ts.Node> | undefined;
    for (const u of this.units) {
      const sites = u.sites;
      if (sites.length) {
        if (u.checked !== sites) checkUnit(u);
        for (const x of u.inOrder) out[at++] = x;
        if (u.hasShape) shapes = true;
        if (!u.ordered) ordered = false;
      }
      if (!u.deferred.length) continue;
      if (!consumed) {
        consumed = new Set<ts.Node>();
        for (const v of this.units) for (const n of v.consumed) consumed.add(n);
      }
      const x = new UnitExtractor(this.env, u, this.host);
      for (const c of u.deferred) {
        const s = x.candidate(c, consumed);
        if (s) {
          this.lastDeferred.push(s);
          out[at++] = s;
          ordered = false;
          if (shapeSites.has(s)) shapes = true;
        }
      }
    }
    const kept = shapes ? dropHeldShapes(out, (s) => shapeSites.has(s)) : out;
    // Every unit's sites in order inside its statement, the statements in document order: in order.
    if (ordered) return kept;
    for (let k = 1; k < kept.length; k++) if (kept[k].range.start < kept[k - 1].range.start) return kept.sort((a, b) => a.range.start - b.range.start);
    return kept;
  }

  /** Parse a region of the document on its own: its statements, or undefined when that could differ from a full parse. */
  private parseRegion(text: string, toEnd: boolean): ts.SourceFile | undefined {
    this.lastParsedChars += text.length;
    let sf: ts.SourceFile;
    try {
      sf = ts.createSourceFile('file', text, ts.ScriptTarget.Latest, false, scriptKind(this.languageId));
    } catch {
      return undefined;
    }
    if (hasParseErrors(sf) || !sf.statements.length) return undefined;
    if (!toEnd && sf.statements[sf.statements.length - 1].end !== text.length) return undefined;
    return sf;
  }

  /**
   * Move the units other than `i..j` (and their sites) after an edit ending at `from` (old text) that changed the length
   * by `diff`: the move is recorded for the sites' compact nodes (`moves`: every node of the document not let go takes
   * it, the unit's own kept sites included: the caller has frozen the sites it drops), the rest of each site (its own
   * ranges, plain `Range` objects, offsets arrays, enclosing function) moved in place for the units whose sites reach
   * `from`.
   */
  private moveUnits(i: number, j: number, from: number, diff: number): void {
    if (diff === 0) return;
    this.moves.record(from, diff);
    const units = this.units;
    for (let k = 0; k < units.length; k++) {
      if (k >= i && k <= j) continue;
      const u = units[k];
      if (k > j) u.delta += diff;
      if (u.maxRef >= from) {
        shiftSites(u.sites, from, diff);
        u.maxRef += diff;
      }
    }
  }

  /**
   * An edit inside one function member of a class body, of `x = {...}` or of `const x = {...}` (`Unit.members`): only
   * that member is extracted, the other members keep their site objects (moved by the length change), so the rule
   * cache reuses them. The member is parsed alone, in a wrapper of its container's kind; a declaration's statement is
   * parsed again whole (its literal is what other statements read of the name and its deferred candidate) unless
   * another statement read it (then the statement path re-extracts those readers too). Undefined, for the statement
   * path to decide, whenever that could differ from extracting the whole statement: the edit reaches the member's
   * first token or its last, its text does not parse alone as one member with the same head (name, kind,
   * parameters), another part of the statement calls a helper it defines, it changes the clients or the helper names
   * the other members see, or a local name a wrapper call elsewhere may be looking up, it binds a `require`, it reads
   * its own statement's declaration, or the statement's repository words (`DAO_WORDS`) change.
   */
  private memberEdit(k: number, newText: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] | undefined {
    const u = this.units[k];
    const ms = u.members;
    if (!ms) return undefined;
    const d0 = u.delta;
    const m = memberAt(ms.list, span.start - d0);
    if (!m || span.start <= m.start + d0 || span.oldEnd >= m.end + d0) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const at = m.pos + d0;
    const oldEnd = m.end + d0;
    const stmtStart = u.pos + d0;
    const stmtEnd = u.end + d0 + diff;
    // The member's node in a parse of its own (`mu`: a unit for that parse; positions + mu.delta are document offsets).
    let mu: Unit;
    let node: ts.Node | undefined;
    let root: MemberSeed['root'];
    // `const x = {...}` whose literal is deferred to the document (it may be a request): parsed again whole, that
    // literal from the new parse. Otherwise the member is parsed alone, as in `x = {...}`, and the statement is left
    // `stale` (parsed again when another statement reads its declaration: none does now).
    const whole = ms.kind === 'var' && u.deferred.length > 0;
    if (ms.kind === 'var') for (let q = 0; q < this.units.length; q++) if (q !== k && this.units[q].deps.has(u)) return undefined;
    if (whole) {
      if (continuesPrevious(newText, stmtEnd) && k < this.units.length - 1) return undefined;
      const sf = this.parseRegion(ownCopy(newText.slice(stmtStart, stmtEnd)), false);
      const st = sf?.statements.length === 1 ? sf.statements[0] : undefined;
      const c = st && containerOf(st);
      if (!sf || !st || c?.kind !== 'var') return undefined;
      mu = newUnit(liteSource(sf.text), stmtStart, st);
      node = c.members.find((x) => x.pos + stmtStart === at);
      if (!node || node.end + stmtStart !== oldEnd + diff || contribution(mu, this.env, this.host).wrappers.length || mu.key !== u.key) return undefined;
      root = { node, parent: c.node };
    } else {
      const text = ownCopy(newText.slice(at, oldEnd + diff));
      // A class member not closed by `;` or a body could run into the next one.
      if (ms.kind === 'class' && !/[;}]$/.test(text) && continuesPrevious(newText, oldEnd + diff)) return undefined;
      const kind = ms.kind === 'var' ? 'object' : ms.kind;
      const [open, close] = MEMBER_WRAP[kind];
      const sf = this.parseRegion(open + text + close, false);
      if (!sf || sf.statements.length !== 1) return undefined;
      const st = sf.statements[0];
      const nodes =
        kind === 'class' ? (ts.isClassDeclaration(st) ? st.members : undefined)
        : ts.isExpressionStatement(st) && ts.isParenthesizedExpression(st.expression) && ts.isObjectLiteralExpression(st.expression.expression) ? st.expression.expression.properties
        : undefined;
      node = nodes?.length === 1 && nodes[0].pos === open.length && nodes[0].end === open.length + text.length ? nodes[0] : undefined;
      mu = newUnit(liteSource(sf.text), at - open.length, st);
    }
    const f = node && memberFunction(node);
    if (!node || !f || headOf(node, f, mu.sf) !== m.head) return undefined;
    const dao = DAO_WORDS.test(newText.slice(stmtStart, stmtEnd));
    if (dao !== ms.dao || ms.budget * 2 >= FLOW_BUDGET) return undefined;
    const parts = [ms.rest, ...ms.list];
    const priorDecls = new Set<string>();
    for (const d of ms.declsAt) if (d.at < m.pos) priorDecls.add(d.name);
    const fnKeys = new Set<string>();
    for (const p of parts) if (p !== m) for (const e of p.fns) fnKeys.add(e.key);
    const x = new UnitExtractor(this.env, mu, this.host, undefined, { root, clients: ms.clients, priorDecls, fnKeys, dao });
    const sites = x.run();
    if (x.deferred.length || x.boundRequire || x.flowUsed * 2 >= FLOW_BUDGET || x.deps.has(u)) return undefined;
    // A value read from a statement after this one holds its offsets from before the edit (that statement is moved
    // below, after this extraction), and the member's own new offsets overlap them: the statement path extracts after
    // the move.
    if (diff !== 0) for (const d of x.deps) if (d.pos + d.delta >= oldEnd) return undefined;
    // The unit's coordinates after the edit: a declaration's statement parsed again starts its own text.
    const delta = whole ? stmtStart : d0;
    const part = emptyPart();
    fillParts(x, delta, () => part);
    part.decls.sort();
    const keys = (p: Part) => p.fns.map((e) => e.key).sort().join('\n');
    if (part.clients !== m.clients || keys(part) !== keys(m)) return undefined;
    if (part.decls.join('\n') !== m.decls.join('\n') && [...part.decls, ...m.decls].some((name) => this.env.wrappers.has(name))) return undefined;
    const defined = new Set(m.fns.map((e) => e.key));
    if (defined.size) for (const p of parts) if (p !== m) for (const c of p.calls) if (defined.has(`${c.method ? 'm' : 'f'}:${c.name}`)) return undefined;

    // Commit: move the other statements (and this one's other members), swap the member's record and sites.
    const kept: RequestSite[] = [];
    const dropped: RequestSite[] = [];
    for (const s of u.sites) (s.range.start < at || s.range.start >= oldEnd ? kept : dropped).push(s);
    freezeSites(dropped);
    this.moveUnits(k, k, oldEnd, diff);
    this.text = newText;
    if (diff !== 0) {
      for (const s of kept) shiftSite(s, oldEnd, diff);
      if (u.maxRef >= oldEnd) u.maxRef += diff;
    }
    // Records in unit coordinates: moved by the length change after the member, and to the new parse's coordinates.
    const rebase = d0 - delta;
    const moveAt = (o: number) => o + (o >= m.end ? diff : 0) + rebase;
    for (const p of parts) if (p !== m) {
      shiftPart(p, m.end, diff);
      if (rebase) shiftPart(p, -Infinity, rebase);
    }
    for (const o of ms.list)
      if (o !== m) {
        o.pos = moveAt(o.pos);
        o.end = moveAt(o.end);
        o.start = moveAt(o.start);
      }
    const declsAt: { at: number; name: string }[] = [];
    for (const d of ms.declsAt) if (d.at < m.pos) declsAt.push({ at: d.at + rebase, name: d.name });
    for (const [name, decls] of x.decls) for (const d of decls) declsAt.push({ at: d.pos + mu.delta - delta, name });
    for (const d of ms.declsAt) if (d.at >= m.end) declsAt.push({ at: moveAt(d.at), name: d.name });
    declsAt.sort((a, b) => a.at - b.at);
    ms.declsAt = declsAt;
    ms.list[ms.list.indexOf(m)] = { ...part, pos: m.pos + rebase, end: m.end + diff + rebase, start: node.getStart(mu.sf) + mu.delta - delta, head: m.head };
    ms.budget += x.flowUsed;
    if (whole) {
      // The declaration other statements read, and the literal deferred to the document, from the new parse.
      const before = u.decls;
      for (const d of mu.decls) d.unit = u;
      for (let q = 0; q < before.length; q++) {
        const arr = this.env.decls.get(before[q].name)!;
        arr[arr.indexOf(before[q])] = mu.decls[q];
      }
      u.decls = mu.decls;
      u.sf = mu.sf;
      u.delta = mu.delta;
      u.pos = mu.stmt!.pos;
      u.end = mu.stmt!.end;
      u.deferred = [{ node: (mu.stmt as ts.VariableStatement).declarationList.declarations[0], fn: undefined }];
    } else {
      u.end += diff;
      if (ms.kind === 'var') u.stale = true;
    }
    // The member's calls of other members' helpers: forwarded from those members' sites as they are now.
    const calls: CallRec[] = [];
    const fns = new Map<string, Fn[]>();
    const addFn = (key: string, fn: Fn) => {
      const list = fns.get(key);
      if (list) list.push(fn);
      else fns.set(key, [fn]);
    };
    for (const p of parts) {
      if (p === m) continue;
      const docFn = new Map<Fn, Fn>();
      const toDoc = (fn: Fn) => {
        let r = docFn.get(fn);
        if (!r) docFn.set(fn, (r = movedFn(fn, delta)));
        return r;
      };
      for (const e of p.fns) addFn(e.key, toDoc(e.fn));
      for (const c of p.calls) calls.push(movedCall(c, delta, toDoc(c.fn)));
    }
    for (const [key, list] of x.fnsByName) for (const fn of list) addFn(key, fn);
    for (const c of x.helperCalls) calls.push(c);
    const own: RequestSite[] = [];
    for (const s of kept) if (!s.forwarded?.from && !shapeSites.has(s)) own.push(s);
    const mine = sites.slice(0, x.ownCount);
    for (const s of mine) own.push(s);
    for (const s of forwardCalls(own, calls, fns, x.helperCalls)) mine.push(s);
    for (let q = x.ownCount; q < sites.length; q++) mine.push(sites[q]);
    for (const s of mine) kept.push(s);
    u.sites = kept;
    const deps = new Set<Unit>();
    u.consumed = [];
    for (const p of [ms.rest, ...ms.list]) {
      for (const d of p.deps) deps.add(d);
      for (const c of p.consumed) u.consumed.push(c);
    }
    u.deps = deps;
    u.maxRef = Math.max(u.maxRef, maxRef(mine));
    this.text = newText;
    this.lastReparsed = 1;
    this.lastMember = true;
    return this.collect();
  }

  /**
   * An edit strictly inside a plain string literal (quoted, no escapes) that is the value of an expression key
   * (`UpdateExpression: 'ADD likes :one'`) of exactly one request of a function member (`memberEdit`), typing or deleting
   * no quote, backslash or line break: the literal's tokens stay the same but for its text, and nothing the extraction
   * decides reads an expression string's value there (not a shape's, whose expression must read as DynamoDB's; not a
   * repository helper call's, read by a pattern; not a string any other site holds a copy of: an alternative, a
   * forwarded request; not inside an unknown value's text; the statement's repository words the same). So the member is
   * not parsed or extracted again: that request is handed out as a new site (a copy of its tree, the string's value
   * the new one; the rule cache reads it as changed) and the others are kept, moved like the rest of the document.
   * Undefined, for `memberEdit` to decide, otherwise.
   */
  private stringEdit(k: number, newText: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] | undefined {
    const u = this.units[k];
    const ms = u.members;
    if (!ms || (ms.kind === 'var' && u.deferred.length)) return undefined;
    const d0 = u.delta;
    const m = memberAt(ms.list, span.start - d0);
    if (!m || span.start <= m.start + d0 || span.oldEnd >= m.end + d0) return undefined;
    if (UNSAFE_IN_STRING.test(newText.slice(span.start, span.newEnd)) || UNSAFE_IN_STRING.test(this.text.slice(span.start, span.oldEnd))) return undefined;
    if (!quotesAround(this.text, span.start, span.oldEnd)) return undefined;
    // The string nodes of the statement's sites around the edit: exactly one, an expression key's plain value.
    let hit: { site: RequestSite; path: number[]; str: StringNode } | undefined;
    let hits = 0;
    const path: number[] = [];
    // Every node of every site is looked at: a tree's children need not lie inside its range (data flow: a spread, a
    // named literal), and a joined string's characters (`offsets`) may come from the edited literal. The hit itself
    // must sit inside its request's tree as written (`inside`: every node above it spans the edit).
    const visit = (site: RequestSite, v: VNode, key: string | undefined, inside = true): boolean => {
      const r = v.range;
      const apart = r.end <= span.start || r.start >= span.oldEnd;
      if (v.kind === 'string' && apart) return plainBase(v) !== undefined || !v.offsets.some((o) => o >= span.start - 1 && o <= span.oldEnd);
      if (apart && v.kind !== 'object' && v.kind !== 'array' && v.kind !== 'set') return true;
      if (v.kind === 'string') {
        hits++;
        if (!inside) return false;
        const base = plainBase(v);
        const q = this.text.charCodeAt(r.start);
        if (key === undefined || !EXPRESSION_KEYS.has(key) || base !== r.start + 1 || v.value.length !== r.end - r.start - 2 || (q !== 0x27 && q !== 0x22)) return false;
        if (span.start < base || span.oldEnd > r.end - 1) return false;
        hit = { site, path: [...path], str: v };
        return true;
      }
      if (v.kind === 'object') {
        for (let q = 0; q < v.properties.length; q++) {
          path.push(q);
          const ok = visit(site, v.properties[q].value, v.properties[q].key, inside && !apart);
          path.pop();
          if (!ok) return false;
        }
        return true;
      }
      if (v.kind === 'array' || v.kind === 'set') {
        for (let q = 0; q < v.items.length; q++) {
          path.push(q);
          const ok = visit(site, v.items[q], undefined, inside && !apart);
          path.pop();
          if (!ok) return false;
        }
        return true;
      }
      // An unknown value (its text), a number, a boolean around the edit: its source changes.
      return false;
    };
    // Every site of the statement: a copy of the string (a forwarded request's tree) sits elsewhere than its call.
    for (const site of u.sites) {
      if (!visit(site, site.params, undefined)) return undefined;
      if (site.receiverTable && !visit(site, site.receiverTable, undefined)) return undefined;
    }
    const found = hit as { site: RequestSite; path: number[]; str: StringNode } | undefined;
    if (hits !== 1 || !found) return undefined;
    const old = found.site;
    if (shapeSites.has(old) || old.alternative || old.forwarded || !(old instanceof SiteSpan)) return undefined;
    if (ms.kind === 'var') for (let q = 0; q < this.units.length; q++) if (q !== k && this.units[q].deps.has(u)) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const stmtStart = u.pos + d0;
    const stmtEnd = u.end + d0 + diff;
    if (DAO_WORDS.test(newText.slice(stmtStart, stmtEnd)) !== ms.dao) return undefined;
    // A helper this member defines is called by another part of the statement (its requests are copied there).
    const defined = new Set(m.fns.map((e) => e.key));
    if (defined.size) for (const p of [ms.rest, ...ms.list]) if (p !== m) for (const c of p.calls) if (defined.has(`${c.method ? 'm' : 'f'}:${c.name}`)) return undefined;
    // Arms (`branch`) are numbered by their offset in the enclosing function: those after the edit, in a function
    // holding it, change with its length (a forwarded copy's also count in its helper: not read here).
    const arms: { site: RequestSite; branch: string }[] = [];
    if (diff !== 0)
      for (const s of u.sites) {
        if (!s.branch) continue;
        // A forwarded copy's inner arms count in its helper, which may hold the edit though the copy's own function
        // does not (a local helper of this member called from another local function of it).
        if (s.forwarded?.from && s.range.start >= m.pos + d0 && s.range.start < m.end + d0) return undefined;
        const fn = s.enclosingFunction;
        if (!fn) continue;
        const fr = fn.range;
        if (fr.end < span.oldEnd || fr.start > span.start) continue;
        if (s.forwarded?.from || !(fn instanceof FnSpan)) return undefined;
        const branch = movedArms(s.branch, fr.start - fn.lead, fr.start, span.oldEnd, diff);
        if (branch === undefined) return undefined;
        if (branch !== s.branch) arms.push({ site: s, branch });
      }

    // Commit. The new site, a copy of the old one made in the text before the edit (born before its move: it takes it
    // like every node of the document; its plain parts are moved in place below).
    const base = plainBase(found.str)!;
    const strEnd = found.str.range.end;
    const taken = this.moves.n + (diff !== 0 ? 1 : 0);
    bornIn(this.moves, this.moves.n);
    let site: SiteSpan;
    try {
      site = new SiteSpan(old.api, old.apiSource, old.style, old.host, old.range, old.nameRange, cloneTree(old.params) as ObjectNode, old.sdk);
    } finally {
      bornIn(this.moves, taken);
    }
    const own = old as unknown as Record<string, unknown>;
    const fields = site as unknown as Record<string, unknown>;
    for (const key of Object.keys(old)) if (!(key in fields)) fields[key] = own[key];
    for (const a of arms) (a.site === old ? site : a.site).branch = a.branch;
    const kept: RequestSite[] = [];
    for (const s of u.sites) kept.push(s === old ? site : s);
    freezeSites([old]);
    // The rest of the document moves (this statement's sites take the recorded move; their plain parts here).
    this.moveUnits(k, k, span.oldEnd, diff);
    this.text = newText;
    if (diff !== 0) for (const s of kept) shiftSite(s, span.oldEnd, diff);
    // The string, in the new text's offsets: its first char stays where it was, its end moves.
    let at: VNode = site.params;
    for (let q = 0; q < found.path.length - 1; q++) at = at.kind === 'object' ? at.properties[found.path[q]].value : (at as ArrayNode).items[found.path[q]];
    const holder = at as ObjectNode;
    const last = found.path[found.path.length - 1];
    const end = strEnd + diff;
    holder.properties[last] = withValue(holder.properties[last], plain(newText.slice(base, end - 1), base, { start: base - 1, end }));
    u.sites = kept;
    if (u.maxRef >= span.oldEnd) u.maxRef += diff;
    u.maxRef = Math.max(u.maxRef, maxRef([site]));
    // Records in unit coordinates after the edit move by its length change.
    const t = span.oldEnd - d0;
    if (diff !== 0) {
      for (const p of [ms.rest, ...ms.list]) shiftPart(p, t, diff);
      for (const o of ms.list) {
        if (o.pos >= t) o.pos += diff;
        if (o.end >= t) o.end += diff;
        if (o.start >= t) o.start += diff;
      }
      for (const d of ms.declsAt) if (d.at >= t) d.at += diff;
      u.end += diff;
    }
    if (ms.kind === 'var') u.stale = true;
    this.lastReparsed = 0;
    this.lastMember = true;
    this.lastString = true;
    return this.collect();
  }

  private incremental(newText: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] | undefined {
    const units = this.units;
    const n = units.length;
    const start = (u: Unit) => u.pos + u.delta;
    const end = (u: Unit) => u.end + u.delta;
    let i = 0;
    while (i < n - 1 && end(units[i]) < span.start) i++;
    let j = i;
    while (j + 1 < n && start(units[j + 1]) <= span.oldEnd) j++;
    if (i === j) {
      const sites = this.stringEdit(i, newText, span) ?? this.memberEdit(i, newText, span);
      if (sites) return sites;
    }
    // In a statement holding a parse error, the parse of the region alone may differ from the document's; after one,
    // the parser's recovery ended it because of the next statement's first token, so an edit up to the end of that
    // token's line may extend it (see Unit.broken). Further into the next statement the edit is read incrementally:
    // typing below a half-written line must not re-extract the whole document at each key (review: 420-1940 ms per
    // key under load against 31 ms). Every touched statement counts, not only the first: a span from a clean statement
    // into a broken one (a keystroke at the clean one's end, a selection across both replaced, several changes linted
    // as one span) re-parses it too, and a clean parse of the region would also drop its mark.
    for (let k = i; k <= j; k++) if (units[k].broken) return undefined;
    if (i > 0 && units[i - 1].broken) {
      const token = skipTrivia(this.text, start(units[i]));
      const lineEnd = this.text.indexOf('\n', token);
      if (span.start <= (lineEnd < 0 ? this.text.length : lineEnd)) return undefined;
    }
    const toEnd = j === n - 1;
    const regionStart = start(units[i]);
    const regionEndOld = toEnd ? this.text.length : end(units[j]);
    if (span.start < regionStart || span.oldEnd > regionEndOld) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const regionText = ownCopy(newText.slice(regionStart, regionEndOld + diff));
    if (continuesPrevious(regionText) || (!toEnd && continuesPrevious(newText, regionEndOld + diff))) return undefined;
    const sf = this.parseRegion(regionText, toEnd);
    if (!sf) return undefined;
    const lite = liteSource(regionText);
    const fresh = sf.statements.map((s) => newUnit(lite, regionStart, s));
    const touched = units.slice(i, j + 1);
    const contributions = fresh.map((u) => contribution(u, this.env, this.host));
    // Same names, clients, wrapper signatures and imports: only values may differ, and their readers are known.
    const keyOf = (us: Unit[]) => us.map((u) => u.key).filter((k) => k).join('\n');
    if (keyOf(touched) !== keyOf(fresh)) return undefined;
    const oldDecls = touched.flatMap((u) => u.decls);
    const newDecls = fresh.flatMap((u) => u.decls);
    // The statements that read a declaration of a touched one: re-parsed (their text is unchanged) and re-extracted.
    const touchedSet = new Set(touched);
    const readers: { u: Unit; at: number; sf: ts.SourceFile }[] = [];
    let readerChars = 0;
    for (let k = 0; k < n; k++) {
      if (k >= i && k <= j) continue;
      const u = units[k];
      let reads = false;
      for (const d of u.deps) if (touchedSet.has(d)) reads = true;
      if (!reads) continue;
      readerChars += u.end - u.pos;
      if (readerChars * 2 > newText.length) return undefined;
      const at = start(u) + (k > j ? diff : 0);
      const rsf = this.parseRegion(ownCopy(newText.slice(at, at + u.end - u.pos)), false);
      if (rsf?.statements.length !== 1) return undefined;
      readers.push({ u, at, sf: rsf });
    }
    // Commit: move the other statements, swap the touched statements' declarations for the new ones (their sites are
    // let go: not moved).
    for (const u of touched) freezeSites(u.sites);
    this.moveUnits(i, j, regionEndOld, diff);
    // From here on a stale unit's statement is read from the new text (`refresh`), at its moved offsets.
    this.text = newText;
    for (let k = 0; k < oldDecls.length; k++) {
      const arr = this.env.decls.get(oldDecls[k].name)!;
      arr[arr.indexOf(oldDecls[k])] = newDecls[k];
    }
    for (const c of contributions) for (const [name, typed] of c.wrappers) this.env.wrappers.set(name, typed);
    // Re-parsed in place (same unit, so statements that read it keep pointing at it); its declarations too.
    for (const r of readers) this.reparseInPlace(r.u, newText, r.at, r.sf);
    this.units = [...units.slice(0, i), ...fresh, ...units.slice(j + 1)];
    for (const u of fresh) this.extractUnit(u);
    for (const r of readers) this.extractUnit(r.u);
    this.text = newText;
    this.lastReparsed = fresh.length + readers.length;
    return this.collect();
  }
}
