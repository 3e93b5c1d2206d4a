/**
 * apflow: semantic validation of a 100,000-task tree against a plain Kahn topological sort of the
 * same tree, and scheduler throughput with no-op executors against a plain promise loop.
 * Targets: validation within 2x the baseline; the scheduler over 100,000 tasks/s.
 */
import { checkTaskTree, createExecutorRegistry, runTaskTree, type Task, type TaskTreeNode } from "@flowspec/apflow";

const N = 100_000;
const FANOUT = 10;

/** A complete tree (all 17 fields, UUID v4 ids); each task depends on its previous sibling. */
function makeTree(n: number): TaskTreeNode {
  const at = "2026-02-16T10:00:00.000Z";
  const nodes: TaskTreeNode[] = [];
  for (let i = 0; i < n; i++) {
    const parent = i === 0 ? undefined : nodes[Math.floor((i - 1) / FANOUT)]!;
    const sibling = parent?.children!.at(-1);
    const task: Task = {
      id: crypto.randomUUID(),
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
      dependencies: sibling ? [{ id: sibling.task.id, required: true }] : [],
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

/** The baseline: flatten the tree, index ids, and order tasks with Kahn's algorithm. */
function kahn(root: TaskTreeNode): number {
  const tasks: Task[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    tasks.push(node.task);
    for (const child of node.children ?? []) stack.push(child);
  }
  const index = new Map<string, number>();
  tasks.forEach((task, i) => index.set(task.id, i));
  const indegree = new Int32Array(tasks.length);
  const dependents: number[][] = tasks.map(() => []);
  tasks.forEach((task, i) => {
    for (const dep of task.dependencies ?? []) {
      const j = index.get(dep.id);
      if (j === undefined) continue;
      indegree[i]!++;
      dependents[j]!.push(i);
    }
  });
  const queue: number[] = [];
  indegree.forEach((d, i) => d === 0 && queue.push(i));
  let seen = 0;
  for (let head = 0; head < queue.length; head++) {
    seen++;
    for (const d of dependents[queue[head]!]!) if (--indegree[d]! === 0) queue.push(d);
  }
  return seen;
}

async function median(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    globalThis.gc?.();
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const tree = makeTree(N);
const flatCount = kahn(tree);
if (flatCount !== N) throw new Error(`baseline ordered ${flatCount} of ${N} tasks`);
for (const mode of ["strict", "wire"] as const) {
  const result = checkTaskTree(tree, { mode });
  if (!result.ok) throw new Error(`the bench tree is invalid in ${mode} mode: ${result.errors[0]!.message}`);
}

// Warm up both, then measure.
await median(2, () => kahn(tree));
await median(2, () => checkTaskTree(tree));
const baseline = await median(7, () => kahn(tree));
const strict = await median(7, () => checkTaskTree(tree, { mode: "strict" }));
const wire = await median(7, () => checkTaskTree(tree, { mode: "wire" }));
console.log(`validation of a ${N.toLocaleString("en")}-task tree (median of 7):`);
console.log(`  baseline Kahn topological sort   ${baseline.toFixed(1)} ms`);
console.log(`  checkTaskTree strict             ${strict.toFixed(1)} ms  = ${(strict / baseline).toFixed(2)}x baseline (target <= 2x)`);
console.log(`  checkTaskTree wire               ${wire.toFixed(1)} ms  = ${(wire / baseline).toFixed(2)}x baseline`);

// Scheduler: no-op executors, unbounded concurrency, validation included.
const registry = createExecutorRegistry({ noop: () => ({}) });
const noop = (_inputs: unknown) => ({});
const list: Task[] = [];
{
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    list.push(node.task);
    for (const child of node.children ?? []) stack.push(child);
  }
}
const promiseLoop = async () => {
  for (const task of list) await Promise.resolve(noop(task.inputs));
};
const schedule = async () => {
  const result = await runTaskTree(tree, { registry }).done;
  if (result.status !== "completed") throw new Error(`run ended ${result.status}`);
};
await median(1, promiseLoop);
await median(1, schedule);
const loop = await median(5, promiseLoop);
const scheduler = await median(5, schedule);
const validationShare = strict;
console.log(`scheduling ${N.toLocaleString("en")} tasks with no-op executors (median of 5):`);
console.log(`  baseline plain promise loop      ${loop.toFixed(1)} ms  (${Math.round(N / (loop / 1000)).toLocaleString("en")} tasks/s)`);
console.log(
  `  runTaskTree (incl. validation)   ${scheduler.toFixed(1)} ms  = ${(scheduler / loop).toFixed(2)}x baseline, ${Math.round(N / (scheduler / 1000)).toLocaleString("en")} tasks/s (target > 100,000 tasks/s)`,
);
console.log(`  of which strict validation      ~${validationShare.toFixed(1)} ms`);
