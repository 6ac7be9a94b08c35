/** Table states for the export tests: A (exported in full), B and C (reached by incremental exports). */
import { AttributeValue } from '@aws-sdk/client-dynamodb';
import { Item, comment, like, likes, n, post, s, socialItems } from '../../server/src/reconcile/seed';

export const PATTERNS = {
  likes: { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' },
  plays: { parentSk: 'STATS#TOTAL', counter: 'play_count', shardPrefix: 'STATS#TOTAL#' },
  totals: { counter: 'play_count', shardPrefix: 'STATS#TOTAL#' },
  shardedLikes: { counter: 'n', shardPrefix: 'COUNT#', childPrefix: 'LIKE#' },
} as const;

const shard = (pk: string, i: number, v: AttributeValue, attr = 'play_count'): Item => ({ PK: s(pk), SK: s(`STATS#TOTAL#${i}`), [attr]: v });
const countShard = (pk: string, i: number, v: AttributeValue): Item => ({ PK: s(pk), SK: s(`COUNT#${i}`), n: v });

/** Every kind of row: drift both ways, missing and non-number counters, orphans, shards, a bad shard, non-ASCII keys. */
export function stateA(): Item[] {
  return [
    ...socialItems().items,
    post('s1', undefined, { likeTally: s('3') }),
    ...likes('s1', 3),
    post('b1', undefined, { likeTally: { BOOL: true } }),
    ...likes('b1', 1),
    ...likes('gone', 2),
    post('ü✓', 1),
    ...likes('ü✓', 2),
    post('sh1', 9),
    ...likes('sh1', 4),
    countShard('POST#sh1', 0, n(2)),
    countShard('POST#sh1', 1, n(1)),
    countShard('POST#sh1', 2, s('x')),
    shard('VID#bad', 0, n(4)),
    shard('VID#bad', 1, s('4')),
    { PK: s('VID#bad'), SK: s('STATS#TOTAL'), play_count: n(8) },
  ];
}

function key(it: Item): string {
  return JSON.stringify([it.PK, it.SK]);
}

function edit(items: Item[], drop: (it: Item) => boolean, put: Item[]): Item[] {
  const out = new Map(items.filter((it) => !drop(it)).map((it) => [key(it), it]));
  for (const it of put) out.set(key(it), it);
  return [...out.values()];
}

const is = (pk: string, sk?: string) => (it: Item) => it.PK.S === pk && (sk === undefined || it.SK.S === sk);

/** A, then: likes added and removed without the counter, a counter fixed, a post deleted, a post added, more orphans. */
export function stateB(): Item[] {
  return edit(
    stateA(),
    (it) => is('POST#c7d1', 'LIKE#USER#u000000')(it) || is('POST#e55a')(it),
    [
      like('a91f', 'late1'),
      like('a91f', 'late2'),
      post('b2c4', 3),
      post('n1', 1),
      like('n1', 'x'),
      ...likes('gone2', 1),
      post('s1', 3),
      shard('VID#9f3a', 0, n(8)),
      comment('a91f', 9),
    ],
  );
}

/** B, then: a parent deleted while a like arrives (an orphan), a post re-created, a like removed. */
export function stateC(): Item[] {
  return edit(stateB(), (it) => is('POST#f101', 'META')(it) || is('POST#n1', 'LIKE#USER#x')(it), [like('f101', 'y'), post('e55a', 0)]);
}
