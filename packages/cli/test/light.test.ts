import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, Help } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/support.js";
import { COMMANDS } from "../src/program.js";

// What the built `flowspec` loads and needs, as users run it: the structure behind its start-up
// time and install size (bench/cli.bench.ts has the figures).
const cliDir = join(repoRoot, "packages/cli");
const bin = join(cliDir, "dist/bin.js");
const temp = mkdtempSync(join(tmpdir(), "flowspec-light-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// An ES module loader hook that logs the URL of every module loaded (CommonJS files that a
// CommonJS module requires are not seen, which leaves out only commander's own files).
writeFileSync(
  join(temp, "hooks.mjs"),
  `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, nextLoad) { appendFileSync(log, url + "\\n"); return nextLoad(url, context); }
`,
);
writeFileSync(join(temp, "register.mjs"), 'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url, { data: { log: process.env.FLOWSPEC_LOADED_LOG } });\n');

let runs = 0;
/** The files (relative to the repository, `/` separators) that `flowspec ...args` loads; builtins left out. */
function loadedBy(args: string[]): string[] {
  expect(existsSync(bin), "packages/cli/dist is missing: run npm run build").toBe(true);
  const log = join(temp, `loaded-${runs++}.log`);
  writeFileSync(log, "");
  const run = spawnSync(process.execPath, ["--import", join(temp, "register.mjs"), bin, ...args], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, FLOWSPEC_LOADED_LOG: log } });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => relative(repoRoot, fileURLToPath(url)).split("\\").join("/"));
}

const commandModules = readdirSync(join(cliDir, "src/commands")).map((file) => file.replace(/\.ts$/, ""));
const isCommandModule = (file: string) => file.startsWith("packages/cli/dist/") && commandModules.some((name) => file.slice("packages/cli/dist/".length).startsWith(`${name}-`));
const PROTOCOL_PACKAGES = /^packages\/(stepflow|agents-json|apflow|agent-service)\//;
const CODEGEN = /^codegen\/|(^|\/)node_modules\/(ts-morph|prettier|json-schema-to-typescript|typescript)\//;

