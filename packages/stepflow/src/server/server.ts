import type { StandardSchemaV1 } from "@standard-schema/spec";
import { JsonRpcError, type RequestContext, type RequestHandler } from "@flowspec/runtime/jsonrpc";
import { isThenable, type ValidationIssue } from "@flowspec/runtime/validation";
import { methodValidation, type ComponentInfo, type FlowResult } from "../validate.js";
import { componentName, componentsByName } from "../plugins/functions.js";
import { isStandardSchema, jsonSchemaOf, type FlowInput, type ServerComponent, type ServerComponentContext } from "./components.js";
import { isErrorInstance, plainNumbers } from "@flowspec/runtime";

/** The error codes of the StepFlow 0.2.x component protocol docs (protocol notes §5). */
export const ComponentErrorCode = {
  ComponentNotFound: -32001,
  InvalidInput: -32003,
  ExecutionFailed: -32004,
} as const;

export const FLOW_SCHEMA = "https://stepflow.org/schemas/v1/flow.json" as const;

/** Components to serve, by name (a leading `/` is added when missing). */
export type Components = Record<string, ServerComponent<any, any>>;

/** What a transport needs to serve a set of components: the handlers and the validation hooks. */
export interface ComponentServer {
  handlers: Record<string, RequestHandler>;
  validateParams(method: string, params: unknown): readonly ValidationIssue[] | undefined;
  validateResult(method: string, result: unknown): readonly ValidationIssue[] | undefined;
  /**
   * Read messages with integral floats kept (`JsonFloat`), as `createComponentServer` does: each
   * component then gets them only if it asks (its own `keepFloats`).
   */
  keepFloats?: boolean;
  /** Whether a request is answered with an SSE stream over HTTP (its component may call back). */
  streams(method: string, params: unknown): boolean;
  onNotification(method: string, params: unknown): void;
  infos(): ComponentInfo[];
}

/**
 * A StepFlow component server, independent of the transport: `initialize`, `initialized`,
 * `components/list`, `components/info` and `components/execute`, with params validated by method.
 * Serve it with `serveStdio` or `serveHttp`.
 */
export function createComponentServer(components: Components): ComponentServer {
  const byName = componentsByName(components);
  const info = (name: string, component: ServerComponent): ComponentInfo => {
    const result: ComponentInfo = { component: name };
    if (component.description !== undefined) result.description = component.description;
    const input = jsonSchemaOf(component.inputSchema);
    const output = jsonSchemaOf(component.outputSchema, "output");
    if (input) result.input_schema = input;
    if (output) result.output_schema = output;
    return result;
  };
  const find = (name: unknown): [string, ServerComponent] => {
    const key = typeof name === "string" ? componentName(name) : "";
    const component = byName.get(key);
    if (!component) throw new JsonRpcError(ComponentErrorCode.ComponentNotFound, `Component not found: ${String(name)}`, { component: name });
    return [key, component];
  };

  // Synchronous all the way when the component is: no promise per call that nothing waits for.
  const execute: RequestHandler = (params, rpc) => {
    const { component: name, input: given } = params as { component: string; input: unknown };
    const [, component] = find(name);
    const input = component.keepFloats ? given : plainNumbers(given);
    if (!isStandardSchema(component.inputSchema)) return run(name, component, input, rpc);
    return Promise.resolve(component.inputSchema["~standard"].validate(input)).then((checked) => {
      if (checked.issues) {
        throw new JsonRpcError(ComponentErrorCode.InvalidInput, `Invalid input for ${name}: ${formatStandardIssues(checked.issues)}`, { component: name, issues: checked.issues });
      }
      return run(name, component, checked.value, rpc);
    });
  };
  // Results and failures come from module-level functions: a call makes only its context's
  // closures, and two more when the component answers with a promise.
  const run = (name: string, component: ServerComponent, input: unknown, rpc: RequestContext) => {
    try {
      const output = component.handler(input, contextFor(rpc, component.keepFloats ?? false));
      if (!isThenable(output)) return executeResult(name, output);
      return Promise.resolve(output).then(
        (value) => executeResult(name, value),
        (error: unknown) => executionFailed(name, error),
      );
    } catch (error) {
      return executionFailed(name, error);
    }
  };

  return {
    handlers: {
      initialize: () => ({ server_protocol_version: 1 }),
      "components/list": () => ({ components: [...byName].map(([name, component]) => info(name, component)) }),
      "components/info": (params) => ({ info: info(...find((params as { component: string }).component)) }),
      "components/execute": execute,
    },
    ...methodValidation,
    keepFloats: true,
    streams: (method, params) => {
      if (method !== "components/execute") return false;
      const component = byName.get(componentName(String((params as { component?: unknown })?.component ?? "")));
      return component !== undefined && component.handler.length >= 2;
    },
    // `initialized` is the only notification; anything else (often a request that lost its id)
    // would otherwise vanish: the transport reports what a handler throws.
    onNotification: (method) => {
      if (method !== "initialized") throw new Error(`ignored notification ${method}: only initialized is a notification; a request needs an id`);
    },
    infos: () => [...byName].map(([name, component]) => info(name, component)),
  };
}

