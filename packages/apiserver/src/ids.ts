/**
 * Sources of uids and generateName suffixes. With a seed both are reproducible (a run can be
 * compared with another); without one they come from the crypto RNG.
 */
import { randomUUID } from "node:crypto";

export interface IdSource {
  uid(): string;
  /** Five characters from Kubernetes' generateName alphabet (no vowels, no 0/1/3). */
  suffix(): string;
}

const ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** mulberry32: a tiny, well-distributed 32-bit PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function idSource(seed?: number): IdSource {
  const random = seed === undefined ? Math.random : prng(seed);
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  return {
    uid:
      seed === undefined
        ? () => randomUUID()
        : () =>
            `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(random() * 4)]}${hex(3)}-${hex(12)}`,
    suffix: () =>
      Array.from({ length: 5 }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(""),
  };
}
