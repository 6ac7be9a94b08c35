/**
 * A bounded map that forgets the least recently used entries first (content-keyed caches of the rules). Bounded by
 * total weight (by default each entry weighs 1, so the bound is an entry count); an entry heavier than the whole
 * bound is not kept at all.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number; at: number }>();
  private total = 0;
  /** Entries inserted so far: an entry's `at` is the count when it was last (re)inserted. */
  private clock = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (key: K, value: V) => number = () => 1,
  ) {}

  /**
   * The value of `key`, made most recently used. An entry (re)inserted fewer than half the held entries ago is in the
   * newer half of the order already and is left where it is (a hit costs one lookup, not three): the order is then
   * least recently used within half the entries, which only decides which entries a full cache forgets first.
   */
  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (this.clock - e.at >= this.map.size >> 1) {
      this.map.delete(key);
      this.map.set(key, e);
      e.at = this.clock++;
    }
    return e.value;
  }

  set(key: K, value: V): void {
    this.remove(key);
    const weight = this.weigh(key, value);
    if (weight > this.maxWeight) return;
    this.map.set(key, { value, weight, at: this.clock++ });
    this.total += weight;
    while (this.total > this.maxWeight) this.remove(this.map.keys().next().value as K);
  }

  private remove(key: K): void {
    const e = this.map.get(key);
    if (!e) return;
    this.map.delete(key);
    this.total -= e.weight;
  }

  get size(): number {
    return this.map.size;
  }

  /** The keys held, least recently used first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  /** The sum of the weights held. */
  get weight(): number {
    return this.total;
  }
}
