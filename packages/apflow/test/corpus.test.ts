import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDependency, checkTask, checkTaskList, checkTaskTree, type CheckResult, type Issue } from "@flowspec/apflow";
import { corpusDir } from "../../../test/support.js";

interface Block { upstream_path: string; first_line: number; doc_verdict: string | null; parses_as_json: boolean; raw: string }
const blocks = (JSON.parse(readFileSync(join(corpusDir("apflow"), "derived/docs__protocol__json-blocks.json"), "utf8")) as { blocks: Block[] }).blocks;
const block = (line: number) => blocks.find((b) => b.upstream_path.endsWith("05-examples.md") && b.first_line === line)!;
const parse = (line: number) => JSON.parse(block(line).raw) as Record<string, unknown>;
const codes = (issues: Issue[]) => issues.map((i) => i.code);

describe("doc JSON blocks with a verdict (notes §7)", () => {
  it("has the eight marked blocks", () => {
    const marked = blocks.filter((b) => b.doc_verdict !== null).map((b) => b.first_line);
    expect(marked).toEqual([853, 873, 884, 896, 908, 921, 942, 957]);
  });
  it("853 Valid Task Definition: valid in both modes", () => {
    for (const mode of ["strict", "wire"] as const) expect(checkTask(parse(853), { mode })).toMatchObject({ ok: true, errors: [] });
  });
  it("873 Missing Required Field: not JSON; without its comment, id and status are missing", () => {
    expect(() => JSON.parse(block(873).raw)).toThrow(SyntaxError);
    const cleaned = JSON.parse(block(873).raw.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n"));
    for (const mode of ["strict", "wire"] as const) {
      const r = checkTask(cleaned, { mode });
      expect(r.errors.map((i) => [i.code, i.keyword, i.path])).toEqual([
        ["schema", "required", "/id"],
        ["schema", "required", "/status"],
      ]);
    }
  });
  it("884 Invalid UUID Format: strict uuid error; wire valid with a uuid warning", () => {
    expect(codes(checkTask(parse(884)).errors)).toEqual(["uuid"]);
    const wire = checkTask(parse(884), { mode: "wire" });
    expect(wire.ok).toBe(true);
    expect(codes(wire.warnings)).toEqual(["uuid"]);
  });
  it.each([
    [896, "enum", "/status"],
    [908, "maximum", "/priority"],
  ])("%i: a schema error in both modes", (line, keyword, path) => {
    for (const mode of ["strict", "wire"] as const) {
      expect(checkTask(parse(line), { mode }).errors.map((i) => [i.code, i.keyword, i.path])).toEqual([["schema", keyword, path]]);
    }
  });
  it("921 Circular Dependency: the cycle task-a → task-b → task-a in both modes", () => {
    for (const mode of ["strict", "wire"] as const) {
      const r = checkTaskList(parse(921).tasks, { mode });
      expect(r.ok).toBe(false);
      const cycles = r.errors.filter((i) => i.code === "dependency-cycle");
      expect(cycles.map((i) => [i.cycle, i.path])).toEqual([[["task-a", "task-b", "task-a"], "/1/dependencies/0"]]);
      expect(new Set(codes(r.errors))).toEqual(new Set(mode === "strict" ? ["schema", "root-count", "uuid", "dependency-cycle"] : ["schema", "root-count", "dependency-cycle"]));
    }
  });
  it("942 Empty Task Tree: strict invalid only by uuid; wire valid with a warning", () => {
    const strict = checkTaskTree(parse(942));
    expect(strict.errors.map((i) => [i.code, i.path])).toEqual([["uuid", "/task/id"]]);
    const wire = checkTaskTree(parse(942), { mode: "wire" });
    expect(wire).toMatchObject({ ok: true, errors: [] });
    expect(codes(wire.warnings)).toEqual(["uuid"]);
  });
  it("957 Task with Many Dependencies: its items have uuid errors (strict) or warnings (wire)", () => {
    const deps = parse(957).dependencies as unknown[];
    expect(deps).toHaveLength(5);
    for (const dep of deps) {
      expect(codes(checkDependency(dep).errors)).toEqual(["uuid"]);
      const wire = checkDependency(dep, { mode: "wire" });
      expect(wire.ok).toBe(true);
      expect(codes(wire.warnings)).toEqual(["uuid"]);
    }
  });
});

interface CreationCase { test: string; tasks: Record<string, unknown>[]; expect: { ok: true } | { error: { exception: string; match: string } }; precondition?: string }
const cases = (JSON.parse(readFileSync(join(corpusDir("apflow"), "derived/tests__core__execution__test_task_creator.py.cases.json"), "utf8")) as { cases: CreationCase[] }).cases;
const normalised = (c: CreationCase) => c.tasks.map((t) => ({ status: "pending", ...t }));
const run = (c: CreationCase): CheckResult => checkTaskList(normalised(c), { mode: "wire" });

/** The v1 error message (regex) → the SDK rule that catches the same input. */
function expectedCode(c: CreationCase): string {
  if (!("error" in c.expect)) return "ok";
  const match = c.expect.error.match;
  if (/single task tree|Multiple root tasks found/.test(match)) return "root-count";
  if (/Duplicate task id/.test(match)) return "duplicate-id";
  if (/which is not in the task array/.test(match)) return "dangling-parent";
  if (/not a valid id or name/.test(match)) return c.tasks.some((t) => (t.dependencies as Record<string, unknown>[] | undefined)?.some((d) => !("id" in d) && !("name" in d))) ? "schema" : "dangling-dependency";
  if (/Circular dependency detected/.test(match)) return c.test.includes("self_reference") ? "self-dependency" : "dependency-cycle";
  if (/must have a 'name' field/.test(match)) return "schema";
  throw new Error(`unmapped case ${c.test}`);
}

/**
 * Deliberate differences: inputs the v1 Python creation API accepts or rejects for reasons that do
 * not exist in the protocol's data model. Each row asserts what the SDK does instead.
 */
const DIFFERENCES: Record<string, { reason: string; sdk: string[] }> = {
  test_error_id_when_exists_in_db: { reason: "needs a task already stored on a server; a data-model check has no store", sdk: [] },
  test_create_task_tree_with_name: { reason: "v1 convenience: tasks without id, parent and dependency given by name; the Spec requires id (parent_id 'Task 1' names no id)", sdk: ["schema", "dangling-parent"] },
  test_error_duplicate_name_without_id: { reason: "v1 requires unique names; the Spec requires ids (and the two tasks are two roots)", sdk: ["schema", "root-count"] },
  test_error_invalid_dependency_name: { reason: "dependency by name is a v1 convenience; the Dependency schema requires id", sdk: ["schema", "root-count"] },
  test_error_circular_dependency_with_name: { reason: "tasks and dependencies by name; the Spec requires ids, so no cycle can be formed", sdk: ["schema", "dangling-parent"] },
  test_simple_string_dependency: { reason: "a plain-string dependency is a v1 convenience; the Spec's Dependency is an object", sdk: ["schema"] },
  test_error_circular_dependency_simple_string: { reason: "plain-string dependencies cannot form edges; the SDK rejects them as schema errors", sdk: ["schema"] },
};

describe("reference-impl behaviour: v1 TaskCreator cases, normalised and checked in wire mode", () => {
  it("has the 30 cases, 7 of them deliberate differences", () => {
    expect(cases).toHaveLength(30);
    expect(Object.keys(DIFFERENCES).every((name) => cases.some((c) => c.test === name))).toBe(true);
  });
  const usable = cases.filter((c) => !(c.test in DIFFERENCES));
  it.each(usable.map((c) => ({ name: c.test, c })))("$name", ({ c }) => {
    const expected = expectedCode(c);
    const r = run(c);
    if (expected === "ok") {
      expect(r.errors).toEqual([]);
      expect(new Set(codes(r.warnings)).size > 0 ? [...new Set(codes(r.warnings))].every((code) => code === "uuid" || code === "unknown-field") : true).toBe(true);
    } else {
      expect(codes(r.errors)).toContain(expected);
    }
  });
  it("counts 23 usable cases: 9 ok and 14 errors", () => {
    expect(usable).toHaveLength(23);
    expect(usable.filter((c) => expectedCode(c) === "ok")).toHaveLength(9);
  });
  it("flags the extra `type` key of a dependency as unknown-field", () => {
    const r = run(cases.find((c) => c.test === "test_dependencies_with_required_and_type")!);
    expect(r.warnings.filter((i) => i.code === "unknown-field").map((i) => i.path)).toEqual(["/1/dependencies/0/type"]);
  });
  it.each(Object.entries(DIFFERENCES).map(([name, d]) => ({ name, ...d })))("difference $name: $reason", ({ name, sdk }) => {
    const r = run(cases.find((c) => c.test === name)!);
    expect([...new Set(codes(r.errors))]).toEqual(sdk);
  });
});
