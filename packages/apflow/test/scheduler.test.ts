import { describe, expect, it } from "vitest";
import {
  aggregateResultsExecutor,
  createExecutorRegistry,
  registerBuiltinExecutors,
  runTaskTree,
  TaskTreeRunError,
  type ExecutorContext,
  type RunOptions,
  type StatusChangeEvent,
  type Task,
  type TaskTreeNode,
} from "@flowspec/apflow";
import { clock, deferred, deps, flush, task } from "./support.js";

/** Runs a list in wire mode with a recording no-op executor for every method in `ids`. */
function recorder(overrides: Record<string, (inputs: Record<string, unknown>, ctx: ExecutorContext) => unknown> = {}) {
  const started: string[] = [];
  const registry = createExecutorRegistry();
  const exec = (inputs: Record<string, unknown>, ctx: ExecutorContext) => {
    started.push(ctx.taskId);
    const override = overrides[ctx.task.name];
    return override ? override(inputs, ctx) : { ran: ctx.taskId };
  };
  return { started, registry, exec };
}

function run(tasks: Task[] | TaskTreeNode, options: Partial<RunOptions> & { exec?: (i: Record<string, unknown>, c: ExecutorContext) => unknown } = {}) {
  const registry = options.registry ?? createExecutorRegistry();
  if (options.exec) {
    const names = Array.isArray(tasks) ? tasks.map((t) => t.name) : [];
    for (const name of new Set(names)) if (!registry.has(name)) registry.register(name, options.exec);
  }
  return runTaskTree(tasks, { mode: "wire", now: clock(), ...options, registry });
}

describe("ordering (rules b, e; notes §4.9)", () => {
  it("Ex. 2 sequential: 1 then 2", async () => {
    const r = recorder();
    const result = await run([task("root"), task("1", { parent_id: "root" }), task("2", { parent_id: "root", dependencies: deps("1") })], { exec: r.exec }).done;
    expect(r.started.filter((id) => id !== "root")).toEqual(["1", "2"]);
    expect(result.status).toBe("completed");
  });
  it("Ex. 3 parallel: the root and its three children all start in the first step", async () => {
    const gate = deferred();
    const r = recorder({ root: () => gate.promise, a: () => gate.promise, b: () => gate.promise, c: () => gate.promise });
    const handle = run([task("root"), task("a", { parent_id: "root" }), task("b", { parent_id: "root" }), task("c", { parent_id: "root" })], { exec: r.exec });
    await flush();
    expect(r.started).toEqual(["root", "a", "b", "c"]);
    gate.resolve({});
    expect((await handle.done).status).toBe("completed");
  });
  it("Ex. 4 complex: A; then B and C; D after B; E after C and D", async () => {
    const r = recorder();
    const list = [
      task("root"),
      task("A", { parent_id: "root" }),
      task("B", { parent_id: "root", dependencies: deps("A") }),
      task("C", { parent_id: "root", dependencies: deps("A") }),
      task("D", { parent_id: "root", dependencies: deps("B") }),
      task("E", { parent_id: "root", priority: 3, dependencies: deps("C", "D") }),
    ];
    await run(list, { exec: r.exec }).done;
    const order = r.started.filter((id) => id !== "root");
    const at = (id: string) => order.indexOf(id);
    expect(order[0]).toBe("A");
    expect(at("B")).toBeLessThan(at("D"));
    expect(at("C")).toBeLessThan(at("E"));
    expect(at("D")).toBeLessThan(at("E"));
    expect(order.slice(1, 3).sort()).toEqual(["B", "C"]);
  });
  it("Ex. 7 priority: urgent, normal, low with concurrency 1 and unbounded", async () => {
    for (const concurrency of [1, Infinity]) {
      const r = recorder();
      const list = [task("root", { priority: 3 }), task("low", { parent_id: "root", priority: 3 }), task("normal", { parent_id: "root" }), task("urgent", { parent_id: "root", priority: 0 })];
      await run(list, { exec: r.exec, concurrency }).done;
      expect(r.started.filter((id) => id !== "root")).toEqual(["urgent", "normal", "low"]);
    }
  });
  it("breaks priority ties by input order (tree pre-order)", async () => {
    const r = recorder();
    const tree: TaskTreeNode = {
      task: task("r"),
      children: [
        { task: task("x", { parent_id: "r" }), children: [{ task: task("x1", { parent_id: "x" }), children: [] }] },
        { task: task("y", { parent_id: "r" }), children: [] },
      ],
    };
    const registry = createExecutorRegistry();
    for (const id of ["r", "x", "x1", "y"]) registry.register(id, r.exec);
    await runTaskTree(tree, { mode: "wire", registry, concurrency: 1 }).done;
    expect(r.started).toEqual(["r", "x", "x1", "y"]);
  });
  it("a priority-0 task still waits for its dependency (dependencies before priority)", async () => {
    const r = recorder();
    await run([task("root", { priority: 3 }), task("dep", { parent_id: "root", priority: 3 }), task("hot", { parent_id: "root", priority: 0, dependencies: deps("dep") })], { exec: r.exec, concurrency: 1 }).done;
    expect(r.started.indexOf("dep")).toBeLessThan(r.started.indexOf("hot"));
  });
  it("parent_id never affects order: a root that depends on its child runs after it", async () => {
    const r = recorder();
    await run([task("root", { dependencies: deps("child") }), task("child", { parent_id: "root" })], { exec: r.exec }).done;
    expect(r.started).toEqual(["child", "root"]);
  });
});

