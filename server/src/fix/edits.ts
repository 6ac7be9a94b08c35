/**
 * Removal edits on the extracted value tree (the insertion/rendering helpers live in rules/edit.ts): drop one entry of
 * an object literal / dict / keyword-argument list / JSON object with its separating comma, or the whole map when it
 * would become empty. Computed from node ranges and the document text only.
 */
import type { HostLanguage, ObjectNode, Property, RequestSite } from '../extract/model';
import { hostSyntax } from '../rules/edit';
import { yamlRemoveProperty } from '../rules/edit-yaml';
import type { TextEdit } from '../rules/types';

/** The quote character the request's own string literals use (`"` in JSON). */
export function quoteOf(text: string, site: RequestSite): '"' | "'" {
  return hostSyntax(text, site).quote;
}

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/** Skip whitespace and comments forward from `pos`. */
function skipTrivia(text: string, pos: number, host: HostLanguage): number {
  for (;;) {
    while (pos < text.length && isSpace(text[pos])) pos++;
    if (host === 'python' ? text[pos] === '#' : text.startsWith('//', pos)) {
      const nl = text.indexOf('\n', pos);
      pos = nl < 0 ? text.length : nl + 1;
    } else if (host !== 'python' && text.startsWith('/*', pos)) {
      const close = text.indexOf('*/', pos + 2);
      pos = close < 0 ? text.length : close + 2;
    } else return pos;
  }
}

/** After a comma: skip the rest of its line (spaces, a comment) and, at a line break, the next line's indentation. */
function skipToNextElement(text: string, pos: number, host: HostLanguage): number {
  while (pos < text.length && (text[pos] === ' ' || text[pos] === '\t')) pos++;
  if (host === 'python' ? text[pos] === '#' : text.startsWith('//', pos)) {
    const nl = text.indexOf('\n', pos);
    pos = nl < 0 ? text.length : nl;
  } else if (host !== 'python' && text.startsWith('/*', pos)) {
    const close = text.indexOf('*/', pos + 2);
    if (close >= 0 && !text.slice(pos, close).includes('\n')) return skipToNextElement(text, close + 2, host);
  }
  if (text[pos] === '\r') pos++;
  if (text[pos] === '\n') {
    pos++;
    while (pos < text.length && (text[pos] === ' ' || text[pos] === '\t')) pos++;
  }
  return pos;
}

/**
 * Remove one entry of an object with its separating comma, leaving the rest laid out as it was:
 * `a, p, b` -> `a, b` (a comment on p's line goes with it); a last entry takes the comma before it (a trailing comma
 * after it stays). Elements the tree does not model (spreads) are kept.
 */
export function removeProperty(text: string, obj: ObjectNode, p: Property, host: HostLanguage): TextEdit {
  if (host === 'yaml') return yamlRemoveProperty(text, obj, p);
  const prev = obj.properties.filter((q) => q !== p && q.range.end <= p.range.start).sort((a, b) => b.range.end - a.range.end)[0];
  const after = skipTrivia(text, p.range.end, host);
  if (text[after] === ',') {
    const resume = skipToNextElement(text, after + 1, host);
    const closes = /[}\])]/.test(text[skipTrivia(text, after + 1, host)] ?? '');
    if (!closes) return { range: { start: p.range.start, end: resume }, newText: '' };
    if (!prev) return { range: { start: p.range.start, end: after + 1 }, newText: '' };
  }
  if (prev && text[skipTrivia(text, prev.range.end, host)] === ',') return { range: { start: prev.range.end, end: p.range.end }, newText: '' };
  // Preceded by something we do not model (a spread): remove back to the comma before it.
  let i = p.range.start - 1;
  while (i > obj.range.start && isSpace(text[i])) i--;
  if (text[i] === ',') return { range: { start: i, end: p.range.end }, newText: '' };
  return { range: p.range, newText: '' };
}

/**
 * Remove entry `key` of the map held by `owner[mapKey]`; when it is the map's only entry (and the map has no spreads),
 * remove the map's own entry from `owner` instead. Undefined when the key is not in the map.
 */
export function removeMapEntry(text: string, owner: ObjectNode, mapKey: string, key: string, host: HostLanguage): TextEdit | undefined {
  const mapEntry = owner.properties.filter((p) => p.key === mapKey).pop();
  if (!mapEntry || mapEntry.value.kind !== 'object') return undefined;
  const map = mapEntry.value;
  const entry = map.properties.filter((p) => p.key === key).pop();
  if (!entry) return undefined;
  if (map.properties.length === 1 && map.complete) return removeProperty(text, owner, mapEntry, host);
  return removeProperty(text, map, entry, host);
}
