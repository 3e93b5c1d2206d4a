export * from "./validate.js";
export * from "./checks/index.js";
export { canTransition, copyForReexecution, isTerminal, resetForReexecution, type ResetOptions, type TaskStatus } from "./lifecycle.js";
