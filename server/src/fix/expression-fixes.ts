/**
 * Quick fixes for what DynamoDB rejects in a request's expressions (issue 8), written in the request's own style
 * (low-level / DocumentClient / boto3 client / boto3 resource / JSON):
 * - a reserved word used bare (also as a nested segment) -> a `#placeholder` in every expression of the request, plus
 *   the mapping in ExpressionAttributeNames (reusing one that already maps to the word; the map created if absent);
 * - `#name` used but not defined -> the mapping to the bare name;
 * - `:value` used but not defined -> an entry with a placeholder value of the type the expression implies (NOT safe:
 *   the value is invented);
 * - a name or value defined but unused -> the entry removed (the map too when it becomes empty);
 * - an undefined placeholder next to an unused one of the same kind (`:titel` used, `:title` defined) -> the use
 *   renamed to the defined one (not safe, preferred); removing or defining is then not safe either (a typo: fix-all
 *   must neither drop the user's value nor invent an attribute);
 * - an empty map, or a map in a request without expressions -> the map removed;
 * - `((x))` -> `(x)`; a repeated SET/REMOVE/ADD/DELETE clause -> its actions merged into the first one.
 */
import { ObjectNode, Range, StringNode, prop, propEntry } from '../extract/model';
import type { Operation } from '../extract/operations';
import { EXPRESSION_FIELDS, ExpressionField } from '../expression/ast';
import type { ConditionNode, ExpressionRoot, Operand, PathNode, ValueRefNode } from '../expression/ast';
import { parsed } from '../rules/analysis';
import { HostSyntax, Literal, hostSyntax, insertProperties, namePlaceholder, renderLiteral, replaceSpansInString, rewriteString, stringLiteral } from '../rules/edit';
import type { Fix, TextEdit } from '../rules/types';
import { removeMapEntry, removeProperty } from './edits';

type MapField = 'ExpressionAttributeNames' | 'ExpressionAttributeValues';

/** The kinds of finding that have a fix here. The expression validator's ids map onto them in expression-rules.ts. */
export type FixKind = 'reservedWord' | 'undefinedName' | 'undefinedValue' | 'unusedName' | 'unusedValue' | 'removeMap' | 'redundantParens' | 'mergeClauses';

export interface ExprString {
  field: ExpressionField;
  node: StringNode;
  ast?: ExpressionRoot;
}

