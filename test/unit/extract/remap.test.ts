import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureParser, extract, initParsers, RequestSite, StringNode, VNode } from '../../../server/src/extract';
import { moveSites, shiftSite, shiftTree } from '../../../server/src/extract/remap';
import { plain, plainBase } from '../../../server/src/core/strings';
import { fixture, rng, strings } from './support';
import { eachOffset } from '../../support/offsets';

const REALWORLD = join(__dirname, '..', '..', 'fixtures', 'realworld');

/**
 * `shiftSite` keeps, per site, the list of what it moves (gathered on the first shift) and plain strings rebuild their
 * materialised offsets when `base` moved: after any sequence of shifts (offsets read or not in between), the sites
 * must equal a reference that moves every offset of their JSON form (every `start`/`end` pair, every `offsets`/`ends`
 * entry) by the same rule, `o >= from` => `o + diff`.
 */

/** The reference: every offset a site's JSON form holds, moved in place. */
function refShift(x: unknown, from: number, diff: number): void {
  eachOffset(x, (o) => (o >= from ? o + diff : o));
}

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

function allStrings(sites: RequestSite[]): StringNode[] {
  const out: StringNode[] = [];
  for (const s of sites) {
    for (const x of strings(s.params)) out.push(x);
    if (s.receiverTable?.kind === 'string') out.push(s.receiverTable);
  }
  return out;
}

/** Random shifts of every site (as an extractor moves the sites after an edit), compared with the reference after each. */
function checkShifts(name: string, sites: RequestSite[], textLength: number, seed: number): void {
  const rand = rng(seed);
  const ref = json(sites);
  const strs = allStrings(sites);
  let len = textLength;
  for (let step = 0; step < 60; step++) {
    // Read some strings' offsets (plain ones materialise them) before the shift, so a stale array would show.
    for (const s of strs) if (rand() < 0.3) void s.offsets[0];
    const from = Math.floor(rand() * (len + 1));
    // A plain string moves as a whole (its base), never from inside its chars: an edit there re-extracts its statement.
    if (strs.some((x) => plainBase(x) !== undefined && plainBase(x)! < from && from <= plainBase(x)! + x.value.length)) continue;
    const diff = rand() < 0.5 ? -Math.min(from, 1 + Math.floor(rand() * 5)) : 1 + Math.floor(rand() * 5);
    if (diff === 0) continue;
    moveSites(sites, from, diff);
    refShift(ref, from, diff);
    len += diff;
    assert.deepEqual(json(sites), ref, `${name}: step ${step} (from ${from}, diff ${diff})`);
  }
}

