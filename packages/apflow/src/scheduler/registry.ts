import type { Task } from "../validate.js";

/** What an executor receives besides its inputs (notes §4.4). */
export interface ExecutorContext {
  readonly taskId: string;
  /** A frozen copy of the task as it is when the executor starts. */
  readonly task: Readonly<Task>;
  /** The `result` of each dependency that completed, by task id (a null-prototype object: use `in` or `Object.keys`). */
  readonly dependencyResults: Readonly<Record<string, Record<string, unknown>>>;
  /** Aborted (with the reason) when the task is cancelled. */
  readonly signal: AbortSignal;
  /** Reports progress in [0, 1]; values outside are clamped, non-finite ones ignored. */
  reportProgress(progress: number): void;
}

export type ExecutorFunction = (inputs: Record<string, unknown>, ctx: ExecutorContext) => unknown;

export interface ExecutorObject {
  execute: ExecutorFunction;
  /** Called (after the signal is aborted) when a running task is cancelled; errors are ignored. */
  cancel?(): unknown;
  /** A draft-07 JSON Schema the inputs must match before `execute` is called. */
  inputSchema?: Record<string, unknown>;
  description?: string;
}

export type Executor = ExecutorFunction | ExecutorObject;

export interface ExecutorRegistry {
  /** Adds an executor; an id already taken throws unless `override` is true. */
  register(id: string, executor: Executor, options?: { override?: boolean }): ExecutorRegistry;
  get(id: string): ExecutorObject | undefined;
  has(id: string): boolean;
  ids(): string[];
  unregister(id: string): boolean;
}

/** A registry mapping executor ids (a task's `schemas.method`, else `params.executor_id`, else its `name`) to executors. */
export function createExecutorRegistry(executors: Record<string, Executor> = {}): ExecutorRegistry {
  const entries = new Map<string, ExecutorObject>();
  const registry: ExecutorRegistry = {
    register(id, executor, options = {}) {
      if (typeof id !== "string" || id === "") throw new TypeError("an executor id must be a non-empty string");
      if (entries.has(id) && !options.override) {
        throw new Error(`executor "${id}" is already registered; pass { override: true } to replace it`);
      }
      if (typeof executor === "function") entries.set(id, { execute: executor });
      else if (executor && typeof executor.execute === "function") entries.set(id, executor);
      else throw new TypeError(`executor "${id}" must be a function or an object with an execute() method`);
      return registry;
    },
    get: (id) => entries.get(id),
    has: (id) => entries.has(id),
    ids: () => [...entries.keys()],
    unregister: (id) => entries.delete(id),
  };
  for (const [id, executor] of Object.entries(executors)) registry.register(id, executor);
  return registry;
}

/**
 * The registry key of a task (notes §5, revised 2026-11-27): `schemas.method` when non-empty, else
 * `params.executor_id` when non-empty (how v1 trees name their executor), else `name`.
 */
export function executorKeyOf(task: Task): string {
  const { schemas, params } = task;
  if (schemas && typeof schemas === "object" && typeof schemas.method === "string" && schemas.method !== "") return schemas.method;
  if (params && typeof params === "object" && typeof params.executor_id === "string" && params.executor_id !== "") return params.executor_id;
  return task.name;
}
