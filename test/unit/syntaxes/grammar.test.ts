/**
 * The TextMate injection grammar: every regex compiles, the injection targets the host grammars the manifest names,
 * and a small TextMate-style scanner (earliest match wins, the end pattern first on ties, as vscode-textmate does)
 * run over real lines of JSON, TypeScript and Python gives the expected token scopes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entry = pkg.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === 'dynalint.expression.injection');
const grammar = JSON.parse(readFileSync(join(root, entry.path), 'utf8'));

interface Rule {
  name?: string;
  match?: string;
  begin?: string;
  end?: string;
  include?: string;
  captures?: Record<string, { name: string }>;
  beginCaptures?: Record<string, { name: string }>;
  endCaptures?: Record<string, { name: string }>;
  contentName?: string;
  patterns?: Rule[];
}

/** Oniguruma -> JS: the only Oniguruma-specific construct the grammar uses is a leading `(?i)`. */
function toJs(source: string): RegExp {
  const ci = source.startsWith('(?i)');
  return new RegExp(ci ? source.slice(4) : source, ci ? 'gi' : 'g');
}

function resolve(rule: Rule): Rule[] {
  if (rule.include) return resolve(grammar.repository[rule.include.slice(1)]);
  if (rule.patterns && !rule.match && !rule.begin) return rule.patterns.flatMap(resolve);
  return [rule];
}

function allRegexes(): string[] {
  const out: string[] = [];
  const visit = (r: Rule) => {
    for (const k of ['match', 'begin', 'end'] as const) if (r[k]) out.push(r[k]!);
    r.patterns?.forEach(visit);
  };
  grammar.patterns.forEach(visit);
  Object.values(grammar.repository as Record<string, Rule>).forEach(visit);
  return out;
}

type Token = [text: string, scope: string];

function capturesToTokens(m: RegExpExecArray, captures: Rule['captures'], whole?: string): Token[] {
  if (whole) return [[m[0], whole]];
  const out: Token[] = [];
  for (let i = 1; i < m.length; i++) if (m[i] && captures?.[i]) out.push([m[i], captures[i].name]);
  return out;
}

/** Tokenize one line with the injection: the tokens inside (and delimiting) the first expression field. */
function tokenize(line: string): Token[] {
  const field = grammar.repository['expression-field'] as Rule;
  const begin = toJs(field.begin!).exec(line);
  assert.ok(begin, `no expression field recognised in: ${line}`);
  const out: Token[] = capturesToTokens(begin, field.beginCaptures);
  const escaped = begin[6].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const end = toJs(field.end!.replace('\\6', escaped));
  const patterns = field.patterns!.flatMap(resolve);
  let pos = begin.index + begin[0].length;
  for (;;) {
    let best: { m: RegExpExecArray; rule?: Rule } | undefined;
    for (const rule of [undefined, ...patterns]) {
      const re = rule ? toJs(rule.match!) : end;
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m && (!best || m.index < best.m.index)) best = { m, rule };
    }
    assert.ok(best, `unterminated expression string in: ${line}`);
    const { m, rule } = best;
    const gap = line.slice(pos, m.index).trim();
    if (gap) out.push([gap, field.contentName!]);
    if (!rule) {
      out.push(...capturesToTokens(m, field.endCaptures));
      return out;
    }
    out.push(...capturesToTokens(m, rule.captures, rule.name));
    pos = m.index + m[0].length;
  }
}

const KEY = 'support.type.property-name.dynamodb';
const SEP = 'punctuation.separator.key-value.dynamodb';
const OPEN = 'string.quoted.dynamodb punctuation.definition.string.begin.dynamodb';
const CLOSE = 'string.quoted.dynamodb punctuation.definition.string.end.dynamodb';
const CLAUSE = 'keyword.other.clause.dynamodb';
const LOGIC = 'keyword.operator.logical.dynamodb';
const FN = 'support.function.dynamodb';
const NAME = 'variable.other.name-placeholder.dynamodb';
const VALUE = 'variable.parameter.value-placeholder.dynamodb';
const PATH = 'variable.other.property.dynamodb';
const CMP = 'keyword.operator.comparison.dynamodb';
const ARITH = 'keyword.operator.arithmetic.dynamodb';
const PAREN = 'punctuation.section.parens.dynamodb';
const COMMA = 'punctuation.separator.comma.dynamodb';
const DOT = 'punctuation.accessor.dynamodb';

const counterTokens: Token[] = [
  ['SET', CLAUSE], ['#c', NAME], ['=', CMP], ['if_not_exists', FN], ['(', PAREN], ['#c', NAME], [',', COMMA], [':zero', VALUE],
  [')', PAREN], ['+', ARITH], [':inc', VALUE],
];

