/**
 * JSON / JSONC: request objects recognised by their fields (AWS CLI `--cli-input-json`, Step Functions parameters,
 * fixtures), arrays of them, bare `--transact-items` arrays and bare `--request-items` maps. Values are low-level.
 *
 * Built straight from jsonc-parser's `visit` events (about 15x faster than its `parseTree` here, tolerant of errors,
 * comments and trailing commas), with an explicit stack.
 */
import { visit } from 'jsonc-parser';
import { Api, ArrayNode, ObjectNode, Range, RequestSite, VNode } from './model';
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

/** The document as a value tree (undefined when it holds no value). */
function build(text: string): VNode | undefined {
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
      if (dynamic) v = { kind: 'unknown', range: v.range, text: text.slice(v.range.start, Math.min(v.range.end, v.range.start + 120)) };
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
    f.node.range.end = offset + length;
    add(stack.length >= MAX_VALUE_DEPTH ? { kind: 'unknown', range: f.node.range } : f.node);
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => open({ kind: 'object', properties: [], complete: true, range: { start: offset, end: offset + 1 } }),
      onObjectProperty: (key, offset, length) => {
        const top = stack[stack.length - 1];
        if (top?.node.kind === 'object') {
          if (top.key) top.node.complete = false;
          top.key = { key, keyRange: { start: offset, end: offset + length } };
        }
      },
      onObjectEnd: close,
      onArrayBegin: (offset) => open({ kind: 'array', items: [], complete: true, range: { start: offset, end: offset + 1 } }),
      onArrayEnd: close,
      onLiteralValue: (value: unknown, offset, length) => {
        const range = { start: offset, end: offset + length };
        if (typeof value === 'string') {
          const closed = length >= 2 && text[offset + length - 1] === '"';
          // Filled in later, so unknown rather than a literal: Step Functions JSONata (`"{% $states.input.n %}"`),
          // template substitutions (CloudFormation `Fn::Sub` / SAM DefinitionSubstitutions / Serverless / Terraform
          // `"${Increment}"`), API Gateway mapping templates (`"$input.path('$.count')"`, `$util.…`, `$context.…`).
          if (/^\{%[^]*%\}$/.test(value) || /\$\{[^}]+\}/.test(value) || /^\$(input|util|context|stageVariables)\./.test(value)) add({ kind: 'unknown', range, text: text.slice(offset, offset + Math.min(length, 120)) });
          else add(decodeJs(text.slice(offset + 1, offset + length - (closed ? 1 : 0)), offset + 1, range));
        } else if (typeof value === 'number') add({ kind: 'number', text: text.slice(offset, offset + length), range });
        else if (typeof value === 'boolean') add({ kind: 'bool', value, range });
        else if (value === null && text.startsWith('null', offset)) add({ kind: 'null', range });
        else add({ kind: 'unknown', range, text: text.slice(offset, offset + Math.min(length, 120)) });
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

function requestOf(n: VNode): RequestSite | undefined {
  if (n.kind === 'object') {
    if (n.properties.some((p) => REQUEST_KEYS.has(p.key))) {
      const api = inferApi(n);
      return api ? site(api, n, n.properties[0].keyRange) : undefined;
    }
    if (looksLikeRequestItems(n)) {
      const api = batchApi(n);
      return api ? site(api, wrap('RequestItems', n), n.properties[0].keyRange) : undefined;
    }
  } else if (n.kind === 'array' && n.items.length && n.items.every((e) => e.kind === 'object' && e.properties.length === 1 && TRANSACT_KEYS.has(e.properties[0].key))) {
    const api = transactApi(n);
    return api ? site(api, wrap('TransactItems', n), (n.items[0] as ObjectNode).properties[0].keyRange) : undefined;
  }
  return undefined;
}

export function extractJson(text: string): RequestSite[] {
  const root = parse(text);
  const sites: RequestSite[] = [];
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
