import { describe, expect, it } from "vitest";
import { blobId, ExecutionError, InvalidFlowError, isTruthy, runFlow, type FlowResult } from "../src/index.js";
import { deferred, fail500, flow, fromInput, fromStep, ok, scripted, step } from "./helpers.js";

/** Components: /t/echo returns its input; /t/fail fails with {8, "error"}; /t/boom throws. */
const basic = scripted((component, input) => {
  if (component === "/echo") return ok(input);
  if (component === "/fail") return { outcome: "failed", error: { code: 8, message: "error" } };
  if (component === "/skip") return { outcome: "skipped" };
  throw new Error(`boom: ${component}`);
});

describe("skipIf truthiness (§6.3)", () => {
  it.each([
    [false, false],
    [true, true],
    [0, false],
    [0.0, false],
    [-0, false],
    [1, true],
    [-2.5, true],
    ["", false],
    ["false", true],
    ["0", true],
    [null, true],
    [[], true],
    [{}, true],
    [[0], true],
  ])("%j is truthy: %s", async (value, truthy) => {
    expect(isTruthy(value)).toBe(truthy);
    const result = await runFlow(flow([step("s", "/t/echo", "ran", { skipIf: fromInput("v") })], fromStep("s", undefined, { action: "useDefault", defaultValue: "skipped" })), { v: value }, basic);
    expect(result).toEqual(ok(truthy ? "skipped" : "ran"));
  });

  it("a literal skipIf object is truthy and its nested $from is not expanded", async () => {
    const f = flow([step("s", "/t/echo", 1, { skipIf: { a: fromInput("missing") } })], fromStep("s"));
    expect(await runFlow(f, {}, basic)).toEqual({ outcome: "skipped" });
  });

  it("$literal false does not skip", async () => {
    const f = flow([step("s", "/t/echo", 1, { skipIf: { $literal: false } })], fromStep("s"));
    expect(await runFlow(f, {}, basic)).toEqual(ok(1));
  });

  it("a skipIf that resolves to skipped or failed does not skip; a useDefault default is tested", async () => {
    const f = flow(
      [
        step("gone", "/t/echo", 1, { skipIf: true }),
        step("bad", "/t/fail", 1),
        step("a", "/t/echo", "a ran", { skipIf: fromStep("gone") }),
        step("b", "/t/echo", "b ran", { skipIf: fromStep("bad") }),
        step("c", "/t/echo", "c ran", { skipIf: fromStep("gone", undefined, { action: "useDefault", defaultValue: true }) }),
        step("d", "/t/echo", "d ran", { skipIf: fromStep("gone", undefined, { action: "useDefault" }) }),
      ],
      { a: fromStep("a"), b: fromStep("b"), c: fromStep("c", undefined, { action: "useDefault", defaultValue: "c skipped" }), d: fromStep("d", undefined, { action: "useDefault", defaultValue: "d skipped" }) },
    );
    expect(await runFlow(f, {}, basic)).toEqual(ok({ a: "a ran", b: "b ran", c: "c skipped", d: "d skipped" }));
  });

  it("skipIf is evaluated before the input, which is then not resolved", async () => {
    const f = flow([step("s", "/t/echo", fromInput("missing"), { skipIf: true })], null);
    expect(await runFlow(f, {}, basic)).toEqual(ok(null));
  });

  it("a skipIf path that does not resolve is an execution error", async () => {
    const f = flow([step("s", "/t/echo", 1, { skipIf: fromInput("$.missing") })]);
    expect(await runFlow(f, {}, basic)).toEqual(fail500("failed to resolve value"));
  });
});

