/**
 * What the workspace knows about DynamoDB tables: definitions read from infrastructure code (CloudFormation/SAM,
 * Serverless, CDK, Terraform, CreateTable requests, `.dynalintrc.json`), and which environment variables carry a
 * table's name to the code. Plain data (JSON-serialisable: the CLI hands it to worker threads), per file.
 */

/** A scalar key attribute type; undefined when the definition does not say (an intrinsic, a variable). */
export type KeyType = 'S' | 'N' | 'B';

export interface KeyAttr {
  name: string;
  type?: KeyType;
}

/** Where something is defined: a document uri, an LSP range, and `file:line` for messages. */
export interface DefLocation {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** `template.yaml:12` (path relative to the workspace root when known). */
  label: string;
}

export interface IndexDef {
  name: string;
  kind: 'global' | 'local';
  partition: KeyAttr;
  sort?: KeyAttr;
  /** ALL, KEYS_ONLY or INCLUDE (with its non-key attributes). */
  projection?: { type: string; attributes?: string[] };
  location: DefLocation;
}

/**
 * A table's physical name as the definition gives it: a literal, a pattern whose `*` stand for parts known only at
 * deploy time (`${stage}`, `${AWS::StackName}`), or none (a generated name).
 */
export type NameSpec = { literal: string } | { pattern: string } | undefined;

export type DefinitionSource = 'cloudformation' | 'sam' | 'serverless' | 'cdk' | 'terraform' | 'create-table' | 'config';

export interface TableDef {
  /** Unique in the workspace: `<uri>#<logical id or name>`. */
  id: string;
  /** The logical id / construct id / resource name (`LikesTable`, `aws_dynamodb_table.likes`). */
  logicalId?: string;
  name: NameSpec;
  source: DefinitionSource;
  partition: KeyAttr;
  sort?: KeyAttr;
  indexes: IndexDef[];
  /** false when the definition's indexes could not all be read (an intrinsic, a variable, a loop): no "unknown index". */
  indexesKnown: boolean;
  billing?: string;
  location: DefLocation;
}

/** An environment variable a deployment sets to a table's name (`Environment: Variables: TABLE: !Ref LikesTable`). */
export interface EnvBinding {
  variable: string;
  /** `TableDef.id` when the table is defined in the same file, else a logical reference resolved by the index. */
  tableId?: string;
  /** The table's name when the binding gives it directly (`TABLE: likes`, `TABLE: likes-${opt:stage}`). */
  name?: NameSpec;
  location: DefLocation;
}

/** A definition that could not be read: reported once, as information, in its own file. */
export interface DefinitionProblem {
  message: string;
  location: DefLocation;
}

export interface FileTables {
  uri: string;
  tables: TableDef[];
  env: EnvBinding[];
  problems: DefinitionProblem[];
}

/** Turns document offsets into LSP positions for one text (line starts computed once). */
export class LineMap {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  position(offset: number): { line: number; character: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }
  location(uri: string, label: string, start: number, end: number): DefLocation {
    const s = this.position(start);
    return { uri, range: { start: s, end: this.position(end) }, label: `${label}:${s.line + 1}` };
  }
}

/** A key attribute type from any spelling: `S`, `STRING`, `AttributeType.STRING`, `dynamodb.AttributeType.NUMBER`. */
export function keyTypeOf(text: string | undefined): KeyType | undefined {
  if (!text) return undefined;
  const t = text.replace(/^.*\./, '').toUpperCase();
  if (t === 'S' || t === 'STRING') return 'S';
  if (t === 'N' || t === 'NUMBER') return 'N';
  if (t === 'B' || t === 'BINARY') return 'B';
  return undefined;
}

export const TYPE_WORD: Record<KeyType, string> = { S: 'string (S)', N: 'number (N)', B: 'binary (B)' };

/** Does a literal table name match a name spec? Patterns need at least 3 literal characters to match anything. */
export function nameMatches(spec: NameSpec, name: string): boolean {
  if (!spec) return false;
  if ('literal' in spec) return spec.literal === name;
  const literal = spec.pattern.replace(/\*/g, '');
  if (literal.length < 3) return false;
  const re = new RegExp('^' + spec.pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+') + '$');
  return re.test(name);
}

export function nameText(spec: NameSpec): string | undefined {
  if (!spec) return undefined;
  return 'literal' in spec ? spec.literal : spec.pattern;
}

/** How a table is named in messages: `LikesTable (template.yaml:12)`. */
export function tableLabel(t: TableDef): string {
  const name = t.logicalId ?? nameText(t.name) ?? 'table';
  return `${name} (${t.location.label})`;
}
