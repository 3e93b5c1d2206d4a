import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serveHttp } from "../src/server/index.js";
import { createRouter, listComponents, routesTo, type StepflowConfig } from "../src/index.js";
import { repoRoot } from "../../../test/support.js";
import components from "../../../examples/stepflow-components/components.js";

const schemaOfFail = { type: "object", required: ["message"], properties: { message: { type: "string" } } };
const serveArgs = ["--import", "tsx", join(repoRoot, "packages/stepflow/test/fixtures/serve.ts"), join(repoRoot, "examples/stepflow-components/components.ts")];

describe("listComponents (stepflow list-components)", () => {
  it("finds the routes to each component: catch-alls, single segments, templates, conditions, allow and deny", async () => {
    const config: StepflowConfig = {
      plugins: {
        builtin: { type: "builtin" },
        mock: { type: "mock", components: { "/one": { input_schema: { type: "object" }, output_schema: { type: "string" }, behaviors: [] }, "/a/b": { input_schema: {}, output_schema: {}, behaviors: [] } } },
      },
      routes: {
        "/builtin/{*component}": [{ plugin: "builtin" }],
        "/m/{component}": [{ plugin: "mock" }],
        "/m/special": [{ plugin: "builtin", component: "/eval" }],
        "/ai/{model}": [{ plugin: "builtin", component: "/create_messages" }],
        "/pick/{component}": [
          { plugin: "mock", conditions: [{ path: "$.which", value: "mock" }], componentAllow: ["/one"] },
          { plugin: "builtin", componentDeny: ["/eval"] },
        ],
      },
    };
    const router = createRouter({ config });
    const { components: listed, errors } = await listComponents(router);
    expect(errors).toEqual([]);
    const routes = (plugin: string, component: string) => listed.find((c) => c.plugin === plugin && c.component === component)?.routes.map((r) => r.resolvedPath);
    expect(routes("builtin", "/eval")).toEqual(["/builtin/eval", "/m/special"]);
    expect(routes("builtin", "/create_messages")).toEqual(["/builtin/create_messages", "/ai/{model}", "/pick/create_messages"]);
    expect(routes("builtin", "/map")).toEqual(["/builtin/map", "/pick/map"]);
    expect(routes("mock", "/one")).toEqual(["/m/one", "/pick/one"]);
    // `{component}` is one segment: "/a/b" has no route, so it is left out unless asked for.
    expect(routes("mock", "/a/b")).toBeUndefined();
    expect(listed.find((c) => c.component === "/one")).toMatchObject({ input_schema: { type: "object" }, output_schema: { type: "string" } });
    expect(routesTo(router, "mock", "/one")[1]).toEqual({ pathPattern: "/pick/{component}", resolvedPath: "/pick/one", conditions: [{ path: "$.which", value: "mock" }], isConditional: true });
    expect(listed.map((c) => c.component)).toEqual([...listed.map((c) => c.component)].sort());
    const all = await listComponents(router, { includeUnreachable: true });
    expect(all.components.find((c) => c.component === "/a/b")).toMatchObject({ plugin: "mock", routes: [] });
  });

  it("asks component servers over stdio and over HTTP for their components and schemas", async () => {
    const http = await serveHttp(components);
    const config: StepflowConfig = {
      plugins: {
        stdio: { type: "stepflow", transport: "stdio", command: process.execPath, args: serveArgs, env: { PATH: "${PATH}" } },
        web: { type: "stepflow", transport: "http", url: http.url },
      },
      routes: { "/local/{*component}": [{ plugin: "stdio" }], "/web/{*component}": [{ plugin: "web" }] },
    };
    const router = createRouter({ config, workingDirectory: repoRoot });
    try {
      const { components: listed, errors } = await listComponents(router);
      expect(errors).toEqual([]);
      for (const [plugin, prefix] of [["stdio", "/local"], ["web", "/web"]]) {
        const fail = listed.find((c) => c.plugin === plugin && c.component === "/fail");
        expect(fail).toMatchObject({ description: "Fails with the given message", input_schema: schemaOfFail, routes: [{ resolvedPath: `${prefix}/fail` }] });
      }
      expect(listed.filter((c) => c.plugin === "web").map((c) => c.component)).toEqual(["/blob_roundtrip", "/echo", "/eval_flow", "/fail"]);
    } finally {
      await router.close();
      await http.close();
    }
  });

  it("reports a plugin that cannot start, and lists the others", async () => {
    const config: StepflowConfig = {
      plugins: { builtin: { type: "builtin" }, gone: { type: "stepflow", transport: "stdio", command: "no-such-command-here", args: [] } },
      routes: { "/builtin/{*component}": [{ plugin: "builtin" }], "/gone/{*component}": [{ plugin: "gone" }] },
    };
    const router = createRouter({ config });
    const { components: listed, errors } = await listComponents(router);
    await router.close();
    expect(listed.length).toBeGreaterThan(0);
    expect(errors).toEqual([{ plugin: "gone", message: expect.stringContaining("no-such-command-here") }]);
  });
});
