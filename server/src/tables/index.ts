/**
 * The workspace index of table definitions: per-file facts (`FileTables`), replaced or removed per file, and a narrow
 * query interface for rules and the language service (`TableLookup`): which definitions a request's table may be,
 * and where a name is defined. Pure data in memory: the language server and the CLI feed it from files (scan.ts),
 * tests from strings.
 */
import type { Range, StringNode, UnknownNode } from '../extract/model';
import { prop, propEntry } from '../extract/model';
import type { Operation } from '../extract/operations';
import { DefinitionProblem, EnvBinding, FileTables, TableDef, nameMatches, nameText } from './model';

export * from './model';

/** Which definitions a request's table may be, and how we know. */
export interface TableMatch {
  /** One or more candidates (several: a name pattern or an environment variable matching more than one). */
  tables: TableDef[];
  /** The table's name as the request gives it: `"likes"`, or `process.env.TABLE`. */
  name: string;
  /** How the name was resolved, for messages: `set by template.yaml:7`; undefined for a literal name. */
  via?: string;
  /** The document range of the request's table name (a `TableName` value, a `RequestItems` key, a boto3 `Table(...)` argument). */
  range: Range;
}

/** What rules and the service ask of the workspace (tests give an in-memory index). */
export interface TableLookup {
  /** The definitions an operation's table may be; undefined when unknown (then rules stay silent). */
  forOperation(op: Operation): TableMatch | undefined;
  /** Every definition whose name matches a literal table name. */
  definitionOf(name: string): TableDef[];
  /** Bumped on every change of the definitions; a lookup without it is never cached across lints (rules/incremental.ts). */
  readonly generation?: number;
}

/**
 * The environment variable a table name's source text reads, when that text is nothing but the read:
 * `process.env.TABLE` / `process.env["TABLE"]` (TypeScript/JavaScript), `os.environ["TABLE"]` / `os.environ.get("TABLE")`
 * / `os.getenv("TABLE")` (Python), `os.Getenv("TABLE")` (Go), `System.getenv("TABLE")` / `System.getenv().get("TABLE")`
 * (Java). A fallback for an unset variable may follow (`|| 'x'`, `?? x`, `or "x"`, `.get("T", "x")`, `getOrDefault("T", "x")`):
 * the binding says it is set. Anything else after it (`process.env.PREFIX + "-likes"`) is another name: undefined.
 */
export function envVariableOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const t = text.trim();
  const m =
    /^process\.env\.([A-Za-z_][A-Za-z0-9_]*)\b/.exec(t) ??
    /^process\.env\[\s*(?:'([^']+)'|"([^"]+)"|`([^`$]+)`)\s*\]/.exec(t) ??
    /^(?:os\.)?environ\[\s*(?:'([^']+)'|"([^"]+)")\s*\]/.exec(t) ??
    /^(?:os\.)?environ\.get\(\s*(?:'([^']+)'|"([^"]+)")\s*(?:\)|,[^()]*\))/.exec(t) ??
    /^os\.getenv\(\s*(?:'([^']+)'|"([^"]+)")\s*(?:\)|,[^()]*\))/.exec(t) ??
    /^os\.Getenv\(\s*(?:"([^"\\]+)"|`([^`]+)`)\s*\)/.exec(t) ??
    /^(?:java\.lang\.)?System\.getenv\(\s*"([^"\\]+)"\s*\)/.exec(t) ??
    /^(?:java\.lang\.)?System\.getenv\(\s*\)\.(?:get\(\s*"([^"\\]+)"\s*\)|getOrDefault\(\s*"([^"\\]+)"\s*,[^()]*\))/.exec(t);
  const rest = t.slice(m?.[0].length ?? 0);
  if (!m || !/^\s*!?\s*(?:(?:\|\||\?\?|or\b)[\s\S]*)?$/.test(rest) || hasTopLevelConditional(rest)) return undefined;
  return m.slice(1).find((x) => x !== undefined);
}

