import { strict as assert } from 'node:assert';
import { unexpectedError } from '../../../server/src/cli';

describe('cli: an unexpected error', () => {
  const multi = new Error('EACCES: permission denied, open \'/x\'\n    more detail');
  const cases: [string, unknown, boolean, string | RegExp][] = [
    ['an Error: its first line and how to see more', multi, false, "EACCES: permission denied, open '/x' (set DYNALINT_DEBUG=1 for details)"],
    ['a thrown string', 'boom', false, 'boom (set DYNALINT_DEBUG=1 for details)'],
    ['an Error without a message: its name', new TypeError(''), false, 'TypeError (set DYNALINT_DEBUG=1 for details)'],
    ['with DYNALINT_DEBUG: the stack', multi, true, /^Error: EACCES: permission denied, open '\/x'\n {4}more detail\n {4}at /],
  ];
  for (const [name, e, debug, want] of cases) {
    it(name, () => {
      const got = unexpectedError(e, debug);
      if (typeof want === 'string') assert.equal(got, want);
      else assert.match(got, want);
    });
  }
});