describe("executors that return at once", () => {
  it("settle in the order their promises would: the same status changes as executors that return promises", async () => {
    // 40 tasks, each depending on up to two earlier ones (some optional); every seventh throws, and
    // its required dependents are cancelled.
    const tasks = [task("t0")];
    for (let i = 1; i < 40; i++) {
      const earlier = [...new Set([(i * 7 + 3) % i, (i * 13 + 5) % i])].map((j) => `${j % 4 === 1 ? "?" : ""}t${j}`);
      tasks.push(task(`t${i}`, { parent_id: "t0", priority: i % 3, dependencies: deps(...(i % 5 === 0 ? [] : earlier)) }));
    }
    const changes = async (settle: (throws: boolean, id: string) => unknown) => {
      const seen: string[] = [];
      const exec = (_inputs: Record<string, unknown>, ctx: ExecutorContext) => settle(Number(ctx.taskId.slice(1)) % 7 === 3, ctx.taskId);
      const result = await run(tasks, { exec, onStatusChange: (e) => seen.push(`${e.taskId} ${e.to}`) }).done;
      return { seen, status: result.status };
    };
    const atOnce = await changes((throws, id) => {
      if (throws) throw new Error(`${id} failed`);
      return { id };
    });
    const promised = await changes((throws, id) => (throws ? Promise.reject(new Error(`${id} failed`)) : Promise.resolve({ id })));
    expect(atOnce.seen.filter((c) => c.endsWith("failed")).length).toBeGreaterThan(1);
    expect(atOnce.seen.filter((c) => c.endsWith("cancelled")).length).toBeGreaterThan(3);
    expect(atOnce).toEqual(promised);
  });
});

