/**
 * Connecting, learning the key schema, and sending reads/writes with capacity accounting, throttling backoff
 * (exponential, full jitter), cancellation and an RCU budget. Every AWS error leaves here as a ReconcileError with a
 * message a user can act on.
 */
import {
  AttributeValue,
  ConsumedCapacity,
  DescribeTableCommand,
  DynamoDBClient,
  DynamoDBServiceException,
} from '@aws-sdk/client-dynamodb';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { PlainKey, ReconcileError } from './types';

export interface Connection {
  region?: string;
  profile?: string;
  endpoint?: string;
  /** Give up connecting after this many ms (default 10 s): a blackholed endpoint fails instead of hanging. */
  connectTimeoutMs?: number;
  /** Give up on an answer after this many ms (default 30 s, ample for a 1 MB page). */
  requestTimeoutMs?: number;
  /** Static credentials instead of the default chain (the demo's own DynamoDB Local: never the user's profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** A loopback host: 127.0.0.0/8, ::1 (also as an IPv4-mapped address) or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.replace(/^::ffff:/, '');
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  return !!m && Number(m[1]) === 127 && m.slice(2).every((x) => Number(x) <= 255);
}

function isLoopback(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    return isLoopbackHost(new URL(endpoint).hostname);
  } catch {
    return false;
  }
}

/**
 * Why an endpoint must not be used, or undefined when it may: it must be an http(s) URL without credentials in it,
 * and plain http only to a loopback host (DynamoDB Local). Anything else would send signed requests — and the
 * data read and written — in clear text to a host a setting or a flag chose.
 */
export function endpointProblem(endpoint: string): string | undefined {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return `Endpoint ${JSON.stringify(endpoint.slice(0, 100))} is not a URL (e.g. https://dynamodb.eu-west-1.amazonaws.com or http://127.0.0.1:8000).`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `Endpoint ${u.protocol}// is not http(s).`;
  if (u.username || u.password) return 'Endpoint URLs must not carry a user name or password.';
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return `Refusing plain http to ${u.hostname}: only a loopback endpoint (127.0.0.1, ::1, localhost) may be http; use https.`;
  }
  return undefined;
}

/**
 * A client on the AWS default credential chain (env, shared config and profiles, SSO, process, container, IMDS).
 * DynamoDB Local on a loopback endpoint accepts any credentials: unless a profile or env credentials are given,
 * placeholders are used there (the chain would otherwise end probing instance metadata).
 */
export function createClient(conn: Connection): DynamoDBClient {
  const problem = conn.endpoint !== undefined ? endpointProblem(conn.endpoint) : undefined;
  if (problem) throw new ReconcileError(problem, 'bad-options');
  const local = isLoopback(conn.endpoint);
  const explicit = !!(conn.profile || process.env.AWS_ACCESS_KEY_ID || process.env.AWS_PROFILE);
  const credentials =
    conn.credentials ??
    (local && !explicit ? { accessKeyId: 'local', secretAccessKey: 'local' } : fromNodeProviderChain(conn.profile ? { profile: conn.profile } : {}));
  return new DynamoDBClient({
    region: conn.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? (local ? 'us-east-1' : undefined),
    endpoint: conn.endpoint,
    ...(conn.profile ? { profile: conn.profile } : {}),
    credentials,
    // Retries are ours (throttling only, with jitter, abortable and counted); connection errors fail fast.
    maxAttempts: 1,
    // Without timeouts an endpoint that accepts the connection and never answers hangs the run forever.
    requestHandler: { connectionTimeout: conn.connectTimeoutMs ?? 10_000, requestTimeout: conn.requestTimeoutMs ?? 30_000, throwOnRequestTimeout: true },
  });
}

export interface KeySchema {
  pk: string;
  sk: string;
  pkType: 'S' | 'N' | 'B';
}

