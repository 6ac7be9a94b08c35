/**
 * The server's message writer on stdio (server/src/lsp/framing.ts): the messages sent in one synchronous stretch go
 * out in one write, with exactly the bytes vscode-jsonrpc's stream writer makes, in order; messages sent later go in
 * a later write; a write's promise settles once the stream took it, and a failing stream is reported as the stream
 * writer reports it. `consoleToClient` sends console output to the client's log instead of the protocol's stdout.
 */
import { strict as assert } from 'node:assert';
import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter, type Message, type NotificationMessage } from 'vscode-jsonrpc/node';
import { BatchedMessageWriter, consoleToClient } from '../../../server/src/lsp/framing';

/** A stream that records each write it receives (a write of several chunks, `writev`, as one Buffer). */
function recorder(fail?: Error): { stream: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, cb) {
      writes.push(Buffer.from(chunk));
      cb(fail);
    },
    writev(chunks, cb) {
      writes.push(Buffer.concat(chunks.map((c) => (typeof c.chunk === 'string' ? Buffer.from(c.chunk, c.encoding) : c.chunk))));
      cb(fail);
    },
  });
  if (fail) stream.on('error', () => undefined);
  return { stream, writes };
}

/** The messages a vscode-jsonrpc reader reads from `bytes`. */
async function readBack(bytes: Buffer[], count: number): Promise<Message[]> {
  const input = new PassThrough();
  const reader = new StreamMessageReader(input);
  const got: Message[] = [];
  const all = new Promise<void>((resolve) =>
    reader.listen((m) => {
      got.push(m);
      if (got.length === count) resolve();
    }),
  );
  for (const b of bytes) input.write(b);
  await all;
  reader.dispose();
  return got;
}

const note = (method: string, params: object): NotificationMessage => ({ jsonrpc: '2.0', method, params });
const sent = [
  note('textDocument/publishDiagnostics', { uri: 'file:///a.ts', version: 2, diagnostics: [{ message: 'naïve “quotes” ✓', range: {} }] }),
  note('dynalint/linted', { uri: 'file:///a.ts', version: 2, findings: 1 }),
  note('window/logMessage', { type: 4, message: 'x'.repeat(100_000) }),
];

describe('lsp framing: the batched message writer', () => {
  it('messages sent in one synchronous stretch go out in one write, in order, with the stream writer’s bytes', async () => {
    const { stream, writes } = recorder();
    const writer = new BatchedMessageWriter(stream);
    await Promise.all(sent.map((m) => writer.write(m)));
    assert.equal(writes.length, 1, 'one write for the three messages');
    assert.deepEqual(await readBack(writes, sent.length), sent);
    // vscode-jsonrpc's own writer, one message after the other: the same bytes.
    const theirs = recorder();
    const reference = new StreamMessageWriter(theirs.stream);
    for (const m of sent) await reference.write(m);
    assert.deepEqual(writes[0], Buffer.concat(theirs.writes));
  });

  it('a message sent after the stretch ended (a turn later) is a write of its own, after the first', async () => {
    const { stream, writes } = recorder();
    const writer = new BatchedMessageWriter(stream);
    const first = [writer.write(sent[0]), writer.write(sent[1])];
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 1, 'the first two went out at the end of their stretch');
    await Promise.all([...first, writer.write(sent[2])]);
    assert.equal(writes.length, 2);
    assert.deepEqual(await readBack(writes, 3), sent);
  });

  it('a failing stream: each write rejects and is reported with its message and a running count', async () => {
    const boom = new Error('EPIPE');
    const { stream } = recorder(boom);
    const writer = new BatchedMessageWriter(stream);
    const reported: [Error, Message | undefined, number | undefined][] = [];
    writer.onError((e) => reported.push(e));
    const results = await Promise.allSettled([writer.write(sent[0]), writer.write(sent[1])]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    const counted = reported.filter((r) => r[1] !== undefined);
    assert.deepEqual(
      counted.map((r) => [r[1], r[2]]),
      [
        [sent[0], 1],
        [sent[1], 2],
      ],
    );
  });

  it('a message that cannot be encoded rejects at once and is reported; the others still go out', async () => {
    const { stream, writes } = recorder();
    const writer = new BatchedMessageWriter(stream);
    const errors: Error[] = [];
    writer.onError(([e]) => errors.push(e));
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    const bad = writer.write(note('x', cyclic));
    const good = writer.write(sent[1]);
    await assert.rejects(bad);
    await good;
    assert.equal(errors.length, 1);
    assert.deepEqual(await readBack(writes, 1), [sent[1]]);
  });

  it('consoleToClient: console output goes to the client logger, not to stdout', () => {
    const saved = { ...console };
    const got: string[] = [];
    try {
      consoleToClient({ log: (m) => got.push(`log ${m}`), info: (m) => got.push(`info ${m}`), warn: (m) => got.push(`warn ${m}`), error: (m) => got.push(`error ${m}`) });
      console.log('a', 1, { b: 2 });
      console.info('i');
      console.warn('w');
      console.error('e');
      console.debug('d');
      console.assert(true, 'never');
      console.assert(false, 'bad', 3);
      console.count();
      console.count();
      console.countReset();
      console.count();
    } finally {
      Object.assign(console, saved);
    }
    assert.deepEqual(got, ['log a 1 { b: 2 }', 'info i', 'warn w', 'error e', 'log d', 'error Assertion failed: bad 3', 'log default: 1', 'log default: 2', 'log default: 1']);
  });
});
