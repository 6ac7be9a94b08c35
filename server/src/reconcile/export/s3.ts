/**
 * Reading an export from S3 with the AWS SDK: the two manifests, then the data files they list, nothing else. Each
 * data file is streamed to a local folder (DuckDB then reads it there: its S3 extension downloads itself at run time),
 * several at once, its MD5 checked against the manifest. A transfer cut part-way (reset, timeout, 5xx) resumes where
 * it stopped with a ranged GET on the same ETag, a bounded number of times; access denied or a missing key stops the
 * run with one line.
 */
import { createHash, Hash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { endpointProblem, isLoopbackHost, quoteUntrusted } from '../client';
import { ReconcileError } from '../types';
import { DataFile } from './manifest';

export interface S3Location {
  bucket: string;
  /** Key prefix of the export's folder, ending with `/` (or empty). */
  prefix: string;
}

export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new ReconcileError(`${JSON.stringify(url.slice(0, 100))} is not an s3://bucket/prefix/ URL.`, 'bad-options');
  const prefix = (m[2] ?? '').replace(/^\/+/, '');
  return { bucket: m[1], prefix: prefix && !prefix.endsWith('/') ? prefix + '/' : prefix };
}

export interface S3Connection {
  region?: string;
  profile?: string;
  endpoint?: string;
}

/** An S3 client on the default credential chain; a custom endpoint (s3rver, MinIO) gets path-style addressing. */
export function createS3Client(conn: S3Connection): S3Client {
  const problem = conn.endpoint !== undefined ? endpointProblem(conn.endpoint) : undefined;
  if (problem) throw new ReconcileError(problem, 'bad-options');
  const local = conn.endpoint !== undefined && isLoopbackHost(new URL(conn.endpoint).hostname);
  return new S3Client({
    region: conn.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? (local ? 'us-east-1' : undefined),
    endpoint: conn.endpoint,
    forcePathStyle: conn.endpoint !== undefined,
    credentials: fromNodeProviderChain(conn.profile ? { profile: conn.profile } : {}),
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
  });
}

/** Errors after which a transfer is tried again (from where it stopped). */
export function transient(e: unknown): boolean {
  const err = e as { name?: string; code?: string; cause?: { code?: string }; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode ?? 0;
  if (status >= 500 || err.name === 'SlowDown' || err.name === 'RequestTimeout' || err.name === 'TimeoutError') return true;
  const code = err.code ?? err.cause?.code ?? '';
  return ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET', 'ECONNABORTED'].includes(code) || /aborted|premature close|socket hang up/i.test(String((e as Error)?.message));
}

/** An S3 error as one line a user can act on. */
export function s3Error(e: unknown, what: string): ReconcileError {
  if (e instanceof ReconcileError) return e;
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string }; $metadata?: { httpStatusCode?: number } };
  const name = err.name ?? '';
  const status = err.$metadata?.httpStatusCode;
  if (name === 'NoSuchKey' || name === 'NotFound' || status === 404) return new ReconcileError(`${what}: not found.`, 'bad-options', { cause: e });
  if (name === 'NoSuchBucket') return new ReconcileError(`${what}: no such bucket.`, 'bad-options', { cause: e });
  if (name === 'AccessDenied' || name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || status === 403) {
    return new ReconcileError(`${what}: access denied; ${quoteUntrusted(err.message ?? name)}`, 'access-denied', { cause: e });
  }
  if (/^Region is missing/.test(err.message ?? '')) return new ReconcileError(`No AWS region for S3: set --s3-region, --region or AWS_REGION.`, 'bad-options', { cause: e });
  if (name === 'CredentialsProviderError') return new ReconcileError(`No usable AWS credentials for S3: ${err.message}`, 'credentials', { cause: e });
  const code = err.code ?? err.cause?.code;
  if (code) return new ReconcileError(`${what}: S3 endpoint unreachable: ${code}`, 'unreachable', { cause: e });
  if (e instanceof S3ServiceException || status) return new ReconcileError(`${what}: ${/^[A-Za-z][A-Za-z0-9]{0,63}$/.test(name) ? name : 'Error'}; ${quoteUntrusted(err.message ?? '')}`, 'aws', { cause: e });
  return new ReconcileError(`${what}: ${(err.message ?? String(e)).split('\n')[0].slice(0, 200)}`, 'aws', { cause: e });
}

