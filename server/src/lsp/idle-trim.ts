/**
 * Idle memory trim: give back the young generation a big lint grew, once the server is idle.
 *
 * V8 grows new space (both semi-spaces, up to 16 MB each on Node 20) while a big lint allocates, and keeps it
 * committed afterwards: ~30 MB of a server's RSS with a 50,000-line file open. It shrinks new space only in a GC's
 * epilogue, and only when the GC reduces memory or when the allocation throughput V8 measured over the last ~5 s
 * (samples taken at GCs) is non-zero and below 1,000 bytes/ms. An idle server runs no GC, so nothing samples the
 * idle time and new space stays large. This class runs young-generation GCs (scavenges: a few ms, the only pause it
 * ever causes) while the server is idle, so that the throughput condition holds:
 *
 * 1. `settleMs` after the last lint and the last message, a scavenge closes the lint's allocation sample.
 * 2. Every `intervalMs` after that, another scavenge: its sample covers only idle time, so the throughput is low and
 *    V8 shrinks new space. The step's own reading of the heap statistics (an array of objects) before each scavenge
 *    keeps the measured throughput non-zero (zero does not count as low). With `intervalMs` shorter than V8's 5 s
 *    window (tests), the lint's sample leaves V8's ring buffer of 10 samples after ~10 scavenges instead.
 * 3. It stops when new space is back at or under `thresholdBytes`, or after `maxGcs` scavenges since the lint or
 *    close that armed it.
 *
 * A lint (`linted`) or a close (`closed`) arms it. Any other message (`activity`) cancels a pending step and starts
 * over from step 1 (the scavenges already run still count); a step that finds a lint running or queued or a request
 * being answered (`busy`) waits `settleMs` more. Nothing runs unless new space is above the threshold when the server
 * has become quiet. A step that throws turns the trim off for good (`onError`): a timer never throws.
 *
 * Measured (50,000-line TS file, first lint and one edit): RSS 185 -> 157 MB ~7 s later, after 2 scavenges of
 * 3-21 ms. Old space is left as it is: V8's memory reducer compacts it on its own ~100 s after the last major GC
 * (133 MB), with or without this trim; more idle scavenges do not start it earlier.
 */
import { performance } from 'node:perf_hooks';
import type { IdleTrimStats } from '../protocol/lsp';

export interface IdleTrimOptions {
  /** Quiet time after the last lint or message before the first scavenge. */
  settleMs: number;
  /** Time between the following scavenges. */
  intervalMs: number;
  /** Scavenges per trim at most. */
  maxGcs: number;
  /** New space committed above this after a lint starts a trim; at or under it a trim is done. */
  thresholdBytes: number;
  /** V8's committed new space now. */
  newSpaceBytes: () => number;
  /** A young-generation GC (scavenge). */
  minorGc: () => void;
  /** A lint is running or queued: a step waits. */
  busy: () => boolean;
  /** A step threw (the trim is then off for good). */
  onError?: (e: unknown) => void;
  /** A trim finished (new space back under the threshold, or given up). */
  onFinish?: (shrunk: boolean, last: NonNullable<IdleTrimStats['last']>, pausesMs: number[]) => void;
  /** Timers (tests pass a fake clock); default: unref'd `setTimeout`. */
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
}

const nodeTimers = {
  set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms).unref(),
  clear: (h: unknown) => clearTimeout(h as NodeJS.Timeout),
};

/** How many scavenge pauses the stats keep. */
const PAUSES_KEPT = 32;

/** Settings of the server: 1 s after the lint, then one scavenge every 6 s (V8's throughput window is 5 s). */
export function idleTrimTiming(env: string | undefined): Pick<IdleTrimOptions, 'settleMs' | 'intervalMs' | 'maxGcs'> {
  // DYNALINT_IDLE_TRIM_MS=<ms> (tests): both delays that short; the lint's sample then leaves V8's ring buffer of 10
  // samples instead of its 5 s window, so more scavenges are allowed. 'off' or 0 disables the trim.
  if (env === 'off' || env === '0') return { settleMs: 0, intervalMs: 0, maxGcs: 0 };
  const ms = env ? Number(env) : NaN;
  if (Number.isFinite(ms) && ms > 0) return { settleMs: ms, intervalMs: ms, maxGcs: 16 };
  return { settleMs: 1000, intervalMs: 6000, maxGcs: 6 };
}