describe("dependencies (rules c, d)", () => {
  it("Ex. 5 error: dependents of a failed task are cancelled, cascading", async () => {
    const r = recorder({ "task-1": () => { throw new Error("boom"); } });
    const result = await run(
      [task("root"), task("task-1", { parent_id: "root" }), task("task-2", { parent_id: "root", dependencies: deps("task-1") }), task("task-3", { parent_id: "root", dependencies: deps("task-2") })],
      { exec: r.exec },
    ).done;
    expect(result.status).toBe("failed");
    expect(result.tasks["task-1"]).toMatchObject({ status: "failed", error: "boom", result: null });
    expect(result.tasks["task-2"]).toMatchObject({ status: "cancelled", error: "dependency task-1 failed", started_at: null });
    expect(result.tasks["task-3"]).toMatchObject({ status: "cancelled", error: "dependency task-2 failed" });
    expect(r.started).not.toContain("task-2");
    expect(result.tasks["task-2"]!.completed_at).not.toBeNull();
  });
  it("Ex. 6 optional: the aggregate waits until primary and fallback are terminal, then runs", async () => {
    const primary = deferred();
    const fallback = deferred();
    const r = recorder({ primary: () => primary.promise, fallback: () => fallback.promise });
    const handle = run(
      [task("root"), task("primary", { parent_id: "root" }), task("fallback", { parent_id: "root" }), task("aggregate", { parent_id: "root", dependencies: deps("?primary", "?fallback") })],
      { exec: r.exec },
    );
    await flush();
    primary.reject(new Error("primary down"));
    await flush();
    expect(r.started).not.toContain("aggregate");
    fallback.resolve({ source: "fallback" });
    const result = await handle.done;
    expect(r.started.at(-1)).toBe("aggregate");
    expect(result.tasks.aggregate!.status).toBe("completed");
    expect(result.status).toBe("failed");
  });
  it("uses the first broken required dependency in listed order in the message", async () => {
    const result = await run(
      [task("root"), task("a", { parent_id: "root", status: "cancelled", error: "x", completed_at: "2026-01-01T00:00:00Z" }), task("b", { parent_id: "root", status: "failed", error: "y", started_at: "2026-01-01T00:00:00Z", completed_at: "2026-01-01T00:00:00Z" }), task("c", { parent_id: "root", dependencies: deps("b", "a") })],
      { exec: () => ({}) },
    ).done;
    expect(result.tasks.c).toMatchObject({ status: "cancelled", error: "dependency b failed" });
  });
  it("counts completed input tasks as satisfied and hands their results on", async () => {
    let seen: unknown;
    const result = await run(
      [task("root"), task("a", { parent_id: "root", status: "completed", result: { n: 1 }, progress: 1, started_at: "2026-01-01T00:00:00Z", completed_at: "2026-01-01T00:00:01Z" }), task("b", { parent_id: "root", dependencies: deps("a") })],
      { exec: (_i, ctx) => { if (ctx.taskId === "b") seen = ctx.dependencyResults; return {}; } },
    ).done;
    expect(seen).toEqual({ a: { n: 1 } });
    expect(result.status).toBe("completed");
  });
  it("dependency results read late (after other tasks settled) are those of the start: completed ones only, in listed order", async () => {
    const gate = deferred();
    let late: Promise<unknown> | undefined;
    const result = await run(
      [task("root"), task("a", { parent_id: "root" }), task("b", { parent_id: "root" }), task("c", { parent_id: "root", dependencies: deps("?b", "a") }), task("d", { parent_id: "root" })],
      {
        exec: (_i, ctx) => {
          if (ctx.taskId === "b") throw new Error("b broke");
          if (ctx.taskId === "c") late = gate.promise.then(() => ctx.dependencyResults);
          if (ctx.taskId === "d") gate.resolve(undefined);
          return ctx.taskId === "c" ? late : { from: ctx.taskId };
        },
      },
    ).done;
    expect(Object.keys((await late) as object)).toEqual(["a"]);
    expect(await late).toEqual({ a: { from: "a" } });
    expect(result.tasks.b!.status).toBe("failed");
    expect(result.tasks.c!.status).toBe("completed");
  });
  it("passes dependency results in map mode and merges them in flat mode (notes §4.4 example)", async () => {
    const list = [
      task("root"),
      task("A", { parent_id: "root" }),
      task("B", { parent_id: "root" }),
      task("C", { parent_id: "root" }),
      task("T", { parent_id: "root", inputs: { mode: "fast", url: "a" }, dependencies: deps("A", "B", "C") }),
    ];
    const results: Record<string, unknown> = { A: { url: "b", n: 1 }, B: { result: { n: 2 } }, C: { result: [1, 2] } };
    for (const merge of ["map", "flat"] as const) {
      let got: { inputs: unknown; deps: unknown } | undefined;
      const out = await run(list, {
        mergeDependencyResults: merge,
        exec: (inputs, ctx) => {
          if (ctx.taskId === "T") {
            got = { inputs: structuredClone(inputs), deps: ctx.dependencyResults };
            inputs.mutated = true;
          }
          return results[ctx.taskId] ?? {};
        },
      }).done;
      expect(got!.deps).toEqual(results);
      expect(got!.inputs).toEqual(merge === "map" ? { mode: "fast", url: "a" } : { mode: "fast", url: "b", n: 2, C: [1, 2] });
      expect(out.tasks.T!.inputs).toEqual({ mode: "fast", url: "a" });
    }
  });
});

