/**
 * Runs every benchmark (`bench/*.bench.ts`), or those whose names start with the arguments, each in
 * its own process. Each prints its figures as ratios against a baseline measured in the same run;
 * figures with a target (`support/report.ts`) are collected into the summary table printed at the
 * end, with a verdict each, and into `bench/results.json` (which `scale-chart.ts` draws).
 * tsx is pointed at `bench/tsconfig.json`, which maps no `@flowspec/*` paths to source: the benches
 * measure the built packages that users install (`npm run bench` builds them first), not the
 * TypeScript sources as tsx compiles them, which are slower (tsx keeps function names with a
 * wrapper call per closure).
 */
import { spawn } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, met, type Figure } from "./support/report.js";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();
const figures: Figure[] = [];
let failed = 0;
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", join(here, file)], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: here,
    env: { ...process.env, TSX_TSCONFIG_PATH: join(here, "tsconfig.json") },
  });
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith("@@figure ")) figures.push(JSON.parse(line.slice(9)) as Figure);
    else console.log(line);
  }
  const code = await new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.once("exit", done)));
  if (code !== 0) failed++;
}
if (figures.length > 0) {
  console.log(`\n=== summary: ${figures.filter(met).length} of ${figures.length} targets met ===`);
  for (const figure of figures) console.log(`${met(figure) ? "met   " : "MISSED"}  ${figure.bench}: ${describe(figure)}`);
  writeFileSync(join(here, "results.json"), JSON.stringify({ node: process.version, figures }, null, 2) + "\n");
}
process.exitCode = failed > 0 ? 1 : 0;
