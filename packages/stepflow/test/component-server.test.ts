import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { JsonRpcError } from "@flowspec/runtime/jsonrpc";
import { connectStreams } from "@flowspec/runtime/node";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { connectStdio } from "../src/client/index.js";
import { createComponentServer, defineServerComponent, type Components } from "../src/server/index.js";
import { methodValidation } from "../src/validate.js";
import { repoRoot } from "../../../test/support.js";

/** A component server and a client peer that validates results by method, as the component client does. */
function connect(components: Components, handlers: Record<string, (params: any) => unknown> = {}) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  connectStreams(toServer, toClient, { ...createComponentServer(components), role: "server" });
  const client = connectStreams(toClient, toServer, { ...methodValidation, handlers, role: "client" });
  const call = (method: string, params: unknown) => client.request<any>(method, params).catch((error: JsonRpcError) => ({ code: error.code, message: error.message }));
  return { call, execute: (component: string, input: unknown) => call("components/execute", { component, input }) };
}

/**
 * A Standard Schema shaped like ArkType's: the schema is a function carrying `~standard`. It
 * accepts numeric strings and turns them into numbers (its input and output JSON Schemas differ).
 */
function numericString(): StandardSchemaV1<string, number> & StandardJSONSchemaV1<string, number> & ((value: unknown) => unknown) {
  const schema = (value: unknown) => value;
  const props = {
    version: 1 as const,
    vendor: "callable",
    validate: (value: unknown) => (typeof value === "string" && /^\d+$/.test(value) ? { value: Number(value) } : { issues: [{ message: "must be a numeric string" }] }),
    jsonSchema: { input: () => ({ type: "string", pattern: "^\\d+$" }), output: () => ({ type: "integer" }) },
  };
  return Object.assign(schema, { "~standard": props }) as never;
}

/** A Standard Schema that cannot produce a JSON Schema (valibot, zod 3, …): even numbers only. */
const evenNumber: StandardSchemaV1<number> = {
  "~standard": { version: 1, vendor: "plain", validate: (value) => (typeof value === "number" && value % 2 === 0 ? { value } : { issues: [{ message: "must be even", path: [] }] }) },
};

describe("components/execute", () => {
  it("answers a component that returns nothing with output null, which is a valid ComponentExecuteResult", async () => {
    const { execute } = connect({
      sync: defineServerComponent({ handler: () => undefined }),
      async: defineServerComponent({ handler: async () => undefined }),
    });
    expect(await execute("/sync", 1)).toEqual({ output: null });
    expect(await execute("/async", 1)).toEqual({ output: null });
  });

  it("validates and transforms the input with a Standard Schema that is a function (ArkType's shape)", async () => {
    const { execute } = connect({ increment: defineServerComponent({ inputSchema: numericString(), handler: (n) => n + 1 }) });
    expect(await execute("/increment", "21")).toEqual({ output: 22 });
    expect(await execute("increment", "x")).toMatchObject({ code: -32003, message: "Invalid input for increment: (root): must be a numeric string" });
  });

  it("validates with a Standard Schema that cannot produce a JSON Schema, and advertises none", async () => {
    const { execute, call } = connect({ half: defineServerComponent({ inputSchema: evenNumber, handler: (n) => n / 2 }) });
    expect(await execute("/half", 8)).toEqual({ output: 4 });
    expect(await execute("/half", 7)).toMatchObject({ code: -32003 });
    expect(await call("components/info", { component: "/half" })).toEqual({ info: { component: "/half" } });
  });

  it("gives a context that a component may spread or pass on as plain data", async () => {
    const { execute } = connect(
      { put: defineServerComponent({ handler: (data: unknown, context) => ({ ...context }).putBlob(data) }) },
      { "blobs/put": () => ({ blob_id: "b1" }) },
    );
    expect(await execute("/put", { a: 1 })).toEqual({ output: "b1" });
  });

  it("reports a failed call back to the runtime as an execution failure (-32004), not under the runtime's code", async () => {
    const { execute } = connect(
      {
        get: defineServerComponent({ handler: (id: string, context) => context.getBlob(id) }),
        eval: defineServerComponent({ handler: (_: unknown, context) => context.evaluateFlow({ steps: "not a list" } as never, null) }),
        own: defineServerComponent({
          handler: async () => {
            throw new JsonRpcError(-32099, "deliberate");
          },
        }),
      },
      {
        "blobs/get": () => {
          throw new JsonRpcError(-32000, "Failed to get blob");
        },
        "flows/evaluate": () => ({ result: { outcome: "skipped" } }),
      },
    );
    expect(await execute("/get", "abc")).toEqual({ code: -32004, message: "Failed to get blob" });
    // The client answers flows/evaluate with -32602 (invalid flow): the execute itself had valid params.
    expect(await execute("/eval", null)).toMatchObject({ code: -32004, message: expect.stringMatching(/^Invalid params for flows\/evaluate/) });
    // A JSON-RPC error the component throws itself keeps its code.
    expect(await execute("/own", null)).toEqual({ code: -32099, message: "deliberate" });
  });
});

