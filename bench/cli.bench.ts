/**
 * What a CI job pays for the `flowspec` command, measured on the packed packages as a user installs
 * them (`npm run bench` builds them first):
 * - a fresh `npm install` of the packed @flowspec/cli (with the packed workspace packages it depends
 *   on) into an empty project: size of node_modules and number of packages (target ≤ 25 MB);
 * - `flowspec --version` as a whole process, against a bare `node -e 0` (target ≤ 1.3×). A third
 *   subject, a one-line ES module that prints a version, shows the floor that any ESM bin starts from;
 * - `flowspec validate` of 10,000 small StepFlow flows and of one 50 MB flow, against a script that
 *   compiles the schema with ajv (the options codegen uses, support/runtime-ajv.ts) and validates the
 *   same files, printing a line per file as the command does (targets ≤ 1.0× and ≤ 1.1×). The floor
 *   is a script that only reads and parses them;
 * - the scale curve of `flowspec validate`, 1 to 10,000 files: CPU ms per file and peak RSS.
 * Every subject is a whole process timed from outside, in rounds that alternate which runs first.
 * Needs the npm registry for the third-party dependencies (npm's cache answers when it can).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { FlowSchema } from "@flowspec/stepflow";
import type { FlowspecSchema } from "@flowspec/runtime";
import { processCpuMs, processTime } from "./support/process-time.js";
import { report } from "./support/report.js";
import { alternatingRounds, median, range, ratios } from "./support/rounds.js";
import { runtimeAjv } from "./support/runtime-ajv.js";

const repo = join(import.meta.dirname, "..");
const ROUNDS = 21;
const VALIDATE_ROUNDS = 5;
const SCALE = [1, 10, 100, 1000, 10_000];
const SCALE_ROUNDS = 5;
const load = () => `load average ${loadavg()[0]!.toFixed(1)}`;

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
  const run = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
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
  report({
    name: "node_modules of a fresh npm install of the packed @flowspec/cli",
    value: bytes / 1e6,
    unit: " MB",
    target: { op: "<=", value: 25 },
    baseline: `${packages} packages; install took ${(installMs / 1000).toFixed(1)} s`,
  });

  // The installed bin, as `npx flowspec` runs it (node is started the same way for every subject).
  const bin = realpathSync(join(project, "node_modules/.bin/flowspec"));
  await versionRow(bin, project);
  await validateRows(bin, project);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** `flowspec --version` against `node -e 0`, with a one-line ES module that prints as the floor any ESM bin starts from. */
async function versionRow(bin: string, project: string): Promise<void> {
  const floorModule = join(project, "floor.mjs");
  writeFileSync(floorModule, 'process.stdout.write("0.0.0\\n");\n');
  const subjects = { node: ["-e", "0"], floor: [floorModule], flowspec: [bin, "--version"] };
  for (const args of Object.values(subjects)) time(process.execPath, args, project); // warm the file cache
  const ms = await alternatingRounds(
    { node: () => time(process.execPath, subjects.node, project), floor: () => time(process.execPath, subjects.floor, project), flowspec: () => time(process.execPath, subjects.flowspec, project) },
    ROUNDS,
  );
  const ratio = ratios(ms.flowspec, ms.node);
  report({
    name: "flowspec --version vs node -e 0, whole processes",
    value: median(ratio),
    unit: "×",
    range: range(ratio),
    rounds: ROUNDS,
    target: { op: "<=", value: 1.3 },
    baseline: `flowspec --version ${median(ms.flowspec).toFixed(1)} ms, node -e 0 ${median(ms.node).toFixed(1)} ms (${load()})`,
    floor: `an ES module that prints a version: ${median(ratios(ms.floor, ms.node)).toFixed(2)}× node -e 0`,
  });
}

/** A small StepFlow flow: two steps, a skip condition, an output mapping (about 0.6 KB as JSON). */
function smallFlow(n: number): unknown {
  return {
    schema: "https://stepflow.org/schemas/v1/flow.json",
    name: `flow ${n}`,
    inputSchema: { type: "object", properties: { shouldSkip: { type: "boolean" }, value: { type: "string" } } },
    steps: [
      { id: "first", component: "/mock/one_output", skipIf: { $from: { workflow: "input" }, path: "shouldSkip" }, input: { input: { $from: { workflow: "input" }, path: "value" } } },
      { id: "second", component: "/mock/handle_skip", input: { input: { $from: { step: "first" }, path: "output", onSkip: { action: "useDefault" } } } },
    ],
    output: { result: { $from: { step: "second" }, path: "output" } },
  };
}

/** A StepFlow flow of at least `bytes` as indented JSON: a chain of steps, each reading the one before. */
function largeFlowText(bytes: number): string {
  const step = (i: number) => ({ id: `step_${i}`, component: "/mock/one_output", input: { input: { $from: i === 0 ? { workflow: "input" } : { step: `step_${i - 1}` }, path: "output" } } });
  const perStep = JSON.stringify(step(100_000), null, 2).length;
  const count = Math.ceil(bytes / perStep);
  return JSON.stringify({ schema: "https://stepflow.org/schemas/v1/flow.json", name: "large", steps: Array.from({ length: count }, (_, i) => step(i)), output: { result: { $from: { step: `step_${count - 1}` }, path: "output" } } }, null, 2);
}

/** Peak RSS in MB of one run, from GNU time (a separate, untimed run). */
function peakRssMb(args: string[], cwd: string): number {
  const run = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`${args.join(" ")} failed:\n${run.stderr}`);
  return Number(run.stderr.trim().split("\n").at(-1)) / 1024;
}

