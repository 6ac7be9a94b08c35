/**
 * Per-file table extraction: which files may define tables (a cheap prefilter on the name and text), and what one
 * file defines. Never throws: a reader that fails reports one problem in that file.
 */
import { ParseError, parseTree } from 'jsonc-parser';
import { cfnTablesFromJson, cfnTablesFromYaml, mayDefineCfnTable } from './cloudformation';
import { mayDefineCodeTable } from './cdk';
import { codeTablesPython } from './cdk-python';
import { ensureGrammar } from './grammars';
import { DefinitionProblem, FileTables, KeyAttr, LineMap, TableDef, keyTypeOf } from './model';
import { readShape } from './shape';
import { terraformTables, mayDefineTerraformTable } from './terraform';
import { fromJson, get, strOf } from './value';

export type TableFileKind = 'yaml' | 'json' | 'terraform' | 'typescript' | 'javascript' | 'python' | 'rc';

/** What kind of definition file a path is, by its name; undefined for files never read for tables. */
export function tableFileKind(path: string): TableFileKind | undefined {
  const base = path.replace(/^.*[\\/]/, '').toLowerCase();
  if (base === '.dynalintrc.json') return 'rc';
  if (base.endsWith('.d.ts')) return undefined;
  const ext = /\.([a-z]+)$/.exec(base)?.[1];
  switch (ext) {
    case 'yaml':
    case 'yml':
      return 'yaml';
    case 'json':
    case 'template':
      return base.endsWith('.template') && !base.endsWith('.json.template') ? 'yaml' : 'json';
    case 'tf':
      return 'terraform';
    case 'ts':
    case 'mts':
    case 'cts':
    case 'tsx':
      return 'typescript';
    case 'js':
    case 'mjs':
    case 'cjs':
      return 'javascript';
    case 'py':
      return 'python';
    default:
      return undefined;
  }
}

/** The cheap test on a file's text (an `includes`, no parse): could it define a table? */
export function mayDefineTables(kind: TableFileKind, text: string): boolean {
  switch (kind) {
    case 'rc':
      return text.includes('"tables"');
    case 'yaml':
      return mayDefineCfnTable(text);
    case 'json':
      return mayDefineCfnTable(text) || (text.includes('KeySchema') && text.includes('TableName'));
    case 'terraform':
      return mayDefineTerraformTable(text);
    default:
      return mayDefineCodeTable(text);
  }
}

/** Parsers a kind needs loaded before `extractTables` (WASM grammars). */
export function ensureTableParsers(kind: TableFileKind): Promise<void> {
  if (kind === 'terraform') return ensureGrammar('terraform');
  if (kind === 'python') return ensureGrammar('python');
  return Promise.resolve();
}

let tsReader: typeof import('./cdk-typescript') | undefined;

/** `.dynalintrc.json` `tables`: `{ "<name>": { "partitionKey": "PK" | {name, type}, "sortKey", "indexes", "billingMode" } }`. */
export function rcTables(uri: string, label: string, text: string): FileTables {
  const out: FileTables = { uri, tables: [], env: [], problems: [] };
  const lines = new LineMap(text);
  const errors: ParseError[] = [];
  const root = fromJson(parseTree(text, errors, { allowTrailingComma: true }) ?? undefined);
  const tables = get(root, 'tables');
  if (tables?.kind !== 'map') return out;
  const attr = (n: ReturnType<typeof get>): KeyAttr | undefined => {
    if (n?.kind === 'str') return { name: n.value };
    const name = strOf(get(n, 'name'));
    const t = keyTypeOf(strOf(get(n, 'type')));
    return name ? (t ? { name, type: t } : { name }) : undefined;
  };
  for (const e of tables.entries) {
    const location = lines.location(uri, label, e.keyRange.start, e.keyRange.end);
    const partition = attr(get(e.value, 'partitionKey'));
    if (!partition) {
      out.problems.push({ message: `tables.${e.key}: partitionKey is missing (a name, or { "name", "type" }).`, location });
      continue;
    }
    const def: TableDef = { id: `${uri}#${e.key}`, logicalId: e.key, name: { literal: e.key }, source: 'config', partition, indexes: [], indexesKnown: true, location };
    const sort = attr(get(e.value, 'sortKey'));
    if (sort) def.sort = sort;
    const billing = strOf(get(e.value, 'billingMode'));
    if (billing) def.billing = billing;
    const ixs = get(e.value, 'indexes');
    if (ixs?.kind === 'map') {
      for (const ix of ixs.entries) {
        const global = strOf(get(ix.value, 'type')) !== 'local';
        const ip = global ? attr(get(ix.value, 'partitionKey')) : partition;
        if (!ip) {
          def.indexesKnown = false;
          continue;
        }
        const is = attr(get(ix.value, 'sortKey'));
        const projection = strOf(get(ix.value, 'projection'));
        def.indexes.push({ name: ix.key, kind: global ? 'global' : 'local', partition: ip, ...(is ? { sort: is } : {}), ...(projection ? { projection: { type: projection } } : {}), location: lines.location(uri, label, ix.keyRange.start, ix.keyRange.end) });
      }
    } else if (ixs) def.indexesKnown = false;
    out.tables.push(def);
  }
  return out;
}

/** A CreateTable request as JSON (`aws dynamodb create-table --cli-input-json file://table.json`). */
function createTableJson(uri: string, label: string, text: string): FileTables {
  const out: FileTables = { uri, tables: [], env: [], problems: [] };
  const lines = new LineMap(text);
  const root = fromJson(parseTree(text, [], { allowTrailingComma: true }) ?? undefined);
  const name = strOf(get(root, 'TableName'));
  if (root.kind !== 'map' || !name || !get(root, 'KeySchema') || !get(root, 'AttributeDefinitions')) return out;
  const shape = readShape(root, { uri, label, lines });
  const location = lines.location(uri, label, root.range.start, root.range.start + 1);
  if (!shape) out.problems.push({ message: `CreateTable ${name}: its KeySchema is not a literal list of HASH/RANGE attributes.`, location });
  else out.tables.push({ id: `${uri}#${name}`, logicalId: name, name: { literal: name }, source: 'create-table', ...shape, location });
  return out;
}

/**
 * What one file defines. `label` is the path shown in messages. Needs `ensureTableParsers(kind)` for Terraform and
 * Python (else they yield nothing). Never throws.
 */
export function extractTables(uri: string, label: string, text: string, kind: TableFileKind): FileTables {
  const empty: FileTables = { uri, tables: [], env: [], problems: [] };
  if (!mayDefineTables(kind, text)) return empty;
  try {
    switch (kind) {
      case 'rc':
        return rcTables(uri, label, text);
      case 'yaml':
        return cfnTablesFromYaml(uri, label, text);
      case 'json': {
        const cfn = mayDefineCfnTable(text) ? cfnTablesFromJson(uri, label, text) : empty;
        return cfn.tables.length || cfn.problems.length ? cfn : createTableJson(uri, label, text);
      }
      case 'terraform':
        return terraformTables(uri, label, text);
      case 'python':
        return codeTablesPython(uri, label, text);
      default:
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        tsReader ??= require('./cdk-typescript') as typeof import('./cdk-typescript');
        return tsReader.codeTablesTs(uri, label, text, kind);
    }
  } catch (e) {
    const problem: DefinitionProblem = { message: `Table definitions in this file could not be read (${String((e as Error)?.message ?? e).split('\n')[0]}); requests against them are linted without their key schemas.`, location: new LineMap('').location(uri, label, 0, 0) };
    return { ...empty, problems: [problem] };
  }
}
