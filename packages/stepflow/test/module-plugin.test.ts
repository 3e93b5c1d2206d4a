import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blobId, ConfigError, createRouter, runFlow, runTestCases, type ExecutionError, type StepflowConfig } from "../src/index.js";
import { repoRoot } from "../../../test/support.js";
import { fail500, flow, fromInput, ok, step } from "./helpers.js";

const fixtures = join(import.meta.dirname, "fixtures");
const config = (module: string): StepflowConfig => ({ plugins: { m: { type: "module", module } }, routes: { "/m/{*component}": [{ plugin: "m" }] } });
const routerFor = (module: string) => createRouter({ config: config(module), workingDirectory: fixtures });

/** Runs one step of `component` on the input; resolves to the result and the execution error's detail, if any. */
async function runOne(module: string, component: string, input: unknown) {
  const router = routerFor(module);
  let error: ExecutionError | undefined;
  try {
    const result = await runFlow(flow([step("s", component, fromInput())], { $from: { step: "s" } }), input, { router, onExecutionError: (e) => (error = e) });
    return { result, detail: error?.detail };
  } finally {
    await router.close();
  }
}

describe("type: module plugins: a module's components in this process", () => {
  it("serves the default export; blobs and nested flows are the engine's, names get their leading /", async () => {
    const router = routerFor("./counted-components.mjs");
    const f = flow(
      [step("store", "/m/store", fromInput()), step("nested", "/m/nested", "hi"), step("echo", "/m/echo", { x: 1 })],
      { store: { $from: { step: "store" } }, nested: { $from: { step: "nested" } }, echo: { $from: { step: "echo" } } },
    );
    const result = await runFlow(f, { a: 1 }, { router });
    const id = await blobId({ a: 1 });
    expect(result).toEqual(ok({ store: { blob_id: id, back: { a: 1 } }, nested: ok("hi"), echo: { x: 1 } }));
    expect(await router.blobs.get(id)).toEqual({ a: 1 });
    expect((await router.plugin("m")!.list!()).map((c) => c.component).sort()).toEqual(["/echo", "/fails", "/loads", "/nested", "/store", "/typed"]);
    await router.close();
  });

  it("imports a module once per process, however many routers name it", async () => {
    const first = await runOne("./counted-components.mjs", "/m/loads", null);
    const second = await runOne(join(fixtures, "counted-components.mjs"), "/m/loads", null);
    expect(first.result).toEqual(second.result);
    expect(first.result).toEqual(ok(1));
  });

  it("imports a package by its name, and nothing before a step routes to it", async () => {
    const router = createRouter({ config: config("@flowspec/stepflow-python"), workingDirectory: fixtures });
    expect(await router.plugin("m")!.list!()).toEqual([]);
    await router.close();
    // The UDF component refuses this input before it would start Python.
    expect((await runOne("@flowspec/stepflow-python", "/m/udf", { blob_id: 1, input: {} })).detail).toContain('/udf: plugin "m": /blob_id: must be the id of the blob holding the UDF');
  });

  it("takes the default of a CommonJS module compiled from ESM", async () => {
    expect((await runOne("./commonjs-components.cjs", "/m/cjs", null)).result).toEqual(ok("from commonjs"));
  });

  it("reports a component's errors with the plugin's name, input checks included", async () => {
    expect(await runOne("./counted-components.mjs", "/m/fails", null)).toMatchObject({ result: fail500('step "s" failed'), detail: expect.stringContaining('/fails: plugin "m": deliberate') });
    expect((await runOne("./counted-components.mjs", "/m/typed", "x")).detail).toContain('plugin "m": Invalid input for /typed: (root): must be a number');
    expect((await runOne("./counted-components.mjs", "/m/typed", 1)).result).toEqual(ok(2));
    expect((await runOne("./counted-components.mjs", "/m/unknown", 1)).detail).toContain('plugin "m": Component not found: /unknown');
  });

  it("a module that cannot be used fails its steps (and test cases) with the reason; it is never skipped", async () => {
    expect((await runOne("./missing.mjs", "/m/x", null)).detail).toMatch(/m: module "\.\/missing\.mjs" cannot be imported: /);
    expect((await runOne("./no-handler-components.mjs", "/m/x", null)).detail).toContain('m: module "./no-handler-components.mjs" exports component "/x" without a handler function');
    const withCase = flow([step("s", "/m/x", null)], { $from: { step: "s" } }, { test: { cases: [{ name: "c", input: null, output: ok(null) }] } });
    const [report] = await runTestCases(withCase, { router: routerFor("./no-handler-components.mjs") });
    expect(report).toMatchObject({ status: "failed", detail: expect.stringContaining("without a handler function") });
  });

  // The CommonJS build turns import() into require(), which takes a path, not a file URL (npm test builds first).
  it.each(["esm", "cjs"] as const)("works from the built package under plain Node (%s)", (kind) => {
    const body = `
      const run = async (module, component) => {
        const router = m.createRouter({ config: { plugins: { m: { type: "module", module } }, routes: { "/m/{*component}": [{ plugin: "m" }] } }, workingDirectory: ${JSON.stringify(fixtures)} });
        const flow = { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [{ id: "s", component, input: "x" }], output: { $from: { step: "s" } } };
        return m.runFlow(flow, null, { router });
      };
      Promise.all([run("./commonjs-components.cjs", "/m/cjs"), run("./counted-components.mjs", "/m/echo")]).then((results) => console.log(JSON.stringify(results)));`;
    const script = kind === "esm" ? `import * as m from "@flowspec/stepflow"; ${body}` : `const m = require("@flowspec/stepflow"); ${body}`;
    const out = execFileSync(process.execPath, kind === "esm" ? ["--input-type=module", "-e", script] : ["-e", script], { cwd: repoRoot, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([ok("from commonjs"), ok("x")]);
  });

  it("needs a module to import", () => {
    expect(() => createRouter({ config: { plugins: { m: { type: "module" } }, routes: {} } })).toThrow(ConfigError);
    expect(() => createRouter({ config: { plugins: { m: { type: "module" } }, routes: {} } })).toThrow("/plugins/m/module: a module plugin needs module");
  });
});
