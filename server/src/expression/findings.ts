/**
 * Every finding the expression validator can emit. Ids are stable public names (rules and suppression comments use
 * them). All are Errors: each one is a ValidationException DynamoDB raises whatever the item holds. (A finding the item's
 * condition can pre-empt, such as SET arithmetic past 38 digits next to a ConditionExpression, is emitted as a Warning:
 * the request then either fails its condition or is rejected.)
 */
import type { FindingMeta } from './api';

const E = 'error' as const;

export const EXPRESSION_FINDINGS: FindingMeta[] = [
  { id: 'expression-syntax', defaultSeverity: E, description: 'The expression does not parse ("Syntax error; token: ..., near: ...") or is empty.' },
  { id: 'expression-too-long', defaultSeverity: E, description: 'An expression longer than 4 KB (4096 UTF-8 bytes).' },
  { id: 'nesting-too-deep', defaultSeverity: E, description: 'More than 1000 nested parentheses/function calls: redundant, mistyped or over the operator limit whatever it says.' },
  { id: 'undefined-name', defaultSeverity: E, description: 'A #name used in an expression is not defined in ExpressionAttributeNames.' },
  { id: 'undefined-value', defaultSeverity: E, description: 'A :value used in an expression is not defined in ExpressionAttributeValues.' },
  { id: 'unused-name', defaultSeverity: E, description: 'An ExpressionAttributeNames entry no expression of the request uses.' },
  { id: 'unused-value', defaultSeverity: E, description: 'An ExpressionAttributeValues entry no expression of the request uses.' },
  { id: 'empty-attribute-map', defaultSeverity: E, description: 'ExpressionAttributeNames / ExpressionAttributeValues given as an empty map.' },
  { id: 'map-without-expression', defaultSeverity: E, description: 'ExpressionAttributeNames / Values given while the request has no expression.' },
  { id: 'empty-attribute-name', defaultSeverity: E, description: 'An ExpressionAttributeNames entry mapping to an empty name.' },
  { id: 'invalid-placeholder-key', defaultSeverity: E, description: 'A map key that is not a valid placeholder (#name / :value of letters, digits and _).' },
  { id: 'placeholder-too-long', defaultSeverity: E, description: 'A placeholder longer than 255 bytes.' },
  { id: 'reserved-word', defaultSeverity: E, description: 'A bare DynamoDB reserved word used as an attribute name (also as a nested segment).' },
  { id: 'unknown-function', defaultSeverity: E, description: 'A function DynamoDB does not know (function names are case-sensitive).' },
  { id: 'function-arity', defaultSeverity: E, description: 'A function called with the wrong number of operands.' },
  { id: 'function-not-allowed', defaultSeverity: E, description: 'A function used in the wrong expression kind or in the wrong place (a condition function as a value, size() as a condition, nested list_append).' },
  { id: 'path-required', defaultSeverity: E, description: 'attribute_exists / attribute_not_exists / if_not_exists need a document path, not a value.' },
  { id: 'operand-type', defaultSeverity: E, description: 'A literal value of a type the operator or function does not take (+ on a string, < on a map, begins_with on a number...).' },
  { id: 'invalid-attribute-type', defaultSeverity: E, description: 'attribute_type with a type other than S SS N NS B BS BOOL NULL L M.' },
  { id: 'duplicate-clause', defaultSeverity: E, description: 'A SET / REMOVE / ADD / DELETE clause used twice in one update expression.' },
  { id: 'overlapping-paths', defaultSeverity: E, description: 'Two document paths in one update (or projection) that overlap (a, a.b) or conflict (a[1], a.b).' },
  { id: 'key-attribute-path', defaultSeverity: E, description: 'A nested path (PK.x, SK[0]) under a key attribute, which is always a scalar.' },
  { id: 'update-key-attribute', defaultSeverity: E, description: 'An update expression that changes a key attribute.' },
  { id: 'add-operand-type', defaultSeverity: E, description: 'ADD with a value that is neither a number nor a set.' },
  { id: 'add-delete-nested-path', defaultSeverity: E, description: 'ADD or DELETE on a nested path: the API reference allows top-level attributes only (DynamoDB Local accepts it).' },
  { id: 'delete-operand-type', defaultSeverity: E, description: 'DELETE with a value that is not a set.' },
  { id: 'identical-operands', defaultSeverity: E, description: 'A comparison or function whose first operand (a path) appears again among its other operands (a = a).' },
  { id: 'redundant-parentheses', defaultSeverity: E, description: 'Parentheses directly around parentheses: ((x)).' },
  { id: 'between-bounds', defaultSeverity: E, description: 'BETWEEN bounds of different types, or a lower bound above the upper bound.' },
  { id: 'key-condition-invalid', defaultSeverity: E, description: 'A KeyConditionExpression DynamoDB does not support (OR, NOT, IN, <>, functions other than begins_with, several conditions on one key, missing partition key equality...).' },
  { id: 'filter-key-attribute', defaultSeverity: E, description: 'A Query FilterExpression on a key attribute of the queried key condition.' },
  { id: 'too-many-in-operands', defaultSeverity: E, description: 'IN with more than 100 operands.' },
  { id: 'too-many-operators', defaultSeverity: E, description: 'An expression with more than 300 operators and functions.' },
  { id: 'path-too-deep', defaultSeverity: E, description: 'A document path with more than 32 levels.' },
  { id: 'list-index-range', defaultSeverity: E, description: 'A list index above 2147483647.' },
  { id: 'number-precision', defaultSeverity: E, description: 'A number value with more than 38 significant digits.' },
  { id: 'empty-set', defaultSeverity: E, description: 'A set value (SS, NS, BS) with no elements.' },
  { id: 'duplicate-set-elements', defaultSeverity: E, description: 'A set value (SS, NS, BS) that repeats an element (numbers compare by value: 1, 1.0 and 1e0 are one number).' },
  { id: 'invalid-number', defaultSeverity: E, description: 'A number value that is not a number or is out of DynamoDB\'s range (1E-130 to 9.99E+125).' },
  { id: 'invalid-attribute-value', defaultSeverity: E, description: 'A low-level attribute value with no data type ({} or an unknown type key), two data types ({S: "a", N: "1"}), or NULL: false.' },
  { id: 'value-too-deep', defaultSeverity: E, description: 'A literal value nested deeper than DynamoDB stores (32 levels): an item attribute, an ExpressionAttributeValues entry, or a SET value.' },
  { id: 'item-too-large', defaultSeverity: E, description: 'A PutItem whose literal Item is larger than 400 KB (409,600 bytes).' },
  { id: 'legacy-with-expression', defaultSeverity: E, description: 'A legacy parameter (KeyConditions, QueryFilter, ScanFilter, AttributesToGet, Expected, AttributeUpdates, ConditionalOperator) next to an expression parameter.' },
  { id: 'invalid-select', defaultSeverity: E, description: 'A Select DynamoDB refuses: an unknown value, ALL_ATTRIBUTES / COUNT / ALL_PROJECTED_ATTRIBUTES with a projection, SPECIFIC_ATTRIBUTES without one, ALL_PROJECTED_ATTRIBUTES without IndexName.' },
];

