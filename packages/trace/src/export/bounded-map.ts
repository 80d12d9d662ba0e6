/**
 * A Map that forgets its oldest entries past a fixed size, so exporters can remember "where did
 * event #seq land" for the causes still to come without growing with the trace.
 *
 * Invariants: at most `cap` entries are held; every entry survives at least `cap / 2` later
 * insertions; each operation is O(1) (two generations of plain Maps: when the young one is full
 * the old one is dropped whole — evicting one by one from a Map's head costs a scan over the
 * holes deletions leave).
 */
export class BoundedMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(cap: number) {
    this.half = Math.max(1, Math.floor(cap / 2));
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  set(k: K, v: V): void {
    this.old.delete(k);
    this.young.set(k, v);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  get(k: K): V | undefined {
    return this.young.get(k) ?? this.old.get(k);
  }

  /** Returns and forgets the entry. */
  take(k: K): V | undefined {
    const v = this.young.get(k);
    if (v !== undefined) {
      this.young.delete(k);
      return v;
    }
    const o = this.old.get(k);
    if (o !== undefined) this.old.delete(k);
    return o;
  }
}
