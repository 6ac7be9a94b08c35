import { strict as assert } from 'node:assert';
import { parseExpression, tokenize, type ConditionNode, type ExpressionKind } from '../../../server/src/expression';

describe('expression lexer', () => {
  const cases: [string, string][] = [
    ['SET a = :v', 'keyword:SET name:a comparator:= valueRef::v eof:<EOF>'],
    ['set #n.b[10]', 'keyword:set nameRef:#n punct:. name:b punct:[ number:10 punct:] eof:<EOF>'],
    [':v-w', 'valueRef::v punct:- name:w eof:<EOF>'],
    ['a[01]', 'name:a punct:[ number:0 number:1 punct:] eof:<EOF>'],
    ['a <> b <= c >= d < e > f', 'name:a comparator:<> name:b comparator:<= name:c comparator:>= name:d comparator:< name:e comparator:> name:f eof:<EOF>'],
    ["_a 'x' é", "invalid:_ name:a invalid:' name:x invalid:' invalid:é eof:<EOF>"],
    ['# : a\u00a0b', 'invalid:# invalid:: name:a invalid:\u00a0 name:b eof:<EOF>'],
    ['aB9_x\t\r\nBETWEEN', 'name:aB9_x keyword:BETWEEN eof:<EOF>'],
    ['😀a', 'invalid:😀 name:a eof:<EOF>'],
  ];
  for (const [text, expected] of cases) {
    it(`tokenizes ${JSON.stringify(text)}`, () => {
      assert.equal(tokenize(text).map((t) => `${t.type}:${t.text}`).join(' '), expected);
    });
  }
  it('gives exact offsets and the upper-cased keyword', () => {
    const t = tokenize('  not  #a1');
    assert.deepEqual(t.map((x) => [x.start, x.end, x.keyword]), [
      [2, 5, 'NOT'],
      [7, 10, undefined],
      [10, 10, undefined],
    ]);
  });
});

