import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import type { Flow, FlowResult } from "../validate.js";

/** A flow passed to `evaluateFlow`: `schema` is added when missing, as the Python SDK does. */
export type FlowInput = Omit<Flow, "schema"> & { schema?: Flow["schema"] };

/** What a component can ask of the runtime while it runs (StepFlow's bidirectional calls). */
export interface ServerComponentContext {
  /** Stores any JSON value in the runtime's blob store; resolves with its id (sha256 of its JSON). */
  putBlob(data: unknown): Promise<string>;
  getBlob(blobId: string): Promise<unknown>;
  /**
   * Runs a flow in the runtime and resolves with its whole `FlowResult` (success, skipped or
   * failed); rejects only for a transport or JSON-RPC error (project rule, protocol notes §4.3).
   */
  evaluateFlow(flow: FlowInput, input: unknown): Promise<FlowResult>;
  /** Like `evaluateFlow`, but resolves with the success value and throws for skipped or failed. */
  evaluateFlowValue(flow: FlowInput, input: unknown): Promise<unknown>;
  /** Aborted when the connection to the runtime closes. */
  signal: AbortSignal;
}

/**
 * A JSON Schema object, or any Standard Schema: one that can also produce a JSON Schema (a flowspec
 * `XSchema`, zod 4, …) is advertised in `components/info` too.
 */
export type SchemaSource<T> = Record<string, unknown> | StandardSchemaV1<unknown, T>;

type InferSchema<S, Fallback> = S extends StandardSchemaV1<unknown, infer T> ? T : Fallback;

export interface ServerComponent<I = unknown, O = unknown> {
  description?: string;
  inputSchema?: SchemaSource<I>;
  outputSchema?: SchemaSource<O>;
  /**
   * Runs the component. Declare the second parameter to use the context: over HTTP such a
   * component answers with an SSE stream, so it can call back to the runtime.
   */
  handler(input: I, context: ServerComponentContext): O | Promise<O>;
  /**
   * Whether the handler sees integral floats (`2.0`) as `JsonFloat` (from `@flowspec/runtime`), in
   * its input and in what `getBlob` and `evaluateFlow` return, so that it can pass them on as floats.
   * Off by default: the handler gets plain numbers, as JavaScript reads JSON.
   */
  keepFloats?: boolean;
}

/**
 * Defines a component with typed input and output. When `inputSchema` is a Standard Schema, the
 * handler's input type is inferred from it and the input is validated before the handler runs.
 */
export function defineServerComponent<IS extends SchemaSource<any> | undefined = undefined, OS extends SchemaSource<any> | undefined = undefined, I = InferSchema<IS, unknown>, O = InferSchema<OS, unknown>>(component: {
  description?: string;
  inputSchema?: IS;
  outputSchema?: OS;
  handler(input: I, context: ServerComponentContext): O | Promise<O>;
  keepFloats?: boolean;
}): ServerComponent<I, O> {
  return component as ServerComponent<I, O>;
}

/** Whether `value` is a Standard Schema: an object or a function (ArkType's types are) with `~standard`. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === "object" || typeof value === "function") && value !== null && "~standard" in value;
}

/**
 * The JSON Schema to advertise in `components/info`, from a plain JSON Schema or a Standard Schema:
 * the schema's input side for a component's input (what the runtime sends), its output side for
 * a component's output (what a transforming or defaulting schema produces).
 */
export function jsonSchemaOf(source: SchemaSource<unknown> | undefined, side: "input" | "output" = "input"): Record<string, unknown> | undefined {
  if (source === undefined) return undefined;
  if (!isStandardSchema(source)) return source;
  const standard = source["~standard"] as Partial<StandardJSONSchemaV1.Props>;
  if (standard.jsonSchema) {
    for (const target of ["draft-2020-12", "draft-07"] as const) {
      try {
        return standard.jsonSchema[side]({ target });
      } catch {
        // try the next target
      }
    }
  }
  const own = (source as { jsonSchema?: unknown }).jsonSchema;
  return typeof own === "object" && own !== null ? (own as Record<string, unknown>) : undefined;
}
