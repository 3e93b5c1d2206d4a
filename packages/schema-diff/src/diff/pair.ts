/** Items of two lists, paired up: each matcher in turn pairs what the earlier ones left. */
export interface Pairing<T> {
  pairs: [T, T][];
  removed: T[];
  added: T[];
  /** Pairs the next matcher's matches (first match wins, in list order). */
  take(match: (before: T, after: T) => boolean): Pairing<T>;
}

export function pairUp<T>(before: readonly T[], after: readonly T[]): Pairing<T> {
  const removed = [...before];
  const added = [...after];
  const pairs: [T, T][] = [];
  const pairing: Pairing<T> = {
    pairs,
    removed,
    added,
    take(match) {
      for (let i = 0; i < removed.length; i++) {
        const j = added.findIndex((y) => match(removed[i]!, y));
        if (j >= 0) {
          pairs.push([removed[i]!, added[j]!]);
          removed.splice(i--, 1);
          added.splice(j, 1);
        }
      }
      return pairing;
    },
  };
  return pairing;
}
