/**
 * Runs every example (`examples/<name>/main.ts`) in its own process, in name order, printing what
 * each does; exits non-zero if any fails. This is the main job of `npm run demo`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const examples = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(here, entry.name, "main.ts")))
  .map((entry) => entry.name)
  .sort();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = 0;
  for (const name of examples) {
    console.log(`\n=== examples/${name} ===`);
    const run = spawnSync(process.execPath, ["--import", "tsx", join(here, name, "main.ts")], { stdio: "inherit", cwd: join(here, name) });
    if (run.status !== 0) {
      failed++;
      console.error(`examples/${name} failed (exit ${run.status})`);
    }
  }
  console.log(`\n${examples.length - failed} of ${examples.length} examples ran successfully`);
  process.exitCode = failed > 0 ? 1 : 0;
}
