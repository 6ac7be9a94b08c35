/** Moving extracted sites after an edit: a copy with every document offset passed through a monotonic map. */
import { ObjectNode, Range, RequestSite, VNode } from './model';
import { maxOffset, remapString } from './strings';

function remapRange(r: Range, map: (o: number) => number): Range {
  return { start: map(r.start), end: map(r.end) };
}

function remapNode(v: VNode, map: (o: number) => number): VNode {
  switch (v.kind) {
    case 'string':
      return remapString(v, map);
    case 'object':
      return {
        kind: 'object',
        properties: v.properties.map((p) => ({ key: p.key, keyRange: remapRange(p.keyRange, map), value: remapNode(p.value, map), range: remapRange(p.range, map) })),
        complete: v.complete,
        range: remapRange(v.range, map),
      };
    case 'array':
      return { kind: 'array', items: v.items.map((i) => remapNode(i, map)), complete: v.complete, range: remapRange(v.range, map) };
    case 'set':
      return { kind: 'set', items: v.items.map((i) => remapNode(i, map)), range: remapRange(v.range, map) };
    default:
      return { ...v, range: remapRange(v.range, map) };
  }
}

export function remapSite(s: RequestSite, map: (o: number) => number): RequestSite {
  const out: RequestSite = { ...s, range: remapRange(s.range, map), nameRange: remapRange(s.nameRange, map), params: remapNode(s.params, map) as ObjectNode };
  if (s.enclosingFunction) out.enclosingFunction = { name: s.enclosingFunction.name, range: remapRange(s.enclosingFunction.range, map) };
  return out;
}

export function maxRef(sites: RequestSite[]): number {
  let m = 0;
  const stack: VNode[] = [];
  for (const s of sites) {
    m = Math.max(m, s.range.end, s.enclosingFunction?.range.end ?? 0);
    stack.push(s.params);
  }
  while (stack.length) {
    const v = stack.pop()!;
    if (v.kind === 'string') m = Math.max(m, maxOffset(v));
    else if (v.kind === 'object') for (const p of v.properties) stack.push(p.value);
    else if (v.kind === 'array' || v.kind === 'set') stack.push(...v.items);
  }
  return m;
}
