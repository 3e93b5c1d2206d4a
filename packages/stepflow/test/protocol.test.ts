import { createHash } from "node:crypto";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonRpcError } from "@flowspec/runtime/jsonrpc";
import { connectStreams, type RunningHttpServer } from "@flowspec/runtime/node";
import type { Flow, FlowResult } from "../src/index.js";
import { connectHttp, connectStdio, substituteEnv, type ComponentClient, type RuntimeServices } from "../src/client/index.js";
import { createComponentServer, defineServerComponent, serveHttp } from "../src/server/index.js";
import components from "../../../examples/stepflow-components/components.js";
import { repoRoot } from "../../../test/support.js";

/** The runtime side's services: a blob store and a stand-in flow evaluator that calls back into the server. */
function services(client: () => ComponentClient): RuntimeServices & { blobs: Map<string, unknown> } {
  const blobs = new Map<string, unknown>();
  return {
    blobs,
    putBlob(data) {
      const id = createHash("sha256").update(JSON.stringify(data)).digest("hex");
      blobs.set(id, data);
      return id;
    },
    getBlob: (id) => blobs.get(id),
    // A nested flow of one step: calls that step's component on the same server (re-entrant).
    async evaluateFlow(flow: Flow, input: unknown): Promise<FlowResult> {
      const step = flow.steps[0];
      if (!step) return { outcome: "success", result: input };
      try {
        return { outcome: "success", result: await client().execute(step.component, input) };
      } catch (error) {
        return { outcome: "failed", error: { code: 500, message: `Flow execution failed: step "${step.id}" failed` } };
      }
    },
  };
}

const flow = (component: string): Flow => ({ schema: "https://stepflow.org/schemas/v1/flow.json", steps: [{ id: "inner", component }] });

const transports: [string, () => Promise<{ client: ComponentClient; runtime: ReturnType<typeof services>; stop(): Promise<void> }>][] = [
  [
    "stdio",
    async () => {
      let client!: ComponentClient;
      const runtime = services(() => client);
      client = await connectStdio(
        { command: process.execPath, args: ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "examples/stepflow-components/components.ts")], cwd: repoRoot, env: { PATH: process.env.PATH ?? "" } },
        runtime,
        { pluginName: "ts" },
      );
      return { client, runtime, stop: () => client.close() };
    },
  ],
  [
    "http",
    async () => {
      const server: RunningHttpServer = await serveHttp(components);
      let client!: ComponentClient;
      const runtime = services(() => client);
      client = await connectHttp(server.url, runtime);
      return { client, runtime, stop: async () => (await client.close(), await server.close()) };
    },
  ],
  [
    "http through fetch",
    async () => {
      const server: RunningHttpServer = await serveHttp(components);
      let client!: ComponentClient;
      const runtime = services(() => client);
      client = await connectHttp(server.url, runtime, { fetch });
      return { client, runtime, stop: async () => (await client.close(), await server.close()) };
    },
  ],
];

describe.each(transports)("component client and server over %s", (_name, start) => {
  let client: ComponentClient;
  let runtime: ReturnType<typeof services>;
  let stop: () => Promise<void>;
  beforeAll(async () => ({ client, runtime, stop } = await start()));
  afterAll(() => stop());

  it("performs the handshake and lists and describes the components", async () => {
    expect(client.initialized).toEqual({ server_protocol_version: 1 });
    const list = await client.list();
    expect(list.map((c) => c.component).sort()).toEqual(["/blob_roundtrip", "/echo", "/eval_flow", "/fail"]);
    expect(await client.info("/fail")).toMatchObject({ component: "/fail", description: "Fails with the given message", input_schema: { required: ["message"] } });
    await expect(client.info("/nope")).rejects.toMatchObject({ code: -32001 });
  });

  it("executes, with bidirectional calls inside an execute", async () => {
    expect(await client.execute("/echo", { a: [1, 2] })).toEqual({ a: [1, 2] });
    const roundtrip = (await client.execute("/blob_roundtrip", { value: { hello: "world" } })) as { blob_id: string; data: unknown };
    expect(roundtrip.data).toEqual({ hello: "world" });
    expect(runtime.blobs.get(roundtrip.blob_id)).toEqual({ hello: "world" });
  });

  it("evaluates a flow that calls the same server again while the outer execute is pending", async () => {
    expect(await client.execute("/eval_flow", { flow: flow("/echo"), input: { x: 1 } })).toEqual({ outcome: "success", result: { x: 1 } });
    expect(await client.execute("/eval_flow", { flow: flow("/fail"), input: { message: "inner" } })).toMatchObject({ outcome: "failed" });
    // Nested two deep: eval_flow → eval_flow → echo.
    const nested = { flow: flow("/eval_flow"), input: { flow: flow("/echo"), input: 7 } };
    expect(await client.execute("/eval_flow", nested)).toEqual({ outcome: "success", result: { outcome: "success", result: 7 } });
  });

  it("answers /fail with a JSON-RPC error carrying its message", async () => {
    const error = await client.execute("/fail", { message: "it broke" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32004, message: "it broke" });
  });

  it("rejects invalid params with -32602 before any component runs", async () => {
    await expect(client.execute("/echo", undefined)).rejects.toMatchObject({ code: -32602 });
  });

  it("serves 1,000 concurrent executes, with a blob call back in each", { timeout: 120_000 }, async () => {
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => client.execute("/blob_roundtrip", { value: i })));
    expect(results.map((r) => (r as { data: number }).data)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });
});

