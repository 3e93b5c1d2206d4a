import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, layerConfig, parseConfigOverlay, type StepflowConfig } from "../src/index.js";
import { createConfiguredRouter, loadConfigOverlay, resolveConfig, testPaths } from "../src/node.js";
import { repoRoot } from "../../../test/support.js";
import { SCHEMA } from "./helpers.js";

let root: string;
const at = (...parts: string[]) => join(root, ...parts);
const flowText = (component: string, extra = "") =>
  `schema: ${SCHEMA}\nsteps:\n  - id: s\n    component: ${component}\n    input: { $from: { workflow: input } }\noutput: { $from: { step: s } }\ntest:\n  cases:\n    - { name: echo, input: { v: 1 }, output: { outcome: success, result: { v: 1 } } }\n${extra}`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "stepflow-overlay-"));
  for (const dir of ["with-config", "without-config", "overlays/nested", "servers"]) mkdirSync(at(dir), { recursive: true });
  // A folder whose config routes /python/ to a plugin that needs a command nobody has, as upstream's do.
  writeFileSync(at("with-config/stepflow-config.yml"), 'plugins:\n  python: { type: stepflow, command: "not-installed-here" }\nroutes:\n  "/python/{component}": [{ plugin: python }]\n');
  writeFileSync(at("with-config/flow.yaml"), flowText("/python/echo"));
  writeFileSync(at("without-config/flow.yaml"), flowText("/python/echo"));
  // The overlay's module is named relative to the overlay, which starts its plugins in its own directory.
  writeFileSync(at("overlays/nested/echo.mjs"), 'export default { "/echo": { handler: (input) => input } };\n');
  writeFileSync(at("overlays/python.yml"), 'plugins:\n  python: { type: module, module: "./nested/echo.mjs" }\nroutes:\n  "/python/{*component}": [{ plugin: python }]\n');
  writeFileSync(at("overlays/bad-rule.yml"), 'routes:\n  "/x/{*c}":\n    - plugin: nowhere\n');
  // A flow whose test server needs a command nobody has; the overlay serves the same module with flowspec.
  writeFileSync(
    at("servers/flow.yaml"),
    flowText(
      "/srv/echo",
      '  servers:\n    srv: { command: "not-installed-here", args: ["{port}"] }\n  config:\n    plugins: { srv: { type: stepflow, transport: http, url: "{srv.url}" } }\n    routes: { "/srv/{component}": [{ plugin: srv }] }\n',
    ),
  );
  // flowspec from source, in a directory outside the repository: tsx and its tsconfig named in full.
  const args = ["--import", import.meta.resolve("tsx"), join(repoRoot, "packages/cli/src/bin.ts"), "stepflow", "serve", "nested/echo.mjs", "--http", "--port", "{port}"];
  const env = { TSX_TSCONFIG_PATH: join(repoRoot, "tsconfig.json") };
  writeFileSync(at("overlays/server.yml"), `testServers:\n  srv: ${JSON.stringify({ command: process.execPath, args, env })}\n`);
});

