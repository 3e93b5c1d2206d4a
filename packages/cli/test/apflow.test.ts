import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "@flowspec/cli";

let dir = "";
const R = "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d";
const A = "7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6f";
const B = "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9";
const agg = { method: "aggregate_results_executor" };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "flowspec-apflow-"));
  const tree = {
    task: { id: R, name: "report", status: "pending", schemas: agg, dependencies: [{ id: A }, { id: B, required: false }] },
    children: [
      { task: { id: A, name: "a", status: "pending", parent_id: R, priority: 3, schemas: agg }, children: [] },
      { task: { id: B, name: "b", status: "pending", parent_id: R, priority: 0, schemas: agg }, children: [] },
    ],
  };
  writeFileSync(join(dir, "tree.json"), JSON.stringify(tree, null, 2));
  writeFileSync(
    join(dir, "failing.yaml"),
    `- id: ${R}\n  name: root\n  status: pending\n  schemas: {method: no_such_executor}\n- id: ${A}\n  name: after\n  status: pending\n  parent_id: ${R}\n  schemas: {method: aggregate_results_executor}\n  dependencies: [{id: ${R}}]\n`,
  );
  writeFileSync(
    join(dir, "cycle.json"),
    JSON.stringify(
      [
        { id: "r", name: "r", status: "pending" },
        { id: "a", name: "a", status: "pending", parent_id: "r", dependencies: [{ id: "b" }] },
        { id: "b", name: "b", status: "pending", parent_id: "r", dependencies: [{ id: "a" }] },
      ],
      null,
      2,
    ),
  );
  writeFileSync(join(dir, "task.json"), JSON.stringify({ id: "not-a-uuid", name: "t", status: "pending" }));
  writeFileSync(join(dir, "broken.json"), "{ nope");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIo = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, cwd: dir, env: {} };
  const code = await runCli(argv, io);
  return { code, out, err };
}

describe("flowspec apflow check", () => {
  it("passes a valid tree", async () => {
    const r = await cli("apflow", "check", "tree.json");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^valid {3}tree\.json: apflow tree \(strict\), 0 error\(s\), 0 warning\(s\)/);
  });
  it("reports a cycle with file:line:column and exit 1", async () => {
    const r = await cli("apflow", "check", "cycle.json", "--mode", "wire");
    expect(r.code).toBe(1);
    expect(r.out).toContain("  cycle.json:24:7 error dependency-cycle /2/dependencies/0: circular dependency: a → b → a\n");
  });
  it("reads a single task per mode, as JSON", async () => {
    const strict = await cli("apflow", "check", "task.json", "--format", "json");
    expect(strict.code).toBe(1);
    const report = JSON.parse(strict.out);
    expect(report).toMatchObject({ shape: "task", mode: "strict", ok: false, errors: [{ code: "uuid", path: "/id", line: 1 }] });
    const wire = await cli("apflow", "check", "task.json", "--mode", "wire", "--format", "json");
    expect(wire.code).toBe(0);
    expect(JSON.parse(wire.out).warnings[0].code).toBe("uuid");
  });
  it("exits 2 on usage errors and unreadable files", async () => {
    expect((await cli("apflow", "check", "missing.json")).code).toBe(2);
    const broken = await cli("apflow", "check", "broken.json");
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/broken\.json:1:\d+/);
    expect((await cli("apflow", "check", "tree.json", "--mode", "loose")).code).toBe(2);
    expect((await cli("apflow", "check", "tree.json", "--format", "xml")).code).toBe(2);
  });
  it("has help with examples", async () => {
    const r = await cli("apflow", "check", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("flowspec apflow check tree.json");
  });
});

describe("flowspec apflow run", () => {
  it("runs a tree with the built-in executors and prints each task", async () => {
    const r = await cli("apflow", "run", "tree.json", "--concurrency", "1");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`completed report ${R}`);
    const empty = `{"summary":"No task results to aggregate","timestamp":"[^"]+","results":{},"result_count":0}`;
    expect(r.out).toMatch(new RegExp(`result: \\{"summary":"Aggregated 2 task results\\. from: ${A}, ${B}","timestamp":"[^"]+","results":\\{"${A}":${empty},"${B}":${empty}\\},"result_count":2\\}`));
    expect(r.out).toMatch(/run completed\n$/);
  });
  it("prints the final tree as JSON and exits 1 when a task fails", async () => {
    const r = await cli("apflow", "run", "failing.yaml", "--format", "json");
    expect(r.code).toBe(1);
    const out = JSON.parse(r.out);
    expect(out.status).toBe("failed");
    expect(out.tree.task).toMatchObject({ status: "failed", error: "Executor 'no_such_executor' not found in registry" });
    expect(out.tree.children[0].task).toMatchObject({ status: "cancelled", error: `dependency ${R} failed` });
  });
  it("refuses an invalid tree with located issues", async () => {
    const r = await cli("apflow", "run", "cycle.json", "--mode", "wire");
    expect(r.code).toBe(1);
    expect(r.out).toContain("dependency-cycle");
    expect((await cli("apflow", "run", "task.json")).code).toBe(2);
    expect((await cli("apflow", "run", "tree.json", "--concurrency", "0")).code).toBe(2);
  });
});

