import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { updateTestOutputs, withTestOutputs } from "../src/files/update-outputs.js";
import { corpusDir } from "../../../test/support.js";

const newOutput = { outcome: "success", result: { a_value: 1, message: "multi\nline" } };

describe("updateTestOutputs (stepflow test --update)", () => {
  it("replaces one case's output in a copy of a corpus file and leaves every other line as written", () => {
    const dir = mkdtempSync(join(tmpdir(), "update-outputs-"));
    const file = join(dir, "empty_flow.yaml");
    copyFileSync(join(corpusDir("stepflow"), "tests/empty/empty_flow.yaml"), file);
    const before = readFileSync(file, "utf8");
    updateTestOutputs(file, [{ index: 1, output: newOutput }]);
    const after = readFileSync(file, "utf8");
    expect(parse(after).test.cases[1].output).toEqual(newOutput);
    expect(parse(after).test.cases[0]).toEqual(parse(before).test.cases[0]);
    // Comments, flow-style mappings and quoting outside the replaced entry are untouched.
    const untouched = before.slice(0, before.indexOf("    output:\n      outcome: success\n      result:\n        message: \"test message\""));
    expect(after.startsWith(untouched)).toBe(true);
    expect(after).toContain("# No steps - this is an empty flow");
    // The corpus file has no final line break, and gets none.
    expect(after.slice(untouched.length)).toBe("    output:\n      outcome: success\n      result:\n        a_value: 1\n        message: |-\n          multi\n          line");
  });

  it("adds an output after the last entry of a case that has none, keeping a trailing comment on its line", () => {
    const text = "schema: x\ntest:\n  cases:\n    - name: a\n      input: { n: 1 } # the input\n    - name: b\n";
    const out = withTestOutputs(text, [
      { index: 0, output: { outcome: "skipped" } },
      { index: 1, output: { outcome: "success", result: [1, 2] } },
    ]);
    expect(out).toBe(
      "schema: x\ntest:\n  cases:\n    - name: a\n      input: { n: 1 } # the input\n      output:\n        outcome: skipped\n    - name: b\n      output:\n        outcome: success\n        result:\n          - 1\n          - 2\n",
    );
  });

  it("writes flow-style cases and JSON files as JSON, keeping the key's quoting", () => {
    const json = '{\n  "schema": "x",\n  "test": { "cases": [ { "name": "a", "output": { "outcome": "skipped" } }, { "name": "b" } ] }\n}\n';
    const out = withTestOutputs(json, [
      { index: 0, output: { outcome: "success", result: 2 } },
      { index: 1, output: { outcome: "success", result: "x" } },
    ]);
    expect(JSON.parse(out).test.cases).toEqual([
      { name: "a", output: { outcome: "success", result: 2 } },
      { name: "b", output: { outcome: "success", result: "x" } },
    ]);
    expect(out.startsWith('{\n  "schema": "x",\n  "test": { "cases": [ { "name": "a", "output": {"outcome"')).toBe(true);
  });

  it("names the file when it has no test.cases to update", () => {
    const dir = mkdtempSync(join(tmpdir(), "update-outputs-"));
    const file = join(dir, "f.yaml");
    writeFileSync(file, "schema: x\nsteps: []\n");
    expect(() => updateTestOutputs(file, [{ index: 0, output: {} }])).toThrow(`${file}: cannot update: it has no test.cases list`);
  });
});
