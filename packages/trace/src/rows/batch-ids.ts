/**
 * Dense ids for strings, handed out in order of first use from `first` on. The strings new since
 * the last `take` travel with a batch: a receiver that appends them, in order, to what it holds
 * has the same ids without a table of its own.
 *
 * Invariants: an id names one string for good; `take` hands out each string once, the first
 * batch's values beginning at `first` and each next batch's where the one before ended.
 */
export class BatchIds {
  private readonly ids = new Map<string, number>();
  private next: number;
  private fresh: string[] = [];
  private firstFresh: number;

  constructor(first: number) {
    this.next = first;
    this.firstFresh = first;
  }

  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(s, id);
      this.fresh.push(s);
    }
    return id;
  }

  /** The strings given ids since the last take, and the id of the first of them. */
  take(): { first: number; values: string[] } {
    const out = { first: this.firstFresh, values: this.fresh };
    this.fresh = [];
    this.firstFresh = this.next;
    return out;
  }
}
