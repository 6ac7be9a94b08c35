/**
 * The AppSync pass tests a text its prefilter rejected again only around an edit (`mayContainAppSyncNear`): exact
 * when every match the edited text can hold overlaps the edit or is joined by it, whatever the whitespace between
 * `operation` and `:` (any run). Random edits of texts without a match, the window must see every match the new text
 * has; and the document's result equals a fresh pass after each edit.
 */
import { strict as assert } from 'node:assert';
import { AppSyncDocument, mayContainAppSync, mayContainAppSyncNear } from '../../../server/src/extract/appsync';
import { rng } from './support';

const PIECES = ['operation', '            ', '\n\t\t        ', 'op', 'eration', ':', "'", '"', ' ', '\n', '\t', '      ', 'x', '@aws-', 'appsync', '@aws-appsync', 'oper', 'ation', '// c\n'];

describe('extract: the AppSync prefilter after an edit (extract-appsync-prefilter)', () => {
  it('the window around an edit of a rejected text sees every match the new text holds', () => {
    // Long whitespace runs either side of the edit.
    const ws = ' \n\t'.repeat(20);
    for (const [text, start, end, ins] of [
      [`x = {${ws}: 1}`, 5, 5, 'operation'],
      [`x = {operation${ws}}`, 14 + ws.length, 14 + ws.length, ':'],
      [`x = {operation'${ws}}`, 15 + ws.length, 15 + ws.length, ':'],
      [`x = {operationx${ws}: 1}`, 14, 15, ''],
    ] as const) {
      const next = text.slice(0, start) + ins + text.slice(end);
      assert.ok(!mayContainAppSync(text) && mayContainAppSync(next), next);
      assert.ok(mayContainAppSyncNear(next, start, start + ins.length), next);
    }
    const rand = rng(17);
    let checked = 0;
    let found = 0;
    for (let round = 0; round < 20000; round++) {
      let text = '';
      const n = Math.floor(rand() * 12);
      for (let k = 0; k < n; k++) text += PIECES[Math.floor(rand() * PIECES.length)];
      if (mayContainAppSync(text)) continue;
      const start = Math.floor(rand() * (text.length + 1));
      const end = Math.min(text.length, start + Math.floor(rand() * 4));
      let ins = '';
      for (let k = Math.floor(rand() * 3); k > 0; k--) ins += PIECES[Math.floor(rand() * PIECES.length)];
      const next = text.slice(0, start) + ins + text.slice(end);
      checked++;
      if (mayContainAppSync(next)) {
        found++;
        assert.ok(mayContainAppSyncNear(next, start, start + ins.length), JSON.stringify({ text, start, end, ins }));
      }
    }
    assert.ok(checked > 1000 && found > 100, `${checked} edits, ${found} making a match`);
  });

  it('a rejected document updated edit by edit equals a fresh pass', () => {
    const rand = rng(5);
    const doc = new AppSyncDocument('typescript', 'typescript');
    let text = "import { x } from 'y';\nexport function request(ctx) {\n  return { key: 1, payload: {} };\n}\n";
    assert.deepEqual(doc.full(text), []);
    let made = 0;
    for (let i = 0; i < 300; i++) {
      const request = rand() < 0.2 && text.indexOf('return {') >= 0;
      const start = request ? text.indexOf('return {') + 9 : Math.floor(rand() * (text.length + 1));
      const end = request ? start : Math.min(text.length, start + (rand() < 0.3 ? 1 + Math.floor(rand() * 8) : 0));
      const ins = request ? "operation: 'UpdateItem', update: { expression: 'ADD n :v', expressionValues: { ':v': 1 } }, " : PIECES[Math.floor(rand() * PIECES.length)];
      text = text.slice(0, start) + ins + text.slice(end);
      const got = doc.update(text, { start, oldEnd: end, newEnd: start + ins.length });
      const want = new AppSyncDocument('typescript', 'typescript').full(text);
      assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(want)), `edit ${i}`);
      if (want.length) made++;
      // Back to a rejected text now and then.
      if (mayContainAppSync(text) && rand() < 0.5) {
        text = "export function request(ctx) {\n  return { key: 1 };\n}\n";
        doc.full(text);
      }
    }
    assert.ok(made > 0, 'some edits made an AppSync request');
  });
});
