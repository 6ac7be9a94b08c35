/**
 * RuleCache's walk (rules/incremental.ts `movedAt`, `sync`): an entry's window bounds, the gap between its windows and
 * the moves not yet applied to it are kept in a Float64Array by position, the entry itself read only when an edit
 * reached its windows. As a property over random windows (with gaps between them: a site and a constant it uses),
 * findings and edits, moving through that state and then applying it to the entry must equal moving window by window:
 * the same verdict, windows, bounds and findings, whether the state is applied once at the end or between runs (as
 * when a finding is handed out). Also the count of sites that are alternatives, carried from run to run.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { type SiteEntry, STRIDE, bounds, currentFindings, currentWindows, loadState, movedAt, sync } from '../../../server/src/rules/incremental';
import type { SiteFinding } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';
import { fcParameters } from '../../support/fc';
import { reference } from './window-reference';


// Windows in up to three clusters far apart (the gaps most edits fall in), some overlapping or repeated.
const window = fc.tuple(fc.constantFrom(0, 300, 700), fc.nat({ max: 60 }), fc.nat({ max: 40 })).map(([base, start, len]) => ({ start: base + start, end: base + start + len }));
const span = fc.tuple(fc.nat({ max: 900 }), fc.nat({ max: 30 }), fc.nat({ max: 30 })).map(([start, del, ins]) => ({ start, oldEnd: start + del, newEnd: start + ins }));

describe('rule cache: the walk state by position', () => {
  it('moving through the state equals moving window by window (verdict, windows, bounds, findings)', () => {
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 6 }), fc.array(span, { minLength: 1, maxLength: 30 }), fc.boolean(), fc.nat({ max: 3 }), fc.boolean(), (windows, spans, withFirst, runs, findingsIn) => {
        // Findings inside windows (the cache's always are), or none.
        const findings: SiteFinding[] = findingsIn ? windows.map((w, i) => ({ ruleId: 'r', message: `m${i}`, range: { start: w.start, end: w.end } })) : [];
        const want = reference(windows, findings, spans);
        const entry: SiteEntry = {
          findings: findings.length ? [[0, findings]] : [],
          windows: windows.map((w) => ({ ...w })),
          last: findings.length ? Math.max(...findings.map((f) => f.range.end)) : -1,
          run: 1,
          ...bounds(windows),
        };
        if (withFirst && findings.length) entry.first = Math.min(...findings.map((f) => f.range.start));
        const before = findings.map((f) => ({ ...f, range: { ...f.range } }));
        const handedOut = [...findings];
        // At a position other than 0 of a larger state, the neighbours untouched.
        const st = new Float64Array(3 * STRIDE).fill(42);
        const o = STRIDE;
        loadState(st, o, entry);
        // In several runs: the state applied to the entry between them (a finding handed out) or not.
        const cuts = [0, ...Array.from({ length: runs }, (_, i) => Math.floor(((i + 1) * spans.length) / (runs + 1))), spans.length];
        let ok = true;
        for (let r = 0; ok && r + 1 < cuts.length; r++) {
          ok = movedAt(st, o, entry, spans.slice(cuts[r], cuts[r + 1]));
          if (ok && r % 2 === 0) {
            sync(st, o, entry);
            currentFindings(entry);
          }
        }
        assert.equal(!ok, want.touched);
        assert.deepEqual([...st.subarray(0, STRIDE), ...st.subarray(2 * STRIDE)], new Array<number>(2 * STRIDE).fill(42));
        if (!ok) return;
        sync(st, o, entry);
        assert.deepEqual(currentWindows(entry), want.windows);
        assert.deepEqual(bounds(entry.windows), { lo: entry.lo, hi: entry.hi });
        if (findings.length) assert.deepEqual(currentFindings(entry)[0][1].map((f) => f.range), want.findings.map((f) => f.range));
        assert.deepEqual(handedOut, before);
      }),
      fcParameters({ numRuns: 3000 }),
    );
  });

  it('counts the sites that are alternatives through edits that add and remove them', () => {
    const alt = (n: number) =>
      `export async function a${n}(id: string, c: boolean) {\n  let p;\n  if (c) {\n    p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': 1 } };\n  } else {\n    p = { TableName: 'T', Key: { id }, UpdateExpression: 'SET b = :v', ExpressionAttributeValues: { ':v': 1 } };\n  }\n  await doc.send(new UpdateCommand(p));\n}\n`;
    const plain = (n: number) => `export async function g${n}(id: string) {\n  await doc.send(new GetCommand({ TableName: 'T', Key: { id } }));\n}\n`;
    const svc = new DynalintService();
    const uri = 'file:///w/alts.ts';
    const pieces = [plain(0), alt(1), plain(2), plain(3)];
    let doc = TextDocument.create(uri, 'typescript', 1, pieces.join(''));
    const check = () => {
      const a = svc.analyze(doc, DEFAULT_SETTINGS);
      const want = new Set(a.sites.filter((s) => s.alternative && s.alternative.count > 1)).size;
      const cache = (svc as unknown as { extractors: Map<string, { rules: { alternatives: number } }> }).extractors.get(uri)!.rules;
      assert.equal(cache.alternatives, want);
      return want;
    };
    const counts = [check()];
    // An alternative pair added, another, one removed, a plain function edited, everything removed.
    for (const next of [
      [plain(0), alt(1), plain(2), alt(4), plain(3)],
      [alt(5), plain(0), alt(1), plain(2), alt(4), plain(3)],
      [alt(5), plain(0), plain(2), alt(4), plain(3)],
      [alt(5), plain(0), plain(2).replace('GetCommand', 'DeleteCommand'), alt(4), plain(3)],
      [plain(0), plain(2), plain(3)],
      [plain(0), alt(1), plain(2), plain(3)],
    ]) {
      doc = TextDocument.update(doc, [{ text: next.join('') }], doc.version + 1);
      counts.push(check());
    }
    assert.deepEqual(counts, [2, 4, 6, 4, 4, 0, 2]);
  });
});
