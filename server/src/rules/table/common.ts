/**
 * Shared by the key-schema rules: which table definitions an operation runs against (RuleContext.tables), checking
 * against each candidate and keeping only what every candidate agrees on (several definitions may match a name: a
 * stage pattern, one variable wired to two tables), and the message's tail naming where the table is defined.
 */
import { AttrType, ObjectNode, Range, RequestSite, VNode, attrType, prop, scalarText } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import { IndexDef, KeyAttr, TableDef, TableMatch, tableLabel } from '../../tables';
import { operations } from '../analysis';
import { DOCS_BASE, Finding, Rule, RuleContext, RuleMeta } from '../types';

/** One problem found against one candidate table. `key` identifies it across candidates (same range + same fact). */
export interface Problem {
  range: Range;
  key: string;
  message: string;
  related?: Finding['related'];
}

/** `table Likes, defined at template.yaml:9`, or for several `tables A (a.yaml:3), B (b.tf:2), each a match for …`; plus how the name was found. */
export function where(match: TableMatch): string {
  const t = match.tables;
  const tables = t.length === 1 ? `table ${t[0].logicalId ?? match.name}, defined at ${t[0].location.label}` : `tables ${t.map(tableLabel).join(', ')}, each a match for ${match.name}`;
  return match.via ? `${tables}; ${match.name} is ${match.via}` : tables;
}

/**
 * Run `check` on every operation whose table is known, against each candidate; a problem is reported only when every
 * candidate has it (same key), its message ending with where the table is defined.
 */
export function checkOperations(ctx: RuleContext, id: string, check: (op: Operation, table: TableDef, ctx: RuleContext) => Problem[]): Omit<Finding, 'severity'>[] {
  if (!ctx.tables) return [];
  return ctx.sites.flatMap((site) => checkSiteOperations(ctx, site, id, check));
}

/** `checkOperations` for one site (the rules are site-local: rules/incremental.ts caches them per site). */
export function checkSiteOperations(ctx: RuleContext, site: RequestSite, id: string, check: (op: Operation, table: TableDef, ctx: RuleContext) => Problem[]): Omit<Finding, 'severity'>[] {
  const tables = ctx.tables;
  if (!tables) return [];
  const out: Omit<Finding, 'severity'>[] = [];
  for (const op of operations(site)) {
    const match = tables.forOperation(op);
    if (!match) continue;
    let agreed: Map<string, Problem> | undefined;
    for (const t of match.tables) {
      const mine = new Map(check(op, t, ctx).map((p) => [p.key, p]));
      if (!agreed) agreed = mine;
      else for (const k of [...agreed.keys()]) if (!mine.has(k)) agreed.delete(k);
      if (!agreed.size) break;
    }
    for (const p of agreed?.values() ?? []) {
      const related = [...(p.related ?? []), { range: match.range, message: `The table: ${where(match)}` }];
      const elsewhere = match.tables.map((t) => ({ uri: t.location.uri, range: t.location.range, message: `${t.logicalId ?? match.name}: the table's definition` }));
      out.push({ ruleId: id, message: `${p.message} — ${where(match)}`, range: p.range, related, elsewhere });
    }
  }
  return out;
}

export function tableRule(id: string, meta: Omit<RuleMeta, 'docs' | 'defaultSeverity' | 'fixable' | 'category'> & Partial<RuleMeta>, check: (op: Operation, table: TableDef, ctx: RuleContext) => Problem[]): Rule {
  return {
    id,
    meta: { docs: `${DOCS_BASE}/${id}.md`, defaultSeverity: 'error', fixable: false, category: 'correctness', ...meta },
    check: (ctx) => checkOperations(ctx, id, check),
    site: (ctx, site) => checkSiteOperations(ctx, site, id, check),
  };
}

/** The key schema an operation reads: the table's, or the index named by a literal `IndexName`. Undefined when unknown. */
export function schemaOf(op: Operation, table: TableDef): { partition: KeyAttr; sort?: KeyAttr; index?: IndexDef } | undefined {
  const ix = prop(op.params, 'IndexName');
  if (!ix) return { partition: table.partition, sort: table.sort };
  if (ix.kind !== 'string') return undefined;
  const index = table.indexes.find((i) => i.name === ix.value);
  return index ? { partition: index.partition, sort: index.sort, index } : undefined;
}

export function keyAttrs(s: { partition: KeyAttr; sort?: KeyAttr }): KeyAttr[] {
  return s.sort ? [s.partition, s.sort] : [s.partition];
}

/** A key value's scalar type: S, N, B, another type (sent as such), or unknown. */
export function valueType(node: VNode, style: Operation['site']['style']): AttrType {
  return attrType(node, style);
}

/** An empty string sent as a key value (`{S: ""}` / `""`). */
export function isEmptyString(node: VNode, style: Operation['site']['style']): boolean {
  return attrType(node, style) === 'S' && scalarText(node, style) === '';
}

export const describeType = (t: AttrType): string => (t === 'S' ? 'a string (S)' : t === 'N' ? 'a number (N)' : t === 'B' ? 'binary (B)' : t === 'BOOL' ? 'a boolean (BOOL)' : t === 'NULL' ? 'NULL' : t === 'M' ? 'a map (M)' : t === 'L' ? 'a list (L)' : `a set (${t})`);

/** An object node's literal properties, and whether it may hold more (spread, computed keys). */
export function objectOf(n: VNode | undefined): ObjectNode | undefined {
  return n?.kind === 'object' ? n : undefined;
}
