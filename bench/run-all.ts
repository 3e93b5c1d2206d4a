/**
 * Runs every benchmark (`bench/*.bench.ts`), or those whose names start with the arguments, each in
 * its own process. Each prints its figures as ratios against a baseline measured in the same run.
 * tsx is pointed at `bench/tsconfig.json`, which maps no `@flowspec/*` paths to source: the benches
 * measure the built packages that users install (`npm run bench` builds them first), not the
 * TypeScript sources as tsx compiles them, which are slower (tsx keeps function names with a
 * wrapper call per closure).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== bench/${file} ===`);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(here, file)], { stdio: "inherit", cwd: here, env: { ...process.env, TSX_TSCONFIG_PATH: join(here, "tsconfig.json") } });
  if (run.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
