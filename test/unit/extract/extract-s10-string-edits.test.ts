/**
 * Session 10 (issue 11): typing inside an expression string of a request in a function member (`TsDocument.stringEdit`)
 * parses and extracts nothing: the request is handed out as a new site holding the new value, the statement's other
 * sites are kept. What must hold: after any sequence of such edits (mixed with edits elsewhere, sites read or not in
 * between) the sites equal a fresh extraction of the text; the path is taken for the plain cases and not for the ones
 * where the string's value matters elsewhere; the site let go keeps the offsets it had.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TsDocument } from '../../../server/src/extract/typescript';
import { RequestSite } from '../../../server/src/extract';
import { TS_SHAPE_EDITS, middle, tsShapesFile } from '../../../scripts/bench/extract';
import { assertSameExtraction, fixture, rng } from './support';

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

/** The content spans (after the opening quote, before the closing one) of the quoted values of expression keys. */
function expressionStrings(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const re = /(UpdateExpression|ConditionExpression|KeyConditionExpression|FilterExpression|ProjectionExpression)\s*:\s*(['"`])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length;
    const close = text.indexOf(m[2], start);
    if (close > start && !text.slice(start, close).includes('\n')) out.push({ start, end: close });
  }
  return out;
}

const PIECES = [' ', 'x', ':v', '#n', 'SET ', 'dao', ', ', ' = ', 'a', 'ADD n :one', 'attribute_not_exists(pk)', '\\', "'", '"', '`', '\n', '${x}'];

function fresh(text: string, lang: string): RequestSite[] {
  return new TsDocument(lang, lang as 'typescript').full(text);
}

function run(name: string, lang: string, start: string, steps: number, seed: number): number {
  const rand = rng(seed);
  let text = start;
  const doc = new TsDocument(lang, lang as 'typescript');
  let sites = doc.full(text);
  let taken = 0;
  for (let step = 0; step < steps; step++) {
    const strs = expressionStrings(text);
    let at: number;
    let del = 0;
    let ins = '';
    if (strs.length && rand() < 0.85) {
      const s = strs[Math.floor(rand() * strs.length)];
      at = s.start + Math.floor(rand() * (s.end - s.start + 1));
      if (rand() < 0.35) del = Math.min(s.end - at, 1 + Math.floor(rand() * 3));
      else ins = PIECES[Math.floor(rand() * PIECES.length)];
      // Now and then a wider span: text before the edit replaced by itself (the service's span is the texts' diff).
      if (rand() < 0.1) {
        const w = Math.min(at, 1 + Math.floor(rand() * 20));
        at -= w;
        ins = text.slice(at, at + w) + ins;
        del += w;
      }
    } else {
      const lines = [...text.matchAll(/\n/g)].map((m) => m.index! + 1);
      at = lines[Math.floor(rand() * lines.length)] ?? 0;
      ins = rand() < 0.5 ? '  ' : '\n';
    }
    if (!ins && !del) ins = ' ';
    const before = sites;
    text = text.slice(0, at) + ins + text.slice(at + del);
    sites = doc.update(text, { start: at, oldEnd: at + del, newEnd: at + ins.length });
    const what = `${name} seed ${seed} step ${step}: ${JSON.stringify({ at, del, ins })}`;
    if (doc.lastString) {
      taken++;
      assert.equal(doc.lastParsedChars, 0, what);
      const gone = before.filter((s) => !sites.includes(s));
      assert.equal(gone.length, 1, `${what}: one site replaced`);
      const was = json(gone[0]);
      if (rand() < 0.5) assertSameExtraction(sites, fresh(text, lang), what);
      // The site let go keeps its offsets whatever comes after.
      const next = text.indexOf('\n', Math.floor(rand() * text.length));
      if (next >= 0) {
        text = text.slice(0, next) + ' ' + text.slice(next);
        sites = doc.update(text, { start: next, oldEnd: next, newEnd: next + 1 });
      }
      assert.deepEqual(json(gone[0]), was, `${what}: the site let go moved`);
    }
    if (rand() < 0.6) assertSameExtraction(sites, fresh(text, lang), what);
  }
  assertSameExtraction(sites, fresh(text, lang), `${name} seed ${seed} at the end`);
  return taken;
}

const REALWORLD = join(__dirname, '..', '..', 'fixtures', 'realworld');

describe('extract: an edit inside an expression string re-extracts nothing (extract-s10-string-edits)', () => {
  it("the bench's expression-string edit parses nothing and keeps every other site", () => {
    let text = tsShapesFile(400);
    const doc = new TsDocument('typescript', 'typescript');
    const first = doc.full(text);
    const e = TS_SHAPE_EDITS.find((x) => x.name.includes('expression string'))!;
    const at = middle(text, e.needle, e.skip);
    for (let i = 0; i < 6; i++) {
      const ins = i % 2 === 0;
      text = ins ? text.slice(0, at) + ' ' + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      const sites = doc.update(text, { start: at, oldEnd: ins ? at : at + 1, newEnd: ins ? at + 1 : at });
      assert.ok(doc.lastString, 'the string path');
      assert.equal(doc.lastParsedChars, 0);
      assert.equal(sites.length, first.length);
      assert.equal(sites.filter((s) => !first.includes(s)).length, 1, 'one new site');
      assertSameExtraction(sites, fresh(text, 'typescript'));
    }
  });

  it('random edits inside expression strings (and elsewhere) equal a fresh extraction', () => {
    let taken = 0;
    for (const seed of [1, 2, 3]) taken += run('shapes', 'typescript', tsShapesFile(150), 120, seed);
    assert.ok(taken > 50, `the string path taken ${taken} times`);
  });

  const files = readdirSync(REALWORLD).filter((f) => /\.(ts|js)$/.test(f));
  for (const f of files) {
    it(`${f}: random edits inside expression strings equal a fresh extraction`, () => {
      const text = readFileSync(join(REALWORLD, f), 'utf8');
      run(f, f.endsWith('.ts') ? 'typescript' : 'javascript', text, 60, 7);
    });
  }

  it('not taken where the value matters elsewhere: a shape, a repository helper call, alternatives, a forwarded copy', () => {
    const cases: [string, string][] = [
      // A shape: its expression must read as DynamoDB's.
      ['shape', "export const handlers = {\n  build(id) {\n    return { Key: { id }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } };\n  },\n};\n"],
      // A repository helper: the call is a request only while the string reads as an update.
      ['helper', "export class UserRepository {\n  async touch(key) {\n    await this.updateItem(key, 'SET seen = :now', { ':now': 1 });\n  }\n}\n"],
      // Two alternatives share the literal.
      ['alternatives', "export const handlers = {\n  async go(doc, c) {\n    const p = { TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } };\n    if (c) p.ConditionExpression = 'attribute_exists(id)';\n    await doc.update(p).promise();\n  },\n};\n"],
      // A helper's request, forwarded to its call in the same member.
      ['forwarded', "export const handlers = {\n  async go(doc) {\n    const save = () => doc.update({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } }).promise();\n    await save();\n  },\n};\n"],
    ];
    for (const [name, text] of cases) {
      const doc = new TsDocument('typescript', 'typescript');
      doc.full(text);
      const at = text.indexOf('= :') >= 0 ? text.indexOf('= :') : text.indexOf('SET ') + 4;
      const next = text.slice(0, at) + ' ' + text.slice(at);
      const sites = doc.update(next, { start: at, oldEnd: at, newEnd: at + 1 });
      assert.equal(doc.lastString, false, name);
      assertSameExtraction(sites, fresh(next, 'typescript'), name);
    }
    // The plain case is taken.
    const plainCase = "export const handlers = {\n  async go(doc) {\n    await doc.update({ TableName: 'T', Key: { id: 1 }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } }).promise();\n  },\n};\n";
    const doc = new TsDocument('typescript', 'typescript');
    doc.full(plainCase);
    const at = plainCase.indexOf('= :');
    const next = plainCase.slice(0, at) + ' ' + plainCase.slice(at);
    const sites = doc.update(next, { start: at, oldEnd: at, newEnd: at + 1 });
    assert.ok(doc.lastString);
    assertSameExtraction(sites, fresh(next, 'typescript'));
    void fixture;
  });
});
