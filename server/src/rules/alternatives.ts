/**
 * Quick fixes on requests the data flow read as alternatives (issue 13): a variable assigned in branches, a
 * conditional spread. Each alternative is its own site, with its own copy of a tree whose nodes keep the ranges of the
 * text they come from, so two alternatives usually share source: an edit right for one (removing a value only it
 * leaves unused, adding a map only it lacks) may break another. A fix is kept when
 * - every edit lands in text the user wrote as part of the request: inside a string, or inside an object / list
 *   literal of a tree that holds it (not a place a value only flowed through), and
 * - every alternative whose tree touches an edit reports the same finding (rule, range, message) with the same fix
 *   (title and edits): then the edit is right whichever alternative runs.
 * Otherwise the fix is withheld (the finding stays). A fix touching no alternative is left alone.
 */
import type { RequestSite, VNode } from '../extract/model';
import type { Finding, Fix, Rule, RuleContext } from './types';

type Span = { start: number; end: number };

/** The node ranges of a tree, and which of them are written literals (strings, `{`/`[`/`(` literals). */
function rangesOf(text: string, root: VNode): { all: Span[]; written: Span[] } {
  const all: Span[] = [];
  const written: Span[] = [];
  const stack: VNode[] = [root];
  for (let n = stack.pop(); n; n = stack.pop()) {
    all.push(n.range);
    if (n.kind === 'string') written.push(n.range);
    else if (n.kind === 'object' || n.kind === 'array') {
      const open = text[n.range.start];
      const close = text[n.range.end - 1];
      if ((open === '{' && close === '}') || (open === '[' && close === ']') || (open === '(' && close === ')')) written.push(n.range);
      if (n.kind === 'object') {
        // An entry with the separators around it (what removing it takes), also when its literal is no node of the
        // tree (a dict spread into keyword arguments): from the previous entry's end, and up to the next entry's key.
        const ps = [...n.properties].sort((a, b) => a.keyRange.start - b.keyRange.start);
        const separator = (a: number, b: number) => a <= b && /^[\s,'"]*$/.test(text.slice(a, b));
        ps.forEach((p, i) => {
          if (p.value.range.end < p.keyRange.start) return;
          written.push({ start: p.keyRange.start, end: p.value.range.end });
          const prev = ps[i - 1];
          if (prev && separator(prev.value.range.end, p.keyRange.start)) written.push({ start: prev.value.range.end, end: p.value.range.end });
          const next = ps[i + 1];
          if (next && separator(p.value.range.end, next.keyRange.start)) written.push({ start: p.keyRange.start, end: next.keyRange.start });
        });
        for (const p of n.properties) stack.push(p.value);
      } else for (const x of n.items) stack.push(x);
    } else if (n.kind === 'set') for (const x of n.items) stack.push(x);
  }
  return { all, written };
}

/** Whether an edit (an insertion when empty) meets a node's text. */
const touches = (e: Span, r: Span) => (e.start === e.end ? r.start < e.start && e.start < r.end : e.start < r.end && r.start < e.end);
const inside = (e: Span, r: Span) => r.start <= e.start && e.end <= r.end;

const fixKey = (f: Pick<Finding, 'ruleId' | 'range' | 'message'>, x: Fix) =>
  `${f.ruleId}\u0000${f.range.start}:${f.range.end}\u0000${f.message}\u0000${x.title}\u0000${x.edits.map((e) => `${e.range.start}:${e.range.end}=${e.newText}`).join('\u0001')}`;

/**
 * Withhold the fixes of `findings` that alternatives do not agree on (see above). `rules`: the enabled rules, whose
 * `site` form is asked for each alternative's own findings (a rule without one cannot vouch: its fixes touching an
 * alternative are withheld).
 */
export function agreeingOnAlternatives(text: string, ctx: RuleContext, rules: readonly Rule[], findings: Finding[]): Finding[] {
  if (!findings.some((f) => f.fixes?.length)) return findings;
  const alts = ctx.sites.filter((s) => s.alternative && s.alternative.count > 1);
  if (!alts.length) return findings;
  const trees = new Map<RequestSite, { all: Span[]; written: Span[]; min: number; max: number }>();
  const treeOf = (s: RequestSite) => {
    let t = trees.get(s);
    if (!t) {
      const r = rangesOf(text, s.params);
      // A loop, not Math.min(...spread): a tree of 10,000 pushed entries has more nodes than a call takes arguments.
      let min = Infinity;
      let max = -Infinity;
      for (const x of r.all) {
        if (x.start < min) min = x.start;
        if (x.end > max) max = x.end;
      }
      t = { ...r, min, max };
      trees.set(s, t);
    }
    return t;
  };
  // Where the alternatives' trees lie (their nodes keep the ranges of the text they come from, not the call's).
  // Loops, not Math.min(...spread): a spread of many alternatives overflows the stack (RangeError).
  const extent = { start: Infinity, end: -Infinity };
  for (const s of alts) {
    const t = treeOf(s);
    if (t.min < extent.start) extent.start = t.min;
    if (t.max > extent.end) extent.end = t.max;
  }
  // Which alternatives vouch for which fix: their own findings, rule by rule.
  let vouched: Map<string, Set<RequestSite>> | undefined;
  const vouchers = () => {
    if (vouched) return vouched;
    vouched = new Map();
    for (const s of alts)
      for (const rule of rules) {
        if (!rule.site) continue;
        let own;
        try {
          own = rule.site(ctx, s);
        } catch {
          continue;
        }
        for (const f of own)
          for (const x of f.fixes ?? []) {
            const k = fixKey({ ...f, ruleId: rule.id }, x);
            const set = vouched.get(k);
            if (set) set.add(s);
            else vouched.set(k, new Set([s]));
          }
      }
    return vouched;
  };
  const agreed = (f: Finding, x: Fix): boolean => {
    const touching = new Set<RequestSite>();
    for (const e of x.edits) {
      if (!touches(e.range, extent) && !inside(e.range, extent)) continue;
      const mine: RequestSite[] = [];
      for (const s of alts) {
        const t = treeOf(s);
        if (e.range.end < t.min || e.range.start > t.max) continue;
        if (t.all.some((r) => touches(e.range, r))) mine.push(s);
      }
      // An edit inside an alternative lands in text written as part of the request (a string, a literal).
      if (mine.length && !mine.some((s) => treeOf(s).written.some((r) => inside(e.range, r)))) return false;
      for (const s of mine) touching.add(s);
    }
    if (!touching.size) return true;
    const who = vouchers().get(fixKey(f, x));
    return !!who && [...touching].every((s) => who.has(s));
  };
  return findings.map((f) => {
    if (!f.fixes?.length) return f;
    const fixes = f.fixes.filter((x) => agreed(f, x));
    if (fixes.length === f.fixes.length) return f;
    const rest: Finding = { ...f };
    delete rest.fixes;
    if (fixes.length && !fixes.some((x) => x.preferred) && f.fixes.some((x) => x.preferred)) fixes[0] = { ...fixes[0], preferred: true };
    return fixes.length ? { ...rest, fixes } : rest;
  });
}
