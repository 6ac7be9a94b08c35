/**
 * The contract of the expression validator: plain data in, findings with expression-relative offsets out.
 * Host-independent: the rules layer builds `ExpressionRequest` from an extracted `Operation` and maps findings back to
 * document ranges.
 */
import type { AttrType } from '../core/dynamodb';
import type { ExpressionField } from './ast';
import type { Severity } from '../core/severity';

export type RequestOperation =
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheck'
  | 'GetItem'
  | 'Query'
  | 'Scan'
  | 'BatchGetItem'
  | 'TransactGetItems'
  /** Operation not known (a request by shape alone): only operation-independent checks apply. */
  | 'Unknown';

export interface ValueInfo {
  type: AttrType;
  /** For literal numbers and strings: the scalar text (used for BETWEEN ordering, 38 digits...). */
  text?: string;
  /** For binary literals, the bytes when known (BETWEEN ordering). */
  bytes?: Uint8Array;
  /**
   * Elements of a list or set (values of a map), when the literal is fully known: enables the empty-set and
   * 38-digit checks inside collections. Absent when unknown.
   */
  items?: ValueInfo[];
  /**
   * A low-level attribute value DynamoDB cannot read, whatever else it holds: no data type (`{}`, or only keys that are
   * not types), two data types (`{S: "a", N: "1"}`), or `NULL: false`. Only set when the literal shows it in full.
   */
  malformed?: 'empty' | 'multiple' | 'null-false';
}

/** The legacy (non-expression) parameters DynamoDB refuses next to an expression parameter. */
export const LEGACY_PARAMETERS = ['KeyConditions', 'QueryFilter', 'ScanFilter', 'AttributesToGet', 'Expected', 'AttributeUpdates', 'ConditionalOperator'] as const;
export type LegacyParameter = (typeof LEGACY_PARAMETERS)[number];


export interface ExpressionRequest {
  operation: RequestOperation;
  expressions: Partial<Record<ExpressionField, string>>;
  /** `ExpressionAttributeNames`; absent when the request has none. `complete: false` when the map has spreads/unknowns. */
  names?: { map: Record<string, string>; complete: boolean };
  /** `ExpressionAttributeValues`; same convention. */
  values?: { map: Record<string, ValueInfo>; complete: boolean };
  /**
   * Expression fields present in the request whose text is not statically known (variables, calls): with any, the
   * validator cannot tell that a name/value is unused, so it stays silent about it.
   */
  unknownExpressions?: ExpressionField[];
  /**
   * PutItem: the top-level attributes of `Item` whose values are known (by attribute name). Their literals are checked
   * like values (empty sets, duplicate set elements, numbers). Absent when not a Put or the Item is not a literal.
   */
  item?: Record<string, ValueInfo>;
  /**
   * Key attribute names, when known (from the Key map: its attribute names; for a Query, the keys of the table or index
   * queried). Enables key-update, key-condition and Query-filter checks.
   */
  keyAttributes?: { partition?: string; sort?: string; all: string[] };
  /** The literal attribute values of `Key`, by attribute name (checked for malformed values). */
  key?: Record<string, ValueInfo>;
  /** Legacy parameters the request sets with a literal value (a variable may be undefined: not listed). */
  legacy?: LegacyParameter[];
  /** `Select`, when it is a literal string. */
  select?: string;
  /** Whether the request sets `IndexName` (any value); absent when unknown (a spread may set it). */
  indexName?: boolean;
  /**
   * true when the request literal shows every parameter it sends (no spread, no later assignment): then a parameter it
   * lacks is absent. Checks that need an absence (Select SPECIFIC_ATTRIBUTES without a projection) need it.
   */
  complete?: boolean;
  /** PutItem: the size of the literal `Item` in bytes (a lower bound when parts of it are not literal). Absent when the Item has spreads. */
  itemBytes?: number;
}

/** Where a finding points: inside one expression string, or at one key of the names/values map (or of a Put's Item), or at a map itself. */
export type FindingLocation =
  | { field: ExpressionField; start: number; end: number }
  | { field: 'ExpressionAttributeNames' | 'ExpressionAttributeValues'; key?: string }
  /** An attribute of a PutItem's `Item` or of the `Key` (its value literal is invalid); the map itself without key. */
  | { field: 'Item' | 'Key'; key?: string }
  /** A request parameter (`Select`, a legacy parameter) as a whole. */
  | { field: 'Select' | LegacyParameter; key?: undefined };

export interface ExpressionFinding {
  /** Stable id, kebab-case (`reserved-word`, `undefined-value`...); listed in `EXPRESSION_FINDINGS`. */
  id: string;
  severity: Severity;
  message: string;
  location: FindingLocation;
  /** Machine-readable detail for fixes: e.g. `{ word: 'status' }`, `{ placeholder: ':n' }`. */
  data?: Record<string, unknown>;
}

export interface FindingMeta {
  id: string;
  description: string;
  defaultSeverity: Severity;
}
