/**
 * The property tests of `npm test` with 100 times the cases; not part of `npm test` (minutes, not
 * seconds). Every generated validator, of every root and variant of the four specs and the
 * codegen-other-repo example, against ajv compiling the verbatim schema at run time, on corpus and
 * valid documents changed at random places: the same verdict, the same error count, and ajv's first
 * `maxErrors` errors (see codegen/test/support/verdicts.ts).
 *
 *   npx tsx bench/properties.ts                 # every schema set
 *   npx tsx bench/properties.ts apflow stepflow # some of them
 *
 * A failure prints fast-check's counterexample and seed; the exit code is 1.
 */
import { assertAgreesWithAjv, NUM_RUNS, validatorCases } from "../codegen/test/support/verdicts.js";

const only = process.argv.slice(2);
const cases = (await validatorCases()).filter((c) => only.length === 0 || only.includes(c.set));
const runs = 100 * NUM_RUNS;
let failed = 0;
const started = performance.now();
for (const c of cases) {
  const name = `${c.set} ${c.root} (${c.variant})`;
  const t = performance.now();
  try {
    assertAgreesWithAjv(c, runs);
    console.log(`ok   ${name}: ${runs} documents, ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}\n${(error as Error).message}`);
  }
}
console.log(`\n${cases.length - failed} of ${cases.length} validators agree with ajv on ${runs} documents each (${((performance.now() - started) / 1000).toFixed(0)} s)`);
process.exitCode = failed > 0 ? 1 : 0;
