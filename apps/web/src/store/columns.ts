/**
 * Growable typed-array columns and a string interning table: the building blocks of the columnar
 * TraceStore. A column's `length` is the number of rows written; rows past it are garbage.
 */

export type TypedArray = Float64Array | Uint32Array | Int32Array | Uint8Array;
type TypedArrayCtor<T extends TypedArray> = { new (n: number): T };

/** A typed array that doubles its capacity when full (amortised O(1) append). */
export class Column<T extends TypedArray> {
  data: T;
  length = 0;
  constructor(
    private readonly ctor: TypedArrayCtor<T>,
    capacity = 1024,
  ) {
    this.data = new ctor(capacity);
  }

  /** Appends every value of `values` (one copy, no per-row work). */
  pushAll(values: ArrayLike<number>): void {
    const need = this.length + values.length;
    if (need > this.data.length) this.grow(Math.max(need, this.data.length * 2));
    this.data.set(values, this.length);
    this.length = need;
  }

  /** Makes room for `rows` rows in all (one allocation now instead of doublings later). */
  reserve(rows: number): void {
    if (rows > this.data.length) this.grow(rows);
  }

  /** Makes the column `rows` long; the new rows' values are for the caller to write. */
  extendTo(rows: number): void {
    if (rows > this.data.length) this.grow(Math.max(rows, this.data.length * 2));
    this.length = rows;
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length * 2);
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i];
  }

  /** The written rows as a view (no copy). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  /** Bytes held (capacity, not length: what the heap pays). */
  bytes(): number {
    return this.data.byteLength;
  }

  private grow(n: number): void {
    const next = new this.ctor(Math.max(n, 16));
    next.set(this.data);
    this.data = next;
  }
}

/** Interns strings to dense ids; id 0 is reserved for "absent". */
export class StringTable {
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [""];

  intern(s: string | undefined): number {
    if (s === undefined) return 0;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  /**
   * Takes strings interned elsewhere (a RowEncoder): `values[0]` must get id `first`, i.e. the
   * table's ids and the encoder's stay in step.
   */
  addInterned(first: number, values: readonly string[]): void {
    if (first !== this.values.length) throw new Error(`string table out of step: ${first}`);
    for (const v of values) {
      this.ids.set(v, this.values.length);
      this.values.push(v);
    }
  }

  /** The id of a string already interned, or undefined. */
  find(s: string): number | undefined {
    return this.ids.get(s);
  }

  value(id: number): string | undefined {
    return id === 0 ? undefined : this.values[id];
  }

  get size(): number {
    return this.values.length - 1;
  }

  /** Rough heap cost: string payload + map entry overhead. */
  bytes(): number {
    let n = 0;
    for (const v of this.values) n += v.length + 40;
    return n;
  }
}
