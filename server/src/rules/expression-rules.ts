/**
 * Every finding of the expression validator surfaces as a rule (one per `EXPRESSION_FINDINGS` id, category
 * `expression`). Each request operation is turned into an `ExpressionRequest` once per lint and validated once; the
 * per-id rules share the result and map findings back to document ranges (through string escapes, concatenation and
 * resolved constants) and attach the issue-8 fixes.
 */
import { operations } from './analysis';
import { AttrType, ObjectNode, Property, Range, RequestSite, StringNode, VNode, ValueStyle, attrType, prop, propEntry, scalarText, stringRange } from '../extract/model';
import type { Operation, OperationKind } from '../extract/operations';
import { EXPRESSION_FIELDS, EXPRESSION_FINDINGS, ExpressionField, ExpressionFinding, ExpressionRequest, FindingLocation, RequestOperation, ValueInfo, validateRequest } from '../expression';
import { LEGACY_PARAMETERS } from '../expression/api';
import { itemSize } from '../cost/size';
import {
  FixKind, defineNameFix, defineValueFix, mergeClausesFix, pairTypos, redundantParensFix, removeMapFix, removeUnusedFix, renamePlaceholderFix, reservedWordsFix,
} from '../fix/expression-fixes';
import { namePlaceholder } from './edit';
import { fixableSite } from './fixes';
import { Lru } from './lru';
import { SharedSource, insideOperation, sharedSource } from './shared';
import { DOCS_BASE, Finding, Fix, Rule, RuleContext } from './types';

/** Which validator findings have which fix (issue 8). */
export const FIX_KIND_BY_ID: Record<string, FixKind> = {
  'reserved-word': 'reservedWord',
  'undefined-name': 'undefinedName',
  'undefined-value': 'undefinedValue',
  'unused-name': 'unusedName',
  'unused-value': 'unusedValue',
  'empty-attribute-map': 'removeMap',
  'map-without-expression': 'removeMap',
  'redundant-parentheses': 'redundantParens',
  'duplicate-clause': 'mergeClauses',
};

const OPERATION: Partial<Record<OperationKind, RequestOperation>> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheck',
  Get: 'GetItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  Unknown: 'Unknown',
};

const EXPRESSION_KEYS = Object.keys(EXPRESSION_FIELDS) as ExpressionField[];

const SET_ITEM_KIND: Partial<Record<AttrType, VNode['kind']>> = { SS: 'string', NS: 'number', BS: 'binary' };
const TYPE_KEYS: ReadonlySet<string> = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

/**
 * A low-level attribute value DynamoDB cannot read: no type key at all (`{}`, `{X: ...}`), two type keys with literal
 * values (a variable may be undefined, and the SDK drops it), or `NULL: false`. Undefined when the literal is partial.
 */
function malformed(node: VNode): ValueInfo['malformed'] {
  if (node.kind !== 'object' || !node.complete) return undefined;
  const types = node.properties.filter((p) => TYPE_KEYS.has(p.key));
  if (!types.length) return 'empty';
  if (types.filter((p) => p.value.kind !== 'unknown').length > 1) return 'multiple';
  if (types.length === 1 && types[0].key === 'NULL' && types[0].value.kind === 'bool' && !types[0].value.value) return 'null-false';
  return undefined;
}

/**
 * The validator's view of a value literal: type, scalar text and, for a fully known list, set or map, its elements
 * (so empty sets, duplicate set elements and numbers inside collections are checked).
 */
export function valueInfo(node: VNode, style: ValueStyle): ValueInfo {
  const type = attrType(node, style);
  const text = scalarText(node, style);
  const info: ValueInfo = text === undefined ? { type } : { type, text };
  const bad = style === 'low-level' ? malformed(node) : undefined;
  if (bad) info.malformed = bad;
  const inner = style === 'low-level' && node.kind === 'object' && node.properties.length === 1 ? node.properties[0].value : node;
  if (style === 'low-level') {
    if (type === 'L' && inner.kind === 'array' && inner.complete) info.items = inner.items.map((i) => valueInfo(i, style));
    else if (type === 'M' && inner.kind === 'object' && inner.complete) info.items = inner.properties.map((e) => valueInfo(e.value, style));
    else if (SET_ITEM_KIND[type] && inner.kind === 'array' && inner.complete) {
      // Set elements are bare scalars (`{NS: ["1", "2"]}`): numbers and strings as text, binaries unknown.
      const scalar = SET_ITEM_KIND[type] === 'number' ? 'N' : SET_ITEM_KIND[type] === 'string' ? 'S' : 'B';
      info.items = inner.items.map((i) => (i.kind === 'string' ? { type: scalar, text: i.value } : i.kind === 'number' ? { type: scalar, text: i.text } : { type: i.kind === 'binary' ? 'B' : 'unknown' }));
    }
  } else if (node.kind === 'array' && node.complete) info.items = node.items.map((i) => valueInfo(i, style));
  else if (node.kind === 'object' && node.complete) info.items = node.properties.map((e) => valueInfo(e.value, style));
  // Native sets (`new Set([...])`, Python `{...}`) drop repeated elements before the SDK sends them: their items are
  // not what DynamoDB receives, so they are left out.
  return info;
}