describe('expression parser: syntax errors as DynamoDB reports them', () => {
  // [kind, text, DynamoDB's message (checked against DynamoDB Local), error start, error end]
  const cases: [ExpressionKind, string, string, number, number][] = [
    ['update', 'SET a = = b', 'Invalid UpdateExpression: Syntax error; token: "=", near: "= = b"', 8, 9],
    ['update', 'SET a =', 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "="', 7, 7],
    ['update', 'SET a', 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "a"', 5, 5],
    ['update', '', 'Invalid UpdateExpression: The expression can not be empty;', 0, 0],
    ['update', '   ', 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "   "', 3, 3],
    ['update', 'SET a = :x + :y + :z', 'Invalid UpdateExpression: Syntax error; token: "+", near: ":y + :z"', 16, 17],
    ['update', 'SET a[-1] = :v', 'Invalid UpdateExpression: Syntax error; token: "-", near: "[-1"', 6, 7],
    ['update', 'SET a[01] = :v', 'Invalid UpdateExpression: Syntax error; token: "1", near: "01]"', 7, 8],
    ['update', 'SET 1a = :v', 'Invalid UpdateExpression: Syntax error; token: "1", near: "SET 1a"', 4, 5],
    ['update', 'SET _a = :v', 'Invalid UpdateExpression: Syntax error; token: "_", near: "SET _a"', 4, 5],
    ['update', 'SET é = :v', 'Invalid UpdateExpression: Syntax error; token: "é", near: "SET é ="', 4, 5],
    ['update', 'SET a-b = :v', 'Invalid UpdateExpression: Syntax error; token: "-", near: "a-b"', 5, 6],
    ['update', 'SET between = :v', 'Invalid UpdateExpression: Syntax error; token: "between", near: "SET between ="', 4, 11],
    ['update', 'SET a = :v, set = :w', 'Invalid UpdateExpression: Syntax error; token: "set", near: ", set ="', 12, 15],
    ['update', 'SET a = :v,, b = :v', 'Invalid UpdateExpression: Syntax error; token: ",", near: ",, b"', 11, 12],
    ['update', 'SET a = :v,', 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ","', 11, 11],
    ['update', 'SET a = :v, REMOVE b', 'Invalid UpdateExpression: Syntax error; token: "REMOVE", near: ", REMOVE b"', 12, 18],
    ['update', 'SET (a) = b', 'Invalid UpdateExpression: Syntax error; token: "(", near: "SET (a"', 4, 5],
    ['update', 'SET a = -:v', 'Invalid UpdateExpression: Syntax error; token: "-", near: "= -:v"', 8, 9],
    ['update', 'SET a = if_not_exists(a, :v) + if_not_exists(b, :v) + :v', 'Invalid UpdateExpression: Syntax error; token: "+", near: ") + :v"', 52, 53],
    ['update', 'ADD a b', 'Invalid UpdateExpression: Syntax error; token: "b", near: "a b"', 6, 7],
    ['update', 'ADD a size(b)', 'Invalid UpdateExpression: Syntax error; token: "size", near: "a size("', 6, 10],
    ['update', 'ADD a :v + :v', 'Invalid UpdateExpression: Syntax error; token: "+", near: ":v + :v"', 9, 10],
    ['update', 'REMOVE a = :v', 'Invalid UpdateExpression: Syntax error; token: "=", near: "a = :v"', 9, 10],
    ['update', 'SET a :v', 'Invalid UpdateExpression: Syntax error; token: ":v", near: "a :v"', 6, 8],
    ['update', 'SET a = :v REMOVE', 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "REMOVE"', 17, 17],
    ['update', 'DELETE a', 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "a"', 8, 8],
    ['condition', "a = 'x'", 'Invalid ConditionExpression: Syntax error; token: "\'", near: "= \'x"', 4, 5],
    ['condition', 'a = "x"', 'Invalid ConditionExpression: Syntax error; token: """, near: "= "x"', 4, 5],
    ['condition', 'a = 1', 'Invalid ConditionExpression: Syntax error; token: "1", near: "= 1"', 4, 5],
    ['condition', 'a = :a AND', 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "AND"', 10, 10],
    ['condition', 'a = :a AND b', 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "b"', 12, 12],
    ['condition', 'a', 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "a"', 1, 1],
    ['condition', 'a IN ()', 'Invalid ConditionExpression: Syntax error; token: ")", near: "()"', 6, 7],
    ['condition', 'a IN (:v,)', 'Invalid ConditionExpression: Syntax error; token: ")", near: ",)"', 9, 10],
    ['condition', 'a IN :v', 'Invalid ConditionExpression: Syntax error; token: ":v", near: "IN :v"', 5, 7],
    ['condition', 'a != :v', 'Invalid ConditionExpression: Syntax error; token: "!", near: "a !="', 2, 3],
    ['condition', 'a == :v', 'Invalid ConditionExpression: Syntax error; token: "=", near: "== :v"', 3, 4],
    ['condition', 'a =< :v', 'Invalid ConditionExpression: Syntax error; token: "<", near: "=< :v"', 3, 4],
    ['condition', 'a = :v)', 'Invalid ConditionExpression: Syntax error; token: ")", near: ":v)"', 6, 7],
    ['condition', '(a = :v', 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ":v"', 7, 7],
    ['condition', 'attribute_exists()', 'Invalid ConditionExpression: Syntax error; token: ")", near: "()"', 17, 18],
    ['condition', 'attribute_exists(a b)', 'Invalid ConditionExpression: Syntax error; token: "b", near: "a b)"', 19, 20],
    ['condition', 'a = :v AND AND b = :v', 'Invalid ConditionExpression: Syntax error; token: "AND", near: "AND AND b"', 11, 14],
    ['condition', 'a = :v b = :v', 'Invalid ConditionExpression: Syntax error; token: "b", near: ":v b ="', 7, 8],
    ['condition', 'a BETWEEN :v OR :v', 'Invalid ConditionExpression: Syntax error; token: "OR", near: ":v OR :v"', 13, 15],
    ['condition', 'a..b = :v', 'Invalid ConditionExpression: Syntax error; token: ".", near: "..b"', 2, 3],
    ['condition', 'a[x] = :v', 'Invalid ConditionExpression: Syntax error; token: "x", near: "[x]"', 2, 3],
    ['condition', 'a = :v\u00a0', 'Invalid ConditionExpression: Syntax error; token: "\u00a0", near: ":v\u00a0"', 6, 7],
    ['condition', 'a = (b = :v)', 'Invalid ConditionExpression: Syntax error; token: "=", near: "b = :v"', 7, 8],
    ['condition', 'a = :v AND (b)', 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ")"', 14, 14],
    ['condition', ':v.a = :v', 'Invalid ConditionExpression: Syntax error; token: ".", near: ":v.a"', 2, 3],
    ['condition', '# = :v', 'Invalid ConditionExpression: Syntax error; token: "#", near: "# ="', 0, 1],
    ['condition', 'a = :v-1', 'Invalid ConditionExpression: Syntax error; token: "-", near: ":v-1"', 6, 7],
    ['filter', 'a = :vé', 'Invalid FilterExpression: Syntax error; token: "é", near: ":vé"', 6, 7],
    ['keyCondition', 'PK = :a OR', 'Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "OR"', 10, 10],
    ['projection', 'size(a)', 'Invalid ProjectionExpression: Syntax error; token: "(", near: "size(a"', 4, 5],
    ['projection', 'a,', 'Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","', 2, 2],
    ['projection', 'a.1', 'Invalid ProjectionExpression: Syntax error; token: "1", near: ".1"', 2, 3],
  ];
  for (const [kind, text, message, start, end] of cases) {
    it(`${kind}: ${JSON.stringify(text)}`, () => {
      const r = parseExpression(kind, text);
      assert.equal(r.ast, undefined);
      assert.ok(r.error);
      assert.equal(r.error.message, message);
      assert.deepEqual([r.error.start, r.error.end], [start, end]);
    });
  }
});

/** Compact rendering of a condition tree to check precedence and structure. */
function show(c: ConditionNode): string {
  switch (c.type) {
    case 'and':
    case 'or':
      return `${c.type}(${show(c.left)}, ${show(c.right)})`;
    case 'not':
      return `not(${show(c.operand)})`;
    case 'paren':
      return `(${show(c.inner)})`;
    case 'compare':
      return `${c.op}`;
    case 'between':
      return 'between';
    case 'in':
      return `in${c.list.length}`;
    case 'functionCondition':
      return c.fn.name;
  }
}

describe('expression parser: valid expressions', () => {
  const cases: [string, string][] = [
    ['a = :x OR b = :x AND c = :x', 'or(=, and(=, =))'],
    ['NOT a = :x AND b = :x', 'and(not(=), =)'],
    ['a = :x AND NOT NOT b < :x', 'and(=, not(not(<)))'],
    ['(a = :x OR b = :x) AND c <> :x', 'and((or(=, =)), <>)'],
    ['attribute_exists(a) OR (begins_with(b, :p))', 'or(attribute_exists, (begins_with))'],
    ['(attribute_exists(a) AND b = :v)', '(and(attribute_exists, =))'],
    ['a BETWEEN :x AND :y AND b IN (:x, :y, :z)', 'and(between, in3)'],
    ['size(a) BETWEEN size(b) AND size(c)', 'between'],
    ['(a) = :v', '='],
    ['((attribute_exists(a)))', '((attribute_exists))'],
    ['a in (:v) and b between :v and :w or not c = :v', 'or(and(in1, between), not(=))'],
  ];
  for (const [text, tree] of cases) {
    it(`condition ${JSON.stringify(text)} -> ${tree}`, () => {
      const r = parseExpression('condition', text);
      assert.equal(r.error, undefined);
      assert.ok(r.ast && r.ast.type !== 'update' && r.ast.type !== 'projection');
      assert.equal(show(r.ast), tree);
      assert.deepEqual([r.ast.start, r.ast.end], [0, text.length]);
    });
  }

  it('parses an update with offsets on every node', () => {
    const text = 'SET #a.b[2] = if_not_exists(c, :z) + :n REMOVE d ADD e :one DELETE f :s';
    const r = parseExpression('update', text);
    assert.ok(r.ast && r.ast.type === 'update');
    assert.deepEqual(r.ast.clauses.map((c) => [c.keyword, text.slice(c.start, c.end)]), [
      ['SET', 'SET #a.b[2] = if_not_exists(c, :z) + :n'],
      ['REMOVE', 'REMOVE d'],
      ['ADD', 'ADD e :one'],
      ['DELETE', 'DELETE f :s'],
    ]);
    const set = r.ast.clauses[0].actions[0];
    assert.ok(set.type === 'SET');
    assert.deepEqual(set.path.elements.map((e) => text.slice(e.start, e.end)), ['#a', 'b', '[2]']);
    assert.deepEqual(set.path.elements.map((e) => (e.type === 'index' ? e.index : `${e.name}/${e.placeholder}`)), ['#a/true', 'b/false', 2]);
    assert.ok(set.value.type === 'arithmetic');
    assert.equal(set.value.op, '+');
    assert.ok(set.value.left.type === 'function');
    assert.equal(text.slice(set.value.left.nameSpan.start, set.value.left.nameSpan.end), 'if_not_exists');
    assert.equal(text.slice(set.value.right.start, set.value.right.end), ':n');
  });

  it('keeps keywords case-insensitive and function names as written', () => {
    const r = parseExpression('update', 'set a = LIST_APPEND(a, :l) add b :n');
    assert.ok(r.ast && r.ast.type === 'update');
    assert.deepEqual(r.ast.clauses.map((c) => c.keyword), ['SET', 'ADD']);
    const v = r.ast.clauses[0].actions[0];
    assert.ok(v.type === 'SET' && v.value.type === 'function' && v.value.name === 'LIST_APPEND');
  });

  it('reads `SET x = :v-w` as a subtraction of the attribute w', () => {
    const r = parseExpression('update', 'SET x = :v-w');
    assert.ok(r.ast && r.ast.type === 'update');
    const a = r.ast.clauses[0].actions[0];
    assert.ok(a.type === 'SET' && a.value.type === 'arithmetic' && a.value.op === '-');
    assert.equal(a.value.left.type, 'value');
    assert.equal(a.value.right.type, 'path');
  });

  it('parses projections with nested paths', () => {
    const text = 'a.b, c[1], #n';
    const r = parseExpression('projection', text);
    assert.ok(r.ast && r.ast.type === 'projection');
    assert.deepEqual(r.ast.paths.map((p) => text.slice(p.start, p.end)), ['a.b', 'c[1]', '#n']);
  });
});

describe('expression parser: pathological input stays bounded', () => {
  it('4 KB of "(" is a syntax error at the end', () => {
    const r = parseExpression('condition', '('.repeat(4096));
    assert.equal(r.error?.message, 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("');
    assert.equal(r.error?.start, 4096);
  });
  it('deeply balanced parentheses report the nesting, not a crash', () => {
    const r = parseExpression('condition', '('.repeat(2000) + 'a = :v' + ')'.repeat(2000));
    assert.equal(r.error?.reason, 'nesting');
  });
  it('deep parentheses with one missing ")" are a syntax error at the end', () => {
    const r = parseExpression('condition', '('.repeat(2000) + 'a = :v' + ')'.repeat(1999));
    assert.equal(r.error?.reason, 'syntax');
    assert.equal(r.error?.token, '<EOF>');
  });
  it('10,000 ANDs parse into one tree', () => {
    const text = Array.from({ length: 10_001 }, (_, i) => `a${i} = :v`).join(' AND ');
    const r = parseExpression('condition', text);
    assert.equal(r.error, undefined);
    assert.equal(r.ast?.type, 'and');
  });
  it('10,000 operators with a stray one at the end report it', () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `a${i} = :v`).join(' OR ') + ' OR OR';
    const r = parseExpression('condition', text);
    assert.equal(r.error?.token, 'OR');
    assert.equal(r.error?.start, text.length - 2);
  });
  it('3,000 NOTs parse without recursion', () => {
    const r = parseExpression('condition', 'NOT '.repeat(3000) + 'a = :v');
    assert.equal(r.error, undefined);
    assert.equal(r.ast?.type, 'not');
  });
  it('an unterminated placeholder, index and function call end in EOF errors', () => {
    assert.equal(parseExpression('update', 'SET a[').error?.message, 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "["');
    // Trailing whitespace stays in `near`, as DynamoDB Local shows it.
    assert.equal(parseExpression('update', 'SET a = list_append(a, ').error?.message, 'Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ", "');
    assert.equal(parseExpression('update', 'SET a = :').error?.message, 'Invalid UpdateExpression: Syntax error; token: ":", near: "= :"');
  });
});
