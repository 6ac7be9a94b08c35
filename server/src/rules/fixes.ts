/**
 * Building a fix for one request action: add a condition (merged with an existing one), add placeholder values and
 * names (creating the maps when missing, with non-colliding names), write numbers in the request's own value style.
 * Collects everything, then emits non-overlapping edits (entries added to the same map share one edit).
 */
import { ObjectNode, Property, RequestSite, StringNode, prop, propEntry } from '../extract/model';
import { isReservedWord } from '../expression/reserved-words';
import { APPSYNC_HELPER_SDK } from '../extract/appsync-shape';
import { HostSyntax, Literal, StringSpan, entryText, hostSyntax, insertProperties, namePlaceholder, removeProperty, renderLiteral, replaceSpansInString, stringLiteral } from './edit';
import type { TextEdit } from './types';

/**
 * Whether fixes may be written for a site's request. Not for a request read from a repository wrapper's arguments
 * (`this.putItem(item)`, `self.update_item(update_expression=...)`: an entry would be written into the wrapper call's
 * argument list). One alternative of several (data flow) gets its fixes here; the engine keeps them only when every
 * alternative the edits touch agrees (rules/alternatives.ts).
 */
export function fixableSite(site: RequestSite): boolean {
  // An AppSync helper's request is built from its argument: none of its DynamoDB fields is written in the source.
  // A helper read with one caller's arguments (Go, Java): its values are that caller's, the helper is every caller's.
  // A request whose expressions a builder made (Go `expression`): nothing of them is written where an edit could go.
  return !site.forwarded?.wrapper && !site.forwarded?.bound && !site.built && site.sdk !== APPSYNC_HELPER_SDK;
}

export class ActionEditor {
  readonly syn: HostSyntax;
  /** Set when the fix cannot be written (a map is a variable): the caller offers no fix. */
  failed = false;
  private readonly edits: TextEdit[] = [];
  private readonly adds = new Map<ObjectNode, [string, string][]>();
  private readonly newMaps = new Map<string, [string, string][]>();
  private readonly taken = new Set<string>();
  private importDecimal = false;
  private readonly removals = new Map<ObjectNode, Property[]>();
  /** Insertions into strings, per string: emitted together in `build`. */
  private readonly strings = new Map<StringNode, StringSpan[]>();

