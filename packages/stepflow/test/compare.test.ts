import { describe, expect, it } from "vitest";
import { normalizeValue, resultsMatch, runTestCases, ZERO_RUN_ID } from "../src/index.js";
import { flow, fromInput, ok, step } from "./helpers.js";

describe("the test comparison (§6.9)", () => {
  it("sorts keys and zeroes string run_id fields at any depth, for success", () => {
    expect(JSON.stringify(normalizeValue({ b: 1, a: { run_id: "x", z: [{ run_id: "y", k: 1 }] }, run_id: 5 }))).toBe(
      `{"a":{"run_id":"${ZERO_RUN_ID}","z":[{"k":1,"run_id":"${ZERO_RUN_ID}"}]},"b":1,"run_id":5}`,
    );
    expect(resultsMatch(ok({ result: 1, run_id: "abc" }), ok({ run_id: "def", result: 1 }))).toBe(true);
    expect(resultsMatch(ok([1, 2]), ok([2, 1]))).toBe(false);
    expect(resultsMatch(ok(1), ok(1.0))).toBe(true);
  });

  it("compares failed and skipped results as they are", () => {
    const failed = { outcome: "failed" as const, error: { code: 8, message: "error" } };
    expect(resultsMatch(failed, { outcome: "failed", error: { message: "error", code: 8 } })).toBe(true);
    expect(resultsMatch(failed, { outcome: "failed", error: { code: 8, message: "error", data: { run_id: "x" } } })).toBe(false);
    expect(resultsMatch({ outcome: "skipped" }, { outcome: "skipped" })).toBe(true);
    expect(resultsMatch({ outcome: "skipped" }, ok(null))).toBe(false);
  });

  it("runTestCases: passes, fails (with the difference) and fails a case without output", async () => {
    const f = flow([], fromInput("v"), {
      test: {
        cases: [
          { name: "pass", input: { v: 1 }, output: ok(1) },
          { name: "differs", input: { v: 2 }, output: ok(1) },
          { name: "no output", input: { v: 3 } },
          { name: "error", input: {}, output: ok(1) },
        ],
      },
    });
    const reports = await runTestCases(f);
    expect(reports.map((r) => [r.name, r.status, r.reason])).toEqual([
      ["pass", "passed", undefined],
      ["differs", "failed", "the result differs from the expected output"],
      ["no output", "failed", "the case has no expected output"],
      ["error", "failed", "the result differs from the expected output"],
    ]);
    expect(reports[1]!.actual).toEqual(ok(2));
    expect(reports[3]!.detail).toContain('/output: failed to resolve value: $.v: the object has no field "v"');
  });

  it("runTestCases skips every case that needs a component no plugin serves, even inside a nested flow", async () => {
    const f = flow([step("e", "/builtin/eval", { workflow: { $literal: { schema: "x", steps: [step("n", "/py/udf")] } }, input: 1 })], null, {
      test: { cases: [{ name: "a", input: 1, output: ok(null) }] },
    });
    const reports = await runTestCases(f, {
      config: { plugins: { builtin: { type: "builtin" } }, routes: { "/builtin/{component}": [{ plugin: "builtin" }] } },
    });
    expect(reports).toEqual([expect.objectContaining({ status: "skipped", reason: expect.stringContaining('"/py/udf": no route') })]);
  });
});
