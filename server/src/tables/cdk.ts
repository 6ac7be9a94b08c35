/**
 * AWS CDK tables and CreateTable requests in code, host-independent: the TypeScript and Python front ends
 * (cdk-typescript.ts, cdk-python.ts) turn constructor calls, method calls and literals into PNodes (Python keyword
 * arguments become a map with camelCase keys), and this file reads them:
 *   new Table(scope, 'Id', { tableName, partitionKey: { name, type: AttributeType.STRING }, sortKey, billingMode })
 *   new TableV2(scope, 'Id', { ..., globalSecondaryIndexes: [...], localSecondaryIndexes: [...] })
 *   table.addGlobalSecondaryIndex({ indexName, partitionKey, sortKey, projectionType, nonKeyAttributes })
 *   table.addLocalSecondaryIndex({ indexName, sortKey, ... })
 *   new lambda.Function(..., { environment: { TABLE: table.tableName } }), fn.addEnvironment('TABLE', table.tableName)
 *   new CreateTableCommand({...}) / client.createTable({...}) / client.create_table(...)
 */
import { DefLocation, EnvBinding, FileTables, IndexDef, KeyAttr, LineMap, NameSpec, TableDef, keyTypeOf } from './model';
import { readShape } from './shape';
import { PNode, Span, get, strOf } from './value';

export interface CdkTableCall {
  /** `Table` or `TableV2`. */
  kind: 'Table' | 'TableV2';
  /** The construct id (second argument). */
  constructId?: string;
  props: PNode;
  /** The variable/property the construct is assigned to (`likes` in `const likes = new Table(...)`, `this.likes`). */
  boundTo?: string;
  range: Span;
}

export interface CdkIndexCall {
  method: 'addGlobalSecondaryIndex' | 'addLocalSecondaryIndex';
  /** The receiver's variable (`likes`, `this.likes`), undefined when not a plain name. */
  receiver?: string;
  props: PNode;
  range: Span;
}

export interface CdkEnvEntry {
  variable: string;
  /** The receiver of `.tableName` (`likes`, `this.likes`), or a literal name. */
  tableVar?: string;
  literal?: string;
  range: Span;
}

export interface CodeFacts {
  tables: CdkTableCall[];
  indexCalls: CdkIndexCall[];
  env: CdkEnvEntry[];
  createTables: { props: PNode; range: Span }[];
}

export interface CodeReader {
  uri: string;
  label: string;
  lines: LineMap;
}

function attr(n: PNode | undefined): KeyAttr | undefined {
  const name = strOf(get(n, 'name'));
  if (!name || (n?.kind === 'map' && get(n, 'name')?.kind === 'str' && (get(n, 'name') as { pattern?: boolean }).pattern)) return undefined;
  const typeNode = get(n, 'type');
  const type = keyTypeOf(typeNode?.kind === 'unknown' ? typeNode.text : strOf(typeNode));
  return type ? { name, type } : { name };
}

function nameSpec(n: PNode | undefined): NameSpec {
  if (n?.kind !== 'str') return undefined;
  return n.pattern ? { pattern: n.value } : { literal: n.value };
}

function textOf(n: PNode | undefined): string | undefined {
  return n?.kind === 'unknown' ? n.text : strOf(n);
}

/** One index from CDK props (`indexName`, `partitionKey`, `sortKey`, `projectionType`, `nonKeyAttributes`). */
function cdkIndex(props: PNode, kind: 'global' | 'local', tablePartition: KeyAttr, loc: DefLocation): IndexDef | undefined {
  const name = strOf(get(props, 'indexName'));
  const partition = kind === 'local' ? tablePartition : attr(get(props, 'partitionKey'));
  if (!name || !partition) return undefined;
  const def: IndexDef = { name, kind, partition, location: loc };
  const sort = attr(get(props, 'sortKey'));
  if (get(props, 'sortKey') && !sort) return undefined;
  if (sort) def.sort = sort;
  const proj = textOf(get(props, 'projectionType'))?.replace(/^.*\./, '');
  const nka = get(props, 'nonKeyAttributes');
  const attributes = nka?.kind === 'list' ? nka.items.map(strOf).filter((s): s is string => !!s) : undefined;
  def.projection = { type: proj ?? 'ALL', ...(attributes ? { attributes } : {}) };
  return def;
}

