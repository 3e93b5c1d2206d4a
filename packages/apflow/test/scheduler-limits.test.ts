import { describe, expect, it } from "vitest";
import { checkTask, createExecutorRegistry, runTaskTree, validateInputs, type ExecutorContext, type RunResult } from "@flowspec/apflow";
import { clock, deps, task } from "./support.js";

/** `{a: {a: … {leaf: true}}}`, `depth` objects deep (built without recursion). */
function deepObject(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at = root;
  for (let i = 1; i < depth; i++) at = (at.a = {}) as Record<string, unknown>;
  at.leaf = true;
  return root;
}

/** How deep `value` goes along `.a`, and its innermost object. */
function walkDown(value: unknown): { depth: number; inner: Record<string, unknown> } {
  let depth = 1;
  let at = value as Record<string, unknown>;
  while (typeof at.a === "object" && at.a !== null) {
    at = at.a as Record<string, unknown>;
    depth++;
  }
  return { depth, inner: at };
}

/** `done`, or a rejection after `ms` (a run that never settles would otherwise hang the test). */
function within(done: Promise<RunResult>, ms = 5000): Promise<RunResult> {
  return Promise.race([done, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the run did not settle within ${ms} ms`)), ms))]);
}

const DEEP = 100_000;

describe("deep values in tasks", () => {
  it("runs a task whose inputs are 100,000 levels deep: copied, frozen in ctx.task, never overflowing", async () => {
    const inputs = deepObject(DEEP);
    let seen: { inputs: number; task: number; frozen: boolean; copy: boolean } | undefined;
    const registry = createExecutorRegistry({
      deep: (received: Record<string, unknown>, ctx: ExecutorContext) => {
        const fromTask = walkDown(ctx.task.inputs);
        seen = { inputs: walkDown(received).depth, task: fromTask.depth, frozen: Object.isFrozen(fromTask.inner), copy: received !== inputs && walkDown(received).inner !== walkDown(inputs).inner };
        return { ok: true };
      },
    });
    const handle = runTaskTree([task("root", { name: "deep", inputs })], { registry, mode: "wire", now: clock() });
    const result = await within(handle.done);
    expect(result.status).toBe("completed");
    expect(seen).toEqual({ inputs: DEEP, task: DEEP, frozen: true, copy: true });
    expect(walkDown(result.tasks.root!.inputs).depth).toBe(DEEP);
    expect(Object.isFrozen(walkDown(inputs).inner)).toBe(false); // the caller's object is untouched
  });
  it("hands a 100,000-deep result of a completed task to its dependent, in map and flat mode", async () => {
    for (const mergeDependencyResults of ["map", "flat"] as const) {
      let depths: number[] = [];
      const registry = createExecutorRegistry({
        next: (received: Record<string, unknown>, ctx: ExecutorContext) => {
          depths = [walkDown(ctx.dependencyResults.done).depth, mergeDependencyResults === "flat" ? walkDown(received).depth : 0];
          return {};
        },
      });
      const tasks = [
        task("done", { status: "completed", result: deepObject(DEEP), completed_at: "2026-01-01T00:00:00Z" }),
        task("next", { parent_id: "done", dependencies: deps("done") }),
      ];
      const result = await within(runTaskTree(tasks, { registry, mode: "wire", now: clock(), mergeDependencyResults }).done);
      expect(result.status).toBe("completed");
      // flat mode merges the result's keys into the inputs: `a` is one level down
      expect(depths).toEqual([DEEP, mergeDependencyResults === "flat" ? DEEP : 0]);
    }
  });
});

describe("inputs that the input_schema validator cannot walk", () => {
  // A recursive schema makes ajv's validator recurse once per level of the inputs.
  const recursive = { $ref: "#/definitions/node", definitions: { node: { type: "object", properties: { a: { $ref: "#/definitions/node" } } } } };

  it("validateInputs reports a clear issue instead of throwing RangeError", () => {
    const verdict = validateInputs(deepObject(DEEP), recursive);
    expect(verdict.ok).toBe(false);
    expect("issues" in verdict && verdict.issues[0]).toMatchObject({ path: "", message: expect.stringMatching(/could not be validated.*too deeply nested/) });
  });
  it("checkTask with checkInputs reports an inputs error instead of throwing", () => {
    const result = checkTask(task("t", { inputs: deepObject(DEEP), schemas: { method: "m", input_schema: recursive } }), { mode: "wire", checkInputs: true });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ code: "inputs", path: "/inputs", message: expect.stringMatching(/too deeply nested/) })]);
  });
  it("the scheduler fails that task and finishes the run (no uncaught exception)", async () => {
    let called = false;
    const registry = createExecutorRegistry({ m: () => (called = true) });
    const tasks = [task("t", { inputs: deepObject(DEEP), schemas: { method: "m", input_schema: recursive } }), task("after", { parent_id: "t", dependencies: deps("t") })];
    const result = await within(runTaskTree(tasks, { registry, mode: "wire", now: clock() }).done);
    expect(called).toBe(false);
    expect(result.status).toBe("failed");
    expect(result.tasks.t).toMatchObject({ status: "failed", error: expect.stringMatching(/^inputs do not conform to input_schema: .*too deeply nested/) });
    expect(result.tasks.after).toMatchObject({ status: "cancelled", error: "dependency t failed" });
  });
});

describe("executor outcomes that throw when the scheduler reads them", () => {
  const throwing = () => {
    throw new Error("read me not");
  };
  it.each([
    ["rejects with an Error whose message getter throws", () => Promise.reject(Object.defineProperty(new Error(), "message", { get: throwing })), "executor x failed"],
    ["throws an Error whose message getter throws", () => {
      throw Object.defineProperty(new Error(), "message", { get: throwing });
    }, "executor x failed"],
    ["returns an object whose then getter throws", () => Object.defineProperty({}, "then", { get: throwing }), "read me not"],
    ["returns a proxy whose traps throw (but not for then)", () => new Proxy({}, { getPrototypeOf: throwing, ownKeys: throwing, get: (_t, key) => (key === "then" ? undefined : throwing()) }), /^result is not JSON-serializable: read me not$/],
  ])("an executor that %s fails its task and the run ends", async (_name, execute, error) => {
    const registry = createExecutorRegistry({ x: execute as () => unknown, y: () => ({}) });
    const tasks = [task("a", { name: "x" }), task("b", { name: "y", parent_id: "a", dependencies: deps("a") }), task("c", { name: "y", parent_id: "a" })];
    const result = await within(runTaskTree(tasks, { registry, mode: "wire", now: clock() }).done);
    expect(result.tasks.a).toMatchObject({ status: "failed", error });
    expect(result.tasks.b!.status).toBe("cancelled");
    expect(result.tasks.c!.status).toBe("completed");
  });
});

describe("cloneJson", () => {
  it("copies values of any depth, around the switch from recursion to a stack too, without sharing", async () => {
    const { cloneJson } = await import("../src/scheduler/values.js");
    for (const depth of [1, 199, 200, 201, 202, 450, DEEP]) {
      const value = { list: [deepObject(depth), 1, "x", null, [true]], other: { n: 2 } };
      const copy = cloneJson(value);
      // Plain comparisons: vitest's matchers walk a 100,000-deep value recursively.
      expect(copy === value).toBe(false);
      expect(walkDown(copy.list[0]).depth).toBe(depth);
      expect(walkDown(copy.list[0]).inner).toEqual({ leaf: true });
      expect(walkDown(copy.list[0]).inner === walkDown(value.list[0]).inner).toBe(false);
      expect(copy.list.slice(1)).toEqual([1, "x", null, [true]]);
      expect(copy.other).toEqual({ n: 2 });
    }
  });

  it("copies a __proto__ key as a key, shallow and deep, leaving the copy's prototype alone", async () => {
    const { cloneJson } = await import("../src/scheduler/values.js");
    const inner = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<string, unknown>;
    const deep = deepObject(300);
    walkDown(deep).inner.payload = inner;
    for (const value of [inner, deep]) {
      const copy = cloneJson(value) as Record<string, unknown>;
      const target = value === inner ? copy : (walkDown(copy).inner.payload as Record<string, unknown>);
      expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
      expect(Object.hasOwn(target, "__proto__")).toBe(true);
      expect((target as { polluted?: boolean }).polluted).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(target, "__proto__")?.value).toEqual({ polluted: true });
    }
  });

  it("copies own properties only, as JSON.stringify reads them, shallow and deep", async () => {
    const { cloneJson } = await import("../src/scheduler/values.js");
    const withInherited = Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { own: { n: 1 } });
    const deep = deepObject(300);
    walkDown(deep).inner.payload = withInherited;
    for (const value of [withInherited, { wrap: withInherited }, deep]) {
      const copy = cloneJson(value) as Record<string, unknown>;
      const target = (value === deep ? walkDown(copy).inner.payload : value === withInherited ? copy : copy.wrap) as Record<string, unknown>;
      expect(Object.keys(target)).toEqual(["own"]);
      expect("inherited" in target).toBe(false);
      expect(target.own).toEqual({ n: 1 });
      expect(target.own === withInherited.own).toBe(false);
    }
  });
});
