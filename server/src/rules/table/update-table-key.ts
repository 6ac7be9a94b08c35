/**
 * update-table-key: an UpdateExpression that changes a key attribute of the table (also through a #name). The
 * validator's update-key-attribute already reports attributes the literal Key names; this rule covers the rest
 * (a Key built elsewhere, a variable).
 */
import { prop } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import type { TableDef } from '../../tables';
import { namesOf, spanRange, updateOf } from '../analysis';
import { Problem, keyAttrs, tableRule } from './common';

const id = 'update-table-key';

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind !== 'Update') return [];
  const upd = updateOf(op.params);
  if (!upd) return [];
  const key = prop(op.params, 'Key');
  const literalKeyNames = new Set(key?.kind === 'object' && key.complete ? key.properties.map((p) => p.key) : []);
  const names = namesOf(op.params);
  const keys = keyAttrs(table).map((a) => a.name);
  const out: Problem[] = [];
  for (const clause of upd.ast.clauses)
    for (const a of clause.actions) {
      const e = a.path.elements[0];
      const attr = e.type === 'name' ? (e.placeholder ? names[e.name] : e.name) : undefined;
      if (attr === undefined || !keys.includes(attr) || literalKeyNames.has(attr)) continue;
      out.push({ range: spanRange(upd.node, a.path), key: `upd:${attr}:${a.path.start}`, message: `${attr} is part of the table's key and cannot be updated (write a new item and delete the old one). DynamoDB: "One or more parameter values were invalid: Cannot update attribute ${attr}. This attribute is part of the key"` });
    }
  return out;
}

export const updateTableKey = tableRule(id, { description: "An UpdateExpression that changes one of the table's key attributes (known from its definition)." }, check);