/** Tables, indexes and environment bindings from the facts a front end collected in one file. */
export function readCodeFacts(facts: CodeFacts, r: CodeReader): FileTables {
  const out: FileTables = { uri: r.uri, tables: [], env: [], problems: [] };
  const loc = (s: Span) => r.lines.location(r.uri, r.label, s.start, s.end);
  const byVar = new Map<string, TableDef>();
  for (const t of facts.tables) {
    const partition = attr(get(t.props, 'partitionKey'));
    const location = loc(t.range);
    const who = t.constructId ?? t.boundTo ?? t.kind;
    if (!partition) {
      if (t.props.kind === 'map' && get(t.props, 'partitionKey')) out.problems.push({ message: `${who}: its partitionKey is not a literal { name, type }; requests against it are linted without its key schema.`, location });
      continue;
    }
    // No tableName: CDK generates <stack>-<constructId><hash>-<suffix>.
    const name: NameSpec = nameSpec(get(t.props, 'tableName')) ?? (t.constructId && !get(t.props, 'tableName') ? { pattern: `*-${t.constructId}*` } : undefined);
    const billingText = textOf(get(t.props, 'billingMode')) ?? textOf(get(t.props, 'billing'));
    const billing = billingText ? (/PAY_PER_REQUEST|onDemand/i.test(billingText) ? 'PAY_PER_REQUEST' : /PROVISIONED|provisioned/i.test(billingText) ? 'PROVISIONED' : undefined) : t.kind === 'TableV2' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
    const def: TableDef = { id: `${r.uri}#${t.constructId ?? t.boundTo ?? t.range.start}`, logicalId: who, name, source: 'cdk', partition, indexes: [], indexesKnown: true, location };
    if (billing) def.billing = billing;
    const sortNode = get(t.props, 'sortKey');
    const sort = attr(sortNode);
    if (sortNode && !sort) continue;
    if (sort) def.sort = sort;
    for (const [field, kind] of [['globalSecondaryIndexes', 'global'], ['localSecondaryIndexes', 'local']] as const) {
      const list = get(t.props, field);
      if (!list) continue;
      if (list.kind !== 'list') def.indexesKnown = false;
      else
        for (const ix of list.items) {
          const d = cdkIndex(ix, kind, partition, loc(ix.range));
          if (d) def.indexes.push(d);
          else def.indexesKnown = false;
        }
    }
    if (t.props.kind !== 'map') def.indexesKnown = false;
    out.tables.push(def);
    if (t.boundTo) byVar.set(t.boundTo, def);
  }
  for (const c of facts.indexCalls) {
    const table = c.receiver ? byVar.get(c.receiver) : undefined;
    if (!table) {
      // An index added to a table we cannot name: no table of this file can be said to lack an index.
      for (const t of out.tables) t.indexesKnown = false;
      continue;
    }
    const d = cdkIndex(c.props, c.method === 'addGlobalSecondaryIndex' ? 'global' : 'local', table.partition, loc(c.range));
    if (d) table.indexes.push(d);
    else table.indexesKnown = false;
  }
  for (const e of facts.env) {
    const location = loc(e.range);
    const b: EnvBinding | undefined = e.tableVar ? (byVar.get(e.tableVar) ? { variable: e.variable, tableId: byVar.get(e.tableVar)!.id, location } : undefined) : e.literal ? { variable: e.variable, name: { literal: e.literal }, location } : undefined;
    if (b) out.env.push(b);
  }
  for (const c of facts.createTables) {
    const shape = readShape(c.props, r);
    const location = loc(c.range);
    const name = nameSpec(get(c.props, 'TableName'));
    if (!shape) {
      if (get(c.props, 'KeySchema')) out.problems.push({ message: `CreateTable ${strOf(get(c.props, 'TableName')) ?? ''}: its KeySchema is not a literal list; requests against it are linted without its key schema.`.replace('  ', ' '), location });
      continue;
    }
    if (!name) continue;
    out.tables.push({ id: `${r.uri}#${c.range.start}`, logicalId: strOf(get(c.props, 'TableName')), name, source: 'create-table', ...shape, location });
  }
  return out;
}

/** Does this text look like CDK table code or a CreateTable call? (cheap prefilter) */
export function mayDefineCodeTable(text: string): boolean {
  return ((text.includes('dynamodb') || text.includes('Table')) && /\bTable(V2)?\b/.test(text) && /partition_?[kK]ey/.test(text)) || /create_?[tT]able|CreateTable/.test(text);
}
