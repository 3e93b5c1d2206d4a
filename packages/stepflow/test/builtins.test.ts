import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blobId, createBlobStore, runFlow, type StepflowConfig } from "../src/index.js";
import { fail500, flow, fromInput, fromStep, ok, SCHEMA, step } from "./helpers.js";

const config: StepflowConfig = { plugins: { builtin: { type: "builtin" } }, routes: { "/builtin/{*component}": [{ plugin: "builtin" }] } };
const run = (f: ReturnType<typeof flow>, input: unknown = {}, extra = {}) => runFlow(f, input, { config, ...extra });
const one = (component: string, input: unknown) => flow([step("s", `/builtin/${component}`, input)], fromStep("s"));

describe("blob ids (§7.2)", () => {
  it("are the SHA-256 of compact JSON in insertion order", async () => {
    expect(await blobId({ message: "Hello, blobs!", number: 42, nested: { array: [1, 2, 3], boolean: true } })).toBe(
      "868591347a854ba1d0f4875b2dd44e1e8335052af03725a9819f89e0142318b0",
    );
  });
  it("the same value stored twice has one id; an unknown id is refused", async () => {
    const store = createBlobStore();
    expect(await store.put({ a: 1 })).toBe(await store.put({ a: 1 }));
    await expect(store.get("0".repeat(64))).rejects.toThrow(/no blob/);
  });
});

describe("/put_blob and /get_blob", () => {
  it("round-trip any value, null included", async () => {
    const f = flow([step("p", "/builtin/put_blob", { data: fromInput() }), step("g", "/builtin/get_blob", { blob_id: fromStep("p", "blob_id") })], fromStep("g", "data"));
    expect(await run(f, null)).toEqual(ok(null));
    expect(await run(f, [1, "x"])).toEqual(ok([1, "x"]));
  });
  it.each([
    ["put_blob", {}],
    ["get_blob", { blob_id: "abc" }],
    ["get_blob", { blob_id: "f".repeat(64) }],
    ["put_blob", null],
  ])("/%s with %j is an execution error", async (component, input) => {
    expect(await run(one(component, input))).toEqual(fail500('step "s" failed'));
  });
});

describe("/create_messages", () => {
  it.each([
    [{ user_prompt: "hi" }, [{ role: "user", content: "hi" }]],
    [{ user_prompt: "hi", system_instructions: null }, [{ role: "user", content: "hi" }]],
    [{ user_prompt: "hi", system_instructions: "be brief", extra: 1 }, [{ role: "system", content: "be brief" }, { role: "user", content: "hi" }]],
  ])("%j", async (input, messages) => {
    expect(await run(one("create_messages", input))).toEqual(ok({ messages }));
  });
  it.each([{}, { user_prompt: 1 }, { user_prompt: "x", system_instructions: 2 }])("%j is an execution error", async (input) => {
    expect(await run(one("create_messages", input))).toEqual(fail500('step "s" failed'));
  });
});

const nested = (steps: unknown[], output: unknown, extra: Record<string, unknown> = {}) => ({ $literal: { schema: SCHEMA, steps, output, ...extra } });

describe("/eval", () => {
  it("returns the nested result and the enclosing run's id", async () => {
    const f = one("eval", { workflow: nested([], { got: fromInput("x") }), input: { x: 1 } });
    expect(await run(f, {}, { runId: "outer" })).toEqual(ok({ result: ok({ got: 1 }), run_id: "outer" }));
  });
  it("a failed nested run does not fail the step; its messages are the runtime's", async () => {
    const f = one("eval", { workflow: nested([step("n", "/builtin/nope", {})], null), input: null });
    expect(await run(f, {}, { runId: "r" })).toEqual(ok({ result: fail500('step "n" failed'), run_id: "r" }));
  });
  it("a nested flow without schema, or without $literal, is an execution error of the step", async () => {
    expect(await run(one("eval", { workflow: { $literal: { steps: [] } }, input: 1 }))).toEqual(fail500('step "s" failed'));
    const unwrapped = flow([step("s", "/builtin/eval", { workflow: { schema: SCHEMA, steps: [step("inner", "/builtin/put_blob", { data: 1 })], output: fromStep("inner") }, input: 1 })]);
    expect(await run(unwrapped)).toEqual(fail500("error analyzing workflow"));
  });
  it("nested flows share the blob store", async () => {
    const f = flow(
      [
        step("e", "/builtin/eval", { workflow: nested([step("p", "/builtin/put_blob", { data: fromInput() })], fromStep("p", "blob_id")), input: "shared" }),
        step("g", "/builtin/get_blob", { blob_id: fromStep("e", "$.result.result") }),
      ],
      fromStep("g", "data"),
    );
    expect(await run(f)).toEqual(ok("shared"));
  });
});

describe("/map", () => {
  it("runs one nested run per item, concurrently, results in item order, with counts", async () => {
    const order: number[] = [];
    const f = one("map", {
      workflow: nested([step("w", "/ts/wait", fromInput())], fromStep("w")),
      items: fromInput(),
    });
    const result = await run(f, [40, 10, 0, -1], {
      components: {
        "/ts/wait": async (ms: number) => {
          if (ms < 0) throw new Error("negative");
          await new Promise((r) => setTimeout(r, ms));
          order.push(ms);
          return ms === 0 ? null : ms;
        },
      },
    });
    expect(result).toEqual(ok({ results: [ok(40), ok(10), ok(null), fail500('step "w" failed')], successful: 3, failed: 1, skipped: 0 }));
    expect(order).toEqual([0, 10, 40]);
  });
  it("counts skipped runs", async () => {
    const f = one("map", { workflow: nested([step("w", "/builtin/put_blob", { data: 1 }, { skipIf: fromInput() })], fromStep("w")), items: [true, false] });
    expect(await run(f)).toMatchObject(ok({ successful: 1, failed: 0, skipped: 1 }));
  });
});