describe("skips and onSkip (§6.2)", () => {
  it("cascades through inputs and into the output", async () => {
    const calls: string[] = [];
    const plugin = scripted((component, input) => {
      calls.push(JSON.stringify(input));
      return ok(input);
    });
    const f = flow(
      [
        step("a", "/t/x", "a", { skipIf: true }),
        step("b", "/t/x", { from: fromStep("a") }),
        step("c", "/t/x", [1, { deep: fromStep("b", "$.from") }]),
        step("d", "/t/x", { v: fromStep("c", undefined, { action: "useDefault" }) }),
        step("e", "/t/x", { v: fromStep("c", undefined, { action: "useDefault", defaultValue: { $from: { step: "zzz" } } }) }),
      ],
      { d: fromStep("d"), c: fromStep("c") },
    );
    expect(await runFlow(f, {}, plugin)).toEqual({ outcome: "skipped" });
    expect(calls).toEqual(['{"v":null}', '{"v":{"$from":{"step":"zzz"}}}']);
  });

  it("a template is the first non-success element it meets (short-circuit, in key order)", async () => {
    const f = flow([step("gone", "/t/echo", 1, { skipIf: true }), step("bad", "/t/fail", 1)], {
      first: fromStep("gone"),
      second: fromStep("bad"),
    });
    expect(await runFlow(f, {}, basic)).toEqual({ outcome: "skipped" });
    const g = flow([step("gone", "/t/echo", 1, { skipIf: true }), step("bad", "/t/fail", 1)], [fromStep("bad"), fromStep("gone")]);
    expect(await runFlow(g, {}, basic)).toEqual({ outcome: "failed", error: { code: 8, message: "error" } });
  });

  it("the path is not applied to a skipped or failed step", async () => {
    const f = flow([step("gone", "/t/echo", 1, { skipIf: true })], fromStep("gone", "$.no.such[3]", { action: "useDefault", defaultValue: "d" }));
    expect(await runFlow(f, {}, basic)).toEqual(ok("d"));
  });
});

describe("onError (§6.4)", () => {
  const withPolicy = (onError: unknown, output: unknown = fromStep("s")) => flow([step("s", "/t/fail", 1, onError === undefined ? {} : { onError })], output);

  it("fail (default): the output that references the step is that failure, unchanged", async () => {
    expect(await runFlow(withPolicy(undefined), {}, basic)).toEqual({ outcome: "failed", error: { code: 8, message: "error" } });
    expect(await runFlow(withPolicy({ action: "fail" }, { x: fromStep("s", "$.a.b") }), {}, basic)).toEqual({ outcome: "failed", error: { code: 8, message: "error" } });
  });

  it("retry is fail (0.2.x has no retries; maxAttempts is ignored)", async () => {
    expect(await runFlow(withPolicy({ action: "retry", maxAttempts: 3 }), {}, basic)).toEqual({ outcome: "failed", error: { code: 8, message: "error" } });
  });

  it("skip", async () => {
    expect(await runFlow(withPolicy({ action: "skip" }), {}, basic)).toEqual({ outcome: "skipped" });
  });

  it("useDefault without a value gives null", async () => {
    expect(await runFlow(withPolicy({ action: "useDefault" }), {}, basic)).toEqual(ok(null));
    expect(await runFlow(withPolicy({ action: "useDefault", defaultValue: null }), {}, basic)).toEqual(ok(null));
  });

  it("useDefault resolves its template when the step fails", async () => {
    const f = flow(
      [step("a", "/t/echo", "A"), step("s", "/t/fail", fromStep("a"), { onError: { action: "useDefault", defaultValue: { from: fromStep("a"), in: fromInput("x") } } })],
      fromStep("s"),
    );
    expect(await runFlow(f, { x: 1 }, basic)).toEqual(ok({ from: "A", in: 1 }));
  });

  it("a default that resolves to skipped gives null", async () => {
    const f = flow([step("gone", "/t/echo", 1, { skipIf: true }), step("s", "/t/fail", 1, { onError: { action: "useDefault", defaultValue: fromStep("gone") } })], fromStep("s"));
    expect(await runFlow(f, {}, basic)).toEqual(ok(null));
  });

  it("a default that resolves to failed is an internal error naming the step", async () => {
    const f = flow([step("bad", "/t/fail", 1), step("s", "/t/fail", 1, { onError: { action: "useDefault", defaultValue: fromStep("bad") } })], fromStep("s"));
    expect(await runFlow(f, {}, basic)).toEqual(
      fail500('internal error: Default value resolution failed for step s: FlowError { code: 8, message: "error", data: None }'),
    );
  });

  it("a default referencing a step that has not completed cannot be resolved (its references are not dependencies)", async () => {
    const later = deferred();
    const plugin = scripted(async (component, input) => {
      if (component === "/slow") {
        await later.promise;
        return ok(input);
      }
      return { outcome: "failed", error: { code: 1, message: "x" } };
    });
    const f = flow([step("slow", "/t/slow", 1), step("s", "/t/fail", 1, { onError: { action: "useDefault", defaultValue: fromStep("slow") } })], fromStep("s"));
    const errors: ExecutionError[] = [];
    const result = await runFlow(f, {}, { ...plugin, onExecutionError: (e) => errors.push(e) });
    later.resolve();
    expect(result).toEqual(fail500("failed to resolve value"));
    expect(errors[0]).toMatchObject({ reason: "failed to resolve value", pointer: "/steps/1/onError/defaultValue" });
  });

  it("onError does not apply to execution errors", async () => {
    const f = flow([step("s", "/t/boom", 1, { onError: { action: "skip" } })], fromStep("s"));
    expect(await runFlow(f, {}, basic)).toEqual(fail500('step "s" failed'));
  });

  it("a component that reports skipped skips the step", async () => {
    expect(await runFlow(flow([step("s", "/t/skip", 1)], fromStep("s")), {}, basic)).toEqual({ outcome: "skipped" });
  });
});

