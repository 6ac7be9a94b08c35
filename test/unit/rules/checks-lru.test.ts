import { strict as assert } from 'node:assert';
import { Lru } from '../../../server/src/rules/lru';

/** An Lru of `n` entries `k0..k(n-1)`, inserted in that order. */
function filled(max: number, n: number): Lru<string, number> {
  const lru = new Lru<string, number>(max);
  for (let i = 0; i < n; i++) lru.set(`k${i}`, i);
  return lru;
}

describe('Lru: a hit on a recent entry leaves the order alone', () => {
  it('an entry among the newer half is not moved by a hit (one lookup, not three)', () => {
    const lru = filled(6, 6);
    assert.equal(lru.get('k4'), 4);
    assert.deepEqual([...lru.keys()], ['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
  });

  it('an entry among the older half is made the most recent by a hit', () => {
    const lru = filled(6, 6);
    assert.equal(lru.get('k1'), 1);
    assert.deepEqual([...lru.keys()], ['k0', 'k2', 'k3', 'k4', 'k5', 'k1']);
  });

  it('an entry read between insertions is never the one forgotten', () => {
    const lru = filled(4, 4);
    for (let i = 4; i < 40; i++) {
      assert.equal(lru.get('k0'), 0);
      lru.set(`k${i}`, i);
      assert.equal(lru.size, 4);
    }
    assert.equal(lru.get('k0'), 0);
  });
});