describe("/iterate (§7.1)", () => {
  const counter = async ({ current, target }: { current: number; target: number }) => (current >= target ? { result: `Reached target ${target}` } : { next: { current: current + 1, target } });
  const iterate = (extra: Record<string, unknown>, component = "/ts/counter") =>
    one("iterate", { flow: nested([step("c", component, fromInput())], fromStep("c")), initial_input: fromInput(), ...extra });
  const components = {
    "/ts/counter": counter,
    "/ts/neither": async () => ({ other: 1 }),
    "/ts/null-result": async () => ({ result: null, next: 1 }),
  };

  it.each([
    [{ current: 0, target: 5 }, {}, ok({ result: "Reached target 5", iterations: 6, terminated: false })],
    [{ current: 10, target: 10 }, {}, ok({ result: "Reached target 10", iterations: 1, terminated: false })],
    [{ current: 0, target: 5 }, { max_iterations: 2 }, ok({ result: { current: 2, target: 5 }, iterations: 2, terminated: true })],
    [{ current: 0, target: 5 }, { max_iterations: 0 }, ok({ result: { current: 0, target: 5 }, iterations: 0, terminated: true })],
  ])("%j %j", async (input, extra, expected) => {
    expect(await run(iterate(extra), input, { components })).toEqual(expected);
  });

  it("checks result before next; null counts", async () => {
    expect(await run(iterate({}, "/ts/null-result"), 1, { components })).toEqual(ok({ result: null, iterations: 1, terminated: false }));
  });

  it("a result with neither field, a skipped or a failed nested run are step failures (onError applies)", async () => {
    expect(await run(iterate({}, "/ts/neither"), 1, { components })).toEqual({
      outcome: "failed",
      error: { code: 400, message: "Workflow result must contain either 'result' or 'next' field" },
    });
    const skipping = one("iterate", { flow: nested([step("c", "/ts/counter", 1, { skipIf: true })], fromStep("c")), initial_input: 1 });
    expect(await run(skipping, {}, { components })).toEqual({ outcome: "failed", error: { code: 400, message: "Workflow cannot be skipped during iteration" } });
    const failing = one("iterate", { flow: nested([], fromInput("$.missing")), initial_input: {} });
    expect(await run(failing, {}, { components })).toEqual(fail500("failed to resolve value"));
    const handled = flow([step("s", "/builtin/iterate", { flow: nested([], fromInput("$.missing")), initial_input: {} }, { onError: { action: "useDefault", defaultValue: "handled" } })], fromStep("s"));
    expect(await run(handled)).toEqual(ok("handled"));
  });
});

describe("/load_file", () => {
  const dir = mkdtempSync(join(tmpdir(), "stepflow-load-"));
  writeFileSync(join(dir, "d.json"), '{"a": [1, 2]}');
  writeFileSync(join(dir, "d.yaml"), "when: 2024-01-01T00:00:00Z\n");
  writeFileSync(join(dir, "d.txt"), "plain");
  mkdirSync(join(dir, "sub"));

  it.each([
    ["d.json", undefined, { a: [1, 2] }, "json", 13],
    ["d.yaml", undefined, { when: "2024-01-01T00:00:00Z" }, "yaml", 27],
    ["d.txt", undefined, "plain", "text", 5],
    ["d.json", "text", '{"a": [1, 2]}', "text", 13],
  ])("%s as %s", async (path, format, data, actual, size) => {
    const result = await run(one("load_file", { path, ...(format ? { format } : {}) }), {}, { workingDirectory: dir });
    expect(result).toEqual(ok({ data, metadata: { resolved_path: join(dir, path), size_bytes: size, format: actual } }));
  });

  it("joins a relative path to the working directory without canonicalising it", async () => {
    const result = await run(one("load_file", { path: "./sub/../d.txt" }), {}, { workingDirectory: dir });
    expect(result).toMatchObject(ok({ data: "plain", metadata: { resolved_path: `${dir}/./sub/../d.txt` } }));
  });

  it.each([{ path: "missing.json" }, { path: "d.txt", format: "json" }, { path: "d.txt", format: "xml" }])("%j is an execution error", async (input) => {
    expect(await run(one("load_file", input), {}, { workingDirectory: dir })).toEqual(fail500('step "s" failed'));
  });

  // Each would hang, exhaust memory or cost quadratic time with a plain readFile and YAML parse.
  it.each([
    ["a FIFO with no writer", "fifo", "a FIFO, not a regular file"],
    ["an endless device", "/dev/zero", "character device"],
    ["a file that is not UTF-8", "bad.txt", "invalid UTF-8"],
    ["YAML with a duplicate key", "dup.yaml", "duplicate key"],
  ])("refuses %s with its reason", async (_, path, reason) => {
    writeFileSync(join(dir, "bad.txt"), Buffer.from([0x61, 0xff]));
    writeFileSync(join(dir, "dup.yaml"), "a: 1\na: 2\n");
    if (!existsSync(join(dir, "fifo"))) execFileSync("mkfifo", [join(dir, "fifo")]);
    const errors: string[] = [];
    const result = await run(one("load_file", { path }), {}, { workingDirectory: dir, onExecutionError: (error: Error) => errors.push(`${error.message} ${String((error.cause as Error | undefined)?.message)}`) });
    expect(result).toEqual(fail500('step "s" failed'));
    expect(errors.join("\n")).toMatch(new RegExp(reason));
  });
});