describe("failed steps and execution errors (§6.4, §6.5)", () => {
  it("a failed step that nothing references does not fail the run", async () => {
    expect(await runFlow(flow([step("bad", "/t/fail", 1)], "done"), {}, basic)).toEqual(ok("done"));
  });

  it("a step whose input references a failed step fails the run, naming the downstream step", async () => {
    const f = flow([step("bad", "/t/fail", 1), step("down", "/t/echo", { x: fromStep("bad") })], "done");
    expect(await runFlow(f, {}, basic)).toEqual(fail500('step "down" failed'));
  });

  it.each([
    ["a component error", flow([step("s", "/t/boom", 1)]), 'step "s" failed'],
    ["an unknown builtin", flow([step("s", "/builtin/nope", {})]), 'step "s" failed'],
    ["invalid builtin input", flow([step("s", "/builtin/create_messages", { user_prompt: 7 })]), 'step "s" failed'],
    ["a component no route matches", flow([step("s", "/nowhere/x", 1)]), "error routing component"],
    ["a component not starting with /", flow([step("s", "t/echo", 1)]), "error routing component"],
    ["an input path into a missing field", flow([step("s", "/t/echo", fromInput("$.name"))]), "failed to resolve value"],
    ["an output path into a missing field", flow([step("s", "/t/echo", {})], fromStep("s", "missing")), "failed to resolve value"],
    ["an index out of range", flow([], fromInput("$.list[3]")), "failed to resolve value"],
    ["a duplicate step id", flow([step("s", "/t/echo", 1), step("s", "/t/echo", 2)]), "error analyzing workflow"],
    ["an empty step id", flow([step(" ", "/t/echo", 1)]), "error analyzing workflow"],
    ["a reference to itself", flow([step("s", "/t/echo", fromStep("s"))]), "error analyzing workflow"],
    ["a reference to a later step", flow([step("a", "/t/echo", fromStep("b")), step("b", "/t/echo", fromStep("a"))]), "error analyzing workflow"],
    ["a skipIf reference to an undefined step", flow([step("a", "/t/echo", 1, { skipIf: fromStep("zzz") })]), "error analyzing workflow"],
    ["an output reference to an undefined step", flow([], fromStep("zzz")), "error analyzing workflow"],
  ])("%s: %s", async (_name, f, reason) => {
    expect(await runFlow(f, { list: [1] }, basic)).toEqual(fail500(reason as string));
  });

  it("the step id is quoted as Rust's debug formatting quotes it", async () => {
    expect(await runFlow(flow([step('say "hi"', "/t/boom", 1)]), {}, basic)).toEqual(fail500('step "say \\"hi\\"" failed'));
  });

  it("an execution error reports its step and JSON Pointer", async () => {
    const errors: ExecutionError[] = [];
    await runFlow(flow([step("a", "/t/echo", {}), step("b", "/t/echo", { x: fromStep("a", "$.name") })]), {}, { ...basic, onExecutionError: (e) => errors.push(e) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reason: "failed to resolve value", pointer: "/steps/1/input/x" });
    expect(errors[0]!.detail).toContain('the object has no field "name"');
  });

  it("stops at once: nothing else starts and running components see their signal abort", async () => {
    const started: string[] = [];
    let aborted: unknown;
    const gate = deferred();
    const plugin = scripted(async (component, input) => {
      started.push(input);
      if (component === "/boom") {
        await gate.promise;
        throw new Error("down");
      }
      return ok(input);
    });
    plugin.plugins.t!.execute = async (component, input, context) => {
      started.push(input as string);
      if (component === "/boom") {
        await gate.promise;
        throw new Error("down");
      }
      await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()));
      aborted = context.signal.reason;
      return ok(input);
    };
    const f = flow([step("slow", "/t/wait", "slow"), step("boom", "/t/boom", "boom"), step("after", "/t/x", fromStep("slow"))]);
    const run = runFlow(f, {}, plugin);
    await new Promise((r) => setTimeout(r, 5));
    gate.resolve();
    expect(await run).toEqual(fail500('step "boom" failed'));
    await new Promise((r) => setTimeout(r, 5));
    expect(started).toEqual(["slow", "boom"]);
    expect(aborted).toBeInstanceOf(ExecutionError);
  });
});

