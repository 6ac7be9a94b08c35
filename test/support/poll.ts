/**
 * Polling with a deadline, from the test side: for state that announces no event the test can wait on (a browser
 * page under a CSP that refuses Playwright's eval-based waitForFunction, the VS Code API). Never a fixed sleep: the
 * probe runs again every `intervalMs` until it holds or the deadline passes, and the caller asserts on the last value.
 */
import { strict as assert } from 'node:assert';

/** The probe's value once `done(value)` holds, else its last value at the deadline (assert on it). */
export async function until<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Poll until `probe()` deep-equals `expected`; fail with the last value seen at the deadline. */
export async function eventuallyEqual<T>(probe: () => T | Promise<T>, expected: T, message?: string, timeoutMs?: number): Promise<void> {
  const same = (v: T) => {
    try {
      assert.deepStrictEqual(v, expected);
      return true;
    } catch {
      return false;
    }
  };
  assert.deepStrictEqual(await until(probe, same, timeoutMs), expected, message);
}