const cases: { host: string; line: string; tokens: Token[] }[] = [
  {
    host: 'JSON',
    line: '  "UpdateExpression": "SET #c = if_not_exists(#c, :zero) + :inc",',
    tokens: [['UpdateExpression', KEY], [':', SEP], ['"', OPEN], ...counterTokens, ['"', CLOSE], [',', 'punctuation.separator.dynamodb']],
  },
  {
    host: 'TypeScript (bare key, single quotes)',
    line: "      ConditionExpression: 'attribute_not_exists(PK) AND info.sizes[2] <> :n', // guard",
    tokens: [
      ['ConditionExpression', KEY], [':', SEP], ["'", OPEN], ['attribute_not_exists', FN], ['(', PAREN], ['PK', PATH], [')', PAREN],
      ['AND', LOGIC], ['info', PATH], ['.', DOT], ['sizes', PATH], ['[', 'punctuation.section.index.begin.dynamodb'],
      ['2', 'constant.numeric.index.dynamodb'], [']', 'punctuation.section.index.end.dynamodb'], ['<>', CMP], [':n', VALUE], ["'", CLOSE],
      [',', 'punctuation.separator.dynamodb'],
    ],
  },
  {
    host: 'Go (struct field, aws.String, raw string)',
    line: '\t\tUpdateExpression: aws.String(`ADD #c :one`),',
    tokens: [['UpdateExpression', KEY], [':', SEP], ['`', OPEN], ['ADD', CLAUSE], ['#c', NAME], [':one', VALUE], ['`', CLOSE]],
  },
  {
    host: 'Java (builder call)',
    line: '                .conditionExpression("attribute_not_exists(SK)")',
    tokens: [['conditionExpression', KEY], ['(', SEP], ['"', OPEN], ['attribute_not_exists', FN], ['(', PAREN], ['SK', PATH], [')', PAREN], ['"', CLOSE]],
  },
  {
    host: 'TypeScript (template literal, lower-case keywords)',
    line: '  KeyConditionExpression: `pk = :pk and begins_with(sk, :p)`',
    tokens: [
      ['KeyConditionExpression', KEY], [':', SEP], ['`', OPEN], ['pk', PATH], ['=', CMP], [':pk', VALUE], ['and', LOGIC],
      ['begins_with', FN], ['(', PAREN], ['sk', PATH], [',', COMMA], [':p', VALUE], [')', PAREN], ['`', CLOSE],
    ],
  },
  {
    host: 'Python keyword argument',
    line: '    table.update_item(Key=key, UpdateExpression="ADD likeTally :one REMOVE #s", ExpressionAttributeValues=v)',
    tokens: [
      ['UpdateExpression', KEY], ['=', SEP], ['"', OPEN], ['ADD', CLAUSE], ['likeTally', PATH], [':one', VALUE], ['REMOVE', CLAUSE],
      ['#s', NAME], ['"', CLOSE], [',', 'punctuation.separator.dynamodb'],
    ],
  },
  {
    host: 'Python dict with an escaped quote and a size() comparison',
    line: "    'FilterExpression': 'size(tags) > :n OR NOT contains(#t, \\'x\\')',",
    tokens: [
      ['FilterExpression', KEY], [':', SEP], ["'", OPEN], ['size', FN], ['(', PAREN], ['tags', PATH], [')', PAREN], ['>', CMP], [':n', VALUE],
      ['OR', LOGIC], ['NOT', LOGIC], ['contains', FN], ['(', PAREN], ['#t', NAME], [',', COMMA], ["\\'", 'constant.character.escape.dynamodb'],
      ['x', PATH], ["\\'", 'constant.character.escape.dynamodb'], [')', PAREN], ["'", CLOSE], [',', 'punctuation.separator.dynamodb'],
    ],
  },
];

describe('syntaxes: expression injection grammar', () => {
  it('every regex compiles as a JS RegExp (after the (?i) flag translation)', () => {
    const regexes = allRegexes();
    assert.ok(regexes.length >= 14, `only ${regexes.length} regexes`);
    for (const r of regexes) {
      assert.doesNotThrow(() => toJs(r.replace('\\6', '"')), r);
      assert.ok(!/\(\?[imx-]+[):]/.test(r.replace(/^\(\?i\)/, '')), `Oniguruma-only group in ${r}`);
    }
  });

  it('injects into exactly the host scopes the manifest names, outside strings and comments', () => {
    const selectors = (grammar.injectionSelector as string).split(',').map((s) => s.trim());
    assert.deepEqual(
      selectors,
      (entry.injectTo as string[]).map((s) => `L:${s} -comment -string`),
    );
    assert.deepEqual(entry.injectTo, ['source.json', 'source.json.comments', 'source.ts', 'source.tsx', 'source.js', 'source.js.jsx', 'source.python', 'source.go', 'source.java']);
    assert.equal(grammar.scopeName, entry.scopeName);
  });

  for (const c of cases)
    it(`tokenizes an expression in ${c.host}`, () => {
      assert.deepEqual(tokenize(c.line), c.tokens);
    });

  it('leaves strings bound to other keys alone', () => {
    const field = grammar.repository['expression-field'] as Rule;
    for (const line of ['"TableName": "SET a = b"', "Expression: 'SET a = :b'", 'my_UpdateExpression = "x"', "UpdateExpressions: 'SET a = :b'"])
      assert.equal(toJs(field.begin!).exec(line), null, line);
  });
});
