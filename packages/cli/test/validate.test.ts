import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type CliIo } from "../src/index.js";
import { corpusDir, repoRoot } from "../../../test/support.js";

/** Runs `flowspec ARGS` in-process, with an empty environment, and returns what it printed and its exit code. */
async function flowspec(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: repoRoot,
    env: {},
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const stepflow = (path: string) => join(corpusDir("stepflow"), path);
const agents = (path: string) => join(corpusDir("agents-json"), path);

describe("flowspec validate", () => {
  it("detects each kind, says which it chose, and exits 0 when all files are valid", async () => {
    const run = await flowspec("validate", stepflow("tests/basic.yaml"), agents("agents_json__resend__agents.json"));
    expect(run.stdout).toContain("tests/basic.yaml: stepflow:Flow (strict, detected)");
    expect(run.stdout).toContain("agents_json__resend__agents.json: agents-json:AgentsJson (strict, detected)");
    expect(run.code).toBe(0);
  });

  it("names file:line:column, the JSON Pointer and the message of each error, and exits 1", async () => {
    const run = await flowspec("validate", agents("agents_json__theodds__agents.json"));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/agents_json__theodds__agents\.json:774:22 \/flows\/9\/fields\/parameters\/0\/items: unexpected property "items"/);
  });

  it("takes --spec and --variant", async () => {
    const run = await flowspec("validate", "--spec", "agents-json", "--variant", "compat", agents("agents_json__theodds__agents.json"));
    expect(run.stdout).toContain("agents-json:AgentsJson (compat)");
    expect(run.code).toBe(0);
  });

  it("prints JSON for machines with --format json", async () => {
    const run = await flowspec("validate", "--format", "json", stepflow("load-tests/workflows/rust-builtin-messages.json"));
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.valid).toBe(false);
    expect(report.files[0]).toMatchObject({ kind: "stepflow:Flow", variant: "strict", detected: true, valid: false });
    expect(report.files[0].errors[0]).toMatchObject({ path: "/schema", keyword: "required", line: 1, column: 1 });
  });

  it.each([
    [["validate", "does-not-exist.json"], /does-not-exist\.json: cannot read: ENOENT/],
    [["validate", "--spec", "openapi", "x.json"], /unknown --spec "openapi"/],
    [["validate", "--spec", "apflow", "--variant", "compat", join(corpusDir("apflow"), "_provenance.json")], /--variant "compat" does not exist for apflow:TaskTreeNode; its variants: strict, wire/],
    [["validate", join(corpusDir("apflow"), "_provenance.json")], /cannot tell which kind of document this is; pass --spec/],
    [["validate", "--format", "xml", stepflow("tests/basic.yaml")], /--format must be text or json/],
  ])("exits 2 for %j", async (argv, message) => {
    const run = await flowspec(...(argv as string[]));
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
  });

  it("still validates the other files when one cannot be read or recognised, then exits 2", async () => {
    const run = await flowspec("validate", "does-not-exist.json", stepflow("tests/basic.yaml"), join(corpusDir("apflow"), "_provenance.json"));
    expect(run.stdout).toContain("tests/basic.yaml: stepflow:Flow (strict, detected)");
    expect(run.stderr).toMatch(/does-not-exist\.json: cannot read: ENOENT\n.*_provenance\.json: cannot tell which kind of document this is/);
    expect(run.code).toBe(2);
    const json = await flowspec("validate", "--format", "json", "does-not-exist.json", stepflow("tests/basic.yaml"));
    const report = JSON.parse(json.stdout);
    expect(report.valid).toBe(false);
    expect(report.files[0]).toEqual({ file: "does-not-exist.json", valid: false, problem: "does-not-exist.json: cannot read: ENOENT" });
    expect(report.files[1]).toMatchObject({ kind: "stepflow:Flow", valid: true });
    expect(json.code).toBe(2);
  });

  it("exits 2 for an unparsable file, with the parser's position", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowspec-validate-"));
    writeFileSync(join(dir, "broken.yaml"), "schema: https://stepflow.org/schemas/v1/flow.json\nsteps: [\n  - id: a\n");
    const run = await flowspec("validate", join(dir, "broken.yaml"));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/broken\.yaml:3:3: /);
    rmSync(dir, { recursive: true });
  });

  it("says how many errors it left out past the first 100, in text and JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowspec-validate-"));
    const steps = Array.from({ length: 150 }, (_, i) => ({ id: `s${i}` }));
    writeFileSync(join(dir, "many.json"), JSON.stringify({ schema: "https://stepflow.org/schemas/v1/flow.json", steps }));
    const run = await flowspec("validate", join(dir, "many.json"));
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1 + 100 + 1);
    expect(lines.at(-1)).toBe(`  ${join(dir, "many.json")}: … and 50 more`);
    const json = JSON.parse((await flowspec("validate", "--format", "json", join(dir, "many.json"))).stdout);
    expect(json.files[0].errors).toHaveLength(100);
    expect(json.files[0].omittedErrors).toBe(50);
    rmSync(dir, { recursive: true });
  });

  it("writes its report in few writes, not one per line, in the order of the files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flowspec-validate-"));
    const flow = JSON.stringify({ schema: "https://stepflow.org/schemas/v1/flow.json", steps: [] });
    const files = Array.from({ length: 200 }, (_, i) => join(dir, `${i}.json`));
    for (const file of files) writeFileSync(file, flow);
    const writes: [string, string][] = [];
    const io: CliIo = {
      stdout: { write: (text: string) => writes.push(["stdout", text]) },
      stderr: { write: (text: string) => writes.push(["stderr", text]) },
      cwd: repoRoot,
      env: {},
    };
    expect(await runCli(["validate", ...files.slice(0, 100), "missing.json", ...files.slice(100)], io)).toBe(2);
    // One write before the problem (on stderr, between the 100th and 101st file), one after.
    expect(writes.map(([stream]) => stream)).toEqual(["stdout", "stderr", "stdout"]);
    const printed = writes.map(([, text]) => text).join("");
    expect(printed.split("\n").slice(99, 102)).toEqual([`valid   ${files[99]}: stepflow:Flow (strict, detected)`, "flowspec: missing.json: cannot read: ENOENT", `valid   ${files[100]}: stepflow:Flow (strict, detected)`]);
    rmSync(dir, { recursive: true });
  });

  it("lists the kinds in --help", async () => {
    const run = await flowspec("validate", "--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("stepflow:Flow");
    expect(run.stdout).toContain("agent-service:CreateRunCommand");
    expect(run.stdout).toContain("variants: strict, wire");
  });

  it("prints its version", async () => {
    expect((await flowspec("--version")).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
