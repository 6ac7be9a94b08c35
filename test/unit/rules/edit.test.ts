/** The edit helpers write what the host reads back: escapes, quotes, raw strings, concatenations, layouts. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { fcParameters } from '../../support/fc';
import { extract } from '../../../server/src/extract';
import { StringNode, prop } from '../../../server/src/extract/model';
import { applyEdits, hostSyntax, insertProperties, lineBreakOf, removeProperty, replaceInString, rewriteString } from '../../../server/src/rules/edit';
import { runRules } from '../../../server/src/rules';
import { parsersReady } from './check';

/** Documents whose one request has a ProjectionExpression literal written in a given way. */
const HOSTS: { name: string; lang: string; make: (lit: string) => string }[] = [
  { name: 'JSON', lang: 'json', make: (l) => `{"TableName": "T", "Key": {"PK": {"S": "p"}}, "ProjectionExpression": ${l}}` },
  { name: 'TS', lang: 'typescript', make: (l) => `import { GetCommand } from '@aws-sdk/lib-dynamodb';\ndoc.send(new GetCommand({ TableName: 'T', Key: { PK: 'p' }, ProjectionExpression: ${l} }));\n` },
  { name: 'Python', lang: 'python', make: (l) => `import boto3\nclient = boto3.client('dynamodb')\nclient.get_item(TableName='T', Key={'PK': {'S': 'p'}}, ProjectionExpression=${l})\n` },
];
const LITERALS: Record<string, string[]> = {
  JSON: ['"ab\\"c\\\\d"', '"a\\u0041b"'],
  TS: ["'ab\\'c'", '"x\\ny"', '`tmpl ${"$"}{`', "'ab' + 'cd'"],
  Python: ["'ab\\'c'", '"x\\ny"', "r'raw\\d'", "'ab' 'cd'", '"""tri\nple"""'],
};

function projection(text: string, lang: string): StringNode {
  const [site] = extract(text, lang).sites;
  const node = prop(site.params, 'ProjectionExpression');
  assert.equal(node?.kind, 'string', text);
  return node as StringNode;
}

