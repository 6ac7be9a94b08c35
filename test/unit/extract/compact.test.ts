import { strict as assert } from 'node:assert';
import { extract, ObjectNode, Property, RequestSite, StringNode, VNode } from '../../../server/src/extract';
import { hostSyntax, replaceInString } from '../../../server/src/rules/edit';
import { shiftSite, shiftTree } from '../../../server/src/extract/remap';
import { Entry, ObjNode, UnkNode, entry, objectNode, unknownNode, withProperties, withValue } from '../../../server/src/core/compact';
import { cloneString, plain, plainBase, shiftString } from '../../../server/src/core/strings';
import { stringRange } from '../../../server/src/core/values';
import { apply, cloneTree, oneOf, variants } from '../../../server/src/flow';
import { rng } from './support';

/**
 * Compact nodes (core/compact.ts: entries and maps whose ranges are number fields; core/strings.ts: plain strings'
 * range) must behave exactly like the plain object forms every other host builds: the same JSON, moved alike by
 * `shiftSite` / `shiftTree`, copied by the data flow without sharing a range and without turning into plain objects
 * that lost their ranges (a spread copies fields, not getters).
 */

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

/**
 * The same random tree twice: once of plain literals, once compact (mixed: a compact map may hold plain entries and a
 * plain map compact ones, as the data flow makes them). Strings: plain literals (`plain`) and escaped ones (offsets).
 */
function trees(seed: number): [ObjectNode, ObjectNode] {
  const rand = rng(seed);
  let at = 10;
  const next = (n: number) => (at += 1 + Math.floor(rand() * n));
  const build = (depth: number): [VNode, VNode] => {
    const r = rand();
    if (depth > 3 || r < 0.3) {
      const start = next(5);
      const value = 'abcdef'.slice(0, 1 + Math.floor(rand() * 5));
      const end = start + value.length + 2;
      at = end;
      return [{ kind: 'string', value, offsets: [...Array(value.length + 1).keys()].map((i) => start + 1 + i), range: { start, end } }, plain(value, start + 1, { start, end })];
    }
    if (r < 0.4) {
      const start = next(5);
      const escaped = { kind: 'string' as const, value: 'a\nb', offsets: [start + 1, start + 2, start + 4, start + 5], range: { start, end: start + 6 } };
      at = start + 6;
      return [escaped, cloneString(escaped)];
    }
    if (r < 0.5) {
      const start = next(5);
      at = start + 2;
      return [{ kind: 'number', text: '1', range: { start, end: start + 1 } }, { kind: 'number', text: '1', range: { start, end: start + 1 } }];
    }
    if (r < 0.6) {
      const start = next(5);
      at = start + 3;
      const type = rand() < 0.5 ? ('S' as const) : undefined;
      const plainForm: VNode = { kind: 'unknown', range: { start, end: at }, text: 'x()', ...(type ? { type } : {}) };
      return [plainForm, unknownNode({ start, end: at }, 'x()', type)];
    }
    const start = next(5);
    const a: Property[] = [];
    const b: Property[] = [];
    const n = Math.floor(rand() * 4);
    for (let i = 0; i < n; i++) {
      const ks = next(5);
      const ke = ks + 3;
      at = ke;
      const [va, vb] = build(depth + 1);
      const keyRange = { start: ks, end: ke };
      const range = { start: ks, end: at };
      a.push({ key: `k${i}`, keyRange, value: va, range });
      b.push(rand() < 0.8 ? entry(`k${i}`, keyRange, vb, range) : { key: `k${i}`, keyRange: { ...keyRange }, value: vb, range: { ...range } });
    }
    const end = next(3);
    const complete = rand() < 0.8;
    return [{ kind: 'object', properties: a, complete, range: { start, end } }, rand() < 0.8 ? objectNode(b, complete, { start, end }) : { kind: 'object', properties: b, complete, range: { start, end } }];
  };
  let t: [VNode, VNode];
  do t = build(0);
  while (t[0].kind !== 'object');
  return t as [ObjectNode, ObjectNode];
}

const siteOf = (params: ObjectNode): RequestSite => ({ api: 'UpdateItem', apiSource: 'call', style: 'document', host: 'typescript', sdk: 'sdk-v3-lib', range: { ...params.range }, nameRange: { start: params.range.start, end: params.range.start + 1 }, params });