  constructor(
    readonly text: string,
    readonly site: RequestSite,
    readonly params: ObjectNode,
  ) {
    this.syn = hostSyntax(text, site);
    if (!fixableSite(site)) this.failed = true;
    for (const field of ['ExpressionAttributeNames', 'ExpressionAttributeValues']) {
      const m = prop(params, field);
      if (m?.kind === 'object') for (const p of m.properties) this.taken.add(p.key);
    }
    for (const p of params.properties) if (p.value.kind === 'string') for (const t of p.value.value.match(/[#:][\w-]+/g) ?? []) this.taken.add(t);
  }

  /** A fresh placeholder name: `:zero`, `:zero1`, ... */
  freshName(base: string): string {
    let name = base;
    for (let i = 1; this.taken.has(name); i++) name = base + i;
    this.taken.add(name);
    return name;
  }

  private addEntry(field: 'ExpressionAttributeNames' | 'ExpressionAttributeValues', key: string, valueText: string): void {
    const m = propEntry(this.params, field);
    if (!m) {
      if (!this.newMaps.has(field)) this.newMaps.set(field, []);
      this.newMaps.get(field)!.push([key, valueText]);
    } else if (m.value.kind === 'object') {
      if (!this.adds.has(m.value)) this.adds.set(m.value, []);
      this.adds.get(m.value)!.push([key, valueText]);
    } else this.failed = true;
  }

  /** How to write an attribute name in a new expression: bare, an existing `#placeholder`, or a new one. */
  attribute(name: string): string {
    if (/^[A-Za-z][A-Za-z0-9_]*$/.test(name) && !isReservedWord(name)) return name;
    const names = prop(this.params, 'ExpressionAttributeNames');
    if (names?.kind === 'object') for (const p of names.properties) if (p.value.kind === 'string' && p.value.value === name) return p.key;
    const ph = this.freshName(namePlaceholder(this.syn, name.replace(/[^A-Za-z0-9_]/g, '').slice(0, 20)));
    this.addEntry('ExpressionAttributeNames', ph, stringLiteral(this.syn, name));
    return ph;
  }

  /** Add a `:value` holding a number, written in the request's value style; returns its name. */
  addNumber(base: string, num: string): string {
    const name = this.freshName(base);
    this.addEntry('ExpressionAttributeValues', name, this.numberText(num, true));
    return name;
  }

  /**
   * A number as an attribute value in this request's style: `{N: "0"}` low-level; `0` document style;
   * `Decimal(0)` for boto3 resources when `decimal` is asked for (adds the import when the file lacks it).
   */
  numberText(num: string, decimal: boolean): string {
    if (this.site.style === 'low-level') return renderLiteral(this.syn, { map: [['N', num]] });
    if (this.syn.host !== 'python') return num;
    // An int literal Python reads (`007` is a SyntaxError): anything else goes through Decimal('…').
    const integer = /^-?(0|[1-9]\d*)$/.test(num);
    if (integer && !decimal) return num;
    const ctor = this.decimalName();
    return integer ? `${ctor}(${num})` : `${ctor}(${stringLiteral(this.syn, num)})`;
  }

  private decimalName(): string {
    if (/^\s*from\s+decimal\s+import\s+[^\n]*\bDecimal\b/m.test(this.text)) return 'Decimal';
    if (/^\s*import\s+decimal\b/m.test(this.text)) return 'decimal.Decimal';
    this.importDecimal = true;
    return 'Decimal';
  }

  /** Add a condition, AND-ed after an existing literal ConditionExpression (`(existing) AND cond`). */
  addCondition(cond: string): void {
    const e = propEntry(this.params, 'ConditionExpression');
    if (!e) {
      if (!this.params.complete) this.failed = true;
      else this.newMaps.set('ConditionExpression', [['', stringLiteral(this.syn, cond)]]);
      return;
    }
    if (e.value.kind !== 'string') return void (this.failed = true);
    this.inString(e.value, 0, '(');
    this.inString(e.value, e.value.value.length, `) AND ${cond}`);
  }

  /** Add a `:value` whose value is host code (e.g. a variable the user fills in); returns its name. */
  addValueCode(base: string, code: string): string {
    const name = this.freshName(base);
    this.addEntry('ExpressionAttributeValues', name, code);
    return name;
  }

  /** Remove an `ExpressionAttributeValues` entry (replaced in place by an added one when there is one). */
  removeValue(key: string): void {
    const m = prop(this.params, 'ExpressionAttributeValues');
    const e = propEntry(m, key);
    if (m?.kind === 'object' && e) this.removals.set(m, [...(this.removals.get(m) ?? []), e]);
  }

  /** A raw edit (e.g. inside the UpdateExpression). */
  push(edit: TextEdit): void {
    this.edits.push(edit);
  }

  edit(node: StringNode, at: number, insert: string): void {
    this.inString(node, at, insert);
  }

  /** An insertion into a string, written with the others into the same string (`replaceSpansInString`). */
  private inString(node: StringNode, at: number, insert: string): void {
    const i = Math.max(0, Math.min(at, node.value.length));
    const spans = this.strings.get(node) ?? [];
    spans.push({ start: i, end: i, newText: insert });
    this.strings.set(node, spans);
  }

  build(): TextEdit[] | undefined {
    if (this.failed) return undefined;
    const out = [...this.edits];
    for (const [node, spans] of this.strings) for (const x of replaceSpansInString(this.text, this.syn, node, spans)) out.push(x);
    for (const [obj, removed] of this.removals) {
      for (const r of [...removed].sort((a, b) => a.range.start - b.range.start)) {
        const first = this.adds.get(obj)?.shift();
        out.push(first ? { range: r.range, newText: entryText(this.text, this.syn, obj, first[0], first[1]) } : removeProperty(obj, r, this.syn.host === 'yaml' ? { text: this.text } : undefined));
      }
    }
    for (const [obj, entries] of this.adds) {
      if (!entries.length) continue;
      const add = insertProperties(this.text, this.syn, obj, entries);
      if (!add) return undefined;
      out.push(add);
    }
    const top: [string, string][] = [];
    for (const [field, entries] of this.newMaps) {
      if (field === 'ConditionExpression') top.push([field, entries[0][1]]);
      else top.push([field, renderLiteral(this.syn, { map: entries.map(([k, v]) => [k, { raw: v }] as [string, Literal]) })]);
    }
    const order = ['ConditionExpression', 'ExpressionAttributeNames', 'ExpressionAttributeValues'];
    top.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
    if (top.length) {
      const add = insertProperties(this.text, this.syn, this.params, top);
      if (!add) return undefined;
      out.push(add);
    }
    if (this.importDecimal) out.push(pythonImport(this.text, 'from decimal import Decimal'));
    return out;
  }
}

/** Insert an import line after the file's last top-level import (or at the top, after a shebang/encoding line). */
export function pythonImport(text: string, line: string): TextEdit {
  let at = 0;
  const re = /^(?:import|from)\s[^\n]*(?:\n|$)/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) at = m.index + m[0].length;
  if (at === 0) {
    const head = /^(?:#[^\n]*\n)*/.exec(text);
    at = head ? head[0].length : 0;
  }
  const nl = at > 0 && text[at - 1] !== '\n' ? '\n' : '';
  return { range: { start: at, end: at }, newText: `${nl}${line}\n` };
}
