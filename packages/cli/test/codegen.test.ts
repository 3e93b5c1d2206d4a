import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/support.js";
import { cli } from "./support.js";

describe("flowspec codegen", () => {
  it("runs flowspec-codegen inside the command tree: --check on up-to-date output exits 0", async () => {
    const run = await cli(["codegen", "--schemas", "schemas/apflow", "--out", "packages/apflow/src/generated", "--check"], repoRoot);
    expect(run.stderr).toContain("[1/1] packages/apflow/src/generated is up to date with schemas/apflow");
    expect(run.code).toBe(0);
  });

  it("exits 1 when the output is stale (another spec's output folder), with a diff", async () => {
    const run = await cli(["codegen", "--schemas", "schemas/apflow", "--out", "packages/agents-json/src/generated", "--check"], repoRoot);
    expect(run.stdout).toContain("--- a/index.ts");
    expect(run.code).toBe(1);
  });

  it("reads --schemas and --out relative to its own working directory, not the process's", async () => {
    const run = await cli(["codegen", "--schemas", "apflow", "--out", "../packages/apflow/src/generated", "--check"], join(repoRoot, "schemas"));
    expect(run.stderr).toContain("[1/1] ../packages/apflow/src/generated is up to date with apflow");
    expect(run.code).toBe(0);
  });

  it("passes --help through, and exits 2 for an unknown option", async () => {
    expect((await cli(["codegen", "--help"], repoRoot)).stdout).toContain("Usage: flowspec-codegen --schemas DIR --out DIR");
    const bad = await cli(["codegen", "--bogus"], repoRoot);
    expect(bad.stderr).toContain("Unknown option '--bogus'");
    expect(bad.code).toBe(2);
  });
});
