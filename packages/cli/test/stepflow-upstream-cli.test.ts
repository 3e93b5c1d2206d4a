import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "@flowspec/stepflow/server";
import { corpusDir, repoRoot } from "../../../test/support.js";
import components from "../../../examples/stepflow-components/components.js";
import { MAX_STDIN_BYTES } from "../src/commands/stepflow-io.js";
import { cli } from "./support.js";

const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const BUILTIN_CONFIG = `plugins:\n  builtin:\n    type: builtin\nroutes:\n  "/builtin/{*component}":\n    - plugin: builtin\n`;
let dir: string;

/** stdin as a stream of chunks, with `isTTY` as a terminal would set it. */
function stdin(chunks: (string | Uint8Array)[], isTTY = false) {
  return Object.assign(
    (async function* () {
      yield* chunks;
    })(),
    { isTTY },
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "stepflow-upstream-cli-"));
  writeFileSync(join(dir, "stepflow-config.yml"), BUILTIN_CONFIG);
  writeFileSync(
    join(dir, "echo.yaml"),
    `schema: ${SCHEMA}\nsteps: []\noutput: { $from: { workflow: input } }\ntest:\n  cases:\n    - name: one\n      input: 1\n      output: { outcome: success, result: 1 }\n    - name: two\n      input: { b: 2, a: [1] }\n      output: { outcome: success, result: { a: [1], b: 3 } }\n    - name: three\n      input: 3\n`,
  );
});

