/**
 * Real-world files, end to end: extract -> expression validator -> rules, as an editor or the CLI runs them.
 *
 * Every file in test/fixtures/realworld is a scenario written in the style of public DynamoDB code (SDK v3 low-level and
 * DocumentClient, SDK v2, boto3 client and Table, AWS CLI JSON, Step Functions) or a look-alike that is not DynamoDB.
 * Its header declares what the pipeline must report (JSON files, which have no comments, use `<name>.expect`):
 *   @sites N | @sites N+          number of requests found (at least N with `+`)
 *   @expect <rule>:<severity> `<exact source text under the range>`     (one line per finding; `@expect none`)
 * The findings must match exactly (no more, no fewer), in every host language. Every quick fix and "disable for this
 * line" action offered on them must remove its finding without breaking anything else. Then the same files are cut at
 * many prefix lengths (never throws, always answers, complete requests before the cut still found), have spans deleted
 * in the middle, and are typed into the incremental extractor (the result after the last keystroke equals a fresh
 * extraction).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createDocumentExtractor, ensureParser, extract, initParsers, languageIdForPath, type RequestSite } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import { applyEdits } from '../../../server/src/rules/edit';
import type { Finding } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';
import { rng } from '../../support/rng';

const DIR = join(__dirname, '..', '..', 'fixtures', 'realworld');

/** Python's grammar and the Go and Java ones (loaded on first use by an editor; a test loads them up front). */
const loadParsers = () => Promise.all([initParsers(), ensureParser('go'), ensureParser('java')]);

interface Scenario {
  file: string;
  languageId: string;
  text: string;
  sites: { count: number; atLeast: boolean };
  expect: string[];
}

