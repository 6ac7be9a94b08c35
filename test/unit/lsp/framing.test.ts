/**
 * One write per JSON-RPC message (server/src/lsp/framing.ts): vscode-jsonrpc's stream writer over a stream given
 * `oneWritePerMessage` makes exactly one write per message (header and body together), and a reader reads back the
 * same messages in order; held headers never reorder or lose a chunk, and every write callback runs.
 */
import { strict as assert } from 'node:assert';
import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter, type Message, type NotificationMessage } from 'vscode-jsonrpc/node';
import { oneWritePerMessage } from '../../../server/src/lsp/framing';

/** A stream that records each write it receives as one Buffer. */
function recorder(): { stream: Writable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, chunks };
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

describe('lsp framing: one write per message', () => {
  it('the jsonrpc stream writer makes one write per message, read back intact and in order', async () => {
    const { stream, chunks } = recorder();
    oneWritePerMessage(stream);
    const writer = new StreamMessageWriter(stream);
    const sent = [
      note('textDocument/publishDiagnostics', { uri: 'file:///a.ts', version: 2, diagnostics: [{ message: 'naïve “quotes” ✓', range: {} }] }),
      note('dynalint/linted', { uri: 'file:///a.ts', version: 2, findings: 1 }),
      note('window/logMessage', { type: 4, message: 'x'.repeat(100_000) }),
    ];
    for (const m of sent) await writer.write(m);
    assert.equal(chunks.length, sent.length, 'one write per message');
    for (const c of chunks) assert.match(c.subarray(0, 40).toString('ascii'), /^Content-Length: \d+\r\n\r\n/);
    assert.deepEqual(await readBack(chunks, sent.length), sent);
  });

  it('a header is held until its body and goes out with it; other chunks pass through in order', async () => {
    const { stream, chunks } = recorder();
    oneWritePerMessage(stream);
    const calls: string[] = [];
    const cb = (name: string) => (e?: Error | null) => calls.push(e ? `${name}:error` : name);
    stream.write('plain', 'utf8', cb('plain'));
    stream.write('Content-Length: 2\r\n\r\n', 'ascii', cb('h1'));
    assert.equal(chunks.length, 1, 'the header is held');
    stream.write(Buffer.from('{}'), cb('b1'));
    // A header after a header: the first goes out alone, first.
    stream.write('Content-Length: 3\r\n\r\n', 'ascii', cb('h2'));
    stream.write('Content-Length: 4\r\n\r\n', 'ascii', cb('h3'));
    stream.write('"é"', 'utf8', cb('b3'));
    await new Promise<void>((resolve) => stream.end(resolve));
    assert.deepEqual(
      chunks.map((c) => c.toString('utf8')),
      ['plain', 'Content-Length: 2\r\n\r\n{}', 'Content-Length: 3\r\n\r\n', 'Content-Length: 4\r\n\r\n"é"'],
    );
    assert.deepEqual([...calls].sort(), ['b1', 'b3', 'h1', 'h2', 'h3', 'plain']);
  });
});
