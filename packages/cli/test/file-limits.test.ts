import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corpusDir, repoRoot } from "../../../test/support.js";
import { cli } from "./support.js";

// Every command reads its files through one bounded reader: regular files only, at most 128 MiB,
// in UTF-8, and no document nested more than 256 levels deep or too long to check without
// exhausting the stack.
const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const bin = join(repoRoot, "packages/cli/src/bin.ts");
let dir: string;

/** A file of `dir` with `text`, in Latin-1: its "é" is the byte 0xE9, which is not UTF-8. */
function latin1(name: string, text: string): void {
  writeFileSync(join(dir, name), Buffer.from(text, "latin1"));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "flowspec-file-limits-"));
  latin1("flow.json", `{\n  "schema": "${SCHEMA}",\n  "name": "café",\n  "steps": []\n}\n`);
  latin1("flow.yaml", `schema: ${SCHEMA}\nname: café\nsteps: []\n`);
  latin1("agents.json", `{"agentsJson": "0.1.0", "info": {"title": "café", "version": "1", "description": "d"}, "sources": [], "flows": []}`);
  latin1("tree.json", `{"task": {"id": "t", "name": "café", "status": "pending"}, "children": []}`);
  latin1("schema.json", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "café"}`);
  writeFileSync(join(dir, "ok-schema.json"), `{"$schema": "https://json-schema.org/draft/2020-12/schema"}`);
  writeFileSync(join(dir, "ok.json"), JSON.stringify({ schema: SCHEMA, name: "ok", description: "fine", steps: [], output: null }));
  const deep = 3000;
  writeFileSync(join(dir, "deep.json"), `{"schema": "${SCHEMA}", "steps": [{"id": "a", "component": "/builtin/eval", "input": {"x": ${"[".repeat(deep)}${"]".repeat(deep)}}}]}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a file that is not UTF-8", () => {
  it.each([
    { command: ["validate", "flow.json"], where: "flow.json:3:15" },
    { command: ["graph", "flow.yaml"], where: "flow.yaml:2:10" },
    { command: ["stepflow", "check", "flow.yaml"], where: "flow.yaml:2:10" },
    { command: ["stepflow", "run", "flow.json"], where: "flow.json:3:15" },
    { command: ["stepflow", "run", "ok.json", "--input-file", "flow.yaml"], where: "flow.yaml:2:10" },
    { command: ["agents-json", "lint", "agents.json"], where: "agents.json:1:47" },
    { command: ["agents-json", "tools", "agents.json"], where: "agents.json:1:47" },
    { command: ["apflow", "check", "tree.json"], where: "tree.json:1:34" },
    { command: ["diff", "schema.json", "ok-schema.json"], where: "schema.json:1:74" },
  ])("exits 2 from $command with file:line:column of the first bad byte", async ({ command, where }) => {
    const run = await cli(command, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`${where.replace(/\./g, "\\.")}: invalid UTF-8 \\(byte 0xE9 at byte offset \\d+\\)\\n$`));
  });

  it("is reported by validate, which still validates the other files", async () => {
    const run = await cli(["validate", "flow.json", "ok.json"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("flowspec: flow.json:3:15: invalid UTF-8 (byte 0xE9 at byte offset 73)\n");
    expect(run.stdout).toBe("valid   ok.json: stepflow:Flow (strict, detected)\n");
  });

  it("is a failed flow for stepflow test, with its location", async () => {
    const run = await cli(["stepflow", "test", "flow.yaml", "--format", "json"], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).files[0].error).toMatch(/^flow\.yaml:2:10: invalid UTF-8/);
  });
});

describe("JSON nested deeper than 256 levels", () => {
  it.each([{ command: ["stepflow", "check"] }, { command: ["stepflow", "run"] }, { command: ["graph"] }, { command: ["validate"] }])("is refused by $command with file:line:column, not a stack overflow", async ({ command }) => {
    const run = await cli([...command, "deep.json"], dir);
    expect(run.stderr).toBe("flowspec: deep.json:1:377: nested more than 256 levels deep\n");
    expect(run.code).toBe(2);
  });
});

