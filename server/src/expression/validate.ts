/**
 * Static validation of a request's expressions with its ExpressionAttributeNames/Values: every ValidationException
 * DynamoDB raises without looking at the item (wording checked against DynamoDB Local 2.6; see the differential tier).
 * Each finding is an Error by the project's convention (DynamoDB rejects the request whatever the item holds).
 */
import type { AttrType } from '../core/dynamodb';
import { LEGACY_PARAMETERS, type ExpressionFinding, type ExpressionRequest, type FindingLocation, type ValueInfo } from './api';
import {
  EXPRESSION_FIELDS,
  conditionPaths,
  type ConditionNode,
  type ExpressionField,
  type ExpressionKind,
  type FunctionNode,
  type Operand,
  type PathNode,
  type UpdateExpressionNode,
} from './ast';
import type { ExpressionFindingId } from './findings';
import { utf8Length } from '../core/dynamodb';
import { Token } from './lexer';
import { compareBytes, compareNumbers, compareStrings, numberKey, numberProblem, parseDecimal } from './numbers';
import { KIND_FIELD, parseExpression } from './parser';
import { isReservedWord } from './reserved-words';

export const LIMITS = {
  expressionBytes: 4096,
  placeholderBytes: 255,
  inOperands: 100,
  operators: 300,
  pathDepth: 32,
  listIndex: 2147483647,
  /** Nested lists/maps in an item attribute value (a 32nd would hold level 33). */
  itemContainers: 31,
  /** Nested lists/maps DynamoDB accepts in an ExpressionAttributeValues entry. */
  valueContainers: 32,
  itemBytes: 409600,
} as const;

const SELECT_VALUES = ['ALL_ATTRIBUTES', 'ALL_PROJECTED_ATTRIBUTES', 'COUNT', 'SPECIFIC_ATTRIBUTES'];
/** DynamoDB's words for a Select in "Cannot specify ... when choosing to get ...". */
const SELECT_WORDS: Record<string, string> = { ALL_ATTRIBUTES: 'ALL_ATTRIBUTES', COUNT: 'only the Count', ALL_PROJECTED_ATTRIBUTES: 'ALL_PROJECTED_ATTRIBUTES' };
/** Expression parameters in the order DynamoDB lists them. */
const EXPRESSION_ORDER: ExpressionField[] = ['UpdateExpression', 'ConditionExpression', 'KeyConditionExpression', 'FilterExpression', 'ProjectionExpression'];

/** How many lists/maps are nested in a value (`{L: [{M: {}}]}`: 2); sets and scalars add none. Iterative. */
export function containerDepth(top: ValueInfo): number {
  let max = 0;
  const stack: [ValueInfo, number][] = [[top, 0]];
  while (stack.length) {
    const [v, above] = stack.pop() as [ValueInfo, number];
    if (v.type !== 'L' && v.type !== 'M') continue;
    max = Math.max(max, above + 1);
    for (const i of v.items ?? []) stack.push([i, above + 1]);
  }
  return max;
}

/** The exact sum (or difference) of two DynamoDB numbers as number text (`123e-2`); undefined if either is not a number. */
export function exactSum(a: string, b: string, op: '+' | '-'): string | undefined {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return undefined;
  // value = digits * 10^(exponent - digits.length)
  const scaled = (d: NonNullable<typeof x>) => ({ n: d.digits ? BigInt(d.digits) * (d.negative ? -1n : 1n) : 0n, e: d.exponent - d.digits.length });
  const p = scaled(x);
  const q = scaled(y);
  const e = Math.min(p.e, q.e);
  const left = p.n * 10n ** BigInt(p.e - e);
  const right = q.n * 10n ** BigInt(q.e - e);
  const r = op === '+' ? left + right : left - right;
  return `${r}e${e}`;
}

