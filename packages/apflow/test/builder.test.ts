import { describe, expect, expectTypeOf, it } from "vitest";
import {
  checkTaskList,
  checkTaskTree,
  createExecutorRegistry,
  createTaskTree,
  isUuidV4,
  runTaskTree,
  taskListToTree,
  taskTreeToList,
  TaskTreeBuildError,
  validateTaskTreeNode,
  type TaskHandle,
  type TaskSchemas,
  type TaskTreeNode,
} from "@flowspec/apflow";

function reportTree() {
  const tree = createTaskTree({ userId: "u1", now: () => "2026-02-16T10:00:00.000Z" });
  const report = tree.root("report", { method: "aggregate_results_executor" });
  const a = report.child("fetch-a", { method: "fetch", inputs: { url: "https://a.test" }, priority: 1 });
  const b = report.child("fetch-b", { method: "fetch", inputs: { url: "https://b.test" } });
  const c = b.child("parse", { method: "parse" }).after(b);
  report.after(a).afterSettled(c);
  return { tree, report, a, b, c };
}

describe("createTaskTree", () => {
  it("builds a complete tree that passes the strict validator and the semantic checks", () => {
    const { tree, report, a, b, c } = reportTree();
    const node = tree.build();
    expect(validateTaskTreeNode(node).ok).toBe(true);
    expect(checkTaskTree(node)).toEqual({ ok: true, errors: [], warnings: [] });
    expect(node.task).toEqual({
      id: report.id,
      parent_id: null,
      user_id: "u1",
      name: "report",
      status: "pending",
      priority: 2,
      inputs: {},
      schemas: { method: "aggregate_results_executor" },
      params: null,
      result: null,
      error: null,
      dependencies: [
        { id: a.id, required: true },
        { id: c.id, required: false },
      ],
      progress: 0,
      created_at: "2026-02-16T10:00:00.000Z",
      started_at: null,
      updated_at: "2026-02-16T10:00:00.000Z",
      completed_at: null,
    });
    expect(node.children!.map((n) => n.task.name)).toEqual(["fetch-a", "fetch-b"]);
    expect(node.children![0]!.children).toEqual([]);
    expect(node.children![1]!.children![0]!.task).toMatchObject({ parent_id: b.id, dependencies: [{ id: b.id, required: true }] });
    for (const handle of [report, a, b, c]) expect(isUuidV4(handle.id)).toBe(true);
  });
  it("gives the flat pre-order list, which passes checkTaskList", () => {
    const { tree } = reportTree();
    const list = tree.toTaskList();
    expect(list.map((t) => t.name)).toEqual(["report", "fetch-a", "fetch-b", "parse"]);
    expect(checkTaskList(list).ok).toBe(true);
  });
  it("keeps creation order as input order for the scheduler", async () => {
    const tree = createTaskTree();
    const root = tree.root("root");
    root.child("first");
    root.child("second");
    const started: string[] = [];
    const registry = createExecutorRegistry();
    for (const name of ["root", "first", "second"]) registry.register(name, (_i, ctx) => void started.push(ctx.task.name));
    await runTaskTree(tree.build(), { registry, concurrency: 1 }).done;
    expect(started).toEqual(["root", "first", "second"]);
  });
  it("rejects a dependency cycle at build() with the cycle named", () => {
    const tree = createTaskTree();
    const root = tree.root("root");
    const x = root.child("x");
    const y = root.child("y").after(x);
    x.after(y);
    expect(() => tree.build()).toThrow(TaskTreeBuildError);
    try {
      tree.build();
    } catch (error) {
      expect((error as TaskTreeBuildError).issues.map((i) => [i.code, i.cycle])).toEqual([["dependency-cycle", [x.id, y.id, x.id]]]);
    }
  });
  it("rejects inputs that do not match the input schema", () => {
    const tree = createTaskTree();
    tree.root("r", { method: "m", inputSchema: { type: "object", required: ["url"] }, inputs: {} });
    expect(() => tree.build()).toThrow(/\[inputs\]/);
  });
  it("rejects misuse at once", () => {
    const tree = createTaskTree();
    expect(() => tree.build()).toThrow(/no root/);
    const root = tree.root("r");
    expect(() => tree.root("again")).toThrow(/already has a root/);
    expect(() => root.after(root)).toThrow(/itself/);
    expect(() => root.child("")).toThrow(/1 to 255/);
    const other = createTaskTree().root("foreign");
    expect(() => root.after(other)).toThrow(/made by this builder/);
  });
  it("does not share inputs between the spec and the built tasks", () => {
    const inputs = { list: [1] };
    const tree = createTaskTree();
    tree.root("r", { inputs });
    const first = tree.build();
    (first.task.inputs!.list as number[]).push(2);
    expect(tree.build().task.inputs).toEqual({ list: [1] });
    expect(inputs).toEqual({ list: [1] });
  });
  it("has types that catch mistakes", () => {
    const tree = createTaskTree();
    const root = tree.root("r");
    expectTypeOf(root).toEqualTypeOf<TaskHandle>();
    expectTypeOf(tree.build()).toEqualTypeOf<TaskTreeNode>();
    expectTypeOf(root.after).parameters.toEqualTypeOf<TaskHandle[]>();
    // @ts-expect-error dependencies are handles, never id strings
    expect(() => root.after("some-id")).toThrow();
    // @ts-expect-error priority is 0 to 3
    root.child("p", { priority: 5 });
    // @ts-expect-error schemas.type is local, remote or external
    root.child("q", { type: "stdio" });
    // @ts-expect-error unknown option
    root.child("s", { executor: "x" });
    const schemas: TaskSchemas = { method: "rest_executor", type: "local", input_schema: { type: "object" }, model: "extra keys allowed" };
    expectTypeOf(schemas.method).toEqualTypeOf<string>();
    // @ts-expect-error TaskSchemas needs a method
    const noMethod: TaskSchemas = { type: "local" };
    // @ts-expect-error schemas.type is local, remote or external
    const badType: TaskSchemas = { method: "m", type: "stdio" };
    void noMethod;
    void badType;
  });
});