describe('edit helpers', () => {
  before(parsersReady);
  for (const h of HOSTS) {
    for (const lit of LITERALS[h.name]) {
      it(`${h.name} ${JSON.stringify(lit)}: any replacement reads back as written`, () => {
        const text = h.make(lit);
        const node = projection(text, h.lang);
        const [site] = extract(text, h.lang).sites;
        const syn = hostSyntax(text, site);
        fc.assert(
          fc.property(fc.nat(node.value.length), fc.nat(node.value.length), fc.string({ unit: fc.constantFrom('a', ' ', '"', "'", '\\', '\n', '$', '{', '`', 'é', '#', ':') }), (x, y, s) => {
            const [a, b] = x <= y ? [x, y] : [y, x];
            const out = applyEdits(text, [replaceInString(text, syn, node, a, b, s)]);
            assert.equal(projection(out, h.lang).value, node.value.slice(0, a) + s + node.value.slice(b), out);
            const next = 'X' + s + node.value.slice(1);
            assert.equal(projection(applyEdits(text, [rewriteString(text, syn, node, next)]), h.lang).value, next);
          }),
          fcParameters({ numRuns: 40, seed: 7 }),
        );
      });
    }
  }

  const props: [string, string, string, string][] = [
    ['JSON one line', 'json', '{"TableName": "T", "Key": {"PK": {"S": "p"}}}', '{"TableName": "T", "Key": {"PK": {"S": "p"}}, "A": 1, "B": 2}'],
    ['JSON multi-line', 'json', '{\n  "TableName": "T",\n  "Key": {"PK": {"S": "p"}}\n}', '{\n  "TableName": "T",\n  "Key": {"PK": {"S": "p"}},\n  "A": 1,\n  "B": 2\n}'],
    ['TS trailing comma', 'typescript', "import { GetCommand } from '@aws-sdk/lib-dynamodb';\ndoc.send(new GetCommand({\n  TableName: 'T',\n  Key: { PK: 'p' },\n}));\n", "import { GetCommand } from '@aws-sdk/lib-dynamodb';\ndoc.send(new GetCommand({\n  TableName: 'T',\n  Key: { PK: 'p' },\n  A: 1,\n  B: 2,\n}));\n"],
    ['Python keyword arguments', 'python', "import boto3\nt = boto3.resource('dynamodb').Table('T')\nt.get_item(Key={'PK': 'p'})\n", "import boto3\nt = boto3.resource('dynamodb').Table('T')\nt.get_item(Key={'PK': 'p'}, A=1, B=2)\n"],
    ['Python **params bound to a dict', 'python', "import boto3\nc = boto3.client('dynamodb')\nparams = {'TableName': 'T', 'Key': {'PK': {'S': 'p'}}}\nc.get_item(**params)\n", "import boto3\nc = boto3.client('dynamodb')\nparams = {'TableName': 'T', 'Key': {'PK': {'S': 'p'}}, 'A': 1, 'B': 2}\nc.get_item(**params)\n"],
    ['Python keyword argument before **BASE (BASE shared, left alone)', 'python', "import boto3\nc = boto3.client('dynamodb')\nBASE = {'TableName': 'T'}\nc.get_item(Key={'PK': {'S': 'p'}}, **BASE)\n", "import boto3\nc = boto3.client('dynamodb')\nBASE = {'TableName': 'T'}\nc.get_item(Key={'PK': {'S': 'p'}}, A=1, B=2, **BASE)\n"],
    ['Python keyword argument after **params', 'python', "import boto3\nc = boto3.client('dynamodb')\nparams = {'TableName': 'T'}\nc.get_item(**params, Key={'PK': {'S': 'p'}})\n", "import boto3\nc = boto3.client('dynamodb')\nparams = {'TableName': 'T'}\nc.get_item(**params, Key={'PK': {'S': 'p'}}, A=1, B=2)\n"],
  ];
  for (const [name, lang, text, expected] of props) {
    it(`inserts entries: ${name}; removing them restores the text`, () => {
      const [site] = extract(text, lang).sites;
      const out = applyEdits(text, [insertProperties(text, hostSyntax(text, site), site.params, [['A', '1'], ['B', '2']])!]);
      assert.equal(out, expected);
      const [after] = extract(out, lang).sites;
      const once = applyEdits(out, [removeProperty(after.params, after.params.properties.find((p) => p.key === 'B')!)]);
      const [again] = extract(once, lang).sites;
      assert.deepEqual(again.params.properties.map((p) => p.key), after.params.properties.map((p) => p.key).filter((k) => k !== 'B'));
    });
  }

  it('line breaks: a document with mixed ones is read as VS Code reads it (CRLF when more than half start with a CR)', () => {
    // Mostly CRLF, first line LF (the case that got LF fix text), and the other way round.
    assert.equal(lineBreakOf('a\nb\r\nc\r\nd'), '\r\n');
    assert.equal(lineBreakOf('a\r\nb\nc\nd'), '\n');
    // A tie is LF, whichever comes first; one break, none, no CR at all.
    assert.equal(lineBreakOf('a\r\nb\nc'), '\n');
    assert.equal(lineBreakOf('a\nb\r\nc'), '\n');
    assert.equal(lineBreakOf('a\r\n'), '\r\n');
    assert.equal(lineBreakOf('no break'), '\n');
    // A lone CR is a CR break, as VS Code counts it.
    assert.equal(lineBreakOf('a\nb\nc\r'), '\n');
    assert.equal(lineBreakOf('a\rb\rc\nd\r\n'), '\r\n');
    // Asked again for the same text (the answer is kept), then for another.
    assert.equal(lineBreakOf('a\rb\rc\nd\r\n'), '\r\n');
    assert.equal(lineBreakOf('a\nb'), '\n');
  });

  it('a fix in a CRLF document whose first line ends in LF inserts CRLF line breaks', () => {
    const body = ["doc.send(new UpdateCommand({", "  TableName: 'T',", "  Key: { PK: 'p' },", "  UpdateExpression: 'SET n = n + :one',", '  ExpressionAttributeValues: {', "    ':one': 1,", '  },', '}));', ''];
    const text = "import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\n" + body.join('\r\n');
    const fixes = runRules(text, 'typescript', extract(text, 'typescript').sites).flatMap((f) => f.fixes ?? []);
    const multiLine = fixes.flatMap((f) => f.edits).filter((e) => e.newText.includes('\n'));
    assert.ok(multiLine.length > 0, 'a fix inserts a line');
    for (const e of multiLine) assert.ok(!/(?<!\r)\n/.test(e.newText), JSON.stringify(e.newText));
  });

  it('adds to an empty map in each host style', () => {
    const text = "import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\ndoc.send(new UpdateCommand({ TableName: 'T', Key: { PK: 'p' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: {} }));\n";
    const [site] = extract(text, 'typescript').sites;
    const values = prop(site.params, 'ExpressionAttributeValues')!;
    assert.equal(values.kind, 'object');
    const out = applyEdits(text, [insertProperties(text, hostSyntax(text, site), values as never, [[':a', '1']])!]);
    assert.ok(out.includes("ExpressionAttributeValues: { ':a': 1 }"), out);
  });
});
