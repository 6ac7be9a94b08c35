/**
 * The idle memory trim (server/src/lsp/idle-trim.ts) on a fake clock and a fake heap: scavenges run only after a lint
 * that left new space above the threshold, only once the server has been quiet for the settle time, never while
 * messages keep coming or a lint is running or queued, and they stop when new space is small or after the bound.
 */
import { strict as assert } from 'node:assert';
import { IdleTrim, type IdleTrimOptions, idleTrimTiming, reducerSkipReason, reducerTiming } from '../../../server/src/lsp/idle-trim';

const MB = 1048576;

/** A fake clock: timers fire only when `advance` passes their time. */
class Clock {
  now = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  readonly api = {
    set: (fn: () => void, ms: number): unknown => {
      const id = this.next++;
      this.timers.set(id, { at: this.now + ms, fn });
      return id;
    },
    clear: (h: unknown) => void this.timers.delete(h as number),
  };
  get pending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let first: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (!first || e[1].at < first[1].at)) first = e;
      if (!first) break;
      this.timers.delete(first[0]);
      this.now = first[1].at;
      first[1].fn();
    }
    this.now = end;
  }
}

/** A fake young generation: each scavenge shrinks it to `shrinkTo` once `shrinkAfter` scavenges have run. */
function setup(o: { newSpace?: number; shrinkAfter?: number; shrinkTo?: number; maxGcs?: number; gcThrows?: boolean } = {}) {
  const clock = new Clock();
  const heap = { newSpace: o.newSpace ?? 32 * MB, gcs: 0, busy: false };
  const finished: boolean[] = [];
  const errors: unknown[] = [];
  const opts: IdleTrimOptions = {
    settleMs: 1000,
    intervalMs: 6000,
    maxGcs: o.maxGcs ?? 6,
    thresholdBytes: 8 * MB,
    newSpaceBytes: () => heap.newSpace,
    minorGc: () => {
      if (o.gcThrows) throw new Error('no gc here');
      heap.gcs++;
      if (heap.gcs >= (o.shrinkAfter ?? 2)) heap.newSpace = o.shrinkTo ?? 1 * MB;
    },
    busy: () => heap.busy,
    onFinish: (shrunk) => finished.push(shrunk),
    onError: (e) => errors.push(e),
    timers: clock.api,
  };
  return { clock, heap, finished, errors, trim: new IdleTrim(opts) };
}