/**
 * The S3 key of a data file: under the export's own `data/` (full exports), or under the `AWSDynamoDB/data/` folder
 * shared by incremental exports, next to the export's folder (see manifest.ts).
 */
export function dataKey(exportPrefix: string, file: DataFile): string {
  return `${file.shared ? exportPrefix.replace(/[^/]+\/$/, '') : exportPrefix}data/${file.name}`;
}

export interface TransferStats {
  files: number;
  bytes: number;
  /** Transfers resumed after a cut. */
  resumed: number;
  requests: number;
}

export class S3Export {
  readonly stats: TransferStats = { files: 0, bytes: 0, resumed: 0, requests: 0 };

  constructor(
    readonly client: S3Client,
    readonly url: string,
    readonly location: S3Location,
    readonly opts: { signal?: AbortSignal; maxResumes?: number } = {},
  ) {}

  /** A small object (a manifest) as text. */
  async text(name: string): Promise<string> {
    const key = this.location.prefix + name;
    for (let attempt = 0; ; attempt++) {
      try {
        this.stats.requests++;
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key }), { abortSignal: this.opts.signal });
        return await out.Body!.transformToString('utf8');
      } catch (e) {
        if (this.opts.signal?.aborted) throw new ReconcileError('Cancelled.', 'cancelled');
        if (!transient(e) || attempt >= (this.opts.maxResumes ?? 5)) throw s3Error(e, `s3://${this.location.bucket}/${key}`);
      }
    }
  }

  /** Download the data files to `dir`/data/, `concurrency` at a time; returns their local paths in manifest order. */
  async download(files: DataFile[], dir: string, concurrency: number): Promise<string[]> {
    mkdirSync(join(dir, 'data'), { recursive: true });
    const paths = files.map((f) => join(dir, 'data', f.name));
    let next = 0;
    let failure: { e: unknown } | undefined;
    const worker = async () => {
      while (!failure && next < files.length) {
        const i = next++;
        try {
          await this.fetchFile(files[i], paths[i]);
        } catch (e) {
          failure ??= { e };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, files.length)) }, worker));
    if (failure) throw failure.e;
    return paths;
  }

  /** One data file, streamed to disk; on a transient cut, resumed from the bytes already written (same ETag). */
  private async fetchFile(file: DataFile, path: string): Promise<void> {
    const key = dataKey(this.location.prefix, file);
    const what = `s3://${this.location.bucket}/${key}`;
    const out = createWriteStream(path);
    const md5: Hash = createHash('md5');
    let written = 0;
    let etag: string | undefined;
    let resumes = 0;
    try {
      for (;;) {
        try {
          this.stats.requests++;
          const res = await this.client.send(
            new GetObjectCommand({
              Bucket: this.location.bucket,
              Key: key,
              ...(written > 0 ? { Range: `bytes=${written}-`, IfMatch: etag } : {}),
            }),
            { abortSignal: this.opts.signal },
          );
          etag ??= res.ETag;
          const body = res.Body as Readable;
          for await (const chunk of body) {
            const b = chunk as Buffer;
            md5.update(b);
            written += b.length;
            this.stats.bytes += b.length;
            if (!out.write(b)) await new Promise<void>((r) => out.once('drain', () => r()));
          }
          break;
        } catch (e) {
          if (this.opts.signal?.aborted) throw new ReconcileError('Cancelled.', 'cancelled');
          const err = e as { name?: string };
          if (err.name === 'PreconditionFailed') throw new ReconcileError(`${what}: the object changed while it was read (ETag); run again.`, 'aws', { cause: e });
          if (!transient(e) || resumes >= (this.opts.maxResumes ?? 5)) throw s3Error(e, what);
          resumes++;
          this.stats.resumed++;
        }
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    }
    const got = md5.digest('base64');
    if (file.md5 && got !== file.md5) throw new ReconcileError(`${what}: MD5 ${got} does not match the manifest's ${file.md5}: the file is damaged or not this export's.`, 'aws');
    this.stats.files++;
  }
}
