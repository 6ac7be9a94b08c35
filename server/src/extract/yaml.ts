/**
 * YAML: Step Functions definitions (`*.asl.yaml`, `Definition:` of SAM/CloudFormation state machines, Serverless
 * Framework `stepFunctions`), AWS CLI `--cli-input-yaml` skeletons, and any request-shaped map in a YAML file with
 * DynamoDB vocabulary. Values are low-level, as in JSON.
 *
 * Parsed with `yaml` (the package the table index reads templates with, `parseYamlDocuments`): source ranges on every
 * node, short-form tags kept on the node, several documents, error recovery. Every scalar is decoded again by
 * yaml-scalars.ts to get per-character offsets (folding, escapes, block scalars); when our value differs from the
 * package's the string is unknown. Tags (`!Sub`, `!Ref`, `!GetAtt`...) are unknown values (a `!Sub` without `${}` is
 * its literal string); Step Functions `Key.$` / `{% %}` (JSONata) / `${...}` substitutions are unknown, never invalid.
 *
 * Sites carry `host: YAML_HOST` ('yaml') and
 * `sdk: 'step-functions-yaml' | 'aws-cli-yaml'`; `rules/edit.ts` writes YAML for them (edit-yaml.ts).
 */
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml';
import { Api, ObjectNode, Range, RequestSite, VNode, prop, str } from './model';
import { LOW_METHODS } from './infer';
import { YAML_HOST } from './hosts';
import { requestOf } from './json';
import { shiftSite, shiftTree } from './remap';
import { decodeBlock, decodeDouble, decodePlain, decodeSingle } from './yaml-scalars';
import { ownCopy } from '../core/strings';

/** Parse every document of a YAML text the way the table index reads templates (duplicate keys allowed, tags kept). */
export function parseYamlDocuments(text: string, keepSourceTokens = false): Document.Parsed[] {
  const docs = parseAllDocuments(text, { uniqueKeys: false, keepSourceTokens, prettyErrors: false });
  return Array.isArray(docs) ? docs : [docs as unknown as Document.Parsed];
}

/** Cheap test before parsing: DynamoDB vocabulary a YAML request or task would spell out. */
export function mayContainYamlRequest(text: string): boolean {
  return /dynamodb|TableName|Expression|TransactItems|RequestItems/.test(text);
}

const MAX_DEPTH = 64;
/** Nodes an alias may expand to, in total per document (billion-laughs guard). */
const MAX_ALIAS_NODES = 20_000;
const STATE_MACHINE_TYPES = new Set(['AWS::Serverless::StateMachine', 'AWS::StepFunctions::StateMachine']);
/** `arn:aws:states:::dynamodb:updateItem`, `arn:${AWS::Partition}:states:::aws-sdk:dynamodb:transactWriteItems`. */
const DDB_ARN = /^arn:(?:aws[\w-]*|\$\{AWS::Partition\}):states:::(?:aws-sdk:)?dynamodb:(\w+)(?:\.\w+)?$/;

interface Conv {
  text: string;
  doc: Document.Parsed;
  aliasBudget: number;
  /** An alias or anchor was seen: units may not be re-parsed alone. */
  shared: boolean;
}

const unknown = (c: Conv, r: Range): VNode => ({ kind: 'unknown', range: r, text: c.text.slice(r.start, Math.min(r.end, r.start + 120)) });

/** Filled in at run time: JSONata, `${...}` substitutions (SAM DefinitionSubstitutions, Serverless variables). */
const isDynamic = (s: string) => /^\s*\{%[^]*%\}\s*$/.test(s) || /\$\{[^}]+\}/.test(s);

function scalar(n: YamlNode & { type?: string; value: unknown; srcToken?: { indent?: number } }, c: Conv): VNode {
  const [start, end] = n.range ?? [0, 0];
  const range = { start, end };
  const v = n.value;
  if (typeof v === 'number' || typeof v === 'bigint') {
    const src = c.text.slice(start, end);
    return { kind: 'number', text: /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(src) ? src : String(v), range };
  }
  if (typeof v === 'boolean') return { kind: 'bool', value: v, range };
  if (v === null) return { kind: 'null', range };
  if (typeof v !== 'string') return unknown(c, range);
  if (isDynamic(v)) return unknown(c, range);
  const src = c.text.slice(start, end);
  let s;
  switch (n.type) {
    case 'QUOTE_SINGLE':
      s = decodeSingle(src, start, range);
      break;
    case 'QUOTE_DOUBLE':
      s = decodeDouble(src, start, range);
      break;
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED':
      s = decodeBlock(c.text, start, end, n.srcToken?.indent ?? 0, range);
      break;
    default:
      s = decodePlain(src, start, range);
  }
  return s && s.value === v ? s : unknown(c, range);
}

