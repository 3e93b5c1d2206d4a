import { byteLimit, createHttpClient, fetchPost, JsonRpcError, type CallOptions, type RequestHandler } from "@flowspec/runtime/jsonrpc";
import { ChildEndedError, createNodeHttpPost, spawnPeer, type SpawnOptions } from "@flowspec/runtime/node";
import { InvalidFlowError } from "../engine/errors.js";
import { methodValidation, type ComponentInfo, type Flow, type FlowResult, type InitializeResult } from "../validate.js";

/** What the runtime side answers when a component server calls back during `components/execute`. */
export interface RuntimeServices {
  /** Stores a JSON value; resolves with its blob id. */
  putBlob(data: unknown): string | Promise<string>;
  /** Resolves with the stored value, or `undefined` when no blob has that id. */
  getBlob(blobId: string): unknown | Promise<unknown>;
  /** Runs a flow as a nested run of the same runtime and resolves with its result. */
  evaluateFlow(flow: Flow, input: unknown): FlowResult | Promise<FlowResult>;
}

/** The runtime side of a connection to one component server. */
export interface ComponentClient {
  /** The `server_protocol_version` etc. the server answered `initialize` with. */
  readonly initialized: InitializeResult;
  list(options?: CallOptions): Promise<ComponentInfo[]>;
  info(component: string, options?: CallOptions): Promise<ComponentInfo>;
  /** Executes a component (its name after routing, e.g. `/udf`) and resolves with its output. */
  execute(component: string, input: unknown, options?: CallOptions): Promise<unknown>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Sent as `protocol_prefix` in `initialize` (servers of stepflow-py ≤ 0.2.2 require it). */
  pluginName?: string;
  /** Things that went wrong without a caller to tell (a late response, a bad line, server stderr). */
  onError?(error: Error): void;
  /** Per-call timeout for `initialize`, `list`, `info` and `execute`. Off by default, as in 0.2.x; 0 or Infinity is none. */
  timeoutMs?: number;
  /**
   * The largest message read from the server, in bytes (default 16 MiB): a stdio line, a JSON body
   * or the data of one SSE event. A larger one is never buffered whole, and its call fails (over
   * stdio, when the line starts with the call's id, as servers write it; else it is reported to
   * `onError` and the call ends by `timeoutMs`).
   */
  maxMessageBytes?: number;
}

export interface HttpConnectOptions extends ConnectOptions {
  /** POSTs through this `fetch` instead of `node:http`. */
  fetch?: typeof fetch;
}

