export { runTaskTree } from "./run.js";
export { planTaskTree, type PlannedTask, type TaskPlan } from "./plan.js";
export { createExecutorRegistry, executorKeyOf, type Executor, type ExecutorContext, type ExecutorFunction, type ExecutorObject, type ExecutorRegistry } from "./registry.js";
export { TaskTreeRunError, type RunHandle, type RunOptions, type RunResult, type StatusChangeEvent } from "./types.js";
