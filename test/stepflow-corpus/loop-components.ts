/**
 * TypeScript stand-ins for upstream's `examples/loop-components/loop_server.py`, served over stdio by
 * `flowspec stepflow serve`. `/iterate` and `/map` re-enter the runtime through `flows/evaluate`
 * (the context adds the nested flow's `schema`); a nested run that is skipped or fails makes them fail.
 * Python keeps integers and floats apart: `/iterate` and `/map` pass values on as they are
 * (`keepFloats`), and `/double_value` answers a float, as its pydantic model (`value: float`) makes it.
 */
import { jsonFloat } from "@flowspec/runtime";
import { defineServerComponent, type FlowInput, type ServerComponentContext } from "@flowspec/stepflow/server";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export default {
  "/iterate": defineServerComponent({
    description: "Runs a flow on its own `next` output until it answers `result`, at most max_iterations times",
    keepFloats: true,
    handler: async (input: { flow: FlowInput; initial_input: unknown; max_iterations?: number }, context: ServerComponentContext) => {
      const max = input.max_iterations ?? 1000;
      let current = input.initial_input;
      for (let iterations = 1; iterations <= max; iterations++) {
        const output = await context.evaluateFlowValue(input.flow, current);
        if (isObject(output) && "result" in output) return { result: output.result, iterations, terminated: false };
        if (!isObject(output) || !("next" in output)) throw new Error("Iteration flow output must contain either 'result' or 'next' field");
        current = output.next;
      }
      return { result: current, iterations: max, terminated: true };
    },
  }),
  "/map": defineServerComponent({
    description: "Runs a flow on each item, all at once, and collects their results in order",
    keepFloats: true,
    handler: async (input: { flow: FlowInput; items: unknown[] }, context: ServerComponentContext) => ({
      results: await Promise.all(input.items.map((item) => context.evaluateFlowValue(input.flow, item))),
    }),
  }),
  "/counter_step": defineServerComponent({
    description: "Counts towards a target: `next` until current reaches it, then `result`",
    handler: ({ current, target }: { current: number; target: number }) => (current >= target ? { result: `Reached target ${target}` } : { next: { current: current + 1, target } }),
  }),
  "/double_value": defineServerComponent({
    description: "Doubles a value",
    handler: ({ value }: { value: number }) => ({ result: jsonFloat(value * 2) }),
  }),
};
