export * from "./validate.js";
export * from "./checks/index.js";
export { canTransition, copyForReexecution, isTerminal, resetForReexecution, type ResetOptions, type TaskStatus } from "./lifecycle.js";
export * from "./scheduler/index.js";
export * from "./executors/index.js";
export { taskListToTree, taskTreeToList } from "./tree/convert.js";
