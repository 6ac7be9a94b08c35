import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strict as assert } from 'node:assert';
import { createDocumentExtractor, ensureParser, extract, initParsers, languageIdForPath, TextChange } from '../../../server/src/extract';
import { Language, Parser } from 'web-tree-sitter';
import { assertNothingShared, assertOffsets, assertSameExtraction, fixture, rng, strings } from './support';

/**
 * Every state is compared with a full extraction, also Python texts with parse errors (tree-sitter's recovery of broken
 * code differs between an incremental and a fresh parse, so a re-parse whose tree has errors is parsed afresh:
 * extract/index.ts); `parsesCleanly` only labels a failure.
 */
let pyParser: Parser | undefined;
function parsesCleanly(lang: string, text: string): boolean {
  if (lang !== 'python' || !pyParser) return true;
  const tree = pyParser.parse(text);
  const ok = !!tree && !tree.rootNode.hasError;
  tree?.delete();
  return ok;
}

const SNIPPETS: Record<string, string[]> = {
  typescript: ['x', '\n', ' + 1', "'", '{', ')', "client.send(new UpdateItemCommand({ TableName: 'T', UpdateExpression: 'ADD n :v' }));\n"],
  javascript: ['x', '\n', '(', "'", "docClient.update({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'ADD n :v' });\n"],
  python: ['x', '\n', '(', '"', '    ', "client.update_item(TableName='T', UpdateExpression='ADD n :v')\n", 'é'],
  jsonc: ['x', ',', '{', '"', '{"TableName": "T", "UpdateExpression": "ADD n :v"},'],
};

/** A text pair of test/fixtures/incremental: the update to `next`, and back to `prev`, equal fresh extractions. */
function fixturePair(file: string, language: 'python' | 'typescript' | 'java' | 'go'): void {
  const { prev, next } = JSON.parse(readFileSync(join(__dirname, '../../fixtures/incremental', file), 'utf8')) as { prev: string; next: string };
  const doc = createDocumentExtractor(language);
  doc.update(prev);
  assert.deepEqual(JSON.parse(JSON.stringify(doc.update(next))), JSON.parse(JSON.stringify(extract(next, language))));
  assert.deepEqual(JSON.parse(JSON.stringify(doc.update(prev))), JSON.parse(JSON.stringify(extract(prev, language))));
}

