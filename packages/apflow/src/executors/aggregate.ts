import type { ExecutorObject } from "../scheduler/registry.js";

/**
 * `aggregate_results_executor`: `{results: {<dependency id>: <result>}, count}` over the task's
 * completed dependencies, in listed order (a failed or cancelled optional dependency is left out).
 */
export const aggregateResultsExecutor: ExecutorObject = {
  description: "Collects the results of the task's completed dependencies: {results: {<id>: result}, count}",
  execute(_inputs, ctx) {
    const results: Record<string, unknown> = {};
    for (const dependency of ctx.task.dependencies ?? []) {
      const result = ctx.dependencyResults[dependency.id];
      if (result !== undefined && !(dependency.id in results)) results[dependency.id] = result;
    }
    return { results, count: Object.keys(results).length };
  },
};
