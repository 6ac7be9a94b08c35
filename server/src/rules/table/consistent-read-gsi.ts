/**
 * consistent-read-gsi: `ConsistentRead: true` on a Query or Scan of a global secondary index, which DynamoDB rejects
 * (global indexes are updated asynchronously; only local indexes and the table offer strongly consistent reads).
 */
import { prop, propEntry } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import type { TableDef } from '../../tables';
import { Problem, tableRule } from './common';

const id = 'consistent-read-gsi';

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind !== 'Query' && op.kind !== 'Scan') return [];
  const cr = propEntry(op.params, 'ConsistentRead');
  const ix = prop(op.params, 'IndexName');
  if (cr?.value.kind !== 'bool' || !cr.value.value || ix?.kind !== 'string') return [];
  const index = table.indexes.find((i) => i.name === ix.value);
  if (index?.kind !== 'global') return [];
  const verb = op.kind === 'Query' ? 'querying' : 'scanning';
  return [{ range: cr.keyRange, key: `cr:${index.name}`, message: `${index.name} is a global secondary index: its reads are eventually consistent only (drop ConsistentRead, or read the table or a local index). DynamoDB: "Consistent read cannot be true when ${verb} a GSI"` }];
}

export const consistentReadGsi = tableRule(id, { description: 'ConsistentRead: true on a Query or Scan of a global secondary index, which DynamoDB rejects.' }, check);