describe('extract: compact value nodes (core/compact.ts)', () => {
  it('serialise like the plain forms and move alike under any sequence of shifts (shiftSite, shiftTree)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const [a, b] = trees(seed);
      assert.deepEqual(json(b), json(a), `seed ${seed}`);
      const sa = siteOf(a);
      const sb = siteOf(b);
      const rand = rng(seed * 7);
      for (let step = 0; step < 30; step++) {
        const from = Math.floor(rand() * 400);
        const diff = rand() < 0.5 ? -1 - Math.floor(rand() * 3) : 1 + Math.floor(rand() * 5);
        // A string moves as a whole: never shift from inside its chars (an edit there re-extracts its statement).
        const inside = (v: VNode): boolean => (v.kind === 'string' ? v.range.start < from && from < v.range.end : v.kind === 'object' ? v.properties.some((p) => inside(p.value)) : false);
        if (inside(a)) continue;
        if (rand() < 0.5) {
          shiftSite(sa, from, diff);
          shiftSite(sb, from, diff);
        } else {
          shiftTree(sa.params, from, diff);
          shiftTree(sb.params, from, diff);
          for (const s of [sa, sb]) for (const r of [s.range, s.nameRange]) {
            if (r.start >= from) r.start += diff;
            if (r.end >= from) r.end += diff;
          }
        }
        assert.deepEqual(json(sb), json(sa), `seed ${seed} step ${step}`);
      }
    }
  });

  it('hand out copies of their ranges; setting one copies it in', () => {
    const s = plain('v', 5, { start: 4, end: 7 });
    const e = entry('K', { start: 1, end: 2 }, s, { start: 1, end: 7 });
    const r = e.range;
    r.start = 100;
    assert.deepEqual(e.range, { start: 1, end: 7 });
    assert.notEqual(e.range, e.range);
    const o = objectNode([e], true, { start: 0, end: 9 });
    const mine = { start: 3, end: 4 };
    o.range = mine;
    mine.start = 50;
    assert.deepEqual(o.range, { start: 3, end: 4 });
    s.range = { start: 10, end: 13 };
    assert.deepEqual(json(s), { kind: 'string', value: 'v', offsets: [5, 6], range: { start: 10, end: 13 } });
    shiftString(s, (x) => x + 1);
    assert.deepEqual(s.range, { start: 11, end: 14 });
    assert.equal(plainBase(s), 6);
  });

  it('the data flow keeps them compact, equal to the plain forms, and its copies share no range', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const [a, b] = trees(seed);
      const key = a.properties[0]?.key ?? 'k0';
      const ops = [
        apply(a, { kind: 'set', path: [key], keyRange: { start: 1, end: 2 }, value: { kind: 'null', range: { start: 3, end: 4 } }, range: { start: 1, end: 4 } }),
        apply(b, { kind: 'set', path: [key], keyRange: { start: 1, end: 2 }, value: { kind: 'null', range: { start: 3, end: 4 } }, range: { start: 1, end: 4 } }),
        apply(a, { kind: 'set', path: [key, 'deep'], keyRange: { start: 1, end: 2 }, value: { kind: 'null', range: { start: 3, end: 4 } }, range: { start: 1, end: 4 } }),
        apply(b, { kind: 'set', path: [key, 'deep'], keyRange: { start: 1, end: 2 }, value: { kind: 'null', range: { start: 3, end: 4 } }, range: { start: 1, end: 4 } }),
        apply(a, { kind: 'delete', path: [key] }),
        apply(b, { kind: 'delete', path: [key] }),
        apply(a, { kind: 'merge', value: a }),
        apply(b, { kind: 'merge', value: b }),
        apply(a, { kind: 'opaque', deep: true }),
        apply(b, { kind: 'opaque', deep: true }),
        apply(a, { kind: 'opaque', deep: false }),
        apply(b, { kind: 'opaque', deep: false }),
      ];
      for (let i = 0; i < ops.length; i += 2) {
        assert.deepEqual(json(ops[i + 1]), json(ops[i]), `seed ${seed} op ${i / 2}`);
        if (b instanceof ObjNode && ops[i + 1].kind === 'object') assert.ok(ops[i + 1] instanceof ObjNode, `seed ${seed} op ${i / 2}: still compact`);
      }
      // Alternatives expanded, then copied: equal, compact, and moving a copy leaves the original where it was.
      const alt = (x: ObjectNode) => withProperties(x, [...x.properties.map((p, i) => (i === 0 ? withValue(p, oneOf([p.value, { kind: 'null', range: { start: 0, end: 1 } }], p.value.range)) : p))]);
      const va = variants(alt(a));
      const vb = variants(alt(b));
      assert.deepEqual(json(vb), json(va), `seed ${seed}: variants`);
      for (const v of vb) {
        assert.ok(!JSON.stringify(v).includes('"s":'), `seed ${seed}: a compact node's fields in its JSON`);
        const before = JSON.stringify(v);
        const copy = cloneTree(v);
        assert.equal(JSON.stringify(copy), before);
        if (v instanceof ObjNode) assert.ok(copy instanceof ObjNode);
        shiftTree(copy, 0, 1000);
        assert.equal(JSON.stringify(v), before, `seed ${seed}: the copy shares a range`);
        const site = siteOf(cloneTree(v) as ObjectNode);
        shiftSite(site, 0, 7);
        assert.equal(JSON.stringify(v), before, `seed ${seed}: a site's copy shares a range`);
      }
    }
  });

  it('stringRange reads a plain string by its base, without building its offsets array', () => {
    const s = plain('hello', 11, { start: 10, end: 17 });
    Object.defineProperty(s, 'offsets', {
      get() {
        throw new Error('offsets read');
      },
    });
    assert.deepEqual(stringRange(s, 1, 3), { start: 12, end: 14 });
    assert.deepEqual(stringRange(s, 0, 5), { start: 11, end: 16 });
    assert.deepEqual(stringRange(s, 4, 4), { start: 15, end: 15 });
    assert.deepEqual(stringRange(s, -2, 99), { start: 11, end: 16 });
  });

  it('a fix replacing part of a plain string reads it by its base, and writes the same edit as for its offsets form', () => {
    const text = `await doc.send(new UpdateCommand({ TableName: 'T', Key: { pk: 'a' }, UpdateExpression: 'SET views = :v' }));`;
    const site = extract(text, 'typescript').sites[0];
    const node = site.params.properties.find((p) => p.key === 'UpdateExpression')!.value as StringNode;
    assert.notEqual(plainBase(node), undefined);
    const syn = hostSyntax(text, site);
    const expected = replaceInString(text, syn, { kind: 'string', value: node.value, offsets: [...node.offsets], range: node.range }, 4, 9, '#views');
    assert.deepEqual(expected, { range: { start: text.indexOf('views'), end: text.indexOf('views') + 5 }, newText: '#views' });
    const trapped = plain(node.value, plainBase(node)!, node.range);
    Object.defineProperty(trapped, 'offsets', {
      get() {
        throw new Error('offsets read');
      },
    });
    assert.deepEqual(replaceInString(text, syn, trapped, 4, 9, '#views'), expected);
  });

  it('the TypeScript host builds them; its sites equal their plain JSON form', () => {
    const text = `const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
await doc.send(new UpdateCommand({ TableName: 'T', Key: { pk: 'a' }, UpdateExpression: 'SET #n = :v', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':v': v, ':s': \`a\${v}\` } }));`;
    const { sites } = extract(text, 'typescript');
    assert.equal(sites.length, 1);
    const p = sites[0].params;
    assert.ok(p instanceof ObjNode);
    assert.ok(p.properties.every((x) => x instanceof Entry));
    const key = p.properties.find((x) => x.key === 'Key')!;
    assert.equal(text.slice(key.keyRange.start, key.keyRange.end), 'Key');
    assert.equal(text.slice(key.range.start, key.range.end), "Key: { pk: 'a' }");
    assert.equal(text.slice(key.value.range.start, key.value.range.end), "{ pk: 'a' }");
    const u = p.properties.find((x) => x.key === 'UpdateExpression')!.value;
    assert.equal(u.kind, 'string');
    assert.equal(text.slice(u.range.start, u.range.end), "'SET #n = :v'");
    const values = p.properties.find((x) => x.key === 'ExpressionAttributeValues')!.value as ObjectNode;
    const [v, t] = values.properties.map((x) => x.value);
    assert.ok(v instanceof UnkNode && t instanceof UnkNode);
    assert.deepEqual(json(v), { kind: 'unknown', range: { start: text.indexOf(': v') + 2, end: text.indexOf(': v') + 3 }, text: 'v' });
    assert.deepEqual(json(t), { kind: 'unknown', range: { start: text.indexOf('`a'), end: text.indexOf('}`') + 2 }, text: '`a${v}`', type: 'S' });
  });
});
