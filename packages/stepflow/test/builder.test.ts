import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseSourceDocument } from "@flowspec/runtime";
import { describe, expect, it } from "vitest";
import {
  builtins,
  componentTable,
  defineComponent,
  FlowBuilder,
  FlowBuildError,
  InvalidFlowError,
  literal,
  onError,
  runFlow,
  runTestCases,
  type StepflowConfig,
} from "../src/index.js";
import { corpusDir } from "../../../test/support.js";
import { normaliseLikeBuilder as normalise, SCHEMA } from "./helpers.js";

const config: StepflowConfig = { plugins: { builtin: { type: "builtin" } }, routes: { "/builtin/{*component}": [{ plugin: "builtin" }] } };
const b = builtins();

describe("FlowBuilder", () => {
  it("emits camelCase keys, schema and $-form paths, in a valid flow", () => {
    const f = new FlowBuilder<{ text: string; quiet: boolean; "a.b": number }>({ name: "greet" }).description("says hi");
    const greet = f.addStep(b.createMessages, {
      id: "greet",
      skipIf: f.input("quiet"),
      input: { user_prompt: f.input("text"), system_instructions: null },
      onError: onError.useDefault({ messages: [] }),
      inputSchema: null,
    });
    const store = f.addStep(b.putBlob, { id: "store", input: { data: greet.ref("$.messages[0]") }, onError: onError.retry() });
    f.output({ first: greet.ref("$.messages[0].content").orDefault("-"), blob: store.ref("blob_id").orNull(), odd: f.input("a.b"), all: literal({ $from: "kept" }) });
    expect(f.build()).toEqual({
      schema: SCHEMA,
      name: "greet",
      description: "says hi",
      steps: [
        {
          id: "greet",
          component: "/builtin/create_messages",
          inputSchema: null,
          skipIf: { $from: { workflow: "input" }, path: "$.quiet" },
          onError: { action: "useDefault", defaultValue: { messages: [] } },
          input: { user_prompt: { $from: { workflow: "input" }, path: "$.text" }, system_instructions: null },
        },
        { id: "store", component: "/builtin/put_blob", onError: { action: "retry" }, input: { data: { $from: { step: "greet" }, path: "$.messages[0]" } } },
      ],
      output: {
        first: { $from: { step: "greet" }, path: "$.messages[0].content", onSkip: { action: "useDefault", defaultValue: "-" } },
        blob: { $from: { step: "store" }, path: "$.blob_id", onSkip: { action: "useDefault" } },
        odd: { $from: { workflow: "input" }, path: '$["a.b"]' },
        all: { $literal: { $from: "kept" } },
      },
    });
  });

  it("builds flows that run: typed TypeScript components, nested flows wrapped in $literal", async () => {
    const double = defineComponent("/ts/double", async ({ n }: { n: number }) => ({ doubled: n * 2 }));
    const inner = new FlowBuilder<{ n: number }>();
    const d = inner.addStep(double, { id: "d", input: { n: inner.input("n") } });
    inner.output(d.ref("doubled"));
    const outer = new FlowBuilder<{ items: { n: number }[] }>({ name: "outer", description: "maps" });
    const mapped = outer.addStep(b.map, { id: "each", input: { workflow: inner, items: outer.input("items") } });
    const again = outer.addStep(b.eval, { id: "again", input: { workflow: inner.build(), input: { n: 5 } } });
    outer.output({ results: mapped.ref("results"), again: again.ref("$.result.result") });
    const flow = outer.build();
    expect((flow.steps[0]!.input as any).workflow.$literal.steps[0].input).toEqual({ n: { $from: { workflow: "input" }, path: "$.n" } });
    expect((flow.steps[1]!.input as any).workflow.$literal.schema).toBe(SCHEMA);
    const result = await runFlow(flow, { items: [{ n: 1 }, { n: 2 }] }, { config, components: componentTable(double) });
    expect(result).toEqual({
      outcome: "success",
      result: { results: [{ outcome: "success", result: 2 }, { outcome: "success", result: 4 }], again: 10 },
    });
  });

  it("componentTable refuses two definitions with the same name instead of keeping the last", () => {
    expect(() => componentTable(defineComponent("/ts/a", () => 1), defineComponent("/ts/a", () => 2))).toThrow(/two components are named "\/ts\/a"/);
  });

  it("carries test cases, a test config and examples, and runs the tests", async () => {
    const f = new FlowBuilder<{ who: string }>({ name: "t", description: "d" });
    const m = f.addStep(b.createMessages, { id: "m", input: { user_prompt: f.input("who") } });
    f.output(m.ref("$.messages[0].content"))
      .testConfig(config)
      .testCase({ name: "ada", input: { who: "Ada" }, output: { outcome: "success", result: "Ada" } })
      .example({ name: "ex", input: { who: "Bob" } });
    const flow = f.build();
    expect(flow.test).toEqual({ config, cases: [{ name: "ada", input: { who: "Ada" }, output: { outcome: "success", result: "Ada" } }] });
    expect(flow.examples).toEqual([{ name: "ex", input: { who: "Bob" } }]);
    expect((await runTestCases(flow, { config })).map((r) => r.status)).toEqual(["passed"]);
  });

  it("refuses empty and duplicate step ids when they are added", () => {
    const f = new FlowBuilder();
    f.addStep("/x/a", { id: "a" });
    expect(() => f.addStep("/x/b", { id: "a" })).toThrow('duplicate step id "a" (first defined at /steps/0)');
    expect(() => f.addStep("/x/b", { id: " " })).toThrow("step id must not be empty");
  });

  it("build() refuses references to steps of another builder, raw references to later or unknown steps, and invalid flows", () => {
    const other = new FlowBuilder();
    const foreign = other.addStep("/x/a", { id: "a" });
    const f = new FlowBuilder();
    f.addStep("/x/b", { id: "b", input: foreign.ref() });
    expect(() => f.build()).toThrow(FlowBuildError);
    expect(() => f.build()).toThrow('/steps/0/input: references step "a" of another flow builder');

    const raw = new FlowBuilder();
    raw.addStep("/x/a", { id: "a", input: { $from: { step: "b" } } as never });
    raw.addStep("/x/b", { id: "b" });
    expect(() => raw.build()).toThrow(/\/steps\/0\/input\/\$from\/step: step "a" references step "b", which is defined later/);

    const unknown = new FlowBuilder().output({ $from: { step: "ghost" } } as never);
    expect(() => unknown.build()).toThrow('output references undefined step "ghost"');

    const relative = new FlowBuilder();
    relative.addStep("x/a", { id: "a" });
    expect(() => relative.build()).toThrow('component "x/a" must start with "/"');
  });

  it("check() returns warnings too", () => {
    const f = new FlowBuilder();
    f.addStep("/x/a", { id: "a" });
    expect(f.check().diagnostics.map((d) => d.rule)).toEqual(["unreachable-step", "missing-name", "missing-description"]);
  });

  it("refuses paths no 0.2.x path can address", () => {
    const f = new FlowBuilder();
    expect(() => f.input("$['a]']")).toThrow();
    expect(() => f.input("$bad")).toThrow(/Invalid character 'b'/);
  });

  it("load() keeps the handles of loaded steps for new steps", async () => {
    const f = FlowBuilder.load(`schema: ${SCHEMA}
steps:
  - id: m
    component: /builtin/create_messages
    input: { user_prompt: { $from: { workflow: input }, path: p } }
`);
    const m = f.step("m");
    const p = f.addStep(b.putBlob, { id: "p", input: { data: m.ref("messages") } });
    f.name("loaded").description("extended").output(p.ref("blob_id"));
    const flow = f.build();
    expect(flow.steps[0]!.input).toEqual({ user_prompt: { $from: { workflow: "input" }, path: "$.p" } });
    expect((await runFlow(flow, { p: "x" }, { config })).outcome).toBe("success");
    expect(() => f.step("nope")).toThrow('no step "nope" in this flow (steps: m, p)');
  });
});

