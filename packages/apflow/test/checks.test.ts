import { describe, expect, it } from "vitest";
import { checkDependency, checkTask, checkTaskList, checkTaskTree, parseTimestamp, type CheckResult, type Issue } from "@flowspec/apflow";

const codes = (issues: Issue[]) => issues.map((i) => i.code);
const find = (r: CheckResult, code: string) => [...r.errors, ...r.warnings].filter((i) => i.code === code);
const T = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id.toUpperCase() || "X", status: "pending", ...extra });

const U = {
  root: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d",
  a: "7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6f",
  b: "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9",
};

describe("notes §3.5 example invalid inputs (wire mode)", () => {
  it("two roots give root-count naming both", () => {
    const r = checkTaskList([T("a"), T("b")], { mode: "wire" });
    expect(codes(r.errors)).toEqual(["root-count"]);
    expect(r.errors[0]!.message).toContain('"a", "b"');
    expect(r.errors[0]!.path).toBe("");
  });
  it("no root at all", () => {
    const r = checkTaskList([T("a", { parent_id: "b" }), T("b", { parent_id: "a" })], { mode: "wire" });
    expect(codes(r.errors)).toEqual(["root-count", "parent-cycle"]);
    expect(r.errors[0]!.message).toMatch(/no root/);
  });
  it("a parent loop gives parent-cycle [a, b, a]", () => {
    const r = checkTaskList([T("r"), T("a", { parent_id: "b" }), T("b", { parent_id: "a" })], { mode: "wire" });
    expect(codes(r.errors)).toEqual(["parent-cycle"]);
    expect(r.errors[0]).toMatchObject({ cycle: ["a", "b", "a"], path: "/2/parent_id" });
  });
  it("a missing parent gives dangling-parent at /1/parent_id", () => {
    const r = checkTaskList([T("r"), T("c", { parent_id: "x" })], { mode: "wire" });
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([["dangling-parent", "/1/parent_id"]]);
  });
  it("a self-dependency is reported once, at the entry", () => {
    const r = checkTask(T("a", { dependencies: [{ id: "a" }] }), { mode: "wire" });
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([["self-dependency", "/dependencies/0"]]);
    const list = checkTaskList([T("a", { dependencies: [{ id: "a" }] })], { mode: "wire" });
    expect(codes(list.errors)).toEqual(["self-dependency"]);
  });
  it("a three-task cycle is reported in order at the closing entry", () => {
    const r = checkTaskList(
      [T("r"), T("a", { parent_id: "r", dependencies: [{ id: "b" }] }), T("b", { parent_id: "r", dependencies: [{ id: "c" }] }), T("c", { parent_id: "r", dependencies: [{ id: "a" }] })],
      { mode: "wire" },
    );
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: "dependency-cycle", cycle: ["a", "b", "c", "a"], path: "/3/dependencies/0", taskId: "c" });
  });
  it("a child with a foreign parent_id gives parent-mismatch", () => {
    const r = checkTaskTree({ task: T("r"), children: [{ task: T("c", { parent_id: "x" }), children: [] }] }, { mode: "wire" });
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([["parent-mismatch", "/children/0/task/parent_id"]]);
  });
  it("a dependency outside the tree is dangling", () => {
    const r = checkTaskTree({ task: T("r"), children: [{ task: T("c", { parent_id: "r", dependencies: [{ id: "z" }] }) }] }, { mode: "wire" });
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([["dangling-dependency", "/children/0/task/dependencies/0"]]);
  });
  it("the Spec's Parent-Child vs Dependencies fragment", () => {
    const r = checkTaskTree(
      { task: { id: "task-a", name: "A", parent_id: "root-task" }, children: [{ task: { id: "task-b", name: "B", status: "pending", parent_id: "task-a", dependencies: [{ id: "task-c" }] } }] },
      { mode: "wire" },
    );
    expect(new Set(codes(r.errors))).toEqual(new Set(["root-parent", "dangling-dependency", "schema"]));
  });
  it("two children with the same id give duplicate-id", () => {
    const r = checkTaskTree({ task: T("r"), children: [{ task: T("c", { parent_id: "r" }) }, { task: T("c", { parent_id: "r" }) }] }, { mode: "wire" });
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([["duplicate-id", "/children/1/task/id"]]);
  });
  it("completed with a null result: warnings in wire, completed-at is an error in strict", () => {
    const task = { id: "a", name: "A", status: "completed", result: null };
    const wire = checkTask(task, { mode: "wire" });
    expect(wire.ok).toBe(true);
    expect(codes(wire.warnings)).toEqual(expect.arrayContaining(["missing-result", "completed-at"]));
    const strict = checkTask(task, { mode: "strict" });
    expect(codes(strict.errors).sort()).toEqual(["completed-at", "uuid"]);
    expect(codes(strict.warnings)).toEqual(["missing-result"]);
  });
});

