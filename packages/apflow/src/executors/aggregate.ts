import type { ExecutorObject } from "../scheduler/registry.js";

/**
 * `aggregate_results_executor`, as v1 returns it: `{summary, timestamp, results, result_count}`.
 * `results` maps each completed dependency's id to its result, in listed order (a failed or
 * cancelled optional dependency is left out); `summary` is v1's sentence, which names the
 * dependencies when there are at most three.
 */
export const aggregateResultsExecutor: ExecutorObject = {
  description: "Collects the results of the task's completed dependencies: {summary, timestamp, results: {<id>: result}, result_count}",
  execute(_inputs, ctx) {
    const results: Record<string, unknown> = {};
    for (const dependency of ctx.task.dependencies ?? []) {
      const result = ctx.dependencyResults[dependency.id];
      if (result !== undefined && !(dependency.id in results)) results[dependency.id] = result;
    }
    const ids = Object.keys(results);
    const count = ids.length;
    const summary =
      count === 0 ? "No task results to aggregate" : `Aggregated ${count} task result${count === 1 ? "" : "s"}${count <= 3 ? `. from: ${ids.join(", ")}` : ""}`;
    return { summary, timestamp: new Date().toISOString(), results, result_count: count };
  },
};