describe("what the built flowspec loads", () => {
  it("--version loads nothing but its own entry and the version", () => {
    const loaded = loadedBy(["--version"]);
    expect(loaded.filter((file) => !file.startsWith("packages/cli/dist/"))).toEqual([]);
    expect(loaded.filter(isCommandModule)).toEqual([]);
  });

  it("--help loads commander and no command, protocol package, yaml, schema diff or codegen", () => {
    const loaded = loadedBy(["--help"]);
    expect(loaded.filter((file) => !file.startsWith("packages/cli/dist/") && !/\/commander\//.test(file))).toEqual([]);
    expect(loaded.filter(isCommandModule)).toEqual([]);
  });

  it("diff loads its own module and the schema diff, but no protocol package and no codegen", () => {
    const loaded = loadedBy(["diff", "--help"]);
    expect(loaded.filter(isCommandModule).map((file) => file.replace(/-\w+\.js$/, ""))).toEqual(["packages/cli/dist/diff"]);
    expect(loaded.some((file) => file.startsWith("packages/schema-diff/dist/"))).toBe(true);
    expect(loaded.filter((file) => PROTOCOL_PACKAGES.test(file) || CODEGEN.test(file))).toEqual([]);
  });

  it("validate loads the light /validate entries of the four packages, and no codegen", () => {
    const loaded = loadedBy(["validate", "--help"]);
    expect(loaded.filter(isCommandModule).map((file) => file.replace(/-\w+\.js$/, ""))).toEqual(["packages/cli/dist/validate"]);
    expect(loaded.filter((file) => PROTOCOL_PACKAGES.test(file) && file.endsWith("/index.js"))).toEqual([]);
    expect(loaded.filter((file) => PROTOCOL_PACKAGES.test(file) && file.endsWith("/validate.js"))).toHaveLength(4);
    expect(loaded.filter((file) => CODEGEN.test(file) || file.startsWith("packages/schema-diff/"))).toEqual([]);
  });

  it("validate of JSON files never loads the YAML library; a YAML file among them does", () => {
    const flow = { schema: "https://stepflow.org/schemas/v1/flow.json", name: "light", steps: [{ id: "one", component: "/builtin/eval", input: {} }] };
    writeFileSync(join(temp, "flow.json"), JSON.stringify(flow));
    writeFileSync(join(temp, "flow.yaml"), `schema: ${flow.schema}\nname: light\nsteps:\n  - id: one\n    component: /builtin/eval\n    input: {}\n`);
    // The YAML library: the `yaml` package, or (as built now) the chunk of @flowspec/runtime that bundles it.
    const yaml = (file: string) => /(^|\/)node_modules\/yaml\//.test(file) || (/^packages\/runtime\/dist\//.test(file) && readFileSync(join(repoRoot, file), "utf8").includes("node_modules/yaml/"));
    expect(loadedBy(["validate", join(temp, "flow.json"), join(temp, "flow.json")]).filter(yaml)).toEqual([]);
    expect(loadedBy(["validate", join(temp, "flow.json"), join(temp, "flow.yaml")]).some(yaml)).toBe(true);
  });

  it("graph loads the light entries of @flowspec/documents and of the four packages, and no codegen", () => {
    const loaded = loadedBy(["graph", "--help"]);
    expect(loaded.filter(isCommandModule).map((file) => file.replace(/-\w+\.js$/, ""))).toEqual(["packages/cli/dist/graph"]);
    expect(loaded.filter((file) => /^packages\/documents\/dist\/(graph|kinds)\.js$/.test(file)).sort()).toEqual(["packages/documents/dist/graph.js", "packages/documents/dist/kinds.js"]);
    expect(loaded.filter((file) => (PROTOCOL_PACKAGES.test(file) || file.startsWith("packages/documents/")) && file.endsWith("/index.js"))).toEqual([]);
    expect(loaded.filter((file) => CODEGEN.test(file) || file.startsWith("packages/schema-diff/"))).toEqual([]);
  });
});

describe("the commands flowspec --help lists before loading them", () => {
  it.each(COMMANDS.map((command) => [command.name, command] as const))("%s: listed with the usage it has once defined", async (name, { usage, load }) => {
    const command = new Command(name);
    (await load())(command, { stdout: process.stdout, stderr: process.stderr, cwd: repoRoot, env: {} }, () => {});
    expect(new Help().subcommandTerm(command)).toBe(usage ? `${name} ${usage}` : name);
  });
});

describe("flowspec without its optional peers (codegen, tsx)", () => {
  // A project with @flowspec/cli as published (package.json and its files) and its dependencies only.
  const project = join(temp, "project");
  const modules = join(project, "node_modules");
  const installedBin = join(modules, "@flowspec/cli/dist/bin.js");
  const manifest = JSON.parse(readFileSync(join(cliDir, "package.json"), "utf8")) as { files: string[]; dependencies: Record<string, string>; peerDependencies: Record<string, string> };
  beforeAll(() => {
    expect(existsSync(bin), "packages/cli/dist is missing: run npm run build").toBe(true);
    mkdirSync(join(modules, "@flowspec/cli"), { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "ci-job", private: true }));
    for (const part of ["package.json", ...manifest.files]) cpSync(join(cliDir, part), join(modules, "@flowspec/cli", part), { recursive: true });
    for (const name of Object.keys(manifest.dependencies)) {
      const installed = [join(cliDir, "node_modules", name), join(repoRoot, "node_modules", name)].find((dir) => existsSync(dir))!;
      mkdirSync(dirname(join(modules, name)), { recursive: true });
      symlinkSync(installed, join(modules, name), "dir");
    }
    writeFileSync(join(project, "flow.json"), JSON.stringify({ schema: "https://stepflow.org/schemas/v1/flow.json", steps: [{ id: "a", component: "/builtin/eval", input: {} }], output: { $from: { step: "a" } } }));
    writeFileSync(join(project, "schema.json"), JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" }));
    writeFileSync(join(project, "components.ts"), "export default { echo: { handler: (input: unknown) => input } };\n");
    writeFileSync(join(project, "components.mjs"), "export default { echo: { handler: (input) => input } };\n");
  });
  const flowspec = (...args: string[]) => spawnSync(process.execPath, [installedBin, ...args], { cwd: project, input: "", encoding: "utf8" });

  it("has none of them installed (else this test would prove nothing)", () => {
    // Every folder Node looks in for a package, from the installed CLI up to the file system's root.
    const lookups = createRequire(installedBin).resolve.paths("x")!;
    for (const peer of Object.keys(manifest.peerDependencies)) expect(lookups.filter((dir) => existsSync(join(dir, peer))), peer).toEqual([]);
  });

  it.each([
    ["validate", ["validate", "flow.json"]],
    ["diff", ["diff", "schema.json", "schema.json"]],
    ["graph as Mermaid", ["graph", "flow.json"]],
    ["graph as SVG", ["graph", "flow.json", "--format", "svg"]],
    ["stepflow serve of a JavaScript module", ["stepflow", "serve", "components.mjs"]],
  ])("%s runs", (_name, args) => {
    const run = flowspec(...args);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it.each([
    [["codegen", "--schemas", ".", "--out", "out"], "codegen needs @flowspec/codegen", "@flowspec/codegen"],
    [["stepflow", "serve", "components.ts"], "components.ts: loading TypeScript needs tsx", "tsx"],
  ])("%j exits 2 naming the install command", (args, needs, peer) => {
    const run = flowspec(...args);
    expect(run.stderr).toBe(`flowspec: ${needs}, an optional peer dependency of @flowspec/cli that is not installed; install it with: npm i -D ${peer}\n`);
    expect(run.status).toBe(2);
  });
});
