/**
 * A fault-injecting HTTP proxy for DynamoDB Local, on 127.0.0.1 only. It forwards each request to the upstream
 * endpoint, except where a rule of its script says otherwise for the Nth request of an operation (counted per
 * `X-Amz-Target` operation name, 1-based, over the proxy's life):
 *
 * - `deny`: answers 400 `AccessDeniedException` without forwarding (nothing reaches the table);
 * - `throttle`: answers 400 `ProvisionedThroughputExceededException` without forwarding;
 * - `error`: answers any status / `__type` / message without forwarding (e.g. a hostile message);
 * - `drop-request`: destroys the client's socket without forwarding (nothing reached the table; the client cannot
 *   tell this from a lost answer);
 * - `drop-response`: forwards, waits for the upstream's whole answer, then destroys the client's socket (the write
 *   happened; its answer is lost);
 * - `cut`: forwards, sends the status line, headers and half the body, then destroys the socket (a Scan cut mid-page).
 *
 * Bodies are bounded (16 MB); every wait ends with its socket.
 */
import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Fault =
  | { kind: 'deny'; message?: string }
  | { kind: 'throttle' }
  | { kind: 'error'; status: number; type: string; message: string }
  | { kind: 'drop-request' }
  | { kind: 'drop-response' }
  | { kind: 'cut' };

export interface FaultRule {
  /** Operation name as in `X-Amz-Target` after the dot: `UpdateItem`, `Scan`, `GetItem`... */
  op: string;
  /** The first occurrence (1-based) the fault applies to. */
  nth: number;
  /** How many consecutive occurrences from `nth` (default 1). */
  times?: number;
  fault: Fault;
}

export interface FaultProxy {
  endpoint: string;
  /** Operations seen, in order, with the fault applied to each (if any). */
  log: Array<{ op: string; fault?: Fault['kind'] }>;
  /** Replace the script (counters keep running). */
  script(rules: FaultRule[]): void;
  /** Requests of `op` seen so far. */
  count(op: string): number;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        reject(new Error('request body too large'));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, type: string, message: string): void {
  const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message });
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(body), 'x-amzn-requestid': 'fault-proxy' });
  res.end(body);
}

export async function startFaultProxy(upstream: string, rules: FaultRule[] = []): Promise<FaultProxy> {
  const target = new URL(upstream);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error(`fault proxy forwards to loopback only, not ${target.hostname}`);
  let script = rules;
  const counts = new Map<string, number>();
  const log: FaultProxy['log'] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const op = String(req.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
      const n = (counts.get(op) ?? 0) + 1;
      counts.set(op, n);
      const rule = script.find((r) => r.op === op && n >= r.nth && n < r.nth + (r.times ?? 1));
      log.push({ op, ...(rule ? { fault: rule.fault.kind } : {}) });
      const f = rule?.fault;
      if (f?.kind === 'deny') return answer(res, 400, 'AccessDeniedException', f.message ?? `User: arn:aws:iam::000000000000:user/test is not authorized to perform: dynamodb:${op}`);
      if (f?.kind === 'throttle') return answer(res, 400, 'ProvisionedThroughputExceededException', 'The level of configured provisioned throughput for the table was exceeded.');
      if (f?.kind === 'error') return answer(res, f.status, f.type, f.message);
      if (f?.kind === 'drop-request') return void req.socket.destroy();
      const up = request(
        { host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (upRes) => {
          const chunks: Buffer[] = [];
          upRes.on('data', (c: Buffer) => chunks.push(c));
          upRes.on('end', () => {
            const whole = Buffer.concat(chunks);
            if (f?.kind === 'drop-response') {
              req.socket.destroy();
              return;
            }
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            if (f?.kind === 'cut') {
              res.write(whole.subarray(0, Math.floor(whole.length / 2)), () => req.socket.destroy());
              return;
            }
            res.end(whole);
          });
          upRes.on('error', () => req.socket.destroy());
        },
      );
      up.on('error', () => req.socket.destroy());
      up.end(body);
    })().catch(() => req.socket.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    log,
    script: (r) => {
      script = r;
    },
    count: (op) => counts.get(op) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