describe('lsp idle trim', () => {
  it('after a lint that grew new space: one scavenge when quiet, then one per interval until new space is small', () => {
    const { clock, heap, finished, trim } = setup({ shrinkAfter: 2 });
    trim.linted();
    clock.advance(999);
    assert.equal(heap.gcs, 0, 'not before the settle time');
    clock.advance(1);
    assert.equal(heap.gcs, 1);
    clock.advance(5999);
    assert.equal(heap.gcs, 1, 'the next one after the interval');
    clock.advance(1);
    assert.equal(heap.gcs, 2);
    assert.deepEqual(finished, [true]);
    clock.advance(60_000);
    assert.equal(heap.gcs, 2, 'nothing more once new space is small');
    assert.equal(clock.pending, 0);
    const s = trim.stats();
    assert.deepEqual({ trims: s.trims, givenUp: s.givenUp, gcs: s.gcs, pauses: s.pausesMs.length, last: s.last }, { trims: 1, givenUp: 0, gcs: 2, pauses: 2, last: { gcs: 2, newSpaceBefore: 32 * MB, newSpaceAfter: 1 * MB } });
  });

  it('nothing runs after a lint that left new space small', () => {
    const { clock, heap, finished, trim } = setup({ newSpace: 4 * MB });
    trim.linted();
    clock.advance(120_000);
    assert.equal(heap.gcs, 0);
    assert.deepEqual(finished, []);
    assert.equal(clock.pending, 0);
  });

  it('nothing runs while messages keep coming, however long; it runs once they stop', () => {
    const { clock, heap, trim } = setup();
    trim.linted();
    for (let i = 0; i < 500; i++) {
      clock.advance(900);
      trim.activity(); // a keystroke every 0.9 s
      if (i % 10 === 0) trim.linted(); // and its lint now and then
    }
    assert.equal(heap.gcs, 0);
    clock.advance(1000);
    assert.equal(heap.gcs, 1);
  });

  it('a message between two scavenges starts the trim over from the settle time', () => {
    const { clock, heap, trim } = setup({ shrinkAfter: 3 });
    trim.linted();
    clock.advance(1000);
    assert.equal(heap.gcs, 1);
    clock.advance(3000);
    trim.activity();
    clock.advance(5000); // past the old interval's end
    assert.equal(heap.gcs, 2, 'the settle scavenge again, not the interval one');
    assert.equal(trim.stats().cancelled, 1);
    clock.advance(6000);
    assert.equal(heap.gcs, 3);
    assert.equal(trim.stats().trims, 1);
  });

  it('waits while a lint is running or queued or a request is being answered (each wait counted)', () => {
    const { clock, heap, trim } = setup();
    trim.linted();
    heap.busy = true;
    clock.advance(30_000);
    assert.equal(heap.gcs, 0);
    assert.equal(trim.stats().deferred, 30);
    heap.busy = false;
    clock.advance(1000);
    assert.equal(heap.gcs, 1);
  });

  it('messages without lints cannot make it run without bound: its scavenges count from the lint that armed it', () => {
    const { clock, heap, trim } = setup({ shrinkAfter: 1_000_000 });
    trim.linted();
    for (let i = 0; i < 1440; i++) {
      clock.advance(2500); // a hover every 2.5 s for an hour, never a lint
      trim.activity();
    }
    clock.advance(600_000);
    assert.equal(heap.gcs, 6);
    assert.equal(trim.stats().givenUp, 1);
    assert.equal(clock.pending, 0);
    trim.linted(); // a new lint allows a new trim
    clock.advance(600_000);
    assert.equal(heap.gcs, 12);
  });

  it('a step that throws turns the trim off instead of throwing from its timer', () => {
    const { clock, errors, trim } = setup({ gcThrows: true });
    trim.linted();
    assert.doesNotThrow(() => clock.advance(1000));
    assert.equal(errors.length, 1);
    assert.equal(clock.pending, 0);
    trim.linted();
    trim.activity();
    assert.equal(clock.pending, 0, 'off for good');
  });

  it('gives up after its bound of scavenges', () => {
    const { clock, heap, finished, trim } = setup({ shrinkAfter: 1000, maxGcs: 4 });
    trim.linted();
    clock.advance(600_000);
    assert.equal(heap.gcs, 4);
    assert.deepEqual(finished, [false]);
    assert.equal(trim.stats().givenUp, 1);
    assert.equal(clock.pending, 0);
  });

  it('a close arms it like a lint (the closed document grew new space; nothing else will run)', () => {
    const { clock, heap, trim } = setup({ shrinkAfter: 2 });
    trim.activity();
    trim.closed();
    clock.advance(7000);
    assert.equal(heap.gcs, 2);
    assert.equal(trim.stats().trims, 1);
  });

  it('activity without a lint before it schedules nothing', () => {
    const { clock, heap, trim } = setup();
    trim.activity();
    assert.equal(clock.pending, 0);
    clock.advance(60_000);
    assert.equal(heap.gcs, 0);
  });

  it('timing: 1 s then 6 s (V8 samples throughput over 5 s); a short test setting; off', () => {
    assert.deepEqual(idleTrimTiming(undefined), { settleMs: 1000, intervalMs: 6000, maxGcs: 6 });
    assert.deepEqual(idleTrimTiming('20'), { settleMs: 20, intervalMs: 20, maxGcs: 16 });
    assert.equal(idleTrimTiming('off').maxGcs, 0);
    assert.equal(setup().trim.stats().reducer.enabled, false, 'no reducer step without its options');
    const { clock, heap } = setup();
    const off = new IdleTrim({ ...idleTrimTiming('off'), thresholdBytes: 0, newSpaceBytes: () => 32 * MB, minorGc: () => heap.gcs++, busy: () => false, timers: clock.api });
    off.linted();
    clock.advance(60_000);
    assert.equal(heap.gcs, 0);
  });
});

