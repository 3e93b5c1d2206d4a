import { OverrideError } from "../errors.js";
import { parseFieldPath, writePath } from "../fieldpath.js";
import type { Override } from "../generated/types.js";
import type { OperationEntry } from "./openapi.js";
import { effectiveParameters } from "./parameters.js";

/**
 * Applies overrides to private copies of their operations, in document order (§5): fieldPath is
 * rooted at the operation, containers are created, objects merged, anything else replaced.
 */
export function applyOverrides(
  operations: Map<string, OperationEntry>,
  sourceId: string,
  overrides: readonly Override[],
  /** Collects each failing override instead of throwing the first (the linter reports them all). */
  onError?: (error: OverrideError) => void,
): void {
  const fail = (error: OverrideError) => {
    if (!onError) throw error;
    onError(error);
  };
  const copied = new Set<string>();
  overrides.forEach((override, index) => {
    if (override.sourceId !== sourceId) return;
    const entry = operations.get(override.operationId);
    if (!entry) {
      return fail(new OverrideError(`operation "${override.operationId}" does not exist in source "${sourceId}"`, index));
    }
    if (!copied.has(entry.operationId)) {
      // A private copy, so a shared (dereferenced) component edited here never leaks into another operation.
      entry.operation = structuredClone(entry.operation);
      copied.add(entry.operationId);
    }
    const problem = writePath(entry.operation, parseFieldPath(override.fieldPath), override.value);
    if (problem) return fail(new OverrideError(`cannot apply "${override.fieldPath}" to ${sourceId}/${override.operationId}: ${problem.message}`, index));
    entry.parameters = effectiveParameters(entry.pathItem, entry.operation);
  });
}
