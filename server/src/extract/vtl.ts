/**
 * AppSync VTL mapping templates (`*.vtl`, language ids `vtl` / `velocity`): the JSON-like body of a DynamoDB resolver
 * (`{"version": "2018-05-29", "operation": "UpdateItem", "key": {...}, "update": {...}, "condition": {...}}`).
 *
 * VTL is blanked out first, offsets kept: comments (`##`, `#* *#`) and directives (`#set(...)`, `#if(...)`, `#else`,
 * `#end`, `#foreach(...)`, ...) become spaces; a reference (`$ctx.args.id`, `$util.toJson($x)`, `${x}`, `$!{x}`) in a
 * value position (after `:`, or an item of a JSON array) becomes a same-length JSON number placeholder that is then
 * read as unknown, inside a JSON string it makes that string unknown, and anywhere else it is a statement
 * (`$util.qr($map.put(...))`) blanked like a directive. `$util.dynamodb.toDynamoDBJson(1)` (also `toNumberJson`, `toStringJson`,
 * `toBooleanJson`) with a literal argument is that attribute value (`{N: 1}`, its type key an empty range: no fix renames it); with anything else, unknown. The JSON is
 * read by json.ts's reader, the AppSync shape mapped by appsync-shape.ts. An object holding a directive directly (an
 * entry under `#if`) is incomplete. Values are low-level (typed JSON). Sites: `host: 'json'` (fixes are JSON),
 * `sdk: 'appsync-vtl'`.
 */
import type { ObjectNode, Property, Range, RequestSite, VNode } from './model';
import { parseJsonValue } from './json';
import { inferStyle } from './infer';
import { decodeJs } from './strings';
import { APPSYNC_OPERATIONS, appSyncOperation, mapAppSyncRequest } from './appsync-shape';

export const isVtl = (languageId: string): boolean => languageId === 'vtl' || languageId === 'velocity';

/** A reference replaced in the text: where, and what it stood for. */
interface Region {
  start: number;
  end: number;
  /** Inside a JSON string (the string is unknown) vs a value of its own. */
  inString: boolean;
  /** `toDynamoDBJson(<literal>)`: the attribute value it is. */
  typed?: VNode;
}

/** A directive's or reference's closing offset past balanced `(...)`, strings inside skipped; -1 when unbalanced. */
function balanced(text: string, open: number, close: string, openCh: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const q = c;
      for (i++; i < text.length && text[i] !== q; i++) if (text[i] === '\\') i++;
    } else if (c === openCh) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return -1;
}

const IDENT = /[A-Za-z_]/;
const IDENT_CHAR = /[\w-]/;

/**
 * End of a VTL reference starting at `$` (offset `i`), or -1 when `$` does not start one. `${...}` is a reference only
 * when an identifier chain follows the brace and `}` closes it right after (as Velocity reads it); anything else is
 * text. (Scanning for any balanced `}` made every `${` of a template without one read to its end: quadratic.)
 */
function referenceEnd(text: string, i: number): number {
  let j = i + 1;
  if (text[j] === '!') j++;
  if (text[j] === '{') {
    const e = chainEnd(text, j + 1);
    if (e < 0 || e >= text.length) return e;
    return text[e] === '}' ? e + 1 : -1;
  }
  return chainEnd(text, j);
}

/** End of an identifier chain (`a.b.c(...)[...]`) starting at `j`, -1 when none starts there; the text's end when an argument list is not closed. */
function chainEnd(text: string, j: number): number {
  if (!IDENT.test(text[j] ?? '')) return -1;
  while (j < text.length && IDENT_CHAR.test(text[j])) j++;
  for (;;) {
    if (text[j] === '.' && IDENT.test(text[j + 1] ?? '')) {
      j++;
      while (j < text.length && IDENT_CHAR.test(text[j])) j++;
    } else if (text[j] === '(' || text[j] === '[') {
      const e = balanced(text, j, text[j] === '(' ? ')' : ']', text[j]);
      if (e < 0) return text.length;
      j = e;
    } else return j;
  }
}

const DIRECTIVE = /^#\{?(set|if|elseif|else|end|foreach|break|stop|return|macro|define|evaluate|parse|include)\b\}?/;

/** Whether Velocity reads `text` (`#end`, `#{set}`, `#if(`...) as the start of a directive, inside a JSON string too. */
export const isVtlDirective = (text: string): boolean => DIRECTIVE.test(text);

