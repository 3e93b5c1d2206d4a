/**
 * The local StepFlow engine's overhead per step: a 10,000-step chain (each step takes the previous
 * step's result) and a 10,000-step fan-out (every step reads the input; the output gathers them),
 * against calling the same component function directly in plain JS, in the same run. Also the peak
 * heap during a run, at several sizes, to show it grows linearly with the steps.
 *
 * Run: `node --expose-gc --import tsx bench/stepflow-engine.bench.ts` (or `npm run bench`).
 */
import { runFlow, type Flow } from "@flowspec/stepflow";

const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

let peakHeap = 0;
let calls = 0;
/** The component: one addition, and a heap sample every 64 calls. */
const inc = async (n: number): Promise<number> => {
  if ((++calls & 63) === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  return n + 1;
};
const components = { "/ts/inc": inc };

function chain(steps: number): Flow {
  return {
    schema: SCHEMA,
    steps: Array.from({ length: steps }, (_, i) => ({
      id: `s${i}`,
      component: "/ts/inc",
      input: i === 0 ? { $from: { workflow: "input" } } : { $from: { step: `s${i - 1}` } },
    })),
    output: { $from: { step: `s${steps - 1}` } },
  };
}

function fanOut(steps: number): Flow {
  return {
    schema: SCHEMA,
    steps: Array.from({ length: steps }, (_, i) => ({ id: `s${i}`, component: "/ts/inc", input: { $from: { workflow: "input" } } })),
    output: Array.from({ length: steps }, (_, i) => ({ $from: { step: `s${i}` } })),
  };
}

async function directChain(steps: number): Promise<number> {
  let value = 0;
  for (let i = 0; i < steps; i++) value = await inc(value);
  return value;
}

async function directFanOut(steps: number): Promise<number[]> {
  return Promise.all(Array.from({ length: steps }, () => inc(0)));
}

async function time(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc();
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!; // median, ms
}

/** Peak heap above the settled heap while `fn` runs, in bytes. */
async function peak(fn: () => Promise<unknown>): Promise<number> {
  gc();
  const base = process.memoryUsage().heapUsed;
  peakHeap = base;
  await fn();
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  return peakHeap - base;
}

const STEPS = 10_000;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
let failed = false;

for (const [name, make, direct] of [
  ["chain", chain, directChain],
  ["fan-out", fanOut, directFanOut],
] as const) {
  const flow = make(STEPS);
  const coldStart = process.hrtime.bigint();
  const first = await runFlow(flow, 0, { components });
  const cold = Number(process.hrtime.bigint() - coldStart) / 1e6;
  if (first.outcome !== "success") throw new Error(`${name}: ${JSON.stringify(first).slice(0, 200)}`);
  const expected = await direct(STEPS);
  if (JSON.stringify(first.result) !== JSON.stringify(expected)) throw new Error(`${name}: the engine and the direct calls disagree`);

  const baseline = await time(() => direct(STEPS));
  const engine = await time(() => runFlow(flow, 0, { components }));
  const overhead = ((engine - baseline) * 1000) / STEPS;
  console.log(
    `${name.padEnd(8)} ${STEPS} steps: engine ${fmt(engine)} ms, direct calls ${fmt(baseline, 2)} ms → ${fmt(engine / baseline)}× the direct calls, ` +
      `overhead ${fmt(overhead, 2)} µs/step (target < 20); first run incl. validation and analysis ${fmt(cold)} ms`,
  );
  if (overhead >= 20) failed = true;

  const sizes = [2_500, 5_000, 10_000];
  const peaks: number[] = [];
  for (const size of sizes) {
    const f = make(size);
    await runFlow(f, 0, { components }); // compile outside the measurement
    peaks.push(await peak(() => runFlow(f, 0, { components })));
  }
  const directPeak = await peak(() => direct(STEPS));
  const perStep = peaks.map((p, i) => p / sizes[i]!);
  console.log(
    `${"".padEnd(8)} peak heap during a run: ${sizes.map((s, i) => `${s}: ${fmt(peaks[i]! / 1024 / 1024, 2)} MiB`).join(", ")} ` +
      `(${perStep.map((p) => fmt(p, 0)).join(" / ")} bytes/step: linear); direct calls ${fmt(directPeak / 1024 / 1024, 2)} MiB → ${fmt(peaks[2]! / Math.max(directPeak, 1))}×`,
  );
}
process.exitCode = failed ? 1 : 0;