describe("scheduling (§6.6)", () => {
  it("independent steps overlap: each starts before the other finishes", async () => {
    const log: string[] = [];
    const gates = { a: deferred(), b: deferred() };
    const plugin = scripted(async (component) => {
      const name = component.slice(1) as "a" | "b";
      log.push(`start ${name}`);
      // a waits until b has started and vice versa: a sequential engine would never finish.
      (name === "a" ? gates.b : gates.a).resolve();
      await (name === "a" ? gates.a : gates.b).promise;
      log.push(`end ${name}`);
      return ok(name);
    });
    const f = flow([step("a", "/t/a", 1), step("b", "/t/b", 1)], [fromStep("a"), fromStep("b")]);
    expect(await runFlow(f, {}, plugin)).toEqual(ok(["a", "b"]));
    expect(log.slice(0, 2)).toEqual(["start a", "start b"]);
  });

  it("starts runnable steps in ascending order and a dependent only after its dependencies", async () => {
    const log: string[] = [];
    const plugin = scripted(async (component, input) => {
      log.push(`start ${input.id}`);
      await new Promise((r) => setTimeout(r, input.ms));
      log.push(`end ${input.id}`);
      return ok(input.id);
    });
    const f = flow(
      [
        step("c1", "/t/x", { id: "c1", ms: 20 }),
        step("c2", "/t/x", { id: "c2", ms: 1 }),
        step("join", "/t/x", { id: "join", ms: 0, after: [fromStep("c1"), fromStep("c2")] }),
        step("c3", "/t/x", { id: "c3", ms: 1 }),
      ],
      fromStep("join"),
    );
    expect(await runFlow(f, {}, plugin)).toEqual(ok("join"));
    expect(log.slice(0, 3)).toEqual(["start c1", "start c2", "start c3"]);
    expect(log.indexOf("start join")).toBeGreaterThan(log.indexOf("end c1"));
  });

  it("runs every step eagerly, needed by the output or not", async () => {
    const ran: string[] = [];
    const plugin = scripted((_c, input) => (ran.push(input), ok(input)));
    await runFlow(flow([step("a", "/t/x", "a"), step("b", "/t/x", "b")], "constant"), {}, plugin);
    expect(ran.sort()).toEqual(["a", "b"]);
  });

  it("skipIf references are dependencies", async () => {
    const log: string[] = [];
    const plugin = scripted(async (_c, input) => {
      await new Promise((r) => setTimeout(r, input === "slow" ? 10 : 0));
      log.push(input);
      return ok(input === "slow" ? false : input);
    });
    await runFlow(flow([step("slow", "/t/x", "slow"), step("gated", "/t/x", "gated", { skipIf: fromStep("slow") })]), {}, plugin);
    expect(log).toEqual(["slow", "gated"]);
  });

  it("a run with no steps resolves its output from the input; output defaults to null", async () => {
    expect(await runFlow(flow([], { a: fromInput("$.x[0]") }), { x: [7] })).toEqual(ok({ a: 7 }));
    expect(await runFlow(flow([]), {})).toEqual(ok(null));
  });
});