describe("per-task rules (§3.2, §2.4)", () => {
  const rows: { name: string; task: Record<string, unknown>; strict: string[]; wire: string[]; warnings?: string[] }[] = [
    { name: "a minimal valid task", task: T(U.a), strict: [], wire: [] },
    { name: "urn:uuid prefix", task: T(`urn:uuid:${U.a}`), strict: ["uuid"], wire: [] },
    { name: "UUID v1", task: T("6ba7b810-9dad-11d1-80b4-00c04fd430c8"), strict: ["uuid"], wire: [] },
    { name: "empty id", task: T(""), strict: ["uuid"], wire: ["uuid"] },
    { name: "non-UUID parent_id", task: T(U.a, { parent_id: "p" }), strict: ["uuid"], wire: [] },
    { name: "non-UUID dependency id", task: T(U.a, { dependencies: [{ id: "d" }] }), strict: ["uuid"], wire: [] },
    { name: "timestamp without offset", task: T(U.a, { created_at: "2026-02-16T10:00:00.123456" }), strict: ["timestamp"], wire: [] },
    { name: "unparseable timestamp", task: T(U.a, { created_at: "yesterday" }), strict: ["timestamp"], wire: ["timestamp"] },
    { name: "February 30", task: T(U.a, { created_at: "2026-02-30T10:00:00Z" }), strict: ["timestamp"], wire: ["timestamp"] },
    { name: "a leap second outside 23:59 UTC", task: T(U.a, { created_at: "2026-01-01T10:00:60Z" }), strict: ["timestamp"], wire: ["timestamp"] },
    { name: "a leap second at 23:59:60 UTC", task: T(U.a, { created_at: "2016-12-31T23:59:60Z" }), strict: [], wire: [] },
    { name: "an offset without a colon", task: T(U.a, { created_at: "2026-01-01T10:00:00+0200" }), strict: ["timestamp"], wire: ["timestamp"] },
    { name: "non-UTC offset is only a warning", task: T(U.a, { created_at: "2026-02-16T10:00:00+02:00" }), strict: [], wire: [], warnings: ["timestamp-not-utc"] },
    { name: "schemas without method", task: T(U.a, { schemas: { type: "local" } }), strict: ["schemas-method"], wire: [] },
    { name: "schemas.method empty", task: T(U.a, { schemas: { method: "" } }), strict: ["schemas-method"], wire: [] },
    { name: "schemas.type stdio", task: T(U.a, { schemas: { method: "x", type: "stdio" } }), strict: ["schemas-type"], wire: [] },
    { name: "input_schema not an object", task: T(U.a, { schemas: { method: "x", input_schema: "s" } }), strict: ["input-schema"], wire: [] },
    { name: "result while pending", task: T(U.a, { result: { x: 1 } }), strict: ["status-result"], wire: [] },
    { name: "error while pending", task: T(U.a, { error: "boom" }), strict: ["status-error"], wire: [] },
    { name: "empty error on failed", task: T(U.a, { status: "failed", error: "", started_at: "2026-01-01T00:00:00Z", completed_at: "2026-01-01T00:00:01Z" }), strict: ["empty-error"], wire: [] },
    { name: "pending with started_at", task: T(U.a, { started_at: "2026-01-01T00:00:00Z" }), strict: ["started-at"], wire: [] },
    { name: "in_progress without started_at", task: T(U.a, { status: "in_progress" }), strict: ["started-at"], wire: [] },
    { name: "failed without completed_at", task: T(U.a, { status: "failed", error: "x", started_at: "2026-01-01T00:00:00Z" }), strict: ["completed-at"], wire: [] },
    { name: "pending with completed_at", task: T(U.a, { completed_at: "2026-01-01T00:00:00Z" }), strict: ["completed-at"], wire: [] },
    {
      name: "started after completed",
      task: T(U.a, { status: "completed", result: {}, progress: 1, started_at: "2026-01-01T00:00:02Z", completed_at: "2026-01-01T00:00:01Z" }),
      strict: ["timestamp-order"],
      wire: [],
    },
    { name: "priority 4", task: T(U.a, { priority: 4 }), strict: ["schema"], wire: ["schema"] },
    { name: "progress 1.5", task: T(U.a, { progress: 1.5 }), strict: ["schema"], wire: ["schema"] },
    { name: "name of 256 chars", task: T(U.a, { name: "x".repeat(256) }), strict: ["schema"], wire: ["schema"] },
    { name: "plain-string dependency (v1 convenience)", task: T(U.a, { dependencies: ["x"] }), strict: ["schema"], wire: ["schema"] },
    { name: "dependency by name (v1 convenience)", task: T(U.a, { dependencies: [{ name: "x" }] }), strict: ["schema"], wire: ["schema"] },
  ];
  it.each(rows)("$name", ({ task, strict, wire, warnings }) => {
    expect(codes(checkTask(task, { mode: "strict" }).errors)).toEqual(strict);
    const w = checkTask(task, { mode: "wire" });
    expect(codes(w.errors)).toEqual(wire);
    for (const code of strict) if (!wire.includes(code) && code !== "schema") expect(codes(w.warnings)).toContain(code);
    if (warnings) expect(codes(checkTask(task).warnings)).toEqual(warnings);
  });

  it("reports unknown fields, knowing v1's extension fields in wire mode", () => {
    const task = T(U.a, { origin_type: "create", foo: 1, dependencies: [{ id: U.b, type: "result" }] });
    expect(find(checkTask(task), "unknown-field").map((i) => i.path)).toEqual(["/origin_type", "/foo", "/dependencies/0/type"]);
    expect(find(checkTask(task, { mode: "wire" }), "unknown-field").map((i) => i.path)).toEqual(["/foo", "/dependencies/0/type"]);
  });
  it("reports unknown fields among the 17 in the Spec's order, and after one is left out", () => {
    const all = { id: U.a, parent_id: null, user_id: null, name: "A", status: "pending", priority: 2, inputs: {}, schemas: null, params: null, result: null, error: null, dependencies: [], progress: 0, created_at: "2026-01-01T00:00:00Z", started_at: null, updated_at: "2026-01-01T00:00:00Z", completed_at: null };
    const entries = Object.entries(all);
    const withExtra = Object.fromEntries([...entries.slice(0, 5), ["foo", 1], ...entries.slice(5), ["bar", 2]]);
    expect(find(checkTask(withExtra), "unknown-field").map((i) => i.path)).toEqual(["/foo", "/bar"]);
    const withoutUserId = Object.fromEntries([...entries.filter(([key]) => key !== "user_id"), ["baz", 3]]);
    expect(find(checkTask(withoutUserId), "unknown-field").map((i) => i.path)).toEqual(["/baz"]);
  });
  it("warns on duplicate dependencies", () => {
    const r = checkTask(T(U.a, { dependencies: [{ id: U.b }, { id: U.b, required: false }] }));
    expect(find(r, "duplicate-dependency").map((i) => [i.severity, i.path])).toEqual([["warning", "/dependencies/1"]]);
  });
  it.each([3, 8, 9, 40])("warns on every repeat in a list of %i dependencies, whatever its length", (length) => {
    // Ids d0, d1, … with every third one repeating the one just before it; a non-object in between.
    const ids = Array.from({ length }, (_, i) => `d${i % 3 === 2 ? i - 1 : i}`);
    const dependencies: unknown[] = ids.map((id) => ({ id }));
    dependencies.splice(1, 0, "not a dependency");
    const repeats = dependencies.flatMap((d, i) => (typeof d === "object" && dependencies.slice(0, i).some((e) => typeof e === "object" && (e as { id: string }).id === (d as { id: string }).id) ? [`/dependencies/${i}`] : []));
    const r = checkTask(T(U.a, { dependencies }), { mode: "wire" });
    expect(find(r, "duplicate-dependency").map((i) => i.path)).toEqual(repeats);
    expect(repeats.length).toBe(Math.floor(length / 3));
  });
  it("never throws on garbage", () => {
    for (const value of [null, 1, "x", [], { id: 5 }]) expect(checkTask(value).ok).toBe(false);
    expect(checkTaskList({}).errors[0]).toMatchObject({ code: "schema", path: "" });
    expect(checkTaskTree(null).errors[0]).toMatchObject({ code: "schema", path: "" });
  });
  it("checkDependency", () => {
    expect(checkDependency({ id: U.a, required: false }).ok).toBe(true);
    expect(codes(checkDependency({ id: "dep-1" }).errors)).toEqual(["uuid"]);
    expect(codes(checkDependency({ id: "dep-1" }, { mode: "wire" }).warnings)).toEqual(["uuid"]);
    expect(codes(checkDependency({ required: true }).errors)).toEqual(["schema"]);
  });
});

