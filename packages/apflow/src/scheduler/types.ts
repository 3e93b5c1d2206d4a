import type { CheckMode, Issue } from "../checks/issue.js";
import type { TaskStatus } from "../lifecycle.js";
import type { Task, TaskTreeNode } from "../validate.js";
import type { ExecutorRegistry } from "./registry.js";
import { isErrorInstance } from "@flowspec/runtime";

export interface RunOptions {
  /** Where executors are looked up, by `schemas.method` or else `name`, when each task is dispatched. */
  registry: ExecutorRegistry;
  /** How many tasks may be in_progress at once (default: no bound). */
  concurrency?: number;
  /** `map` (default): results only in `ctx.dependencyResults`; `flat`: also merged into inputs as v1 does. */
  mergeDependencyResults?: "map" | "flat";
  /** Validation mode for the input (default `strict`). */
  mode?: CheckMode;
  /** Aborting it cancels every task not yet terminal (as `cancelAll()`). */
  signal?: AbortSignal;
  onStatusChange?: (event: StatusChangeEvent) => void;
  onProgress?: (taskId: string, progress: number) => void;
  /** The clock for every timestamp written (default `new Date().toISOString()`). */
  now?: () => string;
}

export interface StatusChangeEvent {
  taskId: string;
  from: TaskStatus;
  to: TaskStatus;
  /** A snapshot of the task after the change. */
  task: Readonly<Task>;
}

export interface RunResult {
  /** `completed` if every task completed, `failed` if any failed, otherwise `cancelled`. */
  status: "completed" | "failed" | "cancelled";
  /** The tree with every task in its final state (a flat input is arranged by parent_id). */
  tree: TaskTreeNode;
  /** The same final tasks, by id (a null-prototype object). */
  tasks: Record<string, Task>;
}

export interface RunHandle {
  /** Resolves when every task is terminal; rejects before anything starts if the input is invalid. */
  done: Promise<RunResult>;
  /**
   * Cancels one task: a pending one at once, a running one by aborting its signal (it becomes
   * cancelled when its executor settles). Returns false for a terminal task; throws for an unknown id.
   */
  cancel(taskId: string, reason?: string): boolean;
  /** Cancels every task that is not terminal. */
  cancelAll(reason?: string): void;
}

/** `done` rejects with this when the input fails validation or cannot be run as it is. */
export class TaskTreeRunError extends Error {
  static readonly "~brand": string = "@flowspec/apflow:TaskTreeRunError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "TaskTreeRunError";
  constructor(
    message: string,
    readonly issues: readonly Issue[] = [],
  ) {
    super(message);
  }
}