function convert(node: unknown, c: Conv, depth: number): VNode {
  const n = node as YamlNode | null | undefined;
  const r = n?.range;
  const range: Range = r ? { start: r[0], end: r[1] } : { start: 0, end: 0 };
  if (!n || depth > MAX_DEPTH) return unknown(c, range);
  if (isAlias(n)) {
    c.shared = true;
    const target = n.resolve(c.doc);
    if (!target || --c.aliasBudget < 0) return unknown(c, range);
    // The alias reads as the anchored value (its offsets point at the anchor's text); a budget bounds expansion.
    return convert(target, c, depth + 1);
  }
  if (n.anchor) c.shared = true;
  const tag = n.tag && n.tag.startsWith('!') && !n.tag.startsWith('!!') ? n.tag : undefined;
  if (tag) {
    // `!Sub 'literal'` without substitutions is that literal; every other intrinsic is only known at deploy time.
    if ((tag === '!Sub' || tag === '!Fn::Sub') && isScalar(n) && typeof n.value === 'string' && !n.value.includes('${')) return scalar(n as never, c);
    return unknown(c, range);
  }
  if (isScalar(n)) return scalar(n as never, c);
  if (isMap(n)) {
    const o: ObjectNode = { kind: 'object', properties: [], complete: true, range };
    for (const p of n.items) {
      const k = p.key as YamlNode | null;
      if (!isScalar(k) || (typeof k.value !== 'string' && typeof k.value !== 'number') || !k.range) {
        // `<<: *base` merges, complex keys: entries we do not model.
        o.complete = false;
        continue;
      }
      let key = String(k.value);
      const keyRange = { start: k.range[0], end: k.range[1] };
      if (key === '<<') {
        o.complete = false;
        continue;
      }
      let value: VNode;
      if (p.value === null || p.value === undefined) value = { kind: 'null', range: { start: keyRange.end, end: keyRange.end } };
      else value = convert(p.value, c, depth + 1);
      // Step Functions: `X.$: $.path` gives X its value at run time (JSONPath), so X is present but unknown.
      if (key.length > 2 && key.endsWith('.$')) {
        key = key.slice(0, -2);
        if (value.kind !== 'unknown') value = unknown(c, value.range);
      }
      o.properties.push({ key, keyRange, value, range: { start: keyRange.start, end: Math.max(value.range.end, keyRange.end) } });
    }
    return o;
  }
  if (isSeq(n)) return { kind: 'array', items: n.items.map((i) => convert(i, c, depth + 1)), complete: true, range };
  return unknown(c, range);
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Sites                                                                                                              */

function makeSite(sdk: string) {
  return (api: Api, params: ObjectNode, nameRange: Range, apiSource: RequestSite['apiSource'] = 'inferred'): RequestSite => ({
    api,
    apiSource,
    style: 'low-level',
    host: YAML_HOST,
    range: { ...params.range },
    nameRange: { ...nameRange },
    params,
    sdk,
  });
}

/** A Step Functions task calling DynamoDB: `Resource: arn:aws:states:::dynamodb:updateItem` with its Parameters/Arguments. */
function taskOf(n: VNode): RequestSite | undefined {
  if (n.kind !== 'object') return undefined;
  const res = prop(n, 'Resource');
  // A `!Sub` ARN (only the partition substituted) is unknown as a value but names the API all the same.
  const arn = res?.kind === 'string' ? res.value : res?.kind === 'unknown' ? res.text?.replace(/^!(?:Fn::)?Sub\s+/, '').replace(/^(["'])(.*)\1$/, '$2') : undefined;
  const m = arn ? DDB_ARN.exec(arn) : null;
  if (!m) return undefined;
  const api = LOW_METHODS.get(m[1]);
  const params = prop(n, 'Parameters') ?? prop(n, 'Arguments');
  if (!api || params?.kind !== 'object') return undefined;
  return makeSite('step-functions-yaml')(api, params, res!.range, 'call');
}

/** The requests in a value and below it, in document order. */
export function yamlSitesIn(root: VNode | undefined, sdk: string, out: RequestSite[]): RequestSite[] {
  const make = makeSite(sdk);
  const stack: VNode[] = root ? [root] : [];
  while (stack.length) {
    const n = stack.pop()!;
    const s = taskOf(n) ?? requestOf(n, make);
    if (s) {
      out.push(s);
      continue;
    }
    if (n.kind === 'object') for (let i = n.properties.length - 1; i >= 0; i--) stack.push(n.properties[i].value);
    else if (n.kind === 'array') for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
  return out;
}

/** A CloudFormation/SAM template: requests are read only inside state machine definitions. */
function isTemplate(root: VNode): boolean {
  if (root.kind !== 'object') return false;
  const resources = prop(root, 'Resources');
  return (
    resources?.kind === 'object' &&
    (prop(root, 'AWSTemplateFormatVersion') !== undefined || prop(root, 'Transform') !== undefined || resources.properties.some((p) => str(prop(p.value, 'Type'))?.startsWith('AWS::')))
  );
}

/** Requests of one resource of a template: a state machine's `Definition` (inline YAML). */
function resourceSites(resource: VNode, out: RequestSite[]): void {
  const type = str(prop(resource, 'Type'));
  if (!type || !STATE_MACHINE_TYPES.has(type)) return;
  yamlSitesIn(prop(prop(resource, 'Properties'), 'Definition'), 'step-functions-yaml', out);
}

/** The sdk name for requests found outside a template: a CLI skeleton at the root, else Step Functions. */
function sdkFor(root: VNode): string {
  return root.kind === 'object' && (prop(root, 'TableName') || prop(root, 'TransactItems') || prop(root, 'RequestItems')) && !prop(root, 'States') ? 'aws-cli-yaml' : 'step-functions-yaml';
}

/** Requests in one document's root value. */
function rootSites(root: VNode | undefined, out: RequestSite[]): RequestSite[] {
  if (!root) return out;
  if (isTemplate(root)) {
    for (const r of (prop(root, 'Resources') as ObjectNode).properties) resourceSites(r.value, out);
    return out;
  }
  return yamlSitesIn(root, sdkFor(root), out);
}

function parseText(text: string, base = 0): { roots: (VNode | undefined)[]; errors: number; shared: boolean; docs: Document.Parsed[] } {
  const docs = parseYamlDocuments(text, true);
  const roots: (VNode | undefined)[] = [];
  let errors = 0;
  let shared = false;
  for (const doc of docs) {
    errors += doc.errors.length;
    const c: Conv = { text, doc, aliasBudget: MAX_ALIAS_NODES, shared: false };
    roots.push(doc.contents ? convert(doc.contents, c, 0) : undefined);
    shared ||= c.shared;
  }
  if (base) for (const r of roots) if (r) shiftValue(r, base);
  return { roots, errors, shared, docs };
}

/** Move every offset of a value tree by `base` (a unit parsed on its own). */
function shiftValue(v: VNode, base: number): void {
  shiftTree(v, 0, base);
}

export function extractYaml(text: string): RequestSite[] {
  const out: RequestSite[] = [];
  for (const root of parseText(text).roots) rootSites(root, out);
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Incremental                                                                                                        */

interface Unit {
  /** Offset of the first character of the unit's line (its key is at `start + indent`). */
  start: number;
  /** Offset just after the unit's last line break (the next unit's `start`). */
  end: number;
  indent: number;
  /** The top-level key the unit sits under. */
  parent: string;
  sites: RequestSite[];
}

/**
 * A YAML document kept between edits. Units are the entries of a single block-map document, one level down where an
 * entry's value is itself a block map (so each resource of a template, each state machine of `stepFunctions`). An
 * edit strictly inside one nested unit (its first and last lines' breaks kept) re-parses only that unit's lines on
 * their own: they must parse without errors into exactly one entry at the same column, with no anchor or alias.
 * Anything else (a top-level entry, several documents, anchors, syntax errors) re-parses the whole document.
 */
export class YamlDocument {
  private units: Unit[] = [];
  /** How a nested unit's requests are found: in a template, only state machines; else anywhere. */
  private mode: 'template' | 'generic' = 'generic';
  private sdk = 'step-functions-yaml';
  lastWasIncremental = false;
  lastReparsed = 0;

  full(text: string): RequestSite[] {
    this.units = [];
    const { roots, errors, shared, docs } = parseText(text);
    const out: RequestSite[] = [];
    for (const root of roots) rootSites(root, out);
    this.lastReparsed = 1;
    const root = roots[0];
    const contents = docs[0]?.contents;
    if (errors || shared || roots.length !== 1 || !root || root.kind !== 'object' || !isMap(contents) || contents.flow) return out;
    if (requestOf(root) || taskOf(root)) return out;
    this.mode = isTemplate(root) ? 'template' : 'generic';
    this.sdk = sdkFor(root);
    const lineStart = (o: number) => text.lastIndexOf('\n', o - 1) + 1;
    const units: Unit[] = [];
    for (let i = 0; i < contents.items.length; i++) {
      const pair = contents.items[i];
      const v = pair.value as YamlNode | null;
      const prop0 = root.properties.find((p) => p.keyRange.start === (pair.key as YamlNode).range?.[0]);
      if (!prop0) return out;
      if (isMap(v) && !v.flow && v.items.length && prop0.value.kind === 'object') {
        for (const inner of prop0.value.properties) units.push({ start: lineStart(inner.keyRange.start), end: 0, indent: inner.keyRange.start - lineStart(inner.keyRange.start), parent: prop0.key, sites: this.unitSites(prop0.key, inner.value) });
      } else units.push({ start: lineStart(prop0.keyRange.start), end: 0, indent: -1, parent: '', sites: [] });
    }
    for (let i = 0; i < units.length; i++) units[i].end = i + 1 < units.length ? units[i + 1].start : text.length;
    // Units must tile the document's sites: each site inside exactly one nested unit.
    const inUnits = units.reduce((n, u) => n + u.sites.length, 0);
    if (inUnits !== out.length) return out;
    this.units = units;
    this.lastReparsed = units.length;
    return out;
  }

  private unitSites(parentKey: string, value: VNode): RequestSite[] {
    const out: RequestSite[] = [];
    if (this.mode === 'template') {
      if (parentKey === 'Resources') resourceSites(value, out);
      return out;
    }
    return yamlSitesIn(value, this.sdk, out);
  }

  update(text: string, span: { start: number; oldEnd: number; newEnd: number }, oldText: string): RequestSite[] {
    const sites = this.incremental(text, span, oldText);
    this.lastWasIncremental = !!sites;
    return sites ?? this.full(text);
  }

  private incremental(text: string, span: { start: number; oldEnd: number; newEnd: number }, oldText: string): RequestSite[] | undefined {
    const units = this.units;
    if (!units.length) return undefined;
    let lo = 0;
    let hi = units.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (units[mid].start <= span.start) lo = mid;
      else hi = mid - 1;
    }
    const u = units[lo];
    if (u.indent < 0 || !(span.start > u.start + u.indent && span.oldEnd < u.end)) return undefined;
    const diff = span.newEnd - span.oldEnd;
    const newEnd = u.end + diff;
    if (u.end < oldText.length || newEnd < text.length) {
      if (text[newEnd - 1] !== '\n') return undefined;
    }
    // Its own copy: the unit's sites are kept across edits and a slice would keep this version of the whole text alive.
    const slice = ownCopy(text.slice(u.start, newEnd));
    if (/^(---|\.\.\.)/m.test(slice) || /^%/m.test(slice)) return undefined;
    let parsed;
    try {
      parsed = parseText(slice, u.start);
    } catch {
      return undefined;
    }
    const root = parsed.roots[0];
    const contents = parsed.docs[0]?.contents;
    if (parsed.errors || parsed.shared || parsed.roots.length !== 1 || root?.kind !== 'object' || root.properties.length !== 1 || !isMap(contents) || contents.flow) return undefined;
    const entry = root.properties[0];
    if (entry.keyRange.start !== u.start + u.indent) return undefined;
    const sites = this.unitSites(u.parent, entry.value);
    if (diff !== 0)
      for (let k = lo + 1; k < units.length; k++) {
        units[k].start += diff;
        units[k].end += diff;
        for (const s of units[k].sites) shiftSite(s, span.oldEnd, diff);
      }
    units[lo] = { ...u, end: newEnd, sites };
    this.lastReparsed = 1;
    const out: RequestSite[] = [];
    for (const x of units) for (const s of x.sites) out.push(s);
    return out;
  }
}
