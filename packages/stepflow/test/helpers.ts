import type { Flow, FlowResult, Plugin } from "../src/index.js";

export const SCHEMA = "https://stepflow.org/schemas/v1/flow.json" as const;

export function flow(steps: unknown[], output?: unknown, extra: Record<string, unknown> = {}): Flow {
  return { schema: SCHEMA, steps, ...(output === undefined ? {} : { output }), ...extra } as Flow;
}

export function step(id: string, component: string, input?: unknown, extra: Record<string, unknown> = {}) {
  return { id, component, ...(input === undefined ? {} : { input }), ...extra };
}

export const fromStep = (id: string, path?: string, onSkip?: unknown) => ({ $from: { step: id }, ...(path === undefined ? {} : { path }), ...(onSkip ? { onSkip } : {}) });
export const fromInput = (path?: string, onSkip?: unknown) => ({ $from: { workflow: "input" }, ...(path === undefined ? {} : { path }), ...(onSkip ? { onSkip } : {}) });

/**
 * A plugin whose components are answered by a function of (component, input): a FlowResult is the
 * step's result as it is, a thrown error an execution error. Routed at `/t/{*component}`.
 */
export function scripted(answer: (component: string, input: any) => FlowResult | Promise<FlowResult>): { plugins: Record<string, Plugin>; config: any } {
  return {
    plugins: { t: { kind: "test", execute: async (component, input) => answer(component, input) } },
    config: { plugins: { builtin: { type: "builtin" } }, routes: { "/t/{*component}": [{ plugin: "t" }], "/builtin/{*component}": [{ plugin: "builtin" }] } },
  };
}

export const ok = (result: unknown): FlowResult => ({ outcome: "success", result });
export const fail500 = (reason: string): FlowResult => ({ outcome: "failed", error: { code: 500, message: `Flow execution failed: ${reason}` } });

/** A promise with its resolve function. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