describe("FlowBuilder.load keeps unknown keys as data", () => {
  it("unknown keys named __proto__ or toString (ignored by the runtime) stay keys: they neither vanish nor turn into the step's input or skipIf", () => {
    const text = `{"schema":"${SCHEMA}","__proto__":{"output":1},"toString":"kept","steps":[{"id":"a","component":"/builtin/create_messages","input":{"user_prompt":"hi"},"__proto__":{"input":{"evil":1},"skipIf":true}}],"output":{"$from":{"step":"a"}}}`;
    const built = FlowBuilder.load(text, { format: "json" }).build();
    const step = built.steps[0]!;
    expect(Object.getPrototypeOf(step)).toBe(Object.prototype);
    expect(step.skipIf).toBeUndefined();
    expect(JSON.stringify(step)).toBe(JSON.stringify(JSON.parse(text).steps[0]));
    expect(Object.hasOwn(built, "__proto__")).toBe(true);
    expect(Object.hasOwn(built, "toString")).toBe(true);
  });
});

describe("FlowBuilder.load over the corpus", () => {
  const corpus = corpusDir("stepflow");
  const files = (readdirSync(corpus, { recursive: true }) as string[])
    .map((p) => p.split("\\").join("/"))
    .filter((p) => /\.ya?ml$/.test(p) && !/stepflow[-_]config/.test(p))
    .sort();

  it("finds the 28 corpus flows with a schema", () => expect(files).toHaveLength(28));

  it.each(files)("%s re-emits an equivalent flow", (path) => {
    const text = readFileSync(join(corpus, path), "utf8");
    const original = FlowBuilder.load(text, { file: path });
    const built = original.build();
    expect(built).toEqual(normalise(parseSourceDocument(text, { file: path, keepFloats: true }).value));
    // Building again from the output gives the same document.
    expect(FlowBuilder.load(built).build()).toEqual(built);
  });

  it("refuses the corpus flow without schema, with that error", () => {
    const text = readFileSync(join(corpus, "load-tests/workflows/rust-builtin-messages.json"), "utf8");
    expect(() => FlowBuilder.load(text, { file: "rust-builtin-messages.json" })).toThrow(InvalidFlowError);
    expect(() => FlowBuilder.load(text, { file: "rust-builtin-messages.json" })).toThrow('rust-builtin-messages.json:1:1 /schema: missing required property "schema"');
  });
});

