/** scripts/dynamodb-local.ts: DynamoDB Local never outlives the process that started it. */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDBLocal } from '../../scripts/dynamodb-local';
import { join } from 'node:path';

/** Does anything still accept connections on this loopback port? */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('DynamoDB Local lifetime', function () {
  this.timeout(120_000);

  it('is killed when its parent exits without stop() (an EPIPE, an uncaught error, exit())', async () => {
    const root = join(__dirname, '../..');
    const script = `import { startDynamoDBLocal } from ${JSON.stringify(join(root, 'scripts/dynamodb-local'))};
startDynamoDBLocal().then((l) => { console.log(l.port); process.exit(3); });`;
    const p = spawnSync(join(root, 'node_modules/.bin/tsx'), ['--eval', script], { encoding: 'utf8' });
    assert.equal(p.status, 3, p.stderr);
    const port = Number(p.stdout.trim());
    assert.ok(port > 0, p.stdout);
    // SIGKILL is sent as the parent exits; the port closes once the kernel has torn the JVM down.
    const deadline = Date.now() + 10_000;
    while ((await listening(port)) && Date.now() < deadline);
    assert.equal(await listening(port), false, `DynamoDB Local still listens on ${port}`);
  });

  it('never takes over a port another server holds: it starts on another port, and that foreign server sees nothing', async () => {
    let foreignRequests = 0;
    // Answers like DynamoDB would to ListTables, to any request: a foreign Local of another run.
    const foreign = createServer((_req, res) => {
      foreignRequests++;
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"TableNames":[]}');
    });
    await new Promise<void>((r) => foreign.listen(0, '0.0.0.0', () => r()));
    const taken = (foreign.address() as { port: number }).port;
    try {
      const local = await startDynamoDBLocal({ firstPort: taken });
      try {
        assert.notEqual(local.port, taken);
        assert.deepEqual((await local.client.send(new ListTablesCommand({}))).TableNames, []);
      } finally {
        await local.stop();
      }
      assert.equal(foreignRequests, 0);
    } finally {
      foreign.close();
    }
  });
});
