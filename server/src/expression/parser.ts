/**
 * Recursive-descent parser of DynamoDB's expression language. Never throws; linear in the input (no backtracking,
 * NOT chains are parsed in a loop, nesting through parentheses and function calls is capped at `MAX_NESTING` and
 * beyond it the rest is scanned iteratively). Reports the first syntax error the way DynamoDB does:
 * `Invalid UpdateExpression: Syntax error; token: "=", near: "= = b"` — `near` runs from the token before the
 * offending one to the token after it.
 */
import type {
  ConditionNode,
  ExpressionKind,
  ExpressionRoot,
  FunctionNode,
  Operand,
  ParseResult,
  PathElement,
  PathNode,
  ProjectionNode,
  SyntaxError,
  UpdateAction,
  UpdateActionType,
  UpdateClause,
  UpdateExpressionNode,
  ValueRefNode,
  Comparator,
} from './ast';
import { Keyword, Token, tokenize } from './lexer';

/** Nesting (parentheses + function calls) beyond which DynamoDB rejects whatever the expression says. */
export const MAX_NESTING = 1000;

export const KIND_FIELD = {
  update: 'UpdateExpression',
  condition: 'ConditionExpression',
  filter: 'FilterExpression',
  keyCondition: 'KeyConditionExpression',
  projection: 'ProjectionExpression',
} as const satisfies Record<ExpressionKind, string>;

class Failure {
  constructor(readonly error: SyntaxError) {}
}

/** A condition or, inside parentheses, an operand whose role is decided by what follows the `)`. */
type Item = { cond: ConditionNode } | { operand: Operand };

class Parser {
  private pos = 0;
  private depth = 0;
  readonly tokens: Token[];

  constructor(
    private readonly text: string,
    private readonly kind: ExpressionKind,
  ) {
    this.tokens = tokenize(text);
  }

