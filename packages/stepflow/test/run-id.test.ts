import { afterEach, describe, expect, it, vi } from "vitest";
import { runFlow, type ComponentContext } from "../src/index.js";
import { flow, fromInput, fromStep, step } from "./helpers.js";

// The run id is a UUID made on first read: Web Crypto costs ~7 ms of CPU to load, which a run whose
// components never read the id should not pay; once read, it is the same for every step of the run.
describe("the run id", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is not made for a run whose components never read it", async () => {
    const randomUUID = vi.spyOn(globalThis.crypto, "randomUUID");
    const result = await runFlow(flow([step("a", "/inc", fromInput()), step("b", "/inc", fromStep("a"))], fromStep("b")), 1, { components: { "/inc": (n: number) => n + 1 } });
    expect(result).toEqual({ outcome: "success", result: 3 });
    expect(randomUUID).not.toHaveBeenCalled();
  });

  it("is one UUID for every step of a run, another for the next run, and survives a spread context", async () => {
    const seen: string[] = [];
    const components = {
      "/id": (_: unknown, context: ComponentContext) => {
        seen.push(context.runId, { ...context }.runId);
        return null;
      },
    };
    const twoSteps = flow([step("a", "/id", fromInput()), step("b", "/id", fromStep("a"))], fromStep("b"));
    await runFlow(twoSteps, 1, { components });
    await runFlow(twoSteps, 1, { components });
    expect(seen).toHaveLength(8);
    expect(seen[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(seen.slice(0, 4)).size).toBe(1);
    expect(new Set(seen.slice(4)).size).toBe(1);
    expect(seen[4]).not.toBe(seen[0]);
  });

  it("is an own enumerable getter of every context, before the context's other keys", async () => {
    const contexts: ComponentContext[] = [];
    const components = {
      "/keep": (_: unknown, context: ComponentContext) => {
        contexts.push(context);
        return null;
      },
    };
    await runFlow(flow([step("a", "/keep", fromInput()), step("b", "/keep", fromStep("a")), step("c", "/keep", fromStep("b"))], fromStep("c")), 1, { components });
    expect(contexts.map((context) => context.stepId)).toEqual(["a", "b", "c"]);
    for (const context of contexts) {
      expect(Object.getOwnPropertyDescriptor(context, "runId")).toEqual({ get: expect.any(Function), set: undefined, enumerable: true, configurable: true });
    }
    for (const context of contexts) expect(Object.keys(context)).toEqual(["runId", "stepId", "signal", "blobs", "workingDirectory", "evaluateFlow"]);
  });
});
