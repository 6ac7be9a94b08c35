/**
 * Ask DynamoDB Local about every case and print those whose pinned verdict no longer matches, with Local's full
 * message, so a verdict can be pinned by hand after observing it:
 *   npx tsx test/differential/record.ts [name-substring]      (add --all to print every answer)
 */
import { startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { assertUniqueNames, CASES } from './cases';
import { createDiffTable, pool, runOnLocal, verdictMismatch } from './harness';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const all = args.includes('--all');
  const filter = args.find((a) => !a.startsWith('--'));
  assertUniqueNames(CASES);
  const local = await startDynamoDBLocal();
  try {
    await createDiffTable(local.client);
    const indexed = CASES.map((c, i) => ({ c, i })).filter(({ c }) => !filter || c.name.includes(filter));
    const seen = await pool(indexed, 8, ({ c, i }) => runOnLocal(local.client, c, i));
    let bad = 0;
    indexed.forEach(({ c }, k) => {
      const why = verdictMismatch(c.local, seen[k]);
      if (why) bad++;
      if (why || all) console.log(`${why ? 'DIFF' : 'ok  '} ${c.name}\n     ${seen[k].outcome}${seen[k].message ? `: ${seen[k].message}` : ''}`);
    });
    console.log(`${indexed.length} cases, ${seen.filter((s) => s.outcome === 'validation').length} ValidationExceptions, ${bad} differ from the pinned verdict`);
  } finally {
    await local.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
