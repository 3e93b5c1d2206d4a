/**
 * Execution errors (protocol notes §6.4, §6.5): anything that stops a run at once. The run's result
 * is `{outcome: failed, error: {code: 500, message: "Flow execution failed: <reason>"}}`, where the
 * reason is one of the runtime's exact phrases. `detail` and `pointer` say more, for people.
 */
import type { Diagnostic } from "../diagnostics.js";
import { failed } from "./result.js";
import type { FlowResultFailed } from "../generated/index.js";
import { isErrorInstance, type ValidationIssue } from "@flowspec/runtime";

export const REASONS = {
  stepFailed: (id: string) => `step ${JSON.stringify(id)} failed`,
  resolve: "failed to resolve value",
  routing: "error routing component",
  analysis: "error analyzing workflow",
  defaultValue: (id: string, detail: string) => `internal error: Default value resolution failed for step ${id}: ${detail}`,
} as const;

export class ExecutionError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:ExecutionError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ExecutionError";
  constructor(
    /** The runtime's phrase after "Flow execution failed: ". */
    readonly reason: string,
    /** What went wrong, for people (not part of the FlowResult). */
    readonly detail?: string,
    /** The step concerned, if any. */
    readonly stepId?: string,
    /** JSON Pointer into the flow of what failed, if known. */
    readonly pointer?: string,
    options?: { cause?: unknown },
  ) {
    super(detail ? `${reason}: ${detail}` : reason, options);
  }

  /** The run result this error stands for. */
  toFlowResult(): FlowResultFailed {
    return failed(500, `Flow execution failed: ${this.reason}`);
  }
}

/**
 * A flow that cannot be read at all (the runtime rejects it before running): schema violations,
 * malformed `$from`/`$literal`, invalid paths. `issues` carry JSON Pointers.
 */
export class InvalidFlowError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:InvalidFlowError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "InvalidFlowError";
  constructor(readonly issues: readonly (ValidationIssue | Diagnostic)[]) {
    super(`invalid flow:\n${issues.map((i) => `  ${"location" in i && i.location ? `${i.location} ` : ""}${i.path || "(root)"}: ${i.message}`).join("\n")}`);
  }
}

/** Rust's `{:?}` of a FlowError, as in the runtime's default-value message. */
export function debugFlowError(error: { code: number; message: string; data?: unknown }): string {
  const data = error.data === undefined || error.data === null ? "None" : `Some(${JSON.stringify(error.data)})`;
  return `FlowError { code: ${error.code}, message: ${JSON.stringify(error.message)}, data: ${data} }`;
}
