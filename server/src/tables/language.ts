/**
 * Editor features over the table index, pure (the language service calls them): the table a position names
 * (a `TableName` value, a `RequestItems` key, a boto3 `Table(...)` argument), its hover, its definition locations,
 * and completion of index names (`IndexName`) and key attribute names (`Key`).
 */
import { Range, prop, propEntry } from '../extract/model';
import type { Operation } from '../extract/operations';
import { codeSpan, escapeMarkdown } from '../language/markdown';
import { TableLookup, TableMatch } from './index';
import { IndexDef, KeyAttr, TableDef, nameText } from './model';

const within = (r: Range, offset: number) => r.start <= offset && offset <= r.end;

/** The table match whose name sits under `offset`. */
export function tableAt(tables: TableLookup, ops: Operation[], offset: number): TableMatch | undefined {
  for (const op of ops) {
    const m = tables.forOperation(op);
    if (m && within(m.range, offset)) return m;
  }
  return undefined;
}

const keyText = (k: KeyAttr) => `${codeSpan(k.name)}${k.type ? ` (${k.type})` : ''}`;

function indexLine(ix: IndexDef): string {
  const keys = [ix.partition, ix.sort].filter((k): k is KeyAttr => !!k).map(keyText).join(' + ');
  const proj = ix.projection ? `${codeSpan(ix.projection.type)}${ix.projection.attributes?.length ? ` (${ix.projection.attributes.map((a) => codeSpan(a)).join(', ')})` : ''}` : 'projection not given';
  return `- ${ix.kind === 'global' ? 'GSI' : 'LSI'} ${codeSpan(ix.name)}: ${keys}; ${proj} (${codeSpan(ix.location.label)})`;
}

export function tableMarkdown(t: TableDef): string {
  const lines = [
    `**${escapeMarkdown(t.logicalId ?? nameText(t.name) ?? 'table')}** — ${escapeMarkdown(t.source)}, defined at ${codeSpan(t.location.label)}`,
    '',
    `- name: ${t.name ? codeSpan(nameText(t.name)!) + ('pattern' in t.name ? ' (* = known at deploy time)' : '') : 'generated at deploy time'}`,
    `- key: ${keyText(t.partition)} (partition)${t.sort ? ` + ${keyText(t.sort)} (sort)` : ''}`,
    `- billing: ${t.billing ? codeSpan(t.billing) : 'not given'}`,
  ];
  if (t.indexes.length) {
    lines.push(`- indexes:`);
    for (const i of t.indexes) lines.push('  ' + indexLine(i));
  } else lines.push(`- indexes: ${t.indexesKnown ? 'none' : 'not all readable'}`);
  if (!t.indexesKnown && t.indexes.length) lines.push('- (some indexes could not be read)');
  return lines.join('\n');
}

export function matchMarkdown(m: TableMatch): string {
  const head = m.tables.length > 1 ? `${m.tables.length} definitions match ${codeSpan(m.name)}; requests are checked against each.\n\n` : '';
  const via = m.via ? `${codeSpan(m.name)} is ${escapeMarkdown(m.via.replace(/ [^ ]+$/, ''))} ${codeSpan(m.via.replace(/^.* /, ''))}.\n\n` : '';
  return head + via + m.tables.map(tableMarkdown).join('\n\n---\n\n');
}

export interface CompletionCandidate {
  label: string;
  detail: string;
  /** The document range the completion replaces (the string's contents or the key being typed). */
  kind: 'index' | 'key';
}

/** Index names inside a literal `IndexName`, key attribute names inside a `Key` map. */
export function tableCompletions(tables: TableLookup, ops: Operation[], offset: number): CompletionCandidate[] | undefined {
  for (const op of ops) {
    const ix = propEntry(op.params, 'IndexName');
    const key = prop(op.params, 'Key');
    const inIndex = ix && ix.value.kind === 'string' && within(ix.value.range, offset);
    const inKey = key?.kind === 'object' && within(key.range, offset) && !key.properties.some((p) => within(p.value.range, offset) && !within(p.keyRange, offset));
    if (!inIndex && !inKey) continue;
    const m = tables.forOperation(op);
    if (!m) return undefined;
    if (inIndex) {
      const seen = new Map<string, string>();
      for (const t of m.tables) for (const i of t.indexes) seen.set(i.name, `${i.kind === 'global' ? 'GSI' : 'LSI'} of ${t.logicalId ?? m.name}: ${[i.partition, i.sort].filter(Boolean).map((k) => k!.name).join(' + ')}`);
      return [...seen].map(([label, detail]) => ({ label, detail, kind: 'index' as const }));
    }
    const present = new Set(key!.kind === 'object' ? key!.properties.filter((p) => !within(p.keyRange, offset)).map((p) => p.key) : []);
    const seen = new Map<string, string>();
    for (const t of m.tables)
      for (const [k, role] of [[t.partition, 'partition'], [t.sort, 'sort']] as const)
        if (k && !present.has(k.name)) seen.set(k.name, `${role} key${k.type ? ` (${k.type})` : ''} of ${t.logicalId ?? m.name}`);
    return [...seen].map(([label, detail]) => ({ label, detail, kind: 'key' as const }));
  }
  return undefined;
}

/** Where the table at `offset` is defined. */
export function definitionsAt(tables: TableLookup, ops: Operation[], offset: number): TableDef['location'][] {
  const m = tableAt(tables, ops, offset);
  return m ? m.tables.map((t) => t.location) : [];
}
