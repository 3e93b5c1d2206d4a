import { describe, expect, it } from "vitest";
import { stringifyJson } from "@flowspec/runtime";
import { createRouter, FLOW_SCHEMA, runFlow, type ExecutionError, type Flow } from "@flowspec/stepflow";

// The stand-ins run in this process here (a `type: module` plugin), with the engine answering their
// calls back; the corpus run serves them over stdio and HTTP.
const router = createRouter({
  config: {
    plugins: { loop: { type: "module", module: "./loop-components.ts" }, http: { type: "module", module: "./http-test-server.ts" } },
    routes: { "/loop/{*component}": [{ plugin: "loop" }], "/test/{*component}": [{ plugin: "http" }] },
  },
  workingDirectory: import.meta.dirname,
});

/** Runs one component on an input; resolves to its output, or rejects with the execution error's detail. */
async function call(component: string, input: unknown): Promise<unknown> {
  const flow = { schema: FLOW_SCHEMA, steps: [{ id: "s", component, input: { $literal: input } }], output: { $from: { step: "s" } } } as Flow;
  let error: ExecutionError | undefined;
  const result = await runFlow(flow, null, { router, onExecutionError: (e) => (error = e) });
  if (result.outcome !== "success") throw new Error(error?.detail ?? JSON.stringify(result));
  return result.result;
}

/** A nested flow (without `schema`, as upstream's loop examples write them) of one step. */
const oneStep = (component: string, input: unknown = { $from: { workflow: "input" } }) => ({ steps: [{ id: "one", component, input }], output: { $from: { step: "one" } } });

describe("loop-components.ts (upstream's loop_server.py)", () => {
  it("/iterate runs the flow on `next` until `result`, or stops at max_iterations", async () => {
    const counter = oneStep("/loop/counter_step");
    expect(await call("/loop/iterate", { flow: counter, initial_input: { current: 0, target: 2 } })).toEqual({ result: "Reached target 2", iterations: 3, terminated: false });
    expect(await call("/loop/iterate", { flow: counter, initial_input: { current: 0, target: 10 }, max_iterations: 3 })).toEqual({ result: { current: 3, target: 10 }, iterations: 3, terminated: true });
  });

  it("/iterate fails for a flow that answers neither result nor next, or that fails", async () => {
    await expect(call("/loop/iterate", { flow: { steps: [], output: { x: 1 } }, initial_input: null })).rejects.toThrow("Iteration flow output must contain either 'result' or 'next' field");
    await expect(call("/loop/iterate", { flow: oneStep("/nowhere/x"), initial_input: null })).rejects.toThrow("error routing component");
  });

  it("/map runs the flow on every item and keeps their order; /double_value doubles", async () => {
    const doubler = { steps: [{ id: "d", component: "/loop/double_value", input: { value: { $from: { workflow: "input" } } } }], output: { $from: { step: "d" }, path: "result" } };
    // Floats, as the Python model (`value: float`) makes them: 2.0, not 2.
    expect(stringifyJson(await call("/loop/map", { flow: doubler, items: [1, 2.5, -3] }))).toBe('{"results":[2.0,5.0,-6.0]}');
    expect(await call("/loop/map", { flow: doubler, items: [] })).toEqual({ results: [] });
  });
});

describe("http-test-server.ts (upstream's test_python_server.py)", () => {
  it("/echo, /math and /process_list", async () => {
    expect(await call("/test/echo", { message: "hi" })).toEqual({ echo: "Echo: hi", timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect(stringifyJson(await call("/test/math", { a: 10, b: 5, operation: "add" }))).toBe('{"result":15.0,"operation_performed":"10.0 add 5.0 = 15.0"}');
    expect(await call("/test/math", { a: 1, b: 4, operation: "divide" })).toEqual({ result: 0.25, operation_performed: "1.0 divide 4.0 = 0.25" });
    await expect(call("/test/math", { a: 1, b: 4, operation: "modulo" })).rejects.toThrow("Unsupported operation: modulo");
    expect(await call("/test/process_list", { items: ["a", "b"] })).toEqual({ processed_items: ["processed_a", "processed_b"], count: 2 });
  });

  it("/data_analysis stores statistics or a distribution as a blob and summarises it", async () => {
    const statistics = (await call("/test/data_analysis", { data: [1, 2, 3, 4, 5], analysis_type: "statistics" })) as { analysis_blob_id: string; summary: string };
    expect(statistics.summary).toBe("Statistics for 5 data points: mean=3.00, std_dev=1.41");
    expect(await router.blobs.get(statistics.analysis_blob_id)).toMatchObject({ type: "statistics", count: 5, sum: 15, mean: 3, min: 1, max: 5, variance: 2 });
    const distribution = (await call("/test/data_analysis", { data: [1, 1, 2, 3, 100], analysis_type: "distribution" })) as { analysis_blob_id: string; summary: string };
    expect(distribution.summary).toBe("Distribution analysis for 5 data points with 1 outliers");
    expect(await router.blobs.get(distribution.analysis_blob_id)).toMatchObject({
      quartiles: { q1: 1, median: 2, q3: 3 },
      outliers: [100],
      histogram: { "1.00-10.90": 4, "90.10-100.00": 1 },
    });
    await expect(call("/test/data_analysis", { data: [], analysis_type: "other" })).rejects.toThrow("Unsupported analysis type: other");
  });

  it("/chain_processing applies each step to the top-level values and stores every intermediate state", async () => {
    const output = (await call("/test/chain_processing", {
      initial_data: { s: "a", n: 2, m: -1 },
      processing_steps: ["uppercase_strings", "multiply_numbers", "filter_positive", "mystery"],
    })) as { final_result: unknown; intermediate_blob_ids: string[] };
    expect(output.final_result).toEqual({ s: "A", n: 4, custom_step_3: "Applied: mystery" });
    expect(output.intermediate_blob_ids).toHaveLength(4);
    expect(await router.blobs.get(output.intermediate_blob_ids[1]!)).toMatchObject({ step_index: 1, step_name: "multiply_numbers", data: { s: "A", n: 4, m: -2 } });
  });
});