describe("outcomes (rule g) and the executor registry (§5)", () => {
  it.each([
    ["a plain object", { a: 1 }, { a: 1 }],
    ["a string", "hi", { value: "hi" }],
    ["an array", [1, 2], { value: [1, 2] }],
    ["null", null, { value: null }],
    ["undefined", undefined, {}],
    ["a Date", new Date(0), { value: "1970-01-01T00:00:00.000Z" }],
  ])("stores %s", async (_name, value, stored) => {
    const result = await run([task("t")], { exec: () => value }).done;
    expect(result.tasks.t).toMatchObject({ status: "completed", result: stored, progress: 1, error: null });
  });
  it("fails a task whose result cannot be serialised", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = await run([task("t")], { exec: () => cyclic }).done;
    expect(result.tasks.t!.status).toBe("failed");
    expect(result.tasks.t!.error).toMatch(/^result is not JSON-serializable: /);
    const big = await run([task("t")], { exec: () => ({ n: 1n }) }).done;
    expect(big.tasks.t!.error).toMatch(/^result is not JSON-serializable: .*BigInt/);
  });
  it.each([
    ["an Error", () => { throw new Error("bad"); }, "bad"],
    ["a rejected promise", () => Promise.reject(new Error("later")), "later"],
    ["a string", () => { throw "plain"; }, "plain"],
    ["undefined", () => { throw undefined; }, "executor t failed"],
    ["an empty Error", () => { throw new Error(""); }, "Error"],
  ])("fails on %s with the right message", async (_name, exec, message) => {
    const result = await run([task("t", { progress: 0 })], { exec }).done;
    expect(result.tasks.t).toMatchObject({ status: "failed", error: message, result: null });
  });
  it("keeps the last reported progress on failure (reportProgress and signal survive destructuring)", async () => {
    const result = await run([task("t")], { exec: (_i, { reportProgress, signal }) => { reportProgress(0.3); if (!signal.aborted) throw new Error("x"); } }).done;
    expect(result.tasks.t!.progress).toBe(0.3);
  });
  it("an unknown executor fails the task in one step and cancels its dependents", async () => {
    const events: StatusChangeEvent[] = [];
    const result = await runTaskTree([task("r", { schemas: { method: "nope" } }), task("c", { parent_id: "r", dependencies: deps("r") })], {
      mode: "wire",
      registry: createExecutorRegistry(),
      now: clock(),
      onStatusChange: (e) => events.push(e),
    }).done;
    expect(result.tasks.r).toMatchObject({ status: "failed", error: "Executor 'nope' not found in registry" });
    expect(result.tasks.r!.started_at).toBe(result.tasks.r!.completed_at);
    expect(events.map((e) => `${e.taskId}:${e.from}>${e.to}`)).toEqual(["r:pending>in_progress", "r:in_progress>failed", "c:pending>cancelled"]);
  });
  it("resolves executors by schemas.method, else by name", async () => {
    const registry = createExecutorRegistry({ by_method: () => ({ via: "method" }), named: () => ({ via: "name" }) });
    const result = await runTaskTree([task("r", { name: "named" }), task("c", { parent_id: "r", name: "other", schemas: { method: "by_method" } })], { mode: "wire", registry }).done;
    expect(result.tasks.r!.result).toEqual({ via: "name" });
    expect(result.tasks.c!.result).toEqual({ via: "method" });
  });
  it("validates inputs against schemas.input_schema and the executor's inputSchema before executing", async () => {
    let calls = 0;
    const registry = createExecutorRegistry({
      strict: { inputSchema: { type: "object", required: ["n"], properties: { n: { type: "number" } } }, execute: () => ++calls },
    });
    const result = await runTaskTree(
      [
        task("r", { name: "strict", inputs: { n: 1 } }),
        task("a", { parent_id: "r", name: "strict", inputs: { n: "x" } }),
        task("b", { parent_id: "r", name: "strict", inputs: { n: 2 }, schemas: { method: "strict", input_schema: { type: "object", properties: { n: { maximum: 1 } } } } }),
      ],
      { mode: "wire", registry },
    ).done;
    expect(calls).toBe(1);
    expect(result.tasks.a!.error).toBe("inputs do not conform to input_schema: /n must be a number");
    expect(result.tasks.b!.error).toBe("inputs do not conform to input_schema: /n must be <= 1");
  });
  it("validates the merged inputs in flat mode", async () => {
    const registry = createExecutorRegistry({ src: () => ({ n: 5 }), sink: () => ({}) });
    const result = await runTaskTree(
      [task("r", { name: "src" }), task("s", { parent_id: "r", name: "sink", dependencies: deps("r"), schemas: { method: "sink", input_schema: { type: "object", required: ["n"] } } })],
      { mode: "wire", registry, mergeDependencyResults: "flat" },
    ).done;
    expect(result.tasks.s!.status).toBe("completed");
  });
  it("registry: unique non-empty ids, override, unregister", () => {
    const registry = createExecutorRegistry({ a: () => 1 });
    expect(() => registry.register("a", () => 2)).toThrow(/already registered/);
    registry.register("a", () => 2, { override: true });
    expect(() => registry.register("", () => 1)).toThrow(/non-empty/);
    expect(() => registry.register("x", {} as never)).toThrow(/execute/);
    expect(registry.ids()).toEqual(["a"]);
    expect(registry.unregister("a")).toBe(true);
    expect(registry.has("a")).toBe(false);
  });
});

