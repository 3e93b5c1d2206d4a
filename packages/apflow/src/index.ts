export * from "./validate.js";
export * from "./checks/index.js";
export { canTransition, copyForReexecution, isTerminal, resetForReexecution, type ResetOptions, type TaskStatus } from "./lifecycle.js";
export * from "./scheduler/index.js";
export * from "./executors/index.js";
export { taskListToTree, taskTreeToList } from "./tree/convert.js";
export { createTaskTree, TaskTreeBuildError, type Priority, type TaskHandle, type TaskSpec, type TaskTreeBuilder, type TaskTreeBuilderOptions } from "./builder/task-tree-builder.js";
export type { TaskSchemas } from "./task-schemas.js";
