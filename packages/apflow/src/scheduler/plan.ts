import { checkTaskList, checkTaskTree } from "../checks/check.js";
import type { CheckMode } from "../checks/issue.js";
import type { Task, TaskTreeNode } from "../validate.js";
import { taskTreeToList } from "../tree/convert.js";
import { executorKeyOf } from "./registry.js";
import { TaskTreeRunError } from "./types.js";

export interface PlannedTask {
  id: string;
  name: string;
  priority: number;
  /** The registry key the scheduler would look up. */
  executor: string;
}

export interface TaskPlan {
  /**
   * Waves of tasks in the order they become ready when every task completes and concurrency is
   * unbounded; within a wave, the scheduler's start order (priority, then input order).
   */
  steps: PlannedTask[][];
  /** Tasks that will not run: already terminal, or cancelled by rule (d) because of a terminal input task. */
  skipped: { id: string; name: string; reason: string }[];
}

/** The order in which `runTaskTree` would make tasks ready, without running anything. Throws TaskTreeRunError on invalid input. */
export function planTaskTree(input: TaskTreeNode | readonly Task[], options: { mode?: CheckMode } = {}): TaskPlan {
  const mode = options.mode ?? "strict";
  const check = Array.isArray(input) ? checkTaskList(input, { mode }) : checkTaskTree(input, { mode });
  if (!check.ok) throw new TaskTreeRunError(`the task tree is invalid (${check.errors.length} error(s))`, check.errors);
  const tasks: readonly Task[] = Array.isArray(input) ? input : taskTreeToList(input as TaskTreeNode);
  const index = new Map(tasks.map((task, i) => [task.id, i]));
  const n = tasks.length;
  // 0 waiting, 1 will complete (planned or already completed), 2 will not run (terminal without success).
  const fate = new Uint8Array(n);
  const skipped: TaskPlan["skipped"] = [];
  tasks.forEach((task, i) => {
    if (task.status === "completed") fate[i] = 1;
    else if (task.status !== "pending") {
      fate[i] = 2;
      skipped.push({ id: task.id, name: task.name, reason: `already ${task.status}` });
    }
  });
  const steps: PlannedTask[][] = [];
  for (;;) {
    const wave: number[] = [];
    for (let i = 0; i < n; i++) {
      if (fate[i] !== 0) continue;
      let ready = true;
      let broken: string | undefined;
      for (const dep of tasks[i]!.dependencies ?? []) {
        const j = index.get(dep.id)!;
        if (fate[j] === 2 && dep.required !== false) {
          broken ??= dep.id;
        } else if (fate[j] === 0) ready = false; // not yet planned (or planned in this very wave)
      }
      if (broken !== undefined) {
        fate[i] = 2;
        skipped.push({ id: tasks[i]!.id, name: tasks[i]!.name, reason: `dependency ${broken} failed` });
        i = -1; // a newly skipped task can skip others listed earlier: rescan
        wave.length = 0;
        continue;
      }
      if (ready) wave.push(i);
    }
    if (wave.length === 0) break;
    wave.sort((a, b) => (tasks[a]!.priority ?? 2) - (tasks[b]!.priority ?? 2) || a - b);
        steps.push(wave.map((i) => ({ id: tasks[i]!.id, name: tasks[i]!.name, priority: tasks[i]!.priority ?? 2, executor: executorKeyOf(tasks[i]!) })));
    for (const i of wave) fate[i] = 1; // their dependents become ready in the next wave
  }
  return { steps, skipped };
}