/** The header: the leading comment block of a source file, or the sidecar `.expect` of a JSON file. */
function header(file: string, text: string): string {
  const sidecar = join(DIR, file.replace(/\.jsonc?$/, '') + '.expect');
  if (/\.json$/.test(file)) return readFileSync(sidecar, 'utf8');
  const lines = text.split('\n');
  const end = lines.findIndex((l) => !/^\s*(\/\/|#)/.test(l));
  return lines.slice(0, end < 0 ? lines.length : end).join('\n');
}

function scenario(file: string): Scenario {
  const text = readFileSync(join(DIR, file), 'utf8');
  const languageId = languageIdForPath(file);
  assert.ok(languageId, `${file}: no language for this extension`);
  const h = header(file, text);
  const sites = /@sites\s+(\d+)(\+?)/.exec(h);
  assert.ok(sites, `${file}: the header must declare @sites`);
  const expect = [...h.matchAll(/@expect\s+([a-z-]+):(error|warning|info|hint)\s+`([^`]*)`/g)].map((m) => `${m[1]}:${m[2]}@${m[3]}`);
  assert.ok(expect.length > 0 || /@expect\s+none\b/.test(h), `${file}: the header must declare @expect lines or @expect none`);
  return { file, languageId, text, sites: { count: Number(sites[1]), atLeast: sites[2] === '+' }, expect };
}

const FILES = readdirSync(DIR)
  .filter((f) => !f.endsWith('.expect'))
  .sort();

function lint(text: string, languageId: string): { sites: RequestSite[]; findings: Finding[] } {
  const res = extract(text, languageId);
  return { sites: res.sites, findings: runRules(text, languageId, res.sites) };
}

const show = (text: string, f: Finding) => `${f.ruleId}:${f.severity}@${text.slice(f.range.start, f.range.end)}`;
const sorted = (xs: string[]) => [...xs].sort();
const siteId = (s: RequestSite) => `${s.api}@${s.range.start}-${s.range.end}`;

/** Cut points: every line end, plus random offsets (the same ones on every run). */
function cuts(text: string, seed: number, random = 120): number[] {
  const out = new Set<number>([0, text.length]);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.add(i);
  const r = rng(seed);
  for (let i = 0; i < random; i++) out.add(Math.floor(r() * text.length));
  return [...out].sort((a, b) => a - b);
}

describe('real-world files, end to end', function () {
  before(() => loadParsers());

  it('the fixture folder holds the scenarios (every header well formed)', () => {
    const all = FILES.map(scenario);
    assert.ok(all.length >= 20, `${all.length} scenarios`);
    assert.ok(all.some((s) => s.sites.count === 0), 'negative files present');
    for (const lang of ['typescript', 'javascript', 'python', 'json', 'jsonc']) assert.ok(all.some((s) => s.languageId === lang), lang);
  });

  for (const file of FILES) {
    describe(file, () => {
      const sc = () => scenario(file);

      it('finds the requests it declares', () => {
        const s = sc();
        const { sites } = lint(s.text, s.languageId);
        if (s.sites.atLeast) assert.ok(sites.length >= s.sites.count, `${sites.length} sites, expected at least ${s.sites.count}`);
        else assert.equal(sites.length, s.sites.count, sites.map((x) => `${x.api} ${JSON.stringify(s.text.slice(x.nameRange.start, x.nameRange.end))}`).join(', '));
      });

      it('reports exactly the declared findings (rule, severity, source text under the range)', () => {
        const s = sc();
        const { findings } = lint(s.text, s.languageId);
        assert.deepEqual(sorted(findings.map((f) => show(s.text, f))), sorted(s.expect));
        for (const f of findings) assert.ok(f.message.trim().length > 0, `${f.ruleId}: a message`);
      });

      it('each quick fix removes its finding, keeps every request, and adds no other finding', () => {
        const s = sc();
        const before = lint(s.text, s.languageId);
        const count = (fs: Finding[], id: string) => fs.filter((f) => f.ruleId === id).length;
        const problems: string[] = [];
        for (const f of before.findings) {
          for (const fix of f.fixes ?? []) {
            const after = lint(applyEdits(s.text, fix.edits), s.languageId);
            const what = `${show(s.text, f)}: ${fix.title}`;
            if (after.sites.length !== before.sites.length) problems.push(`${what}: ${after.sites.length} requests instead of ${before.sites.length}`);
            if (count(after.findings, f.ruleId) >= count(before.findings, f.ruleId)) problems.push(`${what}: finding not removed`);
            const added = new Set(after.findings.filter((g) => count(after.findings, g.ruleId) > count(before.findings, g.ruleId)).map((g) => g.ruleId));
            if (added.size) problems.push(`${what}: new ${[...added].join(', ')}`);
          }
        }
        assert.deepEqual(problems, []);
      });

      it('"disable for this line" silences exactly that finding and changes nothing else', () => {
        const s = sc();
        const doc = TextDocument.create(`file:///realworld/${file}`, s.languageId, 1, s.text);
        const service = new DynalintService();
        const before = lint(s.text, s.languageId).findings;
        const problems: string[] = [];
        for (const f of before) {
          const range = { start: doc.positionAt(f.range.start), end: doc.positionAt(f.range.end) };
          const actions = service.codeActions(doc, DEFAULT_SETTINGS, range, ['quickfix']).filter((a) => a.title === `Disable ${f.ruleId} for this line`);
          if (s.languageId === 'json') {
            assert.deepEqual(actions, [], 'JSON has no comments: no suppression comment is offered');
            continue;
          }
          if (actions.length !== 1) {
            problems.push(`${show(s.text, f)}: ${actions.length} disable actions`);
            continue;
          }
          const out = TextDocument.applyEdits(doc, Object.values(actions[0].edit?.changes ?? {})[0] ?? []);
          const line = doc.positionAt(f.range.start).line;
          const sameLine = (g: Finding) => g.ruleId === f.ruleId && doc.positionAt(g.range.start).line === line;
          const expected = sorted(before.filter((g) => !sameLine(g)).map((g) => show(s.text, g)));
          const actual = sorted(lint(out, s.languageId).findings.map((g) => show(out, g)));
          if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${show(s.text, f)}: after disabling, [${actual.join(' | ')}] instead of [${expected.join(' | ')}]`);
        }
        assert.deepEqual(problems, []);
      });

      it('fix-all leaves no safe fix to apply and keeps every request', () => {
        const s = sc();
        const doc = TextDocument.create(`file:///realworld/${file}`, s.languageId, 1, s.text);
        const edit = new DynalintService().fixAll(doc, DEFAULT_SETTINGS);
        const out = edit ? TextDocument.applyEdits(doc, [edit]) : s.text;
        const after = lint(out, s.languageId);
        assert.equal(after.sites.length, lint(s.text, s.languageId).sites.length);
        assert.deepEqual(after.findings.filter((f) => f.fixes?.some((x) => x.safe)).map((f) => show(out, f)), []);
      });

      it('the language service reports the same as the pipeline', () => {
        const s = sc();
        const doc = TextDocument.create(`file:///realworld/${file}`, s.languageId, 1, s.text);
        const analysis = new DynalintService().analyze(doc, DEFAULT_SETTINGS);
        assert.equal(analysis.skipped, undefined);
        assert.deepEqual(sorted(analysis.findings.map((f) => show(s.text, f))), sorted(lint(s.text, s.languageId).findings.map((f) => show(s.text, f))));
      });
    });
  }
});

