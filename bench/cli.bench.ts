/**
 * What a CI job pays for the `flowspec` command, measured on the packed packages as a user installs
 * them (`npm run bench` builds them first):
 * - a fresh `npm install` of the packed @flowspec/cli (with the packed workspace packages it depends
 *   on) into an empty project: size of node_modules and number of packages (target ≤ 25 MB);
 * - `flowspec --version` as a whole process, against a bare `node -e 0` (target ≤ 1.3×), in
 *   interleaved rounds that alternate which runs first. A third subject, a one-line ES module that
 *   prints a version, shows the floor that any ESM bin starts from.
 * Needs the npm registry for the third-party dependencies (npm's cache answers when it can).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, permutations } from "./support/rounds.js";

const repo = join(import.meta.dirname, "..");
const ROUNDS = 21;

/** The workspace folders of @flowspec/cli and of every workspace package it depends on, transitively. */
function workspaceClosure(name: string): string[] {
  const root = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { workspaces: string[] };
  const dirs = new Map<string, string>();
  for (const dir of root.workspaces) dirs.set((JSON.parse(readFileSync(join(repo, dir, "package.json"), "utf8")) as { name: string }).name, dir);
  const found = new Set<string>();
  const visit = (pkg: string) => {
    const dir = dirs.get(pkg);
    if (!dir || found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(repo, dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
  };
  visit(name);
  return [...found];
}

/** Bytes of every file under `dir` (symlinks counted as links), and the packages installed there. */
function measure(dir: string): { bytes: number; packages: number } {
  let bytes = 0;
  let packages = 0;
  const walk = (path: string, inNodeModules: boolean) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        // A package is a folder directly under node_modules (or under a @scope folder there).
        if (inNodeModules && !entry.name.startsWith("@") && !entry.name.startsWith(".")) packages++;
        walk(full, entry.name === "node_modules" || (inNodeModules && entry.name.startsWith("@")));
      } else {
        bytes += lstatSync(full).size;
      }
    }
  };
  walk(dir, true);
  return { bytes, packages };
}

function time(command: string, args: string[], cwd: string): number {
  const start = performance.now();
  const run = spawnSync(command, args, { cwd, encoding: "utf8" });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${run.stderr}`);
  return ms;
}

const tmp = mkdtempSync(join(tmpdir(), "flowspec-bench-cli-"));
try {
  const dirs = workspaceClosure("@flowspec/cli");
  const tarballs = dirs.map((dir) => {
    const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", tmp, "-w", dir], { cwd: repo, encoding: "utf8" })) as { filename: string }[];
    return join(tmp, packed!.filename);
  });
  const project = join(tmp, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true }));
  const installStart = performance.now();
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...tarballs], { cwd: project, stdio: "pipe" });
  const installMs = performance.now() - installStart;
  const { bytes, packages } = measure(join(project, "node_modules"));
  console.log(`npm install of the packed @flowspec/cli (+ ${dirs.length - 1} workspace packages: ${dirs.filter((d) => d !== "packages/cli").join(", ")})`);
  console.log(`  node_modules: ${(bytes / 1e6).toFixed(1)} MB in ${packages} packages (target ≤ 25 MB); install took ${(installMs / 1000).toFixed(1)} s`);

  // The installed bin, as `npx flowspec` runs it (node is started the same way for every subject).
  const bin = realpathSync(join(project, "node_modules/.bin/flowspec"));
  const floor = join(tmp, "floor.mjs");
  writeFileSync(floor, 'process.stdout.write("0.0.0\\n");\n');
  const subjects: Record<string, string[]> = {
    "node -e 0": ["-e", "0"],
    "node floor.mjs (an ES module that prints)": [floor],
    "flowspec --version": [bin, "--version"],
  };
  const names = Object.keys(subjects);
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  for (const name of names) time(process.execPath, subjects[name]!, project); // warm the file cache
  const orders = permutations(names);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of orders[round % orders.length]!) samples.get(name)!.push(time(process.execPath, subjects[name]!, project));
  }
  const base = median(samples.get("node -e 0")!);
  console.log(`\nwhole-process start-up, median of ${ROUNDS} interleaved rounds (ratio to node -e 0)`);
  for (const name of names) {
    const ms = median(samples.get(name)!);
    console.log(`  ${name.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / base).toFixed(2)}x`);
  }
  console.log("  target: flowspec --version ≤ 1.3x node -e 0");
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
