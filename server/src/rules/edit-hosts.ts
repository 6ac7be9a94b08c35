/**
 * Edit writers of the Go and Java hosts (rules/edit.ts dispatches here): how a new request field, map entry and
 * attribute value are written in aws-sdk-go (v1, v2) and the AWS SDK for Java 2.x.
 *
 * Go: struct fields `ConditionExpression: aws.String("...")`, maps `map[string]types.AttributeValue{":v": ...}`, values
 * `&types.AttributeValueMemberN{Value: "0"}` (v1: `{N: aws.String("0")}`), with the names the file imports the
 * packages as. Java: builder calls `.conditionExpression("...")` on their own line when the chain is laid out so,
 * `Map.of(k, v, ...)` (at most 10 pairs) / `Map.ofEntries(Map.entry(k, v))`, `AttributeValue.builder().n("0").build()`.
 * A map we cannot extend in place (a HashMap filled by `put` calls, an ImmutableMap) or a Go file without the
 * packages a fix would name: no edit, so no fix rather than a wrong one.
 */
import type { ObjectNode, RequestSite } from '../extract/model';
import type { HostSyntax, Literal } from './edit';
import type { TextEdit } from './types';

const AV_TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

export interface GoSyntax {
  /** aws-sdk-go v1 (`*dynamodb.AttributeValue`, `map[string]*string`) rather than v2. */
  v1: boolean;
  aws: string;
  types: string;
  dynamodb: string;
  /** A package a fix would name is not imported: fixes that insert code are not offered. */
  missing: boolean;
}

/** `v1`: the file uses the SDK for Java 1.x (`new AttributeValue().withN(..)`, `withY(..)` request chains). */
export interface JavaSyntax {
  v1?: boolean;
}

function goImports(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /(?:^|[\s(])(?:([A-Za-z_]\w*|\.)\s+)?"(github\.com\/aws\/aws-sdk-go(?:-v2)?\/[\w/.-]+)"/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.set(m[2], m[1] ?? m[2].slice(m[2].lastIndexOf('/') + 1));
  return out;
}

export function goSyntax(text: string, site: RequestSite): GoSyntax {
  const v1 = site.sdk === 'aws-sdk-go';
  const root = v1 ? 'github.com/aws/aws-sdk-go' : 'github.com/aws/aws-sdk-go-v2';
  const imports = goImports(text);
  const aws = imports.get(`${root}/aws`);
  const types = imports.get(`${root}/service/dynamodb/types`);
  const dynamodb = imports.get(`${root}/service/dynamodb`);
  const ok = (a: string | undefined) => a !== undefined && a !== '.' && a !== '_';
  return { v1, aws: aws ?? 'aws', types: types ?? 'types', dynamodb: dynamodb ?? 'dynamodb', missing: !ok(aws) || !ok(v1 ? dynamodb : types) };
}

export function goKey(key: string): string {
  return `"${key.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function renderValue(v: Literal, render: (m: [string, Literal][]) => string): string {
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t').replace(/"/g, '\\"')}"`;
  if ('num' in v) return v.num;
  if ('raw' in v) return v.raw;
  return render(v.map);
}

const isAv = (entries: [string, Literal][]) => entries.length === 1 && AV_TYPES.has(entries[0][0]);

/** A map literal: an attribute value (`{N: '0'}`), else `{"k": v}` (its map type is written by the entry owning it). */
export function goRender(syn: HostSyntax, go: GoSyntax, entries: [string, Literal][]): string {
  const render = (m: [string, Literal][]) => goRender(syn, go, m);
  if (isAv(entries)) {
    const [type, v] = entries[0];
    const inner = typeof v === 'object' && 'num' in v ? `"${v.num}"` : renderValue(v, render);
    if (!go.v1) return `&${go.types}.AttributeValueMember${type}{Value: ${inner}}`;
    const wrap = type === 'BOOL' || type === 'NULL' ? 'Bool' : 'String';
    return `{${type}: ${go.aws}.${wrap}(${inner})}`;
  }
  const items = entries.map(([k, v]) => {
    const val = renderValue(v, render);
    return `${goKey(k)}: ${go.v1 && k.startsWith('#') && val.startsWith('"') ? `${go.aws}.String(${val})` : val}`;
  });
  return `{${items.join(', ')}}`;
}

/** Is the `{...}` at `obj` the body of a map literal (string keys) rather than a struct's (field names)? */
function goIsMap(text: string, obj: ObjectNode): boolean {
  const before = text.slice(Math.max(0, obj.range.start - 300), obj.range.start);
  return /map\s*\[[^\]]*\]\s*\*?\s*[\w.]+\s*$/.test(before) || (obj.properties.length > 0 && /^["`]/.test(text[obj.properties[0].keyRange.start] ?? ''));
}

/** One entry as the literal writes it: `"k": v` in a map, `Field: v` in a request struct (strings and maps typed). */
export function goEntryText(text: string, go: GoSyntax, obj: ObjectNode, key: string, valueText: string): string {
  if (goIsMap(text, obj)) return `${goKey(key)}: ${go.v1 && key.startsWith('#') && /^["`]/.test(valueText) ? `${go.aws}.String(${valueText})` : valueText}`;
  let v = valueText;
  if (/^["`]/.test(v)) v = `${go.aws}.String(${v})`;
  else if (v.startsWith('{')) {
    if (key === 'ExpressionAttributeNames') v = (go.v1 ? 'map[string]*string' : 'map[string]string') + v;
    else if (key === 'ExpressionAttributeValues') v = (go.v1 ? `map[string]*${go.dynamodb}.AttributeValue` : `map[string]${go.types}.AttributeValue`) + v;
  }
  return `${key}: ${v}`;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Java                                                                                                               */

