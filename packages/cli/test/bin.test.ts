import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/support.js";

// After the README's `npm ci && npm run demo`, `npx flowspec` must be this checkout's CLI. npm ci
// links workspace bins before anything is built and skips a bin whose file does not exist yet, so
// each bin is a committed shim that imports dist/ (else npx would fetch the name from the registry).
const BINS = [
  ["packages/cli", "flowspec", ["--version"], /^\d+\.\d+\.\d+\n$/],
  ["codegen", "flowspec-codegen", ["--help"], /^Usage: flowspec-codegen --schemas DIR --out DIR/],
] as const;

describe.each(BINS)("%s's bin %s in the checkout", (dir, name, args, output) => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as { bin: Record<string, string>; files: string[] };

  it("is a committed file, not a build output, and ships in the package", () => {
    const file = manifest.bin[name]!;
    expect(file).not.toMatch(/^(\.\/)?dist\//);
    expect(existsSync(join(repoRoot, dir, file))).toBe(true);
    expect(manifest.files).toContain(file.replace(/^\.\//, "").split("/")[0]);
  });

  it("is what npm exec runs from the repository root", () => {
    expect(realpathSync(join(repoRoot, "node_modules/.bin", name))).toBe(join(repoRoot, dir, manifest.bin[name]!));
    // --no: never install from the registry; fails if the bin is not linked locally.
    expect(execFileSync("npm", ["exec", "--no", "--", name, ...args], { cwd: repoRoot, encoding: "utf8" })).toMatch(output);
  });
});