describe("cancellation (rule h)", () => {
  it("cancels a pending task at once, and its required dependents follow", async () => {
    const gate = deferred();
    const r = recorder({ r: () => gate.promise });
    const handle = run([task("r"), task("a", { parent_id: "r", dependencies: deps("r") }), task("b", { parent_id: "r", dependencies: deps("a") }), task("o", { parent_id: "r", dependencies: deps("?a") })], { exec: r.exec });
    expect(handle.cancel("a", "not needed")).toBe(true);
    gate.resolve({});
    const result = await handle.done;
    expect(result.tasks.a).toMatchObject({ status: "cancelled", error: "not needed", started_at: null });
    expect(result.tasks.b).toMatchObject({ status: "cancelled", error: "dependency a failed" });
    expect(result.tasks.o!.status).toBe("completed");
    expect(result.status).toBe("cancelled");
  });
  it("cancels a running task through its signal and cancel(); it ends cancelled whatever it returns", async () => {
    let cancelCalls = 0;
    let signalReason: unknown;
    const registry = createExecutorRegistry({
      slow: {
        cancel: () => {
          cancelCalls++;
          throw new Error("ignored");
        },
        execute: (_i, ctx) =>
          new Promise((resolve) => {
            ctx.reportProgress(0.5);
            ctx.signal.addEventListener("abort", () => {
              signalReason = ctx.signal.reason;
              resolve({ partial: true });
            });
          }),
      },
    });
    const handle = runTaskTree([task("t", { name: "slow" })], { mode: "wire", registry });
    await flush();
    expect(handle.cancel("t", "stop")).toBe(true);
    expect(handle.cancel("t", "again")).toBe(true);
    const result = await handle.done;
    expect(cancelCalls).toBe(1);
    expect(signalReason).toBe("stop");
    expect(result.tasks.t).toMatchObject({ status: "cancelled", error: "stop", result: null, progress: 0.5 });
    expect(handle.cancel("t")).toBe(false);
    expect(() => handle.cancel("nope")).toThrow(/unknown task id/);
  });
  it("cancelAll cancels running and pending tasks; an AbortSignal does the same", async () => {
    for (const how of ["cancelAll", "signal"] as const) {
      const controller = new AbortController();
      const registry = createExecutorRegistry({ wait: (_i, ctx) => new Promise((_res, rej) => ctx.signal.addEventListener("abort", () => rej(new Error("aborted")))) });
      const handle = runTaskTree([task("r", { name: "wait" }), task("c", { parent_id: "r", name: "wait", dependencies: deps("r") }), task("d", { parent_id: "r", name: "wait", dependencies: deps("?c") })], {
        mode: "wire",
        registry,
        signal: controller.signal,
      });
      await flush();
      if (how === "cancelAll") handle.cancelAll("shutdown");
      else controller.abort("shutdown");
      const result = await handle.done;
      expect(result.tasks.r).toMatchObject({ status: "cancelled", error: "shutdown" });
      // r is still running when cancelAll reaches c, so c is cancelled directly, with the reason.
      expect(result.tasks.c).toMatchObject({ status: "cancelled", error: "shutdown", started_at: null });
      expect(result.tasks.d).toMatchObject({ status: "cancelled", error: "shutdown", started_at: null });
    }
  });
  it("an AbortSignal that is already aborted cancels everything before it starts", async () => {
    const r = recorder();
    const result = await run([task("r"), task("c", { parent_id: "r" })], { exec: r.exec, signal: AbortSignal.abort("too late") }).done;
    expect(r.started).toEqual([]);
    expect(Object.values(result.tasks).map((t) => [t.status, t.error])).toEqual([
      ["cancelled", "too late"],
      ["cancelled", "too late"],
    ]);
  });
  it("lets the caller cancel before anything starts", async () => {
    const r = recorder();
    const handle = run([task("r")], { exec: r.exec });
    handle.cancelAll();
    expect((await handle.done).tasks.r).toMatchObject({ status: "cancelled", error: "Cancelled by user" });
    expect(r.started).toEqual([]);
  });
});

describe("concurrency and progress (rule i)", () => {
  it("never runs more than `concurrency` tasks at once", async () => {
    let running = 0;
    let peak = 0;
    const list = [task("r"), ...Array.from({ length: 12 }, (_, i) => task(`t${i}`, { parent_id: "r", name: "w" }))];
    const registry = createExecutorRegistry({
      r: () => ({}),
      w: async () => {
        running++;
        peak = Math.max(peak, running);
        await flush();
        running--;
        return {};
      },
    });
    const result = await runTaskTree(list, { mode: "wire", registry, concurrency: 3 }).done;
    expect(result.status).toBe("completed");
    expect(peak).toBe(3);
  });
  it("rejects a concurrency below 1", () => {
    expect(() => runTaskTree([task("r")], { mode: "wire", registry: createExecutorRegistry(), concurrency: 0 })).toThrow(RangeError);
  });
  it("clamps progress, ignores non-finite values and anything after the task ends", async () => {
    const seen: [string, number][] = [];
    let late: ((p: number) => void) | undefined;
    const result = await run([task("t")], {
      onProgress: (id, p) => seen.push([id, p]),
      exec: (_i, ctx) => {
        ctx.reportProgress(1.5);
        ctx.reportProgress(-2);
        ctx.reportProgress(Number.NaN);
        ctx.reportProgress(Infinity);
        ctx.reportProgress(0.25);
        late = ctx.reportProgress;
        return {};
      },
    }).done;
    late!(0.1);
    expect(seen).toEqual([["t", 1], ["t", 0], ["t", 0.25]]);
    expect(result.tasks.t!.progress).toBe(1);
  });
});

