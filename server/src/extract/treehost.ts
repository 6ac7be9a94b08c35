/**
 * What the tree-sitter hosts added after Python (Go, Java) share: the web-tree-sitter runtime and their grammars,
 * loaded on the first document of the language, and the incremental state (per unit sites kept between edits).
 *
 * A host splits its tree into units (Go: top-level declarations; Java: the members of top-level types) and marks the
 * ones that bind names others read (constants, imports, fields) as `env`. After an edit, a unit the edit did not touch
 * keeps its sites (moved by the length change) unless an env unit was touched, came or went: then everything is
 * recomputed. Same scheme as python.ts, whose state it does not share.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser, Tree } from 'web-tree-sitter';
import type { Node as TNode } from 'web-tree-sitter';
import { MAX_ALTERNATIVES, alternativesOf, cloneTree, variants } from '../flow';
import type { ObjectNode, Range, RequestSite, VNode } from './model';
import { detachStrings, maxRef, ownParts, ownReceiver, shiftSite } from './remap';

let runtime: Promise<void> | undefined;

/** Where a wasm file is: next to the bundle (dist/), else in node_modules (tests, tsx). */
export function wasmPath(file: string, resolveFromModules: () => string): string {
  const here = typeof __dirname === 'string' ? join(__dirname, file) : undefined;
  if (here && existsSync(here)) return here;
  return resolveFromModules();
}

/** Resolution through node_modules at run time (kept opaque to the bundler, which has copied the files to dist/). */
const fromModules = (id: string): string => require.resolve(id);

/** web-tree-sitter's own WASM, initialised once per process (shared with the Python host). */
export function initTreeSitter(): Promise<void> {
  runtime ??= (async () => {
    const wasm = wasmPath('tree-sitter.wasm', () => join(fromModules('web-tree-sitter').replace(/[\\/][^\\/]+$/, ''), 'tree-sitter.wasm'));
    await Parser.init({ locateFile: () => wasm });
  })();
  return runtime;
}

export type TreeHostName = 'go' | 'java';

const parsers = new Map<TreeHostName, Parser>();
const loading = new Map<TreeHostName, Promise<void>>();

/** Load the grammar of `host` (idempotent). */
export function loadTreeHost(host: TreeHostName): Promise<void> {
  let p = loading.get(host);
  if (!p) {
    p = (async () => {
      await initTreeSitter();
      const file = `tree-sitter-${host}.wasm`;
      const language = await Language.load(wasmPath(file, () => fromModules(`tree-sitter-${host}/${file}`)));
      const parser = new Parser();
      parser.setLanguage(language);
      parsers.set(host, parser);
    })();
    loading.set(host, p);
  }
  return p;
}

