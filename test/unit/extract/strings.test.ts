import { strict as assert } from 'node:assert';
import { extract, initParsers, prop, stringRange } from '../../../server/src/extract';

/**
 * Exact ranges through escapes: each case writes an UpdateExpression literal in a host language; `token` is a piece
 * of the decoded value and `raw` the exact document text its range must cover.
 */
interface Case {
  name: string;
  literal: string;
  value: string;
  token: string;
  raw: string;
  prelude?: string;
}

const TS: Case[] = [
  { name: 'escaped quotes', literal: String.raw`"SET \"a\" = :v"`, value: 'SET "a" = :v', token: '"a"', raw: String.raw`\"a\"` },
  { name: '\\u escape', literal: String.raw`'SET \u0041 = :v'`, value: 'SET A = :v', token: 'A = :v', raw: String.raw`\u0041 = :v` },
  { name: '\\x escape', literal: String.raw`'SET \x41b = :v'`, value: 'SET Ab = :v', token: 'Ab', raw: String.raw`\x41b` },
  { name: '\\u{} escape', literal: String.raw`'SET \u{62} = :v'`, value: 'SET b = :v', token: 'b =', raw: String.raw`\u{62} =` },
  { name: 'newline escape', literal: String.raw`"SET a = :v\nREMOVE b"`, value: 'SET a = :v\nREMOVE b', token: '\nREMOVE', raw: String.raw`\nREMOVE` },
  { name: 'template literal over lines', literal: '`SET a = :v,\n    b = :w`', value: 'SET a = :v,\n    b = :w', token: 'b = :w', raw: 'b = :w' },
  { name: 'line continuation', literal: "'SET a = :v, \\\nb = :w'", value: 'SET a = :v, b = :w', token: 'b = :w', raw: 'b = :w' },
  { name: 'concatenation', literal: `'SET ' + "a = :v" + ', b = :w'`, value: 'SET a = :v, b = :w', token: 'a = :v', raw: 'a = :v' },
  { name: 'template with a constant', prelude: "const NAME = '#n';\n", literal: '`SET ${NAME} = :v`', value: 'SET #n = :v', token: '#n', raw: '#n' },
  { name: 'resolved constant', prelude: 'const EXPR = "ADD \\u0063ount :one";\n', literal: 'EXPR', value: 'ADD count :one', token: 'count', raw: '\\u0063ount' },
];

const PY: Case[] = [
  { name: 'escaped quotes', literal: String.raw`"SET \"a\" = :v"`, value: 'SET "a" = :v', token: '"a"', raw: String.raw`\"a\"` },
  { name: 'raw string keeps backslashes', literal: String.raw`r"SET a = :v\n"`, value: 'SET a = :v\\n', token: ':v\\n', raw: String.raw`:v\n` },
  { name: 'implicit concatenation', literal: `("SET a = :v"\n    ", b = :w")`, value: 'SET a = :v, b = :w', token: ', b', raw: ', b' },
  { name: 'parenthesised with comments', literal: `(  # why
    "SET a = :v"
    # more
    ", b = :w"
)`, value: 'SET a = :v, b = :w', token: 'b', raw: 'b' },
  { name: 'triple quotes', literal: `"""SET a = :v,\n  b = :w"""`, value: 'SET a = :v,\n  b = :w', token: 'b = :w', raw: 'b = :w' },
  { name: '\\x escape', literal: String.raw`'SET \x41 = :v'`, value: 'SET A = :v', token: 'A', raw: String.raw`\x41` },
  { name: '\\u escape', literal: String.raw`u"SET \u0041 = :v"`, value: 'SET A = :v', token: 'A =', raw: String.raw`\u0041 =` },
  { name: 'f-string without substitutions', literal: `f"SET a = :v {{x}}"`, value: 'SET a = :v {x}', token: '{x}', raw: '{{x}}' },
  { name: 'resolved module constant', prelude: "EXPR = 'ADD \\x63ount :one'\n", literal: 'EXPR', value: 'ADD count :one', token: 'count', raw: '\\x63ount' },
];

const JSON_CASES: Case[] = [
  { name: 'escaped quotes', literal: String.raw`"SET \"a\" = :v"`, value: 'SET "a" = :v', token: '"a"', raw: String.raw`\"a\"` },
  { name: '\\u escape', literal: String.raw`"SET \u0041 = :v"`, value: 'SET A = :v', token: 'A', raw: String.raw`\u0041` },
  { name: 'solidus and newline', literal: String.raw`"SET a = :v\nREMOVE b\/c"`, value: 'SET a = :v\nREMOVE b/c', token: 'REMOVE b/c', raw: String.raw`REMOVE b\/c` },
];

const HOSTS: { lang: string; cases: Case[]; wrap: (c: Case) => string }[] = [
  {
    lang: 'typescript',
    cases: TS,
    wrap: (c) => `import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';\n${c.prelude ?? ''}client.send(new UpdateItemCommand({ TableName: 't', UpdateExpression: ${c.literal} }));\n`,
  },
  { lang: 'python', cases: PY, wrap: (c) => `${c.prelude ?? ''}client.update_item(TableName='t', UpdateExpression=${c.literal})\n` },
  { lang: 'json', cases: JSON_CASES, wrap: (c) => `{"TableName": "t", "UpdateExpression": ${c.literal}}` },
];

describe('extract: string ranges through escapes', () => {
  before(() => initParsers());
  for (const h of HOSTS)
    for (const c of h.cases)
      it(`${h.lang}: ${c.name}`, () => {
        const text = h.wrap(c);
        const sites = extract(text, h.lang).sites;
        assert.equal(sites.length, 1);
        const node = prop(sites[0].params, 'UpdateExpression');
        assert.equal(node?.kind, 'string');
        if (node?.kind !== 'string') return;
        assert.equal(node.value, c.value);
        const at = node.value.indexOf(c.token);
        assert.ok(at >= 0);
        const r = stringRange(node, at, at + c.token.length);
        assert.equal(text.slice(r.start, r.end), c.raw);
      });
});

describe('extract: Python named escapes (\\N{...}) are not guessed', () => {
  before(initParsers);
  it('leaves a string holding \\N{...} unknown instead of decoding a placeholder character', () => {
    const text = "client.update_item(TableName='t', UpdateExpression='SET a = :v, \\N{LATIN SMALL LETTER S}ize = :v', ProjectionExpression=b'\\N{x}')\n";
    const [site] = extract(text, 'python').sites;
    const node = prop(site.params, 'UpdateExpression');
    assert.equal(node?.kind, 'unknown');
    assert.equal(prop(site.params, 'ProjectionExpression')?.kind, 'binary', 'in bytes \\N is no escape');
  });
});
