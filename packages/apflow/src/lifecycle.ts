import type { Task } from "./validate.js";

export type TaskStatus = Task["status"];

/** The six transitions the Spec allows (notes §4.1); every other move must be rejected. */
const ALLOWED: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ["in_progress", "cancelled"],
  in_progress: ["completed", "failed", "cancelled"],
  failed: ["pending"],
  completed: [],
  cancelled: [],
};

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** True exactly for the Spec's six allowed transitions. */
export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return ALLOWED[from]?.includes(to) ?? false;
}

export interface ResetOptions {
  /** The clock, for tests; defaults to `new Date().toISOString()`. */
  now?: () => string;
}

/**
 * The Spec's failed→pending re-execution: a copy of a `failed` task with `error`, `result`,
 * `started_at` and `completed_at` nulled and `progress` 0. Any other status throws, because
 * completed and cancelled tasks are re-run by copying them (`copyForReexecution`).
 */
export function resetForReexecution<T extends Task>(task: T, options: ResetOptions = {}): T {
  if (task.status !== "failed") {
    throw new Error(`only a failed task can be reset for re-execution; task ${task.id} is ${task.status}`);
  }
  const now = (options.now ?? isoNow)();
  return { ...task, status: "pending", error: null, result: null, started_at: null, completed_at: null, progress: 0, updated_at: now };
}

/**
 * The Spec's "copy execution": the definition of a task under a new id, with status, result,
 * error, progress and timestamps reset. Dependencies and parent_id are kept as they are; the
 * caller rewires them when copying a whole tree.
 */
export function copyForReexecution<T extends Task>(task: T, options: ResetOptions & { id?: string } = {}): T {
  const now = (options.now ?? isoNow)();
  return {
    ...structuredClone(task),
    id: options.id ?? crypto.randomUUID(),
    status: "pending",
    result: null,
    error: null,
    progress: 0,
    created_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
  };
}

let lastMs = Number.NaN;
let lastIso = "";

/** `new Date().toISOString()`, formatted once per millisecond (a scheduler asks for it several times per task). */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
