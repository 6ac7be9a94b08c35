/**
 * The extension's handling of the results page's messages (client/src/reconcile/messages.ts) with a fake host: what
 * the page posts (html.ts's script: `{type:'repair', rows}`, `{type:'export', format}`) leads to exactly one export or
 * one repair, the repair's outcomes go back to the page, anything else is ignored, and failures are shown, not thrown.
 */
import { strict as assert } from 'node:assert';
import { exportText, handlePageMessage, parsePageMessage, type PageHost, type PageOutcome } from '../../../client/src/reconcile/messages';
import { ReconcileError } from '../../../server/src/reconcile';
import { toCsv } from '../../../server/src/reconcile/format';
import { sampleReport } from '../../reconcile/report-fixture';

function fakeHost(options: { repairable?: boolean; outcomes?: PageOutcome[]; fail?: unknown } = {}) {
  const calls: string[] = [];
  const posted: unknown[] = [];
  const errors: string[] = [];
  const host: PageHost = {
    repairable: options.repairable ?? true,
    exportReport: async (format) => {
      calls.push(`export ${format}`);
      if (options.fail) throw options.fail;
    },
    repairRows: async (rows) => {
      calls.push(`repair ${rows.join(',')}`);
      if (options.fail) throw options.fail;
      return options.outcomes;
    },
    post: (m) => posted.push(m),
    showError: (m) => errors.push(m),
  };
  return { host, calls, posted, errors };
}

describe('reconcile page messages (extension side)', () => {
  it('exports in the format asked for (JSON unless CSV)', async () => {
    const f = fakeHost();
    await handlePageMessage({ type: 'export', format: 'csv' }, f.host);
    await handlePageMessage({ type: 'export', format: 'json' }, f.host);
    await handlePageMessage({ type: 'export', format: 'xlsx' }, f.host);
    assert.deepEqual(f.calls, ['export csv', 'export json', 'export json']);
    assert.deepEqual([f.posted, f.errors], [[], []]);
  });

  it('repairs the chosen rows and posts one outcome per row back to the page', async () => {
    const outcomes = [
      { index: 1, text: '✔ 5 → 3', ok: true },
      { index: 2, text: 'skipped: changed meanwhile', ok: false },
    ];
    const f = fakeHost({ outcomes });
    await handlePageMessage({ type: 'repair', rows: [1, 2] }, f.host);
    assert.deepEqual(f.calls, ['repair 1,2']);
    assert.deepEqual(f.posted, [{ type: 'repaired', outcomes }]);
  });

  it('posts nothing when the user declines the confirmation', async () => {
    const f = fakeHost({ outcomes: undefined });
    await handlePageMessage({ type: 'repair', rows: [0] }, f.host);
    assert.deepEqual([f.calls, f.posted, f.errors], [['repair 0'], [], []]);
  });

  it('never repairs from a read-only page, and ignores what the page does not send', async () => {
    const readOnly = fakeHost({ repairable: false });
    await handlePageMessage({ type: 'repair', rows: [0] }, readOnly.host);
    assert.deepEqual(readOnly.calls, []);
    const f = fakeHost();
    for (const m of [undefined, null, 'repair', { type: 'delete' }, { type: 'repair' }, { type: 'repair', rows: [] }, { type: 'repair', rows: ['1', -1, 1.5] }]) {
      await handlePageMessage(m, f.host);
    }
    assert.deepEqual([f.calls, f.posted, f.errors], [[], [], []]);
  });

  it('passes each row once, dropping anything that is not a row index', () => {
    assert.deepEqual(parsePageMessage({ type: 'repair', rows: [2, 2, 'x', 0, -3, 0] }), { type: 'repair', rows: [2, 0] });
  });

  it('shows a failure instead of rejecting (a ReconcileError as it is, anything else named by the action)', async () => {
    const r = fakeHost({ fail: new ReconcileError('Table "Social" not found.', 'table-not-found') });
    await handlePageMessage({ type: 'repair', rows: [0] }, r.host);
    const e = fakeHost({ fail: new Error('EACCES') });
    await handlePageMessage({ type: 'export', format: 'csv' }, e.host);
    assert.deepEqual([...r.errors, ...e.errors], ['Table "Social" not found.', 'Export failed: EACCES']);
  });

  it('exports the report as CSV or as indented JSON ending in a newline', () => {
    const report = sampleReport({ drifted: [{ key: { PK: 'POST#1', SK: 'META' }, stored: 1, actual: 2, drift: 1 }], orphans: [] });
    assert.equal(exportText(report, 'csv'), toCsv(report));
    assert.equal(exportText(report, 'json'), JSON.stringify(report, null, 2) + '\n');
    assert.deepEqual(JSON.parse(exportText(report, 'json')), report);
  });
});