describe("components/info", () => {
  it("advertises the input side of a Standard Schema as input_schema and the output side as output_schema", async () => {
    const { call } = connect({ parse: defineServerComponent({ description: "parses", inputSchema: numericString(), outputSchema: numericString(), handler: (n) => String(n) }) });
    expect(await call("components/info", { component: "/parse" })).toEqual({
      info: { component: "/parse", description: "parses", input_schema: { type: "string", pattern: "^\\d+$" }, output_schema: { type: "integer" } },
    });
  });
});

describe("connectStdio handshake", () => {
  const services = { putBlob: () => "", getBlob: () => undefined, evaluateFlow: async () => ({ outcome: "skipped" as const }) };

  it("names the command, how it exited and what it wrote to stderr when it dies before answering initialize", async () => {
    const error = await connectStdio({ command: process.execPath, args: ["-e", "console.error('cannot load components.ts'); process.exit(3)"], env: {} }, services).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("initialize");
    expect((error as Error).message).toContain(JSON.stringify(process.execPath));
    expect((error as Error).message).toContain("code 3");
    expect((error as Error).message).toContain("cannot load components.ts");
  });

  it("still passes the server's stderr lines on", async () => {
    const lines: string[] = [];
    await connectStdio({ command: process.execPath, args: ["-e", "console.error('one'); process.exit(1)"], env: {}, onStderr: (line) => lines.push(line) }, services).catch(() => undefined);
    expect(lines).toEqual(["one"]);
  });
});

describe("connectStdio after the handshake", () => {
  const services = { putBlob: () => "", getBlob: () => undefined, evaluateFlow: async () => ({ outcome: "skipped" as const }) };

  it("names the command, how it exited and what it wrote to stderr when it dies with a call in flight", async () => {
    const args = ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "packages/stepflow/test/fixtures/dies.ts")];
    const client = await connectStdio({ command: process.execPath, args, cwd: repoRoot, env: { PATH: process.env.PATH ?? "" } }, services);
    try {
      expect(await client.execute("/echo", 1)).toBe(1);
      const error = await client.execute("/die", null).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(JSON.stringify(process.execPath));
      expect((error as Error).message).toContain("code 3");
      expect((error as Error).message).toContain("lost the connection to the database");
      // Later calls fail the same way, instead of with a bare "closed".
      expect(((await client.execute("/echo", 2).catch((e: Error) => e)) as Error).message).toContain("code 3");
    } finally {
      await client.close();
    }
  });
});

describe("review: component names that differ only by a leading /", () => {
  it("a server with both echo and /echo is refused, naming both", () => {
    expect(() => createComponentServer({ echo: { handler: () => 1 }, "/echo": { handler: () => 2 } })).toThrow(/"echo" and "\/echo" are both the component \/echo/);
  });
});

describe("review: what the component server must not drop silently", () => {
  it.each([
    ["a function", (): unknown => () => 1],
    ["a symbol", (): unknown => Symbol("s")],
    ["a promise of a function", async (): Promise<unknown> => () => 1],
  ])("answers a component that returns %s with an execution error naming it, not a result without output", async (_what, handler) => {
    const { execute } = connect({ bad: defineServerComponent({ handler }), echo: defineServerComponent({ handler: (input: unknown) => input }) });
    expect(await execute("/bad", 1)).toEqual({ code: -32004, message: expect.stringMatching(/^\/bad returned a (function|symbol), which JSON cannot carry$/) });
    expect(await execute("/echo", 1)).toEqual({ output: 1 });
  });

  it("reports a notification it does not serve (a request sent without an id) instead of ignoring it", async () => {
    const errors: string[] = [];
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    connectStreams(toServer, toClient, { ...createComponentServer({ echo: defineServerComponent({ handler: (input: unknown) => input }) }), onError: (error) => errors.push(error.message), role: "server" });
    const client = connectStreams(toClient, toServer, { role: "client" });
    await client.notify("initialized", {});
    await client.notify("components/execute", { component: "/echo", input: 1 });
    await client.notify("cancel", {});
    expect(await client.request("components/execute", { component: "/echo", input: 2 })).toEqual({ output: 2 });
    expect(errors).toEqual([
      "ignored notification components/execute: only initialized is a notification; a request needs an id",
      "ignored notification cancel: only initialized is a notification; a request needs an id",
    ]);
  });
});
