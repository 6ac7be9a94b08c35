/**
 * unknown-index: a Query or Scan `IndexName` the table does not define (with the nearest defined name).
 */
import { propEntry } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import type { TableDef } from '../../tables';
import { typoDistance } from '../../fix/expression-fixes';
import { Problem, tableRule } from './common';

const id = 'unknown-index';

/** The defined index a name most likely meant: same name ignoring case, else the one within 2 edits. */
export function nearestIndex(name: string, table: TableDef): string | undefined {
  const names = table.indexes.map((i) => i.name);
  const sameCase = names.filter((n) => n.toLowerCase() === name.toLowerCase());
  if (sameCase.length === 1) return sameCase[0];
  const near = names.filter((n) => typoDistance(n, name, 2) <= 2);
  return near.length === 1 ? near[0] : undefined;
}

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind !== 'Query' && op.kind !== 'Scan') return [];
  const e = propEntry(op.params, 'IndexName');
  if (e?.value.kind !== 'string' || !table.indexesKnown) return [];
  const name = e.value.value;
  if (table.indexes.some((i) => i.name === name)) return [];
  const near = nearestIndex(name, table);
  const defined = table.indexes.length ? `its indexes are ${table.indexes.map((i) => i.name).join(', ')}` : 'it has no secondary index';
  return [{ range: e.value.range, key: `index:${name}:${near ?? ''}`, message: `The table has no index ${name}${near ? `: did you mean ${near}?` : ''} (${defined}). DynamoDB: "The table does not have the specified index: ${name}"` }];
}

export const unknownIndex = tableRule(id, { description: 'A Query or Scan IndexName that the table does not define (did-you-mean the nearest index).' }, check);