  private get tok(): Token {
    return this.tokens[this.pos];
  }
  private peek(k = 1): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)];
  }
  private next(): Token {
    const t = this.tokens[this.pos];
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }
  private isPunct(text: string, t = this.tok): boolean {
    return t.type === 'punct' && t.text === text;
  }
  private isKeyword(k: Keyword, t = this.tok): boolean {
    return t.type === 'keyword' && t.keyword === k;
  }

  fail(at = this.pos, message?: string, reason: SyntaxError['reason'] = 'syntax'): never {
    const t = this.tokens[at];
    const prev = at > 0 ? this.tokens[at - 1] : undefined;
    const after = this.tokens[Math.min(at + 1, this.tokens.length - 1)];
    const nearStart = prev ? prev.start : 0;
    const nearEnd = t.type === 'eof' || after.type === 'eof' ? this.text.length : after.end;
    const field = KIND_FIELD[this.kind];
    throw new Failure({
      start: t.start,
      end: t.end,
      token: t.text,
      reason,
      message: message ?? `Invalid ${field}: Syntax error; token: "${t.text}", near: "${this.text.slice(nearStart, nearEnd)}"`,
    });
  }

  private expectPunct(text: string): Token {
    if (!this.isPunct(text)) this.fail();
    return this.next();
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) this.tooDeep();
  }
  private leave(): void {
    this.depth--;
  }

  /** Past MAX_NESTING: a syntax error if the parentheses do not balance, else a nesting error. Iterative. */
  private tooDeep(): never {
    let balance = 0;
    for (let i = 0; i < this.tokens.length; i++) {
      const t = this.tokens[i];
      if (this.isPunct('(', t)) balance++;
      else if (this.isPunct(')', t) && --balance < 0) this.fail(i);
    }
    if (balance > 0) this.fail(this.tokens.length - 1);
    const field = KIND_FIELD[this.kind];
    this.fail(this.pos, `Invalid ${field}: The expression nests more than ${MAX_NESTING} levels of parentheses and function calls`, 'nesting');
  }

  /* ---------------------------------------------------------------------------------------------- paths, operands */

  path(): PathNode {
    const first = this.tok;
    if (first.type !== 'name' && first.type !== 'nameRef') this.fail();
    this.next();
    const elements: PathElement[] = [{ type: 'name', name: first.text, placeholder: first.type === 'nameRef', start: first.start, end: first.end }];
    for (;;) {
      if (this.isPunct('.')) {
        this.next();
        const t = this.tok;
        // DynamoDB also takes `a.:v` here, as a name placeholder that can never be defined (checked by the validator).
        if (t.type !== 'name' && t.type !== 'nameRef' && t.type !== 'valueRef') this.fail();
        this.next();
        elements.push({ type: 'name', name: t.text, placeholder: t.type !== 'name', start: t.start, end: t.end });
      } else if (this.isPunct('[')) {
        const open = this.next();
        const t = this.tok;
        if (t.type !== 'number') this.fail();
        this.next();
        const close = this.expectPunct(']');
        elements.push({ type: 'index', index: Number(t.text), start: open.start, end: close.end });
      } else break;
    }
    return { type: 'path', elements, start: first.start, end: elements[elements.length - 1].end };
  }

  private valueRef(): ValueRefNode {
    const t = this.tok;
    if (t.type !== 'valueRef') this.fail();
    this.next();
    return { type: 'value', name: t.text, start: t.start, end: t.end };
  }

  /** path | :value | fn(args) | ( operand ) — plus `+`/`-` inside parentheses of an update value. */
  operand(): Operand {
    const t = this.tok;
    if (t.type === 'valueRef') return this.valueRef();
    if (t.type === 'name' && this.isPunct('(', this.peek())) return this.functionCall();
    if (t.type === 'name' || t.type === 'nameRef') return this.path();
    if (this.isPunct('(')) {
      this.enter();
      const open = this.next();
      const inner = this.kind === 'update' ? this.setValue() : this.operand();
      const close = this.expectPunct(')');
      this.leave();
      return { type: 'parenOperand', inner, start: open.start, end: close.end };
    }
    this.fail();
  }

  private functionCall(): FunctionNode {
    const nameTok = this.next();
    this.enter();
    this.next(); // (
    const args: Operand[] = [this.operand()];
    while (this.isPunct(',')) {
      this.next();
      args.push(this.operand());
    }
    const close = this.expectPunct(')');
    this.leave();
    return { type: 'function', name: nameTok.text, nameSpan: { start: nameTok.start, end: nameTok.end }, args, start: nameTok.start, end: close.end };
  }

  /** operand | operand + operand | operand - operand (one operator only). */
  setValue(): Operand {
    const left = this.operand();
    if (this.isPunct('+') || this.isPunct('-')) {
      const op = this.next().text as '+' | '-';
      const right = this.operand();
      return { type: 'arithmetic', op, left, right, start: left.start, end: right.end };
    }
    return left;
  }

  /* -------------------------------------------------------------------------------------------------- update */

  update(): UpdateExpressionNode {
    const clauses: UpdateClause[] = [];
    const start = this.tok.start;
    do {
      const kw = this.tok;
      if (kw.type !== 'keyword' || !(kw.keyword === 'SET' || kw.keyword === 'REMOVE' || kw.keyword === 'ADD' || kw.keyword === 'DELETE')) this.fail();
      this.next();
      const keyword = kw.keyword as UpdateActionType;
      const actions: UpdateAction[] = [];
      do {
        if (actions.length) this.next(); // ,
        actions.push(this.action(keyword));
      } while (this.isPunct(','));
      const end = actions[actions.length - 1].end;
      clauses.push({ keyword, keywordSpan: { start: kw.start, end: kw.end }, actions, start: kw.start, end });
    } while (this.tok.type !== 'eof');
    return { type: 'update', clauses, start, end: clauses[clauses.length - 1].end };
  }

  private action(keyword: UpdateActionType): UpdateAction {
    const path = this.path();
    switch (keyword) {
      case 'SET': {
        const t = this.tok;
        if (!(t.type === 'comparator' && t.text === '=')) this.fail();
        this.next();
        const value = this.setValue();
        return { type: 'SET', path, value, start: path.start, end: value.end };
      }
      case 'REMOVE':
        return { type: 'REMOVE', path, start: path.start, end: path.end };
      default: {
        const value = this.valueRef();
        return { type: keyword, path, value, start: path.start, end: value.end };
      }
    }
  }

  /* ----------------------------------------------------------------------------------------------- condition */

  /** OR of ANDs of (NOT* primary). Returns an operand only when `allowOperand` and the content is one bare operand. */
  private orItem(allowOperand: boolean): Item {
    const first = this.andItem(allowOperand);
    if ('operand' in first && !this.isKeyword('OR')) return first;
    let left = this.condOf(first);
    while (this.isKeyword('OR')) {
      const op = this.next();
      const right = this.condOf(this.andItem(false));
      left = { type: 'or', left, right, opSpan: { start: op.start, end: op.end }, start: left.start, end: right.end };
    }
    return { cond: left };
  }

  private andItem(allowOperand: boolean): Item {
    const first = this.notItem(allowOperand);
    if ('operand' in first && !this.isKeyword('AND')) return first;
    let left = this.condOf(first);
    while (this.isKeyword('AND')) {
      const op = this.next();
      const right = this.condOf(this.notItem(false));
      left = { type: 'and', left, right, opSpan: { start: op.start, end: op.end }, start: left.start, end: right.end };
    }
    return { cond: left };
  }

  private notItem(allowOperand: boolean): Item {
    const nots: Token[] = [];
    while (this.isKeyword('NOT')) nots.push(this.next());
    const item = this.primary(allowOperand && nots.length === 0);
    if ('operand' in item) return item;
    let cond = item.cond;
    for (let i = nots.length - 1; i >= 0; i--) cond = { type: 'not', operand: cond, start: nots[i].start, end: cond.end };
    return { cond };
  }

  /**
   * A bare function (possibly in parentheses) is a condition: `attribute_exists(a)`, `(begins_with(a, :p))`. Any other
   * bare operand is a syntax error at the current token, as DynamoDB reports it.
   */
  private condOf(item: Item): ConditionNode {
    if ('cond' in item) return item.cond;
    const chain: Operand[] = [];
    let op = item.operand;
    while (op.type === 'parenOperand') {
      chain.push(op);
      op = op.inner;
    }
    if (op.type !== 'function') this.fail();
    let cond: ConditionNode = { type: 'functionCondition', fn: op, start: op.start, end: op.end };
    for (let i = chain.length - 1; i >= 0; i--) cond = { type: 'paren', inner: cond, start: chain[i].start, end: chain[i].end };
    return cond;
  }

  private primary(allowOperand: boolean): Item {
    let left: Operand;
    if (this.isPunct('(')) {
      this.enter();
      const open = this.next();
      const inner = this.orItem(true);
      const close = this.expectPunct(')');
      this.leave();
      if ('cond' in inner) return { cond: { type: 'paren', inner: inner.cond, start: open.start, end: close.end } };
      left = { type: 'parenOperand', inner: inner.operand, start: open.start, end: close.end };
    } else left = this.operand();
    if (this.startsComparison()) return { cond: this.comparison(left) };
    return allowOperand ? { operand: left } : { cond: this.condOf({ operand: left }) };
  }

  private startsComparison(): boolean {
    const t = this.tok;
    return t.type === 'comparator' || this.isKeyword('BETWEEN', t) || this.isKeyword('IN', t);
  }

  private comparison(left: Operand): ConditionNode {
    const t = this.next();
    if (t.type === 'comparator') {
      const right = this.operand();
      return { type: 'compare', op: t.text as Comparator, opSpan: { start: t.start, end: t.end }, left, right, start: left.start, end: right.end };
    }
    if (t.keyword === 'BETWEEN') {
      const low = this.operand();
      if (!this.isKeyword('AND')) this.fail();
      this.next();
      const high = this.operand();
      return { type: 'between', operand: left, low, high, start: left.start, end: high.end };
    }
    this.expectPunct('(');
    const list: Operand[] = [this.operand()];
    while (this.isPunct(',')) {
      this.next();
      list.push(this.operand());
    }
    const close = this.expectPunct(')');
    return { type: 'in', operand: left, list, start: left.start, end: close.end };
  }

  condition(): ConditionNode {
    const item = this.orItem(false);
    return this.condOf(item);
  }

  /* ---------------------------------------------------------------------------------------------- projection */

  projection(): ProjectionNode {
    const paths: PathNode[] = [this.path()];
    while (this.isPunct(',')) {
      this.next();
      paths.push(this.path());
    }
    return { type: 'projection', paths, start: paths[0].start, end: paths[paths.length - 1].end };
  }

  parse(): ExpressionRoot {
    if (this.text.length === 0) {
      this.fail(0, `Invalid ${KIND_FIELD[this.kind]}: The expression can not be empty;`, 'empty');
    }
    const root = this.kind === 'update' ? this.update() : this.kind === 'projection' ? this.projection() : this.condition();
    if (this.tok.type !== 'eof') this.fail();
    return root;
  }
}

export interface ParseOutput extends ParseResult {
  /** The tokens of the expression (also on a syntax error), for token-level checks and tooling. */
  tokens: Token[];
}

/** Parse one expression of the given kind. Never throws. */
export function parseExpression(kind: ExpressionKind, text: string): ParseOutput {
  const p = new Parser(text, kind);
  try {
    return { kind, ast: p.parse(), tokens: p.tokens };
  } catch (e) {
    if (e instanceof Failure) return { kind, error: e.error, tokens: p.tokens };
    // A stack overflow or a bug must not reach the caller: report it as an unparseable expression at offset 0.
    return { kind, tokens: p.tokens, error: { start: 0, end: 0, token: '', reason: 'internal', message: `Invalid ${KIND_FIELD[kind]}: could not be analysed (${String(e)})` } };
  }
}
