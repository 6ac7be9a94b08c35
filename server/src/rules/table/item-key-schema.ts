/**
 * item-key-schema: a PutItem's `Item` (also in transactions and BatchWriteItem) must hold the table's key attributes
 * with their declared types, none an empty string; an index key attribute it holds must have the index's type and
 * not be an empty string.
 */
import { propEntry } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import { TYPE_WORD, TableDef } from '../../tables';
import { Problem, describeType, isEmptyString, keyAttrs, tableRule, valueType } from './common';

const id = 'item-key-schema';

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind !== 'Put' && op.kind !== 'BatchPut') return [];
  const item = propEntry(op.params, 'Item')?.value;
  if (item?.kind !== 'object') return [];
  const style = op.site.style;
  const out: Problem[] = [];
  const attrs = keyAttrs(table);
  for (const a of attrs) {
    const p = item.properties.find((x) => x.key === a.name);
    if (!p) continue;
    const t = valueType(p.value, style);
    if (a.type && t !== 'unknown' && t !== a.type)
      out.push({ range: p.value.range, key: `type:${a.name}:${a.type}:${t}:${p.value.range.start}`, message: `${a.name} is a key attribute declared ${TYPE_WORD[a.type]}, but the Item holds ${describeType(t)}. DynamoDB: "One or more parameter values were invalid: Type mismatch for key ${a.name} expected: ${a.type} actual: ${t}"` });
    else if (isEmptyString(p.value, style))
      out.push({ range: p.value.range, key: `empty:${a.name}:${p.value.range.start}`, message: `${a.name} is a key attribute and cannot be an empty string. DynamoDB: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: ${a.name}"` });
  }
  if (item.complete) {
    const missing = attrs.filter((a) => !item.properties.some((p) => p.key === a.name));
    if (missing.length)
      out.push({ range: item.range, key: `missing:${missing.map((m) => m.name).join(',')}:${item.range.start}`, message: `The Item lacks the key attribute${missing.length > 1 ? 's' : ''} ${missing.map((m) => m.name).join(' and ')}: every item must hold ${attrs.map((a) => a.name).join(' + ')}. DynamoDB: "One or more parameter values were invalid: Missing the key ${missing[0].name} in the item"` });
  }
  for (const ix of table.indexes)
    for (const a of keyAttrs(ix)) {
      const p = item.properties.find((x) => x.key === a.name);
      if (!p || attrs.some((k) => k.name === a.name)) continue;
      const t = valueType(p.value, style);
      if (a.type && t !== 'unknown' && t !== a.type)
        out.push({ range: p.value.range, key: `ixtype:${a.name}:${a.type}:${t}:${p.value.range.start}`, message: `${a.name} is a key attribute of the index ${ix.name}, declared ${TYPE_WORD[a.type]}, but the Item holds ${describeType(t)}. DynamoDB: "One or more parameter values were invalid: Type mismatch for Index Key ${a.name} Expected: ${a.type} Actual: ${t} IndexName: ${ix.name}"` });
      else if (isEmptyString(p.value, style))
        out.push({ range: p.value.range, key: `ixempty:${a.name}:${p.value.range.start}`, message: `${a.name} is a key attribute of the index ${ix.name} and cannot be an empty string (leave the attribute out to keep the item out of the index). DynamoDB: "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: ${ix.name}, IndexKey: ${a.name}"` });
    }
  return out;
}

export const itemKeySchema = tableRule(id, { description: "A PutItem Item without the table's key attributes, with a key or index key of the wrong type, or with an empty string as a key." }, check);
