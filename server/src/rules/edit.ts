/**
 * Host-aware text edits for fixes. Rules work on the value tree; these helpers turn "change this part of an expression
 * string" or "add this entry to that map" into document edits written in the host's own syntax (JSON, TS/JS, Python
 * dicts and keyword arguments), with the file's quote style and correct escaping.
 */
import type { ObjectNode, Property, Range, RequestSite, StringNode, VNode } from '../extract/model';
import { SourceLanguage, siteHost } from '../extract/hosts';
import { isVtlDirective } from '../extract/vtl';
import { plainBase } from '../core/strings';
import type { TextEdit } from './types';
import { yamlInsertProperties, yamlKey, yamlRemoveProperty, yamlReplaceInString, yamlReplaceSpans } from './edit-yaml';
import { GoSyntax, JavaSyntax, goEntryText, goKey, goRender, goSyntax, javaEntryText, javaInsert, javaRender, javaSyntax } from './edit-hosts';

/** A value to write into source: a string, a number (as decimal text), a map (entries in order), or raw host code. */
export type Literal = string | { num: string } | { map: [string, Literal][] } | { raw: string };

/**
 * The line break a document uses, as VS Code reads it (and then writes the whole buffer with: it normalises a file
 * with mixed breaks on load, `_getEOL` in its text buffer builder): CRLF when more than half of its line breaks start
 * with a CR (CRLF or a lone CR), else LF (a tie, one LF among them, or none at all). Not the first line's alone: a
 * CRLF file whose first line ends in LF got LF fix text. A document without CR is LF without counting; the last
 * document's answer is kept (every fix of a lint, and each suppression action, asks for the same text: review, a
 * 541 KB CRLF file's lint went from 101 to 966 ms while each asked again).
 */
export function lineBreakOf(text: string): '\n' | '\r\n' {
  if (text === lastBreak.text) return lastBreak.eol;
  let eol: '\n' | '\r\n' = '\n';
  let cr = 0;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) cr++;
  if (cr > 0) {
    let loneLf = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i === 0 || text.charCodeAt(i - 1) !== 13) loneLf++;
    if (cr > loneLf) eol = '\r\n';
  }
  lastBreak.text = text;
  lastBreak.eol = eol;
  return eol;
}
const lastBreak: { text: string | undefined; eol: '\n' | '\r\n' } = { text: undefined, eol: '\n' };

/** Edits written with LF, made to insert the document's own line break (a CRLF file stays CRLF). */
export function withLineBreaks<T extends TextEdit>(text: string, edits: T[]): T[] {
  const eol = lineBreakOf(text);
  if (eol === '\n' || !edits.some((e) => e.newText.includes('\n'))) return edits;
  return edits.map((e) => (e.newText.includes('\n') ? { ...e, newText: e.newText.replace(/\r?\n/g, eol) } : e));
}

/** What an edit needs to know about where it writes. */
export interface HostSyntax {
  host: SourceLanguage;
  /** Quote used for new string literals (always `"` in JSON, Go and Java). */
  quote: '"' | "'";
  /** Go: the SDK generation and the names its packages are imported as. */
  go?: GoSyntax;
  /** Java: how attribute values and maps are written in this file. */
  java?: JavaSyntax;
  /** AppSync (JS resolver or VTL template): the request is AppSync's shape, renamed to DynamoDB's (extract/appsync-shape.ts). */
  appsync?: boolean;
  /** An AppSync VTL template: Velocity reads `#end`, `#set`, `#if`... as directives even inside a JSON string. */
  vtl?: boolean;
}

/**
 * The `#placeholder` base for an attribute name: `#` + its letters, digits and `_` (`#attr` when none). In a VTL
 * template a name Velocity would read as a directive (`#end`, `#set`, `#if`, `#return`...: reserved words both) gets
 * `Attr` appended (`#endAttr`), so the fix does not break the template.
 */
export function namePlaceholder(syn: HostSyntax, name: string): string {
  const base = '#' + (name.replace(/[^A-Za-z0-9_]/g, '') || 'attr');
  return syn.vtl && isVtlDirective(base) ? `${base}Attr` : base;
}

export function hostSyntax(text: string, site: RequestSite): HostSyntax {
  const syn = hostSyntaxOf(text, site);
  if (site.sdk.startsWith('appsync')) syn.appsync = true;
  if (site.sdk === 'appsync-vtl') syn.vtl = true;
  return syn;
}

function hostSyntaxOf(text: string, site: RequestSite): HostSyntax {
  const host = siteHost(site);
  if (host === 'go') return { host, quote: '"', go: goSyntax(text, site) };
  if (host === 'java') return { host, quote: '"', java: javaSyntax(text) };
  if (host === 'yaml') return { host, quote: '"' };
  if (site.host === 'json') return { host: 'json', quote: '"' };
  const q = firstQuote(text, site.params);
  return { host: site.host, quote: q ?? "'" };
}