export class IdleTrim {
  private timer: unknown;
  private armed = false;
  /** A step threw (`onError`): the trim is off for the rest of the process. */
  private failed = false;
  private gcsThisTrim = 0;
  private newSpaceAtStart = 0;
  private pausesThisTrim: number[] = [];
  private readonly s: IdleTrimStats = { trims: 0, givenUp: 0, cancelled: 0, deferred: 0, gcs: 0, pausesMs: [] };

  private readonly timers: NonNullable<IdleTrimOptions['timers']>;

  constructor(private readonly o: IdleTrimOptions) {
    this.timers = o.timers ?? nodeTimers;
  }

  get enabled(): boolean {
    return this.o.maxGcs > 0 && !this.failed;
  }

  /** A lint finished: a trim starts once the server has been quiet for `settleMs` (if new space grew). */
  linted(): void {
    if (!this.enabled) return;
    this.armed = true;
    this.gcsThisTrim = 0; // a lint (or a close) is what allows `maxGcs` more scavenges: nothing else resets the count
    this.schedule(this.o.settleMs);
  }

  /** A document was closed: what it held is garbage now, and the young generation it grew is given back the same way. */
  closed(): void {
    this.linted();
  }

  /**
   * A message arrived: a pending step is cancelled and the trim (if one is due) starts over from the settle time. The
   * scavenges it already ran still count against `maxGcs`: messages without lints (hovers while the cursor moves)
   * cannot make it run without bound.
   */
  activity(): void {
    if (!this.armed) return;
    if (this.timer !== undefined && this.gcsThisTrim > 0) this.s.cancelled++;
    this.schedule(this.o.settleMs);
  }

  stats(): IdleTrimStats {
    return { ...this.s, pausesMs: [...this.s.pausesMs] };
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    this.armed = false;
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = this.timers.set(() => this.step(), ms);
  }

  private step(): void {
    this.timer = undefined;
    if (!this.armed) return;
    try {
      this.trimStep();
    } catch (e) {
      // A timer must never throw into the event loop (the server would exit): the trim turns itself off for good.
      this.dispose();
      this.failed = true;
      this.o.onError?.(e);
    }
  }

  private trimStep(): void {
    if (this.o.busy()) {
      this.s.deferred++;
      return this.schedule(this.o.settleMs);
    }
    const before = this.o.newSpaceBytes();
    if (this.gcsThisTrim === 0) {
      if (before <= this.o.thresholdBytes) {
        this.armed = false; // the lint did not grow the young generation: nothing to give back
        return;
      }
      this.newSpaceAtStart = before;
      this.pausesThisTrim = [];
    }
    const t0 = performance.now();
    this.o.minorGc();
    const pause = Math.round((performance.now() - t0) * 100) / 100;
    this.gcsThisTrim++;
    this.s.gcs++;
    this.pausesThisTrim.push(pause);
    this.s.pausesMs.push(pause);
    if (this.s.pausesMs.length > PAUSES_KEPT) this.s.pausesMs.shift();
    const after = this.o.newSpaceBytes();
    if (after <= this.o.thresholdBytes) return this.finish(true, after);
    if (this.gcsThisTrim >= this.o.maxGcs) return this.finish(false, after);
    this.schedule(this.o.intervalMs);
  }

  private finish(shrunk: boolean, after: number): void {
    this.armed = false;
    if (shrunk) this.s.trims++;
    else this.s.givenUp++;
    this.s.last = { gcs: this.gcsThisTrim, newSpaceBefore: this.newSpaceAtStart, newSpaceAfter: after };
    this.o.onFinish?.(shrunk, this.s.last, this.pausesThisTrim);
  }
}