describe("inputs against schemas.input_schema", () => {
  const schema = { type: "object", required: ["url"], properties: { url: { type: "string", format: "uri" } } };
  it("is opt-in", () => {
    expect(checkTask(T(U.a, { schemas: { method: "m", input_schema: schema }, inputs: {} })).ok).toBe(true);
  });
  it("reports each failure under inputs with a pointer", () => {
    const r = checkTask(T(U.a, { schemas: { method: "m", input_schema: schema }, inputs: { url: 5 } }), { checkInputs: true });
    expect(r.errors.map((i) => [i.code, i.path, i.keyword])).toEqual([["inputs", "/inputs/url", "type"]]);
    const missing = checkTask(T(U.a, { schemas: { method: "m", input_schema: schema } }), { checkInputs: true });
    expect(missing.errors.map((i) => [i.code, i.path])).toEqual([["inputs", "/inputs/url"]]);
    expect(checkTask(T(U.a, { schemas: { method: "m", input_schema: schema }, inputs: { url: "https://x.test/" } }), { checkInputs: true }).ok).toBe(true);
  });
  it("reports a schema that does not compile", () => {
    const r = checkTask(T(U.a, { schemas: { method: "m", input_schema: { type: "nonsense" } } }), { checkInputs: true });
    expect(codes(r.errors)).toEqual(["input-schema"]);
  });
});