describe("flowspec apflow plan", () => {
  it("prints the ready order", async () => {
    const r = await cli("apflow", "plan", "tree.json");
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      "step 1: b (priority 0, executor aggregate_results_executor), a (priority 3, executor aggregate_results_executor)\n" +
        "step 2: report (priority 2, executor aggregate_results_executor)\n",
    );
  });
  it("exits 1 for an invalid tree", async () => {
    expect((await cli("apflow", "plan", "cycle.json", "--mode", "wire")).code).toBe(1);
  });
});

describe("flowspec apflow run|plan --format json on an invalid tree", () => {
  it.each(["run", "plan"])("%s keeps stdout JSON: the issues, located", async (command) => {
    const r = await cli("apflow", command, "cycle.json", "--mode", "wire", "--format", "json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ file: "cycle.json", ok: false, errors: [{ code: "dependency-cycle", path: "/2/dependencies/0", line: 24, column: 7 }] });
  });
});

describe("flowspec apflow plan --format json", () => {
  it("prints the plan as data", async () => {
    const { cli } = await import("./support.js");
    const { repoRoot } = await import("../../../test/support.js");
    const run = await cli(["apflow", "plan", "packages/cli/docs/graph/apflow-tree.json", "--mode", "wire", "--format", "json"], repoRoot);
    expect(run.code).toBe(0);
    const plan = JSON.parse(run.stdout) as { steps: { name: string }[][]; skipped: unknown[] };
    expect(plan.steps.length).toBeGreaterThan(0);
    expect(Array.isArray(plan.skipped)).toBe(true);
  });
});

describe("flowspec apflow check|plan|run on upstream's task arrays (as tasks.create takes them)", () => {
  // The shape of v1's tests/integration/test_aggregate_results_integration.py: flat, linked by
  // parent_id, no status, the root's executor in params.executor_id.
  const upstream = (memoryUser = "test-user") =>
    JSON.stringify(
      [
        { id: "aggregate-system-info", user_id: "test-user", name: "Aggregate System Information", priority: 3, has_children: true, params: { executor_id: "aggregate_results_executor" }, dependencies: [{ id: "cpu-info", required: true }, { id: "memory-info", required: true }], inputs: {} },
        { id: "cpu-info", parent_id: "aggregate-system-info", user_id: "test-user", name: "Get CPU Information", priority: 1, schemas: { method: "system_info_executor" }, inputs: { resource: "cpu" } },
        { id: "memory-info", parent_id: "aggregate-system-info", user_id: memoryUser, name: "Get Memory Information", priority: 1, schemas: { method: "system_info_executor" }, inputs: { resource: "memory" } },
      ],
      null,
      2,
    );

  it("checks and plans a flat array whose tasks have no status (pending, as tasks.create fills it in)", async () => {
    writeFileSync(join(dir, "upstream.json"), upstream());
    const check = await cli("apflow", "check", "upstream.json", "--mode", "wire");
    expect(check.out.split("\n")[0]).toBe("valid   upstream.json: apflow list (wire), 0 error(s), 7 warning(s)");
    expect(check.code).toBe(0);
    const plan = await cli("apflow", "plan", "upstream.json", "--mode", "wire");
    expect(plan.out).toBe(
      "step 1: Get CPU Information (priority 1, executor system_info_executor), Get Memory Information (priority 1, executor system_info_executor)\n" +
        "step 2: Aggregate System Information (priority 3, executor aggregate_results_executor)\n",
    );
  });

  it("runs it: the missing system_info_executor fails the children by name, and the aggregate is cancelled", async () => {
    writeFileSync(join(dir, "upstream.json"), upstream());
    const { code, out: stdout } = await cli("apflow", "run", "upstream.json", "--mode", "wire");
    expect(stdout).toContain("failed    Get CPU Information cpu-info\n  error: Executor 'system_info_executor' not found in registry\n");
    expect(stdout).toContain("cancelled Aggregate System Information aggregate-system-info\n  error: dependency cpu-info failed\n");
    expect(code).toBe(1);
  });

  it.each([["check"], ["plan"], ["run"]])("mixed user_ids in a flat list are an error, located (%s)", async (command) => {
    writeFileSync(join(dir, "mixed.json"), upstream("other-user"));
    const { code, out: stdout } = await cli("apflow", command, "mixed.json", "--mode", "wire");
    expect(stdout).toContain('mixed.json:39:16 error mixed-user-id /2/user_id: user_id "other-user" differs from "test-user"; a v1 server rejects trees of mixed users\n');
    expect(code).toBe(1);
    const json = JSON.parse((await cli("apflow", command, "mixed.json", "--mode", "wire", "--format", "json")).out);
    expect(json.errors).toEqual([expect.objectContaining({ code: "mixed-user-id", path: "/2/user_id", taskId: "memory-info", line: 39, column: 16 })]);
  });
});