export function javaSyntax(text: string): JavaSyntax {
  return /\bcom\.amazonaws\.services\.dynamodbv2\b/.test(text) && !/\bsoftware\.amazon\.awssdk\b/.test(text) ? { v1: true } : {};
}

const JAVA_AV_METHOD: Record<string, string> = { NULL: 'nul', BOOL: 'bool' };

export function javaRender(syn: HostSyntax, java: JavaSyntax, entries: [string, Literal][]): string {
  const render = (m: [string, Literal][]) => javaRender(syn, java, m);
  if (isAv(entries)) {
    const [type, v] = entries[0];
    const inner = typeof v === 'object' && 'num' in v ? `"${v.num}"` : renderValue(v, render);
    if (java.v1) return `new AttributeValue().with${type}(${inner})`;
    return `AttributeValue.builder().${JAVA_AV_METHOD[type] ?? type.toLowerCase()}(${inner}).build()`;
  }
  const pairs = entries.map(([k, v]) => [renderValue(k, render), renderValue(v, render)]);
  if (pairs.length <= 10) return `Map.of(${pairs.map(([k, v]) => `${k}, ${v}`).join(', ')})`;
  return `Map.ofEntries(${pairs.map(([k, v]) => `Map.entry(${k}, ${v})`).join(', ')})`;
}

type JavaContainer = 'builder' | 'v1' | 'of' | 'ofEntries';

function javaContainer(text: string, obj: ObjectNode): JavaContainer | undefined {
  const src = text.slice(obj.range.start, obj.range.end);
  if (/^(?:java\s*\.\s*util\s*\.\s*)?Map\s*\.\s*ofEntries\s*\(/.test(src)) return 'ofEntries';
  if (/^(?:java\s*\.\s*util\s*\.\s*)?Map\s*\.\s*of\s*\(/.test(src)) return 'of';
  if (/\.\s*build\s*\(\s*\)$/.test(src) && /^[\w.]+\s*\.\s*builder\s*\(/.test(src)) return 'builder';
  // SDK for Java 1.x: `new UpdateItemRequest().withTableName(..)...`.
  if (/^new\s+[\w.]+\s*\(\s*\)\s*\.\s*with[A-Z]/.test(src) && /\)$/.test(src)) return 'v1';
  return undefined;
}

const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

export function javaEntryText(text: string, obj: ObjectNode, key: string, valueText: string): string {
  const kind = javaContainer(text, obj);
  if (kind === 'builder') return `.${lowerFirst(key)}(${valueText})`;
  if (kind === 'v1') return `.with${key}(${valueText})`;
  const k = renderValue(key, () => '');
  return kind === 'ofEntries' ? `Map.entry(${k}, ${valueText})` : `${k}, ${valueText}`;
}

/** Entries added to a builder chain (one call per line when the chain is laid out so), a `Map.of` or `Map.ofEntries`. */
export function javaInsert(text: string, obj: ObjectNode, entries: [string, string][]): TextEdit | undefined {
  const kind = javaContainer(text, obj);
  if (!kind || (kind === 'of' && obj.properties.length + entries.length > 10)) return undefined;
  const rendered = entries.map(([k, v]) => javaEntryText(text, obj, k, v));
  const own = obj.properties.filter((p) => p.range.start >= obj.range.start && p.range.end <= obj.range.end);
  const last = own[own.length - 1];
  const sep = kind === 'builder' || kind === 'v1' ? '' : ', ';
  if (!last) {
    if (kind === 'builder') {
      const at = obj.range.start + text.slice(obj.range.start, obj.range.end).lastIndexOf('.build');
      return { range: { start: at, end: at }, newText: rendered.join('') };
    }
    return { range: { start: obj.range.end - 1, end: obj.range.end - 1 }, newText: rendered.join(', ') };
  }
  const lineStart = text.lastIndexOf('\n', last.range.start - 1) + 1;
  const indent = text.slice(lineStart, last.range.start);
  const at = { start: last.range.end, end: last.range.end };
  if (/^\s*$/.test(indent)) return { range: at, newText: rendered.map((e) => `${sep.trim()}\n${indent}${e}`).join('') };
  return { range: at, newText: rendered.map((e) => `${sep}${e}`).join('') };
}