describe("dependency cycles", () => {
  it("reports every back edge once, with the path in order", () => {
    const list = [
      T("r"),
      T("a", { parent_id: "r", dependencies: [{ id: "b" }] }),
      T("b", { parent_id: "r", dependencies: [{ id: "a" }, { id: "c" }] }),
      T("c", { parent_id: "r", dependencies: [{ id: "d" }] }),
      T("d", { parent_id: "r", dependencies: [{ id: "c" }, { id: "a" }] }),
    ];
    const cycles = checkTaskList(list, { mode: "wire" }).errors.map((i) => i.cycle);
    expect(cycles).toEqual([
      ["a", "b", "a"],
      ["c", "d", "c"],
      ["a", "b", "c", "d", "a"],
    ]);
  });
  it("handles a 200,000-long chain without recursion", () => {
    const n = 200_000;
    const list = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, name: "t", status: "pending", ...(i > 0 ? { parent_id: "t0" } : {}), dependencies: [{ id: `t${(i + 1) % n}` }] }));
    const r = checkTaskList(list, { mode: "wire" });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.cycle).toHaveLength(n + 1);
    expect(r.errors[0]!.path).toBe(`/${n - 1}/dependencies/0`);
  });
  it("checks a 100,000-deep tree", () => {
    let node: Record<string, unknown> = { task: { id: "t0", name: "t", status: "pending", parent_id: "t1" }, children: [] };
    for (let i = 1; i < 100_000; i++) node = { task: { id: `t${i}`, name: "t", status: "pending", ...(i < 99_999 ? { parent_id: `t${i + 1}` } : {}) }, children: [node] };
    const r = checkTaskTree(node, { mode: "wire" });
    expect(r.errors).toEqual([]);
  });
  it("a bad field never hides a cycle", () => {
    const r = checkTaskList([T("r", { priority: 9, dependencies: [{ id: "r2" }] }), T("r2", { parent_id: "r", status: "bogus", dependencies: [{ id: "r" }] })], { mode: "wire" });
    expect(codes(r.errors)).toEqual(["schema", "schema", "dependency-cycle"]);
  });
  it("mixed user ids are an error in a flat list, as v1's tasks.create rejects them, and a warning in a tree (notes §3.4)", () => {
    const r = checkTaskList([T("r", { user_id: "u1" }), T("c", { parent_id: "r", user_id: "u2" })], { mode: "wire" });
    expect(r.ok).toBe(false);
    expect(r.errors.filter((i) => i.code === "mixed-user-id").map((i) => [i.path, i.taskId])).toEqual([["/1/user_id", "c"]]);
    const tree = checkTaskTree({ task: T("r", { user_id: "u1" }), children: [{ task: T("c", { parent_id: "r", user_id: "u2" }) }] }, { mode: "wire" });
    expect(tree.ok).toBe(true);
    expect(tree.warnings.filter((i) => i.code === "mixed-user-id").map((i) => i.path)).toEqual(["/children/0/task/user_id"]);
  });
  it("mixed user ids are reported after every other issue, in task order, against the first task's user_id", () => {
    const list = [
      T("r", { user_id: null, dependencies: [{ id: "b" }] }),
      T("a", { parent_id: "r", user_id: "u1", dependencies: [{ id: "gone" }] }),
      T("b", { parent_id: "r", user_id: "u2", dependencies: [{ id: "r" }] }),
      T("a", { parent_id: "nobody", user_id: "u3" }),
    ];
    const r = checkTaskList(list, { mode: "wire" });
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([
      ["duplicate-id", "/3/id"],
      ["dangling-parent", "/3/parent_id"],
      ["dangling-dependency", "/1/dependencies/0"],
      ["dependency-cycle", "/2/dependencies/0"],
      ["mixed-user-id", "/2/user_id"],
      ["mixed-user-id", "/3/user_id"],
    ]);
    expect(r.errors.at(-1)!.message).toBe('user_id "u3" differs from "u1"; a v1 server rejects trees of mixed users');
    const tree = checkTaskTree(
      { task: list[0], children: [{ task: list[1] }, { task: list[2] }, { task: { ...list[3], parent_id: "r" } }] },
      { mode: "wire" },
    );
    expect([...tree.errors, ...tree.warnings].filter((i) => i.code !== "uuid").map((i) => [i.code, i.path])).toEqual([
      ["duplicate-id", "/children/2/task/id"],
      ["dangling-dependency", "/children/0/task/dependencies/0"],
      ["dependency-cycle", "/children/1/task/dependencies/0"],
      ["mixed-user-id", "/children/1/task/user_id"],
      ["mixed-user-id", "/children/2/task/user_id"],
    ]);
    expect(tree.errors.find((i) => i.code === "duplicate-id")!.message).toContain("(first at /children/0/task)");
  });
});

