import { normalizePath, type Flow, type FlowResult, type Plugin } from "../src/index.js";

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

/**
 * The builder's normalisation, written independently: `schema` added, reference paths in `$`-form
 * (outside `$literal`), snake_case `input_schema`/`output_schema` of the flow and its steps dropped,
 * `test.stepflowConfig` written as `test.config`.
 */
export function normaliseLikeBuilder(value: any): any {
  const flow = structuredClone(value);
  flow.schema ??= SCHEMA;
  delete flow.input_schema;
  delete flow.output_schema;
  for (const step of flow.steps) {
    delete step.input_schema;
    delete step.output_schema;
    if ("input" in step) step.input = paths(step.input);
    if (step.skipIf && step.skipIf.$from) step.skipIf = paths(step.skipIf);
    if (step.onError?.defaultValue !== undefined) step.onError.defaultValue = paths(step.onError.defaultValue);
  }
  if ("output" in flow) flow.output = paths(flow.output);
  if (flow.test?.stepflowConfig !== undefined) {
    flow.test.config = flow.test.stepflowConfig;
    delete flow.test.stepflowConfig;
  }
  return flow;
}

function paths(value: any): any {
  if (Array.isArray(value)) return value.map(paths);
  if (typeof value !== "object" || value === null) return value;
  if ("$from" in value) return typeof value.path === "string" ? { ...value, path: normalizePath(value.path) } : value;
  if ("$literal" in value) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, paths(v)]));
}