describe("input handling and results", () => {
  it("rejects an invalid tree before anything starts", async () => {
    const r = recorder();
    await expect(run([task("a"), task("b")], { exec: r.exec }).done).rejects.toThrow(TaskTreeRunError);
    await expect(runTaskTree([task("a")], { registry: createExecutorRegistry() }).done).rejects.toMatchObject({ issues: [expect.objectContaining({ code: "uuid" })] });
    await expect(run([task("a", { status: "in_progress", started_at: "2026-01-01T00:00:00Z" })]).done).rejects.toThrow(/in_progress/);
    expect(r.started).toEqual([]);
  });
  it("names the first in_progress task (found by the check's pass), in a list and in a tree, before reading the clock or the concurrency", async () => {
    const at = "2026-01-01T00:00:00Z";
    const list = [task("r"), task("a", { parent_id: "r" }), task("b", { parent_id: "r", status: "in_progress", started_at: at }), task("c", { parent_id: "r", status: "in_progress", started_at: at })];
    const now = () => {
      throw new Error("the clock was read");
    };
    await expect(run(list, { now, concurrency: 0 }).done).rejects.toThrow(/^task b is in_progress;/);
    const tree: TaskTreeNode = { task: list[0]!, children: list.slice(1).map((t) => ({ task: t, children: [] })) };
    await expect(run(tree, { now, concurrency: 0 }).done).rejects.toThrow(/^task b is in_progress;/);
    // An invalid tree is refused for its issues first, whatever its statuses.
    await expect(run([...list, task("r")], { now }).done).rejects.toThrow(/the task tree is invalid/);
  });
  it("never mutates the caller's objects and fills every field of the result", async () => {
    const list = [task("r", { inputs: { x: [1] } }), task("c", { parent_id: "r", dependencies: deps("r") })];
    const before = structuredClone(list);
    const result = await run(list, { exec: (inputs) => { (inputs.x as number[] | undefined)?.push(2); return {}; } }).done;
    expect(list).toEqual(before);
    expect(Object.keys(result.tasks.r!).sort()).toEqual(
      ["id", "parent_id", "user_id", "name", "status", "priority", "inputs", "schemas", "params", "result", "error", "dependencies", "progress", "created_at", "started_at", "updated_at", "completed_at"].sort(),
    );
    expect(result.tree).toMatchObject({ task: { id: "r" }, children: [{ task: { id: "c" }, children: [] }] });
  });
  it("gives executors a frozen task and writes the injected clock", async () => {
    let frozen = false;
    const result = await run([task("t")], { exec: (_i, ctx) => { frozen = Object.isFrozen(ctx.task) && Object.isFrozen(ctx.task.inputs); return {}; } }).done;
    expect(frozen).toBe(true);
    expect(result.tasks.t).toMatchObject({ started_at: "2026-01-01T00:00:01.000Z", completed_at: "2026-01-01T00:00:02.000Z" });
  });
  it("a throwing onStatusChange rejects done after the run", async () => {
    const handle = run([task("t")], { exec: () => ({}), onStatusChange: () => { throw new Error("listener"); } });
    await expect(handle.done).rejects.toThrow("listener");
  });
});

describe("built-in executors", () => {
  it("aggregate_results_executor collects completed dependencies in listed order", async () => {
    const registry = registerBuiltinExecutors(createExecutorRegistry({ ok: () => ({ v: 1 }), bad: () => { throw new Error("x"); } }));
    const result = await runTaskTree(
      [task("r", { name: "ok" }), task("b", { parent_id: "r", name: "bad" }), task("agg", { parent_id: "r", schemas: { method: "aggregate_results_executor" }, dependencies: deps("?b", "r") })],
      { mode: "wire", registry },
    ).done;
    expect(result.tasks.agg!.result).toEqual({ summary: "Aggregated 1 task result. from: r", timestamp: expect.any(String), results: { r: { v: 1 } }, result_count: 1 });
    expect(Date.parse((result.tasks.agg!.result as { timestamp: string }).timestamp)).not.toBeNaN();
    expect(aggregateResultsExecutor.description).toBeTruthy();
  });

  it.each([
    [[], "No task results to aggregate"],
    [["a", "b", "c"], "Aggregated 3 task results. from: a, b, c"],
    [["a", "b", "c", "d"], "Aggregated 4 task results"],
  ])("aggregate_results_executor's summary over %j is v1's", async (ids, summary) => {
    const registry = registerBuiltinExecutors(createExecutorRegistry({ leaf: () => ({}) }));
    const tasks = [task("agg", { schemas: { method: "aggregate_results_executor" }, dependencies: deps(...ids) }), ...ids.map((id) => task(id, { parent_id: "agg", name: "leaf" }))];
    const result = await runTaskTree(tasks, { mode: "wire", registry }).done;
    expect(result.tasks.agg!.result).toMatchObject({ summary, result_count: ids.length });
  });
});

