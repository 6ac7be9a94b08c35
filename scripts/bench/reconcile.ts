/**
 * Reconcile on a seeded 100,000-child table in DynamoDB Local: items reconciled per second, and consumed RCU as a ratio
 * to the floor — every needed item read once, eventually consistent: (total bytes of the parents and children) /
 * 4 KB × 0.5, computed from the items seeded with DynamoDB's item-size rules.
 */
import { AttributeValue } from '@aws-sdk/client-dynamodb';
import { numberSize } from '../../server/src/cost/size';
import { createClient, reconcile, ReconcileReport } from '../../server/src/reconcile';
import { Item, createTable, likes, post, putItems } from '../../server/src/reconcile/seed';
import type { BenchRow } from '../bench';
import { startDynamoDBLocal } from '../dynamodb-local';

const POSTS = 100;
const LIKES_PER_POST = 1000;

function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return Buffer.byteLength(v.S, 'utf8');
  if (v.N !== undefined) return numberSize(v.N) ?? 0;
  throw new Error('bench items hold strings and numbers only');
}

export function itemBytes(item: Item): number {
  return Object.entries(item).reduce((a, [k, v]) => a + Buffer.byteLength(k, 'utf8') + valueSize(v), 0);
}

export async function run(): Promise<BenchRow[]> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const local = await startDynamoDBLocal();
  try {
    const table = 'BenchSocial';
    await createTable(local.client, table);
    const items: Item[] = [];
    for (let p = 0; p < POSTS; p++) {
      const id = `p${String(p).padStart(4, '0')}`;
      // Every tenth post drifted by one.
      items.push(post(id, LIKES_PER_POST + (p % 10 === 0 ? 1 : 0)), ...likes(id, LIKES_PER_POST));
    }
    const seedStart = Date.now();
    await putItems(local.client, table, items, 16);
    const seedMs = Date.now() - seedStart;
    const bytes = items.reduce((a, it) => a + itemBytes(it), 0);
    const floor = (bytes / 4096) * 0.5;
    const children = POSTS * LIKES_PER_POST;

    const client = createClient({ endpoint: local.endpoint });
    const pattern = { parentSk: 'META', counter: 'likeTally', childPrefix: 'LIKE#' };
    const runs: Array<{ name: string; r: ReconcileReport }> = [];
    runs.push({ name: 'whole table (Scan, 8 segments)', r: await reconcile(client, { table, pattern, scope: { kind: 'table', segments: 8 } }) });
    const keys = Array.from({ length: POSTS }, (_, p) => `POST#p${String(p).padStart(4, '0')}`);
    runs.push({ name: `${POSTS} parent keys (Query each)`, r: await reconcile(client, { table, pattern, scope: { kind: 'keys', keys } }) });
    client.destroy();

    const rows: BenchRow[] = [];
    for (const { name, r } of runs) {
      if (r.drifted.length !== POSTS / 10) throw new Error(`${name}: expected ${POSTS / 10} drifted parents, got ${r.drifted.length}`);
      const perSecond = (r.itemsRead / r.elapsedMs) * 1000;
      rows.push({
        area: 'reconcile',
        name: `items reconciled/s, ${name}`,
        ours: `${Math.round(perSecond).toLocaleString('en-US')} items/s`,
        baseline: `seeding (BatchWrite): ${Math.round((items.length / seedMs) * 1000).toLocaleString('en-US')}/s`,
        ratio: perSecond / ((items.length / seedMs) * 1000),
        note: `${children.toLocaleString('en-US')} children, ${r.itemsRead.toLocaleString('en-US')} items read in ${(r.elapsedMs / 1000).toFixed(2)} s`,
      });
      rows.push({
        area: 'reconcile',
        name: `RCU / floor, ${name}`,
        ours: `${r.consumedRcu} RCU`,
        baseline: `floor ${floor.toFixed(1)} RCU (${(bytes / 1e6).toFixed(2)} MB)`,
        ratio: r.consumedRcu / floor,
        note: 'floor = every needed item read once, eventually consistent, no rounding',
      });
    }
    return rows;
  } finally {
    await local.stop();
  }
}
