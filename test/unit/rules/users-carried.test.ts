/**
 * A `usersOf` answer carried from one lint to the next (`SharedHistory`/`TrackedSource`) loses the users of the sites
 * that went and keeps the others in order, without reading every user: an edit of one user's statement (the usual
 * edit in a file with a widely shared constant) looks up only the gone sites' operations.
 */
import { strict as assert } from 'node:assert';
import { extract } from '../../../server/src/extract';
import type { RequestSite } from '../../../server/src/extract/model';
import type { Operation } from '../../../server/src/extract/operations';
import { operations } from '../../../server/src/rules/analysis';
import { SharedHistory } from '../../../server/src/rules/shared';
import { PRELUDE, parsersReady } from './check';

const pre = PRELUDE['ts-doc'];
const upd = (i: number) => `doc.send(new UpdateCommand({ TableName: 'T', Key: { id: 'k${i}' }, UpdateExpression: EXPR, ExpressionAttributeValues: { ':n': 1 } }));\n`;

/** A document whose constant EXPR is used by `n` update requests (and one request not), its sites and EXPR's range. */
function shared(n: number): { sites: RequestSite[]; range: { start: number; end: number } } {
  const text = `${pre}const EXPR = 'ADD likes :n';\n${Array.from({ length: n }, (_, i) => upd(i)).join('')}${upd(n).replace('EXPR', "'SET a = :n'")}`;
  const start = text.indexOf("'ADD likes :n'") + 1;
  return { sites: extract(text, 'typescript').sites, range: { start, end: start + 3 } };
}

/** Count reads of `site` on the operations (the same values handed back). */
function countSiteReads(ops: Operation[]): { reads: number } {
  const count = { reads: 0 };
  for (const op of ops) {
    const site = op.site;
    Object.defineProperty(op, 'site', {
      configurable: true,
      enumerable: true,
      get: () => {
        count.reads++;
        return site;
      },
    });
  }
  return count;
}

describe('usersOf answers carried across lints', () => {
  before(parsersReady);

  it('drops the gone sites users and keeps the rest in order, reading none of the users kept', () => {
    const { sites, range } = shared(40);
    const history = new SharedHistory();
    const same = (start: number, end: number) => ({ start, end });
    const first = history.begin(sites, same);
    const users = first.usersOf(range);
    assert.equal(users.length, 40);
    assert.deepEqual(
      users.map((u) => u.site),
      sites.filter((s) => users.some((u) => u.site === s)),
    );

    // The next lint: two user sites went (no new one, nothing moved), told by the caller's presence.
    const gone = [users[3].site, users[17].site];
    const now = sites.filter((s) => !gone.includes(s));
    const kept = users.filter((u) => !gone.includes(u.site));
    const count = countSiteReads(sites.flatMap((s) => operations(s)));
    const second = history.begin(now, same, { has: (s) => !gone.includes(s), fresh: [], gone });
    const carried = second.usersOf(range);
    const reads = count.reads;
    assert.deepEqual(carried, kept);
    assert.equal(reads, 0);
    // Nothing more went: the same answer object is handed on.
    const third = history.begin(now, same, { has: (s) => !gone.includes(s), fresh: [], gone: [] });
    assert.equal(third.usersOf(range), carried);
  });

  it('hands back the carried answer itself when the sites that went had no user', () => {
    const { sites, range } = shared(5);
    const history = new SharedHistory();
    const same = (start: number, end: number) => ({ start, end });
    const users = history.begin(sites, same).usersOf(range);
    const other = sites.find((s) => !users.some((u) => u.site === s));
    assert.ok(other, 'the request with its own expression');
    const second = history.begin(
      sites.filter((s) => s !== other),
      same,
      { has: (s) => s !== other, fresh: [], gone: [other] },
    );
    assert.equal(second.usersOf(range), users);
  });
});
