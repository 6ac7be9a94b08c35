import { strict as assert } from 'node:assert';
import { extract, initParsers, languageIdForPath, RequestSite, VNode } from '../../../server/src/extract';
import { fixture } from './support';

/** A request as rules see it: api, where its name is, and each field with where its value is. */
const key = (s: RequestSite, move: (offset: number) => number = (o) => o) =>
  `${s.api}@${move(s.nameRange.start)}:${s.params.properties.map((p) => `${p.key}=${p.value.kind}@${move(p.value.range.start)}-${move(p.value.range.end)}`).join(',')}`;

const FILES = ['sdk-v3-client.ts', 'sdk-v3-lib.ts', 'sdk-v2.js', 'boto3_client.py', 'boto3_resource.py', 'requests.jsonc'];

/** How many nodes an object tree holds (its objects' values, nested). */
function objectNodes(root: VNode): number {
  let nodes = 0;
  const stack: VNode[] = [root];
  while (stack.length) {
    const v = stack.pop()!;
    nodes++;
    if (v.kind === 'object') for (const p of v.properties) stack.push(p.value);
  }
  return nodes;
}

describe('extract: bad input', () => {
  before(() => initParsers());

  for (const file of FILES) {
    const lang = languageIdForPath(file)!;

    it(`${file}: truncated inside each request, the requests before it are intact`, () => {
      const text = fixture(file);
      const full = extract(text, lang).sites;
      for (const cut of full) {
        const at = Math.floor((cut.range.start + cut.range.end) / 2);
        const before = full.filter((s) => s.range.end <= cut.range.start && s.host !== 'json').map((s) => key(s));
        const got = extract(text.slice(0, at), lang).sites.map((s) => key(s));
        for (const k of before) assert.ok(got.includes(k), `${k} survives a cut at ${at}`);
      }
    });

    it(`${file}: garbage between requests leaves the others intact`, () => {
      const text = fixture(file);
      const full = extract(text, lang).sites;
      assert.ok(full.length >= 2);
      // Insert an unbalanced, half-typed call right after the first request's statement line.
      const at = text.indexOf('\n', full[0].range.end) + 1;
      const junk = lang === 'python' ? 'client.update_item(Key={"a": (\n' : lang === 'jsonc' ? '{ "x": [ \n' : 'client.send(new UpdateCommand({ Key: { (\n';
      const damaged = text.slice(0, at) + junk + text.slice(at);
      const got = extract(damaged, lang).sites;
      const kept = got.map((s) => key(s));
      assert.ok(kept.includes(key(full[0])), 'the request before the damage');
      // Requests after the damage: at least the last one is recovered, fields at their shifted positions.
      const moved = key(full[full.length - 1], (o) => (o >= at ? o + junk.length : o));
      assert.ok(kept.includes(moved), `the last request after the damage (${moved}) in ${kept.join(' ')}`);
    });
  }

  const DEEP = 10_000;
  // Deep but not minified: 50 brackets per line.
  const lines = (s: string) => (s.repeat(50) + '\n').repeat(DEEP / 50);
  const deep: [string, string, string][] = [
    ['typescript', `const junk = ${lines('[')}${lines(']')};\nconst o = ${lines('{a:')}1${lines('}')};\n`, `client.send(new UpdateItemCommand({ TableName: 't', UpdateExpression: 'ADD a :v' }));`],
    ['python', `junk = ${lines('[')}${lines(']')}\nd = ${lines('{"a":')}1${lines('}')}\n`, `client.update_item(TableName='t', UpdateExpression='ADD a :v')`],
    ['json', `[${lines('[')}${lines(']')}, ${lines('{"a":')}1${lines('}')},\n`, `{"TableName": "t", "UpdateExpression": "ADD a :v"}]`],
  ];
  for (const [lang, junk, request] of deep)
    it(`${lang}: ${DEEP} nested levels do not overflow and the request next to them is found`, () => {
      const text = junk + request;
      const sites = extract(text, lang).sites;
      assert.deepEqual(sites.map((s) => s.api), ['UpdateItem']);
      assert.equal(sites[0].range.start, text.indexOf(lang === 'json' ? '{"TableName"' : lang === 'python' ? 'client' : 'new'));
    });

  it('10,000 levels inside a request value become unknown beyond the depth cap', () => {
    const text = `{"TableName": "t", "UpdateExpression": "SET a = :v", "ExpressionAttributeValues": {":v": ${'{"M": {"a": '.repeat(DEEP)}1${'}}'.repeat(DEEP)}}}`;
    const sites = extract(text, 'json').sites;
    assert.equal(sites.length, 1);
    let n = sites[0].params.properties[2].value;
    let depth = 0;
    while (n.kind === 'object' && n.properties.length) {
      n = n.properties[0].value;
      depth++;
    }
    assert.equal(n.kind, 'unknown');
    assert.ok(depth > 30 && depth < 1000, `depth ${depth}`);
  });

  it('a name read inside its own initialiser is unknown, not re-read once per hop (a line comment typed into a literal)', () => {
    // `{ id: 1 //}` swallows the lines after it into the literal: each of the 6 reads of `params` inside it re-read the
    // whole initialiser, 16 hops deep (6^16 reads: this never finished; a real 5 KB file took 0.6 s with 2 of them).
    const reads = Array.from({ length: 6 }, (_, i) => `    params.F${i} = params;\n`).join('');
    const text = `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from({});
export async function f() {
  const params = { TableName: 'T', Key: { id: 1 //}, UpdateExpression: 'SET a = :a' };
${reads}  await doc.send(new UpdateCommand(params));
}
`;
    const sites = extract(text, 'typescript').sites;
    assert.ok(sites.length <= 1);
    // Well-formed, the same name read in its own initialiser is unknown there (a TDZ error at run time).
    const self = extract("import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst doc = DynamoDBDocumentClient.from({});\nexport async function f() {\n  const p = { TableName: 'T', Key: { id: 1 }, Item: p, UpdateExpression: 'SET a = :a' };\n  await doc.send(new UpdateCommand(p));\n}\n", 'typescript').sites;
    assert.equal(self.length, 1);
    assert.equal(self[0].params.properties.find((x) => x.key === 'Item')?.value.kind, 'unknown');
  });

  it('declarations that read each other are unknown where they meet again (three reads each ran the server out of memory)', () => {
    const refs = (n: string) => Array.from({ length: 3 }, (_, i) => `f${i}: ${n}`).join(', ');
    const text = `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from({});
const a = { ${refs('b')} };
const b = { ${refs('a')} };
export async function f() {
  await doc.send(new UpdateCommand({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': a } }));
}
`;
    const sites = extract(text, 'typescript').sites;
    assert.equal(sites.length, 1);
    const values = sites[0].params.properties.find((x) => x.key === 'ExpressionAttributeValues')!.value;
    assert.ok(values.kind === 'object');
    const a = values.properties[0].value;
    // a = { f0: b, ... } with b = { f0: a (met again: unknown), ... }
    assert.ok(a.kind === 'object' && a.properties.length === 3);
    const b = a.properties[0].value;
    assert.ok(b.kind === 'object' && b.properties.every((p) => p.value.kind === 'unknown'));
  });

  it('declarations that reuse each other without a cycle are read a bounded number of times (4 uses x 12 levels: 4^12 reads)', () => {
    let text = `import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';\nconst doc = DynamoDBDocumentClient.from({});\nconst a0 = { v: 1 };\n`;
    for (let l = 1; l <= 12; l++) text += `const a${l} = { k0: a${l - 1}, k1: a${l - 1}, k2: a${l - 1}, k3: a${l - 1} };\n`;
    text += `export async function f() {\n  await doc.send(new UpdateCommand({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': a12 } }));\n}\n`;
    const sites = extract(text, 'typescript').sites;
    assert.equal(sites.length, 1);
    // Read in full, the value would hold 4^12 (16.7 million) objects; the flow budget stops it at 2,000 reads.
    const nodes = objectNodes(sites[0].params);
    assert.ok(nodes < 20_000, `${nodes} nodes`);
    const values = sites[0].params.properties.find((x) => x.key === 'ExpressionAttributeValues')!.value;
    assert.equal(values.kind, 'object');
  });

  it('Python: a name in its own value, names reading each other, and names reused 4 x 10 levels deep stay bounded', () => {
    let text = 'import boto3\ntable = boto3.resource("dynamodb").Table("T")\na0 = {"v": 1}\n';
    for (let l = 1; l <= 10; l++) text += `a${l} = {"k0": a${l - 1}, "k1": a${l - 1}, "k2": a${l - 1}, "k3": a${l - 1}}\n`;
    text += 'b = {"x": b}\nc = {"x": d, "y": d}\nd = {"p": c, "q": c}\n';
    text += 'def f():\n    table.update_item(Key={"id": 1}, UpdateExpression="SET a = :a", ExpressionAttributeValues={":a": a10})\n';
    text += 'def g():\n    table.update_item(Key={"id": 1}, UpdateExpression="SET b = :b, c = :c", ExpressionAttributeValues={":b": b, ":c": c})\n';
    // Before: 41 s and 400 MB of sites (4^10 reads of a0, the cycles 16 hops deep each). The budget is per call.
    const sites = extract(text, 'python').sites;
    assert.equal(sites.length, 2);
    const nodes = objectNodes(sites[0].params);
    assert.ok(nodes < 20_000, `${nodes} nodes`);
    const values = sites[1].params.properties.find((x) => x.key === 'ExpressionAttributeValues')!.value;
    assert.ok(values.kind === 'object');
    const b = values.properties.find((p) => p.key === ':b')!.value;
    assert.ok(b.kind === 'object' && b.properties[0].value.kind === 'unknown', 'b read inside its own value');
    const c = values.properties.find((p) => p.key === ':c')!.value;
    assert.ok(c.kind === 'object');
    const d = c.properties[0].value;
    assert.ok(d.kind === 'object' && d.properties.every((p) => p.value.kind === 'unknown'), 'c met again inside d');
  });

  it('skips binary, minified and oversize files with a reason', () => {
    const request = `client.send(new UpdateItemCommand({ TableName: 't', UpdateExpression: 'ADD a :v' }));\n`;
    assert.match(extract(request + '\0\0', 'typescript').skipped ?? '', /binary/);
    assert.match(extract(request + 'x'.repeat(50_000), 'javascript').skipped ?? '', /minified/);
    assert.match(extract(request, 'typescript', { maxFileSize: 20 }).skipped ?? '', /too large/);
    assert.match(extract(request + ' '.repeat(2 * 1024 * 1024), 'typescript').skipped ?? '', /too large/);
    assert.equal(extract(request, 'typescript').sites.length, 1);
    assert.match(extract(request, 'rust').skipped ?? '', /unsupported/);
  });

  it('a file with no DynamoDB vocabulary yields nothing without a reason', () => {
    assert.deepEqual(extract('export const add = (a: number, b: number) => a + b;\n'.repeat(1000), 'typescript'), { sites: [] });
  });

  it('maps file extensions to language ids', () => {
    const got = ['a.json', 'a.jsonc', 'a.ts', 'a.tsx', 'a.mts', 'a.cts', 'a.js', 'a.jsx', 'a.mjs', 'a.cjs', 'a.py', 'a.rs', 'Makefile'].map(languageIdForPath);
    assert.deepEqual(got, ['json', 'jsonc', 'typescript', 'typescriptreact', 'typescript', 'typescript', 'javascript', 'javascriptreact', 'javascript', 'javascript', 'python', undefined, undefined]);
  });
});
