/**
 * The local StepFlow engine against the same component called directly in plain JS, on a chain
 * (each step takes the previous step's result) and a fan-out (every step reads the input; the
 * output gathers them). Three measurements:
 *
 * 1. First run in a fresh process (target ≤ 10 µs/step at 10,000 steps): whole processes, spawned
 *    and timed from outside, in alternating rounds. One imports the built package and runs the flow
 *    once; the baseline builds the same flow document and makes the same calls in a loop; a bare
 *    `node -e 0` is the floor. The figure is the engine process's extra time over the baseline's,
 *    per step: import, validation, analysis and the run, everything a first run costs.
 * 2. Steady overhead per step in this process, engine vs direct calls in alternating rounds. No
 *    forced GC on either side (one before every engine run made it look 3.5–4× slower).
 * 3. Scale curves, 100 to 100,000 steps: µs per step of a warm run and the process's peak RSS, each
 *    size in a fresh process (`series` of the figure, drawn by the scale chart).
 *
 * Run: `npm run bench -- stepflow-engine` (builds, then measures the built package).
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { runFlow, type Flow } from "@flowspec/stepflow";
import { report } from "./support/report.js";
import { alternatingRounds, median, range } from "./support/rounds.js";

const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const runner = join(import.meta.dirname, "fixtures", "engine-run.mjs");
const shapes = ["chain", "fan-out"] as const;
type Shape = (typeof shapes)[number];

const inc = async (n: number): Promise<number> => n + 1;
const components = { "/ts/inc": inc };

function makeFlow(shape: Shape, steps: number): Flow {
  const ids = Array.from({ length: steps }, (_, i) => `s${i}`);
  if (shape === "chain") {
    return {
      schema: SCHEMA,
      steps: ids.map((id, i) => ({ id, component: "/ts/inc", input: i === 0 ? { $from: { workflow: "input" } } : { $from: { step: ids[i - 1]! } } })),
      output: { $from: { step: ids[steps - 1]! } },
    };
  }
  return {
    schema: SCHEMA,
    steps: ids.map((id) => ({ id, component: "/ts/inc", input: { $from: { workflow: "input" } } })),
    output: ids.map((id) => ({ $from: { step: id } })),
  };
}

async function direct(shape: Shape, steps: number): Promise<unknown> {
  if (shape === "fan-out") return Promise.all(Array.from({ length: steps }, () => inc(0)));
  let value = 0;
  for (let i = 0; i < steps; i++) value = await inc(value);
  return value;
}

interface Run {
  /** Wall time of the whole process, spawn to exit, in ms. */
  wallMs: number;
  /** Each run's ms as the process measured it, and its peak RSS. */
  times: number[];
  rssMb: number;
}

/** Spawns one process and times it from outside. */
function spawnTimed(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: import.meta.dirname, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - start;
      if (code !== 0) return reject(new Error(`${args.join(" ")} exited with ${code}`));
      resolve({ wallMs, ...(out ? (JSON.parse(out) as Omit<Run, "wallMs">) : { times: [], rssMb: 0 }) });
    });
  });
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () => loadavg()[0]!.toFixed(1);

// 1. First run in a fresh process.
const FIRST_STEPS = 10_000;
const FIRST_ROUNDS = 9;
console.log(`first run in a fresh process, ${FIRST_STEPS.toLocaleString("en")} steps, whole processes timed from outside, median of ${FIRST_ROUNDS} alternating rounds (load average ${load()})`);
for (const shape of shapes) {
  const rounds = await alternatingRounds(
    {
      engine: async () => (await spawnTimed([runner, "engine", shape, String(FIRST_STEPS)])).wallMs,
      direct: async () => (await spawnTimed([runner, "direct", shape, String(FIRST_STEPS)])).wallMs,
      node: async () => (await spawnTimed(["-e", "0"])).wallMs,
    },
    FIRST_ROUNDS,
  );
  const perStep = rounds.engine.map((engine, i) => ((engine - rounds.direct[i]!) * 1000) / FIRST_STEPS);
  report({
    name: `engine, first run in a fresh process, ${FIRST_STEPS.toLocaleString("en")}-step ${shape} (extra time over the direct calls, per step)`,
    value: median(perStep),
    unit: " µs/step",
    range: range(perStep),
    rounds: FIRST_ROUNDS,
    target: { op: "<=", value: 10 },
    baseline: `the engine process ${fmt(median(rounds.engine))} ms; a process making the same ${FIRST_STEPS.toLocaleString("en")} calls directly ${fmt(median(rounds.direct))} ms`,
    floor: `node -e 0: ${fmt(median(rounds.node))} ms`,
  });
}