describe("flowspec stepflow run: upstream's input and output flags", () => {
  it.each([
    [["--input-yaml", "a: 1\nwhen: 2024-01-01T00:00:00Z"], { a: 1, when: "2024-01-01T00:00:00Z" }],
    [["--input-json", '{"a": [1]}'], { a: [1] }],
    [["--input", '"x"'], "x"],
  ])("takes the input from %j", async (flags, expected) => {
    const { code, stdout } = await cli(["stepflow", "run", "echo.yaml", ...flags], dir);
    expect(JSON.parse(stdout)).toEqual({ outcome: "success", result: expected });
    expect(code).toBe(0);
  });

  it("reads --input-file as JSON or YAML by extension, and - as stdin", async () => {
    writeFileSync(join(dir, "in.json"), '{"n": 1}');
    writeFileSync(join(dir, "in.yml"), "n: 2\n");
    expect(JSON.parse((await cli(["stepflow", "run", "echo.yaml", "--input-file", "in.json"], dir)).stdout).result).toEqual({ n: 1 });
    expect(JSON.parse((await cli(["stepflow", "run", "echo.yaml", "--input-file", "in.yml"], dir)).stdout).result).toEqual({ n: 2 });
    expect(JSON.parse((await cli(["stepflow", "run", "echo.yaml", "--input-file", "-"], dir, stdin(["n: 3"], true))).stdout).result).toEqual({ n: 3 });
  });

  it("reads stdin when no input option is given and stdin is not a terminal; --stdin-format picks the parser", async () => {
    expect(JSON.parse((await cli(["stepflow", "run", "--flow", "echo.yaml"], dir, stdin(['{"a":', " 1}"]))).stdout).result).toEqual({ a: 1 });
    expect(JSON.parse((await cli(["stepflow", "run", "echo.yaml", "--stdin-format", "yaml"], dir, stdin(["a: [1, 2]\n"]))).stdout).result).toEqual({ a: [1, 2] });
    const json = await cli(["stepflow", "run", "echo.yaml", "--stdin-format", "json"], dir, stdin(["a: 1\n"]));
    expect(json.stderr).toMatch(/^flowspec: stdin is not valid JSON: 1:\d+: /);
    expect(json.code).toBe(2);
    // Empty stdin, a terminal, or no stdin at all: the input is null.
    for (const input of [stdin([]), stdin(["{}"], true), undefined]) {
      expect(JSON.parse((await cli(["stepflow", "run", "echo.yaml"], dir, input)).stdout)).toEqual({ outcome: "success", result: null });
    }
  });

  it("stops reading stdin past its byte limit", async () => {
    let read = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const endless = Object.assign(
      (async function* () {
        for (;;) {
          read += chunk.byteLength;
          yield chunk;
        }
      })(),
      { isTTY: false },
    );
    const { code, stderr } = await cli(["stepflow", "run", "echo.yaml"], dir, endless);
    expect(stderr).toBe(`flowspec: stdin: the input is larger than ${MAX_STDIN_BYTES} bytes\n`);
    expect(code).toBe(2);
    expect(read).toBe(MAX_STDIN_BYTES + chunk.byteLength);
  });

  it("writes --output as JSON or YAML by extension, and nothing to stdout", async () => {
    const json = await cli(["stepflow", "run", "echo.yaml", "--input-json", '{"a":1}', "--output", "out.json"], dir);
    expect(json).toMatchObject({ code: 0, stdout: "" });
    expect(JSON.parse(readFileSync(join(dir, "out.json"), "utf8"))).toEqual({ outcome: "success", result: { a: 1 } });
    await cli(["stepflow", "run", "echo.yaml", "--input-json", '{"a":1}', "--output", "out.yaml"], dir);
    expect(readFileSync(join(dir, "out.yaml"), "utf8")).toBe("outcome: success\nresult:\n  a: 1\n");
  });

  it("usage errors: two inputs, a bad extension for --output (before running), a flow named twice or not at all, bad YAML", async () => {
    const two = await cli(["stepflow", "run", "echo.yaml", "--input-json", "1", "--input-yaml", "2"], dir);
    expect(two).toMatchObject({ code: 2, stderr: "flowspec: give one input, not --input-json and --input-yaml\n" });
    expect(await cli(["stepflow", "run", "echo.yaml", "--output", "out.txt"], dir)).toMatchObject({ code: 2, stdout: "", stderr: "flowspec: --output out.txt: the extension must be .json, .yml or .yaml (it picks the format)\n" });
    expect((await cli(["stepflow", "run", "echo.yaml", "--flow", "echo.yaml"], dir)).code).toBe(2);
    expect((await cli(["stepflow", "run"], dir)).stderr).toBe("flowspec: name the flow file to run\n");
    expect((await cli(["stepflow", "run", "echo.yaml", "--input-yaml", "a: [1"], dir)).stderr).toMatch(/^flowspec: --input-yaml is not valid YAML: \d+:\d+: /);
  });
});

describe("flowspec stepflow validate (upstream's name for check)", () => {
  it("is check under another name, and takes --flow as upstream does", async () => {
    const check = await cli(["stepflow", "check", "echo.yaml"], dir);
    expect(check).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ok    echo\.yaml: 0 error\(s\), 2 warning\(s\)\n/) });
    expect(await cli(["stepflow", "validate", "echo.yaml"], dir)).toEqual(check);
    expect(await cli(["stepflow", "validate", "--flow", "echo.yaml"], dir)).toEqual(check);
    expect(await cli(["stepflow", "validate"], dir)).toMatchObject({ code: 2, stderr: "flowspec: name a flow file to check\n" });
  });
});