/**
 * Whether text after a fallback holds a conditional outside brackets and strings: a JS/Java ternary `?` (not `??`,
 * `?.`) or a Python ` if ` (`os.environ.get("T") or "a" if c else "b"` is `(... or "a") if c else "b"`: the whole
 * name depends on `c`).
 */
function hasTopLevelConditional(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < s.length && s[i] !== c; i++) if (s[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === '?' && s[i + 1] !== '?' && s[i + 1] !== '.' && s[i - 1] !== '?') return true;
    else if (depth === 0 && c === 'i' && s[i + 1] === 'f' && !/[\w$]/.test(s[i - 1] ?? '') && !/[\w$]/.test(s[i + 2] ?? '')) return true;
  }
  return false;
}

/** The node naming an operation's table: its `TableName`, else (the request itself) the boto3 `Table(...)` argument. */
function tableNode(op: Operation): StringNode | UnknownNode | undefined {
  if (op.kind === 'BatchGet' || op.kind === 'BatchPut' || op.kind === 'BatchDelete') return undefined;
  const t = prop(op.params, 'TableName');
  if (t) return t.kind === 'string' || t.kind === 'unknown' ? t : undefined;
  return op.params === op.site.params ? op.site.receiverTable : undefined;
}

/** The `RequestItems` key of a batch operation. */
function batchKeyRange(op: Operation): Range | undefined {
  const items = prop(op.site.params, 'RequestItems');
  if (items?.kind !== 'object' || op.table === undefined) return undefined;
  return items.properties.find((p) => p.key === op.table)?.keyRange;
}

export class TableIndex implements TableLookup {
  private readonly files = new Map<string, FileTables>();
  private byId?: Map<string, TableDef>;
  /** Lookups memoized until the next change (seven rules ask about every operation of every lint). */
  private byName = new Map<string, TableDef[]>();
  private byVariable = new Map<string, { tables: TableDef[]; where: string[] }>();
  private byOperation = new WeakMap<object, (TableMatch & { at: number; src?: { readonly range: Range } }) | null>();
  /** Bumped on every change: caches of lints that asked the index compare it. */
  generation = 0;

  /** Replace what a file defines (an empty result removes it). Returns whether anything changed. */
  setFile(facts: FileTables): boolean {
    const before = this.files.get(facts.uri);
    const empty = !facts.tables.length && !facts.env.length && !facts.problems.length;
    if (!before && empty) return false;
    if (before && JSON.stringify(before) === JSON.stringify(facts)) return false;
    if (empty) this.files.delete(facts.uri);
    else this.files.set(facts.uri, facts);
    this.changed();
    return true;
  }

  removeFile(uri: string): boolean {
    if (!this.files.delete(uri)) return false;
    this.changed();
    return true;
  }

  clear(): void {
    this.files.clear();
    this.changed();
  }

  private changed(): void {
    this.generation++;
    this.byId = undefined;
    this.byName.clear();
    this.byVariable.clear();
    this.byOperation = new WeakMap();
  }

  /** Whether the index holds facts for a file. */
  has(uri: string): boolean {
    return this.files.has(uri);
  }

  /** Files the index holds facts for. */
  uris(): string[] {
    return [...this.files.keys()];
  }

  all(): TableDef[] {
    return [...this.files.values()].flatMap((f) => f.tables);
  }

  problems(uri?: string): DefinitionProblem[] {
    if (uri !== undefined) return this.files.get(uri)?.problems ?? [];
    return [...this.files.values()].flatMap((f) => f.problems);
  }

  bindings(): EnvBinding[] {
    return [...this.files.values()].flatMap((f) => f.env);
  }

  /** The index's content as plain data (for worker threads), and back. */
  snapshot(): FileTables[] {
    return [...this.files.values()];
  }
  static from(files: FileTables[]): TableIndex {
    const ix = new TableIndex();
    for (const f of files) ix.setFile(f);
    return ix;
  }

