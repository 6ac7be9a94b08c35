/**
 * JSON / JSONC: request objects recognised by their fields (AWS CLI `--cli-input-json`, Step Functions parameters,
 * fixtures), arrays of them, bare `--transact-items` arrays and bare `--request-items` maps. Values are low-level.
 *
 * Built straight from jsonc-parser's `visit` events (about 15x faster than its `parseTree` here, tolerant of errors,
 * comments and trailing commas), with an explicit stack.
 */
import { visit } from 'jsonc-parser';
import { Api, ArrayNode, ObjectNode, Property, Range, RequestSite, VNode } from './model';
import { shiftSite } from './remap';
import { MAX_PARSE_DEPTH, batchApi, flattenDeepNesting, inferApi, transactApi } from './infer';
import { decodeJs } from './strings';

/** Keys whose presence makes an object worth testing as a request. */
const REQUEST_KEYS = new Set([
  'TransactItems', 'RequestItems', 'UpdateExpression', 'KeyConditionExpression', 'TableName', 'Statement',
  'TransactStatements', 'Statements',
]);
const TRANSACT_KEYS = new Set(['Put', 'Update', 'Delete', 'ConditionCheck', 'Get']);
const MAX_VALUE_DEPTH = 64;

interface Frame {
  node: ObjectNode | ArrayNode;
  key?: { key: string; keyRange: Range };
}

/**
 * The document as a value tree (undefined when it holds no value). `base` is added to every offset (a member parsed
 * on its own, inside a wrapper); `errors` counts what the parser had to recover from.
 */
