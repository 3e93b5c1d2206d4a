import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/support.js";

// The built package, as users load it: a flow given as an object runs without the YAML library
// (about 70 ms of CPU to load), and the first YAML text loads it, in the ESM and the CommonJS build.
const SCRIPT = `
const flow = { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [{ id: "a", component: "/ts/inc", input: { $from: { workflow: "input" } } }], output: { $from: { step: "a" } } };
const yamlLoaded = () => Object.keys(require.cache).some((file) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(file));
const result = await stepflow.runFlow(flow, 1, { components: { "/ts/inc": async (n) => n + 1 } });
const afterRun = yamlLoaded();
const config = stepflow.parseStepflowConfigText("plugins:\\n  b:\\n    type: builtin\\nroutes:\\n  /:\\n    - plugin: b\\n");
const parsed = stepflow.parseFlow("schema: https://stepflow.org/schemas/v1/flow.json\\nsteps: []\\n", { file: "f.yaml" });
console.log(JSON.stringify({ result: result.result, afterRun, afterYaml: yamlLoaded(), plugin: config.plugins.b.type, steps: parsed.flow.steps }));
`;

const builds = {
  esm: ['import { createRequire } from "node:module";', "const require = createRequire(import.meta.url);", 'const stepflow = await import("@flowspec/stepflow");', SCRIPT].join("\n"),
  cjs: ['const stepflow = require("@flowspec/stepflow");', `(async () => {${SCRIPT}})();`].join("\n"),
};

describe("the YAML library loads on first use", () => {
  it.each(Object.entries(builds))("%s build: not for a run of a flow object; on the first YAML text", (build, script) => {
    expect(existsSync(join(repoRoot, "packages/stepflow/dist/index.js")), "packages/stepflow/dist is missing: run npm run build").toBe(true);
    const args = build === "esm" ? ["--input-type=module", "-e", script] : ["-e", script];
    const run = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ result: 2, afterRun: false, afterYaml: true, plugin: "builtin", steps: [] });
  });
});