describe("flowspec stepflow test: --case, --diff, --update", () => {
  it("--case runs only the named cases (repeatable); a name no case has is a usage error", async () => {
    const one = await cli(["stepflow", "test", "echo.yaml", "--case", "one"], dir);
    expect(one.stdout).toBe("PASS  echo.yaml › one\n1 passed, 0 failed, 0 skipped\n");
    expect(one.code).toBe(0);
    const two = await cli(["stepflow", "test", "echo.yaml", "--case", "one", "--case", "two", "--format", "json"], dir);
    expect(JSON.parse(two.stdout).files[0].cases.map((c: { name: string; index: number }) => [c.name, c.index])).toEqual([["one", 0], ["two", 1]]);
    const none = await cli(["stepflow", "test", "echo.yaml", "--case", "one", "--case", "nope"], dir);
    expect(none.stderr).toBe('flowspec: --case "nope" names no test case\n');
    expect(none.code).toBe(2);
  });

  it("--diff shows a failing case as a unified diff of the expected and actual YAML", async () => {
    const { code, stdout } = await cli(["stepflow", "test", "echo.yaml", "--case", "two", "--diff"], dir);
    expect(stdout).toBe(
      [
        "FAIL  echo.yaml › two",
        "      the result differs from the expected output",
        "      --- expected",
        "      +++ actual",
        "      @@ -1,5 +1,5 @@",
        "       outcome: success",
        "       result:",
        "         a:",
        "           - 1",
        "      -  b: 3",
        "      +  b: 2",
        "0 passed, 1 failed, 0 skipped",
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
    const json = JSON.parse((await cli(["stepflow", "test", "echo.yaml", "--diff", "--format", "json"], dir)).stdout);
    expect(json.files[0].cases[2].diff).toContain("+++ actual\n@@ -0,0 +1,2 @@\n+outcome: success\n+result: 3\n");
    expect(json.files[0].cases[0].diff).toBeUndefined();
  });

  it("--update rewrites failing and missing outputs in place, keeping the rest of a corpus file's text", async () => {
    const work = mkdtempSync(join(tmpdir(), "stepflow-update-"));
    const corpusFile = join(corpusDir("stepflow"), "tests/empty/empty_flow.yaml");
    const original = readFileSync(corpusFile, "utf8");
    // The copy expects a wrong value in its second case.
    const broken = original.replace(/b: 15$/, "b: 16");
    expect(broken).not.toBe(original);
    writeFileSync(join(work, "empty_flow.yaml"), broken);
    copyFileSync(join(dir, "stepflow-config.yml"), join(work, "stepflow-config.yml"));
    const run = await cli(["stepflow", "test", "empty_flow.yaml", "--update"], work);
    expect(run.stdout).toContain("1 passed, 1 failed, 0 skipped\nupdated 1 expected output(s) in 1 file(s)\n");
    expect(run.code).toBe(1);
    const updated = readFileSync(join(work, "empty_flow.yaml"), "utf8");
    const caseStart = original.indexOf("  - name: test_empty_flow_different_values");
    const outputStart = original.indexOf("    output:", caseStart);
    expect(updated.slice(0, outputStart)).toBe(original.slice(0, outputStart));
    expect(parse(updated).test.cases[1].output).toEqual(parse(original).test.cases[1].output);
    expect(await cli(["stepflow", "test", "empty_flow.yaml"], work)).toMatchObject({ code: 0, stdout: expect.stringContaining("2 passed, 0 failed, 0 skipped") });
    expect(readFileSync(corpusFile, "utf8")).toBe(original);
  });

  it("--update fills in a case that has no expected output", async () => {
    const work = mkdtempSync(join(tmpdir(), "stepflow-update-"));
    copyFileSync(join(dir, "echo.yaml"), join(work, "echo.yaml"));
    copyFileSync(join(dir, "stepflow-config.yml"), join(work, "stepflow-config.yml"));
    await cli(["stepflow", "test", "echo.yaml", "--update", "--case", "three"], work);
    expect(readFileSync(join(work, "echo.yaml"), "utf8")).toBe(readFileSync(join(dir, "echo.yaml"), "utf8") + "      output:\n        outcome: success\n        result: 3\n");
  });
});

describe("flowspec stepflow list-components", () => {
  it("lists builtins and mock components with their routes and schemas, as text, JSON and YAML", async () => {
    const work = mkdtempSync(join(tmpdir(), "stepflow-list-"));
    writeFileSync(
      join(work, "stepflow-config.yml"),
      `plugins:\n  builtin: { type: builtin }\n  mock:\n    type: mock\n    components:\n      /one: { input_schema: { type: object }, output_schema: { type: string }, behaviors: {} }\n      /deep/two: { input_schema: {}, output_schema: {}, behaviors: {} }\nroutes:\n  "/builtin/{*component}": [{ plugin: builtin }]\n  "/mock/{component}": [{ plugin: mock }]\n`,
    );
    const json = await cli(["stepflow", "list-components", "--format", "json"], work);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout).components;
    expect(listed.find((c: { component: string }) => c.component === "/one")).toEqual({
      component: "/one",
      input_schema: { type: "object" },
      output_schema: { type: "string" },
      plugin: "mock",
      routes: [{ pathPattern: "/mock/{component}", resolvedPath: "/mock/one", conditions: [], isConditional: false }],
    });
    expect(listed.map((c: { component: string }) => c.component)).toEqual(["/create_messages", "/eval", "/get_blob", "/iterate", "/load_file", "/map", "/one", "/put_blob"]);
    const all = JSON.parse((await cli(["stepflow", "list-components", "--format", "json", "--no-hide-unreachable", "--schemas", "false"], work)).stdout).components;
    expect(all.find((c: { component: string }) => c.component === "/deep/two")).toEqual({ component: "/deep/two", plugin: "mock", routes: [] });
    const yaml = parse((await cli(["stepflow", "list-components", "--format", "yaml"], work)).stdout);
    expect(yaml.components).toEqual(listed);
    const text = await cli(["stepflow", "list-components"], work);
    expect(text.stdout).toContain('/one (plugin: mock)\n  routes:\n    /mock/one\n  input schema:\n    {\n      "type": "object"\n    }\n  output schema:\n    {\n      "type": "string"\n    }\n');
    expect(text.stdout.endsWith("8 component(s)\n")).toBe(true);
    expect((await cli(["stepflow", "list-components", "--format", "xml"], work)).code).toBe(2);
  });

  it("asks component servers over stdio and HTTP, and reports one that cannot start (exit 1)", async () => {
    const http = await serveHttp(components);
    try {
      const work = mkdtempSync(join(tmpdir(), "stepflow-list-"));
      const bin = join(repoRoot, "packages/cli/src/bin.ts");
      const module = join(repoRoot, "examples/stepflow-components/components.ts");
      writeFileSync(
        join(work, "servers.yml"),
        `plugins:\n  local:\n    type: stepflow\n    transport: stdio\n    command: ${JSON.stringify(process.execPath)}\n    args: ["--import", "tsx", ${JSON.stringify(bin)}, "stepflow", "serve", ${JSON.stringify(module)}]\n    env: { PATH: "\${PATH}" }\n  web:\n    type: stepflow\n    transport: http\n    url: ${http.url}\n  gone:\n    type: stepflow\n    transport: stdio\n    command: no-such-command-here\n    args: []\nroutes:\n  "/local/{*component}": [{ plugin: local }]\n  "/web/{*component}": [{ plugin: web }]\n  "/gone/{*component}": [{ plugin: gone }]\nworkingDirectory: ${JSON.stringify(repoRoot)}\n`,
      );
      const { code, stdout, stderr } = await cli(["stepflow", "list-components", "--config", "servers.yml", "--format", "json"], work);
      const listed = JSON.parse(stdout).components as { component: string; plugin: string; routes: { resolvedPath: string }[]; input_schema?: unknown }[];
      for (const [plugin, prefix] of [["local", "/local"], ["web", "/web"]]) {
        const fail = listed.find((c) => c.plugin === plugin && c.component === "/fail");
        expect(fail?.routes.map((r) => r.resolvedPath)).toEqual([`${prefix}/fail`]);
        expect(fail?.input_schema).toEqual({ type: "object", required: ["message"], properties: { message: { type: "string" } } });
      }
      expect(stderr).toContain('flowspec: plugin "gone": ');
      expect(stderr).toContain("no-such-command-here");
      expect(code).toBe(1);
    } finally {
      await http.close();
    }
  });
});
