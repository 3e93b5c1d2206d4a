import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support.js";

// The command of `npm run test:corpus`, run as it is (npm test has no build step to repeat for it).
const command = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["test:corpus"]!;

describe("npm run test:corpus: the upstream StepFlow corpus with TypeScript stand-ins for its Python", () => {
  it("runs all 59 cases and passes them all, alice's blob id (a float hashed as 171.0, as serde_json writes it) among them", { timeout: 300_000 }, () => {
    const run = spawnSync("sh", ["-c", command], { cwd: repoRoot, encoding: "utf8", timeout: 290_000 });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.at(-1), run.stdout + run.stderr).toBe("59 passed, 0 failed, 0 skipped");
    expect(lines.filter((line) => line.startsWith("PASS "))).toHaveLength(59);
    expect(lines).toContain("PASS  ../shared/corpus/stepflow/tests/python/blob_integration.yaml › alice");
    expect(run.status).toBe(0);
  });
});