/** The trim with its reducer step: a fake V8 whose memory reducer GCs are reported through `watch`'s callback. */
function withReducer(o: { newSpace?: number; pays?: boolean; delayMs?: number } = {}) {
  const clock = new Clock();
  const heap = { newSpace: o.newSpace ?? 32 * MB, gcs: 0, nudges: 0, busy: false, pays: o.pays ?? true, rss: 160 * MB, watching: 0, stopped: 0, released: 0, setThrows: false };
  const errors: unknown[] = [];
  let reducerGc: ((pauseMs: number) => void) | undefined;
  const runs: { gcs: number; pausesMs: number[]; rssBefore: number; rssAfter: number }[] = [];
  const trim = new IdleTrim({
    settleMs: 1000,
    intervalMs: 6000,
    maxGcs: 6,
    thresholdBytes: 8 * MB,
    newSpaceBytes: () => heap.newSpace,
    minorGc: () => {
      heap.gcs++;
      heap.newSpace = 1 * MB;
    },
    busy: () => heap.busy,
    reducer: {
      delayMs: o.delayMs ?? 10_000,
      intervalMs: 100,
      nudges: 12,
      watchMs: 20_000,
      nudge: () => heap.nudges++,
      release: () => heap.released++,
      skipReason: () => (heap.pays ? undefined : 'small heap'),
      watch: (onGc) => {
        heap.watching++;
        reducerGc = onGc;
        return () => {
          heap.stopped++;
          reducerGc = undefined;
        };
      },
      rss: () => heap.rss,
    },
    onReducer: (r) => runs.push(r),
    onError: (e) => errors.push(e),
    timers: {
      set: (fn, ms) => {
        if (heap.setThrows) throw new Error('no timer');
        return clock.api.set(fn, ms);
      },
      clear: clock.api.clear,
    },
  });
  /** V8's reducer runs a GC (only seen while the trim watches). */
  const v8Gc = (pauseMs: number) => reducerGc?.(pauseMs);
  return { clock, heap, trim, runs, v8Gc, errors };
}