describe("config overlays", () => {
  const base: StepflowConfig = {
    plugins: { builtin: { type: "builtin" }, python: { type: "stepflow", command: "uv" } },
    routes: { "/python/{component}": [{ plugin: "python" }], "/builtin/{component}": [{ plugin: "builtin" }] },
  };

  it("replace plugins and route patterns of the same name, and add the others", () => {
    const overlay = parseConfigOverlay({ plugins: { python: { type: "module", module: "m" }, extra: { type: "builtin" } }, routes: { "/builtin/{component}": [{ plugin: "extra" }], "/x/{*c}": [{ plugin: "python" }] } });
    expect(layerConfig(base, overlay)).toEqual({
      plugins: { builtin: { type: "builtin" }, python: { type: "module", module: "m" }, extra: { type: "builtin" } },
      routes: { "/python/{component}": [{ plugin: "python" }], "/builtin/{component}": [{ plugin: "extra" }], "/x/{*c}": [{ plugin: "python" }] },
    });
    expect(parseConfigOverlay({})).toEqual({ plugins: {}, routes: {}, testServers: {} });
  });

  it.each([
    [[1], "", "a config overlay must be a mapping"],
    [{ plugin: {} }, "/plugin", 'unknown overlay key "plugin" (expected plugins, routes, testServers)'],
    [{ plugins: [] }, "/plugins", "plugins must be a mapping"],
    [{ plugins: { p: { command: "x" } } }, "/plugins/p", 'plugin "p" must be a mapping with a string type'],
    [{ routes: { "/a": { plugin: "p" } } }, "/routes/~1a", 'the rules of route "/a" must be a list'],
    [{ routes: { "/a": [{ plugin: "p", componentAllow: "x" }] } }, "/routes/~1a/0/componentAllow", "componentAllow must be a list of component names"],
    [{ testServers: { s: { args: [] } } }, "/testServers/s", 'test server "s" must be a mapping with a string command'],
  ])("refuse %j at %s", (value, pointer, reason) => {
    expect(() => parseConfigOverlay(value)).toThrow(ConfigError);
    expect(() => parseConfigOverlay(value)).toThrow(`${pointer ? `${pointer}: ` : ""}${reason}`);
  });

  it("layer onto the config each flow finds, its folder's or the default, and start their plugins in the overlay's directory", async () => {
    const overlay = loadConfigOverlay(at("overlays/python.yml"));
    const withConfig = resolveConfig(at("with-config/flow.yaml"), { overlays: [overlay] });
    expect(withConfig.origin).toBe(at("with-config/stepflow-config.yml"));
    expect(withConfig.config.plugins.python).toEqual({ type: "module", module: "./nested/echo.mjs" });
    expect(withConfig.pluginWorkingDirectories).toEqual({ python: at("overlays") });
    expect(withConfig.workingDirectory).toBe(at("with-config"));
    expect(resolveConfig(at("without-config/flow.yaml"), { cwd: root, overlays: [overlay] }).config.routes).toEqual({ "/python/{*component}": [{ plugin: "python" }] });
    const summary = await testPaths([at("with-config"), at("without-config")], { overlays: [overlay] });
    expect(summary.files.flatMap((f) => f.cases.map((c) => `${c.status} ${c.reason ?? ""}`))).toEqual(["passed ", "passed "]);
    // Without the overlay, upstream's plugin cannot run here and the case is skipped.
    expect((await testPaths([at("with-config")])).skipped).toBe(1);
  });

  it("locate their errors in the overlay file, also those found when the router is made", () => {
    expect(() => loadConfigOverlay(at("overlays/missing.yml"))).toThrow(/ENOENT/);
    writeFileSync(at("overlays/bad.yml"), "plugins:\n  p: { command: x }\n");
    expect(() => loadConfigOverlay(at("overlays/bad.yml"))).toThrow(`${at("overlays/bad.yml")}:2:6 /plugins/p: plugin "p" must be a mapping with a string type`);
    const resolved = resolveConfig(at("with-config/flow.yaml"), { overlays: [loadConfigOverlay(at("overlays/bad-rule.yml"))] });
    expect(() => createConfiguredRouter(resolved)).toThrow(`${at("overlays/bad-rule.yml")}:3:5 /routes/~1x~1{*c}/0/plugin: route rule names unknown plugin "nowhere"`);
  });

  it("replace a flow's test server of the same name, started in the overlay's directory", { timeout: 60_000 }, async () => {
    expect((await testPaths([at("servers/flow.yaml")])).files[0]!.cases[0]).toMatchObject({ status: "skipped", reason: expect.stringContaining('"not-installed-here"') });
    const summary = await testPaths([at("servers/flow.yaml")], { overlays: [loadConfigOverlay(at("overlays/server.yml"))] });
    expect(summary.files[0]!.error).toBeUndefined();
    expect(summary.files[0]).toMatchObject({ cases: [{ name: "echo", status: "passed" }] });
  });
});
