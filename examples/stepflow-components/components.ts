/**
 * A StepFlow component server module: its default export is what `flowspec stepflow serve` serves
 * (over stdio, or over HTTP with --http).
 */
import { defineServerComponent, type FlowInput } from "@flowspec/stepflow/server";

export default {
  /** Returns its input unchanged. */
  "/echo": defineServerComponent({
    description: "Returns its input unchanged",
    handler: (input: unknown) => input,
  }),

  /** Stores `value` as a blob in the runtime, reads it back, and returns both. */
  "/blob_roundtrip": defineServerComponent({
    description: "Stores value with putBlob, reads it back with getBlob",
    inputSchema: { type: "object", required: ["value"], properties: { value: {} } },
    handler: async (input: { value: unknown }, context) => {
      const blobId = await context.putBlob(input.value);
      return { blob_id: blobId, data: await context.getBlob(blobId) };
    },
  }),

  /** Evaluates a flow in the runtime and returns its whole FlowResult. */
  "/eval_flow": defineServerComponent({
    description: "Runs a flow in the runtime and returns its FlowResult",
    inputSchema: { type: "object", required: ["flow", "input"], properties: { flow: { type: "object" }, input: {} } },
    handler: async (input: { flow: FlowInput; input: unknown }, context) => context.evaluateFlow(input.flow, input.input),
  }),

  /** Answers with a JSON-RPC error carrying the given message. */
  "/fail": defineServerComponent({
    description: "Fails with the given message",
    inputSchema: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
    handler: (input: { message: string }) => {
      throw new Error(input.message);
    },
  }),
};
