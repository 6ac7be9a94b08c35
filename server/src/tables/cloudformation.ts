/**
 * Tables from CloudFormation and SAM templates (JSON or YAML with short-form tags) and Serverless Framework files
 * (`resources:` holds CloudFormation): `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable`,
 * `AWS::Serverless::SimpleTable`; and the environment variables functions get a table's name through
 * (`Environment: Variables: TABLE: !Ref LikesTable`, SAM `Globals`, Serverless `provider.environment`).
 */
import { parseAllDocuments } from 'yaml';
import { ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { DefinitionProblem, FileTables, LineMap, NameSpec, TableDef, keyTypeOf } from './model';
import { readShape } from './shape';
import { PNode, Span, fromJson, fromYaml, get, strOf } from './value';

const TABLE_TYPES: Record<string, TableDef['source']> = {
  'AWS::DynamoDB::Table': 'cloudformation',
  'AWS::DynamoDB::GlobalTable': 'cloudformation',
  'AWS::Serverless::SimpleTable': 'sam',
};
const FUNCTION_TYPES = new Set(['AWS::Lambda::Function', 'AWS::Serverless::Function']);

/** The cheap test: could this text define a table or wire one into a function? */
export function mayDefineCfnTable(text: string): boolean {
  return text.includes('AWS::DynamoDB::') || text.includes('AWS::Serverless::SimpleTable');
}

/** Split `${...}` variables out of a string (balanced braces, for Serverless `${opt:stage, ${self:x}}`). */
function substitute(s: string, resolve: (expr: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const at = s.indexOf('${', i);
    if (at < 0) break;
    let depth = 0;
    let j = at;
    for (; j < s.length; j++) {
      if (s[j] === '{') depth++;
      else if (s[j] === '}' && --depth === 0) break;
    }
    if (j >= s.length) break;
    out += s.slice(i, at);
    const expr = s.slice(at + 2, j);
    // `${!Literal}` in Fn::Sub is the text `${Literal}`.
    out += expr.startsWith('!') ? '${' + expr.slice(1) + '}' : (resolve(expr.trim()) ?? '*');
    i = j + 1;
  }
  return (out + s.slice(i)).replace(/\*+/g, '*');
}

const spec = (s: string): NameSpec => (s.replace(/\*/g, '') === '' ? undefined : s.includes('*') ? { pattern: s } : { literal: s });

interface Reader {
  uri: string;
  label: string;
  lines: LineMap;
  /** Serverless: resolves `${self:...}` variables that are literals in the file. */
  vars?: (expr: string) => string | undefined;
  /** The template's `Parameters` (logical ids). */
  params?: Set<string>;
  /** Tables whose `TableName` is exactly a Parameter (`!Ref P`, `!Sub "${P}"`), by Parameter: the value they share with
   * an environment variable set to `!Ref P` (whatever a deployment passes, never the `Default`). */
  byParam?: Map<string, string[]>;
}

/** `!Ref X`, `{"Ref": "X"}`, `!Sub "${X}"`: the logical id (resource or Parameter) a value is exactly; else undefined. */
function refOf(val: PNode): string | undefined {
  if (val.kind === 'fn' && val.name === 'Ref') return strOf(val.arg);
  if (val.kind === 'fn' && val.name === 'Sub' && val.arg.kind === 'str') return /^\$\{([A-Za-z0-9]+)\}$/.exec(val.arg.value)?.[1];
  if (val.kind === 'map' && val.entries.length === 1 && val.entries[0].key === 'Ref') return strOf(val.entries[0].value);
  return undefined;
}

/** A name value: literal, `!Sub`, `!Join ['', [...]]`; unknown parts become `*`. */
function nameOf(n: PNode | undefined, r: Reader, depth = 0): string | undefined {
  if (!n || depth > 8) return undefined;
  if (n.kind === 'str') return r.vars ? substitute(n.value, r.vars) : n.value;
  if (n.kind === 'num') return n.value;
  if (n.kind !== 'fn') return undefined;
  if (n.name === 'Sub') {
    const template = n.arg.kind === 'list' ? n.arg.items[0] : n.arg;
    const vars = n.arg.kind === 'list' ? n.arg.items[1] : undefined;
    if (template?.kind !== 'str') return undefined;
    return substitute(template.value, (e) => {
      const own = get(vars, e);
      return own ? nameOf(own, r, depth + 1) : r.vars?.(e);
    });
  }
  if (n.name === 'Join' && n.arg.kind === 'list' && n.arg.items[1]?.kind === 'list') {
    const sep = strOf(n.arg.items[0]) ?? '';
    return n.arg.items[1].items.map((p) => nameOf(p, r, depth + 1) ?? '*').join(sep).replace(/\*+/g, '*');
  }
  return '*';
}

/** Read the `Resources` map of a template (or of a Serverless `resources:` section). */
function readResources(resources: PNode | undefined, r: Reader, out: FileTables): void {
  if (resources?.kind !== 'map') return;
  const tableIds = new Set<string>();
  for (const res of resources.entries) {
    const type = strOf(get(res.value, 'Type'));
    const source = type ? TABLE_TYPES[type] : undefined;
    if (!source) continue;
    tableIds.add(res.key);
    const props = get(res.value, 'Properties');
    const location = r.lines.location(r.uri, r.label, res.keyRange.start, res.keyRange.end);
    const problem = (message: string) => out.problems.push({ message: `${res.key}: ${message}; requests against it are linted without its key schema.`, location });
    const id = `${r.uri}#${res.key}`;
    const rawName = props ? nameOf(get(props, 'TableName'), r) : undefined;
    // No TableName: CloudFormation names it <stack>-<LogicalId>-<random>.
    const name: NameSpec = rawName !== undefined ? spec(rawName) : { pattern: `*-${res.key}-*` };
    if (source === 'sam') {
      const pk = get(props, 'PrimaryKey');
      const pkName = pk ? strOf(get(pk, 'Name')) : 'id';
      if (!pkName) {
        problem('its PrimaryKey is not a literal');
        continue;
      }
      const type = pk ? keyTypeOf(strOf(get(pk, 'Type'))) : 'S';
      out.tables.push({ id, logicalId: res.key, name, source, partition: type ? { name: pkName, type } : { name: pkName }, indexes: [], indexesKnown: true, billing: get(props, 'ProvisionedThroughput') ? 'PROVISIONED' : 'PAY_PER_REQUEST', location });
      continue;
    }
    const shape = props ? readShape(props, { uri: r.uri, label: r.label, lines: r.lines }) : undefined;
    if (!shape) {
      problem(props?.kind === 'map' ? 'its KeySchema is not a literal list of HASH/RANGE attributes' : 'its Properties are not a literal map');
      continue;
    }
    // GlobalTable: billing defaults to PAY_PER_REQUEST (WriteProvisionedThroughputSettings for provisioned).
    if (!shape.billing && type === 'AWS::DynamoDB::GlobalTable') shape.billing = get(props, 'WriteProvisionedThroughputSettings') ? 'PROVISIONED' : 'PAY_PER_REQUEST';
    out.tables.push({ id, logicalId: res.key, name, source, ...shape, location });
    const param = props ? refOf(get(props, 'TableName') ?? { kind: 'unknown', range: res.keyRange }) : undefined;
    if (param !== undefined && r.params?.has(param) && r.byParam) r.byParam.set(param, [...(r.byParam.get(param) ?? []), res.key]);
  }
  for (const res of resources.entries) {
    const type = strOf(get(res.value, 'Type'));
    if (type && FUNCTION_TYPES.has(type)) readEnvironment(get(get(get(res.value, 'Properties'), 'Environment'), 'Variables'), r, tableIds, out);
  }
}

/** `Variables: { TABLE: !Ref LikesTable }` (also `!Sub "${LikesTable}"`, a literal name). */
function readEnvironment(vars: PNode | undefined, r: Reader, tableIds: Set<string>, out: FileTables): void {
  if (vars?.kind !== 'map') return;
  for (const v of vars.entries) {
    const location = r.lines.location(r.uri, r.label, v.keyRange.start, v.value.range.end);
    const val = v.value;
    const ref = refOf(val);
    if (ref !== undefined) {
      if (tableIds.has(ref)) out.env.push({ variable: v.key, tableId: `${r.uri}#${ref}`, location });
      // The same Parameter as a table's TableName: the same value, whatever it is at deploy time.
      else for (const t of r.byParam?.get(ref) ?? []) out.env.push({ variable: v.key, tableId: `${r.uri}#${t}`, location });
      continue;
    }
    const name = nameOf(val, r);
    if (name !== undefined && val.kind !== 'fn') out.env.push({ variable: v.key, name: spec(name), location });
  }
}

/** Serverless variables that are literals in the file: `${self:service}`, `${self:custom.x}`, `${self:provider.y}`. */
function serverlessVars(root: PNode): (expr: string) => string | undefined {
  const seen = new Set<string>();
  const resolve = (expr: string): string | undefined => {
    const m = /^self:([A-Za-z0-9_.-]+)$/.exec(expr.split(',')[0].trim());
    if (!m || seen.has(m[1]) || seen.size > 20) return undefined;
    let n: PNode | undefined = root;
    for (const seg of m[1].split('.')) n = get(n, seg);
    const s = strOf(n) ?? (n?.kind === 'map' ? strOf(get(n, 'name')) : undefined);
    if (s === undefined) return undefined;
    seen.add(m[1]);
    try {
      const v = substitute(s, resolve);
      return v === '*' ? undefined : v;
    } finally {
      seen.delete(m[1]);
    }
  };
  return resolve;
}

function readRoot(root: PNode, r: Reader, out: FileTables): void {
  const resources = get(root, 'resources');
  if (resources && get(root, 'service')) {
    // Serverless Framework: `resources: { Resources: {...} }` (or a list of such maps), `provider.environment`.
    const sr: Reader = { ...r, vars: serverlessVars(root) };
    for (const part of resources.kind === 'list' ? resources.items : [resources]) readResources(get(part, 'Resources'), sr, out);
    const tableIds = new Set(out.tables.map((t) => t.logicalId ?? ''));
    readEnvironment(get(get(root, 'provider'), 'environment'), sr, tableIds, out);
    const fns = get(root, 'functions');
    if (fns?.kind === 'map') for (const f of fns.entries) readEnvironment(get(f.value, 'environment'), sr, tableIds, out);
    return;
  }
  const parameters = get(root, 'Parameters');
  const cr: Reader = { ...r, params: new Set(parameters?.kind === 'map' ? parameters.entries.map((e) => e.key) : []), byParam: new Map() };
  readResources(get(root, 'Resources'), cr, out);
  const tableIds = new Set(out.tables.map((t) => t.logicalId ?? ''));
  readEnvironment(get(get(get(get(root, 'Globals'), 'Function'), 'Environment'), 'Variables'), cr, tableIds, out);
}

function problemAt(r: Reader, message: string, span: Span): DefinitionProblem {
  return { message, location: r.lines.location(r.uri, r.label, span.start, span.end) };
}

/** Tables of a YAML template / serverless.yml. A syntax error is reported once (what parsed is still read). */
export function cfnTablesFromYaml(uri: string, label: string, text: string): FileTables {
  const out: FileTables = { uri, tables: [], env: [], problems: [] };
  const r: Reader = { uri, label, lines: new LineMap(text) };
  // Several documents in one file: each is read.
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: false });
  } catch (e) {
    out.problems.push(problemAt(r, `This template could not be read (${(e as Error).message.split('\n')[0]}); requests against its tables are linted without their key schemas.`, { start: 0, end: 0 }));
    return out;
  }
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    const err = d.errors[0];
    if (err) {
      const at = err.pos?.[0] ?? 0;
      out.problems.push(problemAt(r, `YAML syntax error: ${err.message.split("\n")[0].replace(/:$/, "")}; the tables after it are not read.`, { start: at, end: err.pos?.[1] ?? at }));
    }
    const before = out.problems.length;
    readRoot(fromYaml(d.contents), r, out);
    // One problem per broken file: what the syntax error cut short is not reported again.
    if (err) out.problems.length = before;
  }
  return out;
}

/** Tables of a JSON template. */
export function cfnTablesFromJson(uri: string, label: string, text: string): FileTables {
  const out: FileTables = { uri, tables: [], env: [], problems: [] };
  const r: Reader = { uri, label, lines: new LineMap(text) };
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true });
  if (errors.length) out.problems.push(problemAt(r, `JSON syntax error: ${printParseErrorCode(errors[0].error)}; the tables after it may not be read.`, { start: errors[0].offset, end: errors[0].offset + errors[0].length }));
  if (tree) readRoot(fromJson(tree), r, out);
  return out;
}
