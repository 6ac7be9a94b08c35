/**
 * The TypeScript/JavaScript front end of cdk.ts: one `createSourceFile` parse, one walk collecting CDK table
 * constructors, index and environment calls, and CreateTable requests, turned into PNodes. Required lazily (it loads
 * the TypeScript compiler).
 */
import ts from 'typescript';
import { CodeFacts, readCodeFacts } from './cdk';
import { FileTables, LineMap } from './model';
import { PEntry, PNode, Span } from './value';

const K = ts.SyntaxKind;
const MAX_DEPTH = 64;

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isAwaitExpression(e)) e = e.expression;
  return e;
}

/** `this.likes` / `likes` / `stack.likes` as text; undefined for anything else. */
function refText(e: ts.Expression, sf: ts.SourceFile): string | undefined {
  e = unwrap(e);
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) && (e.expression.kind === K.ThisKeyword || ts.isIdentifier(e.expression))) return e.getText(sf);
  return undefined;
}

/** `export const x = ...` / `export let x`: the declaration is visible to (and changeable by) other modules. */
function isExported(d: ts.VariableDeclaration): boolean {
  return (ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Export) !== 0;
}

export function codeTablesTs(uri: string, label: string, text: string, languageId: string): FileTables {
  const kind = /javascript|jsx|\.m?jsx?$/.test(languageId) ? ts.ScriptKind.JSX : ts.ScriptKind.TSX;
  const sf = ts.createSourceFile('x.' + (kind === ts.ScriptKind.JSX ? 'jsx' : 'tsx'), text, ts.ScriptTarget.Latest, true, kind);
  // Constant strings by name (declared once with a literal), to read `tableName: TABLE_NAME`.
  const consts = new Map<string, ts.Expression | null>();
  const facts: CodeFacts = { tables: [], indexCalls: [], env: [], createTables: [] };
  const span = (n: ts.Node): Span => ({ start: n.getStart(sf), end: n.end });

  const value = (e: ts.Expression, depth = 0, hops = 0): PNode => {
    e = unwrap(e);
    const range = span(e);
    if (depth > MAX_DEPTH) return { kind: 'unknown', range };
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { kind: 'str', value: e.text, range };
    if (ts.isNumericLiteral(e)) return { kind: 'num', value: e.text, range };
    if (e.kind === K.TrueKeyword || e.kind === K.FalseKeyword) return { kind: 'bool', value: e.kind === K.TrueKeyword, range };
    if (ts.isTemplateExpression(e)) {
      let s = e.head.text;
      for (const span of e.templateSpans) {
        const v = value(span.expression, depth + 1, hops);
        s += (v.kind === 'str' && !v.pattern ? v.value : '*') + span.literal.text;
      }
      return { kind: 'str', value: s.replace(/\*+/g, '*'), range, pattern: s.includes('*') };
    }
    if (ts.isIdentifier(e) && hops < 8) {
      const init = consts.get(e.text);
      if (init) return { ...value(init, depth + 1, hops + 1), range };
    }
    if (ts.isObjectLiteralExpression(e)) {
      const entries: PEntry[] = [];
      for (const p of e.properties) {
        if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) entries.push({ key: p.name.text, keyRange: span(p.name), value: value(p.initializer, depth + 1, hops) });
        else if (ts.isShorthandPropertyAssignment(p)) entries.push({ key: p.name.text, keyRange: span(p.name), value: value(p.name, depth + 1, hops) });
        // A spread (`...(sort ? withSortKey : {})`), a computed key, an accessor or a method: any key may be there.
        else return { kind: 'unknown', range, text: e.getText(sf).slice(0, 120) };
      }
      return { kind: 'map', entries, range };
    }
    if (ts.isArrayLiteralExpression(e)) {
      if (e.elements.some(ts.isSpreadElement)) return { kind: 'unknown', range, text: e.getText(sf).slice(0, 120) };
      return { kind: 'list', items: e.elements.map((x) => value(x, depth + 1, hops)), range };
    }
    return { kind: 'unknown', range, text: e.getText(sf).slice(0, 120) };
  };

  // Pass 1: constants. Pass 2: everything else (a constant may be declared after its use in a class).
  const decls = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.getCombinedNodeFlags(n) & ts.NodeFlags.Const) {
      const i = unwrap(n.initializer);
      if (ts.isStringLiteral(i) || ts.isNoSubstitutionTemplateLiteral(i) || ts.isTemplateExpression(i)) consts.set(n.name.text, consts.has(n.name.text) ? null : i);
    }
    ts.forEachChild(n, decls);
  };
  decls(sf);

  // Every identifier of the file by name (built on the first CreateTable request held in a variable).
  let refs: Map<string, ts.Identifier[]> | undefined;
  const collect = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const list = refs!.get(n.text);
      if (list) list.push(n);
      else refs!.set(n.text, [n]);
    }
    ts.forEachChild(n, collect);
  };
  // The file declares its own `createTable` (`async function createTable(input) { ... }`, a method, a property): a call
  // of that name may be the helper (adding an index, a sort key...), not the SDK's request.
  let ownCreateTable = false;
  const ownDecl = (n: ts.Node): void => {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n) || ts.isPropertyAssignment(n)) && n.name && ts.isIdentifier(n.name) && n.name.text === 'createTable') ownCreateTable = true;
    else if (!ownCreateTable) ts.forEachChild(n, ownDecl);
  };
  if (text.includes('createTable')) ownDecl(sf);
  /**
   * A CreateTable request: `new CreateTableCommand(p)`, or the SDK v2 method on a client (`dynamodb.createTable(p)`,
   * `this.client.createTable(p).promise()`); a bare `createTable(p)` or `this.createTable(p)` is the project's own.
   */
  const isCreateTable = (call: ts.Node): call is ts.NewExpression | ts.CallExpression => {
    if (ts.isNewExpression(call)) return call.expression.getText(sf).replace(/\s+/g, '').replace(/^.*\./, '') === 'CreateTableCommand';
    if (!ts.isCallExpression(call) || ownCreateTable) return false;
    const callee = call.expression;
    return ts.isPropertyAccessExpression(callee) && callee.name.text === 'createTable' && callee.expression.kind !== K.ThisKeyword && callee.expression.kind !== K.SuperKeyword;
  };
  /**
   * `const params = {...}; new CreateTableCommand(params)`: the object literal a CreateTable argument holds, when the
   * name is declared once in the file with an object literal, in a block that holds the call, before it, and every
   * other mention hands it to a CreateTable request or reads one of its scalar properties (`params.TableName`). A
   * reassignment, a write or call through it (`params.X = ...`, `params.KeySchema.push(...)`, `delete params.X`),
   * reading a list or map out of it, passing it anywhere else, or another binding of the name: undefined (silent).
   */
  const heldObject = (id: ts.Identifier, call: ts.Node): ts.ObjectLiteralExpression | undefined => {
    if (!refs) {
      refs = new Map();
      collect(sf);
    }
    let decl: ts.VariableDeclaration | undefined;
    const read: string[] = [];
    for (const r of refs.get(id.text) ?? []) {
      const p = r.parent;
      // Not a mention of the variable: a property name (`x.params`, `{ params: 1 }`).
      if ((ts.isPropertyAccessExpression(p) && p.name === r) || (ts.isPropertyAssignment(p) && p.name === r)) continue;
      if (ts.isVariableDeclaration(p) && p.name === r) {
        // Exported (`export const likesTable = {...}`): another module may change it before the call.
        if (decl || !p.initializer || !ts.isObjectLiteralExpression(unwrap(p.initializer)) || isExported(p)) return undefined;
        decl = p;
        continue;
      }
      if (isCreateTable(p) && p.arguments?.some((a) => a === r)) continue;
      let at: ts.Expression = r;
      while (ts.isParenthesizedExpression(at.parent) || ts.isNonNullExpression(at.parent)) at = at.parent;
      const access = at.parent;
      const key = ts.isPropertyAccessExpression(access) && access.expression === at ? access.name.text : ts.isElementAccessExpression(access) && access.expression === at && ts.isStringLiteralLike(access.argumentExpression) ? access.argumentExpression.text : undefined;
      if (key === undefined || !isPlainRead(access as ts.Expression)) return undefined;
      read.push(key);
    }
    if (!decl || !decl.initializer || decl.end > call.getStart(sf)) return undefined;
    let block: ts.Node | undefined = decl.parent;
    while (block && !ts.isBlock(block) && !ts.isSourceFile(block) && !ts.isModuleBlock(block) && !ts.isCaseClause(block) && !ts.isDefaultClause(block)) block = block.parent;
    if (!block || call.getStart(sf) < block.getStart(sf) || call.end > block.end) return undefined;
    const obj = unwrap(decl.initializer) as ts.ObjectLiteralExpression;
    // A property read out of it is harmless only when it is a scalar (a list or map read out can be changed).
    const literal = value(obj);
    for (const k of read) {
      const v = literal.kind === 'map' ? literal.entries.find((e) => e.key === k)?.value : undefined;
      if (v && v.kind !== 'str' && v.kind !== 'num' && v.kind !== 'bool') return undefined;
    }
    return obj;
  };
  /** `x.p` / `x['p']` read for its value: not written, deleted, counted, called, reached through or destructured into. */
  const isPlainRead = (e: ts.Expression): boolean => {
    const p = e.parent;
    if (ts.isParenthesizedExpression(p) || ts.isNonNullExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p)) return isPlainRead(p);
    if (ts.isBinaryExpression(p) && p.left === e && p.operatorToken.kind >= K.FirstAssignment && p.operatorToken.kind <= K.LastAssignment) return false;
    if (ts.isDeleteExpression(p) || ts.isPostfixUnaryExpression(p) || (ts.isPrefixUnaryExpression(p) && (p.operator === K.PlusPlusToken || p.operator === K.MinusMinusToken))) return false;
    if ((ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p) || ts.isCallExpression(p)) && p.expression === e) return false;
    if ((ts.isForInStatement(p) || ts.isForOfStatement(p)) && p.initializer === e) return false;
    if (ts.isArrayLiteralExpression(p) || ts.isSpreadElement(p) || ts.isSpreadAssignment(p) || ts.isPropertyAssignment(p)) {
      // Inside a literal: a read unless the literal is a destructuring target (`[params.X] = ...`).
      for (let o: ts.Node = p; o; o = o.parent) {
        const up = o.parent;
        if (!up) break;
        if (ts.isBinaryExpression(up) && up.left === o && up.operatorToken.kind === K.EqualsToken) return false;
        if ((ts.isForInStatement(up) || ts.isForOfStatement(up)) && up.initializer === o) return false;
        if (!ts.isObjectLiteralExpression(up) && !ts.isArrayLiteralExpression(up) && !ts.isPropertyAssignment(up) && !ts.isSpreadElement(up) && !ts.isSpreadAssignment(up) && !ts.isParenthesizedExpression(up)) break;
      }
    }
    return true;
  };

  /** `const cmd = new CreateTableCommand(p); cmd.input.KeySchema!.push(...)`: the command's input reached through its variable. */
  const inputChanged = (n: ts.Node): boolean => {
    let at = n;
    while (ts.isParenthesizedExpression(at.parent) || ts.isAsExpression(at.parent) || ts.isSatisfiesExpression(at.parent)) at = at.parent;
    const d = at.parent;
    if (!ts.isVariableDeclaration(d) || !ts.isIdentifier(d.name) || !ts.isNewExpression(n)) return false;
    if (!refs) {
      refs = new Map();
      collect(sf);
    }
    return (refs.get(d.name.text) ?? []).some((r) => ts.isPropertyAccessExpression(r.parent) && r.parent.expression === r && r.parent.name.text === 'input');
  };

  const boundName = (n: ts.Node): string | undefined => {
    const p = n.parent;
    if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
    if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === K.EqualsToken) return refText(p.left, sf);
    if (p && ts.isPropertyDeclaration(p) && ts.isIdentifier(p.name)) return `this.${p.name.text}`;
    return undefined;
  };

  const visit = (n: ts.Node): void => {
    if (ts.isNewExpression(n) || ts.isCallExpression(n)) {
      const callee = n.expression.getText(sf).replace(/\s+/g, '');
      const last = callee.replace(/^.*\./, '');
      const args = n.arguments ?? ts.factory.createNodeArray();
      if (ts.isNewExpression(n) && (last === 'Table' || last === 'TableV2') && args.length >= 3) {
        const id = unwrap(args[1]);
        facts.tables.push({ kind: last, constructId: ts.isStringLiteral(id) ? id.text : undefined, props: value(args[2]), boundTo: boundName(n), range: span(n) });
      } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && (last === 'addGlobalSecondaryIndex' || last === 'addLocalSecondaryIndex') && args.length >= 1) {
        facts.indexCalls.push({ method: last, receiver: refText(n.expression.expression, sf), props: value(args[0]), range: span(n) });
      } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && last === 'addEnvironment' && args.length >= 2) {
        const k = value(args[0]);
        if (k.kind === 'str' && !k.pattern) facts.env.push(envEntry(k.value, args[1], span(n)));
      } else if (isCreateTable(n) && !inputChanged(n)) {
        const arg = args[0] ? unwrap(args[0]) : undefined;
        const held = arg && ts.isIdentifier(arg) ? heldObject(arg, n) : undefined;
        const props = held ? value(held) : arg ? value(arg) : undefined;
        if (props?.kind === 'map') facts.createTables.push({ props, range: span(n) });
      }
    } else if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'environment' && ts.isObjectLiteralExpression(unwrap(n.initializer))) {
      for (const p of (unwrap(n.initializer) as ts.ObjectLiteralExpression).properties) {
        if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) facts.env.push(envEntry(p.name.text, p.initializer, span(p)));
      }
    }
    ts.forEachChild(n, visit);
  };
  const envEntry = (variable: string, e: ts.Expression, range: Span) => {
    const x = unwrap(e);
    if (ts.isPropertyAccessExpression(x) && x.name.text === 'tableName') return { variable, tableVar: refText(x.expression, sf), range };
    const v = value(x);
    return v.kind === 'str' && !v.pattern ? { variable, literal: v.value, range } : { variable, range };
  };
  visit(sf);
  return readCodeFacts(facts, { uri, label, lines: new LineMap(text) });
}