/** Typed value of `$util.dynamodb.to*Json(<literal>)` (low-level), else undefined. */
function typedValue(text: string, start: number, end: number): VNode | undefined {
  const m = /^\$!?\{?util\.dynamodb\.(toDynamoDBJson|toNumberJson|toStringJson|toBooleanJson)\(\s*/.exec(text.slice(start, end));
  if (!m) return undefined;
  const argStart = start + m[0].length;
  const close = text.lastIndexOf(')', end);
  if (close < argStart) return undefined;
  let argEnd = close;
  while (argEnd > argStart && /\s/.test(text[argEnd - 1])) argEnd--;
  const arg = text.slice(argStart, argEnd);
  const range = { start: argStart, end: argEnd };
  let type: string;
  let inner: VNode;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(arg) && m[1] !== 'toStringJson' && m[1] !== 'toBooleanJson') [type, inner] = ['N', { kind: 'number', text: arg, range }];
  else if (/^(true|false)$/.test(arg) && (m[1] === 'toDynamoDBJson' || m[1] === 'toBooleanJson')) [type, inner] = ['BOOL', { kind: 'bool', value: arg === 'true', range }];
  // A single-quoted VTL string is literal; double quotes interpolate, so only without `$`, `#` or escapes.
  else if ((/^'[^'\n]*'$/.test(arg) || /^"[^"\\$#\n]*"$/.test(arg)) && (m[1] === 'toDynamoDBJson' || m[1] === 'toStringJson')) [type, inner] = ['S', decodeJs(arg.slice(1, -1), argStart + 1, range)];
  else return undefined;
  return { kind: 'object', properties: [{ key: type, keyRange: { start, end: start }, value: inner, range: { start, end } }], complete: true, range: { start, end } };
}

/**
 * The template with VTL blanked out (same length), the references replaced, and where directives were (an object
 * holding one is incomplete).
 */
export function blankVtl(text: string): { json: string; regions: Region[]; directives: number[] } {
  // The output as pieces: the text between blanked spans, sliced once (a char array of the whole template, joined
  // again, was most of the cost of reading one).
  const out: string[] = [];
  let copied = 0;
  const regions: Region[] = [];
  const directives: number[] = [];
  /** Blank [a, b) with `ch` (line breaks kept), the first char `head` when given; spans come in document order. */
  const fill = (a: number, b: number, ch: string, head?: string) => {
    out.push(text.slice(copied, a));
    let piece = head ?? '';
    for (let k = a + piece.length; k < b; k++) {
      const x = text.charCodeAt(k);
      piece += x === 10 || x === 13 ? text[k] : ch;
    }
    out.push(piece);
    copied = b;
  };
  let inString = false;
  // Open JSON brackets, and the last JSON character written (not blanked): where a reference stands for a value.
  const open: string[] = [];
  let prev = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Most characters of a template (printable ASCII but quotes, escapes, brackets, # and $): only the last JSON
    // character to remember.
    if (code > 32 && code < 127 && code !== 34 && code !== 35 && code !== 36 && code !== 92 && code !== 91 && code !== 93 && code !== 123 && code !== 125) {
      if (!inString) prev = text[i];
      continue;
    }
    // Spaces, tabs and line breaks: nothing at all.
    if (code === 32 || code === 10 || code === 13 || code === 9) continue;
    const c = text[i];
    if (inString && c === '\\') {
      i++;
      continue;
    }
    if (c === '"') {
      inString = !inString;
      prev = '"';
      continue;
    }
    if (!inString && !/\s/.test(c) && c !== '#' && c !== '$') {
      if (c === '{' || c === '[') open.push(c);
      else if (c === '}' || c === ']') open.pop();
      prev = c;
    }
    if (c === '#' && !inString && text[i + 1] === '#') {
      const nl = text.indexOf('\n', i);
      const end = nl < 0 ? text.length : nl;
      fill(i, end, ' ');
      i = end - 1;
      continue;
    }
    if (c === '#' && !inString && text[i + 1] === '*') {
      const close = text.indexOf('*#', i + 2);
      const end = close < 0 ? text.length : close + 2;
      fill(i, end, ' ');
      i = end - 1;
      continue;
    }
    if (c === '#') {
      const m = DIRECTIVE.exec(text.slice(i, i + 12));
      if (!m) continue;
      let end = i + m[0].length;
      let k = end;
      while (k < text.length && (text[k] === ' ' || text[k] === '\t')) k++;
      if (text[k] === '(' && !/^#\{?(else|end|break|stop)\b/.test(m[0])) {
        const e = balanced(text, k, ')', '(');
        end = e < 0 ? text.length : e;
      }
      if (inString) {
        regions.push({ start: i, end, inString });
        fill(i, end, '_');
      } else {
        directives.push(i);
        fill(i, end, ' ');
      }
      i = end - 1;
      continue;
    }
    if (c === '$') {
      const end = referenceEnd(text, i);
      if (end < 0) continue;
      if (inString) fill(i, end, '_');
      else if (prev === ':' || (open[open.length - 1] === '[' && (prev === '[' || prev === ','))) {
        fill(i, end, ' ', '0');
        prev = '0';
      } else {
        // Not where a value goes (`$util.qr($map.put(...))` on its own line): a statement, blanked like a directive.
        fill(i, end, ' ');
        directives.push(i);
        i = end - 1;
        continue;
      }
      regions.push({ start: i, end, inString, typed: inString ? undefined : typedValue(text, i, end) });
      i = end - 1;
    }
  }
  out.push(text.slice(copied));
  return { json: out.join(''), regions, directives };
}

/** First index of a sorted list whose value is >= x. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether a directive stands directly in a container spanning (start, end): inside it but in none of its children
 * (document order). Directives and children are walked together, each directive inside a child skipped by a binary
 * search to the child's end, so the whole tree costs its size plus its direct directives (it was the product of
 * objects and directives: quadratic on a large template).
 */
function holdsDirective(directives: readonly number[], start: number, end: number, children: readonly Range[]): boolean {
  let k = lowerBound(directives, start + 1);
  let c = 0;
  while (k < directives.length && directives[k] < end) {
    const d = directives[k];
    while (c < children.length && children[c].end <= d) c++;
    if (c >= children.length || !(children[c].start < d)) return true;
    k = lowerBound(directives, children[c].end);
  }
  return false;
}

/** Replace, in a value tree, what the blanking stood in for: unknown values, typed values, incomplete objects. */
function restore(text: string, root: VNode, regions: Region[], directives: number[]): VNode {
  if (!regions.length && !directives.length) return root;
  const starts = new Map(regions.filter((r) => !r.inString).map((r) => [r.start, r]));
  // Regions inside strings, in document order and disjoint: their starts and ends are both sorted.
  const within = regions.filter((r) => r.inString);
  const withinEnds = within.map((r) => r.end);
  const overlaps = (r: Range) => {
    const k = lowerBound(withinEnds, r.start + 1);
    return k < within.length && within[k].start < r.end;
  };
  const fix = (v: VNode): VNode => {
    const ref = starts.get(v.range.start);
    if (ref && v.kind !== 'object' && v.kind !== 'array') return ref.typed ?? { kind: 'unknown', range: { start: ref.start, end: ref.end }, text: text.slice(ref.start, Math.min(ref.end, ref.start + 120)) };
    if (v.kind === 'string' && overlaps(v.range)) return { kind: 'unknown', range: v.range, text: text.slice(v.range.start, Math.min(v.range.end, v.range.start + 120)), type: 'S' };
    return v;
  };
  const stack: VNode[] = [root];
  const top = fix(root);
  if (top !== root) return top;
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'object') {
      const kept: Property[] = [];
      for (const p of n.properties) {
        // A key built by VTL (`"$ctx.args.field": ...`): the entry is not known.
        if (overlaps(p.keyRange)) {
          n.complete = false;
          continue;
        }
        p.value = fix(p.value);
        // The entry ends where its value does: the reference, not the one-character placeholder parsed in its place
        // (a fix inserting after the last entry would otherwise land inside `$util...`).
        if (p.value.range.end > p.range.end) p.range = { start: p.range.start, end: p.value.range.end };
        kept.push(p);
        stack.push(p.value);
      }
      n.properties = kept;
      if (holdsDirective(directives, n.range.start, n.range.end, kept.map((p) => p.value.range))) n.complete = false;
    } else if (n.kind === 'array') {
      n.items = n.items.map(fix);
      // A loop, not push(...items): a spread of a long array overflows the stack.
      for (const x of n.items) stack.push(x);
      if (holdsDirective(directives, n.range.start, n.range.end, n.items.map((x) => x.range))) n.complete = false;
    }
  }
  return root;
}

/** The AppSync DynamoDB requests of a VTL template. */
export function extractVtl(text: string): RequestSite[] {
  if (!/"operation"/.test(text)) return [];
  const { json, regions, directives } = blankVtl(text);
  const parsed = parseJsonValue(json);
  if (!parsed) return [];
  const root = restore(text, parsed, regions, directives);
  const sites: RequestSite[] = [];
  const stack: VNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'object') {
      const op = appSyncOperation(n);
      const api = op && APPSYNC_OPERATIONS.get(op.op);
      if (op && api) {
        const params = mapAppSyncRequest(n as ObjectNode, op.op);
        sites.push({ api, apiSource: 'call', style: inferStyle(params, 'low-level'), host: 'json', range: { ...n.range }, nameRange: { ...op.range }, params, sdk: 'appsync-vtl' });
        continue;
      }
      for (let i = n.properties.length - 1; i >= 0; i--) stack.push(n.properties[i].value);
    } else if (n.kind === 'array') for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
  return sites;
}
