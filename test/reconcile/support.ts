/** Shared by the reconcile tests: one DynamoDB Local per test file, fresh table names, a cuttable TCP proxy. */
import { createConnection, createServer, Server, Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { AttributeValue, CreateTableCommand, DynamoDBClient, ScalarAttributeType, ScanCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { LocalDynamo, isolateAwsEnv, localClient, startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { reconcileCommand } from '../../server/src/cli/reconcile';

/**
 * One DynamoDB Local for the enclosing describe. While it runs, the developer's AWS_* variables are cleared (and put
 * back after), so Dynalint's own client meets the emulator with its placeholder credentials and region, never theirs.
 */
export function useLocal(): { get: () => LocalDynamo } {
  let local: LocalDynamo | undefined;
  let restoreEnv: (() => void) | undefined;
  before(async function () {
    this.timeout(120_000);
    restoreEnv = isolateAwsEnv();
    local = await startDynamoDBLocal();
  });
  after(async () => {
    restoreEnv?.();
    await local?.stop();
  });
  return { get: () => local! };
}

let counter = 0;
export function tableName(base: string): string {
  return `${base}_${process.pid}_${++counter}`;
}

/** Every item of a table, sorted, as JSON text: compare before/after to prove nothing was written. */
export async function snapshot(client: DynamoDBClient, table: string): Promise<string[]> {
  const out: string[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) out.push(JSON.stringify(Object.keys(item).sort().map((k) => [k, item[k]])));
    start = page.LastEvaluatedKey;
  } while (start);
  return out.sort();
}

/** A TCP proxy to `target` that can be cut: afterwards every connection is refused. */
export async function cuttableProxy(targetPort: number): Promise<{ endpoint: string; client: DynamoDBClient; cut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  // Port 0: the kernel picks a free port and it is ours from that moment (no probe-then-bind race).
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    endpoint,
    client: localClient(endpoint),
    cut: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      }),
  };
}

/** Run `hook` before a command of the given name is sent (for injecting faults, races and cancellation). */
export function beforeSend(client: DynamoDBClient, hook: (command: string, input: Record<string, unknown>) => Promise<void> | void): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      await hook(context.commandName ?? '', args.input as Record<string, unknown>);
      return next(args);
    },
    { step: 'initialize', name: `testHook${Math.random()}` },
  );
}

/** A table with any key schema (`['pk', 'S']`, a hash-only table when `range` is omitted), as other people's tables are. */
export async function createKeyedTable(
  client: DynamoDBClient,
  table: string,
  hash: [string, ScalarAttributeType],
  range?: [string, ScalarAttributeType],
): Promise<void> {
  const keys = range ? [hash, range] : [hash];
  await client.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keys.map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
      KeySchema: keys.map(([AttributeName], i) => ({ AttributeName, KeyType: i === 0 ? 'HASH' : 'RANGE' })),
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: table });
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run `dynalint reconcile` in-process; `stdin` is a terminal (answering `answer`) or not. */
export async function runReconcile(argv: string[], stdin?: { tty: boolean; answer?: string }): Promise<CliRun> {
  let out = '';
  let err = '';
  let input: (PassThrough & { isTTY?: boolean }) | undefined;
  if (stdin) {
    input = Object.assign(new PassThrough(), { isTTY: stdin.tty });
    if (stdin.answer !== undefined) input.end(stdin.answer + '\n');
    else input.end();
  }
  const code = await reconcileCommand(argv, {
    cwd: process.cwd(),
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    stdin: input,
    signal: new AbortController().signal,
  });
  return { code, out, err };
}