/** The functions DynamoDB knows (names are case-sensitive), their arity and where they belong. */
const FUNCTIONS: Record<string, { arity: number; role: 'condition' | 'conditionOperand' | 'updateOperand' }> = {
  attribute_exists: { arity: 1, role: 'condition' },
  attribute_not_exists: { arity: 1, role: 'condition' },
  attribute_type: { arity: 2, role: 'condition' },
  begins_with: { arity: 2, role: 'condition' },
  contains: { arity: 2, role: 'condition' },
  size: { arity: 1, role: 'conditionOperand' },
  if_not_exists: { arity: 2, role: 'updateOperand' },
  list_append: { arity: 2, role: 'updateOperand' },
};
const ATTRIBUTE_TYPES = ['S', 'SS', 'N', 'NS', 'B', 'BS', 'BOOL', 'NULL', 'L', 'M'];
const ORDERED_TYPES: ReadonlySet<AttrType> = new Set(['S', 'N', 'B']);
const PLACEHOLDER_KEY = { names: /^#[A-Za-z0-9_]+$/, values: /^:[A-Za-z0-9_]+$/ };
/** DynamoDB's words for operand types in ADD/DELETE messages. */
const LONG_TYPE: Record<string, string> = { S: 'STRING', N: 'NUMBER', B: 'BINARY', BOOL: 'BOOLEAN', NULL: 'NULL', M: 'MAP', L: 'LIST', SS: 'SS', NS: 'NS', BS: 'BS' };

type Span = { start: number; end: number };

/** Operations without an ExpressionAttributeValues parameter (projection only). */
const VALUELESS: ReadonlySet<string> = new Set(['GetItem', 'BatchGetItem', 'TransactGetItems']);

/** Resolved path segments: names through ExpressionAttributeNames (unresolved placeholders kept as `#n`), indexes. */
export type ResolvedSegment = string | number;

export function resolvePath(path: PathNode, names?: Record<string, string>): ResolvedSegment[] {
  return path.elements.map((e) => (e.type === 'index' ? e.index : e.placeholder ? (names?.[e.name] ?? e.name) : e.name));
}

/** DynamoDB's rendering of a path in messages: `[a, [1], b]`. */
export function formatPath(segs: ResolvedSegment[]): string {
  return `[${segs.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join(', ')}]`;
}

/** A path as written: `a.#b[1]`. */
export function pathText(p: PathNode): string {
  return p.elements.map((e, i) => (e.type === 'index' ? `[${e.index}]` : i ? `.${e.name}` : e.name)).join('');
}

function unwrap(op: Operand): Operand {
  while (op.type === 'parenOperand') op = op.inner;
  return op;
}

/** The first repeated element of a set (as text), comparing numbers by value, strings and bytes exactly; unknown elements are skipped. */
function duplicateElement(items: ValueInfo[]): string | undefined {
  const seen = new Set<string>();
  for (const i of items) {
    const shown = i.text ?? (i.bytes ? `0x${Array.from(i.bytes, (b) => b.toString(16).padStart(2, '0')).join('')}` : undefined);
    if (shown === undefined) continue;
    const key = i.type === 'N' ? (numberKey(shown) ?? `?${shown}`) : shown;
    if (seen.has(key)) return shown;
    seen.add(key);
  }
  return undefined;
}

/* --------------------------------------------------------------------------------------------------------------- */

class Validator {
  readonly findings: ExpressionFinding[] = [];
  /** Placeholders referenced by any expression, with where (for undefined-* findings). */
  private readonly nameRefs = new Map<string, { field: ExpressionField; span: Span }[]>();
  private readonly valueRefs = new Map<string, { field: ExpressionField; span: Span }[]>();
  /** Key attributes constrained by the KeyConditionExpression (for the Query filter check). */
  private keyConditionAttrs = new Set<string>();
  /** A structural key-condition error was reported: schema-level checks would only repeat it. */
  private keyBroken = false;
  private field: ExpressionField = 'UpdateExpression';
  private kind: ExpressionKind = 'update';

  constructor(private readonly req: ExpressionRequest) {}

  private get names(): Record<string, string> | undefined {
    return this.req.names?.map;
  }

  private add(id: ExpressionFindingId, span: Span, message: string, data?: Record<string, unknown>, severity: 'error' | 'warning' = 'error'): void {
    this.findings.push({ id, severity, message, location: { field: this.field, start: span.start, end: span.end }, ...(data ? { data } : {}) });
  }

  private addAt(id: ExpressionFindingId, field: Exclude<FindingLocation['field'], ExpressionField>, key: string | undefined, message: string, data?: Record<string, unknown>): void {
    const location = (key === undefined ? { field } : { field, key }) as FindingLocation;
    this.findings.push({ id, severity: 'error', message, location, ...(data ? { data } : {}) });
  }

  /**
   * An Error, or a Warning when the request has a ConditionExpression: DynamoDB checks the condition first (a failed
   * one answers ConditionalCheckFailedException), so the rejection depends on the item, but the request never succeeds.
   */
  private get afterCondition(): 'error' | 'warning' {
    const c = this.req.expressions.ConditionExpression !== undefined || (this.req.unknownExpressions ?? []).includes('ConditionExpression');
    return c ? 'warning' : 'error';
  }

  /** DynamoDB's message prefix for this expression. */
  private get prefix(): string {
    return `Invalid ${KIND_FIELD[this.kind]}`;
  }

  private valueType(op: Operand): AttrType {
    const o = unwrap(op);
    if (o.type === 'value') return this.req.values?.map[o.name]?.type ?? 'unknown';
    if (o.type === 'arithmetic') return 'N';
    if (o.type === 'function') {
      if (o.name === 'size') return 'N';
      if (o.name === 'list_append') return 'L';
      if (o.name === 'if_not_exists' && o.args.length === 2) return this.valueType(o.args[1]);
    }
    return 'unknown';
  }

  private valueInfo(op: Operand): ValueInfo | undefined {
    const o = unwrap(op);
    return o.type === 'value' ? this.req.values?.map[o.name] : undefined;
  }

  /* ------------------------------------------------------------------------------------------------ per expression */

  run(): ExpressionFinding[] {
    const fields = (Object.keys(EXPRESSION_FIELDS) as ExpressionField[]).filter((f) => typeof this.req.expressions[f] === 'string');
    // KeyCondition first so the Query filter check knows the key attributes.
    fields.sort((a, b) => (a === 'KeyConditionExpression' ? -1 : b === 'KeyConditionExpression' ? 1 : 0));
    for (const f of fields) this.expression(f, this.req.expressions[f] as string);
    this.maps(fields.length > 0);
    this.parameters(fields);
    for (const [k, top] of Object.entries(this.req.item ?? {})) this.valueLiteral('Item', k, top);
    for (const [k, top] of Object.entries(this.req.key ?? {})) this.valueLiteral('Key', k, top);
    const bytes = this.req.itemBytes;
    if (this.req.operation === 'PutItem' && bytes !== undefined && bytes > LIMITS.itemBytes) {
      this.addAt('item-too-large', 'Item', undefined, `This Item is ${bytes.toLocaleString('en-US')} bytes; DynamoDB stores items of at most 400 KB (409,600 bytes, attribute names included). DynamoDB: "Item size has exceeded the maximum allowed size"`, { bytes, limit: LIMITS.itemBytes });
    }
    return this.findings;
  }

  /* ----------------------------------------------------------------------------------- request-level parameters */

  /** Legacy parameters next to expressions; Select against the projection and the index. */
  private parameters(fields: ExpressionField[]): void {
    const legacy = this.req.legacy ?? [];
    if (legacy.length && fields.length) {
      const ordered = LEGACY_PARAMETERS.filter((l) => legacy.includes(l));
      const expressions = EXPRESSION_ORDER.filter((f) => fields.includes(f));
      const dynamo = `Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {${ordered.join(', ')}} Expression parameters: {${expressions.join(', ')}}`;
      for (const l of ordered) {
        this.addAt('legacy-with-expression', l, undefined, `${l} is a legacy parameter: it cannot be combined with ${expressions.join(' / ')} in one request. Use only expressions (${LEGACY_REPLACEMENT[l]}). DynamoDB: "${dynamo}"`, { parameter: l, expressions });
      }
    }
    const sel = this.req.select;
    if (sel === undefined || (this.req.operation !== 'Query' && this.req.operation !== 'Scan')) return;
    const bad = (plain: string, dynamo: string, reason: string) => this.addAt('invalid-select', 'Select', undefined, `${plain}. DynamoDB: "${dynamo}"`, { select: sel, reason });
    if (!SELECT_VALUES.includes(sel)) {
      const upper = sel.toUpperCase();
      return bad(`"${sel}" is not a Select value${SELECT_VALUES.includes(upper) ? ` (values are case-sensitive: ${upper})` : ''}`, 'Select must be ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or SPECIFIC_ATTRIBUTES', 'value');
    }
    const projection = fields.includes('ProjectionExpression');
    const attributesToGet = legacy.includes('AttributesToGet');
    if (sel !== 'SPECIFIC_ATTRIBUTES' && (projection || attributesToGet)) {
      const param = projection ? 'ProjectionExpression' : 'AttributesToGet';
      return bad(`Select ${sel} returns ${sel === 'COUNT' ? 'only the count' : 'whole items'}: it cannot take a ${param}. Use Select: SPECIFIC_ATTRIBUTES (or leave Select out) with a ${param}`, `Cannot specify the ${param} when choosing to get ${SELECT_WORDS[sel]}`, 'projection');
    }
    if (sel === 'ALL_PROJECTED_ATTRIBUTES' && this.req.indexName === false) {
      return bad('Select ALL_PROJECTED_ATTRIBUTES reads the attributes projected into an index: the request needs an IndexName', 'ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName', 'index');
    }
    const projectionUnknown = (this.req.unknownExpressions ?? []).includes('ProjectionExpression');
    if (sel === 'SPECIFIC_ATTRIBUTES' && !projection && !attributesToGet && !projectionUnknown && this.req.complete) {
      return bad('Select SPECIFIC_ATTRIBUTES needs the attributes to return: add a ProjectionExpression', 'Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES', 'no-projection');
    }
  }

  private expression(field: ExpressionField, text: string): void {
    this.field = field;
    this.kind = EXPRESSION_FIELDS[field];
    const bytes = utf8Length(text);
    if (bytes > LIMITS.expressionBytes) {
      this.add('expression-too-long', { start: 0, end: text.length }, `This expression is ${bytes} bytes; DynamoDB accepts at most 4 KB (4096 bytes). DynamoDB: "${this.prefix}: Expression size has exceeded the maximum allowed size;"`, { bytes, limit: LIMITS.expressionBytes });
    }
    const parsed = parseExpression(this.kind, text);
    if (parsed.error || !parsed.ast) {
      const e = parsed.error;
      if (e?.reason === 'nesting') this.add('nesting-too-deep', e, `${e.message}. DynamoDB rejects such an expression (redundant parentheses, mistyped nested functions or more than 300 operators).`, {});
      else if (e) this.add('expression-syntax', e, e.reason === 'empty' ? `The expression is empty. DynamoDB: "${e.message}"` : `Syntax error at ${e.token === '<EOF>' ? 'the end of the expression' : `"${e.token}"`}. DynamoDB: "${e.message}"`, { token: e.token });
      this.fromTokens(parsed.tokens, e?.start);
      return;
    }
    const ast = parsed.ast;
    if (ast.type === 'update') this.update(ast);
    else if (ast.type === 'projection') this.projection(ast.paths);
    else if (this.kind === 'keyCondition') {
      this.condition(ast);
      this.keyCondition(ast);
    } else this.condition(ast);
  }

  /**
   * After a syntax error: still record placeholders and bare reserved words, so the rest of the request is judged.
   * A name glued to an invalid character (`_ttl`, `ttlé`) is only a fragment of an attribute name DynamoDB cannot read,
   * not the reserved word it happens to spell: the syntax error is the whole story there. Likewise a reserved word that
   * is itself the offending token in operator position (`sk LIKE :p`, `:s WHERE x`) is an operator DynamoDB lacks, not
   * an attribute name: a `#LIKE` placeholder would not help. (`SET a = :a name = :n`, a missing comma, still reports.)
   */
  private fromTokens(tokens: Token[], errorAt?: number): void {
    const glued = (a: Token | undefined, b: Token | undefined) => !!a && !!b && a.end === b.start && (a.type === 'invalid' || b.type === 'invalid');
    const endsOperand = (t: Token | undefined) => !!t && (['name', 'nameRef', 'valueRef', 'number'].includes(t.type) || (t.type === 'punct' && (t.text === ')' || t.text === ']')));
    const startsOperand = (t: Token) => ['name', 'nameRef', 'valueRef'].includes(t.type) || (t.type === 'punct' && t.text === '(');
    const asOperator = (i: number) => tokens[i].start === errorAt && endsOperand(tokens[i - 1]) && startsOperand(tokens[i + 1]);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.type === 'nameRef') this.ref(this.nameRefs, t.text, t);
      else if (t.type === 'valueRef') this.ref(this.valueRefs, t.text, t);
      else if (t.type === 'name' && !(tokens[i + 1].type === 'punct' && tokens[i + 1].text === '(') && !glued(tokens[i - 1], t) && !glued(t, tokens[i + 1]) && !asOperator(i))
        this.reservedWord(t.text, t, t.text);
    }
  }

  private ref(map: Map<string, { field: ExpressionField; span: Span }[]>, name: string, span: Span): void {
    let list = map.get(name);
    if (!list) map.set(name, (list = []));
    list.push({ field: this.field, span: { start: span.start, end: span.end } });
    if (utf8Length(name) > LIMITS.placeholderBytes) {
      const defined = (name.startsWith('#') ? this.req.names : this.req.values)?.map[name] !== undefined;
      if (!defined) this.add('placeholder-too-long', span, `The placeholder ${name.slice(0, 20)}… is ${utf8Length(name)} bytes; DynamoDB accepts at most 255.`, { placeholder: name });
    }
  }

  private reservedWord(word: string, span: Span, pathText: string): void {
    if (!isReservedWord(word)) return;
    this.add('reserved-word', span, `"${word}" is a DynamoDB reserved word: use an expression attribute name (#${word.replace(/[^A-Za-z0-9_]/g, '')}) instead. DynamoDB: "${this.prefix}: Attribute name is a reserved keyword; reserved keyword: ${word}"`, { word, path: pathText });
  }

  /** Names, depth, indexes and reserved words of one document path. */
  private path(p: PathNode): void {
    for (const e of p.elements) {
      if (e.type === 'index') {
        if (e.index > LIMITS.listIndex) this.add('list-index-range', e, `List index ${e.index} is above 2147483647. DynamoDB: "${this.prefix}: List index is not within the allowable range; index: [${e.index}]"`, { index: e.index });
      } else if (e.placeholder && e.name.startsWith(':')) {
        this.add('undefined-name', e, `After a dot, ${e.name} is read as an attribute name placeholder, which can never be defined: write #name (mapped in ExpressionAttributeNames). DynamoDB: "${this.prefix}: An expression attribute name used in the document path is not defined; attribute name: ${e.name}"`, { placeholder: e.name });
      } else if (e.placeholder) this.ref(this.nameRefs, e.name, e);
      else if (isReservedWord(e.name)) this.reservedWord(e.name, e, pathText(p));
    }
    const first = p.elements[0];
    const keyName = first.type === 'name' ? (first.placeholder ? this.names?.[first.name] : first.name) : undefined;
    if (p.elements.length > 1 && keyName !== undefined && this.req.keyAttributes?.all.includes(keyName) && this.kind !== 'keyCondition') {
      this.add('key-attribute-path', p, `${keyName} is a key attribute, so it is a scalar: it has no nested ${p.elements[1].type === 'index' ? 'list element' : 'map entry'}. DynamoDB: "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: ${keyName}"`, { attribute: keyName });
    }
    if (p.elements.length > LIMITS.pathDepth) {
      this.add('path-too-deep', p, `This document path has ${p.elements.length} levels; DynamoDB accepts at most 32. DynamoDB: "${this.prefix}: The document path has too many nesting levels; nesting levels: ${p.elements.length}"`, { depth: p.elements.length });
    }
  }

  /* ------------------------------------------------------------------------------------------------------ operands */

  /**
   * Check an operand tree. `place`: where it sits — 'value' (a SET value top), 'nested' (inside an operator or a
   * function), 'compare' (an operand of a comparison/BETWEEN/IN). Returns the operator count inside it.
   */
  private operand(op: Operand, place: 'value' | 'nested' | 'compare'): number {
    switch (op.type) {
      case 'path':
        this.path(op);
        return 0;
      case 'value':
        this.ref(this.valueRefs, op.name, op);
        return 0;
      case 'parenOperand':
        if (op.inner.type === 'parenOperand') this.redundant(op);
        return this.operand(op.inner, place);
      case 'arithmetic': {
        const n = 1 + this.operand(op.left, 'nested') + this.operand(op.right, 'nested');
        for (const side of [op.left, op.right]) {
          const u = unwrap(side);
          if (u.type === 'function' && u.name === 'list_append') continue; // reported as misplaced
          const t = this.valueType(side);
          if (t !== 'unknown' && t !== 'N') this.operandType(side, op.op, t);
        }
        return n;
      }
      case 'function':
        return this.functionCall(op, place);
    }
  }

  private redundant(span: Span): void {
    this.add('redundant-parentheses', span, `These parentheses only wrap other parentheses. DynamoDB: "${this.prefix}: The expression has redundant parentheses;"`, {});
  }

  private operandType(op: Operand, operator: string, type: AttrType): void {
    this.add('operand-type', op, `${operator} does not take a ${type} operand here. DynamoDB: "${this.prefix}: Incorrect operand type for operator or function; operator or function: ${operator}, operand type: ${type}"`, { operator, operandType: type });
  }

  private functionCall(fn: FunctionNode, place: 'value' | 'nested' | 'compare' | 'condition'): number {
    let count = 1;
    for (const a of fn.args) count += this.operand(a, 'nested');
    const spec = FUNCTIONS[fn.name];
    const nameSpan = fn.nameSpan;
    if (!spec) {
      const suggestion = FUNCTIONS[fn.name.toLowerCase()] ? fn.name.toLowerCase() : undefined;
      this.add('unknown-function', nameSpan, `DynamoDB has no function "${fn.name}"${suggestion ? ` (function names are case-sensitive: ${suggestion})` : ''}. DynamoDB: "${this.prefix}: Invalid function name; function: ${fn.name}"`, { function: fn.name, ...(suggestion ? { suggestion } : {}) });
      return count;
    }
    const isUpdate = this.kind === 'update';
    if (isUpdate !== (spec.role === 'updateOperand')) {
      const where = isUpdate ? 'an update' : 'a condition';
      this.add('function-not-allowed', nameSpan, `${fn.name} cannot be used in ${where} expression. DynamoDB: "${this.prefix}: The function is not allowed in ${where} expression; function: ${fn.name}"`, { function: fn.name, reason: 'kind' });
      return count;
    }
    const misplaced =
      (spec.role === 'condition' && place !== 'condition') ||
      (spec.role === 'conditionOperand' && place === 'condition') ||
      (fn.name === 'list_append' && place !== 'value');
    if (misplaced) {
      this.add('function-not-allowed', nameSpan, `${fn.name} cannot be used this way${spec.role === 'condition' ? ' (it is a condition, not a value)' : fn.name === 'size' ? ' (it returns a number: compare it)' : ' (only as a whole SET value)'}. DynamoDB: "${this.prefix}: The function is not allowed to be used this way in an expression; function: ${fn.name}"`, { function: fn.name, reason: 'usage' });
    }
    if (fn.args.length !== spec.arity) {
      this.add('function-arity', fn, `${fn.name} takes ${spec.arity} operand${spec.arity > 1 ? 's' : ''}, not ${fn.args.length}. DynamoDB: "${this.prefix}: Incorrect number of operands for operator or function; operator or function: ${fn.name}, number of operands: ${fn.args.length}"`, { function: fn.name, expected: spec.arity, actual: fn.args.length });
      return count;
    }
    const [a0, a1] = fn.args;
    if ((fn.name === 'attribute_exists' || fn.name === 'attribute_not_exists' || fn.name === 'if_not_exists') && unwrap(a0).type !== 'path') {
      this.add('path-required', a0, `The first operand of ${fn.name} must be a document path. DynamoDB: "${this.prefix}: Operator or function requires a document path; operator or function: ${fn.name}"`, { function: fn.name });
    }
    switch (fn.name) {
      case 'attribute_type': {
        const info = this.valueInfo(a1);
        if (unwrap(a1).type !== 'value') {
          this.add('operand-type', a1, `The second operand of attribute_type must be a :value holding a type name (S, N, BOOL...). DynamoDB: "${this.prefix}: Incorrect operand type for operator or function; operator or function: attribute_type"`, { operator: 'attribute_type' });
        }
        else if (info && info.type !== 'unknown' && info.type !== 'S') this.operandType(a1, 'attribute_type', info.type);
        else if (info?.type === 'S' && info.text !== undefined && !ATTRIBUTE_TYPES.includes(info.text)) {
          this.add('invalid-attribute-type', a1, `"${info.text}" is not a DynamoDB type: use one of ${ATTRIBUTE_TYPES.join(' ')} (case-sensitive). DynamoDB: "${this.prefix}: Invalid attribute type name found; type: ${info.text}, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"`, { type: info.text, placeholder: (unwrap(a1) as { name: string }).name });
        }
        break;
      }
      case 'begins_with':
        for (const a of fn.args) {
          const t = this.valueType(a);
          if (t !== 'unknown' && t !== 'S' && t !== 'B') this.operandType(a, 'begins_with', t);
        }
        this.identical(fn.name, a0, [a1]);
        break;
      case 'contains':
        this.identical(fn.name, a0, [a1]);
        break;
      case 'size': {
        const t = this.valueType(a0);
        if (t === 'N' || t === 'BOOL' || t === 'NULL') this.operandType(a0, 'size', t);
        break;
      }
      case 'list_append':
        for (const a of fn.args) {
          const t = this.valueType(a);
          if (t !== 'unknown' && t !== 'L') this.operandType(a, 'list_append', t);
        }
        break;
    }
    return count;
  }

  /** "The first operand must be distinct from the remaining operands" — only a document path counts. */
  private identical(operator: string, first: Operand, rest: Operand[]): void {
    const f = unwrap(first);
    if (f.type !== 'path') return;
    const key = JSON.stringify(resolvePath(f, this.names));
    for (const r of rest) {
      const u = unwrap(r);
      if (u.type === 'path' && JSON.stringify(resolvePath(u, this.names)) === key) {
        const segs = formatPath(resolvePath(f, this.names));
        this.add('identical-operands', r, `Both operands of ${operator} are the same attribute ${segs}. DynamoDB: "${this.prefix}: The first operand must be distinct from the remaining operands for this operator or function; operator: ${operator}, first operand: ${segs}"`, { operator, path: segs });
        return;
      }
    }
  }

  /* ----------------------------------------------------------------------------------------------------- condition */

  private condition(root: ConditionNode): void {
    let operators = 0;
    const stack: ConditionNode[] = [root];
    while (stack.length) {
      const c = stack.pop() as ConditionNode;
      switch (c.type) {
        case 'and':
        case 'or':
          operators++;
          stack.push(c.right, c.left);
          break;
        case 'not':
          operators++;
          stack.push(c.operand);
          break;
        case 'paren':
          if (c.inner.type === 'paren') this.redundant(c);
          stack.push(c.inner);
          break;
        case 'functionCondition':
          operators += this.functionCall(c.fn, 'condition');
          break;
        case 'compare': {
          operators += 1 + this.operand(c.left, 'compare') + this.operand(c.right, 'compare');
          if (c.op !== '=' && c.op !== '<>') this.orderedTypes(c.op, [c.left, c.right]);
          this.identical(c.op, c.left, [c.right]);
          break;
        }
        case 'between':
          operators += 1 + this.operand(c.operand, 'compare') + this.operand(c.low, 'compare') + this.operand(c.high, 'compare');
          if (this.orderedTypes('BETWEEN', [c.operand, c.low, c.high])) this.betweenBounds(c);
          this.identical('BETWEEN', c.operand, [c.low, c.high]);
          break;
        case 'in':
          operators += 1 + this.operand(c.operand, 'compare');
          for (const o of c.list) operators += this.operand(o, 'compare');
          if (c.list.length > LIMITS.inOperands) {
            this.add('too-many-in-operands', c, `IN has ${c.list.length} operands; DynamoDB accepts at most 100. DynamoDB: "${this.prefix}: The IN operator is provided with too many operands; number of operands: ${c.list.length}"`, { count: c.list.length });
          }
          this.identical('IN', c.operand, c.list);
          break;
      }
    }
    this.operatorLimit(operators, root);
  }

  private operatorLimit(count: number, span: Span): void {
    if (count > LIMITS.operators) {
      this.add('too-many-operators', span, `This expression has ${count} operators and functions; DynamoDB accepts at most 300. DynamoDB: "${this.prefix}: The expression contains too many operators; operator count: ${count}"`, { count });
    }
  }

  /** <, <=, >, >=, BETWEEN take strings, numbers and binaries only. Returns true when all operand types are fine. */
  private orderedTypes(operator: string, ops: Operand[]): boolean {
    let ok = true;
    for (const o of ops) {
      const t = this.valueType(o);
      if (t !== 'unknown' && !ORDERED_TYPES.has(t)) {
        this.operandType(o, operator, t);
        ok = false;
      }
    }
    return ok;
  }

  private betweenBounds(c: Extract<ConditionNode, { type: 'between' }>): void {
    const lo = this.valueInfo(c.low);
    const hi = this.valueInfo(c.high);
    if (!lo || !hi || lo.type === 'unknown' || hi.type === 'unknown') return;
    const show = (v: ValueInfo) => `AttributeValue: {${v.type}:${v.text ?? '…'}}`;
    if (lo.type !== hi.type) {
      this.add('between-bounds', c, `The BETWEEN bounds have different types (${lo.type} and ${hi.type}). DynamoDB: "${this.prefix}: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: ${show(lo)}, upper bound operand: ${show(hi)}"`, { reason: 'type', low: lo.type, high: hi.type });
      return;
    }
    const cmp =
      lo.type === 'N' && lo.text !== undefined && hi.text !== undefined
        ? compareNumbers(lo.text, hi.text)
        : lo.type === 'S' && lo.text !== undefined && hi.text !== undefined
          ? compareStrings(lo.text, hi.text)
          : lo.type === 'B' && lo.bytes && hi.bytes
            ? compareBytes(lo.bytes, hi.bytes)
            : undefined;
    if (cmp !== undefined && cmp > 0) {
      this.add('between-bounds', c, `The BETWEEN lower bound ${lo.text ?? '(binary)'} is above the upper bound ${hi.text ?? '(binary)'}: swap them. DynamoDB: "${this.prefix}: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: ${show(lo)}, upper bound operand: ${show(hi)}"`, { reason: 'order', low: lo.text, high: hi.text });
    }
  }

  /* ------------------------------------------------------------------------------------------------ key condition */

  private keyInvalid(span: Span, plain: string, dynamo: string, reason: string): void {
    this.keyBroken = true;
    this.add('key-condition-invalid', span, `${plain}. DynamoDB: "${dynamo}"`, { reason });
  }

  private keyCondition(root: ConditionNode): void {
    const leaves: { attr: string; op: string; span: Span }[] = [];
    const stack: ConditionNode[] = [root];
    while (stack.length) {
      const c = stack.pop() as ConditionNode;
      if (c.type === 'paren') stack.push(c.inner);
      else if (c.type === 'and') stack.push(c.right, c.left);
      else if (c.type === 'or' || c.type === 'not' || c.type === 'in' || (c.type === 'compare' && c.op === '<>')) {
        const op = c.type === 'compare' ? '<>' : c.type.toUpperCase();
        const span = c.type === 'or' ? c.opSpan : c.type === 'compare' ? c.opSpan : c.type === 'not' ? { start: c.start, end: c.start + 3 } : c;
        this.keyInvalid(span, `${op} cannot be used in a KeyConditionExpression (only =, <, <=, >, >=, BETWEEN and begins_with, joined by AND)`, `Invalid operator used in KeyConditionExpression: ${op}`, 'operator');
      } else if (c.type === 'functionCondition' && c.fn.name !== 'begins_with') {
        if (FUNCTIONS[c.fn.name]) this.keyInvalid(c.fn.nameSpan, `${c.fn.name} cannot be used in a KeyConditionExpression`, `Invalid operator used in KeyConditionExpression: ${c.fn.name}`, 'operator');
      } else {
        const leaf = this.keyLeaf(c);
        if (leaf) leaves.push(leaf);
      }
    }
    const seen = new Map<string, Span>();
    for (const l of leaves) {
      this.keyConditionAttrs.add(l.attr);
      if (seen.has(l.attr)) this.keyInvalid(l.span, `${l.attr} already has a condition: a KeyConditionExpression holds one condition per key attribute`, 'KeyConditionExpressions must only contain one condition per key', 'duplicate-key');
      else seen.set(l.attr, l.span);
    }
    const keys = this.req.keyAttributes;
    if (this.keyBroken || leaves.length === 0) return;
    if (keys?.partition) {
      const pk = leaves.find((l) => l.attr === keys.partition);
      if (!pk) this.keyInvalid(root, `The partition key ${keys.partition} needs an equality condition (${keys.partition} = :value)`, 'Query condition missed key schema element', 'missing-partition-key');
      else if (pk.op !== '=') this.keyInvalid(pk.span, `The partition key ${keys.partition} takes only =`, 'Query key condition not supported', 'partition-key-operator');
      for (const l of leaves) {
        if (l.attr !== keys.partition && l.attr !== keys.sort) this.keyInvalid(l.span, `${l.attr} is not a key attribute of this table/index: filter on it with a FilterExpression`, 'Query condition missed key schema element', 'not-a-key');
      }
    } else {
      // Key schema unknown: the partition key needs =, so one condition must be an equality.
      if (leaves.length > 2) this.keyInvalid(root, 'A KeyConditionExpression holds at most two conditions: the partition key and the sort key', 'Query condition missed key schema element', 'too-many-conditions');
      else if (!leaves.some((l) => l.op === '=')) this.keyInvalid(leaves[0].span, 'The partition key needs an equality condition (=); only the sort key takes <, <=, >, >=, BETWEEN or begins_with', 'Query key condition not supported', 'partition-key-operator');
    }
  }

  /** One comparison/BETWEEN/begins_with of a key condition: the key attribute it constrains, or undefined if invalid. */
  private keyLeaf(c: ConditionNode): { attr: string; op: string; span: Span } | undefined {
    let ops: Operand[];
    let keyOperand: Operand | undefined;
    let op: string;
    if (c.type === 'compare') {
      ops = [c.left, c.right];
      op = c.op;
    } else if (c.type === 'between') {
      ops = [c.operand, c.low, c.high];
      keyOperand = c.operand;
      op = 'BETWEEN';
    } else if (c.type === 'functionCondition') {
      ops = c.fn.args;
      keyOperand = c.fn.args[0];
      op = 'begins_with';
    } else return undefined;
    if (ops.some((o) => unwrap(o).type === 'function')) {
      this.keyInvalid(c, 'A KeyConditionExpression compares key attributes with values: no functions such as size() inside it', 'KeyConditionExpressions cannot contain nested operations', 'nested-operation');
      return undefined;
    }
    const paths = ops.map(unwrap).filter((o): o is PathNode => o.type === 'path');
    if (op === 'begins_with' && keyOperand && unwrap(keyOperand).type !== 'path') {
      this.keyInvalid(c, 'begins_with takes the key attribute as its first operand: begins_with(SK, :prefix)', 'Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand', 'begins-with-order');
      return undefined;
    }
    if (paths.length > 1) {
      const same = new Set(paths.map((p) => JSON.stringify(resolvePath(p, this.names)))).size === 1;
      if (!same) this.keyInvalid(c, 'A key condition compares one key attribute with values, not with another attribute', 'Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition', 'multiple-attributes');
      return undefined; // identical paths: reported as identical-operands
    }
    if (paths.length === 0) {
      this.keyInvalid(c, 'This key condition names no key attribute', 'Query condition missed key schema element', 'no-key');
      return undefined;
    }
    const p = paths[0];
    if (keyOperand && unwrap(keyOperand) !== p) return undefined;
    const segs = resolvePath(p, this.names);
    if (segs.length > 1) {
      this.keyInvalid(p, 'Key attributes are scalars: no nested path (.x or [i]) in a KeyConditionExpression', `Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: ${segs[0]}`, 'nested-path');
      return undefined;
    }
    return { attr: String(segs[0]), op, span: c };
  }

  /* ------------------------------------------------------------------------------------------------------- update */

  private update(u: UpdateExpressionNode): void {
    const seen = new Set<string>();
    const trie = new PathTrie();
    let operators = 0;
    const keys = this.req.keyAttributes?.all ?? [];
    for (const clause of u.clauses) {
      if (seen.has(clause.keyword)) {
        this.add('duplicate-clause', clause.keywordSpan, `Only one ${clause.keyword} clause per update expression: merge the actions into the first with commas. DynamoDB: "${this.prefix}: The "${clause.keyword}" section can only be used once in an update expression;"`, { keyword: clause.keyword });
      }
      seen.add(clause.keyword);
      for (const a of clause.actions) {
        this.path(a.path);
        const segs = resolvePath(a.path, this.names);
        if (keys.includes(String(segs[0])) && typeof segs[0] === 'string') {
          this.add('update-key-attribute', a.path, `${segs[0]} is part of the item's key and cannot be updated. DynamoDB: "One or more parameter values were invalid: Cannot update attribute ${segs[0]}. This attribute is part of the key"`, { attribute: segs[0] });
        }
        const clash = trie.add(segs, a.path);
        if (clash) this.overlap(clash.kind, clash.other, segs, a.path);
        if (a.type === 'SET') {
          operators += this.operand(a.value, 'value');
          this.setLiteral(a.path, a.value);
        }
        else if (a.type === 'ADD' || a.type === 'DELETE') {
          if (a.path.elements.length > 1) {
            this.add('add-delete-nested-path', a.path, `${a.type} works on top-level attributes only (AWS API reference), not on a nested path: use SET ${pathText(a.path)} = ${pathText(a.path)} + :v for a number. DynamoDB Local accepts it; DynamoDB's documentation does not.`, { operator: a.type, path: pathText(a.path) });
          }
          operators += this.operand(a.value, 'nested');
          const t = this.valueType(a.value);
          const ok = a.type === 'ADD' ? ['N', 'SS', 'NS', 'BS'] : ['SS', 'NS', 'BS'];
          if (t !== 'unknown' && !ok.includes(t)) {
            const id = a.type === 'ADD' ? 'add-operand-type' : 'delete-operand-type';
            const want = a.type === 'ADD' ? 'a number or a set' : 'a set';
            this.add(id, a.value, `${a.type} takes ${want}, not a ${LONG_TYPE[t] ?? t} value. DynamoDB: "${this.prefix}: Incorrect operand type for operator or function; operator: ${a.type}, operand type: ${LONG_TYPE[t] ?? t}, typeSet: ALLOWED_FOR_${a.type}_OPERAND"`, { operator: a.type, operandType: t, placeholder: (a.value as { name?: string }).name });
          }
        }
      }
    }
    this.operatorLimit(operators, u);
  }

  /**
   * What a SET stores, when it is literal: the exact result of `:a + :b` on two literal numbers (38 digits, range), and
   * a literal value's nesting below a top-level attribute. DynamoDB computes these after the condition.
   */
  private setLiteral(path: PathNode, value: Operand): void {
    const v = unwrap(value);
    if (v.type === 'arithmetic') {
      const l = this.valueInfo(v.left);
      const r = this.valueInfo(v.right);
      if (l?.type !== 'N' || r?.type !== 'N' || l.text === undefined || r.text === undefined || numberProblem(l.text) || numberProblem(r.text)) return;
      const sum = exactSum(l.text, r.text, v.op as '+' | '-');
      const p = sum === undefined ? undefined : numberProblem(sum);
      if (!p || p.kind === 'invalid') return;
      const shown = `${l.text} ${v.op} ${r.text}`.length > 90 ? `${unwrap(v.left).type === 'value' ? (unwrap(v.left) as { name: string }).name : ''} ${v.op} ${unwrap(v.right).type === 'value' ? (unwrap(v.right) as { name: string }).name : ''}` : `${l.text} ${v.op} ${r.text}`;
      const when = this.afterCondition === 'warning' ? ' (once the ConditionExpression holds; the request never succeeds)' : '';
      if (p.kind === 'precision') this.add('number-precision', v, `${shown} has ${p.digits} significant digits; DynamoDB numbers hold at most 38, so it rejects this SET${when}. DynamoDB: "DynamoDB only supports precision up to 38 digits"`, { digits: p.digits }, this.afterCondition);
      else {
        const big = (parseDecimal(sum as string)?.exponent ?? 0) > 0;
        this.add('invalid-number', v, `${shown} is outside DynamoDB's number range (1E-130 to 9.99E+125), so it rejects this SET${when}. DynamoDB: "${big ? 'Number overflow. Attempting to store a number with magnitude larger than supported range' : 'Number underflow. Attempting to store a number with magnitude smaller than supported range'}"`, { reason: 'range' }, this.afterCondition);
      }
      return;
    }
    if (v.type !== 'value' || path.elements.length !== 1) return;
    const info = this.valueInfo(v);
    // Deeper than an ExpressionAttributeValues entry may be is reported on the entry itself.
    if (info && containerDepth(info) === LIMITS.itemContainers + 1) {
      const when = this.afterCondition === 'warning' ? ' (once the ConditionExpression holds; the request never succeeds)' : '';
      this.add('value-too-deep', v, `${v.name} nests ${LIMITS.itemContainers + 1} lists/maps: stored under ${pathText(path)} its innermost values would sit at level 33, and DynamoDB stores at most 32 levels${when}. DynamoDB: "Nesting Levels have exceeded supported limits"`, { placeholder: v.name, depth: LIMITS.itemContainers + 1 }, this.afterCondition);
    }
  }

  private overlap(kind: 'overlap' | 'conflict', other: { segs: ResolvedSegment[]; span: Span }, segs: ResolvedSegment[], span: Span): void {
    const one = formatPath(other.segs);
    const two = formatPath(segs);
    const plain = kind === 'overlap' ? `This path overlaps ${one} used earlier in the same expression` : `This path conflicts with ${one} used earlier (one treats it as a list, the other as a map)`;
    this.add('overlapping-paths', span, `${plain}. DynamoDB: "${this.prefix}: Two document paths ${kind} with each other; must remove or rewrite one of these paths; path one: ${one}, path two: ${two}"`, { kind, path: two, other: one, otherStart: other.span.start, otherEnd: other.span.end });
  }

  private projection(paths: PathNode[]): void {
    const trie = new PathTrie();
    for (const p of paths) {
      this.path(p);
      const segs = resolvePath(p, this.names);
      const clash = trie.add(segs, p);
      if (clash) this.overlap(clash.kind, clash.other, segs, p);
    }
  }

  /* ---------------------------------------------------------------------------------------- names/values and Query */

  private maps(hasExpressions: boolean): void {
    const unknownExpr = (this.req.unknownExpressions?.length ?? 0) > 0;
    const sides = [
      { label: 'ExpressionAttributeNames' as const, m: this.req.names, refs: this.nameRefs, key: PLACEHOLDER_KEY.names, kind: 'name' },
      // GetItem, BatchGetItem and TransactGetItems have no ExpressionAttributeValues parameter: DynamoDB ignores it.
      { label: 'ExpressionAttributeValues' as const, m: VALUELESS.has(this.req.operation) ? undefined : this.req.values, refs: this.valueRefs, key: PLACEHOLDER_KEY.values, kind: 'value' },
    ];
    for (const s of sides) {
      const keys = s.m ? Object.keys(s.m.map) : [];
      if (s.m && s.m.complete && keys.length === 0) {
        this.addAt('empty-attribute-map', s.label, undefined, `${s.label} is empty: remove it. DynamoDB: "${s.label} must not be empty"`);
      }
      if (s.m && !hasExpressions && !unknownExpr) {
        this.addAt('map-without-expression', s.label, undefined, `${s.label} is given but the request has no expression. DynamoDB: "${s.label} can only be specified when using expressions"`);
        continue;
      }
      for (const k of keys) {
        if (s.kind === 'name' && this.req.names?.map[k] === '') {
          this.addAt('empty-attribute-name', s.label, k, `${k} maps to an empty attribute name. DynamoDB: "ExpressionAttributeNames contains invalid value: Empty attribute name for key ${k}"`, { placeholder: k });
        }
        if (utf8Length(k) > LIMITS.placeholderBytes) {
          this.addAt('placeholder-too-long', s.label, k, `The placeholder ${k.slice(0, 20)}… is ${utf8Length(k)} bytes; DynamoDB accepts at most 255. DynamoDB: "${s.label} contains invalid key: The expression attribute map contains a key that is too long;"`, { placeholder: k });
        } else if (!s.key.test(k)) {
          this.addAt('invalid-placeholder-key', s.label, k, `"${k}" is not a valid placeholder: ${s.kind === 'name' ? '#' : ':'} followed by letters, digits or _. DynamoDB: "${s.label} contains invalid key: Syntax error; key: "${k}""`, { placeholder: k });
        } else if (!s.refs.has(k) && !unknownExpr) {
          this.addAt(s.kind === 'name' ? 'unused-name' : 'unused-value', s.label, k, `${k} is defined but no expression uses it: remove it. DynamoDB: "Value provided in ${s.label} unused in expressions: keys: {${k}}"`, { placeholder: k });
        }
      }
      if (s.m && !s.m.complete) continue;
      for (const [name, uses] of s.refs) {
        if (s.m && name in s.m.map) continue;
        for (const use of uses) {
          this.findings.push({
            id: s.kind === 'name' ? 'undefined-name' : 'undefined-value',
            severity: 'error',
            message:
              s.kind === 'name'
                ? `${name} is not defined in ExpressionAttributeNames. DynamoDB: "Invalid ${KIND_FIELD[EXPRESSION_FIELDS[use.field]]}: An expression attribute name used in the document path is not defined; attribute name: ${name}"`
                : `${name} is not defined in ExpressionAttributeValues. DynamoDB: "Invalid ${KIND_FIELD[EXPRESSION_FIELDS[use.field]]}: An expression attribute value used in expression is not defined; attribute value: ${name}"`,
            location: { field: use.field, start: use.span.start, end: use.span.end },
            data: { placeholder: name },
          });
        }
      }
    }
    if (VALUELESS.has(this.req.operation)) return;
    for (const [k, top] of Object.entries(this.req.values?.map ?? {})) this.valueLiteral('ExpressionAttributeValues', k, top);
  }

  /**
   * 38 digits, number syntax/range, empty sets and duplicate set elements, through nested lists/sets/maps
   * (iteratively); at most one finding per value, the first DynamoDB reports.
   */
  private valueLiteral(label: 'ExpressionAttributeValues' | 'Item' | 'Key', k: string, top: ValueInfo): void {
    const placeholder = label === 'ExpressionAttributeValues' ? { placeholder: k } : { attribute: k };
    const who = label === 'ExpressionAttributeValues' ? k : `${label} attribute ${k}`;
    const dynamo = (what: string) => (label === 'ExpressionAttributeValues' ? `${label} contains invalid value: ${what} for key ${k}` : what);
    const depth = containerDepth(top);
    const limit = label === 'ExpressionAttributeValues' ? LIMITS.valueContainers : LIMITS.itemContainers;
    const stack: ValueInfo[] = [top];
    while (stack.length) {
      const v = stack.pop() as ValueInfo;
      if (v.malformed) {
        const plain = v.malformed === 'empty' ? 'has no data type (an attribute value is {S: ...}, {N: ...}, {BOOL: ...}...: exactly one type key)' : v.malformed === 'multiple' ? 'sets more than one data type: an attribute value holds exactly one' : 'is {NULL: false}: a NULL value is always {NULL: true}';
        const what = v.malformed === 'empty' ? 'Supplied AttributeValue is empty, must contain exactly one of the supported datatypes' : v.malformed === 'multiple' ? 'Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes' : 'One or more parameter values were invalid: Null attribute value types must have the value of true';
        this.addAt('invalid-attribute-value', label, k, `${who}${v === top ? '' : ' holds a value that'} ${plain}. DynamoDB: "${dynamo(what)}"`, { ...placeholder, reason: v.malformed });
        return;
      }
      if (v.items) for (const x of v.items) stack.push(x);
    }
    if (label !== 'Key' && depth > limit) {
      this.addAt('value-too-deep', label, k, `${who} nests ${depth} lists/maps; DynamoDB stores values at most 32 levels deep${label === 'Item' ? ' (an attribute is level 1, so at most 31 nested lists/maps)' : ''}. DynamoDB: "${dynamo('Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit')}"`, { ...placeholder, depth, limit });
      return;
    }
    if (label === 'Key') return;
    stack.push(top);
    while (stack.length) {
      const v = stack.pop() as ValueInfo;
      if (v.items) for (const x of v.items) stack.push(x);
      if ((v.type === 'SS' || v.type === 'NS' || v.type === 'BS') && v.items) {
        const kind = v.type === 'SS' ? 'string' : v.type === 'NS' ? 'number' : 'binary';
        if (v.items.length === 0) {
          this.addAt('empty-set', label, k, `${who} holds an empty set: DynamoDB sets must have at least one element. DynamoDB: "${dynamo(`One or more parameter values were invalid: An ${kind} set  may not be empty`)}"`, placeholder);
          return;
        }
        const dup = duplicateElement(v.items);
        if (dup !== undefined) {
          this.addAt('duplicate-set-elements', label, k, `${who} holds a ${kind} set that repeats ${dup}: set elements must be distinct${v.type === 'NS' ? ' (numbers compare by value: 1, 1.0 and 1e0 are one number)' : ''}. DynamoDB: "${dynamo('Input collection contains duplicates')}"`, { ...placeholder, element: dup });
          return;
        }
      }
      if (v.type !== 'N' || v.text === undefined) continue;
      const p = numberProblem(v.text);
      if (!p) continue;
      if (p.kind === 'precision') this.addAt('number-precision', label, k, `${who} has a number with ${p.digits} significant digits; DynamoDB numbers hold at most 38. DynamoDB: "${dynamo('DynamoDB only supports precision up to 38 digits')}"`, { ...placeholder, digits: p.digits, number: v.text });
      else this.addAt('invalid-number', label, k, p.kind === 'invalid' ? `${who} is not a number: "${v.text}". DynamoDB: "${dynamo('A value provided cannot be converted into a number')}"` : `${who} is outside DynamoDB's number range (1E-130 to 9.99E+125). DynamoDB: "${dynamo('Number overflow. Attempting to store a number with magnitude larger than supported range')}"`, { ...placeholder, reason: p.kind, number: v.text });
      return;
    }
  }

  /** Query: a FilterExpression may not name the key attributes of its KeyConditionExpression. */
  filterKeys(): void {
    const filter = this.req.expressions.FilterExpression;
    const keys = new Set([...this.keyConditionAttrs, ...(this.req.keyAttributes?.all ?? [])]);
    if (this.req.operation !== 'Query' || typeof filter !== 'string' || keys.size === 0) return;
    const parsed = parseExpression('filter', filter);
    if (!parsed.ast || parsed.ast.type === 'update' || parsed.ast.type === 'projection') return;
    this.field = 'FilterExpression';
    this.kind = 'filter';
    const reported = new Set<string>();
    for (const n of conditionPaths(parsed.ast)) {
      const attr = String(resolvePath(n, this.names)[0]);
      if (keys.has(attr) && !reported.has(attr)) {
        reported.add(attr);
        this.add('filter-key-attribute', n, `${attr} is a key attribute of this Query: put its condition in the KeyConditionExpression, not the FilterExpression. DynamoDB: "Filter Expression can only contain non-primary key attributes: Primary key attribute: ${attr}"`, { attribute: attr });
      }
    }
  }
}