describe('lsp idle trim: the reducer step', () => {
  it('once quiet for its delay after the scavenges: 12 nudges 100 ms apart, then it watches what V8 runs and reports it', () => {
    const { clock, heap, trim, runs, v8Gc } = withReducer();
    trim.linted();
    clock.advance(1000);
    assert.equal(heap.gcs, 1, 'the scavenge first');
    clock.advance(9999);
    assert.equal(heap.nudges, 0, 'not before the delay');
    clock.advance(1);
    assert.equal(heap.nudges, 1);
    clock.advance(1099);
    assert.equal(heap.nudges, 11);
    assert.equal(heap.watching, 0);
    clock.advance(1);
    assert.deepEqual({ nudges: heap.nudges, watching: heap.watching }, { nudges: 12, watching: 1 });
    assert.deepEqual({ enabled: trim.stats().reducer.enabled, watching: trim.stats().reducer.watching }, { enabled: true, watching: true });
    clock.advance(5000);
    heap.rss = 133 * MB;
    v8Gc(21.7);
    clock.advance(700);
    v8Gc(102.2);
    clock.advance(2999);
    assert.equal(heap.stopped, 0, 'the watch ends 3 s after the last GC');
    clock.advance(1);
    assert.equal(heap.stopped, 1);
    assert.equal(trim.stats().reducer.watching, false);
    v8Gc(5); // not watched any more
    assert.deepEqual(runs, [{ gcs: 2, pausesMs: [21.7, 102.2], rssBefore: 160 * MB, rssAfter: 133 * MB }]);
    const r = trim.stats().reducer;
    assert.deepEqual({ steps: r.steps, nudges: r.nudges, gcs: r.gcs, pausesMs: r.pausesMs, skipped: r.skipped }, { steps: 1, nudges: 12, gcs: 2, pausesMs: [21.7, 102.2], skipped: 0 });
    clock.advance(600_000);
    assert.equal(heap.nudges, 12, 'at most once per lint');
    assert.equal(clock.pending, 0);
    trim.linted();
    clock.advance(60_000);
    assert.equal(heap.nudges, 24, 'a new lint allows one more');
  });

  it('the watch ends after 3 GCs (V8 runs at most 3 in a row), or after its bound when V8 runs none', () => {
    const { clock, heap, trim, runs, v8Gc } = withReducer();
    trim.linted();
    clock.advance(1000 + 10_000 + 1200);
    assert.equal(heap.watching, 1);
    v8Gc(1);
    v8Gc(2);
    v8Gc(3);
    clock.advance(0);
    assert.equal(heap.stopped, 1);
    trim.linted();
    clock.advance(1000 + 10_000 + 1200);
    assert.equal(heap.watching, 2); // since 100 ms (the last nudge at 1 s + 10 s + 11 x 100 ms)
    clock.advance(19_899);
    assert.equal(heap.stopped, 1);
    clock.advance(1);
    assert.equal(heap.stopped, 2);
    assert.deepEqual(runs.map((r) => r.gcs), [3, 0]);
  });

  it('runs after a lint or close that left new space small, unless the heap is small (skipped, counted)', () => {
    const { clock, heap, trim } = withReducer({ newSpace: 4 * MB });
    trim.closed();
    clock.advance(1000 + 10_000 + 1200);
    assert.deepEqual({ gcs: heap.gcs, nudges: heap.nudges }, { gcs: 0, nudges: 12 });
    const small = withReducer({ pays: false });
    small.trim.linted();
    small.clock.advance(120_000);
    assert.deepEqual({ nudges: small.heap.nudges, skipped: small.trim.stats().reducer.skipped, why: small.trim.stats().reducer.lastSkip }, { nudges: 0, skipped: 1, why: 'small heap' });
    assert.equal(small.clock.pending, 0);
  });

  it('a message during the wait starts it over; one during the nudges cancels them (they start over, bounded per lint)', () => {
    const { clock, heap, trim } = withReducer();
    trim.linted();
    clock.advance(1000 + 9000);
    trim.activity();
    clock.advance(9999);
    assert.equal(heap.nudges, 0);
    clock.advance(1 + 500);
    assert.equal(heap.nudges, 6);
    trim.activity();
    clock.advance(9999);
    assert.equal(heap.nudges, 6, 'cancelled: nothing until quiet again');
    assert.equal(trim.stats().reducer.cancelled, 1);
    clock.advance(1 + 1100);
    assert.equal(heap.watching, 1, 'all 12 again, then the watch');
    assert.equal(heap.nudges, 18);
    // A hover every 0.5 s, for ever: at most 3 x 12 nudges per lint.
    trim.linted();
    for (let i = 0; i < 2000; i++) {
      clock.advance(i < 20 ? 1000 : 10_500);
      trim.activity();
    }
    assert.ok(heap.nudges - 18 <= 36, `${heap.nudges - 18} nudges`);
    clock.advance(600_000);
    assert.equal(clock.pending, 0);
  });

  it('nothing while a lint is running or queued or a request is being answered', () => {
    const { clock, heap, trim } = withReducer();
    trim.linted();
    clock.advance(1000);
    heap.busy = true;
    clock.advance(120_000);
    assert.equal(heap.nudges, 0);
    heap.busy = false;
    clock.advance(10_000 + 300);
    assert.equal(heap.nudges, 4);
    heap.busy = true; // a lint queued between two nudges: they stop, and start over once it is done and quiet
    clock.advance(30_000);
    assert.equal(heap.nudges, 4);
    heap.busy = false;
    clock.advance(10_000 + 1200);
    assert.equal(heap.nudges, 16);
    assert.equal(heap.watching, 1);
  });

  it('a message during the watch changes nothing; a lint ends the watch and arms a new trim', () => {
    const { clock, heap, trim, runs, v8Gc } = withReducer();
    trim.linted();
    clock.advance(1000 + 10_000 + 1200);
    trim.activity();
    v8Gc(30);
    assert.equal(trim.stats().reducer.gcs, 1, 'still watching');
    trim.linted();
    assert.equal(heap.stopped, 1);
    assert.deepEqual(runs.map((r) => r.pausesMs), [[30]]);
    clock.advance(1000);
    assert.equal(heap.gcs, 1, 'the new trim: its scavenge (new space was left small by the fake, so straight to the wait)');
  });

  it('timing: 30 s of quiet, 12 nudges 100 ms apart, a 20 s watch; short in tests; off', () => {
    assert.deepEqual(reducerTiming(undefined), { delayMs: 30_000, intervalMs: 100, nudges: 12, watchMs: 20_000 });
    assert.deepEqual(reducerTiming('20'), { delayMs: 20, intervalMs: 20, nudges: 12, watchMs: 200 });
    assert.equal(reducerTiming('off'), undefined);
  });

  it('counts at most 3 GCs per watch, even when the observer delivers more in one batch before the watch ends', () => {
    const { clock, trim, runs, v8Gc } = withReducer();
    trim.linted();
    clock.advance(1000 + 10_000 + 1200);
    for (const p of [10, 20, 30, 40, 50]) v8Gc(p); // one batch: the end of the watch (a timer) has not run yet
    clock.advance(0);
    assert.deepEqual(runs.map((r) => r.pausesMs), [[10, 20, 30]]);
    assert.deepEqual({ gcs: trim.stats().reducer.gcs, pausesMs: trim.stats().reducer.pausesMs }, { gcs: 3, pausesMs: [10, 20, 30] });
  });

  it('an observer callback that throws turns the trim off (reported) instead of throwing into the event loop', () => {
    const { clock, heap, trim, v8Gc, errors } = withReducer();
    trim.linted();
    clock.advance(1000 + 10_000 + 1200);
    heap.setThrows = true;
    assert.doesNotThrow(() => v8Gc(10));
    heap.setThrows = false;
    assert.deepEqual({ enabled: trim.enabled, errors: errors.length, stopped: heap.stopped, pending: clock.pending }, { enabled: false, errors: 1, stopped: 1, pending: 0 });
    trim.linted();
    clock.advance(120_000);
    assert.equal(heap.nudges, 12, 'off for good');
  });

  it('drops what the nudges allocated whenever they end: done, cancelled by a message, a busy server or a lint, failed', () => {
    const done = withReducer();
    done.trim.linted();
    done.clock.advance(1000 + 10_000 + 1000); // 11 nudges
    assert.equal(done.heap.released, 0, 'kept while the nudges run');
    done.clock.advance(100);
    assert.deepEqual({ watching: done.heap.watching, released: done.heap.released }, { watching: 1, released: 1 });
    const cancelled = withReducer();
    cancelled.trim.linted();
    cancelled.clock.advance(1000 + 10_000 + 300);
    cancelled.trim.activity();
    assert.equal(cancelled.heap.released, 1, 'a message');
    cancelled.clock.advance(10_000 + 300);
    cancelled.heap.busy = true;
    cancelled.clock.advance(100);
    assert.equal(cancelled.heap.released, 2, 'a busy server');
    const linted = withReducer();
    linted.trim.linted();
    linted.clock.advance(1000 + 10_000 + 300);
    linted.trim.linted();
    assert.equal(linted.heap.released, 1, 'a lint');
    const disposed = withReducer();
    disposed.trim.linted();
    disposed.clock.advance(1000 + 10_000 + 300);
    disposed.heap.setThrows = true;
    disposed.clock.advance(100); // the next nudge cannot schedule its successor: the trim fails
    disposed.heap.setThrows = false;
    assert.deepEqual({ enabled: disposed.trim.enabled, released: disposed.heap.released, errors: disposed.errors.length }, { enabled: false, released: 1, errors: 1 });
  });

  it('a lint starting ends the watch (its GCs are not the reducer\'s); nothing else is changed by it', () => {
    const { clock, heap, trim, runs, v8Gc } = withReducer();
    trim.linting();
    assert.equal(clock.pending, 0, 'nothing armed');
    trim.linted();
    clock.advance(1000 + 5000);
    trim.linting(); // during the wait: nothing (the lint's end re-arms anyway)
    clock.advance(5000 + 1200);
    assert.equal(heap.watching, 1);
    v8Gc(40);
    trim.linting();
    assert.deepEqual({ stopped: heap.stopped, watching: trim.stats().reducer.watching }, { stopped: 1, watching: false });
    v8Gc(500); // the lint's GC: not counted
    assert.deepEqual(runs.map((r) => r.pausesMs), [[40]]);
    assert.equal(trim.stats().reducer.gcs, 1);
  });

  it('the quiet time before the nudges is the configured one (30 s in the server)', () => {
    const { clock, heap, trim } = withReducer({ delayMs: 30_000 });
    trim.linted();
    clock.advance(1000 + 29_999);
    assert.equal(heap.nudges, 0);
    clock.advance(1);
    assert.equal(heap.nudges, 1);
  });
});