  private table(id: string): TableDef | undefined {
    this.byId ??= new Map(this.all().map((t) => [t.id, t]));
    return this.byId.get(id);
  }

  definitionOf(name: string): TableDef[] {
    let hit = this.byName.get(name);
    if (!hit) this.byName.set(name, (hit = this.lookupName(name)));
    return hit;
  }

  private lookupName(name: string): TableDef[] {
    const all = this.all();
    const exact = all.filter((t) => t.name && 'literal' in t.name && t.name.literal === name);
    return exact.length ? exact : all.filter((t) => t.name && 'pattern' in t.name && nameMatches(t.name, name));
  }

  /** Definitions an environment variable may name, with where it is set. */
  definitionsOfVariable(variable: string): { tables: TableDef[]; where: string[] } {
    let hit = this.byVariable.get(variable);
    if (!hit) this.byVariable.set(variable, (hit = this.lookupVariable(variable)));
    return hit;
  }

  private lookupVariable(variable: string): { tables: TableDef[]; where: string[] } {
    const tables = new Map<string, TableDef>();
    const where: string[] = [];
    for (const b of this.bindings()) {
      if (b.variable !== variable) continue;
      const found = b.tableId ? [this.table(b.tableId)].filter((t): t is TableDef => !!t) : b.name ? this.bySpec(b.name) : [];
      if (!found.length) continue;
      where.push(b.location.label);
      for (const t of found) tables.set(t.id, t);
    }
    return { tables: [...tables.values()], where };
  }

  private bySpec(spec: NonNullable<EnvBinding['name']>): TableDef[] {
    if ('literal' in spec) return this.definitionOf(spec.literal);
    return this.all().filter((t) => nameText(t.name) === spec.pattern);
  }

  forOperation(op: Operation): TableMatch | undefined {
    // Keyed by the action's params object: an incremental extractor moves an untouched site's offsets in place, so
    // the cached range would go stale; the key includes where the params start.
    // The range is read again from the node it came from: a compact node's `range` is a copy, and the node (a
    // receiver table declared in another statement) may have moved while the params did not.
    const cached = this.byOperation.get(op.params);
    if (cached !== undefined && (cached === null || cached.at === op.params.range.start)) {
      if (cached?.src) cached.range = cached.src.range;
      return cached ?? undefined;
    }
    const src: { src?: { readonly range: Range } } = {};
    const m = this.match(op, src);
    this.byOperation.set(op.params, m ? { ...m, at: op.params.range.start, src: src.src } : null);
    return m;
  }

  /** `src.src`: the node whose range the match's is (not for batch requests: their range is inside the site). */
  private match(op: Operation, src: { src?: { readonly range: Range } }): TableMatch | undefined {
    if (op.kind === 'BatchGet' || op.kind === 'BatchPut' || op.kind === 'BatchDelete') {
      const range = batchKeyRange(op);
      if (op.table === undefined || !range) return undefined;
      const tables = this.definitionOf(op.table);
      return tables.length ? { tables, name: op.table, range } : undefined;
    }
    const node = tableNode(op);
    if (!node) return undefined;
    // Where the request names its table: the `TableName: X` entry as written at the call (a resolved constant's node
    // points at the constant's declaration), or the boto3 Table(...) argument.
    src.src = propEntry(op.params, 'TableName') ?? node;
    const range = src.src.range;
    if (node.kind === 'string') {
      const tables = this.definitionOf(node.value);
      return tables.length ? { tables, name: node.value, range } : undefined;
    }
    const variable = envVariableOf(node.text);
    if (!variable) return undefined;
    const { tables, where } = this.definitionsOfVariable(variable);
    return tables.length ? { tables, name: node.text!.trim().split(/\s/)[0], via: `set by ${where.join(', ')}`, range } : undefined;
  }
}
