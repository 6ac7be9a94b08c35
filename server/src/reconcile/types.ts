/**
 * Reference-count reconciliation: what to compare, where to look, and what a run reports.
 * Plain data only (no vscode, no LSP): shared by the engine, the CLI, the VS Code UI and the tests.
 */

/**
 * Where a partition's count is stored and where its truth lives. Items are selected by sort key inside one partition
 * (one item collection), exactly as the articles model a post with its likes or a video with its counter shards.
 *
 * - `parentSk` + `childPrefix`: the parent item (`SK = META`) stores `counter` (`likeTally`); the truth is the number of
 *   children (`SK` begins with `LIKE#`). A missing counter counts as 0, as `ADD` treats it.
 * - `parentSk` + `shardPrefix`: the parent item (`SK = STATS#TOTAL`) stores a rolled-up `counter` (`play_count`); the
 *   truth is the sum of the shard items' counters (`STATS#TOTAL#0..N`): a sharded counter is "summed on read", so the
 *   shards are the count and the roll-up is the copy that can drift.
 * - `shardPrefix` + `childPrefix`: the count is kept sharded (stored = sum of the shards), the truth is the number of
 *   children.
 * - `shardPrefix` alone: no truth to compare with; the run reports each partition's total (the sum of its shards).
 */
export interface CounterPattern {
  /** Sort key value of the parent item that stores the counter. */
  parentSk?: string;
  /** Counter attribute on the parent (and on the shards unless `shardCounter` is given). */
  counter: string;
  /** Sort-key prefix of the children; each child counts 1. */
  childPrefix?: string;
  /** Sort-key prefix of the counter shards; each shard contributes the number in its counter attribute. */
  shardPrefix?: string;
  /** Counter attribute on the shards (default: `counter`). */
  shardCounter?: string;
}

/** Which partitions to check. */
export type Scope =
  /** Explicit partition key values of the parents (typed by the table's key schema). */
  | { kind: 'keys'; keys: string[] }
  /** Partitions whose key begins with `prefix`, at most `limit` of them (found by a filtered Scan, then queried). */
  | { kind: 'prefix'; prefix: string; limit: number }
  /** The whole table by a parallel Scan with `segments` segments. */
  | { kind: 'table'; segments: number };

export interface ReconcileOptions {
  table: string;
  pattern: CounterPattern;
  scope: Scope;
  /** Strongly consistent reads (2x the RCU). Default: eventually consistent. */
  consistent?: boolean;
  /** Stop issuing reads once this many RCU were consumed; the report is then partial. */
  maxRcu?: number;
  /** Concurrent partitions in `keys`/`prefix` scope (default 16). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  itemsRead: number;
  consumedRcu: number;
  partitionsDone: number;
  /** Known when the scope is a key list or a prefix with a limit. */
  partitionsTotal?: number;
}

/** Plain values of a key: `{ PK: "POST#a91f", SK: "META" }` (numbers as numbers, binary as base64). */
export type PlainKey = Record<string, string | number>;

export interface DriftRow {
  /** The item holding the stored count (for a sharded stored count: the partition key only). */
  key: PlainKey;
  /** The stored count; null when the counter attribute is missing (or is not a number, see `note`). */
  stored: number | null;
  actual: number;
  /** actual - stored (a missing counter counts as 0). Positive: the stored count is too low. */
  drift: number;
  note?: string;
}

export interface TotalRow {
  key: PlainKey;
  total: number;
  shards: number;
  /** Set when some shards hold a counter that is not a number (left out of `total`). */
  note?: string;
}

export interface ReconcileReport {
  table: string;
  pattern: CounterPattern;
  scope: Scope;
  consistent: boolean;
  /** Drifted parents only, sorted by |drift| descending then key. */
  drifted: DriftRow[];
  /** Partitions whose stored count was compared with its truth. */
  checked: number;
  /** Partitions that have children or shards but no parent item (nothing stores their count). */
  orphans: Array<{ key: PlainKey; actual: number }>;
  /** Per-partition totals when the pattern has shards and nothing to compare them with. */
  totals?: TotalRow[];
  /** Items DynamoDB read (billed), including ones a filter dropped. */
  itemsRead: number;
  consumedRcu: number;
  requests: number;
  /** Retries after throttling or a 5xx answer. */
  retries: number;
  elapsedMs: number;
  /** Set when the run stopped early: only the partitions finished before the stop are reported. */
  partial?: { reason: 'budget' | 'cancelled'; message: string };
}

export type RepairOutcome =
  | { status: 'repaired'; from: number | null; to: number }
  | { status: 'already-correct'; value: number }
  /**
   * The counter changed between the read and the write on every attempt: skipped, never overwritten. With `since:
   * 'export'`: a repair from a table export found the counter no longer holding the exported value (`now`, when
   * DynamoDB returned it).
   */
  | { status: 'changed'; attempts: number; since?: 'export'; now?: number | null }
  | { status: 'no-parent' }
  | { status: 'not-attempted'; reason: string }
  /** This parent's read or write failed with an error that was not about the write's outcome (nothing written). */
  | { status: 'failed'; error: string }
  /**
   * The write was sent but its outcome is unknown (the answer was lost: connection reset, timeout, a 5xx, or an SDK
   * retry after one), so a consistent re-read says what is true now:
   * - `written`: the counter holds `to` (the write took effect);
   * - `not-written`: it still holds what was read (`from`);
   * - `changed`: it holds something else (`now`): someone else wrote it, so nothing is claimed;
   * - `unknown`: the re-read failed too (`error`).
   */
  | { status: 'possibly-written'; from: number | null; to: number; found: 'written' | 'not-written' | 'changed' | 'unknown'; now?: number | null; error: string };

export interface RepairResult {
  key: PlainKey;
  outcome: RepairOutcome;
}

export interface RepairReport {
  /** One result per parent asked for, in order: written, skipped, failed or not attempted. */
  results: RepairResult[];
  /** Writes known to have taken effect: answered, or a lost answer whose re-read found the value written. */
  written: number;
  consumedRcu: number;
  consumedWcu: number;
  elapsedMs: number;
  /**
   * Set when the run stopped before the last parent: cancelled, or an error (access denied, endpoint gone...). The
   * results so far are kept; the parents after the stop are `not-attempted`.
   */
  partial?: { reason: 'cancelled' | 'error'; message: string };
}

/** An error with a message meant for the user (table missing, access denied, endpoint unreachable...). */
export class ReconcileError extends Error {
  constructor(
    message: string,
    readonly code: 'table-not-found' | 'access-denied' | 'unreachable' | 'credentials' | 'bad-options' | 'unsupported' | 'cancelled' | 'aws',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ReconcileError';
  }
}
