/**
 * Per edit, the rule layer's work follows what the edit touched (rules/incremental.ts `RuleCache.results`, run.ts):
 * the hand-out loop visits only the sites recomputed and the reused ones with findings or shared-source answers
 * (`stats.visited`; the others are counted as reused without being looked at again), and a finding whose fix is
 * withheld (fix consistency: a fix editing a constant shared by several requests) is handed out as the same object
 * from lint to lint while the same fixes are kept. Every version's findings must equal a fresh lint.
 */
import { strict as assert } from 'node:assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { extract } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import type { Finding } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';
import type { RuleCacheStats } from '../../../server/src/rules/incremental';

const HEADER = `import { DynamoDBClient, UpdateItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const TABLE = 'Posts';
const INCREMENT = 'SET #likes = #likes + :one';
`;

/** A request without findings. */
const plain = (i: number) => `
export async function get${i}(postId: string) {
  const now = ${i};
  return client.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: postId } } }));
}
`;

/** A user of the shared constant (its one finding, repeated by every user; its wrap fix edits the constant). */
const user = (i: number) => `
export async function like${i}(postId: string): Promise<void> {
  const now = ${1000 + i};
  await client.send(new UpdateItemCommand({ TableName: TABLE, Key: { PK: { S: postId } }, UpdateExpression: INCREMENT, ExpressionAttributeNames: { '#likes': 'likes' }, ExpressionAttributeValues: { ':one': { N: '1' } } }));
}
`;

const P = 30;
const U = 6;
// The users first: the edits below come after the first user's finding (it lies where it did: the same object).
const TEXT = HEADER + Array.from({ length: U }, (_, i) => user(i)).join('') + Array.from({ length: P }, (_, i) => plain(i)).join('');

const json = (fs: readonly Finding[]) => JSON.parse(JSON.stringify(fs)) as unknown;

/** Lint each text through one service, each compared with a fresh lint; the findings and the stats of each lint. */
function lint(texts: string[]): { findings: Finding[]; stats: RuleCacheStats; sites: number }[] {
  const service = new DynalintService();
  const uri = 'file:///w/quiet.ts';
  return texts.map((text, v) => {
    const got = service.analyze(TextDocument.create(uri, 'typescript', v + 1, text), DEFAULT_SETTINGS);
    const fresh = extract(text, 'typescript', { maxFileSize: DEFAULT_SETTINGS.maxFileSize });
    const want = runRules(text, 'typescript', fresh.sites, { settingsRules: DEFAULT_SETTINGS.rules });
    assert.deepEqual(json(got.findings), json(want), `version ${v + 1}`);
    return { findings: got.findings, stats: { ...service.ruleCacheStats(uri)! }, sites: fresh.sites.length };
  });
}

/** Type a space before `needle` and delete it again, `n` times (two versions each). */
function typing(text: string, needle: string, n: number): string[] {
  const at = text.indexOf(needle);
  assert.ok(at > 0, needle);
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(text.slice(0, at) + ' ' + text.slice(at), text);
  return out;
}

describe('rule cache: the per-edit work follows what the edit touched', () => {
  it('the hand-out loop visits the recomputed sites and the reused ones with findings, not the others', () => {
    const runs = lint([TEXT, ...typing(TEXT, 'const now = 7;', 2), ...typing(TEXT, `const now = ${1000 + 3};`, 2)]);
    for (const r of runs) assert.equal(r.stats.computed + r.stats.reused, r.sites);
    for (const r of runs.slice(1)) {
      // One function re-extracted: its site recomputed; the users of the constant (findings) visited; the plain
      // requests (no findings, no shared-source answers) not.
      assert.equal(r.stats.computed, 1);
      // Typing in a user: the site recomputed is one of them.
      assert.equal(r.stats.visited, runs.indexOf(r) > 4 ? U : 1 + U, JSON.stringify(r.stats));
    }
  });

  it('a finding with a withheld fix is the same object from lint to lint while the same fixes are kept', () => {
    // Typing after the users; one user left (the fix offered again: it edits the constant for its one user); six again.
    const one = HEADER + user(0) + Array.from({ length: P }, (_, i) => plain(i)).join('');
    const texts = [TEXT, ...typing(TEXT, 'const now = 7;', 2), one, ...typing(one, 'const now = 7;', 1), TEXT, ...typing(TEXT, 'const now = 11;', 1)];
    const runs = lint(texts);
    const found = runs.map((r) => r.findings.find((f) => f.ruleId === 'set-without-if-not-exists'));
    const fixes = found.map((f) => f?.fixes?.length ?? 0);
    assert.ok(fixes[5] > fixes[0], JSON.stringify(fixes));
    assert.deepEqual(fixes, [...texts.map((_, v) => (v >= 5 && v < 8 ? fixes[5] : fixes[0]))]);
    for (const v of [1, 2, 3, 4]) assert.equal(found[v], found[0], `version ${v + 1}`);
    for (const v of [6, 7]) assert.equal(found[v], found[5], `version ${v + 1}`);
    for (const v of [9, 10]) assert.equal(found[v], found[8], `version ${v + 1}`);
  });
});