/** How to say a legacy parameter with expressions. */
const LEGACY_REPLACEMENT: Record<string, string> = {
  KeyConditions: 'KeyConditionExpression',
  QueryFilter: 'FilterExpression',
  ScanFilter: 'FilterExpression',
  AttributesToGet: 'ProjectionExpression',
  Expected: 'ConditionExpression',
  AttributeUpdates: 'UpdateExpression',
  ConditionalOperator: 'AND / OR inside the expression',
};

/** Detects overlapping (`a` / `a.b`) and conflicting (`a[1]` / `a.b`) paths in linear time. */
class PathTrie {
  private readonly root: TrieNode = { children: new Map() };

  add(segs: ResolvedSegment[], span: Span): { kind: 'overlap' | 'conflict'; other: { segs: ResolvedSegment[]; span: Span } } | undefined {
    let node = this.root;
    let clash: { kind: 'overlap' | 'conflict'; other: { segs: ResolvedSegment[]; span: Span } } | undefined;
    for (const s of segs) {
      if (node.end) clash ??= { kind: 'overlap', other: node.end };
      const key = typeof s === 'number' ? `i${s}` : `n${s}`;
      const kindOf = typeof s === 'number' ? 'index' : 'name';
      const otherKind = kindOf === 'index' ? node.firstName : node.firstIndex;
      if (!clash && otherKind) clash = { kind: 'conflict', other: otherKind };
      let next = node.children.get(key);
      if (!next) node.children.set(key, (next = { children: new Map() }));
      if (kindOf === 'index') node.firstIndex ??= { segs, span };
      else node.firstName ??= { segs, span };
      next.first ??= { segs, span };
      node = next;
    }
    if (!clash && (node.end || node.children.size > 0)) clash = { kind: 'overlap', other: node.end ?? (node.first as { segs: ResolvedSegment[]; span: Span }) };
    node.end ??= { segs, span };
    return clash;
  }
}