export function treeParser(host: TreeHostName): Parser | undefined {
  return parsers.get(host);
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Incremental state                                                                                                  */

export interface Span {
  start: number;
  oldEnd: number;
  newEnd: number;
}

export interface Unit {
  start: number;
  end: number;
  /**
   * The node's type, and when it holds a parse error its whole tree (S-expression): a unit is handed back only as the
   * same kind of node, and one with errors only when it was parsed the same way (the same text parses alike when
   * clean; broken code's recovery depends on what is around it: a `func` declaration became an expression statement
   * when an edit above broke its function, a function below kept its text and type but lost its first statement to
   * an ERROR).
   */
  type: string;
  broken?: string;
  /** Binds names other units read: touching it recomputes everything. */
  env: boolean;
  sites: RequestSite[];
  /** Largest document offset its sites mention. */
  maxRef: number;
  /** A method or function's name (other units' calls of it follow it as a helper). */
  name?: string;
  /** Helpers (other units) its sites were read through: touching one, or a unit of that name, re-extracts it. */
  deps: { start: number; end: number; name: string }[];
}

export interface TreeState {
  units: Unit[];
}

/** A host's extraction over a parse tree, unit by unit. */
export interface TreeHost {
  /** The units of a tree, in document order (`name`: a method or function others may call). */
  units(root: TNode): { node: TNode; env: boolean; name?: string }[];
  /** Prepare the environment (constants...) from the whole tree; called once per run before `sites`. */
  prepare(text: string, root: TNode): void;
  /** The sites inside one unit. */
  sites(unit: TNode): RequestSite[];
  /** The other units (helpers) the last `sites` call read. */
  deps?(): { range: { start: number; end: number }; name: string }[];
}

/**
 * Sites of a tree. With `prev` (the state after the previous text and the span edited since), units the edit did not
 * touch keep their sites unless an env unit changed; only the others are extracted.
 */
export function runTreeHost(host: TreeHost, text: string, tree: Tree, prev?: { state: TreeState; span: Span }): { sites: RequestSite[]; state: TreeState; reparsed: number } {
  const root = tree.rootNode;
  const listed = host.units(root);
  const units: Unit[] = listed.map(({ node, env, name }) => ({ start: node.startIndex, end: node.endIndex, type: node.type, ...(node.hasError ? { broken: node.toString() } : {}), env, sites: [], maxRef: 0, deps: [], ...(name !== undefined ? { name } : {}) }));
  const reused = prev ? reuse(prev.state, prev.span, units) : undefined;
  host.prepare(text, root);
  let reparsed = 0;
  for (let i = 0; i < units.length; i++) {
    if (reused?.[i]) continue;
    reparsed++;
    units[i].sites = host.sites(listed[i].node);
    units[i].maxRef = maxRef(units[i].sites);
    units[i].deps = (host.deps?.() ?? []).map((d) => ({ start: d.range.start, end: d.range.end, name: d.name }));
    // Kept across edits: they must not keep this version of the text alive (remap.ts; the first, full run's may).
    if (reused) detachStrings([units[i]]);
  }
  const sites: RequestSite[] = [];
  for (const u of units) for (const x of u.sites) sites.push(x);
  sites.sort((a, b) => a.range.start - b.range.start);
  return { sites, state: { units }, reparsed };
}

function reuse(state: TreeState, span: Span, units: Unit[]): boolean[] | undefined {
  const touches = (a: number, b: number, s: number, e: number) => a <= e && b >= s;
  if (state.units.some((u) => u.env && touches(u.start, u.end, span.start, span.oldEnd))) return undefined;
  if (units.some((u) => u.env && touches(u.start, u.end, span.start, span.newEnd))) return undefined;
  const diff = span.newEnd - span.oldEnd;
  const old = new Map(state.units.map((u) => [`${u.start}:${u.end}`, u]));
  const back = (o: number) => (o >= span.newEnd ? o - diff : o);
  const map = (o: number) => (o >= span.oldEnd ? o + diff : o);
  // Env units away from the edit can come and go too: an unbalanced brace makes the parser read the code after it
  // again (a method left its class and became a top-level declaration). The names they bind changed: recompute all.
  const oldEnv = new Set(state.units.filter((u) => u.env).map((u) => `${map(u.start)}:${map(u.end)}`));
  const newEnv = units.filter((u) => u.env);
  if (newEnv.length !== oldEnv.size || newEnv.some((u) => !oldEnv.has(`${u.start}:${u.end}`))) return undefined;
  // Names of the units the edit touched, before and after it, and of those that came or went away from it (a method
  // swallowed by the one above it, whose closing brace was deleted): a caller of one of them reads it again.
  const touchedNames = new Set<string>();
  const named = (xs: Unit[], at: (o: number) => number) => new Set(xs.filter((u) => u.name !== undefined).map((u) => `${u.name}@${at(u.start)}:${at(u.end)}`));
  const oldNamed = named(state.units, map);
  const newNamed = named(units, (o) => o);
  for (const u of state.units) if (u.name !== undefined && (touches(u.start, u.end, span.start, span.oldEnd) || !newNamed.has(`${u.name}@${map(u.start)}:${map(u.end)}`))) touchedNames.add(u.name);
  for (const u of units) if (u.name !== undefined && (touches(u.start, u.end, span.start, span.newEnd) || !oldNamed.has(`${u.name}@${u.start}:${u.end}`))) touchedNames.add(u.name);
  return units.map((u) => {
    if (u.env || touches(u.start, u.end, span.start, span.newEnd)) return false;
    const was = old.get(`${back(u.start)}:${back(u.end)}`);
    if (!was || was.env || was.type !== u.type || was.broken !== u.broken) return false;
    if (was.deps.some((d) => touchedNames.has(d.name) || touches(d.start, d.end, span.start, span.oldEnd))) return false;
    const moves = diff !== 0 && was.maxRef >= span.oldEnd;
    if (moves) for (const site of was.sites) shiftSite(site, span.oldEnd, diff);
    u.sites = was.sites;
    u.maxRef = moves ? map(was.maxRef) : was.maxRef;
    u.deps = was.deps.map((d) => ({ start: map(d.start), end: map(d.end), name: d.name }));
    return true;
  });
}

/** Named children without comments. */
/**
 * Record that a unit depends on the whole file (Go package `var`s, Java non-final fields: whether any function writes
 * one can change with an edit anywhere), once per unit's dependency list.
 */
export function dependOnWholeFile(read: { range: Range; name: string }[], length: number): void {
  if (!read.some((d) => d.name === '' && d.range.start === 0)) read.push({ range: { start: 0, end: length }, name: '' });
}

export function kids(n: TNode | null | undefined): TNode[] {
  return (n?.namedChildren ?? []).filter((c): c is TNode => !!c && c.type !== 'comment' && c.type !== 'line_comment' && c.type !== 'block_comment');
}

/**
 * The if/else (and ternary) arms between a node and its enclosing function or method, as `RequestSite.branch` ids:
 * offsets of each `if` from the function's start, outermost first. Shared by the tree-sitter hosts (Go has no ternary
 * node, so only its `if` arms count).
 */
export function branchOf(n: TNode, fn: TNode): string {
  const arms: [TNode, string][] = [];
  let child: TNode = n;
  for (let p = n.parent; p && p.id !== fn.id; p = p.parent) {
    if (p.type === 'if_statement') {
      if (p.childForFieldName('consequence')?.id === child.id) arms.push([p, 't']);
      else if (p.childForFieldName('alternative')?.id === child.id) arms.push([p, 'e']);
    } else if (p.type === 'ternary_expression') {
      if (p.childForFieldName('consequence')?.id === child.id) arms.push([p, 't']);
      else if (p.childForFieldName('alternative')?.id === child.id) arms.push([p, 'e']);
    }
    child = p;
  }
  return arms
    .reverse()
    .map(([node, arm]) => `/${node.startIndex - fn.startIndex}:${arm}`)
    .join('');
}

/**
 * One site per alternative its parameters may be (data flow: a list filled on one branch, a field set under an `if`),
 * each with its own tree, `alternative` and arm `/a<offset>:<index>` in `branch`; past MAX_ALTERNATIVES the site as is
 * (its placeholders stay unknown). `roots`: the whole request's alternatives when the request itself was changed on a
 * branch (`if c { in.ConditionExpression = .. }`); past the cap there is no site (unknown, silent).
 */
export function expandAlternatives(s: RequestSite, roots: ObjectNode[] = [s.params]): RequestSite[] {
  const all = roots.flatMap((r) => variants(r)).filter((v): v is ObjectNode => v.kind === 'object');
  if (all.length < 2 || all.length > MAX_ALTERNATIVES) return roots.length === 1 ? [s] : [];
  const fn = s.enclosingFunction;
  return all.map((params, index) => {
    const site: RequestSite = { ...s, ...ownParts(s), params: cloneTree(params) as ObjectNode, alternative: { index, count: all.length } };
    if (fn) site.branch = `${s.branch ?? ''}/a${s.range.start - fn.range.start}:${index}`;
    return site;
  });
}

/**
 * A helper's site seen at a call of it (`RequestSite.forwarded`, `bound`: read with the call's arguments): the call's
 * range, function and arms; the helper's arms kept under the call's.
 */
export function forwardedCopy(s: RequestSite, call: { range: { start: number; end: number }; nameRange: { start: number; end: number }; fn: { name: string; range: { start: number; end: number } }; branch: string }): RequestSite {
  const f: RequestSite = {
    ...s,
    range: { ...call.range },
    nameRange: { ...call.nameRange },
    params: cloneTree(s.params) as ObjectNode,
    ...(s.receiverTable ? { receiverTable: ownReceiver(s.receiverTable) } : {}),
    enclosingFunction: { name: call.fn.name, range: { ...call.fn.range } },
    forwarded: { ...s.forwarded, from: { ...(s.forwarded?.from ?? s.range) }, bound: true },
  };
  if (s.alternative) f.alternative = { ...s.alternative };
  const at = `f${call.range.start - call.fn.range.start}`;
  const branch = call.branch + (s.branch ?? '').replace(/\/([^/:]+):/g, `/${at}.$1:`);
  if (branch) f.branch = branch;
  else delete f.branch;
  return f;
}

/** A flowed request value as its object alternatives (one when it has none), or undefined when any is not an object. */
export function objectAlternatives(v: VNode): ObjectNode[] | undefined {
  const alts = alternativesOf(v) ?? [v];
  return alts.every((a) => a.kind === 'object') ? (alts as ObjectNode[]) : undefined;
}
