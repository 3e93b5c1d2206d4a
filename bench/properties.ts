/**
 * The property tests of the document parser and of the StepFlow engine, with a hundred times the
 * cases `npm test` runs (not part of it: it takes minutes). `npm run bench:properties [-- scale]`.
 */
import { documentProperties } from "../packages/runtime/test/document-properties.js";
import { engineProperty } from "../packages/stepflow/test/engine-properties.js";

const scale = Number(process.argv[2] ?? 100);
const properties = [...documentProperties(scale), engineProperty(200 * scale)];
let failed = 0;
for (const { name, check } of properties) {
  const started = performance.now();
  try {
    await check();
    console.log(`ok   ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}\n${(error as Error).message}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