/** The literal attributes of a Put's Item (an incomplete Item still has its known attributes checked). */
function itemInfo(op: Operation, item: VNode | undefined): Record<string, ValueInfo> | undefined {
  if (op.kind !== 'Put' || item?.kind !== 'object' || !item.properties.length) return undefined;
  const out: Record<string, ValueInfo> = {};
  for (const e of item.properties) out[e.key] = valueInfo(e.value, op.site.style);
  return out;
}

/** The request keys `buildRequest` reads besides the expressions. */
type ReadKey = ExpressionField | 'ExpressionAttributeNames' | 'ExpressionAttributeValues' | 'Item' | 'Select' | 'Key' | 'IndexName';
const READ_KEYS: ReadonlySet<string> = new Set<string>([...EXPRESSION_KEYS, 'ExpressionAttributeNames', 'ExpressionAttributeValues', 'Item', 'Select', 'Key', 'IndexName']);
const LEGACY_KEYS: ReadonlySet<string> = new Set<string>(LEGACY_PARAMETERS);

/**
 * The entries of the request keys `buildRequest` reads, each the last of its key (as `prop` reads them), in one pass
 * over the parameters instead of a scan per key; `legacy` when a legacy parameter is there at all.
 */
function readEntries(p: ObjectNode): { at: Map<ReadKey, Property>; legacy: boolean } {
  const at = new Map<ReadKey, Property>();
  let legacy = false;
  for (const e of p.properties) {
    if (READ_KEYS.has(e.key)) at.set(e.key as ReadKey, e);
    else if (LEGACY_KEYS.has(e.key)) legacy = true;
  }
  return { at, legacy };
}

/** The validator's input for one operation, or undefined when it has nothing to validate. */
export function buildRequest(op: Operation): ExpressionRequest | undefined {
  const operation = op.kind === 'Get' && op.transactional ? 'TransactGetItems' : OPERATION[op.kind];
  if (!operation) return undefined;
  const p = op.params;
  const { at, legacy: anyLegacy } = readEntries(p);
  const expressions: ExpressionRequest['expressions'] = {};
  let anyExpression = false;
  const unknownExpressions: ExpressionField[] = [];
  for (const field of EXPRESSION_KEYS) {
    const node = at.get(field)?.value;
    if (!node) {
      // A spread (`...base`, `**kw`) may carry any expression.
      if (!p.complete) unknownExpressions.push(field);
      continue;
    }
    if (node.kind === 'string') {
      expressions[field] = node.value;
      anyExpression = true;
    } else unknownExpressions.push(field);
  }
  const namesNode = at.get('ExpressionAttributeNames');
  const valuesNode = at.get('ExpressionAttributeValues');
  const itemNode = at.get('Item')?.value;
  const item = itemInfo(op, itemNode);
  // Request-level parameters: legacy ones set to a literal (a variable may be undefined), Select, IndexName.
  const legacy = anyLegacy
    ? LEGACY_PARAMETERS.filter((l) => {
        const v = prop(p, l);
        return v !== undefined && v.kind !== 'unknown' && v.kind !== 'null';
      })
    : [];
  const select = at.get('Select')?.value;
  const keyNode = at.get('Key')?.value;
  const keyValues = op.site.style === 'low-level' && keyNode?.kind === 'object' ? keyNode.properties.map((e) => [e.key, valueInfo(e.value, op.site.style)] as const) : [];
  const badKey = keyValues.some(([, v]) => v.malformed);
  if (!anyExpression && !namesNode && !valuesNode && !item && !legacy.length && select?.kind !== 'string' && !badKey) return undefined;
  const request: ExpressionRequest = { operation, expressions };
  if (item) request.item = item;
  if (op.kind === 'Put') {
    if (itemNode?.kind === 'object' && itemNode.complete) request.itemBytes = itemSize(itemNode, op.site.style).bytes;
  }
  if (badKey) request.key = Object.fromEntries(keyValues);
  if (legacy.length) request.legacy = legacy;
  if (select?.kind === 'string') request.select = select.value;
  const index = at.get('IndexName');
  if (index ? index.value.kind !== 'unknown' : p.complete) request.indexName = !!index;
  request.complete = p.complete;
  if (unknownExpressions.length) request.unknownExpressions = unknownExpressions;
  if (namesNode) {
    const map: Record<string, string> = {};
    let complete = namesNode.value.kind === 'object' && namesNode.value.complete;
    for (const e of namesNode.value.kind === 'object' ? namesNode.value.properties : []) {
      if (e.value.kind === 'string') map[e.key] = e.value.value;
      else complete = false;
    }
    request.names = { map, complete };
  }
  if (valuesNode) {
    const map: Record<string, ValueInfo> = {};
    const v = valuesNode.value;
    for (const e of v.kind === 'object' ? v.properties : []) map[e.key] = valueInfo(e.value, op.site.style);
    request.values = { map, complete: v.kind === 'object' && v.complete };
  }
  // A map the literal lacks may come from a spread or a later assignment (`params.X = ...`): unknown, not absent.
  if (!p.complete) {
    request.names ??= { map: {}, complete: false };
    request.values ??= { map: {}, complete: false };
  }
  const key = keyNode;
  // What a Key means for the expressions (key updates, key conditions) depends on the operation.
  if (key?.kind === 'object' && key.complete && key.properties.length && op.kind !== 'Unknown') {
    const all = key.properties.map((e) => e.key);
    request.keyAttributes = all.length === 1 ? { partition: all[0], all } : { all };
  }
  return request;
}

