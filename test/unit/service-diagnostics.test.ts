/**
 * `DynalintService.diagnostics` carries the previous version's diagnostics over (positions before the edit kept, those
 * on lines after it moved by the line delta, sub-objects shared): after any edit the diagnostics must deep-equal a fresh
 * conversion of the same findings (`toDiagnostic`, `positionAt` per offset), and a fresh service's diagnostics for the
 * same text and version wherever its lint finds the same (a difference there is the incremental lint's, tested apart). Random edits (insertions and deletions, with and without line breaks, CRLF
 * and lone CR included) placed before, on the edges of, inside and after findings, in TypeScript (fixes, related
 * information), a CRLF TypeScript file, JSON and Python. Also: carrying really happens (most range objects shared).
 */
import { strict as assert } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { initParsers } from '../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../server/src/protocol/settings';
import { DynalintService, Positions } from '../../server/src/service';
import { fcParameters } from '../support/fc';
import { jsonFile, pyFile, tsFile } from '../../scripts/bench/extract';

/** Findings with fixes (one of them on a shared constant), related information and the unnecessary tag, `n` times. */
function tsText(n: number): string {
  const block = (i: number) => `
export async function like${i}(postId: string, userId: string) {
  await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: \`POST#\${postId}\`, SK: \`LIKE#\${userId}\` } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: \`POST#\${postId}\`, SK: 'META' }, UpdateExpression: 'SET likes = likes + :one', ExpressionAttributeValues: { ':one': 1 } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: postId, SK: 'META' }, UpdateExpression: 'SET name = :n, #c = #c - :one', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':n': 1, ':one': 1, ':unused': 2 } }));
  await doc.send(new UpdateCommand({ TableName: TABLE, Key: { PK: postId }, UpdateExpression: RESERVED, ExpressionAttributeValues: { ':s': 'x' } }));
}
`;
  return `import { DynamoDBDocumentClient, UpdateCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(client);
const TABLE = 'likes';
const RESERVED = 'SET status = :s';
${Array.from({ length: n }, (_, i) => block(i)).join('')}`;
}

const PIECES = ['', ' ', 'x', '\n', '\r\n', '\r', '\n\n  ', '"', "'", '}', '#', ':one', 'status'];

interface Step {
  /** Which finding the edit is placed by (index into the current diagnostics), and where: -2..2 around its start, 3..5 inside / at / after its end, 6 anywhere. */
  finding: number;
  where: number;
  at: number;
  del: number;
  piece: number;
}

const steps = fc.array(
  fc.record({ finding: fc.nat(), where: fc.integer({ min: -2, max: 6 }), at: fc.nat(), del: fc.nat({ max: 4 }), piece: fc.nat({ max: PIECES.length - 1 }) }),
  { minLength: 1, maxLength: 10 },
);

function offsetFor(doc: TextDocument, ds: Diagnostic[], s: Step): number {
  const n = doc.getText().length;
  if (!ds.length || s.where === 6) return s.at % (n + 1);
  const d = ds[s.finding % ds.length];
  const start = doc.offsetAt(d.range.start);
  const end = doc.offsetAt(d.range.end);
  const o = s.where <= 2 ? start + s.where : s.where === 3 ? start + ((end - start) >> 1) : s.where === 4 ? end : end + 1;
  return Math.max(0, Math.min(n, o));
}

function sameAsFresh(uri: string, languageId: string, text: string, edits: Step[]): void {
  const settings = { ...DEFAULT_SETTINGS, maxFileSize: 16 << 20 };
  const svc = new DynalintService();
  const doc = TextDocument.create(uri, languageId, 1, text);
  let ds = svc.diagnostics(doc, settings);
  for (const s of edits) {
    const at = offsetFor(doc, ds, s);
    const end = Math.min(doc.getText().length, at + s.del);
    TextDocument.update(doc, [{ range: { start: doc.positionAt(at), end: doc.positionAt(end) }, text: PIECES[s.piece] }], doc.version + 1);
    ds = svc.diagnostics(doc, settings);
    // The conversion of this version's findings, afresh.
    const a = svc.analyze(doc, settings);
    const converted = new DynalintService();
    assert.deepStrictEqual(ds, a.findings.map((f) => converted.toDiagnostic(doc, f)), `after ${JSON.stringify(s)} (v${doc.version})`);
    // And a fresh service's diagnostics of the same text, where its lint found the same (the incremental lint's own
    // exactness is test/unit/rules/incremental.test.ts's and scripts/incremental-check.ts's).
    const freshService = new DynalintService();
    const copy = TextDocument.create(uri, languageId, doc.version, doc.getText());
    const fresh = freshService.diagnostics(copy, settings);
    if (isDeepStrictEqual(a.findings, freshService.analyze(copy, settings).findings)) assert.deepStrictEqual(ds, fresh, `after ${JSON.stringify(s)} (v${doc.version}), fresh service`);
  }
}