async function validateRows(bin: string, project: string): Promise<void> {
  const files = Array.from({ length: 10_000 }, (_, i) => `f/${String(i).padStart(5, "0")}.json`);
  mkdirSync(join(project, "f"));
  files.forEach((file, i) => writeFileSync(join(project, file), JSON.stringify(smallFlow(i), null, 2) + "\n"));
  writeFileSync(join(project, "large.json"), largeFlowText(50e6) + "\n");
  const ajv = runtimeAjv(FlowSchema as FlowspecSchema<unknown>, "stepflow");
  // The baseline prints one line per file, as `flowspec validate` does, in one write.
  writeFileSync(
    join(project, "ajv-validate.mjs"),
    `${ajv.script(join(project, "flow.schema.json"))}
let out = "";
let valid = true;
for (const file of process.argv.slice(2)) {
  const ok = validate(JSON.parse(readFileSync(file, "utf8")));
  valid &&= ok;
  out += \`\${ok ? "valid" : "invalid"} \${file}\\n\`;
}
process.stdout.write(out);
process.exitCode = valid ? 0 : 1;
`,
  );
  writeFileSync(join(project, "parse-only.mjs"), `import { readFileSync } from "node:fs";\nfor (const file of process.argv.slice(2)) JSON.parse(readFileSync(file, "utf8"));\n`);

  const rows = [
    { name: "flowspec validate of 10,000 small files vs ajv compile + validate in a script", files, target: 1.0 },
    { name: "flowspec validate of one 50 MB document vs ajv compile + validate in a script", files: ["large.json"], target: 1.1 },
  ];
  for (const row of rows) {
    const subjects = { flowspec: [bin, "validate", ...row.files], ajv: ["ajv-validate.mjs", ...row.files], floor: ["parse-only.mjs", ...row.files] };
    for (const args of Object.values(subjects)) time(process.execPath, args, project); // warm the file cache
    const cpu = { flowspec: [] as number[], ajv: [] as number[], floor: [] as number[] };
    const ms = await alternatingRounds(
      { flowspec: () => processTime(subjects.flowspec, project, cpu.flowspec), ajv: () => processTime(subjects.ajv, project, cpu.ajv), floor: () => processTime(subjects.floor, project, cpu.floor) },
      VALIDATE_ROUNDS,
    );
    const ratio = ratios(ms.flowspec, ms.ajv);
    const cpuRatio = ratios(cpu.flowspec, cpu.ajv);
    report({
      name: row.name,
      value: median(ratio),
      unit: "×",
      range: range(ratio),
      rounds: VALIDATE_ROUNDS,
      target: { op: "<=", value: row.target },
      baseline:
        `flowspec ${median(ms.flowspec).toFixed(0)} ms, the ajv script ${median(ms.ajv).toFixed(0)} ms (${load()}); ` +
        `CPU time: flowspec ${median(cpu.flowspec).toFixed(0)} ms, the ajv script ${median(cpu.ajv).toFixed(0)} ms, ${median(cpuRatio).toFixed(2)}× (${range(cpuRatio).map((r) => r.toFixed(2)).join("–")})`,
      floor: `a script that only reads and parses: ${median(ms.floor).toFixed(0)} ms (CPU ${median(cpu.floor).toFixed(0)} ms); flowspec is ${median(ratios(ms.flowspec, ms.floor)).toFixed(2)}× it (CPU ${median(ratios(cpu.flowspec, cpu.floor)).toFixed(2)}×)`,
    });
  }

  // The scale curve, in CPU time (on this shared machine the wall time of one run moves by more
  // than the cost of a thousand files), to the microsecond (GNU time's 10 ms steps were as large as
  // the 100 -> 1,000 difference, and once made the figure 4.6x): the median of five runs per size,
  // the sizes in alternating rounds, and peak RSS from one more. Start-up dominates the first sizes;
  // the cost of each added file must not grow.
  const scaleArgs = SCALE.map((count) => [bin, "validate", ...files.slice(0, count)]);
  const cpuBySize = await alternatingRounds(Object.fromEntries(scaleArgs.map((args, i) => [i, () => processCpuMs(args, project)])), SCALE_ROUNDS);
  const runs = SCALE.map((count, i) => ({ count, ms: median(cpuBySize[i]!), rssMb: peakRssMb(scaleArgs[i]!, project) }));
  const series = runs.map((run) => ({ x: run.count, y: run.ms / run.count, rssMb: run.rssMb }));
  const added = (from: number, to: number) => (runs[to]!.ms - runs[from]!.ms) / (runs[to]!.count - runs[from]!.count);
  const [early, late] = [added(SCALE.length - 3, SCALE.length - 2), added(SCALE.length - 2, SCALE.length - 1)];
  report({
    name: "flowspec validate scale, CPU ms per added file from 1,000 to 10,000 files vs from 100 to 1,000",
    value: late / early,
    unit: "×",
    target: { op: "<=", value: 1.5 },
    baseline: `${early.toFixed(3)} then ${late.toFixed(3)} CPU ms per added file; ` + series.map((point) => `${point.x}: ${point.y.toFixed(3)} CPU ms/file, ${point.rssMb.toFixed(0)} MB`).join("; ") + ` (${load()})`,
    series,
    seriesUnits: { x: "files", y: "CPU ms per file" },
  });
}
