/**
 * The one door to the generated validators of this package. The semantic checks (`checkTask`,
 * `checkTaskTree`, `checkTaskList` in `checks/`) reach layer 1 through `schemaIssues` below.
 */
import type { ValidationIssue } from "@flowspec/runtime";
import {
  validateDependency,
  validateDependencyWire,
  validateTask,
  validateTaskWire,
} from "./generated/index.js";

export * from "./generated/index.js";

/** Layer 1 for one Task (or one Dependency) in the given mode: every schema failure, with ajv's keyword. */
export function schemaIssues(kind: "Task" | "Dependency", mode: "strict" | "wire", value: unknown): ValidationIssue[] {
  const validate =
    kind === "Task" ? (mode === "strict" ? validateTask : validateTaskWire) : mode === "strict" ? validateDependency : validateDependencyWire;
  const result = validate(value);
  return result.ok ? [] : result.errors;
}
