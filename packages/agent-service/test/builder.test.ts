import { describe, expect, expectTypeOf, it } from "vitest";
import {
  agentRun,
  callable,
  createRun,
  mcpServerRun,
  toolRun,
  RunsClient,
  ValidationError,
  type AgentRunInput,
  type CreateRunCommand,
  type Run,
  type RunOf,
  type CreateRunCommandOf,
  type McpServerRunInput,
  type ToolRunInput,
} from "@flowspec/agent-service";

describe("create-run builders", () => {
  it("builds an agent run with messages, callables, ephemeral tools and every option", () => {
    const command = agentRun("agent-support")
      .message("user", "Where is my order?", { id: "m-1" })
      .callableAliases("search", "crm")
      .callable(callable.local({ alias: "kb", resourceType: "tool", resourceId: "tool-kb", releaseChannelId: "stable" }))
      .callable(callable.granted({ alias: "partner", resourceType: "mcp_server", grantId: "grant-1" }))
      .ephemeralTool({ name: "lookup_order", description: "Find an order", parametersSchema: { type: "object" } })
      .releaseChannel("stable")
      .thread("thread-1")
      .context("ctx-customer-001")
      .executionProfile({ runEnv: "cloud" })
      .runPolicy({ maxRetries: 1 })
      .deadline(new Date("2030-01-01T00:00:00Z"))
      .maxRetries(2)
      .webhook({ url: "https://example.com/hooks", eventTypes: ["run.status.changed"] })
      .idempotencyKey("order-42")
      .build();
    expect(command).toEqual({
      resourceType: "agent",
      resourceId: "agent-support",
      releaseChannelId: "stable",
      threadId: "thread-1",
      contextId: "ctx-customer-001",
      executionProfile: { runEnv: "cloud" },
      runPolicy: { maxRetries: 1 },
      deadlineAt: "2030-01-01T00:00:00.000Z",
      maxRetries: 2,
      webhook: { url: "https://example.com/hooks", eventTypes: ["run.status.changed"] },
      idempotencyKey: "order-42",
      input: {
        mode: "agent",
        messages: [{ id: "m-1", role: "user", content: "Where is my order?" }],
        callableAliases: ["search", "crm"],
        additionalCallableRefs: [
          { alias: "kb", resourceType: "tool", resourceId: "tool-kb", releaseChannelId: "stable", bindingMode: "invoke" },
          { alias: "partner", resourceType: "mcp_server", grantId: "grant-1", bindingMode: "inject" },
        ],
        ephemeralTools: [{ name: "lookup_order", description: "Find an order", parametersSchema: { type: "object" } }],
      },
    });
  });

  it.each([
    { name: "tool", build: () => toolRun("tool-1").arguments({ q: 1 }).callerContext({ user: "u" }).build(), input: { mode: "tool", arguments: { q: 1 }, callerContext: { user: "u" } } },
    {
      name: "mcp_server",
      build: () => mcpServerRun("mcp-1").clientInfo({ name: "c" }).clientCapabilities({}).sessionContext({ s: 1 }).metadata({ m: 2 }).build(),
      input: { mode: "mcp_server", clientInfo: { name: "c" }, clientCapabilities: {}, sessionContext: { s: 1 }, metadata: { m: 2 } },
    },
    { name: "tool without arguments", build: () => createRun("tool", "tool-2").build(), input: { mode: "tool", arguments: {} } },
  ])("builds a $name run", ({ build, input }) => {
    expect(build().input).toEqual(input);
  });

  it.each([
    { name: "an MCP-server run without client info", build: () => mcpServerRun("m").build(), pointers: ["/input/clientInfo", "/input/clientCapabilities"] },
    { name: "an empty resource id", build: () => agentRun("").build(), pointers: ["/resourceId"] },
    { name: "a bad webhook url and negative maxRetries", build: () => agentRun("a").webhook({ url: "not a url" }).maxRetries(-1).build(), pointers: ["/webhook/url", "/maxRetries"] },
    {
      name: "an input of another mode (from untyped code)",
      build: () => (createRun("tool", "t") as unknown as { input(i: unknown): { build(): unknown } }).input({ mode: "agent", messages: [] }).build(),
      pointers: ["/input/mode"],
    },
  ])("build() refuses $name with every error", ({ build, pointers }) => {
    const error = (() => {
      try {
        build();
      } catch (e) {
        return e;
      }
    })() as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    for (const pointer of pointers) expect(error.errors.map((e) => e.path)).toContain(pointer);
  });

  it("reports the if/then rule first, in one sentence", () => {
    const untyped = createRun("tool", "t") as unknown as { input(i: unknown): { build(): unknown } };
    expect(() => untyped.input({ mode: "agent", messages: [] }).build()).toThrow('/input/mode: resourceType "tool" requires input.mode "tool", got "agent"');
  });

  it("validates with the response variant by default and strict on request", () => {
    const builder = agentRun("a").message("narrator", "once upon a time");
    expect(builder.build().input.messages[0]?.role).toBe("narrator");
    expect(() => builder.build({ strict: true })).toThrow(/\/input\/messages\/0\/role/);
  });

  it("refuses a method of another resource type at run time (untyped callers)", () => {
    const untyped = toolRun("t") as unknown as { message(r: string, c: string): unknown };
    expect(() => untyped.message("user", "hi")).toThrow("message() is for agent runs; this builder is for a tool run");
    expect(() => createRun("robot" as never, "x")).toThrow(/agent, tool or mcp_server/);
  });

  it("never changes an input passed to input(), so a shared template stays as it was", () => {
    const template: AgentRunInput = { mode: "agent", messages: [{ role: "system", content: "be brief" }], callableAliases: ["kb"] };
    const first = agentRun("a").input(template).message("user", "one").callableAliases("crm").build();
    const second = agentRun("b").input(template).message("user", "two").build();
    expect(template).toEqual({ mode: "agent", messages: [{ role: "system", content: "be brief" }], callableAliases: ["kb"] });
    expect(first.input.messages.map((m) => m.content)).toEqual(["be brief", "one"]);
    expect(second.input.messages.map((m) => m.content)).toEqual(["be brief", "two"]);
    expect(second.input.callableAliases).toEqual(["kb"]);
  });

  it("returns a command that later builder calls do not change", () => {
    const builder = agentRun("a").message("user", "one");
    const first = builder.build();
    builder.message("user", "two");
    expect(first.input.messages).toHaveLength(1);
  });
});

