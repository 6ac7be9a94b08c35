import type { ReconcileReport } from '../../server/src/reconcile/types';

/** A whole-table likeTally report over the demo's Social table; each test supplies the rows it is about. */
export function sampleReport(rows: Pick<ReconcileReport, 'drifted' | 'orphans'> & Partial<ReconcileReport>): ReconcileReport {
  return {
    table: 'Social',
    pattern: { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' },
    scope: { kind: 'table', segments: 4 },
    consistent: false,
    checked: 6,
    itemsRead: 36,
    consumedRcu: 1.5,
    requests: 4,
    retries: 0,
    elapsedMs: 1234,
    ...rows,
  };
}