describe("executor resolution (notes §5, revised 2026-11-27): schemas.method, then params.executor_id, then name", () => {
  it.each([
    [{ schemas: { method: "by_method" }, params: { executor_id: "by_id" }, name: "by_name" }, "by_method"],
    [{ schemas: { method: "" }, params: { executor_id: "by_id" }, name: "by_name" }, "by_id"],
    [{ schemas: { type: "stdio" }, params: { executor_id: "by_id" }, name: "by_name" }, "by_id"],
    [{ params: { executor_id: "" }, name: "by_name" }, "by_name"],
    [{ params: { executor_id: 7 }, name: "by_name" }, "by_name"],
  ])("%j runs %s", async (fields, expected) => {
    const registry = createExecutorRegistry({ by_method: () => ({ by: "method" }), by_id: () => ({ by: "id" }), by_name: () => ({ by: "name" }) });
    const result = await runTaskTree([task("t", fields as Partial<Task>)], { mode: "wire", registry }).done;
    expect(result.tasks.t!.result).toEqual({ by: expected.slice(3) });
  });

  // v1's tests/integration/test_aggregate_results_integration.py, as a v1 server receives the tree.
  const aggregateTree = (): Task[] => [
    {
      id: "aggregate-system-info",
      user_id: "test-user",
      name: "Aggregate System Information",
      status: "pending",
      priority: 3,
      has_children: true,
      dependencies: [{ id: "cpu-info", required: true }, { id: "memory-info", required: true }, { id: "disk-info", required: true }],
      params: { executor_id: "aggregate_results_executor" },
      inputs: {},
    } as Task,
    ...["cpu", "memory", "disk"].map(
      (resource) =>
        ({
          id: `${resource}-info`,
          parent_id: "aggregate-system-info",
          user_id: "test-user",
          name: `Get ${resource} Information`,
          status: "pending",
          priority: 1,
          has_children: false,
          dependencies: [],
          schemas: { method: "system_info_executor" },
          inputs: { resource },
        }) as Task,
    ),
  ];

  it("runs v1's aggregate integration tree: the root's executor comes from params.executor_id", async () => {
    const registry = registerBuiltinExecutors(createExecutorRegistry({ system_info_executor: (inputs) => ({ system: "test", resource: inputs.resource }) }));
    const result = await runTaskTree(aggregateTree(), { mode: "wire", registry }).done;
    expect(result.status).toBe("completed");
    expect(result.tasks["aggregate-system-info"]!.result).toMatchObject({
      summary: "Aggregated 3 task results. from: cpu-info, memory-info, disk-info",
      result_count: 3,
      results: { "cpu-info": { resource: "cpu" }, "memory-info": { resource: "memory" }, "disk-info": { resource: "disk" } },
    });
  });

  it("without system_info_executor, the children fail for that reason and the aggregate is cancelled naming the first", async () => {
    const result = await runTaskTree(aggregateTree(), { mode: "wire", registry: registerBuiltinExecutors(createExecutorRegistry()) }).done;
    expect(result.tasks["cpu-info"]).toMatchObject({ status: "failed", error: "Executor 'system_info_executor' not found in registry" });
    expect(result.tasks["aggregate-system-info"]).toMatchObject({ status: "cancelled", error: "dependency cpu-info failed" });
  });
});

