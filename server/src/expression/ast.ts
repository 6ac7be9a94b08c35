/**
 * AST of DynamoDB's expression language. Every node carries `start`/`end`: UTF-16 offsets into the expression string
 * (half-open). Map them to the document with `stringRange(node, start, end)` from extract/model.
 */

export type ExpressionKind = 'update' | 'condition' | 'filter' | 'keyCondition' | 'projection';

/** The request field each kind is read from. */
export const EXPRESSION_FIELDS = {
  UpdateExpression: 'update',
  ConditionExpression: 'condition',
  FilterExpression: 'filter',
  KeyConditionExpression: 'keyCondition',
  ProjectionExpression: 'projection',
} as const satisfies Record<string, ExpressionKind>;
export type ExpressionField = keyof typeof EXPRESSION_FIELDS;

interface Span {
  start: number;
  end: number;
}

/** One element of a document path: a name (`a`, `#n`) or a list index (`[3]`). */
export type PathElement =
  | (Span & { type: 'name'; name: string; placeholder: boolean }) // placeholder: written as `#n` (name includes '#')
  | (Span & { type: 'index'; index: number });

/** `a.b[3].#c` */
export interface PathNode extends Span {
  type: 'path';
  elements: PathElement[];
}

/** `:v` */
export interface ValueRefNode extends Span {
  type: 'value';
  /** Includes the leading ':'. */
  name: string;
}

export interface FunctionNode extends Span {
  type: 'function';
  /** Lower-cased function name as DynamoDB knows it (`attribute_not_exists`), or as written when unknown. */
  name: string;
  nameSpan: Span;
  args: Operand[];
}

/** `x + y` / `x - y` (SET values only). */
export interface ArithmeticNode extends Span {
  type: 'arithmetic';
  op: '+' | '-';
  left: Operand;
  right: Operand;
}

/** A parenthesised operand `( ... )` kept so redundant parentheses can be reported. */
export interface ParenOperandNode extends Span {
  type: 'parenOperand';
  inner: Operand;
}

export type Operand = PathNode | ValueRefNode | FunctionNode | ArithmeticNode | ParenOperandNode;

export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type ConditionNode =
  | (Span & { type: 'compare'; op: Comparator; opSpan: Span; left: Operand; right: Operand })
  | (Span & { type: 'between'; operand: Operand; low: Operand; high: Operand })
  | (Span & { type: 'in'; operand: Operand; list: Operand[] })
  | (Span & { type: 'and' | 'or'; left: ConditionNode; right: ConditionNode; opSpan: Span })
  | (Span & { type: 'not'; operand: ConditionNode })
  | (Span & { type: 'paren'; inner: ConditionNode })
  /** A function call used as a condition (attribute_exists, begins_with, contains...). */
  | (Span & { type: 'functionCondition'; fn: FunctionNode });

export type UpdateActionType = 'SET' | 'REMOVE' | 'ADD' | 'DELETE';

export interface SetAction extends Span {
  type: 'SET';
  path: PathNode;
  value: Operand;
}
export interface RemoveAction extends Span {
  type: 'REMOVE';
  path: PathNode;
}
export interface AddAction extends Span {
  type: 'ADD';
  path: PathNode;
  value: Operand;
}
export interface DeleteAction extends Span {
  type: 'DELETE';
  path: PathNode;
  value: Operand;
}
export type UpdateAction = SetAction | RemoveAction | AddAction | DeleteAction;

export interface UpdateClause extends Span {
  keyword: UpdateActionType;
  keywordSpan: Span;
  actions: UpdateAction[];
}

export interface UpdateExpressionNode extends Span {
  type: 'update';
  clauses: UpdateClause[];
}

export interface ProjectionNode extends Span {
  type: 'projection';
  paths: PathNode[];
}

export type ExpressionRoot = UpdateExpressionNode | ConditionNode | ProjectionNode;

export interface SyntaxError extends Span {
  /** DynamoDB's wording, e.g. `Syntax error; token: "=", near: "a = = b"` or `Invalid UpdateExpression: ...`. */
  message: string;
  /** The offending token text (`<EOF>` at the end). */
  token: string;
  /**
   * What went wrong: a grammar error (`syntax`), an empty expression (`empty`), nesting beyond what DynamoDB can accept
   * (`nesting`), or an analyser failure (`internal`, never expected).
   */
  reason?: 'syntax' | 'empty' | 'nesting' | 'internal';
}

export interface ParseResult {
  kind: ExpressionKind;
  /** Present when the parse succeeded, or a best-effort tree when recovery was possible. */
  ast?: ExpressionRoot;
  /** The first syntax error, as DynamoDB reports only the first. */
  error?: SyntaxError;
}

/**
 * Every document path of a condition (or filter/key condition), in document order, walked iteratively (no recursion
 * however deep the nesting). Paths inside function arguments, comparisons, BETWEEN and IN lists included.
 */
export function conditionPaths(root: ConditionNode): PathNode[] {
  const out: PathNode[] = [];
  const stack: (ConditionNode | Operand)[] = [root];
  while (stack.length) {
    const n = stack.pop() as ConditionNode | Operand;
    switch (n.type) {
      case 'and':
      case 'or':
      case 'compare':
      case 'arithmetic':
        stack.push(n.right, n.left);
        break;
      case 'not':
        stack.push(n.operand);
        break;
      case 'paren':
      case 'parenOperand':
        stack.push(n.inner);
        break;
      case 'functionCondition':
        stack.push(n.fn);
        break;
      case 'function':
        for (let i = n.args.length - 1; i >= 0; i--) stack.push(n.args[i]);
        break;
      case 'between':
        stack.push(n.high, n.low, n.operand);
        break;
      case 'in':
        for (let i = n.list.length - 1; i >= 0; i--) stack.push(n.list[i]);
        stack.push(n.operand);
        break;
      case 'path':
        out.push(n);
        break;
      default:
        break;
    }
  }
  return out;
}