function firstQuote(text: string, node: VNode): '"' | "'" | undefined {
  if (node.kind === 'string') {
    const m = /^[rRbBuUfF]*(["'])/.exec(text.slice(node.range.start, node.range.start + 4));
    return m ? (m[1] as '"' | "'") : undefined;
  }
  const children = node.kind === 'object' ? node.properties.map((p) => p.value) : node.kind === 'array' || node.kind === 'set' ? node.items : [];
  for (const c of children) {
    const q = firstQuote(text, c);
    if (q) return q;
  }
  return undefined;
}

/** Escape text for insertion inside an existing string literal of the host (whatever its quote). */
export function escapeInString(host: SourceLanguage, s: string): string {
  if (host === 'json') return JSON.stringify(s).slice(1, -1);
  // Most texts (a placeholder, `if_not_exists(`, an attribute name) hold nothing any host escapes: as they are.
  if (!NEEDS_ESCAPE.test(s)) return s;
  // Go and Java: `\'` is not an escape in a Go string, a backquote needs none.
  if (host === 'go' || host === 'java') return s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t').replace(/"/g, '\\"');
  let out = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/'/g, "\\'").replace(/"/g, '\\"');
  if (host !== 'python') out = out.replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
  return out;
}

/** A character `escapeInString` escapes for some host other than JSON (`$` for `${`). */
const NEEDS_ESCAPE = /[\\\n\r\t'"`$]/;

/** A complete string literal in the host's syntax. */
export function stringLiteral(syn: HostSyntax, s: string): string {
  if (syn.host === 'json' || syn.host === 'yaml') return JSON.stringify(s);
  if (syn.host === 'go' || syn.host === 'java') return `"${escapeInString(syn.host, s)}"`;
  if (!NEEDS_ESCAPE.test(s)) return syn.quote + s + syn.quote;
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').split(syn.quote).join('\\' + syn.quote);
  return syn.quote + body + syn.quote;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** A map key in the host's syntax (`"k"` in JSON, `k` or `'k'` in TS/JS, `'k'` in Python dicts). */
export function keyLiteral(syn: HostSyntax, key: string): string {
  if (syn.go) return goKey(key);
  if ((syn.host === 'typescript' || syn.host === 'javascript') && IDENT.test(key)) return key;
  if (syn.host === 'yaml') return yamlKey(key);
  return stringLiteral(syn, key);
}

/** Render a literal value in host syntax. Maps are written on one line: `{ N: '0' }`, `{"N": "0"}`, `{'N': '0'}`. */
export function renderLiteral(syn: HostSyntax, v: Literal): string {
  if (typeof v === 'string') return stringLiteral(syn, v);
  if ('num' in v) return v.num;
  if ('raw' in v) return v.raw;
  if (syn.go) return goRender(syn, syn.go, v.map);
  if (syn.java) return javaRender(syn, syn.java, v.map);
  const entries = v.map.map(([k, x]) => `${keyLiteral(syn, k)}: ${renderLiteral(syn, x)}`).join(', ');
  if (!entries) return '{}';
  return syn.host === 'typescript' || syn.host === 'javascript' ? `{ ${entries} }` : `{${entries}}`;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Edits inside a string node (expression strings), in value coordinates.                                             */

/** A replacement inside a string node, in value coordinates (`start === end`: an insertion). */
export interface StringSpan {
  start: number;
  end: number;
  newText: string;
}

/**
 * Several replacements in one string (not overlapping): each in place when every one can be, else the string rewritten
 * once with all of them (a rewrite next to in-place edits would overlap them). YAML judges the value they make
 * together (`yamlReplaceSpans`).
 */
export function replaceSpansInString(text: string, syn: HostSyntax, node: StringNode, spans: StringSpan[]): TextEdit[] {
  if (syn.host === 'yaml') return yamlReplaceSpans(text, node, spans);
  const edits = spans.map((s) => replaceInString(text, syn, node, s.start, s.end, s.newText));
  if (spans.length < 2 || !edits.some((e) => e.range.start === node.range.start && e.range.end === node.range.end)) return edits;
  let next = node.value;
  for (const s of [...spans].sort((x, y) => y.start - x.start)) next = next.slice(0, s.start) + s.newText + next.slice(s.end);
  return [rewriteString(text, syn, node, next)];
}

/** Insert `s` before `value[at]` (at = value.length appends). */
export function insertInString(text: string, syn: HostSyntax, node: StringNode, at: number, s: string): TextEdit {
  const i = Math.max(0, Math.min(at, node.value.length));
  return replaceInString(text, syn, node, i, i, s);
}

/**
 * Replace `value.slice(a, b)` with `s`. When the slice crosses pieces of a concatenation (the source between its
 * characters is not the characters themselves or escapes), the whole literal is rewritten as one string instead.
 */
export function replaceInString(text: string, syn: HostSyntax, node: StringNode, a: number, b: number, s: string): TextEdit {
  if (syn.host === 'yaml') return yamlReplaceInString(text, node, a, b, s);
  let escaped = escapeInString(syn.host, s);
  const head = text.slice(node.range.start, node.range.start + 10);
  // Raw strings (Python r'...', String.raw, Go `...`) cannot take escapes: rewrite the literal when the text needs any.
  let raw = escaped !== s && /^(?:[bBuUfF]?[rR]|[rR][bBfF]|String\.raw)/.test(head);
  if (syn.host === 'go' && head.startsWith('`')) [escaped, raw] = [s, /[`\r]/.test(s)];
  // A Java text block takes line breaks and quotes as they are; `\` still escapes and `"""` would close it.
  if (syn.host === 'java' && head.startsWith('"""')) [escaped, raw] = [s.replace(/\\/g, '\\\\'), /"""|\r/.test(s)];
  // A literal without escapes is its own source, char for char (offsets base + i: its offsets array is not built).
  const base = plainBase(node);
  if (!raw && base !== undefined) return { range: { start: base + a, end: base + b }, newText: escaped };
  if (!raw && contiguous(text, node, a, b)) return { range: { start: node.offsets[a], end: node.offsets[b] }, newText: escaped };
  return { range: node.range, newText: stringLiteral(syn, node.value.slice(0, a) + s + node.value.slice(b)) };
}

function contiguous(text: string, node: StringNode, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const src = text.slice(node.offsets[i], node.offsets[i + 1]);
    if (src !== node.value[i] && !src.startsWith('\\')) return false;
  }
  return true;
}

/** The smallest edit turning the string's value into `next` (common prefix and suffix kept). */
export function rewriteString(text: string, syn: HostSyntax, node: StringNode, next: string): TextEdit {
  const cur = node.value;
  let p = 0;
  while (p < cur.length && p < next.length && cur[p] === next[p]) p++;
  let s = 0;
  while (s < cur.length - p && s < next.length - p && cur[cur.length - 1 - s] === next[next.length - 1 - s]) s++;
  return replaceInString(text, syn, node, p, cur.length - s, next.slice(p, next.length - s));
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Adding an entry to a map / keyword-argument list.                                                                  */

/**
 * True when entries added after the object's last entry are Python keyword arguments rather than dict entries: a
 * call's arguments (not starting with `{`) whose last entry is itself `name=value`. Entries taken from `**params`
 * live in the dict `params` is bound to, so the new ones are written there in dict syntax.
 */
function isKeywordArgs(text: string, syn: HostSyntax, obj: ObjectNode): boolean {
  if (syn.host !== 'python' || text[obj.range.start] === '{') return false;
  const last = lastEntry(text, syn, obj);
  return !last || /^[ \t]*=/.test(text.slice(last.keyRange.end, last.range.end));
}

/**
 * The entry new ones go after: the last one; for Python keyword arguments the last written in the call itself, so
 * `f(**BASE, K=v)` grows in the call rather than in a dict other calls may share (entries of `**BASE` live there).
 */
function lastEntry(text: string, syn: HostSyntax, obj: ObjectNode): Property | undefined {
  const props = obj.properties;
  if (syn.host === 'python' && text[obj.range.start] !== '{') {
    const own = props.filter((p) => p.range.start >= obj.range.start && p.range.end <= obj.range.end);
    if (own.length) return own[own.length - 1];
  }
  return props[props.length - 1];
}

/** One `key: value` entry (`key=value` for Python keyword arguments) as the object writes it. */
export function entryText(text: string, syn: HostSyntax, obj: ObjectNode, key: string, valueText: string): string {
  if (syn.go) return goEntryText(text, syn.go, obj, key, valueText);
  if (syn.java) return javaEntryText(text, obj, key, valueText);
  return isKeywordArgs(text, syn, obj) ? `${key}=${valueText}` : `${keyLiteral(syn, key)}: ${valueText}`;
}

/**
 * Add `key: value` entries to an object literal (or `key=value` to Python keyword arguments), after its last entry,
 * keeping the layout: a new line with the same indentation for multi-line literals, `, key: value` on one line
 * otherwise, and a trailing comma when the literal uses them. One edit, so several entries never collide.
 */
export function insertProperties(text: string, syn: HostSyntax, obj: ObjectNode, entries: [string, string][]): TextEdit | undefined {
  if (syn.go && syn.go.missing) return undefined;
  if (syn.java) return javaInsert(text, obj, entries);
  if (syn.host === 'yaml') return yamlInsertProperties(text, obj, entries);
  if (syn.appsync && !writtenAsIs(text, obj)) return undefined;
  const rendered = entries.map(([key, value]) => entryText(text, syn, obj, key, value));
  const last = lastEntry(text, syn, obj);
  if (!last) {
    const at = obj.range.start + 1;
    const pad = syn.host === 'json' || syn.host === 'python' || syn.host === 'go' ? '' : ' ';
    return { range: { start: at, end: obj.range.end - 1 }, newText: `${pad}${rendered.join(', ')}${pad}` };
  }
  let i = last.range.end;
  while (i < text.length && /[ \t]/.test(text[i])) i++;
  const trailingComma = text[i] === ',';
  const lineStart = text.lastIndexOf('\n', last.range.start - 1) + 1;
  const indent = text.slice(lineStart, last.range.start);
  // The last entry starting its own line means a multi-line layout (it may live outside obj's range: `**params`).
  const multiLine = /^\s*$/.test(indent);
  if (!multiLine) return { range: { start: last.range.end, end: last.range.end }, newText: rendered.map((e) => `, ${e}`).join('') };
  if (trailingComma) return { range: { start: i + 1, end: i + 1 }, newText: rendered.map((e) => `\n${indent}${e},`).join('') };
  return { range: { start: last.range.end, end: last.range.end }, newText: rendered.map((e) => `,\n${indent}${e}`).join('') };
}

/**
 * AppSync: whether entries may be added to `obj` where it is written — a map written as such (`{` at its start, every
 * entry inside it, keys as written). A renamed object (the request, `{ Update: ... }`, a Key/Item merged for PutItem,
 * `update`'s and `condition`'s maps merged) would get DynamoDB's field names where AppSync has none: no fix.
 */
function writtenAsIs(text: string, obj: ObjectNode): boolean {
  if (!obj.properties.length || text[obj.range.start] !== '{') return false;
  return obj.properties.every((p) => {
    const k = text.slice(p.keyRange.start, p.keyRange.end);
    return p.range.start >= obj.range.start && p.range.end <= obj.range.end && (k === p.key || (/^["'`]/.test(k) && k.slice(1, -1) === p.key));
  });
}

/** Remove an entry of an object literal / keyword arguments, with the comma that separates it from its neighbour. */
export function removeProperty(obj: ObjectNode, entry: Property, yaml?: { text: string }): TextEdit {
  if (yaml) return yamlRemoveProperty(yaml.text, obj, entry);
  // Neighbours are the entries written next to it: entries taken from `**params` live in another literal.
  const inside = (p: Property) => p.range.start >= obj.range.start && p.range.end <= obj.range.end;
  const siblings = obj.properties.filter((p) => inside(p) === inside(entry)).sort((a, b) => a.range.start - b.range.start);
  const i = siblings.indexOf(entry);
  if (i < siblings.length - 1) return { range: { start: entry.range.start, end: siblings[i + 1].range.start }, newText: '' };
  if (i > 0) return { range: { start: siblings[i - 1].range.end, end: entry.range.end }, newText: '' };
  return { range: entry.range, newText: '' };
}

/** Apply non-overlapping edits to a text (used by tests and the CLI's `--fix`). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end);
  let out = text;
  let limit = Infinity;
  for (const e of sorted) {
    if (e.range.end > limit) throw new Error('overlapping edits');
    out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
    limit = e.range.start;
  }
  return out;
}

/**
 * Change the type of a low-level attribute value whose type key is at `key` (`{S: ...}` -> `{N: ...}`): the key's
 * letters as written (`S`, `AttributeValueMemberS`, Java's `fromS` / builder `.s(`).
 */
export function attributeTypeEdit(text: string, key: Range, from: string, to: string): TextEdit | undefined {
  const keyText = text.slice(key.start, key.end);
  const upper = keyText.lastIndexOf(from);
  if (upper >= 0) return { range: { start: key.start + upper, end: key.start + upper + from.length }, newText: to };
  const lower = keyText.lastIndexOf(from.toLowerCase());
  return lower >= 0 ? { range: { start: key.start + lower, end: key.start + lower + from.length }, newText: to.toLowerCase() } : undefined;
}

/**
 * Whether a fix may write a host variable into the request as a value (`{ N: String(nextValue) }`): not in JSON, nor in
 * Go and Java, whose typed attribute values would need a conversion we cannot know.
 */
export function writesVariables(site: RequestSite): boolean {
  const host = siteHost(site);
  return host !== 'json' && host !== 'go' && host !== 'java' && host !== 'yaml';
}