interface OperationResult {
  op: Operation;
  findings: ExpressionFinding[];
}

/** The bound of the validation cache, in (approximate) bytes: a key is the request's text, item values included, so an
 * entry count would let a few large requests hold hundreds of MB after their documents closed. */
export const VALIDATED_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Validation by content: the findings of a request (expression-relative offsets and map keys, no document ranges)
 * keyed by everything the validator reads. After an edit every unchanged request costs a lookup; document ranges are
 * mapped afresh for each operation (`findingRange`).
 */
const validated = new Lru<string, ExpressionFinding[]>(VALIDATED_CACHE_BYTES, (key, findings) => key.length * 2 + 256 * (findings.length + 1));

/** What the validation cache holds now (entries, approximate bytes): the server's `dynalint/stats`. */
export function validationCacheStats(): { entries: number; bytes: number } {
  // Measured from the keys themselves (UTF-16: 2 bytes a char), not from the cache's own accounting.
  let bytes = 0;
  for (const k of validated.keys()) bytes += k.length * 2;
  return { entries: validated.size, bytes };
}

export function validateOperation(op: Operation): OperationResult | undefined {
  // Not memoized per action object: results are kept per site (`validateSite`) and, in the language service, the
  // rules' findings per site (incremental.ts); the request and its key are built only for a site seen anew.
  const request = buildRequest(op);
  if (!request) return undefined;
  const key = JSON.stringify(request);
  let findings = validated.get(key);
  if (!findings) validated.set(key, (findings = validateRequest(request)));
  return { op, findings };
}

type MapLocation = Exclude<FindingLocation, { start: number }>;
const isMapLocation = (loc: FindingLocation): loc is MapLocation => !('start' in loc);

/** Validation results per document, computed by the first expression rule to run and shared by the rest. */
const cache = new WeakMap<RequestSite[], { text: string; results: OperationResult[] }>();

export function validateSites(ctx: Pick<RuleContext, 'text' | 'sites'>): OperationResult[] {
  const hit = cache.get(ctx.sites);
  if (hit && hit.text === ctx.text) return hit.results;
  const results: OperationResult[] = [];
  for (const site of ctx.sites) for (const x of validateSite(site)) results.push(x);
  cache.set(ctx.sites, { text: ctx.text, results });
  return results;
}

/** The operations of one site that have validator findings. Memoized per site object (findings hold no offsets). */
const bySite = new WeakMap<RequestSite, readonly OperationResult[]>();

/** What most sites have: no findings (one shared array, not one per site kept by `bySite`). */
const NO_RESULTS: readonly OperationResult[] = Object.freeze([]);

/** The site asked last and its results: the 44 expression rules ask for each site in turn (one compare, not a lookup). */
let lastSite: RequestSite | undefined;
let lastResults: readonly OperationResult[] = NO_RESULTS;

export function validateSite(site: RequestSite): readonly OperationResult[] {
  if (site === lastSite) return lastResults;
  let results = bySite.get(site);
  if (results) {
    lastSite = site;
    return (lastResults = results);
  }
  let found: OperationResult[] | undefined;
  for (const op of operations(site)) {
    const r = validateOperation(op);
    if (r?.findings.length) (found ??= []).push(r);
  }
  bySite.set(site, (results = found ?? NO_RESULTS));
  lastSite = site;
  return (lastResults = results);
}

