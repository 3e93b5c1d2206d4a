/**
 * Every order of `items`. Benches cycle their subjects through these: in a fixed order, what ran
 * just before a subject measurably changes its figure.
 */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The median; for an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Measures every subject once per round, `rounds` times, cycling the order of the subjects through
 * their permutations so none always runs first. Each subject returns its own measurement (a time,
 * a rate); the result holds each subject's measurements in round order.
 */
export async function alternatingRounds<K extends string>(subjects: Record<K, () => number | Promise<number>>, rounds: number): Promise<Record<K, number[]>> {
  const names = Object.keys(subjects) as K[];
  const orders = permutations(names);
  const out = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of orders[round % orders.length]!) out[name].push(await subjects[name]());
  }
  return out;
}

/** Per-round ratios a[i] / b[i] of two subjects measured in the same rounds. */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!);
}

/** The lowest and highest value. */
export function range(values: readonly number[]): [number, number] {
  return [Math.min(...values), Math.max(...values)];
}