export async function describeKeys(client: DynamoDBClient, table: string, signal?: AbortSignal): Promise<KeySchema> {
  let out;
  try {
    out = await client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal });
  } catch (e) {
    throw toReconcileError(e, table);
  }
  const schema = out.Table?.KeySchema ?? [];
  const pk = schema.find((k) => k.KeyType === 'HASH')?.AttributeName;
  const sk = schema.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  if (!pk) throw new ReconcileError(`The endpoint's description of table "${table}" has no key schema: is it DynamoDB?`, 'aws');
  if (!sk) {
    throw new ReconcileError(
      `Table "${table}" has no sort key: a parent and its children must share a partition, told apart by sort key.`,
      'unsupported',
    );
  }
  const types = new Map((out.Table?.AttributeDefinitions ?? []).map((d) => [d.AttributeName, d.AttributeType]));
  if (types.get(sk) !== 'S') {
    throw new ReconcileError(`Sort key "${sk}" of table "${table}" is not a string: prefixes like LIKE# need a string sort key.`, 'unsupported');
  }
  return { pk, sk, pkType: (types.get(pk) ?? 'S') as 'S' | 'N' | 'B' };
}

/** A partition key value typed for the table (`"42"` becomes `{N: "42"}` when the key is a number). */
export function typedKey(value: string, type: KeySchema['pkType']): AttributeValue {
  if (type === 'N') {
    if (!/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim())) throw new ReconcileError(`Partition key value "${value}" is not a number.`, 'bad-options');
    return { N: value.trim() };
  }
  if (type === 'B') return { B: Buffer.from(value, 'base64') };
  return { S: value };
}

/**
 * A key value for reports: numbers stay numbers while a double holds them exactly (up to 15 significant digits, or a
 * safe integer); longer ones (DynamoDB keeps 38 digits) stay text, so the key still names the item when repaired.
 */
export function plainValue(v: AttributeValue | undefined): string | number {
  if (!v) return '';
  if (v.S !== undefined) return v.S;
  if (v.N !== undefined) {
    const x = Number(v.N);
    const digits = v.N.replace(/e.*$/i, '').replace(/\D/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
    return digits <= 15 || Number.isSafeInteger(x) ? x : v.N;
  }
  if (v.B !== undefined) return Buffer.from(v.B).toString('base64');
  return JSON.stringify(v);
}

/** Stable text of a partition key value, for maps. */
export function keyText(v: AttributeValue): string {
  if (v.S !== undefined) return 'S:' + v.S;
  if (v.N !== undefined) return 'N:' + v.N;
  if (v.B !== undefined) return 'B:' + Buffer.from(v.B).toString('base64');
  return JSON.stringify(v);
}

export function plainKey(keys: KeySchema, pk: AttributeValue, sk?: string): PlainKey {
  const k: PlainKey = { [keys.pk]: plainValue(pk) };
  if (sk !== undefined) k[keys.sk] = sk;
  return k;
}

/**
 * A counter value read from an item: null when missing, a number otherwise, or null with a note when it is not a
 * number (`{S: "3"}`, a BOOL...). Such a counter is reported, never repaired: `ADD` on it fails, so whatever wrote it
 * is broken, and overwriting it would hide that.
 */
export function counterValue(v: AttributeValue | undefined): { value: number | null; note?: string } {
  if (!v) return { value: null };
  if (v.N !== undefined) return { value: Number(v.N) };
  const [type, raw] = Object.entries(v).find(([, x]) => x !== undefined) ?? ['?', undefined];
  const text = JSON.stringify(raw instanceof Uint8Array ? Buffer.from(raw).toString('base64') : raw) ?? '';
  return { value: null, note: `counter holds ${type} ${text.length > 24 ? text.slice(0, 23) + '…' : text}, not a number (never repaired)` };
}

/* ------------------------------------------------------------------------------------------------------------------ */

const THROTTLES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'LimitExceededException',
]);

/** Throttling answers: the request was refused before it did anything, so a write may be sent again. */
const REFUSED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'LimitExceededException']);

/** Errors raised before a request left this process, or by a connection that was never made. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPROTO', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT']);

/**
 * What a failed write did to the table:
 * - `condition-failed`: refused by its condition on the one attempt the SDK made (nothing written);
 * - `not-written`: refused (a 4xx: access denied, validation, throttling) or never sent (connection refused);
 * - `unknown`: sent, and its answer lost or not to be trusted (reset, timeout, truncated body, a 5xx), or refused by
 *   its condition on an SDK retry, after an attempt that may have written.
 */