function build(text: string, base = 0, errors?: { count: number }): VNode | undefined {
  const stack: Frame[] = [];
  let root: VNode | undefined;
  const add = (v: VNode) => {
    const top = stack[stack.length - 1];
    if (!top) {
      root ??= v;
      return;
    }
    if (top.node.kind === 'array') top.node.items.push(v);
    else if (top.key) {
      // Step Functions: `"X.$": "$.path"` gives X its value at run time (JSONPath), so X is present but unknown.
      const dynamic = top.key.key.length > 2 && top.key.key.endsWith('.$');
      const key = dynamic ? top.key.key.slice(0, -2) : top.key.key;
      if (dynamic) v = { kind: 'unknown', range: v.range, text: text.slice(v.range.start - base, Math.min(v.range.end, v.range.start + 120) - base) };
      top.node.properties.push({ key, keyRange: top.key.keyRange, value: v, range: { start: top.key.keyRange.start, end: v.range.end } });
      top.key = undefined;
    } else top.node.complete = false;
  };
  const open = (node: ObjectNode | ArrayNode) => {
    const top = stack[stack.length - 1];
    if (top?.node.kind === 'object' && !top.key) top.node.complete = false;
    stack.push({ node });
  };
  const close = (offset: number, length: number) => {
    const f = stack.pop();
    if (!f) return;
    if (f.key) f.node.complete = false;
    f.node.range.end = base + offset + length;
    add(stack.length >= MAX_VALUE_DEPTH ? { kind: 'unknown', range: f.node.range } : f.node);
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => open({ kind: 'object', properties: [], complete: true, range: { start: base + offset, end: base + offset + 1 } }),
      onObjectProperty: (key, offset, length) => {
        const top = stack[stack.length - 1];
        if (top?.node.kind === 'object') {
          if (top.key) top.node.complete = false;
          top.key = { key, keyRange: { start: base + offset, end: base + offset + length } };
        }
      },
      onObjectEnd: close,
      onArrayBegin: (offset) => open({ kind: 'array', items: [], complete: true, range: { start: base + offset, end: base + offset + 1 } }),
      onArrayEnd: close,
      onLiteralValue: (value: unknown, offset, length) => {
        const range = { start: base + offset, end: base + offset + length };
        if (typeof value === 'string') {
          const closed = length >= 2 && text[offset + length - 1] === '"';
          // Filled in later, so unknown rather than a literal: Step Functions JSONata (`"{% $states.input.n %}"`),
          // template substitutions (CloudFormation `Fn::Sub` / SAM DefinitionSubstitutions / Serverless / Terraform
          // `"${Increment}"`), API Gateway mapping templates (`"$input.path('$.count')"`, `$util.…`, `$context.…`).
          if (/^\{%[^]*%\}$/.test(value) || /\$\{[^}]+\}/.test(value) || /^\$(input|util|context|stageVariables)\./.test(value)) add({ kind: 'unknown', range, text: text.slice(offset, offset + Math.min(length, 120)) });
          else add(decodeJs(text.slice(offset + 1, offset + length - (closed ? 1 : 0)), base + offset + 1, range));
        } else if (typeof value === 'number') add({ kind: 'number', text: text.slice(offset, offset + length), range });
        else if (typeof value === 'boolean') add({ kind: 'bool', value, range });
        else if (value === null && text.startsWith('null', offset)) add({ kind: 'null', range });
        else add({ kind: 'unknown', range, text: text.slice(offset, offset + Math.min(length, 120)) });
      },
      onError: () => {
        if (errors) errors.count++;
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  // Unterminated containers (a truncated file): close them at the end of the text.
  while (stack.length) close(text.length, 0);
  return root;
}

function parse(text: string): VNode | undefined {
  try {
    return build(text);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return build(flattenDeepNesting(text, MAX_PARSE_DEPTH));
  }
}

/** The value tree of a JSON text (tolerant: errors recovered), as the JSON host reads it (the VTL host reuses it). */
export const parseJsonValue = parse;

/** A synthesized `{ <key>: <node> }` for bare CLI files (the file is the value of that one parameter). */
function wrap(key: string, value: VNode): ObjectNode {
  return { kind: 'object', properties: [{ key, keyRange: { ...value.range }, value, range: { ...value.range } }], complete: true, range: { ...value.range } };
}

function site(api: Api, params: ObjectNode, nameRange: Range): RequestSite {
  return { api, apiSource: 'inferred', style: 'low-level', host: 'json', range: { ...params.range }, nameRange: { ...nameRange }, params, sdk: 'aws-cli-json' };
}

/** Cheap shape test before the full one: `{table: [{PutRequest|DeleteRequest|UpdateRequest}...]}` or `{table: {Keys: [...]}}`. */
function looksLikeRequestItems(o: ObjectNode): boolean {
  const v = o.properties[0]?.value;
  if (v?.kind === 'array') return v.items[0]?.kind === 'object' && ['PutRequest', 'DeleteRequest', 'UpdateRequest'].includes(v.items[0].properties[0]?.key);
  return v?.kind === 'object' && v.properties.some((p) => p.key === 'Keys');
}

/** Makes a site of a recognised request (the YAML host gives its own). */
export type SiteMaker = (api: Api, params: ObjectNode, nameRange: Range) => RequestSite;

/** The request `n` is, recognised by its fields (also bare `--transact-items` arrays / `--request-items` maps). */
export function requestOf(n: VNode, make: SiteMaker = site): RequestSite | undefined {
  if (n.kind === 'object') {
    if (n.properties.some((p) => REQUEST_KEYS.has(p.key))) {
      const api = inferApi(n);
      return api ? make(api, n, n.properties[0].keyRange) : undefined;
    }
    if (looksLikeRequestItems(n)) {
      const api = batchApi(n);
      return api ? make(api, wrap('RequestItems', n), n.properties[0].keyRange) : undefined;
    }
  } else if (n.kind === 'array' && n.items.length && n.items.every((e) => e.kind === 'object' && e.properties.length === 1 && TRANSACT_KEYS.has(e.properties[0].key))) {
    const api = transactApi(n);
    return api ? make(api, wrap('TransactItems', n), (n.items[0] as ObjectNode).properties[0].keyRange) : undefined;
  }
  return undefined;
}

/** The requests in a value and below it (pre-order, so in document order). */
function sitesIn(root: VNode | undefined, sites: RequestSite[]): RequestSite[] {
  const stack: VNode[] = root ? [root] : [];
  while (stack.length) {
    const n = stack.pop() as VNode;
    const s = requestOf(n);
    if (s) {
      sites.push(s);
      continue;
    }
    if (n.kind === 'object') for (let i = n.properties.length - 1; i >= 0; i--) stack.push(n.properties[i].value);
    else if (n.kind === 'array') for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
  return sites;
}

export function extractJson(text: string): RequestSite[] {
  return sitesIn(parse(text), []);
}

/** A member of the root object (`"key": value`) or an item of the root array, with the requests in it. */
interface Member {
  /** Document offsets: the key's (or item's) first character, the value's end. */
  start: number;
  end: number;
  /** The property (object root) or the item (array root). */
  node: Property | VNode;
  sites: RequestSite[];
}

/**
 * A JSON document kept between edits: the members of its root object or array are the units. An edit strictly inside
 * one member (its first and last characters kept) re-visits only that member, parsed on its own inside a `{}` / `[]`
 * wrapper; it must parse without errors into exactly one member ending where the member ends (so the boundary is
 * unchanged); later members' sites are moved by the length change. Anything else (a root that is itself a request,
 * a document the parser had to recover from, an edit between members) re-visits the whole document.
 */
export class JsonDocument {
  private rootKind: 'object' | 'array' | undefined;
  private root: ObjectNode | ArrayNode | undefined;
  private members: Member[] = [];
  /** Whether the last `update` re-visited only one member. */
  lastWasIncremental = false;
  /** How many members the last `full` / `update` visited. */
  lastReparsed = 0;

  full(text: string): RequestSite[] {
    this.members = [];
    this.root = undefined;
    this.rootKind = undefined;
    const errors = { count: 0 };
    let root: VNode | undefined;
    try {
      root = build(text, 0, errors);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      root = build(flattenDeepNesting(text, MAX_PARSE_DEPTH));
      errors.count++;
    }
    const sites = sitesIn(root, []);
    this.lastReparsed = 1;
    // Members are units only in a clean document whose root holds requests below it, not one itself.
    if (!errors.count && root && (root.kind === 'object' || root.kind === 'array') && !requestOf(root)) {
      this.root = root;
      this.rootKind = root.kind;
      if (root.kind === 'object') this.members = root.properties.map((p) => ({ start: p.keyRange.start, end: p.value.range.end, node: p, sites: sitesIn(p.value, []) }));
      else this.members = root.items.map((v) => ({ start: v.range.start, end: v.range.end, node: v, sites: sitesIn(v, []) }));
      this.lastReparsed = this.members.length;
    }
    return sites;
  }

  update(text: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] {
    const sites = this.incremental(text, span);
    this.lastWasIncremental = !!sites;
    return sites ?? this.full(text);
  }

  private incremental(text: string, span: { start: number; oldEnd: number; newEnd: number }): RequestSite[] | undefined {
    const members = this.members;
    const root = this.root;
    if (!root || !members.length) return undefined;
    // The member holding the edit, strictly inside.
    let lo = 0;
    let hi = members.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (members[mid].start <= span.start) lo = mid;
      else hi = mid - 1;
    }
    const m = members[lo];
    if (!(span.start > m.start && span.oldEnd < m.end)) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const newEnd = m.end + diff;
    const slice = text.slice(m.start, newEnd);
    const object = this.rootKind === 'object';
    const errors = { count: 0 };
    let wrapped: VNode | undefined;
    try {
      wrapped = build(object ? `{${slice}}` : `[${slice}]`, m.start - 1, errors);
    } catch {
      return undefined;
    }
    if (errors.count || !wrapped) return undefined;
    let node: Property | VNode;
    if (wrapped.kind === 'object' && object && wrapped.properties.length === 1) node = wrapped.properties[0];
    else if (wrapped.kind === 'array' && !object && wrapped.items.length === 1) node = wrapped.items[0];
    else return undefined;
    const value = 'kind' in node ? node : node.value;
    if (value.range.end !== newEnd) return undefined;
    // The root with the new member must still hold requests only below it.
    const index = lo;
    if (root.kind === 'object') root.properties[index] = node as Property;
    else root.items[index] = node as VNode;
    if (requestOf(root)) return undefined;
    // Commit: move what follows, swap the member.
    if (diff !== 0) {
      for (let k = index + 1; k < members.length; k++) {
        const after = members[k];
        after.start += diff;
        after.end += diff;
        for (const site of after.sites) shiftSite(site, span.oldEnd, diff);
      }
    }
    members[index] = { start: m.start, end: newEnd, node, sites: sitesIn(value, []) };
    this.lastReparsed = 1;
    const out: RequestSite[] = [];
    for (const mm of members) for (const site of mm.sites) out.push(site);
    return out;
  }
}