describe('extract: incremental re-parse gives the same sites as a full parse', () => {
  before(async () => {
    await initParsers();
    pyParser = new Parser();
    pyParser.setLanguage(await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm')));
  });
  after(() => pyParser?.delete());

  it('no two sites share a range or string node (sites are shifted in place after edits)', () => {
    for (const file of ['sdk-v3-client.ts', 'sdk-v3-lib.ts', 'sdk-v2.js', 'boto3_client.py', 'boto3_resource.py', 'requests.jsonc']) {
      assertNothingShared(extract(fixture(file), languageIdForPath(file)!).sites, `${file}: `);
    }
  });

  it('keeps untouched sites as the same objects, shifted when the edit is before them', () => {
    const text = fixture('boto3_resource.py');
    const doc = createDocumentExtractor('python');
    const first = doc.update(text).sites;
    const at = text.indexOf('def tag') - 2; // in the blank lines between two functions
    const edited = text.slice(0, at) + '\n\n' + text.slice(at);
    const second = doc.update(edited, [{ start: at, end: at, text: '\n\n' }]).sites;
    assert.equal(second[0], first[0], 'a site before the edit is the same object');
    assert.equal(second[1], first[1], 'a site after the edit is the same object');
    assertSameExtraction(second, extract(edited, 'python').sites);
    assert.equal(edited.slice(second[1].nameRange.start, second[1].nameRange.end), 'update_item');
  });

  it('python: a module-level dict taken by two functions, one of them edited to stop: still taken (each statement keeps what its own calls took)', () => {
    const text = `import boto3

client = boto3.client("dynamodb")
M = {"TableName": "t", "Key": {"PK": {"S": "1"}}, "UpdateExpression": "SET a = :a", "ExpressionAttributeValues": {":a": {"N": "1"}}}


def a():
    client.update_item(**M)


def b():
    client.update_item(**M)


def c():
    client.update_item(**M)
`;
    const doc = createDocumentExtractor('python');
    doc.update(text);
    // The first user stops taking M, then the second: the dict stays no request of its own while the third takes it.
    const v2 = text.replace('def a():\n    client.update_item(**M)', 'def a():\n    client.update_item(**{})');
    const v3 = v2.replace('def b():\n    client.update_item(**M)', 'def b():\n    client.update_item(**{})');
    for (const v of [v2, v3]) {
      const got = doc.update(v);
      assert.equal(doc.last.update, 'incremental');
      assertSameExtraction(got, extract(v, 'python'));
      // M is no request of its own: c still takes it.
      assert.ok(!got.sites.some((site) => site.range.start === text.indexOf('{"TableName"')));
    }
  });

  it('python: an environment statement far from the edit that the re-parse swallows into an ERROR makes every statement be read again (its readers kept what they read: found by review, random edits of broken code)', () => {
    fixturePair('python-env-swallowed.json', 'python');
  });

  it('typescript: deleting a line break that joins `con` and `st C = ...` into a declaration a function below reads re-reads that function (review 2, a long-lived service fuzz)', () => {
    fixturePair('ts-join-declaration.json', 'typescript');
  });

  it('typescript: a span from a clean statement into a broken one (`t;\\n1import` -> `u;\\nfunction1import`: two changes linted as one span) is not read by the statement path (review fuzzNW seed 9503)', () => {
    fixturePair('ts-wide-span-broken.json', 'typescript');
  });

  it('typescript: a keystroke at the end of a clean statement right before a broken one does not re-parse the broken one (it lost its mark, and the next keystroke in it was read alone)', () => {
    const { prev } = JSON.parse(readFileSync(join(__dirname, '../../fixtures/incremental/ts-wide-span-broken.json'), 'utf8')) as { prev: string };
    const doc = createDocumentExtractor('typescript');
    doc.update(prev);
    // `x` typed after `t;` (the span touches the broken `1` after it), then `f` typed before the `1`: `f1import` is one identifier.
    const typed = prev.slice(0, 2) + 'x' + prev.slice(2);
    for (const [text, change] of [[typed, { start: 2, end: 2, text: 'x' }], [typed.slice(0, 4) + 'f' + typed.slice(4), { start: 4, end: 4, text: 'f' }]] as const) {
      assert.deepEqual(JSON.parse(JSON.stringify(doc.update(text, [change]))), JSON.parse(JSON.stringify(extract(text, 'typescript'))));
    }
  });

  it('java: a `}` typed inside a method of a clean class: the incremental tree-sitter parse keeps the class, a fresh parse makes it an ERROR (a text with errors is parsed afresh; incremental-check seed 6)', async () => {
    await ensureParser('java');
    fixturePair('java-stray-brace.json', 'java');
  });

  it('python: a statement the edit did not touch is read again when a receiver name it looked up is bound to something else (`ddb = boto3.client(...)` in setup() made a resource; clean code, and a broken text of the property test)', () => {
    fixturePair('python-receiver-rebound.json', 'python');
    fixturePair('python-receiver-rebound-broken.json', 'python');
    // The site itself goes and comes back (the fixture is not vacuous).
    const { prev, next } = JSON.parse(readFileSync(join(__dirname, '../../fixtures/incremental/python-receiver-rebound.json'), 'utf8')) as { prev: string; next: string };
    assert.deepEqual([extract(prev, 'python').sites.length, extract(next, 'python').sites.length], [1, 0]);
  });

  it('go: broken code (found comparing every state, parse errors included): a declaration become a statement, a unit with an error recovered otherwise, an import swallowed by an error edited', async () => {
    await ensureParser('go');
    fixturePair('go-func-becomes-statement.json', 'go');
    fixturePair('go-broken-unit-recovered.json', 'go');
    fixturePair('go-import-swallowed.json', 'go');
  });

  it('python: a module-level constant tree-sitter wraps in an ERROR (a stray `}` typed after it) is still part of the environment: an edit inside it moves what its readers hold', () => {
    const text = `import boto3
client = boto3.client("dynamodb")
INCREMENT = "SET #likes = #likes + :one"


def like(post_id):
    client.update_item(TableName="Posts", Key={"PK": {"S": post_id}}, UpdateExpression=INCREMENT, ExpressionAttributeNames={"#likes": "likes"}, ExpressionAttributeValues={":one": {"N": "1"}})
`;
    const doc = createDocumentExtractor('python');
    doc.update(text);
    const close = text.indexOf('"\n') + 1;
    const broken = text.slice(0, close) + '}' + text.slice(close);
    const hash = text.indexOf('#likes');
    // A space typed inside the constant while the `}` is still there, then deleted, then the `}` deleted.
    for (const v of [broken, broken.slice(0, hash) + ' ' + broken.slice(hash), broken, text]) {
      const got = doc.update(v);
      assertSameExtraction(got, extract(v, 'python'));
    }
    const expr = (doc.update(text).sites[0].params.properties.find((p) => p.key === 'UpdateExpression')?.value);
    assert.equal(expr?.kind, 'string');
  });

  it('python: a client made in another function, or a table bound in a module-level try, is the receiver after an edit elsewhere too (found on the corpus, scripts/incremental-check.ts)', () => {
    const made = `import boto3
def setup():
    ddb = boto3.client('dynamodb')
    return ddb

def handler(ddb):
    ddb.update_item(**BASE, Key={'id': {'S': '1'}}, UpdateExpression='SET n = n + :one', ExpressionAttributeValues={':one': {'N': '1'}})
`;
    const tried = `import boto3
try:
    table = boto3.resource('dynamodb').Table('t')
except Exception:
    pass

def handler(e):
    table.update_item(TableName=NAME, Key={'id': '1'}, UpdateExpression='SET n = n + :one', ExpressionAttributeValues={':one': 1})
`;
    for (const [text, style] of [
      [made, 'low-level'],
      [tried, 'document'],
    ] as const) {
      const doc = createDocumentExtractor('python');
      assert.deepEqual(doc.update(text).sites.map((x) => x.style), [style]);
      // Type inside the handler's call (a space before its closing parenthesis), then delete it.
      const at = text.lastIndexOf(')');
      for (const v of [text.slice(0, at) + ' ' + text.slice(at), text]) {
        const got = doc.update(v);
        assert.equal(doc.last.update, 'incremental');
        assertSameExtraction(got, extract(v, 'python'));
        assert.deepEqual(got.sites.map((x) => x.style), [style]);
      }
    }
  });

  it('java: a method header deleted or duplicated away from the helper a caller forwards: the helper left the class, or the method above swallowed it (found on the corpus, scripts/incremental-check.ts)', async () => {
    await ensureParser('java');
    const text = `class A {
    private final DynamoDbAsyncClient ddb;

    public CompletableFuture<Void> u(String k, long a) {
        return h(k, -a);
    }

    public CompletableFuture<Void> m(String k, long a) {
        return h(k, a);
    }

    private CompletableFuture<Void> h(String k, long d) {
        UpdateItemRequest request = UpdateItemRequest.builder()
                .tableName("T")
                .updateExpression("ADD n :d")
                .build();
        return ddb.updateItem(request);
    }
}
`;
    const header = '    public CompletableFuture<Void> m(String k, long a) {\n';
    const at = text.indexOf(header);
    // Deleted: m's closing brace closes the class, h becomes a top-level declaration. Duplicated: m is not closed and
    // holds h. Either way u no longer forwards h's request (fresh extraction); the edit touches neither u nor h.
    for (const change of [{ start: at, end: at + header.length, text: '' }, { start: at, end: at, text: header }]) {
      const doc = createDocumentExtractor('java');
      assert.ok(doc.update(text).sites.some((s) => s.forwarded), 'u forwards the request of h');
      const next = text.slice(0, change.start) + change.text + text.slice(change.end);
      assert.deepEqual(doc.update(next, [change]), extract(next, 'java'), JSON.stringify(change));
      doc.dispose();
    }
  });

  it('re-parses only the touched statement for an edit inside a function body', () => {
    const text = fixture('sdk-v3-lib.ts');
    const doc = createDocumentExtractor('typescript');
    doc.update(text);
    const at = text.indexOf("'ADD tags :t'") + 5;
    const edited = text.slice(0, at) + 'x' + text.slice(at);
    const got = doc.update(edited, [{ start: at, end: at, text: 'x' }]);
    assert.deepEqual(doc.stats, { full: 1, incremental: 1 });
    assertSameExtraction(got, extract(edited, 'typescript'));
    // A comment before the first import changes nothing other statements see: still incremental.
    doc.update('// x\n' + edited);
    assert.deepEqual(doc.stats, { full: 1, incremental: 2 });
    // An edit in an import falls back to a full parse.
    doc.update('// x\n' + edited.replace('{ DynamoDBClient }', '{ DynamoDBClient, X }'));
    assert.deepEqual(doc.stats, { full: 2, incremental: 2 });
  });

  for (const file of ['sdk-v3-client.ts', 'sdk-v2.js', 'boto3_client.py', 'boto3_resource.py', 'requests.jsonc']) {
    const lang = languageIdForPath(file)!;
    for (const withChanges of [true, false])
      it(`${file}: 60 random edits${withChanges ? ' (with change events)' : ' (texts only)'}`, () => {
        const rand = rng(file.length * 7919 + (withChanges ? 1 : 0));
        const doc = createDocumentExtractor(lang);
        let text = fixture(file);
        assertSameExtraction(doc.update(text), extract(text, lang));
        const pieces = SNIPPETS[lang];
        for (let i = 0; i < 60; i++) {
          const start = Math.floor(rand() * text.length);
          const del = rand() < 0.4 ? Math.floor(rand() * 12) : 0;
          const ins = rand() < 0.7 ? pieces[Math.floor(rand() * pieces.length)] : '';
          const change: TextChange = { start, end: Math.min(text.length, start + del), text: ins };
          text = text.slice(0, change.start) + ins + text.slice(change.end);
          const got = doc.update(text, withChanges ? [change] : undefined);
          assertSameExtraction(got, extract(text, lang), `after edit ${i} at ${start}${parsesCleanly(lang, text) ? '' : ' (errors)'}`);
          for (const site of got.sites) for (const str of strings(site.params)) assertOffsets(text, str);
        }
        if (lang !== 'jsonc') assert.ok(doc.stats.incremental > 0, `incremental re-parses: ${JSON.stringify(doc.stats)}`);
        doc.dispose();
      });
  }
});