/** The errors the runtime answered a component's calls back with (see `executionFailed`). */
const fromRuntime = new WeakSet<JsonRpcError>();

/**
 * A component's output as the result of `components/execute`. One that returns nothing answers
 * `null`: `output` is required (protocol notes §2.2). A function or a symbol would vanish from the
 * JSON, leaving a result without `output`.
 */
function executeResult(name: string, output: unknown): { output: unknown } {
  if (typeof output === "function" || typeof output === "symbol") {
    throw new JsonRpcError(ComponentErrorCode.ExecutionFailed, `${name} returned a ${typeof output}, which JSON cannot carry`, { component: name });
  }
  return { output: output ?? null };
}

/**
 * A component's failure as a JSON-RPC error. One it throws keeps its code; one the runtime
 * answered a call back with (a -32602 for an invalid flow, a -32000 for an unknown blob) is this
 * execution failing.
 */
function executionFailed(name: string, error: unknown): never {
  if (error instanceof JsonRpcError && !fromRuntime.has(error)) throw error;
  throw new JsonRpcError(ComponentErrorCode.ExecutionFailed, error instanceof Error ? error.message : String(error), { component: name });
}

/** A call back to the runtime; a JSON-RPC error it answers with is remembered in `fromRuntime`. */
const request = <R>(rpc: RequestContext, method: string, params: unknown): Promise<R> =>
  rpc.request<R>(method, params).catch((error: unknown) => {
    if (error instanceof JsonRpcError) fromRuntime.add(error);
    throw error;
  });

/**
 * The context a running component gets: calls back to the runtime over the request's channel, with
 * what comes back in plain numbers unless the component keeps floats. A plain object of plain
 * functions, so a component may destructure it, spread it or pass its members on.
 */
function contextFor(rpc: RequestContext, keepFloats: boolean): ServerComponentContext {
  const numbers = keepFloats ? <T>(value: T) => value : plainNumbers;
  const evaluateFlow = async (flow: FlowInput, input: unknown): Promise<FlowResult> => {
    const { result } = await request<{ result: FlowResult }>(rpc, "flows/evaluate", { flow: { ...flow, schema: FLOW_SCHEMA }, input });
    return numbers(result);
  };
  return {
    signal: rpc.signal,
    putBlob: async (data) => (await request<{ blob_id: string }>(rpc, "blobs/put", { data })).blob_id,
    getBlob: async (blobId) => numbers((await request<{ data: unknown }>(rpc, "blobs/get", { blob_id: blobId })).data),
    evaluateFlow,
    async evaluateFlowValue(flow, input) {
      const result = await evaluateFlow(flow, input);
      if (result.outcome === "success") return result.result;
      if (result.outcome === "skipped") throw new FlowSkippedError();
      throw new FlowFailedError(result.error.code, result.error.message, result.error.data);
    },
  };
}

/** `evaluateFlowValue`: the nested flow was skipped. */
export class FlowSkippedError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:FlowSkippedError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "FlowSkippedError";
  constructor() {
    super("the flow was skipped");
  }
}

/** `evaluateFlowValue`: the nested flow failed. */
export class FlowFailedError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:FlowFailedError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "FlowFailedError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function formatStandardIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment));
      return `${path.length ? "/" + path.join("/") : "(root)"}: ${issue.message}`;
    })
    .join("; ");
}
