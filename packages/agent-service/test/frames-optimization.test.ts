import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./support/decoder-optimization.ts", import.meta.url));

describe("frame decoder under V8", () => {
  // Each deoptimization of the decoder costs a compile of it (100-480 ms on a loaded machine): a
  // fresh decoder per stream must not throw the optimized code away at its first comment, at its
  // end, or once the earlier decoders are garbage.
  it("keeps its optimized code for the next streams, each read by a fresh decoder", () => {
    const run = spawnSync(process.execPath, ["--allow-natives-syntax", "--expose-gc", "--import", "tsx", script], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ afterSecond: true, afterThird: true });
  });
});