describe('extract: shifting sites in place (remap)', () => {
  before(async () => {
    await initParsers();
    await ensureParser('go');
    await ensureParser('java');
  });

  const files: [string, string][] = [
    ['sdk-v3-client.ts', 'typescript'],
    ['sdk-v3-lib.ts', 'typescript'],
    ['shapes.ts', 'typescript'],
    ['sdk-v2.js', 'javascript'],
    ['boto3_client.py', 'python'],
    ['boto3_resource.py', 'python'],
    ['shapes.py', 'python'],
    ['requests.jsonc', 'jsonc'],
    ['cli-transact-items.json', 'json'],
  ];
  // Real-world fixtures whose requests have data-flow alternatives (one site per alternative, from one call).
  const realworld: [string, string][] = [
    ['optimistic_lock.py', 'python'],
    ['dynamic_requests.py', 'python'],
    ['dynamic-builders.ts', 'typescript'],
    ['like-guard-variants.ts', 'typescript'],
    ['unread_flows.go', 'go'],
    ['UnreadFlows.java', 'java'],
  ];
  const read = (file: string) => (files.some(([f]) => f === file) ? fixture(file) : readFileSync(join(REALWORLD, file), 'utf8'));

  for (const [file, lang] of [...files, ...realworld])
    it(`${file}: any sequence of shifts equals moving every offset of the sites' JSON`, () => {
      const text = read(file);
      const sites = extract(text, lang).sites;
      assert.ok(sites.length > 0);
      checkShifts(file, sites, text.length, 7 + file.length);
    });

  it('no object (range, node, receiver table) is reachable from two sites, but a shared enclosingFunction (replaced, never moved)', () => {
    for (const [file, lang] of [...files, ...realworld]) {
      const sites = extract(read(file), lang).sites;
      const owner = new Map<object, number>();
      sites.forEach((site, k) => {
        const seen = new Set<object>();
        const stack: unknown[] = Object.entries(site).filter(([key]) => key !== 'enclosingFunction').map(([, v]) => v);
        while (stack.length) {
          const o = stack.pop();
          if (o === null || typeof o !== 'object' || seen.has(o)) continue;
          seen.add(o);
          const other = owner.get(o);
          assert.ok(other === undefined || other === k, `${file}: site ${k} (${site.api}) shares ${JSON.stringify(o).slice(0, 80)} with site ${other}`);
          owner.set(o, k);
          for (const v of Array.isArray(o) ? o : Object.values(o)) stack.push(v);
        }
      });
    }
  });

  it('Go and Java sites too', () => {
    const java = readFileSync(join(__dirname, '..', 'hosts', 'fixtures', 'Likes.java'), 'utf8');
    const go = [
      'package main',
      'func put(ctx context.Context, c *dynamodb.Client) {',
      '\tc.UpdateItem(ctx, &dynamodb.UpdateItemInput{',
      '\t\tTableName: aws.String("T"),',
      '\t\tUpdateExpression: aws.String("SET #a = :v\\tB" + " ADD n :one"),',
      '\t\tExpressionAttributeNames: map[string]string{"#a": "a"},',
      '\t})',
      '}',
      '',
    ].join('\n');
    for (const [name, text, lang] of [
      ['Likes.java', java, 'java'],
      ['go', go, 'go'],
    ]) {
      const sites = extract(text, lang).sites;
      assert.ok(sites.length > 0, name);
      checkShifts(name, sites, text.length, 11);
    }
  });

  it('strings with escapes and joined pieces (offsets, ends) and plain ones are all covered', () => {
    const text = [
      "const P = 'pre\\tfix';",
      'export async function f(doc, id) {',
      "  await doc.update({ TableName: `T${''}`, Key: { id }, UpdateExpression: 'SET #a = :v, ' + P + ' ADD n :one',",
      "    ExpressionAttributeNames: { '#a': 'a\\u0041' }, ExpressionAttributeValues: { ':v': [1, 'x', null, true], ':one': 1 } });",
      "  await doc.put({ TableName: 'T', Item: { id, s: new Set(['a', 'b']) } });",
      '}',
      '',
    ].join('\n');
    const sites = extract(text, 'typescript').sites;
    const strs = allStrings(sites);
    assert.ok(strs.some((s) => plainBase(s) !== undefined), 'a plain string');
    assert.ok(strs.some((s) => plainBase(s) === undefined && !s.ends), 'a string with an offsets array');
    assert.ok(strs.some((s) => !!s.ends), 'a joined string');
    assert.ok(sites.some((s) => s.enclosingFunction), 'sites in a function');
    checkShifts('escapes', sites, text.length, 3);
  });

  it('sites sharing a plain enclosingFunction object share one moved copy; the shared one is never moved', () => {
    const text = "export async function f(doc) {\n  await doc.put({ TableName: 'T', Item: { id: 1 } });\n  await doc.delete({ TableName: 'T', Key: { id: 1 } });\n}\n";
    const sites = extract(text, 'typescript').sites;
    assert.equal(sites.length, 2);
    // A plain one, as the other hosts make (a TypeScript document's takes its moves when read: extract-s10-site-spans).
    const shared = { name: 'f', range: sites[0].enclosingFunction!.range };
    sites[0].enclosingFunction = shared;
    sites[1].enclosingFunction = shared;
    const before = { ...shared.range };
    for (const s of sites) shiftSite(s, 0, 3);
    assert.deepEqual(shared.range, before);
    assert.notEqual(sites[0].enclosingFunction, shared);
    assert.equal(sites[0].enclosingFunction, sites[1].enclosingFunction);
    assert.deepEqual(sites[0].enclosingFunction!.range, { start: before.start + 3, end: before.end + 3 });
    // Another shift by other amounts: a copy of its own again, the one before unchanged.
    const once = sites[0].enclosingFunction!;
    for (const s of sites) shiftSite(s, 0, -3);
    assert.deepEqual(once.range, { start: before.start + 3, end: before.end + 3 });
    assert.deepEqual(sites[1].enclosingFunction!.range, before);
    assert.equal(sites[0].enclosingFunction, sites[1].enclosingFunction);
  });

  it('a site whose params, receiver table or forwarded range were replaced after a shift moves the new ones', () => {
    const text = "export async function f(doc) {\n  await doc.put({ TableName: 'T', Item: { id: 1 } });\n}\n";
    const [site] = extract(text, 'typescript').sites;
    shiftSite(site, 0, 1); // gathers what it moves
    const old = site.params;
    const oldRange = { ...old.range };
    const value = plain('T', 12, { start: 11, end: 14 });
    site.params = { kind: 'object', complete: true, range: { start: 10, end: 20 }, properties: [{ key: 'TableName', keyRange: { start: 10, end: 11 }, value, range: { start: 10, end: 15 } }] };
    site.receiverTable = plain('R', 30, { start: 29, end: 32 });
    site.forwarded = { from: { start: 40, end: 50 } };
    shiftSite(site, 0, 2);
    assert.deepEqual(old.range, oldRange, 'the replaced tree is no longer moved');
    assert.deepEqual(site.params.range, { start: 12, end: 22 });
    assert.deepEqual(site.params.properties[0].keyRange, { start: 12, end: 13 });
    assert.deepEqual(value.offsets, [14, 15]);
    assert.deepEqual(site.receiverTable.offsets, [32, 33]);
    assert.deepEqual(site.forwarded.from, { start: 42, end: 52 });
  });

  it('a plain string read, moved and moved back gives the offsets of where it is', () => {
    const s = plain('abc', 10, { start: 9, end: 14 });
    assert.deepEqual(s.offsets, [10, 11, 12, 13]);
    const v: VNode = s;
    shiftTree(v, 5, 4);
    assert.deepEqual(s.offsets, [14, 15, 16, 17]);
    assert.deepEqual(s.range, { start: 13, end: 18 });
    shiftTree(v, 5, -4);
    assert.deepEqual(s.offsets, [10, 11, 12, 13]);
    shiftTree(v, 11, 1); // only the end of its range moves: the chars start before `from`
    assert.deepEqual(s.offsets, [10, 11, 12, 13]);
    assert.deepEqual(s.range, { start: 9, end: 15 });
  });
});
