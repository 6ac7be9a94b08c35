/**
 * The rule cache does not look into a reused entry whose findings all handed out nothing in the last run, while that
 * would stay so (rules/incremental.ts `SiteEntry.repeatOf`, `SiteEntry.dropped`): every finding a repeat of one
 * handed out before (the users of a shared UpdateExpression constant repeat its one finding), or all dropped by the
 * rule's `dropIf` under the same token (set-without-if-not-exists while a Put creates the item and no Put came or went).
 * Each version's findings must equal a fresh lint, also when the finding repeated or the creating Put changes in
 * another statement; `stats.unasked` tells the entries were skipped.
 */
import { strict as assert } from 'node:assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { extract } from '../../../server/src/extract';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol/settings';
import { runRules } from '../../../server/src/rules';
import type { Finding } from '../../../server/src/rules/types';
import { DynalintService } from '../../../server/src/service';

const HEADER = `import { DynamoDBClient, UpdateItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
const TABLE = 'Posts';
const INCREMENT = 'SET #likes = #likes + :one';
`;

const user = (i: number) => `
export async function like${i}(postId: string): Promise<void> {
  const now = ${i};
  await client.send(new UpdateItemCommand({ TableName: TABLE, Key: { PK: { S: postId } }, UpdateExpression: INCREMENT, ExpressionAttributeNames: { '#likes': 'likes' }, ExpressionAttributeValues: { ':one': { N: '1' } } }));
}
`;

/** A Put creating the item the users update, with the counter set (then their findings are dropped). */
const CREATE = `
export async function create(postId: string): Promise<void> {
  await client.send(new PutItemCommand({ TableName: TABLE, Item: { PK: { S: postId }, likes: { N: '0' } } }));
}
`;

const plain = (fs: readonly Finding[]) => JSON.parse(JSON.stringify(fs)) as unknown;

/** Lint each text through one service, each compared with a fresh lint; the stats of each lint after the first. */
function lint(texts: string[]): { findings: number; unasked: number; reused: number }[] {
  const service = new DynalintService();
  const uri = 'file:///w/likes.ts';
  const out: { findings: number; unasked: number; reused: number }[] = [];
  texts.forEach((text, v) => {
    const got = service.analyze(TextDocument.create(uri, 'typescript', v + 1, text), DEFAULT_SETTINGS);
    const fresh = extract(text, 'typescript', { maxFileSize: DEFAULT_SETTINGS.maxFileSize });
    const want = runRules(text, 'typescript', fresh.sites, { settingsRules: DEFAULT_SETTINGS.rules });
    assert.deepEqual(plain(got.findings), plain(want), `version ${v + 1}\n${text}`);
    const s = service.ruleCacheStats(uri)!;
    out.push({ findings: got.findings.filter((f) => f.ruleId === 'set-without-if-not-exists').length, unasked: s.unasked, reused: s.reused });
  });
  return out;
}

/** Type a space into function `i`'s body and delete it again, `n` times (two versions each). */
function typing(text: string, i: number, n: number): string[] {
  const at = text.indexOf(`const now = ${i};`);
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(text.slice(0, at) + ' ' + text.slice(at), text);
  return out;
}

const N = 12;
const users = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => user(from + k)).join('');

describe('rule cache: entries that hand out nothing are not looked into', () => {
  it('the users of a shared constant repeating its one finding: skipped while the finding they repeat is handed out again', () => {
    const text = HEADER + users(0, N);
    // Typing in a function in the middle, then in the first user (its finding is the one handed out: a new object).
    const stats = lint([text, ...typing(text, 6, 3), ...typing(text, 0, 2), ...typing(text, 6, 1)]);
    for (const s of stats) assert.equal(s.findings, 1);
    // Typing in function 6: every user is skipped but the first (its finding is the one handed out), function 6
    // (re-extracted) and the second (its repeat is the one that turns the repeat map on). Typing in function 0: its
    // finding is a new object at every version, so every user is looked into; once function 0 is left alone, skipped.
    const n = N - 3;
    assert.deepEqual(stats.map((s) => s.unasked), [0, n, n, n, n, n, n, 0, 0, 0, 0, n, n]);
  });

  it('the first user gone, then back, and the constant changed: every version equals a fresh lint', () => {
    const text = HEADER + users(0, N);
    const without = HEADER + users(1, N);
    const changed = text.replace("'SET #likes = #likes + :one'", "'SET #likes = #likes + :two'");
    const stats = lint([text, ...typing(text, 6, 2), without, ...typing(without, 6, 2), text, ...typing(text, 5, 2), changed, text]);
    for (const s of stats) assert.equal(s.findings, 1);
  });

  it('findings dropped while a Put creates the item: skipped while no Put comes or goes, asked again when one does', () => {
    const text = HEADER + CREATE + users(0, N);
    const noPut = HEADER + users(0, N);
    const otherPut = HEADER + CREATE.replace("likes: { N: '0' }", "views: { N: '0' }") + users(0, N);
    const stats = lint([text, ...typing(text, 6, 2), noPut, ...typing(noPut, 6, 1), text, ...typing(text, 3, 1), otherPut, text]);
    // Created: no finding; without the Put (or with one not setting the counter): the constant's one finding.
    assert.deepEqual(stats.map((s) => s.findings), [0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0]);
    // Typing in function 6 with the Put in place: every other user's finding dropped again without being asked.
    assert.deepEqual(stats.slice(2, 5).map((s) => s.unasked), [N - 1, N - 1, N - 1]);
    // The Put went (its site gone: a new token): asked again.
    assert.equal(stats[5].unasked, 0);
  });
});
