/**
 * The idle memory trim (server/src/lsp/idle-trim.ts) on a fake clock and a fake heap: scavenges run only after a lint
 * that left new space above the threshold, only once the server has been quiet for the settle time, never while
 * messages keep coming or a lint is running or queued, and they stop when new space is small or after the bound.
 */
import { strict as assert } from 'node:assert';
import { IdleTrim, type IdleTrimOptions, idleTrimTiming } from '../../../server/src/lsp/idle-trim';

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
    const { clock, heap } = setup();
    const off = new IdleTrim({ ...idleTrimTiming('off'), thresholdBytes: 0, newSpaceBytes: () => 32 * MB, minorGc: () => heap.gcs++, busy: () => false, timers: clock.api });
    off.linted();
    clock.advance(60_000);
    assert.equal(heap.gcs, 0);
  });
});
