/**
 * The CreateTable shape, shared by CloudFormation `AWS::DynamoDB::Table`/`GlobalTable` properties, CreateTable
 * requests (JSON, SDK calls, boto3) and `.dynalintrc.json` tables: `KeySchema`, `AttributeDefinitions`,
 * `GlobalSecondaryIndexes`, `LocalSecondaryIndexes`, `BillingMode`. Anything not literal is unknown, never guessed.
 */
import { IndexDef, KeyAttr, KeyType, LineMap, keyTypeOf } from './model';
import { PNode, get, strOf } from './value';

export interface ShapeContext {
  uri: string;
  label: string;
  lines: LineMap;
}

export interface Shape {
  partition: KeyAttr;
  sort?: KeyAttr;
  indexes: IndexDef[];
  indexesKnown: boolean;
  billing?: string;
}

/** `KeySchema: [{AttributeName, KeyType: HASH|RANGE}]` -> partition/sort names; undefined when not literal. */
export function keySchema(n: PNode | undefined): { partition: string; sort?: string } | undefined {
  if (n?.kind !== 'list') return undefined;
  let partition: string | undefined;
  let sort: string | undefined;
  for (const e of n.items) {
    const name = strOf(get(e, 'AttributeName'));
    const kt = strOf(get(e, 'KeyType'));
    if (!name || !kt) return undefined;
    if (kt === 'HASH' && partition === undefined) partition = name;
    else if (kt === 'RANGE' && sort === undefined) sort = name;
    else return undefined;
  }
  return partition ? { partition, sort } : undefined;
}

/** `AttributeDefinitions: [{AttributeName, AttributeType}]` -> name -> type (only the literal ones). */
export function attributeTypes(n: PNode | undefined): Map<string, KeyType> {
  const out = new Map<string, KeyType>();
  if (n?.kind !== 'list') return out;
  for (const e of n.items) {
    const name = strOf(get(e, 'AttributeName'));
    const t = keyTypeOf(strOf(get(e, 'AttributeType')));
    if (name && t) out.set(name, t);
  }
  return out;
}

function projection(n: PNode | undefined): IndexDef['projection'] {
  const type = strOf(get(n, 'ProjectionType'));
  if (!type) return undefined;
  const attrs = get(n, 'NonKeyAttributes');
  const attributes = attrs?.kind === 'list' ? attrs.items.map(strOf).filter((s): s is string => !!s) : undefined;
  return attributes ? { type, attributes } : { type };
}

/** Read the shape; undefined when the table's own key schema is not literal (then nothing can be checked). */
export function readShape(props: PNode, ctx: ShapeContext): Shape | undefined {
  const keys = keySchema(get(props, 'KeySchema'));
  if (!keys) return undefined;
  const types = attributeTypes(get(props, 'AttributeDefinitions'));
  const attr = (name: string): KeyAttr => (types.has(name) ? { name, type: types.get(name) } : { name });
  const shape: Shape = { partition: attr(keys.partition), indexes: [], indexesKnown: true };
  if (keys.sort) shape.sort = attr(keys.sort);
  const billing = strOf(get(props, 'BillingMode'));
  if (billing) shape.billing = billing;
  else if (get(props, 'ProvisionedThroughput')) shape.billing = 'PROVISIONED';
  for (const [field, kind] of [['GlobalSecondaryIndexes', 'global'], ['LocalSecondaryIndexes', 'local']] as const) {
    const list = get(props, field);
    if (!list) continue;
    if (list.kind !== 'list') {
      shape.indexesKnown = false;
      continue;
    }
    for (const ix of list.items) {
      const name = strOf(get(ix, 'IndexName'));
      const ik = keySchema(get(ix, 'KeySchema'));
      if (!name || !ik) {
        shape.indexesKnown = false;
        continue;
      }
      const def: IndexDef = { name, kind, partition: attr(ik.partition), projection: projection(get(ix, 'Projection')), location: ctx.lines.location(ctx.uri, ctx.label, ix.range.start, ix.range.end) };
      if (ik.sort) def.sort = attr(ik.sort);
      shape.indexes.push(def);
    }
  }
  return shape;
}
