import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusDir } from "../../../test/support.js";
import { cli } from "./support.js";

const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "stepflow-cli-"));
  const files: Record<string, string> = {
    "stepflow-config.yml": `plugins:\n  builtin:\n    type: builtin\nroutes:\n  "/builtin/{*component}":\n    - plugin: builtin\n`,
    "greet.yaml": `schema: ${SCHEMA}
name: greet
description: says hello
steps:
  - id: hello
    component: /builtin/create_messages
    input:
      user_prompt: { $from: { workflow: input }, path: name }
output: { $from: { step: hello }, path: "$.messages[0].content" }
`,
    "syntax.yaml": `schema: ${SCHEMA}\nsteps:\n  - id: a\n    component: [unclosed\n`,
    "unknown.yaml": `schema: ${SCHEMA}
name: unknown
description: calls a component nobody serves
steps:
  - id: a
    component: /nowhere/thing
    input: {}
output: { $from: { step: a } }
`,
    "missing.yaml": `schema: ${SCHEMA}
name: missing
description: reads a field the input lacks
steps: []
output:
  value: { $from: { workflow: input }, path: "$.no.such.field" }
`,
    "cycle.yaml": `schema: ${SCHEMA}
name: cycle
description: two steps that reference each other
steps:
  - id: a
    component: /builtin/put_blob
    input: { data: { $from: { step: b } } }
  - id: b
    component: /builtin/put_blob
    input: { data: { $from: { step: a } } }
output: { $from: { step: b } }
`,
    "input.yaml": `name: from a file\nwhen: 2024-01-01T00:00:00Z\n`,
    "bad-pattern.yml": `plugins:\n  builtin:\n    type: builtin\nroutes:\n  "builtin/{*component}":\n    - plugin: builtin\n`,
    "bad-plugin.yml": `plugins:\n  remote:\n    type: stepflow\n    transport: http\nroutes:\n  "/remote/{*component}":\n    - plugin: remote\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
});

describe("flowspec stepflow run", () => {
  it("prints the FlowResult as JSON (--input)", async () => {
    const { code, stdout } = await cli(["stepflow", "run", "greet.yaml", "--input", '{"name":"Ada"}'], dir);
    expect(JSON.parse(stdout)).toEqual({ outcome: "success", result: "Ada" });
    expect(code).toBe(0);
  });

  it("reads --input-file as YAML 1.2 (timestamps stay strings)", async () => {
    const { stdout } = await cli(["stepflow", "run", "greet.yaml", "--input-file", "input.yaml"], dir);
    expect(JSON.parse(stdout)).toEqual({ outcome: "success", result: "from a file" });
  });

  it("uses --config, else the config next to the flow", async () => {
    const corpus = corpusDir("stepflow");
    const { stdout } = await cli(["stepflow", "run", join(corpus, "tests/mock/basic.yaml"), "--input", '{"name":"a"}']);
    expect(JSON.parse(stdout)).toEqual({ outcome: "success", result: { name: "b", x: 1, y: 2 } });
    const other = await cli(["stepflow", "run", join(corpus, "tests/mock/basic.yaml"), "--input", '{"name":"a"}', "--config", join(corpus, "tests/stepflow-config.yml")]);
    expect(JSON.parse(other.stdout)).toEqual({ outcome: "failed", error: { code: 500, message: "Flow execution failed: error routing component" } });
  });

  it("a YAML syntax error: exit 2 with file:line:column", async () => {
    const { code, stdout, stderr } = await cli(["stepflow", "run", "syntax.yaml"], dir);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^flowspec: syntax\.yaml:\d+:\d+: /);
    expect(code).toBe(2);
  });

  it("an unknown component: the runtime's result, and where on stderr", async () => {
    const { code, stdout, stderr } = await cli(["stepflow", "run", "unknown.yaml"], dir);
    expect(JSON.parse(stdout)).toEqual({ outcome: "failed", error: { code: 500, message: "Flow execution failed: error routing component" } });
    expect(stderr).toBe('flowspec: unknown.yaml:6:16 /steps/0/component: error routing component: cannot route "/nowhere/thing": no route pattern matches (patterns: /builtin/{*component})\n');
    expect(code).toBe(1);
  });

  it("a path into a missing field: failed to resolve value, at the reference", async () => {
    const { stdout, stderr } = await cli(["stepflow", "run", "missing.yaml", "--input", "{}"], dir);
    expect(JSON.parse(stdout)).toEqual({ outcome: "failed", error: { code: 500, message: "Flow execution failed: failed to resolve value" } });
    expect(stderr).toBe('flowspec: missing.yaml:6:10 /output/value: failed to resolve value: $.no: the object has no field "no" (in the input)\n');
  });

  it("a reference cycle through $from: error analyzing workflow, at the reference to the later step", async () => {
    const { stdout, stderr } = await cli(["stepflow", "run", "cycle.yaml"], dir);
    expect(JSON.parse(stdout)).toEqual({ outcome: "failed", error: { code: 500, message: "Flow execution failed: error analyzing workflow" } });
    expect(stderr).toContain("flowspec: cycle.yaml:7:37 /steps/0/input/data/$from/step: error analyzing workflow:");
    expect(stderr).toContain('step "a" references step "b", which is defined later');
  });

  it("bad usage", async () => {
    expect((await cli(["stepflow", "run", "greet.yaml", "--input", "{nope"], dir)).stderr).toContain("--input is not valid JSON");
    expect((await cli(["stepflow", "run", "greet.yaml", "--input", "1", "--input-file", "input.yaml"], dir)).code).toBe(2);
    expect((await cli(["stepflow", "run", "absent.yaml"], dir)).stderr).toContain("absent.yaml: cannot read: ENOENT");
  });

  it.each([["run", "greet.yaml", "--input", "{}"], ["check", "greet.yaml"]])("a --config that is a folder: exit 2 naming it (stepflow %s)", async (...args) => {
    const { code, stderr } = await cli(["stepflow", ...args, "--config", "."], dir);
    expect(stderr).toBe("flowspec: cannot read config .: EISDIR\n");
    expect(code).toBe(2);
  });

  it.each([
    ["bad-pattern.yml", /bad-pattern\.yml:6:5 \/routes\/builtin~1\{\*component\}: route pattern "builtin\/\{\*component\}": must start with "\/"/],
    ["bad-plugin.yml", /bad-plugin\.yml:3:5 \/plugins\/remote\/url: a stepflow plugin with transport http needs a url/],
  ])("a config error found when the plugins and routes are set up (%s): exit 2 with file:line:column", async (config, message) => {
    const run = await cli(["stepflow", "run", "greet.yaml", "--input", "{}", "--config", config], dir);
    expect(run.stderr).toMatch(message);
    expect(run.code).toBe(2);
    const check = await cli(["stepflow", "test", "greet.yaml", "--config", config], dir);
    expect(check.stdout).toMatch(message);
    expect(check.code).toBe(1);
  });
});

describe("flowspec stepflow check", () => {
  it("a clean flow", async () => {
    const { code, stdout } = await cli(["stepflow", "check", "greet.yaml"], dir);
    expect(stdout).toBe("ok    greet.yaml: 0 error(s), 0 warning(s)\n");
    expect(code).toBe(0);
  });

  it("a reference to a later step, located", async () => {
    const { code, stdout } = await cli(["stepflow", "check", "cycle.yaml"], dir);
    expect(stdout).toContain(
      'cycle.yaml:7:37 /steps/0/input/data/$from/step: error: step "a" references step "b", which is defined later (/steps/1); a step may only reference earlier steps [later-step]',
    );
    expect(code).toBe(1);
  });

  it("an unknown component, with --config", async () => {
    const plain = await cli(["stepflow", "check", "unknown.yaml"], dir);
    expect(plain.code).toBe(0);
    const { code, stdout } = await cli(["stepflow", "check", "unknown.yaml", "--config", "stepflow-config.yml"], dir);
    expect(stdout).toContain('unknown.yaml:6:16 /steps/0/component: error: no route serves component "/nowhere/thing"');
    expect(code).toBe(1);
  });

  it("a YAML syntax error is a usage error with its location", async () => {
    const { code, stderr } = await cli(["stepflow", "check", "syntax.yaml"], dir);
    expect(stderr).toMatch(/^flowspec: syntax\.yaml:\d+:\d+: /);
    expect(code).toBe(2);
  });

  it("schema errors and invalid paths are reported, located; --format json", async () => {
    const corpus = corpusDir("stepflow");
    const { code, stdout } = await cli(["stepflow", "check", join(corpus, "load-tests/workflows/rust-builtin-messages.json"), "--format", "json"]);
    const report = JSON.parse(stdout);
    expect(report.valid).toBe(false);
    expect(report.files[0].diagnostics).toEqual([expect.objectContaining({ level: "error", rule: "schema", path: "/schema", message: 'missing required property "schema"', location: expect.stringMatching(/rust-builtin-messages\.json:1:1$/) })]);
    expect(code).toBe(1);
  });

  it("every corpus flow with a schema checks without errors", async () => {
    const corpus = corpusDir("stepflow");
    const { readdirSync } = await import("node:fs");
    const flows = (readdirSync(corpus, { recursive: true }) as string[]).filter((p) => /\.ya?ml$/.test(p) && !/stepflow-config/.test(p)).map((p) => join(corpus, p));
    const { code, stdout } = await cli(["stepflow", "check", ...flows]);
    expect(stdout).not.toMatch(/^error/m);
    expect(code).toBe(0);
  });
});
