/**
 * The one door to the generated validators of this package. The semantic checks (`checkTask`,
 * `checkTaskTree`, `checkTaskList` in `checks/`) reach layer 1 through `schemaIssues` below.
 */
import type { ValidationIssue } from "@flowspec/runtime";
import { validateDependencyWire, validateTaskWire } from "./generated/index.js";

export * from "./generated/index.js";

/**
 * Layer 1 for one Task (or one Dependency): every JSON Schema failure except the `uuid` and
 * `date-time` formats. The semantic layer checks those two in both modes, more strictly than
 * ajv-formats does in strict mode (UUID v4 only, no `urn:uuid:` prefix; RFC 3339 with a colon in
 * the offset), and reports them under its own codes (`uuid`, `timestamp`). Running the strict
 * variant's format checks as well would only report the same values twice, so both modes use the
 * wire variant here; `validateTask` (strict) stays available as the schema-only validator.
 */
export function schemaIssues(kind: "Task" | "Dependency", value: unknown): ValidationIssue[] {
  const result = (kind === "Task" ? validateTaskWire : validateDependencyWire)(value);
  return result.ok ? [] : result.errors;
}