// 2. Steady overhead per step, in this process.
const STEADY_STEPS = 10_000;
const STEADY_ROUNDS = 9;
console.log(`\nsteady overhead, ${STEADY_STEPS.toLocaleString("en")} steps, in one process, median of ${STEADY_ROUNDS} alternating rounds, no forced GC (load average ${load()})`);
for (const shape of shapes) {
  const flow = makeFlow(shape, STEADY_STEPS);
  const expected = JSON.stringify(await direct(shape, STEADY_STEPS));
  const timed = async (fn: () => Promise<unknown>) => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  const engineRun = async () => {
    const result = await runFlow(flow, 0, { components });
    if (result.outcome !== "success" || JSON.stringify(result.result) !== expected) throw new Error(`${shape}: the engine and the direct calls disagree`);
  };
  for (let i = 0; i < 2; i++) await Promise.all([engineRun(), direct(shape, STEADY_STEPS)]); // warm-up
  const rounds = await alternatingRounds({ engine: () => timed(engineRun), direct: () => timed(() => direct(shape, STEADY_STEPS)) }, STEADY_ROUNDS);
  const perStep = rounds.engine.map((engine, i) => ((engine - rounds.direct[i]!) * 1000) / STEADY_STEPS);
  report({
    name: `engine, steady overhead per step, ${STEADY_STEPS.toLocaleString("en")}-step ${shape}`,
    value: median(perStep),
    unit: " µs/step",
    range: range(perStep),
    rounds: STEADY_ROUNDS,
    target: { op: "<=", value: 20 },
    baseline: `the engine ${fmt(median(rounds.engine))} ms a run; the same calls made directly ${fmt(median(rounds.direct), 2)} ms`,
  });
}

// 3. Scale curves: each size in its own process; enough runs for ~300,000 steps, the first not counted.
const SIZES = [100, 1_000, 10_000, 100_000];
console.log(`\nscale: µs per step of a warm run (median) and the process's peak RSS, each size in a fresh process (load average ${load()})`);
for (const shape of shapes) {
  const series: { x: number; y: number; rssMb: number }[] = [];
  const floors: string[] = [];
  for (const size of SIZES) {
    const runs = String(Math.max(6, Math.ceil(300_000 / size)));
    const engine = await spawnTimed([runner, "engine", shape, String(size), runs]);
    const plain = await spawnTimed([runner, "direct", shape, String(size), runs]);
    const warm = (run: Run) => (median(run.times.slice(1)) * 1000) / size;
    series.push({ x: size, y: warm(engine), rssMb: engine.rssMb });
    floors.push(`${size.toLocaleString("en")}: ${fmt(warm(plain), 3)} µs/step, ${fmt(plain.rssMb)} MB`);
    console.log(`  ${shape} ${size.toLocaleString("en").padStart(7)} steps: ${fmt(warm(engine), 2)} µs/step, peak RSS ${fmt(engine.rssMb)} MB (direct calls: ${fmt(warm(plain), 3)} µs/step, ${fmt(plain.rssMb)} MB)`);
  }
  const at = (x: number) => series.find((point) => point.x === x)!.y;
  report({
    name: `engine ${shape}, µs per step at 100,000 steps vs at 1,000 (scale 100 to 100,000)`,
    value: at(100_000) / at(1_000),
    unit: "×",
    target: { op: "<=", value: 2 },
    baseline: series.map((point) => `${point.x.toLocaleString("en")}: ${fmt(point.y, 2)} µs/step, ${fmt(point.rssMb!)} MB`).join("; "),
    floor: `direct calls ${floors.join("; ")}`,
    series,
  });
}
process.exit(0);
