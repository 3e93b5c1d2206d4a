import fc from "fast-check";
import { expect, it } from "vitest";
import { InvalidFlowError } from "../src/index.js";
import { engineProperty, randomFlow, settle } from "./engine-properties.js";

it("the random flows succeed, fail in every way the runtime fails, and are refused, each often", async () => {
  const seen: Record<string, number> = {};
  for (const flow of fc.sample(randomFlow, { numRuns: 400, seed: 19 })) {
    const result = await settle(flow, null);
    const kind = result instanceof InvalidFlowError ? "invalid" : result.outcome === "failed" ? result.error.message.replace(/"s\d+"/, '"…"') : result.outcome;
    seen[kind] = (seen[kind] ?? 0) + 1;
  }
  for (const kind of ["success", "invalid", 'Flow execution failed: step "…" failed', "Flow execution failed: error analyzing workflow", "Flow execution failed: error routing component", "Flow execution failed: failed to resolve value"]) {
    expect(seen[kind] ?? 0, `${kind} in ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(10);
  }
});

const { name, check } = engineProperty(200);
it(name, check);
