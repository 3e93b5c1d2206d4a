/**
 * The orders in which benches cycle their subjects: in a fixed order, what ran just before a
 * subject measurably changes its figure. A Williams design (a balanced Latin square): over the
 * orders, each subject runs in each position equally often, and directly after each other subject
 * equally often. n orders for an even n, 2n for an odd one, so that a bench's few rounds stay
 * balanced (the first 9 of 5! permutations all started with the same subject).
 */
export function balancedOrders<T>(items: readonly T[]): T[][] {
  const n = items.length;
  if (n <= 1) return [[...items]];
  // First row 0, 1, n-1, 2, n-2, …; row r adds r to each index (mod n).
  const first = Array.from({ length: n }, (_, j) => (j % 2 === 1 ? (j + 1) / 2 : (n - j / 2) % n));
  const rows = Array.from({ length: n }, (_, r) => first.map((index) => items[(index + r) % n]!));
  return n % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}

/** The median; for an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Measures every subject once per round, `rounds` times, cycling the order of the subjects through
 * `balancedOrders`, so none always runs first or always after the same other. Each subject returns its own measurement (a time,
 * a rate); the result holds each subject's measurements in round order.
 */
export async function alternatingRounds<K extends string>(subjects: Record<K, () => number | Promise<number>>, rounds: number): Promise<Record<K, number[]>> {
  const names = Object.keys(subjects) as K[];
  const orders = balancedOrders(names);
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