export function writeFate(e: unknown): 'condition-failed' | 'not-written' | 'unknown' {
  const err = e as { name?: string; code?: string; cause?: { code?: string }; $metadata?: { httpStatusCode?: number; attempts?: number } };
  const status = err.$metadata?.httpStatusCode ?? 0;
  const attempts = err.$metadata?.attempts ?? 1;
  if (e instanceof DynamoDBServiceException && status >= 400 && status < 500 && err.name !== 'Unknown') {
    if (err.name === 'ConditionalCheckFailedException') return attempts > 1 ? 'unknown' : 'condition-failed';
    return attempts > 1 && !REFUSED.has(err.name ?? '') ? 'unknown' : 'not-written';
  }
  if (NOT_SENT.has(err.code ?? err.cause?.code ?? '') || err.name === 'CredentialsProviderError' || /^Region (is missing|not accepted)/.test(String((e as Error)?.message))) {
    return 'not-written';
  }
  return 'unknown';
}

/**
 * Text an endpoint sent (an error message, an error type), shown as what it is: untrusted data, quoted, one line,
 * control characters escaped, at most `max` characters. A hostile or confused endpoint can put anything there
 * ("run curl ... | sh"): the user reads it as the endpoint's words, not Dynalint's.
 */
export function quoteUntrusted(text: string, max = 200): string {
  let out = '';
  for (const c of String(text)) {
    const code = c.codePointAt(0)!;
    const piece =
      c === '"' || c === '\\'
        ? '\\' + c
        : c === '\n'
          ? '\\n'
          : c === '\r'
            ? '\\r'
            : c === '\t'
              ? '\\t'
              : code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)
                ? `\\u${code.toString(16).padStart(4, '0')}`
                : c;
    if (out.length + piece.length > max - 1) {
      out += '…';
      break;
    }
    out += piece;
  }
  return `endpoint said: "${out}"`;
}

/** An error type name as DynamoDB spells them; anything else from the wire is not repeated. */
function safeName(name: string): string {
  return /^[A-Za-z][A-Za-z0-9_.]{0,63}$/.test(name) ? name : 'Error';
}

export function isAbort(e: unknown): boolean {
  const name = (e as { name?: string } | undefined)?.name;
  return name === 'AbortError';
}

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

export class BudgetReached extends Error {
  constructor(readonly consumed: number, readonly budget: number) {
    super(`RCU budget reached: ${consumed.toFixed(1)} of ${budget} consumed`);
    this.name = 'BudgetReached';
  }
}

