import { describe, expect, it } from "vitest";
import { canTransition, checkTask, copyForReexecution, resetForReexecution, type Task } from "@flowspec/apflow";

const STATUSES = ["pending", "in_progress", "completed", "failed", "cancelled"] as const;
const ALLOWED = new Set(["pending>in_progress", "in_progress>completed", "in_progress>failed", "in_progress>cancelled", "pending>cancelled", "failed>pending"]);

describe("canTransition (notes §4.1)", () => {
  const rows = STATUSES.flatMap((from) => STATUSES.map((to) => ({ from, to, allowed: ALLOWED.has(`${from}>${to}`) })));
  it.each(rows)("$from → $to: $allowed", ({ from, to, allowed }) => {
    expect(canTransition(from, to)).toBe(allowed);
  });
});

describe("re-execution", () => {
  const failed: Task = {
    id: "7c2d9e1f-3a4b-4c5d-8e6f-1a2b3c4d5e6f",
    name: "fetch",
    status: "failed",
    error: "boom",
    result: null,
    progress: 0.4,
    started_at: "2026-01-01T00:00:00.000Z",
    completed_at: "2026-01-01T00:00:01.000Z",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:01.000Z",
  };
  it("resets a failed task to a valid pending one", () => {
    const reset = resetForReexecution(failed, { now: () => "2026-01-02T00:00:00.000Z" });
    expect(reset).toMatchObject({ status: "pending", error: null, result: null, started_at: null, completed_at: null, progress: 0, updated_at: "2026-01-02T00:00:00.000Z" });
    expect(failed.status).toBe("failed");
    expect(checkTask(reset).errors).toEqual([]);
  });
  it.each(["pending", "in_progress", "completed", "cancelled"] as const)("refuses a %s task", (status) => {
    expect(() => resetForReexecution({ ...failed, status })).toThrow(/only a failed task/);
  });
  it("copies a completed task under a new id", () => {
    const done: Task = { ...failed, status: "completed", error: null, result: { ok: true }, progress: 1 };
    const copy = copyForReexecution(done);
    expect(copy.id).not.toBe(done.id);
    expect(copy).toMatchObject({ status: "pending", result: null, progress: 0, name: "fetch" });
    expect(checkTask(copy).errors).toEqual([]);
  });
});
