/**
 * key-condition-schema: a Query's KeyConditionExpression against the key schema of the table or index it reads: an
 * equality on the partition key, at most one condition on the sort key, nothing else; begins_with only on a string or
 * binary sort key; values of the key's declared type. Expressions the validator already rejects (OR, NOT, IN,
 * functions, duplicate keys, syntax) are left to key-condition-invalid.
 */
import { StringNode, prop } from '../../extract/model';
import type { Operation } from '../../extract/operations';
import type { ConditionNode, Operand, PathNode } from '../../expression/ast';
import { TYPE_WORD, TableDef } from '../../tables';
import { namesOf, parsed, spanRange, unwrap, valueEntry } from '../analysis';
import { Problem, describeType, schemaOf, tableRule, valueType } from './common';

const id = 'key-condition-schema';

export interface KeyLeaf {
  attr: string;
  op: string;
  path: PathNode;
  values: string[];
  span: { start: number; end: number };
}

/** The leaves of a key condition that is an AND of simple conditions; undefined when it is anything else. */
export function keyLeaves(node: StringNode, names: Record<string, string>): KeyLeaf[] | undefined {
  const r = parsed(node, 'keyCondition');
  if (!r.ast || r.error || r.ast.type === 'update' || r.ast.type === 'projection') return undefined;
  const out: KeyLeaf[] = [];
  const stack: ConditionNode[] = [r.ast];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'paren') stack.push(c.inner);
    else if (c.type === 'and') stack.push(c.right, c.left);
    else {
      let ops: Operand[];
      let op: string;
      if (c.type === 'compare' && c.op !== '<>') [ops, op] = [[c.left, c.right], c.op];
      else if (c.type === 'between') [ops, op] = [[c.operand, c.low, c.high], 'BETWEEN'];
      else if (c.type === 'functionCondition' && c.fn.name === 'begins_with' && c.fn.args.length === 2) [ops, op] = [c.fn.args, 'begins_with'];
      else return undefined;
      const u = ops.map(unwrap);
      const paths = u.filter((o): o is PathNode => o.type === 'path');
      if (paths.length !== 1 || u.some((o) => o.type !== 'path' && o.type !== 'value')) return undefined;
      if (op === 'begins_with' && u[0].type !== 'path') return undefined;
      const p = paths[0];
      if (p.elements.length !== 1 || p.elements[0].type !== 'name') return undefined;
      const e = p.elements[0];
      const attr = e.placeholder ? names[e.name] : e.name;
      if (attr === undefined) return undefined;
      out.push({ attr, op, path: p, values: u.filter((o) => o.type === 'value').map((o) => (o as { name: string }).name), span: c });
    }
  }
  return out;
}

function check(op: Operation, table: TableDef): Problem[] {
  if (op.kind !== 'Query') return [];
  const node = prop(op.params, 'KeyConditionExpression');
  if (node?.kind !== 'string') return [];
  const schema = schemaOf(op, table);
  if (!schema) return [];
  const leaves = keyLeaves(node, namesOf(op.params));
  // Shapes the validator reports by itself (more than two conditions, two on one key, no equality at all).
  if (!leaves?.length || leaves.length > 2 || new Set(leaves.map((l) => l.attr)).size !== leaves.length || !leaves.some((l) => l.op === '=')) return [];
  const what = schema.index ? `the index ${schema.index.name}` : 'the table';
  const keys = schema.sort ? `${schema.partition.name} (partition) + ${schema.sort.name} (sort)` : `${schema.partition.name} (partition only)`;
  const out: Problem[] = [];
  const pk = leaves.find((l) => l.attr === schema.partition.name);
  if (!pk) out.push({ range: node.range, key: `missing-pk:${schema.partition.name}`, message: `The key condition has no equality on the partition key ${schema.partition.name} of ${what} (its key: ${keys}). DynamoDB: "Query condition missed key schema element: ${schema.partition.name}"` });
  else if (pk.op !== '=') out.push({ range: spanRange(node, pk.span), key: `pk-op:${pk.attr}`, message: `The partition key ${pk.attr} takes only =; ranges and begins_with apply to the sort key. DynamoDB: "Query key condition not supported"` });
  for (const l of leaves) {
    if (l === pk) continue;
    if (l.attr !== schema.sort?.name) {
      out.push({ range: spanRange(node, l.path), key: `not-key:${l.attr}`, message: `${l.attr} is not a key attribute of ${what} (its key: ${keys}): move this condition to a FilterExpression${schema.index ? '' : ', or query an index keyed on it'}. DynamoDB: "Query condition missed key schema element"` });
      continue;
    }
    if (l.op === 'begins_with' && schema.sort.type === 'N') out.push({ range: spanRange(node, l.span), key: `begins:${l.attr}`, message: `begins_with needs a string or binary sort key; ${l.attr} is declared a number (N): use BETWEEN or a comparison. DynamoDB: "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"` });
  }
  // Values of the declared types.
  for (const l of leaves) {
    const attr = l.attr === schema.partition.name ? schema.partition : l.attr === schema.sort?.name ? schema.sort : undefined;
    if (!attr?.type) continue;
    for (const v of l.values) {
      const e = valueEntry(op.params, v);
      if (!e) continue;
      const t = valueType(e.value, op.site.style);
      if (t === 'unknown' || t === attr.type) continue;
      out.push({ range: e.value.range, key: `type:${l.attr}:${v}:${t}`, message: `${v} is compared with ${l.attr}, declared ${TYPE_WORD[attr.type]}, but holds ${describeType(t)}. DynamoDB: "One or more parameter values were invalid: Condition parameter type does not match schema type"` });
    }
  }
  return out;
}

export const keyConditionSchema = tableRule(id, { description: "A Query KeyConditionExpression that does not fit the key schema of the table or index it reads (partition key equality, sort key only, begins_with on a string key, value types)." }, check);
