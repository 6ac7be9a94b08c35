/**
 * What the extension does with the messages the results page posts (html.ts's script): kept free of `vscode` so it is
 * tested with a fake host. A message is validated before anything runs; an export writes the report as JSON or CSV;
 * a repair of chosen rows (only on a repairable page) answers the page with one outcome per row; nothing rejects: a
 * failure is shown.
 */
import { ReconcileError, type ReconcileReport, toCsv } from '../../../server/src/reconcile';

/** A message from the page, as the extension accepts it. */
export type PageMessage = { type: 'export'; format: 'json' | 'csv' } | { type: 'repair'; rows: number[] };

/** One row's repair outcome, as the page shows it. */
export interface PageOutcome {
  index: number;
  text: string;
  ok: boolean;
}

/** The page's message, or undefined for anything it does not send (the webview is untrusted input). */
export function parsePageMessage(m: unknown): PageMessage | undefined {
  if (!m || typeof m !== 'object') return undefined;
  const r = m as Record<string, unknown>;
  if (r.type === 'export') return { type: 'export', format: r.format === 'csv' ? 'csv' : 'json' };
  if (r.type === 'repair' && Array.isArray(r.rows)) {
    const rows = [...new Set(r.rows.filter((x): x is number => Number.isInteger(x) && (x as number) >= 0))];
    return rows.length ? { type: 'repair', rows } : undefined;
  }
  return undefined;
}

/** The exported file's text. */
export function exportText(report: ReconcileReport, format: 'json' | 'csv'): string {
  return format === 'csv' ? toCsv(report) : JSON.stringify(report, null, 2) + '\n';
}

/** What handling a message needs from VS Code (the panel, dialogs, the repair itself). */
export interface PageHost {
  /** Whether the page offers repair (the pattern has a parent sort key). */
  repairable: boolean;
  /** Ask where to save, write `exportText(report, format)` there. */
  exportReport(format: 'json' | 'csv'): Promise<void>;
  /** Confirm and repair the rows; undefined when the user declined (nothing to show). */
  repairRows(rows: number[]): Promise<PageOutcome[] | undefined>;
  /** Post a message to the page. */
  post(message: { type: 'repaired'; outcomes: PageOutcome[] }): void;
  /** Log and show an error. */
  showError(message: string): void;
}

/** Handle one message from the page. Never rejects. */
export async function handlePageMessage(raw: unknown, host: PageHost): Promise<void> {
  const m = parsePageMessage(raw);
  if (!m) return;
  try {
    if (m.type === 'export') await host.exportReport(m.format);
    else if (host.repairable) {
      const outcomes = await host.repairRows(m.rows);
      if (outcomes) host.post({ type: 'repaired', outcomes });
    }
  } catch (e) {
    host.showError(e instanceof ReconcileError ? e.message : `${m.type === 'export' ? 'Export' : 'Repair'} failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
