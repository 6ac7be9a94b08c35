/**
 * key-schema-mismatch: the `Key` of GetItem/UpdateItem/DeleteItem/ConditionCheck (also in transactions and batches)
 * must hold exactly the table's key attributes, with their declared types and no empty string.
 */
import { ObjectNode, propEntry } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import { TYPE_WORD, TableDef } from '../../tables';
import { Problem, describeType, isEmptyString, keyAttrs, tableRule, valueType } from './common';

const id = 'key-schema-mismatch';
const AWS = 'The provided key element does not match the schema';

/** Problems of one key map against the table's key schema. */
export function keyMapProblems(key: ObjectNode, op: Operation, table: TableDef, where: string): Problem[] {
  const out: Problem[] = [];
  const attrs = keyAttrs(table);
  const names = new Set(attrs.map((a) => a.name));
  const style = op.site.style;
  for (const p of key.properties) {
    if (!names.has(p.key)) {
      out.push({ range: p.keyRange, key: `extra:${p.key}:${p.keyRange.start}`, message: `${p.key} is not a key attribute: the key is ${attrs.map((a) => a.name).join(' + ')}. DynamoDB: "${AWS}"` });
      continue;
    }
    const a = attrs.find((x) => x.name === p.key)!;
    const t = valueType(p.value, style);
    if (a.type && t !== 'unknown' && t !== a.type) {
      out.push({ range: p.value.range, key: `type:${p.key}:${a.type}:${t}:${p.value.range.start}`, message: `${p.key} is declared ${TYPE_WORD[a.type]}, but ${where} sends ${describeType(t)}. DynamoDB: "${AWS}"` });
    } else if (isEmptyString(p.value, style)) {
      out.push({ range: p.value.range, key: `empty:${p.key}:${p.value.range.start}`, message: `${p.key} is a key attribute and cannot be an empty string. DynamoDB: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: ${p.key}"` });
    }
  }
  if (key.complete) {
    const missing = attrs.filter((a) => !key.properties.some((p) => p.key === a.name));
    if (missing.length)
      out.push({ range: key.range, key: `missing:${missing.map((m) => m.name).join(',')}:${key.range.start}`, message: `${where[0].toUpperCase() + where.slice(1)} lacks the ${missing.map((m) => `${m === table.partition ? 'partition' : 'sort'} key ${m.name}`).join(' and ')}: the key is ${attrs.map((a) => a.name).join(' + ')}. DynamoDB: "${AWS}"` });
  }
  return out;
}

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind === 'BatchGet') {
    const keys = propEntry(op.params, 'Keys')?.value;
    if (keys?.kind !== 'array') return [];
    return keys.items.flatMap((k) => (k.kind === 'object' ? keyMapProblems(k, op, table, 'this key') : []));
  }
  if (!['Get', 'Update', 'Delete', 'ConditionCheck', 'BatchDelete'].includes(op.kind)) return [];
  const key = propEntry(op.params, 'Key')?.value;
  return key?.kind === 'object' ? keyMapProblems(key, op, table, 'the Key') : [];
}

export const keySchemaMismatch = tableRule(id, { description: "A Key that does not match the table's key schema: a key attribute missing, an extra attribute, a wrong type or an empty string." }, check);
