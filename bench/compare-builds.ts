/**
 * The StepFlow engine's hot path in two builds of this repo, for a before/after claim about one
 * change (the serde numbers change was held to ≤ 5% this way):
 *
 *   node --import tsx bench/compare-builds.ts <checkout A> <checkout B> [--rounds 9] [--budget 1.05]
 *
 * Each checkout must be built (`npm ci && npm run build`). A round spawns one process per checkout,
 * in alternating order, each running `bench/fixtures/engine-run.mjs` of its own checkout (so it
 * imports that checkout's built @flowspec/stepflow) for a 10,000-step chain and fan-out, 30 runs; a
 * process's figure is the median of its warm runs (the first five left out). Nothing forces a GC.
 * Prints, per shape, the median and range of B's time over A's across the rounds, with a verdict
 * against --budget (default 1.05: B at most 5% slower), and exits 1 when a shape misses it. Not part
 * of `npm run bench`, which measures one build.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";

const { values, positionals } = parseArgs({ options: { rounds: { type: "string", default: "9" }, budget: { type: "string", default: "1.05" } }, allowPositionals: true });
const [a, b] = positionals;
if (!a || !b) {
  console.error("usage: node --import tsx bench/compare-builds.ts <checkout A> <checkout B> [--rounds 9] [--budget 1.05]");
  process.exit(2);
}
const rounds = Number(values.rounds);
const budget = Number(values.budget);
const STEPS = 10_000;
const RUNS = 30;

/** Median ms of the warm runs in one fresh process of `checkout`. */
function warmMs(checkout: string, shape: string): number {
  const runner = join(resolve(checkout), "bench/fixtures/engine-run.mjs");
  const child = spawnSync(process.execPath, [runner, "engine", shape, String(STEPS), String(RUNS)], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`${runner} ${shape} exited with ${child.status}: ${child.stderr}`);
  return median((JSON.parse(child.stdout) as { times: number[] }).times.slice(5));
}

for (const shape of ["chain", "fan-out"]) {
  const times = await alternatingRounds({ a: () => warmMs(a, shape), b: () => warmMs(b, shape) }, rounds);
  const perRound = ratios(times.b, times.a);
  const [low, high] = range(perRound);
  const perStep = (ms: number[]) => ((median(ms) * 1000) / STEPS).toFixed(2);
  const met = median(perRound) <= budget;
  if (!met) process.exitCode = 1;
  console.log(
    `${shape}, ${STEPS.toLocaleString("en")} steps: B/A ${median(perRound).toFixed(3)}× (${low.toFixed(3)}–${high.toFixed(3)} over ${rounds} rounds); ` +
      `A ${perStep(times.a)} µs/step, B ${perStep(times.b)} µs/step; budget ≤ ${budget}×: ${met ? "met" : "MISSED"}`,
  );
}