describe("cancellation", () => {
  it("rejects with the abort reason, stops scheduling and aborts the components' signals", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const plugin = scripted(async () => ok(1));
    plugin.plugins.t!.execute = async (_component, input, context) => {
      seen = context.signal;
      await new Promise((r) => setTimeout(r, 50));
      return ok(input);
    };
    const run = runFlow(flow([step("a", "/t/x", 1), step("b", "/t/x", fromStep("a"))]), {}, { ...plugin, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("stop"));
    await expect(run).rejects.toThrow("stop");
    expect(seen?.aborted).toBe(true);
  });

  it("rejects at once for an aborted signal", async () => {
    await expect(runFlow(flow([]), {}, { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe("flows the runtime does not read", () => {
  it.each([
    ["no schema", { steps: [] }, "/schema"],
    ["$from as a string", flow([step("s", "/t/echo", { $from: "oops" })]), "/steps/0/input/$from"],
    ["an invalid path", flow([], fromInput("$field")), "/output/path"],
    ["a malformed onSkip", flow([], fromInput("a", { action: "explode" })), "/output/onSkip"],
  ])("%s: InvalidFlowError at %s", async (_name, f, pointer) => {
    const run = runFlow(f as never, {});
    await expect(run).rejects.toBeInstanceOf(InvalidFlowError);
    await expect(run).rejects.toMatchObject({ issues: [expect.objectContaining({ path: pointer })] });
  });
});

describe("TypeScript components", () => {
  it("are called by full component name with the input and a context", async () => {
    const f = flow([step("d", "/ts/double", { n: fromInput("n") }), step("s", "/builtin/put_blob", { data: fromStep("d") })], { d: fromStep("d"), id: fromStep("s", "blob_id") });
    const result = await runFlow(f, { n: 21 }, {
      config: { plugins: { builtin: { type: "builtin" } }, routes: { "/builtin/{*component}": [{ plugin: "builtin" }] } },
      components: { "/ts/double": async ({ n }: { n: number }, context) => ({ n: n * 2, step: context.stepId }) },
    });
    expect(result).toEqual(ok({ d: { n: 42, step: "d" }, id: await blobId({ n: 42, step: "d" }) }));
  });

  it("names without a leading / are registered under /name; steps must still write the /", async () => {
    const components = { "ts/one": () => 1 };
    expect(await runFlow(flow([step("s", "/ts/one")], fromStep("s")), {}, { components })).toEqual(ok(1));
    expect(await runFlow(flow([step("s", "ts/one")], fromStep("s")), {}, { components })).toEqual(fail500("error routing component"));
  });

  // The engine's cost per step is mostly its promises: a synchronous function once cost three
  // (an async wrapper awaiting it, then the scheduler's), two microtask turns a step.
  it("a synchronous component costs its step one microtask turn", async () => {
    const steps = 1000;
    const chain = flow(
      Array.from({ length: steps }, (_, i) => step(`s${i}`, "/ts/inc", i === 0 ? fromInput() : fromStep(`s${i - 1}`))),
      fromStep(`s${steps - 1}`),
    );
    const components = { "/ts/inc": (n: number) => n + 1 };
    expect(await runFlow(chain, 0, { components })).toEqual(ok(steps));
    expect(await microtaskTurns(() => runFlow(chain, 0, { components }))).toBeLessThanOrEqual(steps + 10);
  });

  // A step waits for each step it references once, however often it references it: deduplicated
  // in a list for a few references, with a set past 16 (the analysis keeps no set per step).
  it.each([3, 16, 17, 40])("a step referencing the same two steps %i times runs once both are done", async (times) => {
    const refs = Array.from({ length: times }, (_, i) => (i % 2 ? fromStep("a") : fromStep("b", "$.n")));
    const components = { "/ts/n": (n: number) => ({ n }), "/ts/count": (values: unknown[]) => values.length };
    const result = await runFlow(flow([step("a", "/ts/n", fromInput()), step("b", "/ts/n", fromInput()), step("c", "/ts/count", refs)], fromStep("c")), 1, { components });
    expect(result).toEqual(ok(times));
  });

  it("a component that throws or rejects still fails its step", async () => {
    const thrown = { "/ts/x": () => { throw new Error("sync boom"); } };
    const rejected = { "/ts/x": async () => Promise.reject(new Error("async boom")) };
    for (const components of [thrown, rejected]) {
      let error: ExecutionError | undefined;
      expect(await runFlow(flow([step("s", "/ts/x")], fromStep("s")), {}, { components, onExecutionError: (e) => (error = e) })).toEqual(fail500('step "s" failed'));
      expect(error?.message).toMatch(/boom/);
    }
  });
});

/** How many microtask turns `run` takes to settle: a counter re-queues itself until it has. */
async function microtaskTurns(run: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    queueMicrotask(tick);
  };
  queueMicrotask(tick);
  await run().finally(() => (done = true));
  return turns;
}

describe("the worked example of §6.3", () => {
  const example = flow(
    [
      step("greet", "/builtin/create_messages", { user_prompt: fromInput("$.text") }, { skipIf: fromInput("quiet") }),
      step("store", "/builtin/put_blob", { data: fromStep("greet", "$.messages[0]") }),
    ],
    {
      first: fromStep("greet", "$.messages[0].content", { action: "useDefault", defaultValue: "-" }),
      blob: fromStep("store", "blob_id", { action: "useDefault" }),
    },
  );
  const options = { config: { plugins: { builtin: { type: "builtin" } }, routes: { "/builtin/{*component}": [{ plugin: "builtin" }] } } };

  it.each<[unknown, () => Promise<FlowResult>]>([
    [{ text: "hi", quiet: false }, async () => ok({ first: "hi", blob: await blobId({ role: "user", content: "hi" }) })],
    [{ text: "hi", quiet: true }, async () => ok({ first: "-", blob: null })],
    [{ text: "hi", quiet: null }, async () => ok({ first: "-", blob: null })],
    [{ quiet: false }, async () => fail500("failed to resolve value")],
    [{ text: "hi" }, async () => fail500("failed to resolve value")],
  ])("%j", async (input, expected) => {
    expect(await runFlow(example, input, options)).toEqual(await expected());
  });
});

describe("review: flows, components and plugins that misbehave", () => {
  it("a flow object changed after a run is run as it is now, not as it was compiled", async () => {
    const components = { "/ts/echo": (x: unknown) => x };
    const f = flow([step("a", "/ts/echo", 1)], fromStep("a")) as any;
    expect(await runFlow(f, null, { components })).toEqual(ok(1));
    f.steps[0].input = 2;
    f.output = { x: fromStep("a") };
    expect(await runFlow(f, null, { components })).toEqual(ok({ x: 2 }));
    f.steps.push(step("a", "/ts/echo", 3));
    expect(await runFlow(f, null, { components })).toEqual(fail500("error analyzing workflow"));
  });

  it("a flow run once is not serialised for the compile cache; one run again is, and from then on is not read again", async () => {
    // A non-enumerable toJSON: invisible to the validator and the analysis, seen by JSON.stringify.
    let serialised = 0;
    const value = Object.defineProperty({ n: 1 }, "toJSON", { value: () => (serialised++, { n: 1 }), enumerable: false });
    const components = { "/ts/echo": (x: unknown) => x };
    const f = flow([step("a", "/ts/echo", { value })], fromStep("a", "$.value.n"));
    expect(await runFlow(f, null, { components })).toEqual(ok(1));
    expect(serialised).toBe(0);
    expect(await runFlow(f, null, { components })).toEqual(ok(1));
    expect(await runFlow(f, null, { components })).toEqual(ok(1));
    expect(serialised).toBe(2);
  });

  it("a TypeScript component that returns nothing answers null, as a component server does", async () => {
    const seen: unknown[] = [];
    const components = { "/ts/void": () => undefined, "/ts/see": (x: unknown) => void seen.push(x) };
    const f = flow([step("a", "/ts/void", 1), step("b", "/ts/see", fromStep("a"))], fromStep("a"));
    expect(await runFlow(f, null, { components })).toEqual(ok(null));
    expect(seen).toEqual([null]);
  });

  it.each([
    ["not a FlowResult", { hello: 1 }],
    ["undefined", undefined],
    ["success without result", { outcome: "success" }],
    ["failed without an error", { outcome: "failed" }],
  ])("a plugin answering %s is an execution error naming the step and the plugin", async (_name, answer) => {
    const plugins = { x: { kind: "odd", execute: async () => answer as FlowResult } };
    const config = { plugins: {}, routes: { "/x/{*component}": [{ plugin: "x" }] } };
    let error: ExecutionError | undefined;
    const result = await runFlow(flow([step("a", "/x/c", 1)], fromStep("a")), null, { plugins, config, onExecutionError: (e) => (error = e) });
    expect(result).toEqual(fail500('step "a" failed'));
    expect(error?.message).toMatch(/plugin "x" answered \/c with a malformed result/);
  });
});
