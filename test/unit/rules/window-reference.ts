/**
 * The reference for the rule cache's window moves (rule-cache.test.ts, rule-cache-walk.test.ts): window by window,
 * every span in turn.
 */
import type { Span, Window } from '../../../server/src/rules/incremental';
import type { SiteFinding } from '../../../server/src/rules/types';

export function reference(windows: Window[], findings: SiteFinding[], spans: Span[]): { touched: boolean; windows: Window[]; findings: SiteFinding[] } {
  const ws = windows.map((w) => ({ ...w }));
  let fs = findings;
  for (const span of spans) {
    const diff = span.newEnd - span.oldEnd;
    if (ws.some((w) => span.start <= w.end && span.oldEnd >= w.start)) return { touched: true, windows: ws, findings: fs };
    if (diff === 0 || !ws.some((w) => w.start >= span.oldEnd)) continue;
    for (const w of ws)
      if (w.start >= span.oldEnd) {
        w.start += diff;
        w.end += diff;
      }
    const move = (o: number) => (o >= span.oldEnd ? o + diff : o);
    fs = fs.map((f) => ({ ...f, range: { start: move(f.range.start), end: move(f.range.end) } }));
  }
  return { touched: false, windows: ws, findings: fs };
}
