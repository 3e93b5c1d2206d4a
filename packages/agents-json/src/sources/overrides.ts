import { OverrideError } from "../errors.js";
import { defineOwn, isPlainObject, parseFieldPath, step, writePath } from "../fieldpath.js";
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
  overrides.forEach((override, index) => {
    if (override.sourceId !== sourceId) return;
    const entry = operations.get(override.operationId);
    if (!entry) {
      return fail(new OverrideError(`operation "${override.operationId}" does not exist in source "${sourceId}"`, index));
    }
    // Private copies of the operation and of every container the write goes through, so a shared
    // (dereferenced) object edited here never leaks into another operation, or into another place
    // of this one that used the same $ref.
    const segments = parseFieldPath(override.fieldPath);
    entry.operation = { ...entry.operation };
    unshare(entry.operation, segments, override.value);
    const problem = writePath(entry.operation, segments, override.value);
    if (problem) return fail(new OverrideError(`cannot apply "${override.fieldPath}" to ${sourceId}/${override.operationId}: ${problem.message}`, index));
    entry.parameters = effectiveParameters(entry.pathItem, entry.operation);
  });
}

type Container = Record<string, unknown> | unknown[];
const copyOf = (value: Container): Container => (Array.isArray(value) ? [...value] : { ...value });

// Copies, in place, the containers `writePath` will walk through or merge into under `root`.
function unshare(root: Container, segments: readonly string[], value: unknown): void {
  let container = root;
  for (let i = 0; i < segments.length; i++) {
    const found = step(container, segments[i]!);
    if (!found.found || typeof found.value !== "object" || found.value === null) return;
    const last = i === segments.length - 1;
    if (last && !(isPlainObject(found.value) && isPlainObject(value))) return;
    const copy = copyOf(found.value as Container);
    if (Array.isArray(container)) container[Number(segments[i])] = copy;
    else defineOwn(container, segments[i]!, copy);
    if (last) unshareMerge(copy as Record<string, unknown>, value as Record<string, unknown>);
    container = copy;
  }
}

// Copies the objects a deep merge of `incoming` into `existing` descends into.
function unshareMerge(existing: Record<string, unknown>, incoming: Record<string, unknown>): void {
  for (const key of Object.keys(incoming)) {
    const current = Object.hasOwn(existing, key) ? existing[key] : undefined;
    if (!isPlainObject(current) || !isPlainObject(incoming[key])) continue;
    const copy = { ...current };
    defineOwn(existing, key, copy);
    unshareMerge(copy, incoming[key]);
  }
}
