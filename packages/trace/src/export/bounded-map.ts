/**
 * A Map that forgets its oldest entries past a fixed size, so exporters can remember "where did
 * event #seq land" for the causes still to come without growing with the trace.
 *
 * Invariant: `size <= cap`; eviction is by insertion order (oldest first).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly cap: number) {}

  get size(): number {
    return this.map.size;
  }

  set(k: K, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.cap) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
    }
  }

  get(k: K): V | undefined {
    return this.map.get(k);
  }

  /** Returns and forgets the entry. */
  take(k: K): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) this.map.delete(k);
    return v;
  }
}
