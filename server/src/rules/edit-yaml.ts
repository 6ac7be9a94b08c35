/**
 * Fix edits written as YAML (rules/edit.ts delegates here for YAML sites): text inserted into a scalar in that
 * scalar's own style (plain, 'single' with '' escapes, "double" with \ escapes, block scalars), or the scalar rewritten
 * as one double-quoted string when the text would not survive in that style; new entries as `key: value` lines at the
 * map's own indentation (block maps) or `, key: value` (flow maps); removal of an entry with its lines.
 */
import type { ObjectNode, Property, StringNode } from '../extract/model';
import type { TextEdit } from './types';

/** A YAML double-quoted scalar: JSON's string syntax is valid YAML. */
export const yamlString = (s: string): string => JSON.stringify(s);

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const SPECIAL = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

/** A map key: plain when it reads back as that string, else double-quoted (`":one"`, `"#n"`). */
export function yamlKey(key: string): string {
  return PLAIN_KEY.test(key) && !SPECIAL.test(key) ? key : yamlString(key);
}

type Style = 'plain' | 'single' | 'double' | 'block';

function styleOf(text: string, node: StringNode): Style {
  const c = text[node.range.start];
  return c === "'" ? 'single' : c === '"' ? 'double' : c === '|' || c === '>' ? 'block' : 'plain';
}

/** Could `v` be written as a one-line plain scalar in any context and read back as this string? */
function plainOk(v: string): boolean {
  return (
    v.length > 0 &&
    !/[\n\r\t,[\]{}]/.test(v) &&
    !/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(v) &&
    !/\s$/.test(v) &&
    !/: |:$| #/.test(v) &&
    !SPECIAL.test(v) &&
    !/^[-+]?(\.?\d|\.inf|\.nan)/i.test(v)
  );
}

/** The whole scalar rewritten as a double-quoted string (a block scalar keeps the line break after it). */
function rewrite(text: string, node: StringNode, value: string): TextEdit {
  const end = styleOf(text, node) === 'block' && text[node.range.end - 1] === '\n' ? node.range.end - (text[node.range.end - 2] === '\r' ? 2 : 1) : node.range.end;
  return { range: { start: node.range.start, end }, newText: yamlString(value) };
}

/** Replace `value.slice(a, b)` of a YAML scalar with `s`. */
export function yamlReplaceInString(text: string, node: StringNode, a: number, b: number, s: string): TextEdit {
  return yamlReplaceSpans(text, node, [{ start: a, end: b, newText: s }])[0];
}

/**
 * Several replacements in one YAML scalar (value offsets, not overlapping), judged on the value they make together:
 * each written in place in the scalar's style when every one can be and the result still reads back (a plain scalar
 * with ` #` would end at a comment), else the scalar rewritten once as a double-quoted string (never both: they would
 * overlap).
 */
export function yamlReplaceSpans(text: string, node: StringNode, spans: { start: number; end: number; newText: string }[]): TextEdit[] {
  let next = node.value;
  for (const sp of [...spans].sort((x, y) => y.start - x.start)) next = next.slice(0, sp.start) + sp.newText + next.slice(sp.end);
  const edits: TextEdit[] = [];
  for (const sp of spans) {
    const e = inPlace(text, node, sp.start, sp.end, sp.newText, next);
    if (!e) return [rewrite(text, node, next)];
    edits.push(e);
  }
  return edits;
}

/** `value.slice(a, b)` replaced with `s` in the scalar's own style, when `next` (the value after every edit) survives it. */
function inPlace(text: string, node: StringNode, a: number, b: number, s: string, next: string): TextEdit | undefined {
  const style = styleOf(text, node);
  // An insertion after trailing line breaks (block scalars end with one) goes before them: same expression.
  while (a === b && a > 0 && node.value[a - 1] === '\n' && style === 'block') a = b = a - 1;
  // Characters written as themselves between a and b (an escape counts as one in a double-quoted scalar).
  for (let i = a; i < b; i++) {
    const src = text.slice(node.offsets[i], node.offsets[i + 1]);
    if (src !== node.value[i] && !(style === 'double' && src.startsWith('\\'))) return undefined;
  }
  const at = { start: node.offsets[a], end: node.offsets[b] };
  switch (style) {
    case 'double':
      return { range: at, newText: yamlString(s).slice(1, -1) };
    case 'single':
      return /[\n\r]/.test(s) ? undefined : { range: at, newText: s.replace(/'/g, "''") };
    case 'block':
      return /[\n\r]/.test(s) || (a === 0 && /^\s/.test(s)) ? undefined : { range: at, newText: s };
    default:
      return !node.value.includes('\n') && plainOk(next) ? { range: at, newText: s } : undefined;
  }
}

const lineStart = (text: string, o: number) => text.lastIndexOf('\n', o - 1) + 1;

/** Where a block entry's last line ends (before its line break). */
function lineEndAfter(text: string, end: number): number {
  // A block scalar's range ends after its final line break.
  if (text[end - 1] === '\n') return end - (text[end - 2] === '\r' ? 2 : 1);
  const nl = text.indexOf('\n', end);
  if (nl < 0) return text.length;
  return text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Add `key: value` entries (already rendered as YAML) to a map. One edit. */
export function yamlInsertProperties(text: string, obj: ObjectNode, entries: [string, string][]): TextEdit {
  const rendered = entries.map(([k, v]) => `${yamlKey(k)}: ${v}`);
  const props = [...obj.properties].sort((x, y) => x.range.start - y.range.start);
  const last = props[props.length - 1];
  if (text[obj.range.start] === '{') {
    if (!last) return { range: { start: obj.range.start + 1, end: obj.range.end - 1 }, newText: rendered.join(', ') };
    return { range: { start: last.range.end, end: last.range.end }, newText: rendered.map((e) => `, ${e}`).join('') };
  }
  if (!last) return { range: obj.range, newText: `{${rendered.join(', ')}}` };
  const first = props[0];
  const indent = ' '.repeat(first.keyRange.start - lineStart(text, first.keyRange.start));
  const at = lineEndAfter(text, last.range.end);
  return { range: { start: at, end: at }, newText: rendered.map((e) => `\n${indent}${e}`).join('') };
}

/** Remove one entry of a map: its lines in a block map, the entry and a comma in a flow map. */
export function yamlRemoveProperty(text: string, obj: ObjectNode, p: Property): TextEdit {
  const siblings = [...obj.properties].sort((x, y) => x.range.start - y.range.start);
  const i = siblings.indexOf(p);
  if (text[obj.range.start] === '{') {
    if (i < siblings.length - 1) return { range: { start: p.range.start, end: siblings[i + 1].range.start }, newText: '' };
    if (i > 0) return { range: { start: siblings[i - 1].range.end, end: p.range.end }, newText: '' };
    return { range: p.range, newText: '' };
  }
  const ls = lineStart(text, p.range.start);
  // An entry sharing its line with a sequence dash (`- Put:`): the next entry moves up behind the dash.
  if (!/^[ \t]*$/.test(text.slice(ls, p.range.start))) {
    if (i < siblings.length - 1) return { range: { start: p.range.start, end: siblings[i + 1].range.start }, newText: '' };
    return { range: p.range, newText: '' };
  }
  const end = lineEndAfter(text, p.range.end);
  const after = text[end] === '\r' ? end + 2 : text[end] === '\n' ? end + 1 : end;
  return { range: { start: ls, end: after }, newText: '' };
}
