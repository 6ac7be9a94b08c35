/**
 * Fixes write the document's own line break: every fix offered on the fixture files, converted to CRLF, inserts no
 * bare LF (quick fixes, the disable comments and fix-all all take their edits from the rules' findings). An LF file
 * keeps LF.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageIdForPath } from '../../../server/src/extract';
import { fixAll } from '../../../server/src/fix/apply';
import { applyEdits, lineBreakOf } from '../../../server/src/rules/edit';
import { disableFileEdit, disableNextLineEdit } from '../../../server/src/rules/suppression';
import { extract } from '../../../server/src/extract';
import { lint, parsersReady } from '../rules/check';

const ROOT = path.join(__dirname, '..', '..', 'fixtures');
const FILES = ['rules', 'fixes'].flatMap((dir) =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((f) => languageIdForPath(f) !== undefined && !f.includes('.safe.'))
    .map((f) => path.join(dir, f)),
);

/** Offsets of line feeds not preceded by a carriage return. */
const bareLf = (text: string) => [...text.matchAll(/(?<!\r)\n/g)].map((m) => m.index);

describe('fixes: line endings', () => {
  before(parsersReady);

  it('lineBreakOf reads the line break most lines end in (a tie is LF)', () => {
    assert.equal(lineBreakOf('a\r\nb\nc\r\n'), '\r\n');
    assert.equal(lineBreakOf('a\r\nb\nc'), '\n');
    assert.equal(lineBreakOf('a\nb\r\nc'), '\n');
    assert.equal(lineBreakOf('no break'), '\n');
    assert.equal(lineBreakOf('\nfirst'), '\n');
  });

  let multiLine = 0;
  for (const rel of FILES) {
    it(`${rel} as CRLF: no fix, disable comment or fix-all inserts a bare LF`, () => {
      const lang = languageIdForPath(rel)!;
      const text = fs.readFileSync(path.join(ROOT, rel), 'utf8').replace(/\r?\n/g, '\r\n');
      const findings = lint(text, lang);
      assert.ok(findings.length > 0, 'the fixture has findings');
      for (const f of findings) {
        for (const fix of f.fixes ?? []) {
          if (fix.edits.some((e) => e.newText.includes('\n'))) multiLine++;
          assert.deepEqual(bareLf(applyEdits(text, fix.edits)), [], `${f.ruleId}: ${fix.title}`);
        }
        const sites = extract(text, lang).sites;
        const disable = disableNextLineEdit(text, lang, f.range.start, f.ruleId, sites);
        if (disable) assert.deepEqual(bareLf(applyEdits(text, [disable])), [], `disable ${f.ruleId}`);
        const file = disableFileEdit(text, lang, f.ruleId);
        if (file) assert.deepEqual(bareLf(applyEdits(text, [file])), [], `disable ${f.ruleId} for the file`);
      }
      const all = fixAll(text, findings, (t) => lint(t, lang));
      assert.deepEqual(bareLf(all.text), [], 'fix-all');
    });
  }

  it('the fixtures exercise fixes that insert line breaks', () => assert.ok(multiLine > 5, `${multiLine} multi-line fixes`));

  it('an LF file keeps LF', () => {
    const rel = FILES.find((f) => f.endsWith('.ts'))!;
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8').replace(/\r\n/g, '\n');
    const findings = lint(text, languageIdForPath(rel)!);
    const all = fixAll(text, findings, (t) => lint(t, languageIdForPath(rel)!));
    assert.ok(all.text !== text, 'fix-all changed the file');
    assert.ok(!all.text.includes('\r'), 'no CR inserted');
  });
});
