// The CLI keeps serde_json's integer/float distinction (issue 21, item 2): a float read from the
// input or the flow is printed, written and compared as a float (`1.0`), an integer as an integer.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support.js";

const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "stepflow-floats-"));
  writeFileSync(join(dir, "echo.yaml"), `schema: ${SCHEMA}\nsteps: []\noutput: { given: { $from: { workflow: input } }, literal: 2.0 }\n`);
});

describe("flowspec stepflow: floats stay floats", () => {
  it.each([
    [["--input-json", '{"a": 1.0, "b": 1, "c": 1e3, "d": 0.5}']],
    [["--input-yaml", "a: 1.0\nb: 1\nc: 1e3\nd: 0.5"]],
  ])("run prints the result with its floats (%j)", async (flags) => {
    const { code, stdout } = await cli(["stepflow", "run", "echo.yaml", ...flags], dir);
    expect(stdout.replace(/\s+/g, "")).toBe('{"outcome":"success","result":{"given":{"a":1.0,"b":1,"c":1000.0,"d":0.5},"literal":2.0}}');
    expect(code).toBe(0);
  });

  it("run --output writes floats as floats in JSON and in YAML", async () => {
    await cli(["stepflow", "run", "echo.yaml", "--input-json", '{"a": 1.0, "b": -3.0, "c": 1}', "--output", "out.json"], dir);
    expect(readFileSync(join(dir, "out.json"), "utf8").replace(/\s+/g, "")).toBe('{"outcome":"success","result":{"given":{"a":1.0,"b":-3.0,"c":1},"literal":2.0}}');
    await cli(["stepflow", "run", "echo.yaml", "--input-json", '{"a": 1.0, "b": -3.0, "c": 1}', "--output", "out.yaml"], dir);
    expect(readFileSync(join(dir, "out.yaml"), "utf8")).toBe("outcome: success\nresult:\n  given:\n    a: 1.0\n    b: -3.0\n    c: 1\n  literal: 2.0\n");
  });

  it("test fails an expected 1 against an actual 1.0, shows both as they are, and --update writes the float", async () => {
    const file = join(dir, "cases.yaml");
    const cases = `test:\n  cases:\n    - name: float\n      input: 1.0\n      output: { outcome: success, result: { given: 1.0, literal: 2.0 } }\n    - name: integer expected\n      input: 1.0\n      output: { outcome: success, result: { given: 1, literal: 2.0 } }\n`;
    writeFileSync(file, readFileSync(join(dir, "echo.yaml"), "utf8") + cases);
    const run = await cli(["stepflow", "test", "cases.yaml"], dir);
    expect(run.stdout).toContain("PASS  cases.yaml › float");
    expect(run.stdout).toContain("FAIL  cases.yaml › integer expected");
    expect(run.stdout).toContain('expected: {"outcome":"success","result":{"given":1,"literal":2.0}}');
    expect(run.stdout).toContain('actual:   {"outcome":"success","result":{"given":1.0,"literal":2.0}}');
    expect(run.code).toBe(1);
    await cli(["stepflow", "test", "cases.yaml", "--update"], dir);
    expect(readFileSync(file, "utf8")).toContain("    - name: integer expected\n      input: 1.0\n      output:\n        outcome: success\n        result:\n          given: 1.0\n          literal: 2.0\n");
    expect((await cli(["stepflow", "test", "cases.yaml"], dir)).code).toBe(0);
  });
});
