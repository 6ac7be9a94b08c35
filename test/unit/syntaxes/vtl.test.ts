/**
 * AppSync VTL mapping templates in the editor: the extension contributes a small `velocity` grammar (so `.vtl` files
 * have scopes at all) and an injection that highlights the DynamoDB expression in `"expression": "..."` with the
 * expression tokens of dynalint.expression.injection; VTL references inside the string stay references.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const grammars: { language?: string; scopeName: string; path: string; injectTo?: string[] }[] = pkg.contributes.grammars;
const load = (scope: string) => JSON.parse(readFileSync(join(root, grammars.find((g) => g.scopeName === scope)!.path), 'utf8'));
const base = load('source.velocity');
const injection = load('dynalint.expression.vtl-injection');
const expressions = load('dynalint.expression.injection');
const byScope: Record<string, Grammar> = { 'source.velocity': base, 'dynalint.expression.vtl-injection': injection, 'dynalint.expression.injection': expressions };

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
interface Grammar {
  patterns: Rule[];
  repository: Record<string, Rule>;
}

const toJs = (source: string) => new RegExp(source.startsWith('(?i)') ? source.slice(4) : source, source.startsWith('(?i)') ? 'gi' : 'g');

/** Rules with a `match`, includes resolved (`#x` in the including grammar, `scope#x` in another one). */
function resolve(rule: Rule, g: Grammar): Rule[] {
  if (rule.include) {
    const [scope, name] = rule.include.startsWith('#') ? [undefined, rule.include.slice(1)] : rule.include.split('#');
    const owner = scope ? byScope[scope] : g;
    return resolve(owner.repository[name], owner);
  }
  if (rule.patterns && !rule.match && !rule.begin) return rule.patterns.flatMap((r) => resolve(r, g));
  return [rule];
}

type Token = [text: string, scope: string];

/** The tokens of the first `"expression": "..."` field of a line (earliest match wins, the end pattern on ties). */
function tokenize(line: string): Token[] {
  const field = injection.repository['expression-field'] as Rule;
  const begin = toJs(field.begin!).exec(line);
  assert.ok(begin, `no expression field in: ${line}`);
  const out: Token[] = [];
  for (let i = 1; i < begin.length; i++) if (begin[i] && field.beginCaptures?.[i]) out.push([begin[i], field.beginCaptures[i].name]);
  const patterns = field.patterns!.flatMap((r) => resolve(r, injection));
  const end = toJs(field.end!);
  let pos = begin.index + begin[0].length;
  for (;;) {
    let best: { m: RegExpExecArray; rule?: Rule } | undefined;
    for (const rule of [undefined, ...patterns]) {
      const re = rule ? toJs(rule.match!) : end;
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m && (!best || m.index < best.m.index)) best = { m, rule };
    }
    assert.ok(best, `unterminated expression in: ${line}`);
    const { m, rule } = best;
    if (!rule) {
      out.push([m[1], field.endCaptures![1].name]);
      return out;
    }
    if (rule.name) out.push([m[0], rule.name]);
    else for (let i = 1; i < m.length; i++) if (m[i] && rule.captures?.[i]) out.push([m[i], rule.captures[i].name]);
    pos = m.index + m[0].length;
  }
}

const KEY = 'support.type.property-name.dynamodb';
const SEP = 'punctuation.separator.key-value.dynamodb';
const OPEN = 'string.quoted.dynamodb punctuation.definition.string.begin.dynamodb';
const CLOSE = 'string.quoted.dynamodb punctuation.definition.string.end.dynamodb';
const CLAUSE = 'keyword.other.clause.dynamodb';
const NAME = 'variable.other.name-placeholder.dynamodb';
const VALUE = 'variable.parameter.value-placeholder.dynamodb';
const FN = 'support.function.dynamodb';
const PAREN = 'punctuation.section.parens.dynamodb';
const PATH = 'variable.other.property.dynamodb';
const REF = 'variable.other.reference.velocity';

describe('syntaxes: AppSync VTL mapping templates', () => {
  it('the manifest contributes the velocity grammar and the injection into it', () => {
    assert.equal(grammars.find((g) => g.scopeName === 'source.velocity')?.language, 'velocity');
    assert.ok(pkg.contributes.languages.some((l: { id: string; extensions: string[] }) => l.id === 'velocity' && l.extensions.includes('.vtl')));
    const entry = grammars.find((g) => g.scopeName === 'dynalint.expression.vtl-injection')!;
    assert.deepEqual(entry.injectTo, ['source.velocity']);
    assert.equal(injection.injectionSelector, 'L:source.velocity -comment -string');
    assert.equal(base.scopeName, 'source.velocity');
  });

  it('every regex of both grammars compiles', () => {
    const all: string[] = [];
    const visit = (r: Rule) => {
      for (const k of ['match', 'begin', 'end'] as const) if (r[k]) all.push(r[k]!);
      r.patterns?.forEach(visit);
    };
    for (const g of [base, injection]) {
      g.patterns.forEach(visit);
      Object.values(g.repository as Record<string, Rule>).forEach(visit);
    }
    assert.ok(all.length >= 10);
    for (const r of all) assert.doesNotThrow(() => toJs(r), r);
  });

  const cases: [string, Token[]][] = [
    ['        "expression": "ADD #count :one",', [['expression', KEY], [':', SEP], ['"', OPEN], ['ADD', CLAUSE], ['#count', NAME], [':one', VALUE], ['"', CLOSE]]],
    ['    "expression" : "attribute_not_exists(id)"', [['expression', KEY], [':', SEP], ['"', OPEN], ['attribute_not_exists', FN], ['(', PAREN], ['id', PATH], [')', PAREN], ['"', CLOSE]]],
    ['  "expression": "SET #n = :n REMOVE ${field}",', [['expression', KEY], [':', SEP], ['"', OPEN], ['SET', CLAUSE], ['#n', NAME], ['=', 'keyword.operator.comparison.dynamodb'], [':n', VALUE], ['REMOVE', CLAUSE], ['${field}', REF], ['"', CLOSE]]],
  ];
  for (const [line, tokens] of cases) it(`tokenizes ${line.trim()}`, () => assert.deepEqual(tokenize(line), tokens));

  it('leaves other keys alone: expressionNames, expressionValues, a key merely containing the word', () => {
    const begin = toJs((injection.repository['expression-field'] as Rule).begin!);
    for (const line of ['"expressionNames": { "#n": "name" }', '"expressionValues": {}', '"my_expression": "SET a = :b"', '"operation": "UpdateItem"']) assert.equal(begin.exec(line), null, line);
  });

  it('the base grammar: comments, directives, references', () => {
    const first = (line: string) => {
      const rules = base.patterns.flatMap((r: Rule) => resolve(r, base));
      let best: { index: number; name: string } | undefined;
      for (const r of rules) {
        const m = toJs(r.match ?? r.begin!).exec(line);
        if (m && (!best || m.index < best.index)) best = { index: m.index, name: r.name! };
      }
      return best?.name;
    };
    assert.equal(first('## dynalint-disable-next-line set-without-if-not-exists'), 'comment.line.double-number-sign.velocity');
    assert.equal(first('#* a block *#'), 'comment.block.velocity');
    assert.equal(first('#set($sk = "FOLLOWS_" + $ctx.args.userId)'), 'keyword.control.directive.velocity');
    assert.equal(first('$util.dynamodb.toDynamoDBJson($ctx.args.id)'), REF);
  });
});
