/**
 * The lists of fields that passes changed, each made once and named by a number. A key's passes
 * change the same field or two pass after pass (status.availableReplicas; spec.replicas and
 * status.availableReplicas), so a pass's row holds its list's number: no array per pass, and no
 * map from rows to arrays, whose entries were most of the cost of a write that names its fields.
 *
 * Invariants:
 * - List 0 is the empty list. A list is never changed once made (a Pass hands it out as is).
 * - `with(list, names)` is the list of `list`'s names then those of `names` it lacks, in their
 *   order — the same number every time: a list's number names its names in their order.
 * - Lists grow name by name (each step made once, then looked up) while short. Past SHORT names
 *   the rest of a write's names are added at once: a write naming 20 000 fields made a list per
 *   name, 200 million names in all, and took 20 s.
 * - Names are kept as copies (detach): a name cut from a log line would keep its chunk alive.
 */
import { detach } from "../detach.ts";
import { none } from "./short-list.ts";

/** How long a list grows name by name (see the invariants). */
const SHORT = 32;

export class FieldLists {
  private readonly lists: string[][] = [none()];
  /** Per list, the list each name met after it extends it to (undefined: none met yet). */
  private readonly next: (Map<string, number> | undefined)[] = [undefined];
  /** The lists longer than SHORT, by their names (see contentKey). */
  private readonly long = new Map<string, number>();

  with(list: number, names: readonly string[]): number {
    let to = list;
    for (let i = 0; i < names.length; i++) {
      if (this.lists[to].length >= SHORT) return this.withRest(to, names, i);
      to = this.step(to, names[i]);
    }
    return to;
  }

  names(list: number): string[] {
    return this.lists[list];
  }

  private step(list: number, name: string): number {
    const known = this.next[list]?.get(name);
    if (known !== undefined) return known;
    const names = this.lists[list];
    let to = list;
    if (!names.includes(name)) to = this.make([...names, detach(name)]);
    (this.next[list] ??= new Map()).set(detach(name), to);
    return to;
  }

  /** `list` with the names from names[from] on that it lacks, made as one list. */
  private withRest(list: number, names: readonly string[], from: number): number {
    const have = this.lists[list];
    const seen = new Set(have);
    let made: string[] | undefined;
    for (let i = from; i < names.length; i++) {
      const name = names[i];
      if (seen.has(name)) continue;
      seen.add(name);
      (made ??= [...have]).push(detach(name));
    }
    if (made === undefined) return list;
    const key = contentKey(made);
    return this.long.get(key) ?? this.make(made, key);
  }

  private make(names: string[], key?: string): number {
    const n = this.lists.length;
    this.lists.push(Object.freeze(names) as string[]);
    this.next.push(undefined);
    if (key !== undefined) this.long.set(key, n);
    return n;
  }
}

/** Names as one string that no other list's names make (each name's length before it). */
function contentKey(names: readonly string[]): string {
  let key = "";
  for (const name of names) key += `${name.length}:${name}`;
  return key;
}