describe("FlowBuilder nested flows and load errors", () => {
  it("locates an error of a nested builder inside the enclosing flow, and check() reports it without throwing", () => {
    const inner = new FlowBuilder();
    inner.addStep("/x/a", { id: "a", input: { $from: { step: "zz" } } as never });
    const outer = new FlowBuilder({ name: "o", description: "d" });
    const e = outer.addStep(b.eval, { id: "e", input: { workflow: inner, input: {} } });
    outer.output(e.ref());
    expect(() => outer.build()).toThrow('/steps/0/input/workflow/$literal/steps/0/input/$from/step: step "a" references undefined step "zz"');
    const errors = outer.check().diagnostics.filter((d) => d.level === "error");
    expect(errors.map((d) => d.path)).toEqual(["/steps/0/input/workflow/$literal/steps/0/input/$from/step"]);

    const foreign = new FlowBuilder();
    foreign.addStep("/x/a", { id: "a", input: e.ref() });
    const wrapper = new FlowBuilder({ name: "w", description: "d" });
    wrapper.output(literal(foreign));
    expect(() => wrapper.build()).toThrow('/output/$literal/steps/0/input: references step "e" of another flow builder');
  });

  it("refuses references in plain-data positions (onSkip defaults, literal values) instead of emitting Ref objects", () => {
    const f = new FlowBuilder<{ q: boolean; fallback: string }>({ name: "n", description: "d" });
    const m = f.addStep(b.createMessages, { id: "m", skipIf: f.input("q"), input: { user_prompt: "hi" } });
    f.output({ first: m.ref("$.messages[0].content").orDefault(f.input("fallback")), raw: literal({ x: [m.ref()] }) });
    expect(() => f.build()).toThrow(FlowBuildError);
    expect(() => f.build()).toThrow("/output/first/onSkip/defaultValue: a reference in plain data is not resolved");
    expect(() => f.build()).toThrow("/output/raw/$literal/x/0: a reference in plain data is not resolved");
  });

  it("refuses a builder nested in itself with a FlowBuildError, not a stack overflow", () => {
    const f = new FlowBuilder();
    f.addStep(b.eval, { id: "again", input: { workflow: f, input: {} } });
    expect(() => f.build()).toThrow(FlowBuildError);
    expect(() => f.build()).toThrow("/steps/0/input/workflow: the flow contains itself");
  });

  it("load() keeps an unwrapped flow-shaped input a template: re-emitting does not wrap it in $literal and change its meaning", async () => {
    const text = `schema: ${SCHEMA}
name: n
description: d
steps:
  - id: e
    component: /builtin/eval
    input:
      workflow: { schema: ${SCHEMA}, steps: [], output: { $from: { workflow: input }, path: x } }
      input: { x: 2 }
output: { $from: { step: e }, path: result }
`;
    const rebuilt = FlowBuilder.load(text).build();
    expect(rebuilt).toEqual(normalise(parseSourceDocument(text).value));
    expect(await runFlow(rebuilt, { x: 1 }, { config })).toEqual({ outcome: "success", result: { outcome: "success", result: 1 } });
  });

  it("load() reports duplicate and empty step ids with file:line:column", () => {
    const dup = `schema: ${SCHEMA}\nsteps:\n  - id: a\n    component: /x/a\n  - id: a\n    component: /x/b\n`;
    expect(() => FlowBuilder.load(dup, { file: "f.yaml" })).toThrow('f.yaml:5:9 /steps/1/id: duplicate step id "a" (first defined at /steps/0)');
    const empty = `schema: ${SCHEMA}\nsteps:\n  - id: " "\n    component: /x/a\n`;
    expect(() => FlowBuilder.load(empty, { file: "f.yaml" })).toThrow("f.yaml:3:9 /steps/0/id: step id must not be empty or whitespace");
  });

  it("emits test.servers (corpus tests/http) from the fluent API", () => {
    const f = new FlowBuilder({ name: "h", description: "d" });
    f.output(null).testServer("test_http", { command: "uv", args: ["--port", "{port}"], portRange: [18000, 19000] });
    expect(f.build().test).toEqual({ servers: { test_http: { command: "uv", args: ["--port", "{port}"], portRange: [18000, 19000] } } });
  });
});

