/**
 * The server's message writer on the stdio transport: each message is encoded when it is sent, and the messages sent
 * in one synchronous stretch of code go to the pipe in one write, at the end of that stretch (a microtask).
 *
 * vscode-jsonrpc's stream writer takes its messages one at a time through a semaphore that starts each on a
 * `setImmediate` turn, encodes through a promise, and writes the `Content-Length` header and the body as two chunks,
 * the body a turn after the header. A lint sends two notifications back to back (`publishDiagnostics`, then
 * `dynalint/linted`): through that writer the diagnostics left a loop turn after the lint, the report one more turn
 * later, each its own pipe write, and each write woke the client (on a 2-core machine a wake-up may wait for a CPU).
 * Here both leave together right after the lint, in the order they were sent. The bytes are the ones the stream writer
 * makes (`Content-Length: <bytes>\r\n\r\n` + the UTF-8 JSON of the message, no other header); a write's promise
 * settles when the stream has taken its bytes, and a failure is reported as the stream writer reports it (`onError`
 * with the message and a running count, and the promise rejected).
 */
import type { Writable } from 'node:stream';
import { type InspectOptions, inspect } from 'node:util';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node';

interface Pending {
  header: string;
  body: Buffer;
  msg: Message;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class BatchedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private pending: Pending[] = [];
  private errorCount = 0;

  constructor(private readonly stream: Writable) {
    super();
    stream.on('error', (e: unknown) => this.fireError(e));
    stream.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let body: Buffer;
    try {
      body = Buffer.from(JSON.stringify(msg, undefined, 0), 'utf-8');
    } catch (e) {
      this.fireError(e);
      return Promise.reject(e);
    }
    return new Promise<void>((resolve, reject) => {
      if (this.pending.length === 0) queueMicrotask(() => this.flush());
      this.pending.push({ header: `Content-Length: ${body.byteLength}\r\n\r\n`, body, msg, resolve, reject });
    });
  }

  /** Every message sent since the last flush, in order, as one write (the chunks of a corked stream go out together). */
  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    const stream = this.stream;
    stream.cork();
    try {
      for (const p of batch) {
        stream.write(p.header, 'ascii');
        stream.write(p.body, (e?: Error | null) => {
          if (e === undefined || e === null) return p.resolve();
          this.errorCount++;
          this.fireError(e, p.msg, this.errorCount);
          p.reject(e);
        });
      }
    } finally {
      stream.uncork();
    }
  }

  end(): void {
    this.stream.end();
  }
}

/** What `consoleToClient` logs through: the connection's remote console (`window/logMessage`). */
export interface ClientLogger {
  log(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * Send `console` output to the client as log messages: stdout is the protocol's channel. vscode-languageserver does
 * this itself when it picks the stdio transport from the command line, not when it is given the streams (as the
 * server is under `--stdio`, to use `BatchedMessageWriter`).
 */
export function consoleToClient(logger: ClientLogger): void {
  const text = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ');
  const counts = new Map<string, number>();
  console.assert = (assertion?: unknown, ...args: unknown[]) => {
    if (assertion) return;
    logger.error(args.length ? `Assertion failed: ${text(args)}` : 'Assertion failed');
  };
  console.count = (label = 'default') => {
    const n = (counts.get(String(label)) ?? 0) + 1;
    counts.set(String(label), n);
    logger.log(`${String(label)}: ${n}`);
  };
  console.countReset = (label?: string) => void (label === undefined ? counts.clear() : counts.delete(String(label)));
  console.debug = (...args: unknown[]) => logger.log(text(args));
  console.dir = (arg: unknown, options?: InspectOptions) => logger.log(inspect(arg, options));
  console.log = (...args: unknown[]) => logger.log(text(args));
  console.info = (...args: unknown[]) => logger.info(text(args));
  console.warn = (...args: unknown[]) => logger.warn(text(args));
  console.error = (...args: unknown[]) => logger.error(text(args));
  console.trace = (...args: unknown[]) => logger.log(`Trace${args.length ? `: ${text(args)}` : ''}\n${(new Error().stack ?? '').replace(/(.+\n){2}/, '')}`);
}
