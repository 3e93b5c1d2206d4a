import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examples } from "../run-all.js";

const root = join(import.meta.dirname, "..");

describe("examples", () => {
  it("finds the examples", () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(examples)("examples/%s runs to completion", (name) => {
    const run = spawnSync(process.execPath, ["--import", "tsx", join(root, name, "main.ts")], {
      cwd: join(root, name),
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.stderr + run.stdout).not.toMatch(/Error:/);
    expect(run.status).toBe(0);
  });
});