export type ExpressionFindingId =
  | 'expression-syntax'
  | 'expression-too-long'
  | 'nesting-too-deep'
  | 'undefined-name'
  | 'undefined-value'
  | 'unused-name'
  | 'unused-value'
  | 'empty-attribute-map'
  | 'map-without-expression'
  | 'empty-attribute-name'
  | 'invalid-placeholder-key'
  | 'placeholder-too-long'
  | 'reserved-word'
  | 'unknown-function'
  | 'function-arity'
  | 'function-not-allowed'
  | 'path-required'
  | 'operand-type'
  | 'invalid-attribute-type'
  | 'duplicate-clause'
  | 'overlapping-paths'
  | 'key-attribute-path'
  | 'update-key-attribute'
  | 'add-operand-type'
  | 'add-delete-nested-path'
  | 'delete-operand-type'
  | 'identical-operands'
  | 'redundant-parentheses'
  | 'between-bounds'
  | 'key-condition-invalid'
  | 'filter-key-attribute'
  | 'too-many-in-operands'
  | 'too-many-operators'
  | 'path-too-deep'
  | 'list-index-range'
  | 'number-precision'
  | 'empty-set'
  | 'duplicate-set-elements'
  | 'invalid-number'
  | 'invalid-attribute-value'
  | 'value-too-deep'
  | 'item-too-large'
  | 'legacy-with-expression'
  | 'invalid-select';
