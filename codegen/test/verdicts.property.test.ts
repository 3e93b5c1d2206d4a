import { describe, expect, it } from "vitest";
import { assertAgreesWithAjv, NUM_RUNS, validatorCases } from "./support/verdicts.js";

// Every generated validator against ajv compiling the verbatim schema at run time, on corpus and
// valid documents changed at random places: same verdict, same error count, ajv's first maxErrors
// errors. Bounded for CI; bench/properties.ts runs the same property with 100x the cases.

const cases = await validatorCases();

describe("generated validators agree with ajv at run time", () => {
  it("cover every root of every variant of the four specs and the codegen-other-repo example", () => {
    const sets = new Set(cases.map((c) => c.set));
    expect([...sets].sort()).toEqual(["agent-service", "agents-json", "apflow", "codegen-other-repo", "stepflow"]);
    expect(cases.length).toBeGreaterThan(70);
    // Most roots have valid documents to start from; the property also starts from every seed.
    expect(cases.filter((c) => c.valid.length > 0).length).toBeGreaterThan(cases.length / 2);
  });

  it.each(cases.map((c) => [`${c.set} ${c.root} (${c.variant})`, c] as const))("%s", (_name, c) => {
    assertAgreesWithAjv(c, NUM_RUNS);
  });
});
