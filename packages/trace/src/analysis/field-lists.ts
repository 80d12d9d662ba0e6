/**
 * The lists of fields that passes changed, each made once and named by a number. A key's passes
 * change the same field or two pass after pass (status.availableReplicas; spec.replicas and
 * status.availableReplicas), so a pass's row holds its list's number: no array per pass, and no
 * map from rows to arrays, whose entries were most of the cost of a write that names its fields.
 *
 * Invariants:
 * - List 0 is the empty list. A list is never changed once made (a Pass hands it out as is).
 * - `with(list, name)` is `list` when it has `name`, else the list of `list`'s names then
 *   `name` — the same number every time: a list's number names its names in their order.
 * - Names are kept as copies (detach): a name cut from a log line would keep its chunk alive.
 */
import { detach } from "../detach.ts";
import { none } from "./short-list.ts";

export class FieldLists {
  private readonly lists: string[][] = [none()];
  /** Per list, the list each name met after it extends it to (undefined: none met yet). */
  private readonly next: (Map<string, number> | undefined)[] = [undefined];

  with(list: number, name: string): number {
    const known = this.next[list]?.get(name);
    if (known !== undefined) return known;
    const names = this.lists[list];
    let to = list;
    if (!names.includes(name)) {
      to = this.lists.length;
      this.lists.push(Object.freeze([...names, detach(name)]) as string[]);
      this.next.push(undefined);
    }
    (this.next[list] ??= new Map()).set(detach(name), to);
    return to;
  }

  names(list: number): string[] {
    return this.lists[list];
  }
}
