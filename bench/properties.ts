/**
 * The property tests of `npm test` with a hundred times the cases (not part of `npm test`: it takes
 * minutes). `npm run bench:properties [-- NAME...]` runs the sets whose names start with a NAME:
 * - `validators`: every generated validator, of every root and variant of the four specs and the
 *   codegen-other-repo example, against ajv compiling the verbatim schema at run time, on corpus and
 *   valid documents changed at random places: the same verdict, the same error count, and ajv's first
 *   `maxErrors` errors (codegen/test/support/verdicts.ts);
 * - `documents`: the JSON/YAML document parser against `JSON.parse` and the `yaml` package
 *   (packages/runtime/test/document-properties.ts);
 * - `engine`: the StepFlow engine on random flows, always a FlowResult or a typed error
 *   (packages/stepflow/test/engine-properties.ts).
 * The Agent Service frame decoder's property test takes its case count from `FC_NUM_RUNS`.
 * A failure prints fast-check's counterexample and seed; the exit code is 1.
 */
import { assertAgreesWithAjv, NUM_RUNS, validatorCases } from "../codegen/test/support/verdicts.js";
import { documentProperties } from "../packages/runtime/test/document-properties.js";
import { engineProperty } from "../packages/stepflow/test/engine-properties.js";

const SCALE = 100;
const only = process.argv.slice(2);
const wanted = (set: string) => only.length === 0 || only.some((name) => set.startsWith(name));

const properties: { set: string; name: string; check: () => unknown }[] = [];
if (wanted("validators")) {
  for (const c of await validatorCases()) {
    properties.push({ set: "validators", name: `${c.set} ${c.root} (${c.variant})`, check: () => assertAgreesWithAjv(c, SCALE * NUM_RUNS) });
  }
}
if (wanted("documents")) for (const p of documentProperties(SCALE)) properties.push({ set: "documents", ...p });
if (wanted("engine")) properties.push({ set: "engine", ...engineProperty(200 * SCALE) });

let failed = 0;
for (const { set, name, check } of properties) {
  const started = performance.now();
  try {
    await check();
    console.log(`ok   ${set}: ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${set}: ${name}\n${(error as Error).message}`);
  }
}
console.log(`${properties.length - failed} of ${properties.length} properties held`);
process.exitCode = failed > 0 ? 1 : 0;