describe('real-world files, cut and typed', function () {
  before(() => loadParsers());

  FILES.forEach((file, n) => {
    it(`${file}: every sampled prefix answers, and keeps the complete requests before the cut`, () => {
      const s = scenario(file);
      const full = lint(s.text, s.languageId).sites;
      for (const cut of cuts(s.text, 1000 + n)) {
        const prefix = s.text.slice(0, cut);
        const { sites, findings } = lint(prefix, s.languageId);
        assert.ok(Array.isArray(sites) && Array.isArray(findings), `cut ${cut}`);
        for (const f of findings) assert.ok(f.range.start >= 0 && f.range.start <= f.range.end && f.range.end <= cut, `cut ${cut}: ${f.ruleId} range inside the text`);
        const found = new Set(sites.map(siteId));
        // A request whose whole call (and everything it reads, which comes before it) lies before the cut.
        for (const site of full.filter((x) => x.range.end <= cut)) assert.ok(found.has(siteId(site)), `cut ${cut}: lost ${siteId(site)} (${JSON.stringify(s.text.slice(site.nameRange.start, site.nameRange.end))})`);
      }
    });

    it(`${file}: spans deleted in the middle still answer, with ranges inside the text`, () => {
      const s = scenario(file);
      const r = rng(3000 + n);
      for (let i = 0; i < 60; i++) {
        const a = Math.floor(r() * s.text.length);
        const b = Math.min(s.text.length, a + 1 + Math.floor(r() * 200));
        const text = s.text.slice(0, a) + s.text.slice(b);
        const { sites, findings } = lint(text, s.languageId);
        assert.ok(Array.isArray(sites) && Array.isArray(findings), `delete ${a}-${b}`);
        for (const x of sites) assert.ok(x.range.start >= 0 && x.range.end <= text.length, `delete ${a}-${b}: site range`);
        for (const f of findings) assert.ok(f.range.start >= 0 && f.range.start <= f.range.end && f.range.end <= text.length, `delete ${a}-${b}: ${f.ruleId} range`);
      }
    });

    it(`${file}: typed in chunks into the incremental extractor, ends where a fresh extraction is`, () => {
      const s = scenario(file);
      const doc = createDocumentExtractor(s.languageId);
      try {
        const steps = cuts(s.text, 2000 + n, 40);
        for (const cut of steps) assert.ok(Array.isArray(doc.update(s.text.slice(0, cut)).sites), `step ${cut}`);
        const fresh = lint(s.text, s.languageId);
        const last = doc.update(s.text).sites;
        assert.deepEqual(last.map(siteId), fresh.sites.map(siteId));
        assert.deepEqual(
          runRules(s.text, s.languageId, last).map((f) => show(s.text, f)),
          fresh.findings.map((f) => show(s.text, f)),
        );
      } finally {
        doc.dispose();
      }
    });
  });
});
