/**
 * Every offset a site's JSON form holds (`start`/`end` pairs, `offsets` and `ends` arrays of numbers), replaced in
 * place by what `visit` returns: the tests' reference for what `shiftSite` moves and what `maxRef` counts.
 */
export function eachOffset(x: unknown, visit: (offset: number) => number): void {
  const stack: unknown[] = [x];
  while (stack.length) {
    const o = stack.pop();
    if (Array.isArray(o)) {
      for (const e of o) stack.push(e);
      continue;
    }
    if (o === null || typeof o !== 'object') continue;
    const rec = o as Record<string, unknown>;
    if (typeof rec.start === 'number' && typeof rec.end === 'number') {
      rec.start = visit(rec.start);
      rec.end = visit(rec.end);
    }
    for (const k of ['offsets', 'ends']) {
      const a = rec[k];
      if (Array.isArray(a) && a.every((n) => typeof n === 'number')) for (let i = 0; i < a.length; i++) a[i] = visit(a[i] as number);
    }
    for (const [k, v] of Object.entries(rec)) if (k !== 'offsets' && k !== 'ends') stack.push(v);
  }
}
