/**
 * apflow on random task DAGs (a tree of fan-out 10 whose tasks also depend on 0–3 random earlier
 * tasks; all 17 fields, UUID v4 ids; seeded, so every run builds the same trees):
 * 1. `checkTaskTree` vs a plain Kahn topological sort of the same tree (flatten, index ids, sort),
 *    at 1k, 10k and 100k tasks. No forced GC on either side: each side pays for its own garbage.
 *    Target ≤ 2× at every size. The floor beside it: the Kahn sort plus the generated Task schema
 *    validator on every task, the least a check that validates each task can do.
 * 2. `runTaskTree` with no-op executors on a 50k-task DAG (validation included), against the floor:
 *    the same tasks in Kahn order, each no-op awaited. Target ≥ 150,000 tasks/s.
 * 3. The scale curve, 1k to 100k tasks: cost per task of `checkTaskTree` and `runTaskTree`, and the
 *    peak RSS, each size in a fresh process (`--size N`) so the peaks do not mix.
 * Rounds alternate the subjects (support/rounds.ts); every figure is the median of the rounds.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { checkTaskTree, createExecutorRegistry, runTaskTree, validateTaskWire, type Task, type TaskTreeNode } from "@flowspec/apflow";
import { report } from "./support/report.js";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";

const FANOUT = 10;
const ROUNDS = 9;

/** mulberry32: a small seeded generator, so the trees are the same in every run and process. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidV4(next: () => number): string {
  const hex = (count: number) => Array.from({ length: count }, () => Math.floor(next() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`;
}

/** A random DAG laid out as a tree: task i > 0 depends on up to 3 distinct random tasks before it. */
function makeTree(n: number, seed = 20): TaskTreeNode {
  const next = random(seed);
  const at = "2026-02-16T10:00:00.000Z";
  const nodes: TaskTreeNode[] = [];
  for (let i = 0; i < n; i++) {
    const parent = i === 0 ? undefined : nodes[Math.floor((i - 1) / FANOUT)]!;
    const targets = new Set<number>();
    const wanted = i === 0 ? 0 : Math.floor(next() * 4);
    while (targets.size < Math.min(wanted, i)) targets.add(Math.floor(next() * i));
    const task: Task = {
      id: uuidV4(next),
      parent_id: parent?.task.id ?? null,
      user_id: null,
      name: `task-${i}`,
      status: "pending",
      priority: i % 4,
      inputs: { i },
      schemas: { method: "noop" },
      params: null,
      result: null,
      error: null,
      dependencies: [...targets].map((t) => ({ id: nodes[t]!.task.id, required: true })),
      progress: 0,
      created_at: at,
      started_at: null,
      updated_at: at,
      completed_at: null,
    };
    const node: TaskTreeNode = { task, children: [] };
    nodes.push(node);
    parent?.children!.push(node);
  }
  return nodes[0]!;
}

/** The baseline: flatten the tree, index ids, order the tasks with Kahn's algorithm (task indexes in `order`). */
function kahn(root: TaskTreeNode): { tasks: Task[]; order: number[] } {
  const tasks: Task[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    tasks.push(node.task);
    for (const child of node.children ?? []) stack.push(child);
  }
  const index = new Map<string, number>();
  for (let i = 0; i < tasks.length; i++) index.set(tasks[i]!.id, i);
  const indegree = new Int32Array(tasks.length);
  const dependents: number[][] = tasks.map(() => []);
  for (let i = 0; i < tasks.length; i++) {
    for (const dep of tasks[i]!.dependencies ?? []) {
      const j = index.get(dep.id);
      if (j === undefined) continue;
      indegree[i]!++;
      dependents[j]!.push(i);
    }
  }
  const queue: number[] = [];
  indegree.forEach((d, i) => d === 0 && queue.push(i));
  for (let head = 0; head < queue.length; head++) {
    for (const d of dependents[queue[head]!]!) if (--indegree[d]! === 0) queue.push(d);
  }
  return { tasks, order: queue };
}

/** The check's floor: Kahn, plus the generated (ajv standalone) Task validator on every task. */
function kahnAndSchema(root: TaskTreeNode): number {
  let valid = 0;
  const { tasks, order } = kahn(root);
  for (const i of order) if (validateTaskWire(tasks[i]).ok) valid++;
  return valid;
}

