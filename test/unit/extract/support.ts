/** Shared helpers for the extraction tests: fixture annotations and generic range checks. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestSite, StringNode, VNode, tableNameOf } from '../../../server/src/extract';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'extract');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

export interface Expected {
  at: number;
  api: string;
  style: string;
  sdk: string;
  fn?: string;
  fields?: string[];
  /** The literal table the request names (`TableName` or its boto3 `Table` receiver); `-` for none. */
  table?: string;
}

/** `// @site <api> <style> <sdk> [fn=name] [fields=a,b] [table=name|-]` (or `#` in Python), in document order. */
export function annotations(text: string): Expected[] {
  const out: Expected[] = [];
  for (const m of text.matchAll(/(?:\/\/|#)\s*@site\s+(\S+)\s+(\S+)\s+(\S+)([^\n]*)/g)) {
    const attrs = Object.fromEntries([...m[4].matchAll(/(\w+)=(\S+)/g)].map((a) => [a[1], a[2]]));
    out.push({ at: m.index ?? 0, api: m[1], style: m[2], sdk: m[3], fn: attrs.fn, fields: attrs.fields?.split(','), table: attrs.table });
  }
  return out;
}

/** Every string node in a value tree. */
export function strings(v: VNode): StringNode[] {
  const out: StringNode[] = [];
  const stack: VNode[] = [v];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'string') out.push(n);
    else if (n.kind === 'object') n.properties.forEach((p) => stack.push(p.value));
    else if (n.kind === 'array' || n.kind === 'set') stack.push(...n.items);
  }
  return out;
}

/**
 * The offsets contract, checked on any string node: one offset per char plus the end, non-decreasing, and the source
 * char at each offset is either the char itself or the backslash starting the escape that produced it.
 */
export function assertOffsets(text: string, s: StringNode): void {
  assert.equal(s.offsets.length, s.value.length + 1, `offsets length for ${JSON.stringify(s.value)}`);
  for (let i = 0; i < s.value.length; i++) {
    const src = text[s.offsets[i]];
    assert.ok(src === s.value[i] || src === '\\' || (src === '\r' && s.value[i] === '\n'), `char ${i} of ${JSON.stringify(s.value)}: source ${JSON.stringify(src)} at ${s.offsets[i]}`);
    // Pieces resolved from constants live elsewhere in the file; within one literal, offsets only grow.
    const local = s.offsets.every((o) => o >= s.range.start && o <= s.range.end);
    if (local) assert.ok(s.offsets[i + 1] >= s.offsets[i], 'offsets non-decreasing');
  }
}

/** Compare sites with annotations: count, order (each site after its annotation, before the next), fields. */
export function assertMatchesAnnotations(text: string, sites: RequestSite[], expected: Expected[]): void {
  assert.deepEqual(
    sites.map((s) => `${s.api} ${s.style} ${s.sdk}`),
    expected.map((e) => `${e.api} ${e.style} ${e.sdk}`),
  );
  sites.forEach((s, i) => {
    const e = expected[i];
    assert.ok(s.range.start > e.at && (i + 1 === expected.length || s.range.start < expected[i + 1].at), `site ${i} (${s.api}) sits after its annotation`);
    if (e.fn) assert.equal(s.enclosingFunction?.name, e.fn, `enclosing function of site ${i}`);
    if (e.table) assert.equal(tableNameOf(s) ?? '-', e.table, `table of site ${i}`);
    if (e.fields) assert.deepEqual(s.params.properties.map((p) => p.key), e.fields, `fields of site ${i}`);
    assert.equal(s.apiSource === 'call' || s.apiSource === 'inferred', true);
    assert.ok(s.nameRange.start >= s.range.start - 200 && s.nameRange.end <= text.length);
    for (const str of strings(s.params)) assertOffsets(text, str);
    for (const p of s.params.properties) assert.equal(text.slice(p.keyRange.start, p.keyRange.end).replace(/^['"]|['"]$/g, ''), p.key);
  });
}

/**
 * Every Range object and value node of the sites is its own, the receiver table's included (sites are shifted in
 * place after edits: a shared one would move once per site holding it).
 */
export function assertNothingShared(sites: RequestSite[], label = ''): void {
  const seen = new Set<object>();
  const once = (o: object, what: string) => {
    assert.ok(!seen.has(o), `${label}shared ${what}`);
    seen.add(o);
  };
  for (const site of sites) {
    once(site.range, 'site range');
    once(site.nameRange, 'name range');
    const stack: VNode[] = [site.params];
    if (site.receiverTable) stack.push(site.receiverTable);
    while (stack.length) {
      const v = stack.pop()!;
      once(v, 'node');
      once(v.range, 'node range');
      if (v.kind === 'object')
        for (const p of v.properties) {
          once(p.keyRange, 'key range');
          once(p.range, 'property range');
          stack.push(p.value);
        }
      if (v.kind === 'array' || v.kind === 'set') for (const item of v.items) stack.push(item);
    }
  }
}

/**
 * Two extraction results (sites, `ExtractResult`s) are the same: the same objects' kinds (strict deep equality sees
 * prototypes and public fields) and the same offsets. A compact node's and a plain string's offsets are private
 * fields (a TypeScript document's nodes take its moves when read: core/compact.ts `Moves`), which deep equality does
 * not see; their JSON (`toJSON`) holds them.
 */
export function assertSameExtraction(got: unknown, want: unknown, message?: string): void {
  assert.deepEqual(got, want, message);
  assert.deepEqual(JSON.parse(JSON.stringify(got)) as unknown, JSON.parse(JSON.stringify(want)) as unknown, message);
}

/** Deterministic pseudo-random numbers (LCG) so failures replay. */
export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}
