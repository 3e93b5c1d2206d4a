import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, createRouter, mockPlugin, parseStepflowConfigText, RoutingError, runFlow, type Plugin, type StepflowConfig } from "../src/index.js";
import { corpusDir } from "../../../test/support.js";
import { fail500, flow, fromInput, fromStep, ok, step } from "./helpers.js";

const recorder = (kind: string): Plugin => ({ kind, execute: async (component, input) => ok({ kind, component, input }) });
const router = (routes: StepflowConfig["routes"]) =>
  createRouter({
    config: { plugins: { python: { type: "p" }, builtin: { type: "b" }, other: { type: "o" } }, routes },
    plugins: { python: recorder("python"), builtin: recorder("builtin"), other: recorder("other") },
  });

describe("routes (§4.4)", () => {
  it.each([
    ["/python/{*component}", "/python/udf", "python", "/udf"],
    ["/python/{*component}", "/python/a/b", "python", "/a/b"],
    ["/builtin/{component}", "/builtin/eval", "builtin", "/eval"],
    ["/{component}", "/create_messages", "builtin", "/create_messages"],
  ])("%s routes %s to %s as %s", (pattern, component, plugin, name) => {
    const r = router({ [pattern]: [{ plugin }] });
    expect(r.route(component, null)).toMatchObject({ pluginName: plugin, component: name });
  });

  it("a rule's component template replaces the name", () => {
    expect(router({ "/ai/{model}": [{ plugin: "builtin", component: "/openai" }] }).route("/ai/gpt", null)).toMatchObject({ component: "/openai" });
    expect(router({ "/ai/{model}": [{ plugin: "builtin", component: "/m/{model}" }] }).route("/ai/gpt", null)).toMatchObject({ component: "/m/gpt" });
  });

  it.each([
    ["/python/{component}", "/python/a/b", "no route pattern matches"],
    ["/python/{*component}", "/python/", "no route pattern matches"],
    ["/python/{*component}", "python/udf", "no route pattern matches"],
    ["/ai/{model}", "/ai/gpt", "no {component} parameter"],
  ])("%s does not route %s", (pattern, component, reason) => {
    const r = router({ [pattern]: [{ plugin: "python" }] });
    expect(() => r.route(component, null)).toThrow(RoutingError);
    expect(() => r.route(component, null)).toThrow(reason);
  });

  it("literal segments win over parameters, parameters over catch-alls, with backtracking", () => {
    const r = router({
      "/x/special": [{ plugin: "other", component: "/special" }],
      "/x/{component}": [{ plugin: "builtin" }],
      "/x/{*component}": [{ plugin: "python" }],
      "/y/lit/end": [{ plugin: "other", component: "/lit" }],
      "/y/{component}/more": [{ plugin: "builtin" }],
    });
    expect(r.route("/x/special", null)).toMatchObject({ pluginName: "other" });
    expect(r.route("/x/eval", null)).toMatchObject({ pluginName: "builtin", component: "/eval" });
    expect(r.route("/x/a/b", null)).toMatchObject({ pluginName: "python", component: "/a/b" });
    expect(r.route("/y/lit/more", null)).toMatchObject({ pluginName: "builtin", component: "/lit" });
  });

  it("conditions read the resolved input; the first rule that holds and passes allow/deny wins", () => {
    const r = router({
      "/m/{component}": [
        { plugin: "python", conditions: [{ path: "$.mode", value: "py" }] },
        { plugin: "other", componentDeny: ["/secret"] },
        { plugin: "builtin", componentAllow: ["/secret"] },
      ],
    });
    expect(r.route("/m/a", { mode: "py" })).toMatchObject({ pluginName: "python" });
    expect(r.route("/m/a", { mode: "other" })).toMatchObject({ pluginName: "other" });
    expect(r.route("/m/secret", { mode: "x" })).toMatchObject({ pluginName: "builtin" });
    expect(() => r.route("/m/a", {})).toThrow(/condition path "\$.mode" .* does not resolve/);
  });

  it("a single unconditional rule routes directly, without consulting allow/deny", () => {
    expect(router({ "/m/{component}": [{ plugin: "python", componentAllow: ["/only"] }] }).route("/m/other", null)).toMatchObject({ pluginName: "python" });
    const two = router({ "/m/{component}": [{ plugin: "python", componentAllow: ["/only"] }, { plugin: "other", componentDeny: ["/other"] }] });
    expect(() => two.route("/m/other", null)).toThrow(RoutingError);
  });

  it.each([
    [{ "/a/{x}": [{ plugin: "python" }], "/a/{y}": [{ plugin: "python" }] }, /conflicts/],
    [{ "/a/{*x}/b": [{ plugin: "python" }] }, /must be the last segment/],
    [{ "/a/b{x}": [{ plugin: "python" }] }, /mixes text and parameters/],
    [{ "/a": [{ plugin: "nobody" }] }, /unknown plugin "nobody"/],
  ])("config errors: %j", (routes, message) => {
    expect(() => router(routes as StepflowConfig["routes"])).toThrow(ConfigError);
    expect(() => router(routes as StepflowConfig["routes"])).toThrow(message);
  });

  it("the default config has a builtin plugin and no routes", async () => {
    expect(await runFlow(flow([step("s", "/builtin/put_blob", { data: 1 })]), {})).toEqual(fail500("error routing component"));
  });

  it("a routing failure from a condition is an execution error of the run", async () => {
    const config: StepflowConfig = { plugins: { builtin: { type: "builtin" } }, routes: { "/b/{component}": [{ plugin: "builtin", conditions: [{ path: "flag", value: true }] }] } };
    const f = flow([step("s", "/b/create_messages", { user_prompt: fromInput("p") })], fromStep("s"));
    expect(await runFlow(f, { p: "x" }, { config })).toEqual(fail500("error routing component"));
  });
});