const registry = createExecutorRegistry({ noop: () => ({}) });
const noop = (_inputs: unknown) => ({});

async function schedule(tree: TaskTreeNode): Promise<void> {
  const result = await runTaskTree(tree, { registry }).done;
  if (result.status !== "completed") throw new Error(`run ended ${result.status}`);
}

/** The scheduler's floor: Kahn order, then each no-op awaited in turn. */
async function kahnLoop(tree: TaskTreeNode): Promise<void> {
  const { tasks, order } = kahn(tree);
  for (const i of order) await noop(tasks[i]!.inputs);
}

/**
 * Wall-clock ms per call (the figure). The process's CPU ms per call is kept in `cpuMs` under the
 * same name: a machine shared with other jobs stretches the wall clock, not the CPU time.
 */
const cpuMs = new Map<string, number[]>();
function timeSync(fn: () => unknown, reps: number, name = ""): number {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let r = 0; r < reps; r++) fn();
  const wall = (performance.now() - start) / reps;
  const used = process.cpuUsage(cpu);
  if (name !== "") (cpuMs.get(name) ?? cpuMs.set(name, []).get(name)!).push((used.user + used.system) / 1000 / reps);
  return wall;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`;

const sizeArg = process.argv.indexOf("--size");
if (sizeArg >= 0) {
  // One point of the scale curve, in a fresh process: µs per task for check and run, peak RSS.
  const n = Number(process.argv[sizeArg + 1]);
  const tree = makeTree(n);
  const reps = Math.max(1, Math.round(100_000 / n));
  timeSync(() => checkTaskTree(tree), reps);
  const check = median(Array.from({ length: 5 }, () => timeSync(() => checkTaskTree(tree), reps)));
  await schedule(tree);
  const run: number[] = [];
  for (let r = 0; r < 5; r++) {
    run.push((await timeAsync(async () => {
      for (let k = 0; k < reps; k++) await schedule(tree);
    })) / reps);
  }
  const rssMb = process.resourceUsage().maxRSS / 1024;
  // The floors' own curves (after the peak RSS is read: it is the code under test's).
  timeSync(() => kahnAndSchema(tree), reps);
  const checkFloor = median(Array.from({ length: 5 }, () => timeSync(() => kahnAndSchema(tree), reps)));
  const runFloor: number[] = [];
  for (let r = 0; r < 5; r++) runFloor.push((await timeAsync(async () => { for (let k = 0; k < reps; k++) await kahnLoop(tree); })) / reps);
  const perTask = (ms: number) => (ms * 1000) / n;
  console.log(JSON.stringify({ n, checkUs: perTask(check), runUs: perTask(median(run)), rssMb, checkFloorUs: perTask(checkFloor), runFloorUs: perTask(median(runFloor)) }));
} else {
  console.log(`(${load()})`);
  // 1. checkTaskTree vs Kahn, three sizes.
  for (const n of [1_000, 10_000, 100_000]) {
    const tree = makeTree(n);
    if (kahn(tree).order.length !== n) throw new Error("the bench tree has a cycle");
    const checked = checkTaskTree(tree);
    if (!checked.ok) throw new Error(`the bench tree is invalid: ${checked.errors[0]!.message}`);
    const reps = Math.max(1, Math.round(100_000 / n)); // about 100k tasks of work per round
    cpuMs.clear();
    timeSync(() => kahn(tree), reps);
    timeSync(() => checkTaskTree(tree), reps);
    const times = await alternatingRounds(
      {
        kahn: () => timeSync(() => kahn(tree), reps, "kahn"),
        check: () => timeSync(() => checkTaskTree(tree), reps, "check"),
        floor: () => timeSync(() => kahnAndSchema(tree), reps, "floor"),
      },
      ROUNDS,
    );
    const ratio = ratios(times.check, times.kahn);
    report({
      name: `checkTaskTree vs plain Kahn, ${n.toLocaleString("en")}-task random DAG`,
      value: median(ratio),
      unit: "×",
      range: range(ratio),
      rounds: ROUNDS,
      target: { op: "<=", value: 2 },
      baseline: `Kahn sort ${fmtMs(median(times.kahn))}, checkTaskTree ${fmtMs(median(times.check))} per tree (${load()}); in CPU time ${median(ratios(cpuMs.get("check")!, cpuMs.get("kahn")!)).toFixed(2)}× (${range(ratios(cpuMs.get("check")!, cpuMs.get("kahn")!)).map((r) => r.toFixed(2)).join("–")})`,
      floor: `Kahn + the generated Task validator on each task: ${fmtMs(median(times.floor))}, ${median(ratios(times.floor, times.kahn)).toFixed(2)}× Kahn`,
    });
  }

  // 2. runTaskTree throughput, 50k tasks.
  const N = 50_000;
  const tree = makeTree(N);
  await kahnLoop(tree);
  await schedule(tree);
  const times = await alternatingRounds({ floor: () => timeAsync(() => kahnLoop(tree)), run: () => timeAsync(() => schedule(tree)) }, ROUNDS);
  const rates = times.run.map((ms) => N / (ms / 1000));
  report({
    name: `runTaskTree, no-op executors, ${N.toLocaleString("en")}-task random DAG (validation included)`,
    value: median(rates),
    unit: " tasks/s",
    range: range(rates),
    rounds: ROUNDS,
    target: { op: ">=", value: 150_000 },
    baseline: `runTaskTree ${fmtMs(median(times.run))} per run (${load()})`,
    floor: `Kahn order + each no-op awaited: ${fmtMs(median(times.floor))}, ${Math.round(N / (median(times.floor) / 1000)).toLocaleString("en")} tasks/s`,
  });

  // 3. The scale curve, each size in its own process.
  const series: { x: number; y: number; rssMb: number }[] = [];
  const runSeries: { x: number; y: number; rssMb: number }[] = [];
  const floors = { check: [] as { y: number }[], run: [] as { y: number }[] };
  for (const n of [1_000, 10_000, 100_000]) {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, "--size", String(n)], { encoding: "utf8", env: process.env });
    if (child.status !== 0) throw new Error(`scale point ${n} failed: ${child.stderr}`);
    const point = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { n: number; checkUs: number; runUs: number; rssMb: number; checkFloorUs: number; runFloorUs: number };
    series.push({ x: n, y: point.checkUs, rssMb: point.rssMb });
    runSeries.push({ x: n, y: point.runUs, rssMb: point.rssMb });
    floors.check.push({ y: point.checkFloorUs });
    floors.run.push({ y: point.runFloorUs });
    console.log(`  ${n.toLocaleString("en").padStart(7)} tasks: checkTaskTree ${point.checkUs.toFixed(2)} µs/task, runTaskTree ${point.runUs.toFixed(2)} µs/task, peak RSS ${point.rssMb.toFixed(0)} MB`);
  }
  const growth = (points: { y: number }[]) => points.at(-1)!.y / points[0]!.y;
  report({
    name: "checkTaskTree scale curve: µs per task at 100k / at 1k",
    value: growth(series),
    unit: "×",
    target: { op: "<=", value: 2 },
    baseline: series.map((p) => `${p.x}: ${p.y.toFixed(2)} µs/task, ${p.rssMb.toFixed(0)} MB`).join("; "),
    floor: `Kahn + the generated Task validator on each task: ${floors.check.map((p) => p.y.toFixed(2)).join(" / ")} µs/task, ${growth(floors.check).toFixed(2)}×`,
    atFloor: growth(floors.check),
    series,
  });
  report({
    name: "runTaskTree scale curve: µs per task at 100k / at 1k",
    value: growth(runSeries),
    unit: "×",
    target: { op: "<=", value: 2 },
    baseline: runSeries.map((p) => `${p.x}: ${p.y.toFixed(2)} µs/task, ${p.rssMb.toFixed(0)} MB`).join("; "),
    floor: `Kahn order + each no-op awaited: ${floors.run.map((p) => p.y.toFixed(2)).join(" / ")} µs/task, ${growth(floors.run).toFixed(2)}×`,
    atFloor: growth(floors.run),
    series: runSeries,
  });
}