describe("tree shape (found in review)", () => {
  it("a node object that contains itself (a cycle JSON cannot express) is reported, not walked forever", () => {
    const child: Record<string, unknown> = { task: T("c", { parent_id: "r" }), children: [] };
    const root = { task: T("r"), children: [child] };
    (child.children as unknown[]).push(root);
    const r = checkTaskTree(root, { mode: "wire" });
    expect(r.ok).toBe(false);
    const cyc = r.errors.filter((i) => i.code === "schema");
    expect(cyc.map((i) => i.path)).toEqual(["/children/0/children/0"]);
    expect(cyc[0]!.message).toContain("contains itself");
  });
  it("a node object shared by two parents is still walked twice (duplicate-id)", () => {
    const shared = { task: T("c", { parent_id: "r" }), children: [] };
    const r = checkTaskTree({ task: T("r"), children: [shared, shared] }, { mode: "wire" });
    expect(codes(r.errors)).toEqual(["duplicate-id"]);
  });
});

describe("ids tested once per scope", () => {
  // The check tests each id of a tree or list against the UUID pattern once and reuses the verdict
  // where the id appears again (a parent_id, a dependency, a repeat): each place is still reported.
  const tree = () => ({
    task: T("root-id"),
    children: [
      { task: T(U.a, { parent_id: "root-id", dependencies: [{ id: "root-id" }, { id: U.b }, { id: "nowhere" }] }) },
      { task: T(U.b, { parent_id: "root-id" }) },
      { task: T("root-id", { parent_id: "root-id" }) },
    ],
  });
  it("strict: every place a bad id appears is an error, in input order, duplicates after the tasks' own issues", () => {
    const r = checkTaskTree(tree());
    expect(r.errors.map((i) => [i.code, i.path])).toEqual([
      ["uuid", "/task/id"],
      ["uuid", "/children/0/task/parent_id"],
      ["uuid", "/children/0/task/dependencies/0/id"],
      ["uuid", "/children/0/task/dependencies/2/id"],
      ["uuid", "/children/1/task/parent_id"],
      ["uuid", "/children/2/task/id"],
      ["uuid", "/children/2/task/parent_id"],
      ["duplicate-id", "/children/2/task/id"],
      ["dangling-dependency", "/children/0/task/dependencies/2"],
    ]);
    expect(find(r, "duplicate-id")[0]!.message).toContain("(first at /task)");
  });
  it("a list with an id three times names the first place for each repeat, and the runner refuses it", () => {
    const list = [T(U.root), T(U.a, { parent_id: U.root }), T(U.a, { parent_id: U.root }), T(U.a, { parent_id: U.root })];
    const r = checkTaskList(list);
    expect(find(r, "duplicate-id").map((i) => [i.path, i.message.slice(i.message.indexOf("(first"))])).toEqual([
      ["/2/id", "(first at /1)"],
      ["/3/id", "(first at /1)"],
    ]);
  });
  it("wire: the same places are warnings, and a valid id seen first as a dependency is still valid as an id", () => {
    const r = checkTaskTree(tree(), { mode: "wire" });
    expect(codes(r.errors)).toEqual(["duplicate-id", "dangling-dependency"]);
    expect(find(r, "uuid").map((i) => [i.severity, i.path])).toEqual([
      ["warning", "/task/id"],
      ["warning", "/children/0/task/parent_id"],
      ["warning", "/children/0/task/dependencies/0/id"],
      ["warning", "/children/0/task/dependencies/2/id"],
      ["warning", "/children/1/task/parent_id"],
      ["warning", "/children/2/task/id"],
      ["warning", "/children/2/task/parent_id"],
    ]);
  });
});

