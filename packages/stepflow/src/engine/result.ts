import type { FlowError, FlowResult, FlowResultFailed, FlowResultSkipped, FlowResultSuccess } from "../generated/index.js";

export type { FlowError, FlowResult, FlowResultFailed, FlowResultSkipped, FlowResultSuccess };

export function success(result: unknown): FlowResultSuccess {
  return { outcome: "success", result };
}

export const SKIPPED: FlowResultSkipped = Object.freeze({ outcome: "skipped" }) as FlowResultSkipped;

export function skipped(): FlowResultSkipped {
  return { outcome: "skipped" };
}

export function failed(code: number, message: string, data?: unknown): FlowResultFailed {
  return { outcome: "failed", error: data === undefined ? { code, message } : { code, message, data } };
}