/** The literal expression strings of an operation, parsed (cached per string node, shared with the other rules). */
export function expressionStrings(op: Operation): ExprString[] {
  const out: ExprString[] = [];
  for (const [field, kind] of Object.entries(EXPRESSION_FIELDS) as [ExpressionField, (typeof EXPRESSION_FIELDS)[ExpressionField]][]) {
    const node = prop(op.params, field);
    if (node?.kind === 'string') out.push({ field, node, ast: parsed(node, kind).ast });
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* AST walking                                                                                                        */

type Visit = { path?: (p: PathNode) => void; value?: (v: ValueRefNode, numeric: boolean) => void };

function walkOperand(o: Operand, numeric: boolean, v: Visit): void {
  switch (o.type) {
    case 'path':
      return v.path?.(o);
    case 'value':
      return v.value?.(o, numeric);
    case 'parenOperand':
      return walkOperand(o.inner, numeric, v);
    case 'arithmetic':
      walkOperand(o.left, true, v);
      return walkOperand(o.right, true, v);
    case 'function': {
      // size() yields a number; if_not_exists(x, :v) has the type of its context; other arguments are not numbers.
      o.args.forEach((a, i) => walkOperand(a, o.name === 'if_not_exists' && i === 1 ? numeric : false, v));
      return;
    }
  }
}

const isSize = (o: Operand): boolean => (o.type === 'parenOperand' ? isSize(o.inner) : o.type === 'function' && o.name === 'size');

function walkCondition(c: ConditionNode, v: Visit): void {
  switch (c.type) {
    case 'compare': {
      walkOperand(c.left, isSize(c.right), v);
      return walkOperand(c.right, isSize(c.left), v);
    }
    case 'between':
      return [c.operand, c.low, c.high].forEach((o) => walkOperand(o, isSize(c.operand), v));
    case 'in':
      return [c.operand, ...c.list].forEach((o) => walkOperand(o, isSize(c.operand), v));
    case 'and':
    case 'or':
      walkCondition(c.left, v);
      return walkCondition(c.right, v);
    case 'not':
      return walkCondition(c.operand, v);
    case 'paren':
      return walkCondition(c.inner, v);
    case 'functionCondition':
      return walkOperand(c.fn, false, v);
  }
}

function walkRoot(root: ExpressionRoot, v: Visit): void {
  if (root.type === 'update') {
    for (const clause of root.clauses)
      for (const a of clause.actions) {
        walkOperand(a.path, false, v);
        if (a.type !== 'REMOVE') walkOperand(a.value, a.type === 'ADD', v);
      }
  } else if (root.type === 'projection') root.paths.forEach((p) => walkOperand(p, false, v));
  else walkCondition(root, v);
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* Shared pieces                                                                                                      */

interface Replacement {
  start: number;
  end: number;
  newText: string;
}

/**
 * Replace spans of one expression string: in place when their characters are written plainly (no escapes, not across
 * concatenated pieces), else by rewriting the literal once (so several replacements never overlap).
 */
function replaceSpans(text: string, syn: HostSyntax, node: StringNode, spans: Replacement[]): TextEdit[] {
  // A YAML scalar's style decides what survives in place (` #` in a plain scalar starts a comment).
  if (syn.host === 'yaml') return replaceSpansInString(text, syn, node, spans);
  const plain = (s: Replacement) => {
    for (let i = s.start; i < s.end; i++) if (node.offsets[i] !== node.offsets[s.start] + (i - s.start) || text[node.offsets[i]] !== node.value[i]) return false;
    return true;
  };
  if (spans.every(plain)) return spans.map((s) => ({ range: { start: node.offsets[s.start], end: node.offsets[s.start] + (s.end - s.start) }, newText: s.newText }));
  let next = node.value;
  for (const s of [...spans].sort((a, b) => b.start - a.start)) next = next.slice(0, s.start) + s.newText + next.slice(s.end);
  return [rewriteString(text, syn, node, next)];
}

/** Add entries to ExpressionAttributeNames/Values, creating the map after the request's last entry when absent. */
function addEntries(text: string, syn: HostSyntax, op: Operation, field: MapField, entries: [string, string][]): TextEdit | undefined {
  const m = propEntry(op.params, field);
  if (m) return m.value.kind === 'object' ? insertProperties(text, syn, m.value, entries) : undefined;
  if (!op.params.properties.length) return undefined;
  const literal: Literal = { map: entries.map(([k, v]) => [k, { raw: v }] as [string, Literal]) };
  return insertProperties(text, syn, op.params, [[field, renderLiteral(syn, literal)]]);
}

/**
 * Edits that land outside the request's call and its parameter literal (in a resolved constant other code may share)
 * are not safe to apply blindly.
 */
function insideRequest(op: Operation, edits: TextEdit[]): boolean {
  const within = (r: Range, e: TextEdit) => e.range.start >= r.start && e.range.end <= r.end;
  return edits.every((e) => within(op.site.range, e) || within(op.site.params.range, e));
}

function mapOf(op: Operation, field: MapField): ObjectNode | undefined {
  const m = prop(op.params, field);
  return m?.kind === 'object' ? m : undefined;
}

/** Every `#x` / `:x` written anywhere in the request's expressions or defined in its maps. */
function takenPlaceholders(op: Operation, exprs: ExprString[]): Set<string> {
  const taken = new Set<string>();
  for (const e of exprs) for (const t of e.node.value.match(/[#:][A-Za-z0-9_]+/g) ?? []) taken.add(t);
  for (const f of ['ExpressionAttributeNames', 'ExpressionAttributeValues'] as const) for (const p of mapOf(op, f)?.properties ?? []) taken.add(p.key);
  return taken;
}

/* ------------------------------------------------------------------------------------------------------------------ */
/* The fixes                                                                                                          */

/**
 * Replace bare uses of each word (case-sensitive attribute names, as path segments) in every expression of the
 * request with a `#placeholder`, adding the mappings in one edit. Undefined when an expression cannot be read.
 */
export function reservedWordsFix(text: string, op: Operation, words: string[], sharers: Operation[] = []): Fix | undefined {
  const exprs = expressionStrings(op);
  if (!words.length || exprs.some((e) => !e.ast)) return undefined;
  const syn = hostSyntax(text, op.site);
  const names = propEntry(op.params, 'ExpressionAttributeNames');
  if (names && names.value.kind !== 'object') return undefined;
  // A placeholder written into a string other requests share must be free in those requests too.
  const taken = takenPlaceholders(op, exprs);
  for (const o of sharers) for (const t of takenPlaceholders(o, expressionStrings(o))) taken.add(t);
  const placeholder = new Map<string, string>();
  const added: [string, string][] = [];
  for (const word of words) {
    const existing = mapOf(op, 'ExpressionAttributeNames')?.properties.find((p) => p.value.kind === 'string' && p.value.value === word);
    if (existing) {
      placeholder.set(word, existing.key);
      continue;
    }
    const base = namePlaceholder(syn, word);
    let ph = base;
    for (let i = 1; taken.has(ph); i++) ph = `${base}${i}`;
    taken.add(ph);
    placeholder.set(word, ph);
    added.push([ph, stringLiteral(syn, word)]);
  }
  const edits: TextEdit[] = [];
  /** Per rewritten string: its edits and the placeholders written into it (for the requests sharing it). */
  const rewritten: { node: StringNode; edits: TextEdit[]; used: Set<string> }[] = [];
  for (const e of exprs) {
    const spans: Replacement[] = [];
    walkRoot(e.ast!, {
      path: (p) => {
        for (const el of p.elements) {
          const ph = el.type === 'name' && !el.placeholder ? placeholder.get(el.name) : undefined;
          if (ph) spans.push({ start: el.start, end: el.end, newText: ph });
        }
      },
    });
    if (!spans.length) continue;
    const own = replaceSpans(text, syn, e.node, spans);
    for (const x of own) edits.push(x);
    rewritten.push({ node: e.node, edits: own, used: new Set(spans.map((s) => s.newText)) });
  }
  if (!edits.length) return undefined;
  if (added.length) {
    const add = addEntries(text, syn, op, 'ExpressionAttributeNames', added);
    if (!add) return undefined;
    edits.push(add);
  }
  // Every request sharing a rewritten string gets the mappings it now needs.
  const word = new Map([...placeholder].map(([w, ph]) => [ph, w]));
  for (const o of sharers) {
    const strings = expressionStrings(o).map((x) => x.node);
    const needed = new Set<string>();
    for (const r of rewritten) if (strings.some((n) => r.edits.some((ed) => covers(n, ed.range)))) r.used.forEach((ph) => needed.add(ph));
    const defined = mapOf(o, 'ExpressionAttributeNames');
    if (propEntry(o.params, 'ExpressionAttributeNames') && !defined) return undefined;
    const missing: [string, string][] = [];
    for (const ph of needed) {
      const cur = defined?.properties.find((p) => p.key === ph);
      if (!cur) missing.push([ph, stringLiteral(hostSyntax(text, o.site), word.get(ph)!)]);
      else if (cur.value.kind !== 'string' || cur.value.value !== word.get(ph)) return undefined;
    }
    if (!missing.length) continue;
    const add = addEntries(text, hostSyntax(text, o.site), o, 'ExpressionAttributeNames', missing);
    if (!add) return undefined;
    const same = edits.find((x) => x.range.start < add.range.end && add.range.start < x.range.end);
    if (!same) edits.push(add);
    else if (same.range.start !== add.range.start || same.range.end !== add.range.end || same.newText !== add.newText) return undefined;
  }
  const list = words.map((w) => `${placeholder.get(w)} for "${w}"`).join(', ');
  const complete = !names || (names.value.kind === 'object' && names.value.complete);
  return { title: words.length === 1 ? `Use placeholder ${list}` : `Use placeholders ${list}`, edits, safe: complete && insideRequest(op, edits) };
}

/** Whether an edit touches characters of the string. */
function covers(node: StringNode, r: Range): boolean {
  const end = Math.max(r.end, r.start + 1);
  return node.offsets.some((o, i) => i < node.value.length && o >= r.start && o < end);
}

/**
 * `#name` used but not defined: map it to the bare name. `typo`: the request also defines a name it never uses, so
 * `#name` is most likely a misspelling of it and mapping it to a new attribute is a guess (not safe).
 */
export function defineNameFix(text: string, op: Operation, name: string, typo = false): Fix | undefined {
  if (!/^#[A-Za-z0-9_]+$/.test(name)) return undefined;
  const syn = hostSyntax(text, op.site);
  const edit = addEntries(text, syn, op, 'ExpressionAttributeNames', [[name, stringLiteral(syn, name.slice(1))]]);
  return edit && { title: `Define ${name} as "${name.slice(1)}" in ExpressionAttributeNames`, edits: [edit], safe: !typo && insideRequest(op, [edit]) };
}

/**
 * Damerau-Levenshtein distance (optimal string alignment: insertions, deletions, substitutions, adjacent swaps), for
 * pairing a placeholder typo with the defined one it misspells.
 */
export function typoDistance(a: string, b: string, max = Infinity): number {
  // Only "at most `max`" matters to callers that pass it: lengths that far apart, or names too long to be a typo of
  // each other, answer at once instead of filling a table quadratic in their lengths.
  if (Math.abs(a.length - b.length) > max || (max !== Infinity && a.length * b.length > 65_536)) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * Pair placeholders used but not defined with the defined-but-unused ones of the same kind they most likely misspell
 * (`:titel` -> `:title`): the one unused placeholder within distance 2, or, with one undefined and one unused, that one.
 * A candidate two undefined placeholders would both take is given to neither. Returns undefined -> unused.
 */
export function pairTypos(undefinedOnes: string[], unusedOnes: string[]): Map<string, string> {
  const picks = new Map<string, string>();
  for (const u of undefinedOnes) {
    const near = unusedOnes.filter((c) => typoDistance(u.slice(1), c.slice(1), 2) <= 2);
    const pick = near.length === 1 ? near[0] : undefinedOnes.length === 1 && unusedOnes.length === 1 ? unusedOnes[0] : undefined;
    if (pick) picks.set(u, pick);
  }
  const taken = [...picks.values()];
  return new Map([...picks].filter(([, c]) => taken.indexOf(c) === taken.lastIndexOf(c)));
}

/**
 * `:titel` used, `:title` defined and unused: write the defined placeholder in place of every use of the undefined one
 * (never safe: which of the two was meant is a guess, but neither the user's value nor an invented attribute is lost).
 * Undefined when an expression cannot be read.
 */
export function renamePlaceholderFix(text: string, op: Operation, from: string, to: string): Fix | undefined {
  const exprs = expressionStrings(op);
  if (exprs.some((e) => !e.ast) || from[0] !== to[0]) return undefined;
  const syn = hostSyntax(text, op.site);
  const edits: TextEdit[] = [];
  for (const e of exprs) {
    const spans: Replacement[] = [];
    const hit = (n: { name: string; start: number; end: number }) => void (n.name === from && spans.push({ start: n.start, end: n.end, newText: to }));
    walkRoot(e.ast!, {
      path: (p) => from[0] === '#' && p.elements.forEach((el) => el.type === 'name' && el.placeholder && hit(el)),
      value: (v) => from[0] === ':' && hit(v),
    });
    if (spans.length) for (const x of replaceSpans(text, syn, e.node, spans)) edits.push(x);
  }
  return edits.length ? { title: `Rename ${from} to ${to}`, edits, safe: false } : undefined;
}

/** The type a `:value` is used as: N in arithmetic, as an ADD operand, compared with size(); S otherwise. */
export function impliedType(op: Operation, value: string): 'N' | 'S' {
  let numeric = false;
  for (const e of expressionStrings(op)) {
    if (e.ast) walkRoot(e.ast, { value: (v, n) => void (v.name === value && n && (numeric = true)) });
  }
  return numeric ? 'N' : 'S';
}

/** `:value` used but not defined: add it with an obvious placeholder value of the implied type (never safe). */
export function defineValueFix(text: string, op: Operation, value: string): Fix | undefined {
  if (!/^:[A-Za-z0-9_]+$/.test(value)) return undefined;
  const syn = hostSyntax(text, op.site);
  const type = impliedType(op, value);
  const scalar = type === 'N' ? '1' : 'TODO';
  const literal: Literal = op.site.style === 'low-level' ? { map: [[type, scalar]] } : type === 'N' ? { num: scalar } : scalar;
  const rendered = renderLiteral(syn, literal);
  const edit = addEntries(text, syn, op, 'ExpressionAttributeValues', [[value, rendered]]);
  return edit && { title: `Define ${value} in ExpressionAttributeValues (${type === 'N' ? 'a number' : 'a string'}: fill in its value)`, edits: [edit], safe: false };
}

/**
 * A name or value defined but not used: remove the entry (and the map when it was the last one). `typo`: an expression
 * uses an undefined placeholder of the same kind, most likely this one misspelled: removing the user's value is then
 * not safe.
 */
export function removeUnusedFix(text: string, op: Operation, field: MapField, key: string, typo = false): Fix | undefined {
  const edit = removeMapEntry(text, op.params, field, key, op.site.host);
  return edit && { title: `Remove unused ${key} from ${field}`, edits: [edit], safe: !typo };
}

/** An empty map, or a map in a request without expressions: remove the whole `ExpressionAttributeNames/Values` entry. */
export function removeMapFix(text: string, op: Operation, field: MapField): Fix | undefined {
  const entry = propEntry(op.params, field);
  if (!entry) return undefined;
  return { title: `Remove ${field}`, edits: [removeProperty(text, op.params, entry, op.site.host)], safe: true };
}

/** `((x))`: drop the outer pair of the reported span (the inner pair keeps the grouping). */
export function redundantParensFix(text: string, op: Operation, field: ExpressionField, start: number, end: number): Fix | undefined {
  const node = prop(op.params, field);
  if (node?.kind !== 'string' || node.value[start] !== '(' || node.value[end - 1] !== ')') return undefined;
  const syn = hostSyntax(text, op.site);
  const edits = replaceSpans(text, syn, node, [
    { start, end: start + 1, newText: '' },
    { start: end - 1, end, newText: '' },
  ]);
  return { title: 'Remove the redundant parentheses', edits, safe: true };
}

/** `SET a = :a SET b = :b` -> `SET a = :a, b = :b`: each repeated clause's actions join the first clause of its kind. */
export function mergeClausesFix(text: string, op: Operation): Fix | undefined {
  const node = prop(op.params, 'UpdateExpression');
  const ast = node?.kind === 'string' ? expressionStrings(op).find((e) => e.field === 'UpdateExpression')?.ast : undefined;
  if (node?.kind !== 'string' || ast?.type !== 'update') return undefined;
  const v = node.value;
  const first = new Map<string, string>();
  const order: string[] = [];
  for (const c of ast.clauses) {
    const actions = c.actions.length ? v.slice(c.actions[0].start, c.actions[c.actions.length - 1].end) : '';
    const key = c.keyword.toUpperCase();
    if (!first.has(key)) {
      first.set(key, v.slice(c.start, c.end));
      order.push(key);
    } else if (actions) first.set(key, `${first.get(key)}, ${actions}`);
  }
  const merged = order.map((k) => first.get(k)).join(' ');
  const lead = /^\s*/.exec(v)![0];
  const trail = /\s*$/.exec(v)![0];
  const next = lead + merged + trail;
  if (next === v) return undefined;
  return { title: 'Merge the repeated clauses into one', edits: [rewriteString(text, hostSyntax(text, op.site), node, next)], safe: true };
}
