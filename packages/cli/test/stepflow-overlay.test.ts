import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "stepflow-cli-overlay-"));
  mkdirSync(join(dir, "overlays"));
  // As upstream's flows do: a /python/ component, and a config beside the flow naming a python plugin that needs uv.
  writeFileSync(
    join(dir, "flow.yaml"),
    `schema: https://stepflow.org/schemas/v1/flow.json
steps:
  - { id: s, component: /python/shout, input: { $from: { workflow: input } } }
output: { $from: { step: s } }
test:
  cases:
    - { name: shout, input: { text: hi }, output: { outcome: success, result: "HI!" } }
`,
  );
  writeFileSync(join(dir, "stepflow-config.yml"), 'plugins:\n  python: { type: stepflow, command: "uv-is-not-installed" }\nroutes:\n  "/python/{component}": [{ plugin: python }]\n');
  writeFileSync(join(dir, "overlays/shout.mjs"), 'export default { "/shout": { handler: ({ text }) => text.toUpperCase() + "!" } };\n');
  writeFileSync(join(dir, "overlays/whisper.mjs"), 'export default { "/shout": { handler: ({ text }) => text.toLowerCase() } };\n');
  writeFileSync(join(dir, "overlays/python.yml"), "plugins:\n  python: { type: module, module: ./shout.mjs }\n");
  writeFileSync(join(dir, "overlays/whisper.yml"), "plugins:\n  python: { type: module, module: ./whisper.mjs }\n");
  writeFileSync(join(dir, "overlays/bad.yml"), "plugins:\n  python: { module: ./shout.mjs }\n");
});

describe("flowspec stepflow --overlay", () => {
  it("test: layers the overlay onto the config beside each flow, so upstream's python plugin is served", async () => {
    expect((await cli(["stepflow", "test", "flow.yaml"], dir)).stdout).toContain("SKIP  flow.yaml › shout: needs components no configured plugin can serve");
    const { code, stdout } = await cli(["stepflow", "test", "flow.yaml", "--overlay", "overlays/python.yml"], dir);
    expect(stdout).toBe("PASS  flow.yaml › shout\n1 passed, 0 failed, 0 skipped\n");
    expect(code).toBe(0);
  });

  it("run: the same, and a later overlay wins over an earlier one", async () => {
    expect(await cli(["stepflow", "run", "flow.yaml", "--input", '{"text":"Hi"}', "--overlay", "overlays/python.yml"], dir)).toMatchObject({ code: 0, stdout: '{\n  "outcome": "success",\n  "result": "HI!"\n}\n' });
    const both = await cli(["stepflow", "run", "flow.yaml", "--input", '{"text":"Hi"}', "--overlay", "overlays/python.yml", "--overlay", "overlays/whisper.yml"], dir);
    expect(JSON.parse(both.stdout)).toEqual({ outcome: "success", result: "hi" });
  });

  it.each([
    ["test", ["stepflow", "test", "flow.yaml"]],
    ["run", ["stepflow", "run", "flow.yaml"]],
  ])("%s: an overlay that cannot be read or is invalid is a usage error (exit 2), naming it", async (_command, argv) => {
    const missing = await cli([...argv, "--overlay", "overlays/missing.yml"], dir);
    expect(missing).toMatchObject({ code: 2, stdout: "", stderr: "flowspec: cannot read overlay overlays/missing.yml: ENOENT\n" });
    const bad = await cli([...argv, "--overlay", "overlays/bad.yml"], dir);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toBe(`flowspec: overlay: ${join(dir, "overlays/bad.yml")}:2:11 /plugins/python: plugin "python" must be a mapping with a string type\n`);
  });
});