describe("create-run builders: types", () => {
  it("narrow the built command by resource type", () => {
    expectTypeOf(agentRun("a").build()).toEqualTypeOf<CreateRunCommandOf<"agent">>();
    expectTypeOf(agentRun("a").build().input).toEqualTypeOf<AgentRunInput>();
    expectTypeOf(toolRun("t").build().input).toEqualTypeOf<ToolRunInput>();
    expectTypeOf(mcpServerRun("m").clientInfo({}).clientCapabilities({}).build().input).toEqualTypeOf<McpServerRunInput>();
    expectTypeOf(createRun("tool", "t").arguments({}).thread("x")).toHaveProperty("callerContext");
    const client = new RunsClient({ baseUrl: "http://127.0.0.1:9", orgId: "o", token: "t" });
    expectTypeOf(client.create<"tool">).returns.resolves.toEqualTypeOf<RunOf<"tool">>();
  });

  it("reject a mismatched input or method at compile time", () => {
    // @ts-expect-error an agent input on a tool run
    expect(() => createRun("tool", "t").input({ mode: "agent", messages: [] }).build()).toThrow(ValidationError);
    // @ts-expect-error a tool input on an MCP-server run
    expect(() => mcpServerRun("m").input({ mode: "tool", arguments: {} }).build()).toThrow(ValidationError);
    // @ts-expect-error messages belong to agent runs
    expect(() => toolRun("t").message("user", "hi")).toThrow(TypeError);
    // @ts-expect-error arguments belong to tool runs
    expect(() => agentRun("a").arguments({})).toThrow(TypeError);
    // @ts-expect-error clientInfo belongs to MCP-server runs
    expect(() => agentRun("a").clientInfo({})).toThrow(TypeError);
    // @ts-expect-error not a resource type
    expect(() => createRun("robot", "x")).toThrow(TypeError);
    // @ts-expect-error callable refs carry no bindingMode from the caller
    callable.local({ alias: "a", resourceType: "tool", resourceId: "r", bindingMode: "inject" });
  });

  it("make client.create refuse a literal body whose input mode is not its resourceType at compile time", async () => {
    const client = new RunsClient({ baseUrl: "http://127.0.0.1:9", orgId: "o", token: "t", fetch: async () => new Response("{}") });
    // @ts-expect-error a literal body whose input mode is not its resourceType
    await expect(client.create({ resourceType: "tool", resourceId: "t", input: { mode: "agent", messages: [] } })).rejects.toThrow(ValidationError);
    // @ts-expect-error the same for an MCP-server run given a tool input
    await expect(client.create({ resourceType: "mcp_server", resourceId: "m", input: { mode: "tool", arguments: {} } })).rejects.toThrow(ValidationError);
    // A body typed only as CreateRunCommand still compiles; it is validated at run time.
    const plain: Promise<Run> = client.create(toolRun("t").build() as CreateRunCommand);
    await expect(plain).rejects.toThrow(); // the fake answer is no envelope
  });
});

