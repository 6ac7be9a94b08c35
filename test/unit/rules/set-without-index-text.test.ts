/**
 * set-without-if-not-exists keeps its Put index per sites list with the text it was built for. After an edit the
 * previous list stays alive (the rule cache's siteChange holds it; the new index is built from its entry): that entry
 * must not keep the previous version's text (a 50,000-line file's whole text, 2.75 MB), and the findings must stay
 * those of a fresh lint.
 */
import { strict as assert } from 'node:assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { extract } from '../../../server/src/extract';
import { runRules } from '../../../server/src/rules';
import { siteChange } from '../../../server/src/rules/incremental';
import { indexedText } from '../../../server/src/rules/set-without-if-not-exists';
import { DynalintService } from '../../../server/src/service';
import { tsFile, middle } from '../../../scripts/bench/extract';

describe('set-without-if-not-exists: the previous sites list does not keep its text', () => {
  it('after edits, only the current list keeps a text; findings equal a fresh lint', () => {
    const settings = { ...DEFAULT_SETTINGS, maxFileSize: 16 << 20 };
    const svc = new DynalintService();
    const start = tsFile(400);
    const doc = TextDocument.create('file:///index-text.ts', 'typescript', 1, start);
    let prev = svc.analyze(doc, settings).sites;
    assert.equal(indexedText(prev), doc.getText());
    let from = 0;
    for (let i = 0; i < 4; i++) {
      const text = doc.getText();
      const at = i === 0 ? middle(text, "'ADD likes :") : text.indexOf("'ADD likes :", from) + 4;
      from = at + 2000;
      TextDocument.update(doc, [{ range: { start: doc.positionAt(at), end: doc.positionAt(at) }, text: ' ' }], doc.version + 1);
      const analysis = svc.analyze(doc, settings);
      const sites = analysis.sites;
      assert.equal(siteChange(sites)?.prev, prev, `edit ${i}: linted from the previous list`);
      assert.equal(indexedText(sites), doc.getText(), `edit ${i}: the current list keeps the current text`);
      assert.equal(indexedText(prev), undefined, `edit ${i}: the previous list's text let go`);
      const fresh = runRules(doc.getText(), 'typescript', extract(doc.getText(), 'typescript').sites, { settingsRules: settings.rules });
      const mine = (fs: { ruleId: string }[]) => JSON.stringify(fs.filter((f) => f.ruleId === 'set-without-if-not-exists'));
      assert.equal(mine(analysis.findings), mine(fresh), `edit ${i}: findings`);
      assert.ok(fresh.some((f) => f.ruleId === 'set-without-if-not-exists'));
      prev = sites;
    }
  });
});