describe("parseTimestamp remembers recent texts", () => {
  it("gives each text its own answer, whatever was parsed just before", () => {
    const good = "2026-02-16T10:00:00.000Z";
    const offset = "2026-02-16T12:00:00+02:00";
    const answers = [good, good, "2026-02-30T10:00:00Z", "2026-02-30T10:00:00Z", good, offset, offset, "", good].map((text) => parseTimestamp(text));
    expect(answers.map((p) => p && [p.epochMs, p.utc])).toEqual([
      [Date.UTC(2026, 1, 16, 10), true],
      [Date.UTC(2026, 1, 16, 10), true],
      undefined,
      undefined,
      [Date.UTC(2026, 1, 16, 10), true],
      [Date.UTC(2026, 1, 16, 10), false],
      [Date.UTC(2026, 1, 16, 10), false],
      undefined,
      [Date.UTC(2026, 1, 16, 10), true],
    ]);
  });
  it("reports the same bad timestamp on every task that has it", () => {
    const r = checkTaskList([T(U.root, { created_at: "yesterday" }), T(U.a, { parent_id: U.root, created_at: "yesterday", updated_at: "yesterday" })]);
    expect(find(r, "timestamp").map((i) => i.path)).toEqual(["/0/created_at", "/1/created_at", "/1/updated_at"]);
  });
});

describe("a tree whose enclosing task is not an object", () => {
  it("reports the bad task and still checks its children's parent_id and dependencies", () => {
    for (const bad of [null, "text", 7]) {
      const tree = { task: T(U.root), children: [{ task: bad, children: [{ task: T(U.a, { parent_id: "nope", dependencies: [{ id: "gone" }] }) }] }] };
      const r = checkTaskTree(tree);
      expect(find(r, "uuid").map((i) => i.path)).toEqual(["/children/0/children/0/task/parent_id", "/children/0/children/0/task/dependencies/0/id"]);
      expect(codes(r.errors)).toContain("schema");
    }
  });
});