describe("create-run builders: review", () => {
  const errorOf = (build: () => unknown): ValidationError => {
    try {
      build();
    } catch (e) {
      return e as ValidationError;
    }
    throw new Error("expected build() to throw");
  };

  it("copies values when they are passed, so changing them before build() does not change the command", () => {
    const args: Record<string, unknown> = { q: 1 };
    const tool = toolRun("t").arguments(args);
    args.q = 2;
    expect(tool.build().input.arguments).toEqual({ q: 1 });

    const profile = { runEnv: "cloud" };
    const content = [{ type: "text" as const, text: "hi" }];
    const messages = [{ role: "user", content: "a" }];
    const ephemeral = { name: "lookup", description: "Find" };
    const agent = agentRun("a").executionProfile(profile).message("user", content).messages(messages).ephemeralTool(ephemeral);
    profile.runEnv = "local";
    content[0]!.text = "bye";
    messages[0]!.content = "b";
    ephemeral.description = "changed";
    const built = agent.build();
    expect(built.executionProfile).toEqual({ runEnv: "cloud" });
    expect(built.input.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "user", content: "a" },
    ]);
    expect(built.input.ephemeralTools).toEqual([{ name: "lookup", description: "Find" }]);
  });

  it("reports an invalid Date deadline as a schema error at /deadlineAt", () => {
    const error = errorOf(() => agentRun("a").deadline(new Date("not a date")).build());
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.errors.map((e) => e.path)).toEqual(["/deadlineAt"]);
  });

  it("refuses a second ephemeral tool or callable ref with a name or alias already used", () => {
    const tools = agentRun("a").ephemeralTool({ name: "lookup", description: "one" });
    expect(() => tools.ephemeralTool({ name: "lookup", description: "two" })).toThrow(
      '/input/ephemeralTools/1/name: "lookup" is already the name of /input/ephemeralTools/0',
    );
    const refs = agentRun("a").callable(callable.local({ alias: "kb", resourceType: "tool", resourceId: "r" }));
    expect(() => refs.callable(callable.granted({ alias: "kb", resourceType: "agent", grantId: "g" }))).toThrow(ValidationError);
    // The refused call left the builder as it was.
    expect(tools.build().input.ephemeralTools).toHaveLength(1);
    expect(refs.build().input.additionalCallableRefs).toHaveLength(1);
  });

  it.each([
    { name: "an agent run with a bad message", build: () => agentRun("a").message("user", 5 as never).build(), mode: "agent" },
    { name: "an agent run with an empty tool name", build: () => agentRun("a").ephemeralTool({ name: "", description: "d" }).build(), mode: "agent" },
    { name: "an MCP-server run without client info", build: () => mcpServerRun("m").build(), mode: "mcp_server" },
  ])("reports only the errors of the input's own mode for $name", ({ build, mode }) => {
    const error = errorOf(build);
    expect(error).toBeInstanceOf(ValidationError);
    // Nothing from the other oneOf branches (another mode's const, required or closed properties).
    for (const issue of error.errors) {
      expect(issue.message).not.toMatch(/must equal "(agent|tool|mcp_server)"|unexpected property "(messages|ephemeralTools)"|"arguments"/);
      if (issue.keyword === "const") expect(issue.params.allowedValue).toBe(mode);
    }
    expect(error.errors.length).toBeGreaterThan(0);
  });
});
