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
 * 3-21 ms.
 *
 * Then, optionally, the reducer step (`reducer`): old space. V8's memory reducer (the memory-reducing major GCs that
 * flush unused bytecode and compact old space: 153 -> 131-135 MB with the 50,000-line file) checks every 8 s whether
 * the allocation rate is low, but a rate of exactly zero in old space does not count as low, so an idle server gets it
 * only from its watchdog, ~100 s after the last major GC. Once the server has been quiet for `delayMs` after the
 * scavenges, `nudges` steps `intervalMs` apart each allocate a little in the old generation and run a scavenge
 * (`nudge`): V8's allocation samples (taken at GCs, the last 10 kept) then show a low, non-zero rate, and at its next
 * check (within 8 s) the reducer runs its GCs (1-3, incremental marking, then a pause each). The server does not run
 * a major GC itself: in Node 20 `gc({type: 'major', ...})` with options runs a scavenge, and a plain `gc()` (a forced
 * major GC, 80-135 ms) gives back ~1 MB, because only V8's memory-reducing mode flushes bytecode and compacts. The
 * GCs V8 then runs are watched (`watch`) for `watchMs` and their pauses reported (at most 3: V8 runs no more in a
 * row; more entries are ignored). A message during the nudges cancels them (the wait starts over; at most `3 * nudges`
 * nudges per lint or close) and `release` drops what they allocated (also when they are done, given up or the trim
 * fails); a message during the watch changes nothing (V8 has decided), but a lint starting (`linting`) ends the watch:
 * the GC filter (major, "collect all external memory") also matches a GC V8 runs for external-memory pressure, which
 * a lint can cause. `skipReason` (read when the step is due) skips it when the old generation is small or has not
 * grown 10% / 10 MB since the last step (`reducerSkipReason`: V8 re-arms its reducer only after such growth). At most
 * once per lint or close. The quiet time is 30 s: someone who has not typed for 30 s is reading or away, and the
 * reducer's pauses (up to ~600 ms on a loaded machine) would otherwise meet the next keystroke; V8's own watchdog runs
 * the same GCs at ~100 s.
 *
 * Measured (same build, step on vs off, alternating, loaded 2-core machine): 50,000-line file, RSS 154-156 -> 131-134
 * MB ~20 s after the edit (measured with a 10 s quiet time; off: the same ~100 s after it, from V8's watchdog); V8's
 * three GCs paused 20-130, 80-590 (the compacting one) and 10-100 ms: a keystroke arriving then waits that long. The
 * edits right after: no slower than off within the noise. After closing that file: 157 (off) -> 105 MB, when the
 * close comes before the first step ran (after a step, the old generation has not grown 10% since it, so the close's
 * step is skipped and V8's watchdog gives that memory back). 5,000-line file: skipped (heap ~30 MB);
 * forced, it gives 3 MB for pauses of 36, 42, 11 ms. `--memory-reducer-single-gc`: one GC (15-25 ms), RSS ~148 MB.
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
  /** The reducer step after the scavenges (see above); absent: none. */
  reducer?: ReducerOptions;
  /** A reducer step finished its watch. */
  onReducer?: (run: NonNullable<IdleTrimStats['reducer']['last']>) => void;
  /** Timers (tests pass a fake clock); default: unref'd `setTimeout`. */
  timers?: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };
}

export interface ReducerOptions {
  /** Quiet time after the scavenges (or after the settle time when new space had not grown) before the nudges. */
  delayMs: number;
  /** Time between nudges. */
  intervalMs: number;
  /** Nudges per step. */
  nudges: number;
  /** How long the GCs V8 runs after the nudges are watched (at most). */
  watchMs: number;
  /** A little old-generation allocation and a scavenge. */
  nudge: () => void;
  /** Drop what the nudges allocated: called when they end (done, cancelled, given up, or the trim failed). */
  release?: () => void;
  /** Why the step would not pay now (read when it is due; `reducerSkipReason`); undefined: it pays. */
  skipReason: () => string | undefined;
  /**
   * Start watching V8's memory-reducing GCs (each one's pause, ms); returns the function that stops watching (called
   * at the end of every watch, whether GCs were seen or not).
   */
  watch: (onGc: (pauseMs: number) => void) => () => void;
  /** RSS now (bytes), for the stats. */
  rss: () => number;
}

/** V8's memory reducer runs at most this many GCs in a row. */
const REDUCER_GCS = 3;