interface TrieNode {
  children: Map<string, TrieNode>;
  /** A path that ends here. */
  end?: { segs: ResolvedSegment[]; span: Span };
  /** The first path through here (for messages). */
  first?: { segs: ResolvedSegment[]; span: Span };
  /** The first path continuing with a name / with an index below here (for conflicts). */
  firstName?: { segs: ResolvedSegment[]; span: Span };
  firstIndex?: { segs: ResolvedSegment[]; span: Span };
}

/** Validate every expression of a request together with its names/values maps. Never throws. */
export function validateRequest(req: ExpressionRequest): ExpressionFinding[] {
  try {
    const v = new Validator(req);
    v.run();
    v.filterKeys();
    return v.findings;
  } catch (e) {
    return [{ id: 'expression-syntax', severity: 'error', message: `The request's expressions could not be analysed: ${String(e)}`, location: { field: 'ExpressionAttributeNames' } }];
  }
}

/**
 * Validate one expression on its own. Without `names`/`values` the placeholders are not judged (unknown maps);
 * pass them (`complete: true` by default) to judge defined/unused too.
 */
export function validateExpression(
  kind: ExpressionKind,
  text: string,
  opts: { names?: Record<string, string>; values?: Record<string, ValueInfo>; keyAttributes?: ExpressionRequest['keyAttributes']; operation?: ExpressionRequest['operation'] } = {},
): ExpressionFinding[] {
  const field = (Object.keys(EXPRESSION_FIELDS) as ExpressionField[]).find((f) => EXPRESSION_FIELDS[f] === kind) as ExpressionField;
  return validateRequest({
    operation: opts.operation ?? (kind === 'keyCondition' ? 'Query' : kind === 'update' ? 'UpdateItem' : kind === 'filter' ? 'Scan' : kind === 'projection' ? 'GetItem' : 'PutItem'),
    expressions: { [field]: text },
    names: { map: opts.names ?? {}, complete: opts.names !== undefined },
    values: { map: opts.values ?? {}, complete: opts.values !== undefined },
    keyAttributes: opts.keyAttributes,
  }).filter((f) => !(opts.names === undefined && f.location.field === 'ExpressionAttributeNames') && !(opts.values === undefined && f.location.field === 'ExpressionAttributeValues'));
}
