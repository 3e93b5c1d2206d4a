/**
 * The comparison of `stepflow test` (protocol notes §6.9): `success` results are normalised on both
 * sides (object keys sorted, every string field named `run_id` replaced by the zero UUID) and
 * compared; `failed` and `skipped` results are compared as they are. An integer never equals a
 * float, as in serde_json: an expected `1.0` (a `JsonFloat`) does not match an actual `1`.
 */
import type { FlowResult } from "../generated/index.js";
import { deepEqual, isObject } from "../values.js";

export const ZERO_RUN_ID = "00000000-0000-0000-0000-000000000000";

/** Sorts object keys recursively and replaces string `run_id` fields with the zero UUID. */
export function normalizeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeValue);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    const normal = key === "run_id" && typeof v === "string" ? ZERO_RUN_ID : normalizeValue(v);
    Object.defineProperty(out, key, { value: normal, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A result as the comparison sees it. */
export function normalizeResult(result: FlowResult): FlowResult {
  return result.outcome === "success" ? { outcome: "success", result: normalizeValue(result.result) } : result;
}

/** Whether an actual result matches an expected one under the §6.9 rules. */
export function resultsMatch(actual: FlowResult, expected: FlowResult): boolean {
  if (actual.outcome !== expected.outcome) return false;
  if (actual.outcome === "success") return deepEqual(normalizeValue(actual.result), normalizeValue((expected as { result: unknown }).result));
  return deepEqual(stripUndefined(actual), stripUndefined(expected));
}

function stripUndefined(result: FlowResult): unknown {
  if (result.outcome !== "failed") return { outcome: result.outcome };
  const { code, message, data } = result.error;
  return { outcome: "failed", error: data === undefined || data === null ? { code, message } : { code, message, data } };
}