/**
 * Why the reducer step would not pay (undefined: it pays). `oldGenBytes`: V8's committed old generation now (old, code
 * and large-object spaces: what V8's reducer measures, without new space); `minBytes`: below it, skipped (0: never
 * skipped, tests); `atLastStep`: the old generation at the end of the last step (undefined: none yet). V8's reducer,
 * once it has run, starts again only after the old generation grew by 10% or 10 MB: until then another step's nudges
 * would be for nothing. Recorded after every step, whether its watch saw GCs or not (V8 may have run them from its
 * watchdog, unseen, or just before).
 */
export function reducerSkipReason(oldGenBytes: number, minBytes: number, atLastStep: number | undefined): string | undefined {
  if (minBytes === 0) return undefined;
  const mb = (b: number) => (b / 1048576).toFixed(0);
  if (oldGenBytes < minBytes) return `small heap (old generation ${mb(oldGenBytes)} MB < ${mb(minBytes)} MB)`;
  if (atLastStep !== undefined && oldGenBytes < Math.max(atLastStep * 1.1, atLastStep + 10 * 1048576))
    return `old generation ${mb(oldGenBytes)} MB, not 10% / 10 MB above ${mb(atLastStep)} MB at the last step`;
  return undefined;
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

type Phase = 'scavenge' | 'wait' | 'nudge' | 'watch';

/**
 * Settings of the reducer step: 30 s of quiet after the scavenges (someone who has not typed for 30 s is reading or
 * away: a keystroke then is unlikely to meet the reducer's pauses; V8's watchdog would run them at ~100 s), 12 nudges 100 ms apart (V8 keeps its last 10 allocation samples), a watch of 20 s (the reducer checks every
 * 8 s, then marks incrementally). DYNALINT_IDLE_TRIM_MS=<ms> (tests): the delay and the interval that short, a watch
 * of 10 of them. 'off' or 0: none.
 */
export function reducerTiming(env: string | undefined): Pick<ReducerOptions, 'delayMs' | 'intervalMs' | 'nudges' | 'watchMs'> | undefined {
  if (env === 'off' || env === '0') return undefined;
  const ms = env ? Number(env) : NaN;
  if (Number.isFinite(ms) && ms > 0) return { delayMs: ms, intervalMs: ms, nudges: 12, watchMs: 10 * ms };
  return { delayMs: 30_000, intervalMs: 100, nudges: 12, watchMs: 20_000 };
}

export class IdleTrim {
  private timer: unknown;
  private armed = false;
  private phase: Phase = 'scavenge';
  private nudgesThisStep = 0;
  private nudgesThisTrim = 0;
  private rssBefore = 0;
  private reducerPauses: number[] = [];
  private stopWatch: (() => void) | undefined;
  /** A step threw (`onError`): the trim is off for the rest of the process. */
  private failed = false;
  private gcsThisTrim = 0;
  private newSpaceAtStart = 0;
  private pausesThisTrim: number[] = [];
  private readonly s: IdleTrimStats = {
    trims: 0,
    givenUp: 0,
    cancelled: 0,
    deferred: 0,
    gcs: 0,
    pausesMs: [],
    reducer: { enabled: false, steps: 0, watching: false, skipped: 0, cancelled: 0, nudges: 0, gcs: 0, pausesMs: [] },
  };

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
    if (this.phase === 'watch') this.endWatch();
    this.armed = true;
    this.setPhase('scavenge');
    this.nudgesThisTrim = 0;
    this.gcsThisTrim = 0; // a lint (or a close) is what allows `maxGcs` more scavenges: nothing else resets the count
    this.schedule(this.o.settleMs);
  }

  /** A document was closed: what it held is garbage now, and the young generation it grew is given back the same way. */
  closed(): void {
    this.linted();
  }

  /**
   * A lint is starting: a watch going on ends now (the GCs the lint causes are not the reducer's; the filter could
   * count one caused by external-memory pressure). Nothing else changes: `linted` arms the next trim.
   */
  linting(): void {
    if (this.phase !== 'watch') return;
    try {
      this.endWatch();
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * A message arrived: a pending step is cancelled and the trim (if one is due) starts over from the settle time. The
   * scavenges it already ran still count against `maxGcs`: messages without lints (hovers while the cursor moves)
   * cannot make it run without bound.
   */
  activity(): void {
    if (!this.armed) return;
    if (this.phase === 'watch') return; // V8 has decided: its GCs run or not whatever arrives now
    if (this.phase === 'nudge') {
      this.s.reducer.cancelled++;
      this.setPhase('wait');
    }
    if (this.phase === 'wait') return this.schedule(this.o.reducer!.delayMs);
    if (this.timer !== undefined && this.gcsThisTrim > 0) this.s.cancelled++;
    this.schedule(this.o.settleMs);
  }

  stats(): IdleTrimStats {
    const r = this.s.reducer;
    return { ...this.s, pausesMs: [...this.s.pausesMs], reducer: { ...r, enabled: !!this.o.reducer && this.enabled, watching: this.phase === 'watch', pausesMs: [...r.pausesMs], ...(r.last ? { last: { ...r.last, pausesMs: [...r.last.pausesMs] } } : {}) } };
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    this.armed = false;
    this.stopWatch?.();
    this.stopWatch = undefined;
    this.setPhase('scavenge');
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
      this.fail(e);
    }
  }

  /** A timer or an observer must never throw into the event loop (the server would exit): the trim turns itself off for good. */
  private fail(e: unknown): void {
    this.failed = true;
    try {
      this.dispose();
    } finally {
      this.o.onError?.(e);
    }
  }

  private setPhase(p: Phase): void {
    const leavingNudges = this.phase === 'nudge' && p !== 'nudge';
    this.phase = p;
    if (leavingNudges) this.o.reducer?.release?.();
  }

  private trimStep(): void {
    if (this.phase === 'watch') return this.endWatch();
    if (this.o.busy()) {
      this.s.deferred++;
      if (this.phase === 'nudge') {
        this.s.reducer.cancelled++;
        this.setPhase('wait');
      }
      return this.schedule(this.phase === 'wait' ? this.o.reducer!.delayMs : this.o.settleMs);
    }
    if (this.phase !== 'scavenge') return this.reducerStep();
    const before = this.o.newSpaceBytes();
    if (this.gcsThisTrim === 0) {
      if (before <= this.o.thresholdBytes) return this.toReducer(); // the lint did not grow the young generation
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
    if (shrunk) this.s.trims++;
    else this.s.givenUp++;
    this.s.last = { gcs: this.gcsThisTrim, newSpaceBefore: this.newSpaceAtStart, newSpaceAfter: after };
    this.o.onFinish?.(shrunk, this.s.last, this.pausesThisTrim);
    this.toReducer();
  }

  /** The scavenges are over: the reducer step is next (if there is one), once quiet for its delay. */
  private toReducer(): void {
    if (!this.o.reducer) {
      this.armed = false;
      return;
    }
    this.setPhase('wait');
    this.schedule(this.o.reducer.delayMs);
  }

  private reducerStep(): void {
    const r = this.o.reducer!;
    if (this.phase === 'wait') {
      const skip = r.skipReason();
      if (skip !== undefined) {
        this.s.reducer.skipped++;
        this.s.reducer.lastSkip = skip;
        this.armed = false;
        this.setPhase('scavenge');
        return;
      }
      this.setPhase('nudge');
      this.nudgesThisStep = 0;
      this.rssBefore = r.rss();
    }
    if (this.nudgesThisTrim >= 3 * r.nudges) {
      // Messages kept cancelling the nudges: given up until the next lint or close.
      this.armed = false;
      this.setPhase('scavenge');
      return;
    }
    r.nudge();
    this.nudgesThisStep++;
    this.nudgesThisTrim++;
    this.s.reducer.nudges++;
    if (this.nudgesThisStep < r.nudges) return this.schedule(r.intervalMs);
    // The nudges are done: V8's reducer decides at its next check (within 8 s); its GCs are watched for `watchMs`.
    this.setPhase('watch');
    this.s.reducer.steps++;
    this.reducerPauses = [];
    this.stopWatch = r.watch((pause) => {
      try {
        this.reducerGc(pause, r);
      } catch (e) {
        this.fail(e);
      }
    });
    this.schedule(r.watchMs);
  }

  /** A GC seen by the watch (from a PerformanceObserver: entries may come several in one batch). */
  private reducerGc(pause: number, r: ReducerOptions): void {
    // V8 runs at most 3 in a row: more (a batch delivered before the watch's end ran) are not counted.
    if (this.phase !== 'watch' || this.reducerPauses.length >= REDUCER_GCS) return;
    const p = Math.round(pause * 100) / 100;
    this.reducerPauses.push(p);
    this.s.reducer.gcs++;
    this.s.reducer.pausesMs.push(p);
    if (this.s.reducer.pausesMs.length > PAUSES_KEPT) this.s.reducer.pausesMs.shift();
    // After one, the next (if any) comes within ~1 s: the watch ends 3 s after the last, or now after the third.
    this.schedule(this.reducerPauses.length >= REDUCER_GCS ? 0 : Math.min(3000, r.watchMs));
  }

  private endWatch(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    this.armed = false;
    this.setPhase('scavenge');
    const r = this.o.reducer!;
    this.s.reducer.last = { gcs: this.reducerPauses.length, pausesMs: this.reducerPauses, rssBefore: this.rssBefore, rssAfter: r.rss() };
    this.o.onReducer?.(this.s.reducer.last);
  }
}
