import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir } from "../../../test/support.js";
import { cli } from "./support.js";

describe("flowspec stepflow test", () => {
  it("runs the corpus: every case printed, then the closing count line", async () => {
    const { code, stdout } = await cli(["stepflow", "test", corpusDir("stepflow")]);
    const lines = stdout.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("30 passed, 0 failed, 29 skipped");
    expect(lines.filter((l) => l.startsWith("PASS "))).toHaveLength(30);
    expect(lines.filter((l) => l.startsWith("SKIP "))).toHaveLength(29);
    expect(stdout).toContain("tests/mock/basic.yaml › test with input 'world'");
    expect(code).toBe(0);
  });

  it("exits 1 and shows expected, actual and the error when a case fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepflow-cli-"));
    writeFileSync(
      join(dir, "flow.yaml"),
      `schema: https://stepflow.org/schemas/v1/flow.json
steps: []
output: { $from: { workflow: input }, path: "$.name" }
test:
  cases:
    - name: right
      input: { name: a }
      output: { outcome: success, result: a }
    - name: wrong
      input: {}
      output: { outcome: success, result: a }
`,
    );
    const { code, stdout } = await cli(["stepflow", "test", "flow.yaml"], dir);
    expect(stdout).toContain("PASS  flow.yaml › right");
    expect(stdout).toContain("FAIL  flow.yaml › wrong");
    expect(stdout).toContain('actual:   {"outcome":"failed","error":{"code":500,"message":"Flow execution failed: failed to resolve value"}}');
    expect(stdout).toContain('error:    /output: failed to resolve value: $.name: the object has no field "name"');
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 1 failed, 0 skipped");
    expect(code).toBe(1);
  });

  it("reports a flow it cannot read as a failure with its location", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stepflow-cli-"));
    writeFileSync(join(dir, "bad.yaml"), "schema: https://stepflow.org/schemas/v1/flow.json\nsteps: [\n");
    const { code, stdout } = await cli(["stepflow", "test", "bad.yaml", "--format", "text"], dir);
    expect(stdout).toMatch(/^ERROR bad\.yaml: bad\.yaml:\d+:\d+: /m);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("0 passed, 1 failed, 0 skipped");
    expect(code).toBe(1);
  });

  it("--config replaces the config found next to the flow", async () => {
    const corpus = corpusDir("stepflow");
    const { stdout } = await cli(["stepflow", "test", join(corpus, "tests/basic.yaml"), "--config", join(corpus, "tests/builtins/stepflow-config.yml")]);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("2 passed, 0 failed, 0 skipped");
  });

  it.each([
    ["a missing --config", () => "/no/such/stepflow-config.yml", /^flowspec: cannot read config \/no\/such\/stepflow-config\.yml: ENOENT\n$/],
    ["a --config that is a folder", () => tmpdir(), /^flowspec: cannot read config .*: EISDIR\n$/],
    ["a --config with a syntax error", () => {
      const dir = mkdtempSync(join(tmpdir(), "stepflow-cli-"));
      writeFileSync(join(dir, "broken.yml"), "plugins:\n  builtin: {type: builtin\n");
      return join(dir, "broken.yml");
    }, /^flowspec: config: .*broken\.yml:\d+:\d+/],
  ])("%s is a usage error (exit 2), not a failure of every flow", async (_name, config, message) => {
    const { code, stdout, stderr } = await cli(["stepflow", "test", join(corpusDir("stepflow"), "tests/mock"), "--config", config()]);
    expect(stderr).toMatch(message);
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("a missing path is a usage error", async () => {
    const { code, stderr } = await cli(["stepflow", "test", "/no/such/dir"]);
    expect(code).toBe(2);
    expect(stderr).toContain("cannot read");
  });
});

describe("flowspec stepflow usage", () => {
  it("a missing argument is a usage error, not an exit of the process", async () => {
    const { code, stderr } = await cli(["stepflow", "test"]);
    expect(code).toBe(2);
    expect(stderr).toContain("missing required argument 'paths'");
  });

  it("--help lists the commands", async () => {
    const { code, stdout } = await cli(["stepflow", "--help"]);
    expect(stdout).toMatch(/test \[options\] <paths\.\.\.>/);
    expect(stdout).toMatch(/check\|validate \[options\] \[flows\.\.\.\]/);
    expect(stdout).toMatch(/run \[options\] \[flow\]/);
    expect(stdout).toMatch(/list-components \[options\]/);
    expect(code).toBe(0);
  });
});