describe("createTaskTree (found in review)", () => {
  it("a task with an input schema or a type but no method builds, and runs by its name", async () => {
    const tree = createTaskTree();
    const root = tree.root("report", { inputSchema: { type: "object", required: ["url"] }, inputs: { url: "https://a.test" } });
    root.child("local-step", { type: "local" });
    const built = tree.build();
    expect(built.task.schemas).toEqual({ method: "report", input_schema: { type: "object", required: ["url"] } });
    expect(built.children![0]!.task.schemas).toEqual({ method: "local-step", type: "local" });
    const registry = createExecutorRegistry({ report: () => ({ ok: 1 }), "local-step": () => ({}) });
    expect((await runTaskTree(built, { registry }).done).status).toBe("completed");
  });
  it("an input schema with $id can be built more than once", () => {
    const tree = createTaskTree();
    tree.root("r", { method: "m", inputSchema: { $id: "https://example.test/builder-inputs.json", type: "object" }, inputs: {} });
    tree.build();
    expect(() => tree.build()).not.toThrow();
    expect(tree.toTaskList()).toHaveLength(1);
  });
  it("counts a name's length in characters (code points) as the schema does, not UTF-16 units", () => {
    const tree = createTaskTree();
    const name = "😀".repeat(255); // 255 characters, 510 UTF-16 units: valid (maxLength 255)
    const root = tree.root(name);
    root.child("x".repeat(255));
    expect(tree.build().task.name).toBe(name);
    expect(() => root.child("😀".repeat(256))).toThrow(/1 to 255 characters/);
  });
});

describe("list ↔ tree conversions", () => {
  it("round-trips", () => {
    const node = reportTree().tree.build();
    const list = taskTreeToList(node);
    expect(taskListToTree(list)).toEqual(node);
  });
  it("orders children by list order and gives leaves []", () => {
    const tree = taskListToTree([
      { id: "r", name: "r", status: "pending" },
      { id: "b", name: "b", status: "pending", parent_id: "r" },
      { id: "a", name: "a", status: "pending", parent_id: "r" },
      { id: "b1", name: "b1", status: "pending", parent_id: "b" },
    ]);
    expect(tree.children!.map((n) => n.task.id)).toEqual(["b", "a"]);
    expect(tree.children![1]!.children).toEqual([]);
    expect(taskTreeToList(tree).map((t) => t.id)).toEqual(["r", "b", "b1", "a"]);
  });
  it.each([
    ["two roots", [{ id: "a", name: "a", status: "pending" as const }, { id: "b", name: "b", status: "pending" as const }], /exactly one root/],
    ["a dangling parent", [{ id: "a", name: "a", status: "pending" as const }, { id: "b", name: "b", status: "pending" as const, parent_id: "x" }], /names no task/],
    ["a duplicate id", [{ id: "a", name: "a", status: "pending" as const }, { id: "a", name: "b", status: "pending" as const, parent_id: "a" }], /duplicate/],
    [
      "a parent loop",
      [{ id: "r", name: "r", status: "pending" as const }, { id: "a", name: "a", status: "pending" as const, parent_id: "b" }, { id: "b", name: "b", status: "pending" as const, parent_id: "a" }],
      /not reachable/,
    ],
  ])("refuses %s", (_name, list, message) => {
    expect(() => taskListToTree(list)).toThrow(message);
  });
});
