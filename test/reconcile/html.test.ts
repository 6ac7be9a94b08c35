import { strict as assert } from 'node:assert';
import { reconcileHtml } from '../../client/src/reconcile/html';
import { toCsv, formatTable } from '../../server/src/reconcile/format';
import { sampleReport } from './report-fixture';

const report = sampleReport({
  drifted: [
    { key: { PK: 'POST#<script>alert(1)</script>', SK: 'META' }, stored: 1, actual: 4, drift: 3 },
    { key: { PK: 'POST#b2c4', SK: 'META' }, stored: null, actual: 2, drift: 2, note: 'a "quoted", note' },
    { key: { PK: 'POST#f101', SK: 'META' }, stored: 2, actual: 0, drift: -2 },
  ],
  orphans: [{ key: { PK: 'POST#zz' }, actual: 2 }],
});

describe('reconcile results page and exports', () => {
  const html = reconcileHtml(report, { nonce: 'N0NCE', cspSource: 'vscode-resource:', repairable: true, connection: 'local (http://localhost:8000)' });

  it('escapes keys and notes, and locks scripts to the nonce', () => {
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(html.includes('POST#&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(html.includes("script-src 'nonce-N0NCE'"));
    assert.equal(html.match(/<script nonce="N0NCE">/g)?.length, 1);
    assert.equal(html.match(/<script/g)?.length, 1);
  });

  it('renders one selectable row per drifted parent, highlighted by direction, with totals and RCU', () => {
    const rows = [...html.matchAll(/<tr data-index="(\d)" class="(\w+)">/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(rows, [['0', 'under'], ['1', 'under'], ['2', 'over']]);
    assert.equal(html.match(/class="pick"/g)?.length, 3);
    assert.ok(html.includes('<td class="num" data-v=""><em>missing</em></td>'));
    assert.ok(html.includes('<b id="drifted">3</b>drifted'));
    assert.ok(html.includes('<b>1.5</b>RCU consumed'));
    assert.ok(html.includes('<b>+3</b>net drift'));
    assert.ok(html.includes('<li>PK=POST#zz — 2 without a parent item</li>'));
    assert.ok(html.includes('<button id="repair" disabled>Repair selected…</button>'));
    const readOnly = reconcileHtml(report, { nonce: 'n', cspSource: 'x', repairable: false, connection: 'c' });
    assert.ok(!readOnly.includes('id="repair"') && !readOnly.includes('class="pick"'));
  });

  it('exports CSV with one column per key attribute, quoting where needed', () => {
    assert.equal(
      toCsv(report),
      'PK,SK,stored,actual,drift,note\n' +
        'POST#<script>alert(1)</script>,META,1,4,3,\n' +
        'POST#b2c4,META,,2,2,"a ""quoted"", note"\n' +
        'POST#f101,META,2,0,-2,\n',
    );
  });

  it('prints a terminal table with a note column only when a row has a note', () => {
    const lines = formatTable(report).split('\n');
    assert.equal(lines[1], 'key                                         stored  actual  drift  note');
    assert.equal(lines[4], 'PK=POST#b2c4 SK=META                       invalid       2     +2  a "quoted", note');
    assert.equal(lines.at(-1), '3 drifted of 6 checked, 1 without a parent item; 36 items read, 1.5 RCU consumed, 4 requests, 1.23 s');
  });
});
