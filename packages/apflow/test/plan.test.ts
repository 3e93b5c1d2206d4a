import { describe, expect, it } from "vitest";
import { planTaskTree, TaskTreeRunError } from "@flowspec/apflow";
import { deps, task } from "./support.js";

describe("planTaskTree", () => {
  it("gives the waves of Ex. 4 with priority order inside each", () => {
    const plan = planTaskTree(
      [
        task("root"),
        task("A", { parent_id: "root" }),
        task("B", { parent_id: "root", dependencies: deps("A") }),
        task("C", { parent_id: "root", priority: 1, dependencies: deps("A") }),
        task("D", { parent_id: "root", dependencies: deps("B") }),
        task("E", { parent_id: "root", priority: 3, dependencies: deps("C", "D") }),
      ],
      { mode: "wire" },
    );
    expect(plan.steps.map((s) => s.map((t) => t.id))).toEqual([["root", "A"], ["C", "B"], ["D"], ["E"]]);
    expect(plan.skipped).toEqual([]);
  });
  it("skips terminal tasks and the required dependents of failed ones, cascading; optional dependents still run", () => {
    const failed = { status: "failed" as const, error: "x", started_at: "2026-01-01T00:00:00Z", completed_at: "2026-01-01T00:00:00Z" };
    const plan = planTaskTree(
      [task("root", { dependencies: deps("c") }), task("f", { parent_id: "root", ...failed }), task("c", { parent_id: "root", dependencies: deps("b") }), task("b", { parent_id: "root", dependencies: deps("f") }), task("o", { parent_id: "root", dependencies: deps("?f"), schemas: { method: "m" } })],
      { mode: "wire" },
    );
    expect(plan.steps).toEqual([[{ id: "o", name: "o", priority: 2, executor: "m" }]]);
    expect(plan.skipped.map((s) => [s.id, s.reason])).toEqual([
      ["f", "already failed"],
      ["b", "dependency f failed"],
      ["c", "dependency b failed"],
      ["root", "dependency c failed"],
    ]);
  });
  it("throws on an invalid tree", () => {
    expect(() => planTaskTree([task("a"), task("b")], { mode: "wire" })).toThrow(TaskTreeRunError);
  });
});
