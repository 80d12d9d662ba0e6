/**
 * Lists that stay short, kept per key: the kinds a key saw added hold one or two items. A push
 * onto an array grows its room to 1.5 × length + 16 (17 for an array of one): over 100k keys that
 * adds up. So lists are shared while empty (`none`) and grown by `append`, which copies a short
 * list into an array of its exact new length — never push onto a list these made. (A pass's
 * lists are not arrays at all: see trigger-table.ts, seq-lists.ts and field-lists.ts.)
 */
const NONE_LIST: readonly never[] = Object.freeze([]);

/** The shared empty list. */
export const none = <T>(): T[] => NONE_LIST as unknown as T[];

/** `list` with `item` at its end: a new array while short, the same one (pushed onto) after. */
export function append<T>(list: T[], item: T): T[] {
  switch (list.length) {
    case 0:
      return [item];
    case 1:
      return [list[0], item];
    case 2:
      return [list[0], list[1], item];
    case 3:
      return [list[0], list[1], list[2], item];
    default:
      list.push(item);
      return list;
  }
}
