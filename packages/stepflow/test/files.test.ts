import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DocumentParseError } from "@flowspec/runtime";
import { findCommand, isValidPath, neededComponents, parseFlow } from "../src/index.js";
import { findFlowFiles, loadFlowFile, resolveConfig } from "../src/node.js";
import { SCHEMA } from "./helpers.js";

const config = (name: string) => `plugins:\n  ${name}: { type: builtin }\nroutes: {}\n`;
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "stepflow-files-"));
  for (const dir of ["a", "b", "c", "d", "cwd", "bin"]) mkdirSync(join(root, dir));
  const flow = `schema: ${SCHEMA}\nsteps: []\n`;
  writeFileSync(join(root, "a/flow.yaml"), `${flow}test:\n  config:\n    plugins: { embedded: { type: builtin } }\n    routes: {}\n`);
  writeFileSync(join(root, "a/stepflow-config.test.yml"), config("testfile"));
  writeFileSync(join(root, "a/stepflow-config.yml"), config("beside"));
  writeFileSync(join(root, "b/flow.yaml"), flow);
  writeFileSync(join(root, "b/stepflow_config.test.yaml"), config("testfile"));
  writeFileSync(join(root, "b/stepflow-config.yaml"), config("beside"));
  writeFileSync(join(root, "c/flow.yaml"), flow);
  writeFileSync(join(root, "c/stepflow-config.yml"), config("one"));
  writeFileSync(join(root, "c/stepflow_config.yml"), config("two"));
  writeFileSync(join(root, "d/flow.yaml"), flow);
  writeFileSync(join(root, "d/notes.yml"), "just: yaml\n");
  writeFileSync(join(root, "cwd/stepflow-config.yml"), `${config("cwd")}workingDirectory: ../d\n`);
  writeFileSync(join(root, "bin/tool"), "#!/bin/sh\n");
  chmodSync(join(root, "bin/tool"), 0o755);
  writeFileSync(join(root, "bin/plain"), "");
});

const pluginOf = (resolved: ReturnType<typeof resolveConfig>) => Object.keys(resolved.config.plugins)[0];

describe("resolveConfig (§4.4)", () => {
  it("for tests: test.config first, then stepflow-config.test.*, then the config beside the flow", () => {
    const flowA = loadFlowFile(join(root, "a/flow.yaml")).flow;
    expect(pluginOf(resolveConfig(join(root, "a/flow.yaml"), { forTest: true, flow: flowA }))).toBe("embedded");
    expect(resolveConfig(join(root, "a/flow.yaml"), { forTest: true, flow: flowA }).workingDirectory).toBe(join(root, "a"));
    expect(pluginOf(resolveConfig(join(root, "b/flow.yaml"), { forTest: true }))).toBe("testfile");
    expect(pluginOf(resolveConfig(join(root, "b/flow.yaml")))).toBe("beside");
    expect(pluginOf(resolveConfig(join(root, "a/flow.yaml"), { flow: flowA }))).toBe("beside");
  });

  it("--config wins; two configs beside a flow are an error", () => {
    expect(pluginOf(resolveConfig(join(root, "a/flow.yaml"), { configFile: join(root, "c/stepflow-config.yml"), forTest: true }))).toBe("one");
    expect(() => resolveConfig(join(root, "c/flow.yaml"))).toThrow(/more than one stepflow-config in .*: stepflow-config\.yml, stepflow_config\.yml/);
  });

  it("falls back to the current directory (workingDirectory relative to that config), then the default", () => {
    const fromCwd = resolveConfig(join(root, "d/flow.yaml"), { cwd: join(root, "cwd") });
    expect(pluginOf(fromCwd)).toBe("cwd");
    expect(fromCwd.workingDirectory).toBe(join(root, "d"));
    const fallback = resolveConfig(join(root, "d/flow.yaml"), { cwd: join(root, "d") });
    expect(fallback).toEqual({ config: { plugins: { builtin: { type: "builtin" } }, routes: {} }, origin: undefined, workingDirectory: join(root, "d") });
  });
});

describe("findFlowFiles", () => {
  it("takes files as given and searches folders for YAML flows with the v1 schema", () => {
    expect(findFlowFiles(["d", "c/flow.yaml"], root)).toEqual(["d/flow.yaml", "c/flow.yaml"]);
  });
});

describe("findCommand", () => {
  const env = () => ({ PATH: join(root, "bin") });
  it("finds executables on PATH or by path, not plain files", async () => {
    expect(await findCommand("tool", { workingDirectory: root, env: env() })).toBe(join(root, "bin/tool"));
    expect(await findCommand("plain", { workingDirectory: root, env: env() })).toBeUndefined();
    expect(await findCommand("./bin/tool", { workingDirectory: root, env: {} })).toBe(join(root, "bin/tool"));
    expect(await findCommand("uv-that-is-not-there", { workingDirectory: root, env: env() })).toBeUndefined();
  });
});

describe("reading flows", () => {
  it("a YAML syntax error is a DocumentParseError with file:line:column", () => {
    expect(() => parseFlow(`schema: ${SCHEMA}\nsteps: [\n`, { file: "f.yaml" })).toThrow(DocumentParseError);
    expect(() => parseFlow(`schema: ${SCHEMA}\nsteps:\n  - id: a\n   component: x\n`, { file: "f.yaml" })).toThrow(/^f\.yaml:\d+:\d+: /);
  });

  it("neededComponents lists step components and those of nested flows, once each", () => {
    const flow = {
      steps: [
        { id: "a", component: "/x/a", input: { workflow: { $literal: { steps: [{ id: "n", component: "/py/n", input: { deeper: { steps: [{ id: "m", component: "/py/m" }] } } }] } } } },
        { id: "b", component: "/x/a" },
      ],
    };
    expect(neededComponents(flow)).toEqual(["/x/a", "/py/n", "/py/m"]);
  });

  it("isValidPath", () => {
    expect(isValidPath("$.a[0]")).toBe(true);
    expect(isValidPath("$a")).toBe(false);
  });
});
