/**
 * Schema drift tooling: how long `diffSchemas` takes on the four specs (each folder against itself,
 * and against a modified copy: the spec's own overlays applied and written to a temp folder), and
 * how long codegen takes for all four specs from cold (a fresh process, nothing cached).
 *
 * Baselines measured in the same run: for diff, reading and parsing both folders
 * (`readSchemaFiles` twice), which every diff has to do anyway; for codegen, starting a process
 * that only imports the generator.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { diffSchemas } from "@flowspec/schema-diff";
import { readSchemaFiles } from "@flowspec/schema-diff/schema-files";
import { readConfig } from "../codegen/src/index.js";
import { applyOverlays, readOverlay } from "../codegen/src/schema-set.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const specs = ["stepflow", "agents-json", "apflow", "agent-service"];

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median milliseconds of `run`, after a warm-up, over enough runs to take about 1 s (at least 5). */
function time(run: () => unknown): number {
  for (let i = 0; i < 3; i++) run();
  const samples: number[] = [];
  const until = performance.now() + 1000;
  while (samples.length < 5 || (performance.now() < until && samples.length < 200)) {
    globalThis.gc?.();
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const tmp = mkdtempSync(join(tmpdir(), "flowspec-bench-diff-"));
try {
  console.log("diffSchemas, folder against folder (median ms; ratio to reading and parsing both folders)");
  console.log(`${"spec".padEnd(14)} ${"files".padStart(5)} ${"read".padStart(8)} ${"self".padStart(8)} ${"ratio".padStart(6)} ${"modified".padStart(9)} ${"ratio".padStart(6)} ${"changes".padStart(8)}`);
  for (const spec of specs) {
    const dir = join(root, "schemas", spec);
    const files = readSchemaFiles(dir, spec);
    // The modified copy: the spec's non-default overlays applied, as a user's edited folder would be.
    const overlays = Object.values(readConfig(dir).variants ?? {}).flat().map((path) => readOverlay(dir, path));
    const modified = join(tmp, spec);
    for (const file of applyOverlays(files, overlays)) {
      mkdirSync(dirname(join(modified, file.path)), { recursive: true });
      writeFileSync(join(modified, file.path), JSON.stringify(file.json, null, 2));
    }
    const read = time(() => [readSchemaFiles(dir, spec), readSchemaFiles(modified, spec)]);
    const self = time(() => diffSchemas(dir, dir));
    const changed = time(() => diffSchemas(dir, modified));
    const changes = diffSchemas(dir, modified).summary.changes;
    console.log(
      `${spec.padEnd(14)} ${String(files.length).padStart(5)} ${read.toFixed(2).padStart(8)} ${self.toFixed(2).padStart(8)} ${(self / read).toFixed(1).padStart(5)}x ${changed.toFixed(2).padStart(9)} ${(changed / read).toFixed(1).padStart(5)}x ${String(changes).padStart(8)}`,
    );
  }

  // Codegen from cold: each run is a fresh process that imports the generator and generates all four.
  const script = join(tmp, "cold.mts");
  writeFileSync(
    script,
    `const t0 = performance.now();
const { generate } = await import(${JSON.stringify(join(root, "codegen/src/index.ts"))});
const t1 = performance.now();
if (process.argv[2] === "generate") {
  for (const spec of ${JSON.stringify(specs)}) await generate({ schemaDir: ${JSON.stringify(join(root, "schemas"))} + "/" + spec, outDir: "out/" + spec });
}
console.log(JSON.stringify({ importMs: t1 - t0, generateMs: performance.now() - t1 }));`,
  );
  const cold = (mode: string) => {
    const start = performance.now();
    const run = spawnSync(process.execPath, ["--import", "tsx", script, mode], { cwd: root, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`cold codegen run failed:\n${run.stderr}`);
    return { wallMs: performance.now() - start, ...(JSON.parse(run.stdout.trim().split("\n").pop()!) as { importMs: number; generateMs: number }) };
  };
  const baseline = [cold("import"), cold("import")];
  const runs = [cold("generate"), cold("generate")];
  const base = median(baseline.map((r) => r.wallMs));
  const wall = median(runs.map((r) => r.wallMs));
  const generate = median(runs.map((r) => r.generateMs));
  console.log("\ncodegen of all four specs from cold (fresh process each run; median of 2)");
  console.log(`  process start + import of the generator (baseline): ${base.toFixed(0)} ms`);
  console.log(`  process start + import + generate all four:         ${wall.toFixed(0)} ms (${(wall / base).toFixed(1)}x the baseline)`);
  console.log(`  generate() alone, all four specs, first calls:      ${generate.toFixed(0)} ms`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
