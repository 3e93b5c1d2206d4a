import { beforeAll, describe, expect, it } from "vitest";
import { testPaths, type TestSummary } from "../src/node.js";
import { corpusDir } from "../../../test/support.js";

const corpus = corpusDir("stepflow");

/** The corpus files whose cases need Python (a stepflow_py server, UDFs, the loop-components server) or the Python HTTP test server (§8). */
const PYTHON = [
  "examples/basic/workflow.yaml",
  "examples/eval/math-eval.yaml",
  "examples/loop-components/builtin_iterate.yaml",
  "examples/loop-components/iterate.yaml",
  "examples/loop-components/map_example.yaml",
  "tests/python/blob_integration.yaml",
  "tests/python/blob_simple.yaml",
  "tests/python/udf_function.yaml",
  "tests/python/udf_simple.yaml",
  "tests/python/udf_text_processing.yaml",
];
const HTTP = ["tests/http/basic_http.yaml", "tests/http/bidirectional_http.yaml"];

describe("stepflow test over the upstream corpus (§8)", () => {
  let summary: TestSummary;
  const file = (name: string) => summary.files.find((f) => f.file.endsWith(name));
  beforeAll(async () => {
    summary = await testPaths([corpus]);
  });

  it("passes the 30 builtin and mock cases, fails none, skips the 29 that need Python", () => {
    const lines = summary.files.flatMap((f) => f.cases.map((c) => `${c.status} ${f.file.slice(corpus.length)} > ${c.name}: ${c.reason ?? ""} ${c.detail ?? ""}`));
    expect(summary.files.filter((f) => f.error)).toEqual([]);
    expect({ passed: summary.passed, failed: summary.failed, skipped: summary.skipped }, lines.join("\n")).toEqual({ passed: 30, failed: 0, skipped: 29 });
    expect(summary.files).toHaveLength(28);
  });

  it("skips only cases of the Python and HTTP groups, each with its reason", () => {
    const skipped = summary.files.filter((f) => f.cases.some((c) => c.status === "skipped")).map((f) => f.file.slice(corpus.length));
    expect(skipped.sort()).toEqual([...PYTHON, ...HTTP].sort());
    for (const name of PYTHON) {
      for (const c of file(name)!.cases) {
        expect(c.status).toBe("skipped");
        expect(c.reason).toMatch(/^needs components no configured plugin can serve: .*"\/python\//);
      }
    }
    for (const c of file("tests/python/udf_simple.yaml")!.cases) expect(c.reason).toContain('plugin "python" needs the command "uv", which is not installed');
    // /python/udf is reached only inside the nested flow given to /builtin/eval.
    expect(file("examples/eval/math-eval.yaml")!.cases[0]!.reason).toContain('"/python/udf": plugin "python" needs the command "uv"');
    for (const name of HTTP) for (const c of file(name)!.cases) expect(c.reason).toBe('test server "test_http" needs the command "uv", which is not installed (not found on PATH)');
  });

  it("runs builtin-only flows whose config also names a Python plugin (plugins start lazily)", () => {
    for (const name of ["examples/eval/simple-eval.yaml", "examples/eval/test-builtins.yaml", "examples/file-loading/test-load.yaml"]) {
      expect(file(name)!.cases.map((c) => c.status)).toEqual(["passed"]);
    }
  });

  it("uses each flow's own config, as upstream finds it", () => {
    expect(file("tests/mock/basic.yaml")!.config).toMatch(/tests\/mock\/stepflow-config\.yml$/);
    expect(file("tests/basic.yaml")!.config).toMatch(/tests\/stepflow-config\.yml$/);
    expect(file("tests/empty/empty_flow.yaml")!.config).toBeUndefined();
    expect(file("tests/http/basic_http.yaml")!.config).toContain("(test.config)");
  });
});