describe("found in review", () => {
  it("an executor rejecting with a value String() cannot convert still fails its task and ends the run", async () => {
    const outcome = await Promise.race([
      run([task("t")], { exec: () => Promise.reject(Object.create(null)) }).done,
      new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 1000)),
    ]);
    expect(outcome).not.toBe("hung");
    expect((outcome as Exclude<typeof outcome, "hung">).tasks.t).toMatchObject({ status: "failed", error: "executor t failed" });
  });
  it("an input_schema with $id validates every task that carries it, in every run", async () => {
    const schema = { $id: "https://example.test/inputs.json", type: "object", required: ["n"] };
    const list = () => [
      task("r"),
      task("a", { parent_id: "r", inputs: { n: 1 }, schemas: { method: "x", input_schema: schema } }),
      task("b", { parent_id: "r", inputs: {}, schemas: { method: "x", input_schema: schema } }),
    ];
    const registry = createExecutorRegistry({ x: () => ({}), r: () => ({}) });
    for (let round = 0; round < 2; round++) {
      const result = await runTaskTree(list(), { mode: "wire", registry }).done;
      expect(result.tasks.a).toMatchObject({ status: "completed" });
      expect(result.tasks.b).toMatchObject({ status: "failed", error: 'inputs do not conform to input_schema: /n missing required property "n"' });
    }
  });
  it("an empty cancel reason still leaves a non-empty error (empty-error is a MUST)", async () => {
    const gate = deferred();
    const handle = run([task("r"), task("p", { parent_id: "r", dependencies: deps("r") })], { exec: () => gate.promise });
    await flush();
    handle.cancel("p", "");
    handle.cancelAll("");
    gate.resolve({});
    const result = await handle.done;
    expect(result.tasks.p!.error).toBe("Cancelled by user");
    expect(result.tasks.r!.error).toBe("Cancelled by user");
  });
});

describe("found in review: __proto__ keys and ctx.task", () => {
  it("keeps an extra task field named __proto__ as an own field, never as the copy's prototype (§2.5)", async () => {
    const root = JSON.parse('{"id":"r","name":"r","status":"pending","__proto__":{"x":1}}') as Task;
    const result = await run([root], { exec: () => ({}) }).done;
    const final = result.tasks.r as Record<string, unknown>;
    expect(Object.getPrototypeOf(final)).toBe(Object.prototype);
    expect(final.x).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(final, "__proto__")).toBe(true);
    expect(JSON.stringify(final)).toContain('"__proto__":{"x":1}');
  });
  it('flat merge copies a dependency result\'s own "__proto__" key onto inputs as a key, not as their prototype (§4.4)', async () => {
    let seen: Record<string, unknown> | undefined;
    const handle = run([task("r"), task("d", { parent_id: "r", dependencies: deps("r") })], {
      mergeDependencyResults: "flat",
      exec: (inputs, ctx) => {
        if (ctx.taskId === "r") return JSON.parse('{"__proto__":{"isAdmin":true},"n":1}');
        seen = inputs;
        return {};
      },
    });
    await handle.done;
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(seen!.isAdmin).toBeUndefined();
    expect(Object.keys(seen!).sort()).toEqual(["__proto__", "n"]);
  });
  it("ctx.task is the task as it was when the executor started, even when first read after progress or settling", async () => {
    const gate = deferred();
    let late: Readonly<Task> | undefined;
    let ctxOf: ExecutorContext | undefined;
    const handle = run([task("r")], {
      exec: async (_inputs, ctx) => {
        ctxOf = ctx;
        ctx.reportProgress(0.5);
        await gate.promise;
        return {};
      },
    });
    await flush();
    gate.resolve(undefined);
    const result = await handle.done;
    late = ctxOf!.task;
    expect(result.tasks.r!.status).toBe("completed");
    expect(late).toMatchObject({ status: "in_progress", progress: 0, result: null, error: null, completed_at: null });
    expect(late.updated_at).toBe(late.started_at);
  });
});

describe("RunResult.tasks (built when first read)", () => {
  it("is every final task by id, a null-prototype object, the same one on every read, and the tree's own task objects", async () => {
    const result = await run([task("root"), task("a", { parent_id: "root" }), task("b", { parent_id: "root", dependencies: deps("a") })], { exec: () => ({ ok: 1 }) }).done;
    expect(Object.keys(result)).toEqual(["status", "tree", "tasks"]);
    const byId = result.tasks;
    expect(Object.getPrototypeOf(byId)).toBeNull();
    expect(Object.keys(byId)).toEqual(["root", "a", "b"]);
    expect(result.tasks).toBe(byId);
    expect(byId.root).toBe(result.tree.task);
    expect(byId.a).toBe(result.tree.children![0]!.task);
    expect(byId.b).toMatchObject({ status: "completed", result: { ok: 1 } });
    expect(Object.keys(JSON.parse(JSON.stringify(result)).tasks)).toEqual(["root", "a", "b"]);
    expect({ ...result }.tasks).toBe(byId);
  });
  it("can be replaced, and is then what was assigned", async () => {
    const result = await run([task("root")], { exec: () => ({}) }).done;
    const mine = { x: result.tree.task };
    result.tasks = mine;
    expect(result.tasks).toBe(mine);
    const fresh = await run([task("root")], { exec: () => ({}) }).done;
    fresh.tasks = mine; // before any read
    expect(fresh.tasks).toBe(mine);
    expect(Object.getOwnPropertyDescriptor(fresh, "tasks")).toMatchObject({ value: mine, writable: true, enumerable: true });
  });
});