describe("rebuilding corpus flows with the fluent API", () => {
  const corpus = corpusDir("stepflow");
  const original = (path: string) => normalise(parseSourceDocument(readFileSync(join(corpus, path), "utf8"), { file: path }).value);
  const mock = (name: string) => defineComponent<{ input?: unknown; mode?: unknown }, { output: string }>(`/mock/${name}`);

  it("tests/mock/conditional_skip_use_default.yaml: skipIf, onSkip with a default, null step schemas", () => {
    const flow = original("tests/mock/conditional_skip_use_default.yaml");
    const f = new FlowBuilder<{ shouldSkip: boolean; value: string }>().inputSchema(flow.inputSchema).outputSchema(flow.outputSchema);
    const cond = f.addStep(mock("one_output"), { id: "conditional_step", inputSchema: null, outputSchema: null, skipIf: f.input("shouldSkip"), input: { input: f.input("value") } });
    const dep = f.addStep(mock("handle_skip"), { id: "dependent_step", inputSchema: null, outputSchema: null, input: { input: cond.ref("output").orDefault("it was skipped") } });
    f.output({ dependentResult: dep.ref("output") });
    for (const c of flow.test.cases) f.testCase(c);
    expect(f.build()).toEqual(flow);
  });

  it("tests/mock/error_use_default_value.yaml: onError useDefault with a template", () => {
    const flow = original("tests/mock/error_use_default_value.yaml");
    const f = new FlowBuilder<{ mode: string }>().inputSchema(flow.inputSchema).outputSchema(flow.outputSchema);
    const error = f.addStep(mock("error"), { id: "error", inputSchema: null, outputSchema: null, onError: onError.useDefault({ output: "using default value" }), input: { mode: f.input("mode") } });
    f.output({ errorResult: error.ref("output") });
    for (const c of flow.test.cases) f.testCase(c);
    expect(f.build()).toEqual(flow);
  });

  it("tests/builtins/map_test.yaml: a nested builder under /builtin/map (less its ignored snake_case schemas)", () => {
    const flow = original("tests/builtins/map_test.yaml");
    const literalFlow = flow.steps[0].input.workflow.$literal;
    delete literalFlow.input_schema;
    delete literalFlow.output_schema;
    const inner = new FlowBuilder<string>({ name: "create-message" });
    inner.output(inner.addStep(b.createMessages, { id: "create_msg", input: { user_prompt: inner.input() } }).ref());
    const f = new FlowBuilder<{ prompts: string[] }>({ name: flow.name, description: flow.description });
    // max_concurrency is not an input of 0.2.x's /builtin/map: the string form takes it.
    const map = f.addStep<{ results: unknown[]; successful: number; failed: number; skipped: number }>("/builtin/map", {
      id: "map_prompts",
      input: { workflow: inner, items: f.input("prompts"), max_concurrency: 2 },
    });
    f.output({ results: map.ref("results"), successful: map.ref("successful"), failed: map.ref("failed"), skipped: map.ref("skipped") });
    for (const c of flow.test.cases) f.testCase(c);
    expect(f.build()).toEqual(flow);
  });

  it("tests/http/basic_http.yaml: test servers and config", () => {
    const flow = original("tests/http/basic_http.yaml");
    const f = new FlowBuilder<{ message: string; numbers: { a: number; b: number }; items: string[] }>({ name: flow.name, description: flow.description });
    const echo = f.addStep("/test/echo", { id: "echo_test", input: { message: f.input("message") } });
    const add = f.addStep("/test/math", { id: "math_add", input: { a: f.input("$.numbers.a"), b: f.input("$.numbers.b"), operation: "add" } });
    const mul = f.addStep("/test/math", { id: "math_multiply", input: { a: add.ref("result"), b: 2.0, operation: "multiply" } });
    const items = f.addStep("/test/process_list", { id: "process_items", input: { items: f.input("items"), prefix: "http_test" } });
    f.output({ echo_result: echo.ref("echo"), addition_result: add.ref("result"), multiplication_result: mul.ref("result"), processed_items: items.ref() });
    f.testServer("test_http", flow.test.servers.test_http).testConfig(flow.test.config);
    for (const c of flow.test.cases) f.testCase(c);
    expect(f.build()).toEqual(flow);
  });
});
