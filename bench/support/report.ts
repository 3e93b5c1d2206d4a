/**
 * How every bench reports a figure that has a target: one line for a person, and one machine line
 * (`@@figure {json}`) that `run-all.ts` collects into the summary table `npm run bench` ends with
 * (and into `bench/results.json`, which the scale chart reads). A missed target is printed as
 * missed, never hidden.
 */
export interface Figure {
  /** Which bench (the file's name without `.bench.ts`), filled in by `report` from the entry script. */
  bench?: string;
  /** What is measured, such as "flowspec --version vs node -e 0". */
  name: string;
  /** The median over the rounds. */
  value: number;
  /** "×" for ratios, or a unit such as "µs/step", "tasks/s", "%", "MB". */
  unit: string;
  /** The lowest and highest round. */
  range?: [number, number];
  rounds?: number;
  target: { op: "<=" | ">="; value: number };
  /** The baseline as measured in the same run, in words and numbers ("node -e 0: 41.2 ms"). */
  baseline?: string;
  /** The physical floor beside it, where one exists ("a bare parse loop: 9.8 ms"). */
  floor?: string;
  /**
   * The figure the floor itself gives: what `value` would be if the code under test cost nothing
   * beyond the floor. A missed target that this misses too is out of reach, and says so.
   */
  atFloor?: number;
  /** Extra data for charts (scale curves: size → cost per unit, peak RSS). */
  series?: { x: number; y: number; rssMb?: number }[];
  /** What the series' x and y are, for the chart's legend ("files", "ms per file"). */
  seriesUnits?: { x: string; y: string };
}

export function met(figure: Pick<Figure, "value" | "target">): boolean {
  return figure.target.op === "<=" ? figure.value <= figure.target.value : figure.value >= figure.target.value;
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

export function describe(figure: Figure): string {
  const range = figure.range ? ` (${fmt(figure.range[0])}–${fmt(figure.range[1])}${figure.rounds ? ` over ${figure.rounds} rounds` : ""})` : "";
  const target = `target ${figure.target.op === "<=" ? "≤" : "≥"} ${fmt(figure.target.value)}${figure.unit}`;
  const verdict = met(figure) ? "met" : figure.atFloor !== undefined && !met({ ...figure, value: figure.atFloor }) ? `MISSED, and out of reach: the floor itself gives ${fmt(figure.atFloor)}${figure.unit}` : "MISSED";
  return `${figure.name}: ${fmt(figure.value)}${figure.unit}${range}; ${target}: ${verdict}`;
}

export function report(figure: Figure): void {
  const bench = figure.bench ?? (process.argv[1] ?? "").replace(/^.*[\\/]/, "").replace(/\.bench\.ts$/, "");
  const full = { ...figure, bench };
  console.log(`  ${describe(full)}`);
  if (figure.baseline) console.log(`    baseline: ${figure.baseline}`);
  if (figure.floor) console.log(`    floor: ${figure.floor}`);
  console.log(`@@figure ${JSON.stringify(full)}`);
}