describe("a dependency list read more than once", () => {
  it("a getter that returns a longer list after some reads neither throws nor reaches the next task's edges", () => {
    // a's longer list names b; b lists an entry that is not a dependency (a schema error). Had a's
    // entry been laid out in b's place, b would depend on itself: a cycle b → b.
    for (let shortReads = 0; shortReads <= 6; shortReads++) {
      let reads = 0;
      const odd = T(U.a, { parent_id: U.root });
      Object.defineProperty(odd, "dependencies", { enumerable: true, get: () => (++reads <= shortReads ? [] : [{ id: U.b }]) });
      const tree = { task: T(U.root), children: [{ task: odd }, { task: T(U.b, { parent_id: U.root, dependencies: [42] }) }] };
      const r = checkTaskTree(tree);
      expect(reads).toBeGreaterThan(0);
      expect(find(r, "dependency-cycle")).toEqual([]);
      expect(codes(r.errors)).toEqual(["schema"]);
    }
  });
});

describe("the typed-array space a check borrows (checks/scratch.ts)", () => {
  const uuid = (i: number) => `${i.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
  /** A chain of n tasks under one root, each depending on the one before; `close` adds root → last (a cycle). */
  const chain = (n: number, close = false) => {
    const children = Array.from({ length: n - 1 }, (_, k) => ({ task: T(uuid(k + 1), { parent_id: uuid(0), dependencies: [{ id: uuid(k) }] }) }));
    return { task: T(uuid(0), close ? { dependencies: [{ id: uuid(n - 1) }] } : {}), children };
  };

  it("is given back after each check and keeps the walk's grown lists for the next one", async () => {
    const { acquireScratch, releaseScratch, PARENT_SLOT, VERDICTS } = await import("../src/checks/scratch.js");
    expect(checkTaskTree(chain(1000)).ok).toBe(true);
    const space = acquireScratch();
    try {
      expect(space.int(PARENT_SLOT, 1).length).toBeGreaterThanOrEqual(1000);
      expect(space.zeroedBytes(VERDICTS, 10).length).toBeGreaterThanOrEqual(1000);
      expect(acquireScratch()).not.toBe(space); // taken: a check inside a check gets its own
    } finally {
      releaseScratch(space);
    }
    expect(acquireScratch()).toBe(space);
    releaseScratch(space);
  });

  it("keeps no array longer than KEEP_UP_TO entries", async () => {
    const { KEEP_UP_TO, Scratch, STACK, STATE } = await import("../src/checks/scratch.js");
    const space = new Scratch();
    expect(space.int(STACK, KEEP_UP_TO + 1).length).toBe(KEEP_UP_TO + 1);
    expect(space.int(STACK, 1).length).toBe(1);
    expect(space.zeroedBytes(STATE, KEEP_UP_TO + 1).length).toBe(KEEP_UP_TO + 1);
    expect(space.zeroedBytes(STATE, 1).length).toBe(1);
  });

  it("leaves nothing behind that a later, smaller check could read", () => {
    // Every id bad (verdicts 2), every task visited (state 2), long edge offsets: then a smaller
    // tree whose ids are good and whose graph has a cycle.
    const bad = { task: T("x0"), children: Array.from({ length: 300 }, (_, k) => ({ task: T(`x${k + 1}`, { parent_id: "x0", dependencies: [{ id: "x0" }, { id: `x${k}` }] }) })) };
    expect(checkTaskTree(bad).errors.length).toBeGreaterThan(300);
    const cyclic = checkTaskTree(chain(50, true));
    expect(codes(cyclic.errors)).toEqual(["dependency-cycle"]);
    expect(checkTaskTree(chain(50))).toEqual({ ok: true, errors: [], warnings: [] });
    expect(checkTaskList([T(uuid(0)), T(uuid(1), { parent_id: uuid(0), dependencies: [{ id: uuid(0) }] })])).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it("a check started from inside a check (a getter of the input) gets a space of its own", () => {
    const inner = chain(40, true);
    let nested: CheckResult | undefined;
    const outer = chain(60);
    const last = outer.children[outer.children.length - 1]!.task;
    Object.defineProperty(last, "name", { enumerable: true, get: () => ((nested ??= checkTaskTree(inner)), "LAST") });
    const r = checkTaskTree(outer);
    expect(r).toEqual({ ok: true, errors: [], warnings: [] });
    expect(codes(nested!.errors)).toEqual(["dependency-cycle"]);
    expect(checkTaskTree(inner)).toEqual(nested);
  });
});