describe.each([
  ["node:http", {}],
  ["fetch", { fetch }],
])("connectHttp's maxMessageBytes through %s", (_name, post) => {
  it("fails a call whose answer passes it, as a JSON body or an SSE event, and carries on", { timeout: 10_000 }, async () => {
    const server: RunningHttpServer = await serveHttp(components);
    let client!: ComponentClient;
    client = await connectHttp(server.url, services(() => client), { ...post, maxMessageBytes: 2000 });
    try {
      const big = "x".repeat(3000);
      const reading = `^reading the answer to components/execute from ${server.url} failed: `;
      await expect(client.execute("/echo", big)).rejects.toThrow(new RegExp(`^components/execute: POST ${server.url}: the response body exceeds maxMessageBytes \\((Content-Length|at least) \\d+ bytes > 2000\\)$`));
      // The server's putBlob call back, on the SSE stream, is the oversized message.
      await expect(client.execute("/blob_roundtrip", { value: big })).rejects.toThrow(new RegExp(`${reading}an SSE event exceeds maxMessageBytes \\(\\d+ bytes > 2000\\)$`));
      expect(await client.execute("/blob_roundtrip", { value: "small" })).toMatchObject({ data: "small" });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("connectStdio's maxMessageBytes", () => {
  it("discards a line over it without buffering it, and fails the call it answered at once", { timeout: 20_000 }, async () => {
    const errors: Error[] = [];
    let client!: ComponentClient;
    client = await connectStdio(
      { command: process.execPath, args: ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "examples/stepflow-components/components.ts")], cwd: repoRoot, env: { PATH: process.env.PATH ?? "" } },
      services(() => client),
      { pluginName: "ts", maxMessageBytes: 2000, onError: (error) => errors.push(error) },
    );
    try {
      // The answer is the oversized line: it is dropped, and as it starts with the call's id (as
      // the server writes it), the call fails without a timeout.
      await expect(client.execute("/echo", "x".repeat(3000))).rejects.toThrow(/^the answer to request .+ was discarded: message exceeds maxLineBytes \(\d+ bytes > 2000\)$/);
      expect(errors).toEqual([]);
      expect(await client.execute("/echo", "small")).toBe("small");
    } finally {
      await client.close();
    }
  });
});

describe("maxMessageBytes is checked alike on both transports", () => {
  const none = services(() => undefined as unknown as ComponentClient);
  it.each([0, -1, 1.5, Number.NaN])("refuses %s before connecting, over stdio as over HTTP", async (maxMessageBytes) => {
    const message = `maxMessageBytes must be a positive integer, got ${maxMessageBytes}`;
    // Over stdio, 0 or a negative limit discarded every answer (the handshake never settled) and NaN turned the limit off.
    await expect(connectStdio({ command: process.execPath, args: ["-e", "setTimeout(() => {}, 60000)"], env: {} }, none, { maxMessageBytes })).rejects.toThrow(new RangeError(message));
    await expect(connectHttp("http://127.0.0.1:1", none, { maxMessageBytes })).rejects.toThrow(new RangeError(message));
  });
});

describe("createComponentServer", () => {
  it("answers sync and async handlers alike: values, throws, rejections and thenables", async () => {
    const server = createComponentServer({
      sync: defineServerComponent({ handler: (input) => input }),
      async: defineServerComponent({ handler: async (input) => input }),
      thenable: defineServerComponent({ handler: (input) => ({ then: (resolve: (value: unknown) => void) => resolve(input) }) }),
      throws: defineServerComponent({
        handler: () => {
          throw new Error("sync boom");
        },
      }),
      rejects: defineServerComponent({ handler: async () => Promise.reject(new Error("async boom")) }),
      rpcError: defineServerComponent({ handler: async () => Promise.reject(new JsonRpcError(-32099, "custom")) }),
    });
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    connectStreams(toServer, toClient, { ...server, role: "server" });
    const client = connectStreams(toClient, toServer, { role: "client" });
    const execute = (component: string) => client.request("components/execute", { component, input: { n: 1 } }).catch((error: JsonRpcError) => ({ code: error.code, message: error.message }));
    expect(await Promise.all(["/sync", "/async", "/thenable", "/throws", "/rejects", "/rpcError"].map(execute))).toEqual([
      { output: { n: 1 } },
      { output: { n: 1 } },
      { output: { n: 1 } },
      { code: -32004, message: "sync boom" },
      { code: -32004, message: "async boom" },
      { code: -32099, message: "custom" },
    ]);
  });
});

describe("connectStdio", () => {
  it("names a command that cannot be found", async () => {
    await expect(connectStdio({ command: "no-such-component-server" }, services(() => undefined as never))).rejects.toThrow('cannot start "no-such-component-server": not found');
  });
});

describe("substituteEnv", () => {
  it.each([
    ["$HOME/x", { HOME: "/h" }, "/h/x"],
    ["${HOME}/x", { HOME: "/h" }, "/h/x"],
    ["${PORT:8080}", {}, "8080"],
    ["${PORT:-8080}", {}, "-8080"],
    ["${PORT:8080}", { PORT: "1" }, "1"],
  ])("%s with %j → %s", (value, env, expected) => {
    expect(substituteEnv(value, env)).toBe(expected);
  });

  it("fails on an unset variable without a default, naming it", () => {
    expect(() => substituteEnv("--token=$TOKEN", {})).toThrow(/environment variable TOKEN is not set/);
  });
});