/** Answers the server's `blobs/put`, `blobs/get` and `flows/evaluate` from the runtime's services. */
function runtimeHandlers(services: RuntimeServices): Record<string, RequestHandler> {
  return {
    "blobs/put": async (params) => ({ blob_id: await services.putBlob((params as { data: unknown }).data) }),
    "blobs/get": async (params) => {
      const blobId = (params as { blob_id: string }).blob_id;
      const data = await services.getBlob(blobId);
      if (data === undefined) throw new JsonRpcError(-32000, "Failed to get blob", { blob_id: blobId });
      return { data };
    },
    "flows/evaluate": async (params) => {
      const { flow, input } = params as { flow: Flow; input: unknown };
      try {
        return { result: await services.evaluateFlow(flow, input) };
      } catch (error) {
        // A flow the runtime cannot read (a malformed `$from`, a bad path) is bad params, as a
        // schema violation is (protocol notes §4.3): -32602, with the issues.
        if (error instanceof InvalidFlowError) {
          const issues = error.issues.map((issue) => ({ ...issue, path: `/flow${issue.path}` }));
          throw new JsonRpcError(-32602, `Invalid params for flows/evaluate: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
        }
        throw new JsonRpcError(-32000, "Failed to evaluate flow", { reason: (error as Error).message });
      }
    },
  };
}


interface Caller {
  request<R>(method: string, params: unknown, options?: CallOptions): Promise<R>;
  notify(method: string, params: unknown): Promise<void>;
}

/**
 * `initialize` then `initialized`. On failure the connection is closed and the error names the
 * server, the step that failed and whatever `explain` adds (how the process ended, its stderr).
 */
async function handshake(caller: Caller, options: ConnectOptions, server: string, close: () => Promise<void>, explain: (error: unknown) => string = () => ""): Promise<ComponentClient> {
  const withTimeout = (call?: CallOptions): CallOptions | undefined => (options.timeoutMs === undefined ? call : { timeoutMs: options.timeoutMs, ...call });
  let step = "initialize";
  let initialized: InitializeResult;
  try {
    initialized = await caller.request<InitializeResult>("initialize", { runtime_protocol_version: 1, protocol_prefix: options.pluginName ?? "flowspec" }, withTimeout());
    step = "initialized";
    await caller.notify("initialized", {});
  } catch (error) {
    await close();
    throw new Error(`component server ${server} failed the handshake (${step}): ${(error as Error)?.message ?? String(error)}${explain(error)}`, { cause: error });
  }
  return {
    initialized,
    // The peer resolves these with the member of the result that is wanted (see `resultMember`).
    list: (call) => caller.request<ComponentInfo[]>("components/list", {}, withTimeout(call)),
    info: (component, call) => caller.request<ComponentInfo>("components/info", { component }, withTimeout(call)),
    execute: (component, input, call) => caller.request("components/execute", { component, input }, withTimeout(call)),
    close,
  };
}

/** The member of a (validated) result that a ComponentClient method resolves with, by method. */
const RESULT_MEMBERS = new Map([
  ["components/list", "components"],
  ["components/info", "info"],
  ["components/execute", "output"],
]);
/**
 * The peers' `resolveWith`: picked as the call settles, not by a `.then` that makes a promise and
 * a microtask per call (about 2% of an `execute` over stdio).
 */
const resultMember = (method: string, result: unknown) => {
  const member = RESULT_MEMBERS.get(method);
  return member === undefined ? result : (result as Record<string, unknown>)[member];
};

/**
 * Request ids for one connection: integers counting up from 1. The protocol notes prefer strings
 * because a JS number loses precision past 2^53, which a counter never reaches; the schema allows
 * integers and servers echo the id as given. A UUID per call (its making, 36 characters to write,
 * read and match on each side) and even short string keys in the pending map (more for every
 * scavenge to trace while 1,000 calls are in flight) cost about a fifth of the client's time.
 */
function countingIds(): () => number {
  let last = 0;
  return () => ++last;
}

/**
 * Starts a component server as a child process (stdio transport) and performs the handshake.
 * The child gets exactly `env` (StepFlow starts plugins with an empty environment); the command is
 * looked up on this process's PATH.
 */
export async function connectStdio(spawn: SpawnOptions, services: RuntimeServices, options: ConnectOptions = {}): Promise<ComponentClient> {
  // Checked under its own name, as connectHttp checks it (createHttpClient), before the server starts.
  const maxLineBytes = byteLimit("maxMessageBytes", options.maxMessageBytes);
  const onError = options.onError ?? (() => undefined);
  const { peer, close, stderrTail } = await spawnPeer(spawn, { handlers: runtimeHandlers(services), ...methodValidation, resolveWith: resultMember, onError, maxLineBytes, keepFloats: true, nextId: countingIds() });
  // A server that answers wrongly or not at all may say why on stderr; one that dies says it in its
  // ChildEndedError already, with how it exited.
  const explain = (error: unknown) => {
    const tail = error instanceof ChildEndedError ? [] : stderrTail();
    return tail.length ? `; its stderr ended with:\n${tail.join("\n")}` : "";
  };
  return handshake(peer, options, JSON.stringify(spawn.command), close, explain);
}

/**
 * Connects to a component server over Streamable HTTP (POST to `url`) and performs the handshake.
 * POSTs go through `node:http` with kept-alive connections, or through `options.fetch` when given.
 */
export async function connectHttp(url: string, services: RuntimeServices, options: HttpConnectOptions = {}): Promise<ComponentClient> {
  const nodePost = options.fetch ? undefined : createNodeHttpPost();
  const client = createHttpClient({
    url,
    post: nodePost ?? fetchPost(options.fetch),
    handlers: runtimeHandlers(services),
    ...methodValidation,
    resolveWith: resultMember,
    onError: options.onError,
    maxMessageBytes: options.maxMessageBytes,
    keepFloats: true,
  });
  const close = async () => {
    client.close();
    nodePost?.close();
  };
  return handshake(client, options, url, close);
}