function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Cancelled());
    const onAbort = () => {
      clearTimeout(t);
      reject(new Cancelled());
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface MeterOptions {
  signal?: AbortSignal;
  maxRcu?: number;
  /** Throttling retries before giving up (default 10). */
  maxRetries?: number;
  /** First backoff ceiling in ms (default 50), doubling per retry up to 5 s. */
  baseDelayMs?: number;
}

interface Capacity {
  ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
}

/** Counts what a run consumed and sends each request under its rules. */
export class Meter {
  rcu = 0;
  wcu = 0;
  itemsRead = 0;
  requests = 0;
  retries = 0;

  constructor(
    readonly client: DynamoDBClient,
    readonly table: string,
    readonly opts: MeterOptions = {},
  ) {}

  /** Throws Cancelled / BudgetReached before a read that must not start. */
  checkRead(): void {
    if (this.opts.signal?.aborted) throw new Cancelled();
    if (this.opts.maxRcu !== undefined && this.rcu >= this.opts.maxRcu) throw new BudgetReached(this.rcu, this.opts.maxRcu);
  }

  /**
   * Send one command. `kind` decides the budget check (reads stop at the budget; writes do not count against it).
   * Throttling and 5xx answers are retried with full-jitter exponential backoff; anything else is classified.
   */
  async send<O extends Capacity>(command: { input: unknown }, kind: 'read' | 'write'): Promise<O> {
    for (let attempt = 0; ; attempt++) {
      if (kind === 'read') this.checkRead();
      else if (this.opts.signal?.aborted) throw new Cancelled();
      try {
        this.requests++;
        // A write, once sent, is left to finish: it is conditional and its outcome is reported either way.
        const out = (await this.client.send(command as Parameters<DynamoDBClient['send']>[0], kind === 'read' ? { abortSignal: this.opts.signal } : {})) as unknown as O;
        this.account(out.ConsumedCapacity, kind);
        return out;
      } catch (e) {
        if (isAbort(e) || this.opts.signal?.aborted) throw new Cancelled();
        const name = (e as { name?: string }).name ?? '';
        const status = (e as DynamoDBServiceException).$metadata?.httpStatusCode ?? 0;
        // A read is retried after throttling or a 5xx. A write only after throttling, which refused it: a 5xx may
        // come after the write took effect, and a blind retry would then fail its own condition ("changed").
        const retryable = kind === 'write' ? REFUSED.has(name) : THROTTLES.has(name) || (status >= 500 && e instanceof DynamoDBServiceException);
        if (!retryable || attempt >= (this.opts.maxRetries ?? 10)) throw e;
        this.retries++;
        const cap = Math.min(5000, (this.opts.baseDelayMs ?? 50) * 2 ** attempt);
        await abortableDelay(Math.random() * cap, this.opts.signal);
      }
    }
  }

  /** `TOTAL` answers carry CapacityUnits only; none of our requests mixes reads and writes. */
  private account(cc: ConsumedCapacity | ConsumedCapacity[] | undefined, kind: 'read' | 'write'): void {
    for (const c of Array.isArray(cc) ? cc : cc ? [cc] : []) {
      if (kind === 'read') this.rcu += c.ReadCapacityUnits ?? c.CapacityUnits ?? 0;
      else this.wcu += c.WriteCapacityUnits ?? c.CapacityUnits ?? 0;
    }
  }
}

/** Turn an SDK/network error into a message a user can act on. */
export function toReconcileError(e: unknown, table: string, where = ''): ReconcileError {
  if (e instanceof ReconcileError) return e;
  if (e instanceof Cancelled || isAbort(e)) return new ReconcileError('Cancelled.', 'cancelled', { cause: e });
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  const name = err.name ?? '';
  const msg = err.message ?? String(e);
  const code = err.code ?? err.cause?.code ?? '';
  if (/^Region is missing/.test(msg)) {
    return new ReconcileError(`No AWS region${where}: set one (--region or the connection's "region", AWS_REGION, or the profile's region).`, 'bad-options', { cause: e });
  }
  if (/^Region not accepted/.test(msg)) return new ReconcileError(`Not a valid AWS region${where}: ${msg.replace(/^Region not accepted: /, '')}`, 'bad-options', { cause: e });
  if (name === 'ResourceNotFoundException') return new ReconcileError(`Table "${table}" not found${where}.`, 'table-not-found', { cause: e });
  if (name === 'AccessDeniedException' || name === 'UnrecognizedClientException' || /not authorized/i.test(msg)) {
    return new ReconcileError(`Access denied to table "${table}"${where}; ${quoteUntrusted(msg)}`, 'access-denied', { cause: e });
  }
  if (name === 'ExpiredTokenException' || name === 'CredentialsProviderError' || (/credential/i.test(msg) && !name.endsWith('Exception'))) {
    return new ReconcileError(`No usable AWS credentials${where}: ${msg}`, 'credentials', { cause: e });
  }
  if (
    ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'EPIPE', 'EPROTO'].includes(code) ||
    name === 'TimeoutError' ||
    /ECONNREFUSED|ENOTFOUND|ECONNRESET|socket hang up/.test(msg)
  ) {
    return new ReconcileError(`DynamoDB endpoint unreachable${where}: ${name === 'TimeoutError' && (!code || code === 'ETIMEDOUT') ? 'no answer in time' : code === 'EPROTO' ? 'EPROTO (no TLS there: http:// rather than https://?)' : code || msg}`, 'unreachable', {
      cause: e,
    });
  }
  // Something answered, but not as DynamoDB does (a proxy's 404, an HTML error page, another service).
  const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status && (name === 'Unknown' || /Deserialization error/.test(msg))) {
    return new ReconcileError(`The endpoint did not answer as DynamoDB${where} (HTTP ${status}): check --endpoint / --region.`, 'unreachable', { cause: e });
  }
  if (e instanceof DynamoDBServiceException || status) {
    // The endpoint's own words: quoted as data, never as Dynalint's advice.
    return new ReconcileError(`${safeName(name)}${where}; ${quoteUntrusted(msg)}`, 'aws', { cause: e });
  }
  return new ReconcileError(`${safeName(name)}: ${msg.split('\n')[0].slice(0, 200)}`, 'aws', { cause: e });
}
