import type { ExecutorObject, ExecutorRegistry } from "../scheduler/registry.js";
import { aggregateResultsExecutor } from "./aggregate.js";
import { restExecutor } from "./rest.js";

export { aggregateResultsExecutor } from "./aggregate.js";
export { restExecutor, type RestInputs } from "./rest.js";

/** The built-in executors, by their v1 ids. */
export const builtinExecutors: Readonly<Record<string, ExecutorObject>> = {
  rest_executor: restExecutor,
  aggregate_results_executor: aggregateResultsExecutor,
};

/** Registers `rest_executor` and `aggregate_results_executor` (only when asked: they are not there by default). */
export function registerBuiltinExecutors(registry: ExecutorRegistry, options: { override?: boolean } = {}): ExecutorRegistry {
  for (const [id, executor] of Object.entries(builtinExecutors)) registry.register(id, executor, options);
  return registry;
}
