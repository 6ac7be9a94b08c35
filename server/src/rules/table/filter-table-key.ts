/**
 * filter-table-key: a Query FilterExpression naming a key attribute of the table or index queried (DynamoDB wants key
 * conditions in the KeyConditionExpression). Attributes the key condition itself names are left to
 * filter-key-attribute (the validator's rule), so one problem gives one diagnostic.
 */
import { prop } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import { conditionPaths } from '../../expression/ast';
import type { TableDef } from '../../tables';
import { namesOf, parsed, spanRange } from '../analysis';
import { keyLeaves } from './key-condition-schema';
import { Problem, keyAttrs, schemaOf, tableRule } from './common';

const id = 'filter-table-key';

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind !== 'Query') return [];
  const filter = prop(op.params, 'FilterExpression');
  if (filter?.kind !== 'string') return [];
  const schema = schemaOf(op, table);
  if (!schema) return [];
  const names = namesOf(op.params);
  const kce = prop(op.params, 'KeyConditionExpression');
  const inKeyCondition = new Set(kce?.kind === 'string' ? (keyLeaves(kce, names) ?? []).map((l) => l.attr) : []);
  const keys = new Set(keyAttrs(schema).map((a) => a.name));
  const r = parsed(filter, 'filter');
  if (!r.ast || r.error || r.ast.type === 'update' || r.ast.type === 'projection') return [];
  const out: Problem[] = [];
  const reported = new Set<string>();
  for (const n of conditionPaths(r.ast)) {
    const e = n.elements[0];
    const attr = e.type === 'name' ? (e.placeholder ? names[e.name] : e.name) : undefined;
    if (attr === undefined || !keys.has(attr) || inKeyCondition.has(attr) || reported.has(attr)) continue;
    reported.add(attr);
    const what = schema.index ? `the index ${schema.index.name}` : 'the table';
    out.push({ range: spanRange(filter, n), key: `filter:${attr}`, message: `${attr} is a key attribute of ${what}: a Query's FilterExpression cannot name it; put its condition in the KeyConditionExpression. DynamoDB: "Filter Expression can only contain non-primary key attributes: Primary key attribute: ${attr}"` });
  }
  return out;
}

export const filterTableKey = tableRule(id, { description: 'A Query FilterExpression naming a key attribute of the table or index queried, which DynamoDB rejects.' }, check);