describe("stepflow-config files", () => {
  const corpus = corpusDir("stepflow");

  it("reads the mock config with flow-mapping behaviour keys (§4.5 recipe)", async () => {
    const file = join(corpus, "tests/mock/stepflow-config.yml");
    const config = parseStepflowConfigText(readFileSync(file, "utf8"), file);
    const behaviors = (config.plugins.mock as any).components["/handle_skip"].behaviors as Map<unknown, unknown>;
    expect([...behaviors.keys()]).toEqual([{ input: "it was skipped" }, { input: "b" }, { input: null }]);
    const mock = mockPlugin(config.plugins.mock as any);
    expect(await mock.execute("/handle_skip", { input: null }, {} as never)).toEqual(ok({ output: "received null" }));
  });

  it("reports YAML syntax errors with file:line:column", () => {
    expect(() => parseStepflowConfigText("plugins:\n  a: [1\nroutes: {}\n", "bad.yml")).toThrow(/^bad\.yml:\d+:\d+ /);
  });

  it("refuses a config nested too deep with its place, where the YAML library would exhaust the stack (or abort the process)", () => {
    const deep = (n: number) => `plugins: ${"[".repeat(n)}${"]".repeat(n)}\n`;
    expect(() => parseStepflowConfigText(deep(100_000), "deep.yml")).toThrow(new ConfigError("nested more than 256 levels deep", "", "deep.yml:1:266"));
    expect(() => parseStepflowConfigText(deep(200), "ok.yml")).toThrow(/^ok\.yml.*plugins/);
  });

  it.each([
    ["routes: {}\n", "/plugins", "plugins is required"],
    ["plugins: {}\n", "/routes", "routes is required"],
    ["plugins:\n  a: {type: builtin}\nroutes:\n  /x:\n    - plugin: b\n", "/routes/~1x/0/plugin", 'unknown plugin "b"'],
    ["plugins:\n  a: {}\nroutes: {}\n", "/plugins/a", "string type"],
  ])("rejects %j at %s", (text, path, message) => {
    try {
      parseStepflowConfigText(text, "c.yml");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).path).toBe(path);
      expect((error as ConfigError).message).toContain(message);
      expect((error as ConfigError).location).toMatch(/^c\.yml:\d+:\d+$/);
    }
  });

  it("rejects an unknown plugin type and a mock behaviour that is no FlowResult", () => {
    expect(() => createRouter({ config: { plugins: { x: { type: "nope" } }, routes: {} } })).toThrow(/unknown plugin type "nope"/);
    expect(() => createRouter({ config: { plugins: { m: { type: "mock", components: { "/a": { behaviors: [[1, { outcome: "done" }]] } } } }, routes: {} } })).toThrow(
      /must be a FlowResult/,
    );
  });
});

describe("the mock plugin (§4.5)", () => {
  const config: StepflowConfig = {
    plugins: {
      mock: {
        type: "mock",
        components: {
          "/find": {
            input_schema: {},
            output_schema: {},
            behaviors: [
              [{ id: 1, tags: ["a"] }, { outcome: "success", result: { name: "one" } }],
              [{ id: 2 }, { outcome: "failed", error: { code: 7, message: "not found" } }],
              [{ id: 3 }, { error: "backend down" }],
              [{ id: 4 }, { outcome: "skipped" }],
            ],
          },
        },
      },
    },
    routes: { "/mock/{component}": [{ plugin: "mock" }] },
  };
  const find = (id: unknown) => runFlow(flow([step("s", "/mock/find", id)], fromStep("s")), {}, { config });

  it("matches inputs by deep equality, key order irrelevant", async () => {
    expect(await find({ tags: ["a"], id: 1 })).toEqual(ok({ name: "one" }));
  });
  it("a failed behaviour is a step failure", async () => {
    expect(await find({ id: 2 })).toEqual({ outcome: "failed", error: { code: 7, message: "not found" } });
  });
  it("a skipped behaviour skips the step", async () => {
    expect(await find({ id: 4 })).toEqual({ outcome: "skipped" });
  });
  it.each([{ id: 3 }, { id: 5 }])("%j is an execution error", async (input) => {
    expect(await find(input)).toEqual(fail500('step "s" failed'));
  });
  it("an unknown mock component is an execution error", async () => {
    expect(await runFlow(flow([step("s", "/mock/nope", 1)]), {}, { config })).toEqual(fail500('step "s" failed'));
  });
});

describe("review: component names that differ only by a leading /", () => {
  it("two TypeScript components that both mean /echo are refused, naming both, instead of one silently replacing the other", () => {
    expect(() => createRouter({ components: { echo: () => "no slash", "/echo": () => "slash" } })).toThrow(/"echo" and "\/echo" are both the component \/echo/);
  });
});