/** The document range a finding points at. */
export function findingRange(op: Operation, f: ExpressionFinding): Range {
  const loc = f.location;
  if (isMapLocation(loc)) {
    const map = propEntry(op.params, loc.field);
    if (!map) return op.site.nameRange;
    if (loc.key === undefined) return map.keyRange;
    return propEntry(map.value, loc.key)?.keyRange ?? map.keyRange;
  }
  const entry = propEntry(op.params, loc.field);
  if (entry?.value.kind !== 'string') return entry?.keyRange ?? op.site.nameRange;
  return stringRange(entry.value, loc.start, loc.end);
}

/** The text a finding points at inside its expression (`status`, `#n`, `:v`), or the map key it names. */
function subject(op: Operation, f: ExpressionFinding): string | undefined {
  const loc = f.location;
  if (isMapLocation(loc)) return loc.key;
  const node = prop(op.params, loc.field) as StringNode | undefined;
  return node?.kind === 'string' ? node.value.slice(loc.start, loc.end) : undefined;
}

function dataString(f: ExpressionFinding, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = f.data?.[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** The reserved words of one operation's findings, in order of appearance, each once. */
function reservedWords(r: OperationResult): string[] {
  const words = r.findings.filter((f) => FIX_KIND_BY_ID[f.id] === 'reservedWord').map((f) => dataString(f, 'word', 'name') ?? subject(r.op, f));
  return [...new Set(words.filter((w): w is string => !!w))];
}

/** Placeholder typos of one operation, per kind (`#` names, `:` values). */
interface Typos {
  /** Kinds with both an undefined and an unused placeholder: removing or defining either is a guess. */
  conflicted: Set<string>;
  /** Undefined placeholder -> the unused one it most likely misspells, and back. */
  renameOf: Map<string, string>;
  usedFor: Map<string, string>;
}

const typoCache = new WeakMap<OperationResult, Typos>();

function typosOf(r: OperationResult): Typos {
  let t = typoCache.get(r);
  if (t) return t;
  t = { conflicted: new Set(), renameOf: new Map(), usedFor: new Map() };
  for (const [prefix, undef, unused] of [['#', 'undefined-name', 'unused-name'], [':', 'undefined-value', 'unused-value']]) {
    const keys = (id: string) => [...new Set(r.findings.filter((f) => f.id === id).map((f) => dataString(f, 'placeholder')))].filter((k): k is string => !!k?.startsWith(prefix));
    const u = keys(undef);
    const v = keys(unused);
    if (!u.length || !v.length) continue;
    t.conflicted.add(prefix);
    for (const [from, to] of pairTypos(u, v)) {
      t.renameOf.set(from, to);
      t.usedFor.set(to, from);
    }
  }
  typoCache.set(r, t);
  return t;
}

function fixesFor(text: string, r: OperationResult, f: ExpressionFinding, shared: () => SharedSource): Fix[] {
  const kind = FIX_KIND_BY_ID[f.id];
  const op = r.op;
  if (!fixableSite(op.site)) return [];
  const loc = f.location;
  const what = dataString(f, 'placeholder', 'name', 'key', 'word') ?? subject(op, f);
  const out: (Fix | undefined)[] = [];
  /** No fix is preferred (a typo with no clear rename: which entry to keep is the user's call). */
  let demoted = false;
  switch (kind) {
    case 'reservedWord': {
      if (!what) break;
      // A resolved constant other requests use too gets their mappings as well.
      const sharers = insideOperation(op, findingRange(op, f)) ? [] : shared().sharers(op);
      out.push(reservedWordsFix(text, op, [what], sharers));
      const all = reservedWords(r);
      if (all.length > 1) out.push(reservedWordsFix(text, op, all, sharers));
      break;
    }
    case 'undefinedName':
    case 'undefinedValue':
    case 'unusedName':
    case 'unusedValue': {
      if (!what) break;
      // An undefined placeholder next to an unused one of its kind is a typo: the rename comes first (preferred, not
      // safe); removing the user's entry or defining a new one is then not safe, and not preferred.
      const typos = typosOf(r);
      const mine = what[0] === (kind === 'undefinedName' || kind === 'unusedName' ? '#' : ':');
      const typo = mine && typos.conflicted.has(what[0]);
      const undef = kind === 'undefinedName' || kind === 'undefinedValue';
      const to = undef ? typos.renameOf.get(what) : what;
      const from = undef ? what : typos.usedFor.get(what);
      const rename = mine && from && to ? renamePlaceholderFix(text, op, from, to) : undefined;
      if (rename) out.push(rename);
      else if (typo) demoted = true;
      if (kind === 'undefinedName') out.push(defineNameFix(text, op, what, typo));
      else if (kind === 'undefinedValue') out.push(defineValueFix(text, op, what));
      else out.push(removeUnusedFix(text, op, kind === 'unusedName' ? 'ExpressionAttributeNames' : 'ExpressionAttributeValues', what, typo));
      break;
    }
    case 'removeMap':
      if (loc.field === 'ExpressionAttributeNames' || loc.field === 'ExpressionAttributeValues') out.push(removeMapFix(text, op, loc.field));
      break;
    case 'redundantParens':
      if (!isMapLocation(loc)) out.push(redundantParensFix(text, op, loc.field, loc.start, loc.end));
      break;
    case 'mergeClauses':
      out.push(mergeClausesFix(text, op));
      break;
  }
  const fixes = out.filter((x): x is Fix => x !== undefined);
  if (fixes[0] && !demoted) fixes[0].preferred = true;
  return fixes;
}

/** A rule's findings where there are none: one shared, frozen array (read by the callers, never changed). */
const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

function ruleFor(meta: (typeof EXPRESSION_FINDINGS)[number]): Rule {
  const kind = FIX_KIND_BY_ID[meta.id];
  return {
    id: meta.id,
    meta: {
      description: meta.description,
      docs: `${DOCS_BASE}/${meta.id}.md`,
      defaultSeverity: meta.defaultSeverity,
      fixable: kind !== undefined,
      category: 'expression',
    },
    check(ctx) {
      // A constant shared by many requests gives the same finding for each: reported (and its fixes built) once.
      return findingsOf(ctx, validateSites(ctx), meta.id, kind);
    },
    site(ctx, site) {
      return findingsOf(ctx, validateSite(site), meta.id, kind);
    },
  };
}

type RuleOut = Omit<Finding, 'severity'> & { severity: Finding['severity'] };

/**
 * The findings of one rule (`id`, its fix `kind`) among the results, each range and message once. One function for
 * every expression rule (asked for each site by each of them): its loops are optimized once, not per rule, and nothing
 * is allocated for results without a finding of `id` (most sites): the shared empty array is handed out.
 */
function findingsOf(ctx: RuleContext, results: readonly OperationResult[], id: string, kind: FixKind | undefined): RuleOut[] {
  if (results.length === 0) return NO_FINDINGS as RuleOut[];
  let out: RuleOut[] | undefined;
  let seen: Set<string> | undefined;
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    for (let j = 0; j < r.findings.length; j++) {
      const f = r.findings[j];
      if (f.id !== id) continue;
      const range = findingRange(r.op, f);
      // A request sent through a helper of the file: a finding placed on the request's name (a missing map) is the
      // helper's own site's, at the helper's request; the copy at each call would repeat it.
      if (r.op.site.forwarded?.from && range === r.op.site.nameRange) continue;
      const key = `${range.start}:${range.end}:${f.message}`;
      if (seen?.has(key)) continue;
      (seen ??= new Set()).add(key);
      const finding: RuleOut = { ruleId: f.id, severity: f.severity, message: vtlMessage(r.op.site, f), range };
      // Only a finding in source outside its request asks who else uses it (that reads the other sites).
      const fixes = fixesFor(ctx.text, r, f, () => ctx.shared?.() ?? sharedSource(ctx.sites));
      if (fixes.length) finding.fixes = fixes;
      if (kind === 'unusedName' || kind === 'unusedValue') finding.unnecessary = true;
      (out ??= []).push(finding);
    }
  }
  return out ?? (NO_FINDINGS as RuleOut[]);
}

/**
 * A reserved word's message names the placeholder to use (`#end`); in a VTL template that placeholder is a Velocity
 * directive, so the message names the one the fix writes there (`#endAttr`, edit.ts `namePlaceholder`).
 */
function vtlMessage(site: RequestSite, f: ExpressionFinding): string {
  const word = f.data?.word;
  if (site.sdk !== 'appsync-vtl' || FIX_KIND_BY_ID[f.id] !== 'reservedWord' || typeof word !== 'string') return f.message;
  const plain = '#' + word.replace(/[^A-Za-z0-9_]/g, '');
  const ph = namePlaceholder({ host: 'json', quote: '"', vtl: true }, word);
  return ph === plain ? f.message : f.message.replace(`(${plain})`, `(${ph})`);
}

export const expressionRules: Rule[] = EXPRESSION_FINDINGS.map(ruleFor);