describe('lsp idle trim: reducerSkipReason (old generation, committed)', () => {
  it('skips a small old generation; then, after a step, until it has grown 10% and 10 MB; 0: never skips', () => {
    assert.match(reducerSkipReason(40 * MB, 48 * MB, undefined) ?? '', /^small heap \(old generation 40 MB < 48 MB\)$/);
    assert.equal(reducerSkipReason(48 * MB, 48 * MB, undefined), undefined, 'no step yet');
    assert.match(reducerSkipReason(120 * MB, 48 * MB, 110 * MB) ?? '', /not 10% \/ 10 MB above 110 MB/);
    assert.match(reducerSkipReason(120 * MB, 48 * MB, 120 * MB) ?? '', /not 10%/, 'unchanged since a step that saw no GC');
    assert.equal(reducerSkipReason(122 * MB, 48 * MB, 110 * MB), undefined, '10% and 10 MB above');
    assert.match(reducerSkipReason(219 * MB, 48 * MB, 200 * MB) ?? '', /not 10%/, '10 MB above but not 10%');
    assert.match(reducerSkipReason(59 * MB, 48 * MB, 50 * MB) ?? '', /not 10%/);
    assert.equal(reducerSkipReason(60 * MB, 48 * MB, 50 * MB), undefined, '10 MB above 50 MB (more than 10%)');
    assert.equal(reducerSkipReason(400 * MB, 48 * MB, 100 * MB), undefined);
    assert.equal(reducerSkipReason(1 * MB, 0, 500 * MB), undefined, 'DYNALINT_IDLE_REDUCER=0');
  });
});
