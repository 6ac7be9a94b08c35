/**
 * The LSP lint scheduler (server/src/lsp/scheduler.ts) on its own: requests coalesce into one lint of each document,
 * a burst keeps deferring it until the burst ends, lints never overlap, one document per turn so other work
 * interleaves, cancel drops a pending lint, and a failing lint is reported without stopping the others.
 * Everything is counted in event-loop turns (setImmediate), never in time.
 */
import { strict as assert } from 'node:assert';
import { LintScheduler } from '../../../server/src/lsp/scheduler';

/** Let `n` turns of the event loop's check phase pass. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** More turns than the scheduler needs to start a pending lint (two quiet turns, then the lint's own). */
const SETTLE = 8;

interface Harness {
  scheduler: LintScheduler;
  log: string[];
  errors: [string, unknown][];
  /** Resolves once `n` lints have finished. */
  linted(n: number): Promise<void>;
}

function harness(lint: (uri: string, log: string[]) => Promise<void> = async () => undefined): Harness {
  const log: string[] = [];
  const errors: [string, unknown][] = [];
  let done = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const scheduler = new LintScheduler(
    async (uri) => {
      log.push(`lint ${uri}`);
      try {
        await lint(uri, log);
      } finally {
        done++;
        for (const w of waiters.filter((x) => x.n <= done)) w.resolve();
      }
    },
    (uri, e) => errors.push([uri, e]),
  );
  const linted = (n: number) => new Promise<void>((resolve) => (done >= n ? resolve() : waiters.push({ n, resolve })));
  return { scheduler, log, errors, linted };
}

describe('lsp: lint scheduler', () => {
  it('coalesces requests made in one turn into one lint', async () => {
    const h = harness();
    for (let i = 0; i < 50; i++) h.scheduler.request('a');
    await h.linted(1);
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint a']);
  });

  it('does not lint while requests keep arriving each turn, then lints once after the burst', async () => {
    const h = harness();
    for (let i = 0; i < 20; i++) {
      h.scheduler.request('a');
      h.log.push(`request ${i}`);
      await turns(1);
    }
    await h.linted(1);
    await turns(SETTLE);
    assert.deepEqual(h.log, [...Array.from({ length: 20 }, (_, i) => `request ${i}`), 'lint a']);
  });

  it('needs two quiet turns: one quiet turn is not enough to start', async () => {
    const h = harness();
    h.scheduler.request('a');
    await turns(1);
    assert.deepEqual(h.log, [], 'nothing after one turn');
    await h.linted(1);
    assert.deepEqual(h.log, ['lint a']);
  });

  it('lints each requested document once, in request order, one per turn so other work interleaves', async () => {
    const h = harness(async (uri, log) => {
      // Work queued during a lint (a hover request, say) runs before the next document's lint.
      setImmediate(() => log.push(`other work after ${uri}`));
    });
    for (const uri of ['a', 'b', 'a', 'c', 'b']) h.scheduler.request(uri);
    await h.linted(3);
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint a', 'other work after a', 'lint b', 'other work after b', 'lint c', 'other work after c']);
  });

  it('never runs two lints at once; a request during a lint relints after it', async () => {
    let running = 0;
    let maxRunning = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const h = harness(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      if (first) {
        first = false;
        await gate;
      }
      running--;
    });
    h.scheduler.request('a');
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint a'], 'the first lint is running');
    h.scheduler.request('a');
    h.scheduler.request('b');
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint a'], 'nothing starts while a lint runs');
    release();
    await h.linted(3);
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint a', 'lint a', 'lint b']);
    assert.equal(maxRunning, 1);
  });

  it('cancel drops a pending lint', async () => {
    const h = harness();
    h.scheduler.request('a');
    h.scheduler.request('b');
    h.scheduler.cancel('a');
    await h.linted(1);
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint b']);
  });

  it('reports a failing lint with its document and goes on with the others', async () => {
    const boom = new Error('boom');
    const h = harness(async (uri) => {
      if (uri === 'bad') throw boom;
    });
    h.scheduler.request('bad');
    h.scheduler.request('good');
    await h.linted(2);
    await turns(SETTLE);
    assert.deepEqual(h.log, ['lint bad', 'lint good']);
    assert.deepEqual(h.errors, [['bad', boom]]);
  });

  it('does nothing when nothing was requested', async () => {
    const h = harness();
    h.scheduler.cancel('a');
    await turns(SETTLE);
    assert.deepEqual(h.log, []);
  });
});