describe('service: diagnostics carried across edits equal a fresh conversion', function () {
  this.timeout(600_000);
  before(async () => {
    await initParsers();
  });

  const docs: [string, string, string][] = [
    ['file:///t.ts', 'typescript', tsText(6)],
    ['file:///lf.ts', 'typescript', tsFile(60)],
    ['file:///crlf.ts', 'typescript', tsText(4).replace(/\n/g, '\r\n')],
    ['file:///j.json', 'json', jsonFile(6_000)],
    ['file:///p.py', 'python', pyFile(60)],
  ];
  for (const [uri, languageId, text] of docs) {
    it(`${uri.slice(8)}: every version deep-equals a fresh service's diagnostics`, () => {
      fc.assert(
        fc.property(steps, (s) => sameAsFresh(uri, languageId, text, s)),
        fcParameters({ numRuns: 15 }),
      );
    });
  }

  it('carries: after a one-character edit most diagnostics share their range with the previous version', () => {
    const text = tsText(20);
    const svc = new DynalintService();
    const doc = TextDocument.create('file:///c.ts', 'typescript', 1, text);
    const before = svc.diagnostics(doc, DEFAULT_SETTINGS);
    const at = text.indexOf("'SET likes", text.length >> 1) + 4;
    TextDocument.update(doc, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: ' ' }], 2);
    const after = svc.diagnostics(doc, DEFAULT_SETTINGS);
    const ranges = new Set(before.map((d) => d.range));
    const shared = after.filter((d) => ranges.has(d.range)).length;
    assert.ok(after.length > 20 && shared >= after.length - 8, `${shared} of ${after.length} ranges carried`);
    assert.ok(after.every((d) => (d.data as { version: number }).version === 2));
  });

  it('a carried diagnostic without fixes reads nothing of the old one\'s data: one shared empty fixes list, sent as a fresh one is', () => {
    const text = jsonFile(40_000);
    const svc = new DynalintService();
    const doc = TextDocument.create('file:///c.json', 'json', 1, text);
    svc.diagnostics(doc, DEFAULT_SETTINGS);
    const at = text.indexOf('SET #l', text.length >> 1) + 2;
    TextDocument.update(doc, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: ' ' }], 2);
    const after = svc.diagnostics(doc, DEFAULT_SETTINGS);
    const lists = new Set(after.map((d) => (d.data as { fixes: unknown[] }).fixes));
    // The one re-extracted request's diagnostic is made afresh (its own list); every carried one shares one list.
    assert.ok(after.length > 50 && lists.size <= 2, `${lists.size} fixes lists for ${after.length} diagnostics`);
    assert.equal(JSON.stringify(after), JSON.stringify(new DynalintService().diagnostics(TextDocument.create(doc.uri, 'json', 2, doc.getText()), DEFAULT_SETTINGS)));
  });

  it('a carry that fails (here: what was kept is broken) logs and converts afresh: the diagnostics are still made', () => {
    const logs: string[] = [];
    const text = tsText(3);
    const svc = new DynalintService((m) => logs.push(m));
    const doc = TextDocument.create('file:///broken.ts', 'typescript', 1, text);
    svc.diagnostics(doc, DEFAULT_SETTINGS);
    const kept = (svc as unknown as { published: Map<string, { offsets: number[] | undefined }> }).published.get(doc.uri)!;
    kept.offsets = undefined;
    TextDocument.update(doc, [{ range: { start: doc.positionAt(5), end: doc.positionAt(5) }, text: ' ' }], 2);
    const ds = svc.diagnostics(doc, DEFAULT_SETTINGS);
    assert.deepStrictEqual(ds, new DynalintService().diagnostics(TextDocument.create(doc.uri, 'typescript', 2, doc.getText()), DEFAULT_SETTINGS));
    assert.ok(ds.length > 5);
    assert.ok(logs.some((l) => l.startsWith('carrying diagnostics failed for file:///broken.ts v2')), logs.join('\n'));
  });

  it('Positions answers as positionAt, CRLF and lone CR included, in any order', () => {
    const text = 'a\r\nbc\rd\n\r\n\nef\r';
    const doc = TextDocument.create('file:///x.ts', 'typescript', 1, text);
    const p = new Positions(doc);
    const offsets = [...Array(text.length + 3).keys()].map((i) => i - 1);
    for (const o of [...offsets, ...offsets.reverse(), 5, 0, 14, 2, 3, 9]) assert.deepStrictEqual(p.positionAt(o), doc.positionAt(o), `offset ${o}`);
  });
});
