/**
 * The source articles' examples as whole files: the safe versions lint clean (every rule, expression rules included),
 * the broken ones flag exactly what is broken, and applying each fix removes its finding.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits } from '../../../server/src/rules/edit';
import type { RunConfig } from '../../../server/src/rules';
import { lint, parsersReady, slice } from './check';

const DIR = join(__dirname, '..', '..', 'fixtures', 'rules');
const LANG: Record<string, string> = { json: 'json', ts: 'typescript', py: 'python' };
const STRICT: RunConfig = { settingsRules: { 'non-idempotent-counter': 'hint' } };

const FIXTURES: { file: string; config?: RunConfig; expect: string[] }[] = [
  { file: 'like-post.safe.json', expect: [] },
  { file: 'like-post.broken.json', expect: ['unguarded-add-in-transaction:warning@"Put"'] },
  { file: 'unlike-post.safe.json', expect: [] },
  { file: 'unlike-post.broken.json', expect: ['unguarded-add-in-transaction:warning@"Delete"'] },
  { file: 'likes.safe.ts', expect: [] },
  {
    file: 'likes.broken.ts',
    expect: [
      'separate-child-and-counter-writes:warning@UpdateCommand',
      'set-without-if-not-exists:warning@likeTally = likeTally + :one',
      'unguarded-add-in-transaction:info@Delete',
      'count-children-on-read:info@\'COUNT\'',
    ],
  },
  { file: 'video-plays.safe.py', expect: [] },
  {
    file: 'video-plays.broken.py',
    expect: [
      'set-without-if-not-exists:warning@play_count = play_count + :one',
      'add-on-non-number:error@:one',
      "batch-write-update-or-condition:error@'UpdateRequest'",
    ],
  },
  { file: 'conditional-update.safe.py', config: STRICT, expect: [] },
  {
    file: 'credits.broken.py',
    config: STRICT,
    expect: [
      'non-idempotent-counter:hint@credits :amt',
      'decrement-without-floor:warning@credits = credits - :amt',
      'non-idempotent-counter:hint@credits = credits - :amt',
      'set-without-if-not-exists:warning@credits = credits - :amt',
    ],
  },
];

describe('article fixtures', () => {
  before(parsersReady);
  for (const fx of FIXTURES) {
    const lang = LANG[fx.file.split('.').pop()!];
    const text = () => readFileSync(join(DIR, fx.file), 'utf8');
    it(`${fx.file}: ${fx.expect.length ? fx.expect.length + ' findings' : 'clean'}`, () => {
      const t = text();
      assert.deepEqual(lint(t, lang, fx.config).map((f) => `${f.ruleId}:${f.severity}@${slice(t, f)}`), fx.expect);
    });
    if (!fx.expect.length) continue;
    it(`${fx.file}: each fix removes its finding and adds none`, () => {
      const t = text();
      const before = lint(t, lang, fx.config);
      for (const f of before) {
        for (const fix of f.fixes ?? []) {
          const out = applyEdits(t, fix.edits);
          const after = lint(out, lang, fx.config);
          assert.equal(after.filter((g) => g.ruleId === f.ruleId).length, before.filter((g) => g.ruleId === f.ruleId).length - 1, `${f.ruleId}: ${fix.title}`);
          assert.ok(after.length < before.length, `${fix.title}: no new findings (${after.map((g) => g.ruleId).join(', ')})`);
        }
      }
    });
  }
});