describe("a flow of 150,000 steps", () => {
  let flow: string;
  beforeAll(() => {
    // Every step refers to a step that does not exist (a diagnostic and a graph warning each) and
    // is skipped if the one before is truthy (a styled arrow each).
    const steps = Array.from({ length: 150_000 }, (_, i) => ({
      id: `s${i}`,
      component: "/builtin/eval",
      input: { v: { $from: { step: `missing${i}` } } },
      ...(i > 0 ? { skipIf: { $from: { step: `s${i - 1}` } } } : {}),
    }));
    flow = join(dir, "steps.json");
    writeFileSync(flow, JSON.stringify({ schema: SCHEMA, name: "big", description: "d", steps, output: { $from: { step: "s149999" } } }));
  });

  it("is checked: every diagnostic, located, and no stack overflow from spreading them", async () => {
    const run = await cli(["stepflow", "check", "steps.json", "--format", "json"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const [report] = JSON.parse(run.stdout).files;
    const undefinedSteps = report.diagnostics.filter((d: { rule: string }) => d.rule === "undefined-step");
    expect(undefinedSteps).toHaveLength(150_000);
    expect(undefinedSteps[149_999]).toMatchObject({ rule: "undefined-step", path: "/steps/149999/input/v/$from/step", location: expect.stringMatching(/^steps\.json:1:\d+$/) });
  }, 120_000);

  it("is drawn, with a located warning per missing step and no stack overflow from spreading the arrows' styles", async () => {
    const run = await cli(["graph", "steps.json"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").filter((line) => line.startsWith("  linkStyle "))).toHaveLength(149_999);
    const warnings = run.stderr.trimEnd().split("\n");
    expect(warnings).toHaveLength(150_000);
    expect(warnings[149_999]).toMatch(/^warning steps\.json:1:\d+ \/steps\/149999\/input\/v\/\$from\/step: references step "missing149999"/);
  }, 120_000);
});

// In child processes with a time limit: reading a FIFO used to wait for a writer forever, and
// reading /dev/zero to fill memory until Node gave up.
describe.skipIf(process.platform === "win32")("paths that are not regular files", () => {
  // From the repository, where tsx finds the sources; files by absolute path.
  const flowspec = (...argv: string[]) => spawnSync(process.execPath, ["--import", "tsx", bin, ...argv], { cwd: repoRoot, encoding: "utf8", timeout: 60_000 });
  const fifo = join(tmpdir(), `flowspec-pipe-${process.pid}.json`);
  afterAll(() => rmSync(fifo, { force: true }));
  beforeAll(() => {
    execFileSync("mkfifo", [fifo]);
    const giphy = JSON.parse(readFileSync(join(corpusDir("agents-json"), "agents_json__giphy__agents.json"), "utf8"));
    writeFileSync(join(dir, "giphy-agents.json"), JSON.stringify(giphy));
    for (const [name, path] of [["fifo-agents.json", fifo], ["zero-agents.json", "/dev/zero"]]) {
      writeFileSync(join(dir, name!), JSON.stringify({ ...giphy, sources: [{ id: "giphy", path }] }));
    }
  });

  it.each([
    { argv: () => ["validate", fifo], message: `flowspec: ${fifo}: cannot read: a FIFO, not a regular file\n` },
    { argv: () => ["stepflow", "check", "/dev/zero"], message: "flowspec: /dev/zero: cannot read: a character device, not a regular file\n" },
    { argv: () => ["agents-json", "lint", join(dir, "giphy-agents.json"), "--openapi", `giphy=${fifo}`], message: `flowspec: --openapi "giphy=${fifo}": cannot read: not a regular file\n` },
  ])("named on the command line, are refused at once: $argv", ({ argv, message }) => {
    const run = flowspec(...argv());
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe(message);
    expect(run.status).toBe(2);
  });

  it.each([
    { file: "fifo-agents.json", path: () => fifo, what: "a FIFO" },
    { file: "zero-agents.json", path: () => "/dev/zero", what: "a character device" },
  ])("as an agents.json source ($what), fail the run at once instead of hanging or reading without end", ({ file, path, what }) => {
    const run = flowspec("agents-json", "run", join(dir, file), "search_gifs_flow", "--input", "{}");
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain(`cannot read ${path()}: ${what}, not a regular file`);
    expect(run.status).toBe(1);
  });
});
