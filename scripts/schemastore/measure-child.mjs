// Preloaded (`node --import`) into each codegen run of scripts/schemastore-corpus.mjs: on exit, the
// process writes its own peak memory (resident set, kB) and CPU time to FLOWSPEC_MEASURE_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.FLOWSPEC_MEASURE_FILE;
if (file) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000) }));
  });
}
