import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support.js";

// A program can load both builds of a package (an ESM app with a CommonJS dependency), or two copies
// of it. Each build has its own class objects, so an error thrown by one must still be `instanceof`
// the other's class, its parents, and not its siblings. These tests load the built packages (dist/):
// `npm test` builds before it runs them.

const ENTRIES = [
  "@flowspec/runtime",
  "@flowspec/runtime/jsonrpc",
  "@flowspec/runtime/node",
  "@flowspec/stepflow",
  "@flowspec/stepflow/client",
  "@flowspec/stepflow/server",
  "@flowspec/agents-json",
  "@flowspec/apflow",
  "@flowspec/apflow/client",
  "@flowspec/agent-service",
];

/** Runs `body` in an ES module where `esm` and `cjs` map each entry to its two builds. */
function inNode<T>(body: string): T {
  const script = `
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    const entries = ${JSON.stringify(ENTRIES)};
    const esm = {}, cjs = {};
    for (const entry of entries) {
      esm[entry] = await import(entry);
      cjs[entry] = require(entry);
    }
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify(result));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, encoding: "utf8" })) as T;
}

describe("error classes across the ESM and CJS builds", () => {
  it("an error of either build is an instance of the other build's class and its parents, and of no other class", () => {
    const { classes, wrong } = inNode<{ classes: string[]; wrong: string[] }>(`
      const ordinary = (value, C) => Function.prototype[Symbol.hasInstance].call(C, value);
      // Every exported error class, as [name, esm class, cjs class]; a class exported by several entries once.
      const seen = new Set();
      const classes = [];
      for (const entry of entries) {
        for (const [name, E] of Object.entries(esm[entry])) {
          if (typeof E !== "function" || !ordinary(E.prototype, Error) || seen.has(E)) continue;
          seen.add(E);
          classes.push([entry + ":" + name, E, cjs[entry][name]]);
        }
      }
      const wrong = [];
      for (const [from, fromBuild, toBuild] of [["cjs", 2, 1], ["esm", 1, 2]]) {
        for (const thrown of classes) {
          const error = Object.create(thrown[fromBuild].prototype);
          for (const target of classes) {
            // What instanceof says within one build is what it must say across builds.
            const expected = ordinary(error, target[fromBuild]);
            if ((error instanceof target[toBuild]) !== expected) wrong.push(from + " " + thrown[0] + " instanceof " + target[0] + " should be " + expected);
          }
        }
      }
      return { classes: classes.map(([name]) => name), wrong };
    `);
    expect(wrong).toEqual([]);
    // Every package's errors are in the check.
    for (const name of ["ValidationError", "ResponseTooLargeError", "JsonRpcError", "ChildEndedError", "ExecutionError", "ComponentError", "FlowRunError", "HttpError", "ApflowRpcError", "TaskTreeRunError", "NotFoundError", "StreamEventTooLargeError"]) {
      expect(classes.some((c) => c.endsWith(`:${name}`)), name).toBe(true);
    }
    expect(classes.length).toBeGreaterThan(60);
  });

  it("errors really thrown by the CJS build are caught as the ESM classes", async () => {
    const caught = inNode<Record<string, boolean>>(`
      const catchOf = (fn) => { try { fn(); } catch (error) { return error; } };
      const invalid = catchOf(() => cjs["@flowspec/stepflow"].assertFlow({ steps: "nope" }));
      const rpc = catchOf(() => { throw new (cjs["@flowspec/runtime/jsonrpc"].JsonRpcError)(-32001, "no"); });
      const notFound = cjs["@flowspec/agent-service"].apiErrorFor(404, 1, "gone", undefined, {});
      const agents = catchOf(() => { throw new (cjs["@flowspec/agents-json"].HttpError)("GET /x failed with HTTP 500", 500, null, {}); });
      return {
        validation: invalid instanceof esm["@flowspec/runtime"].ValidationError,
        validationViaPackage: invalid instanceof esm["@flowspec/agent-service"].ValidationError,
        rpc: rpc instanceof esm["@flowspec/runtime/jsonrpc"].JsonRpcError,
        rpcIsNotTransport: rpc instanceof esm["@flowspec/runtime/jsonrpc"].JsonRpcTransportError,
        notFound: notFound instanceof esm["@flowspec/agent-service"].NotFoundError,
        notFoundIsApiError: notFound instanceof esm["@flowspec/agent-service"].ApiError,
        notFoundIsAgentServiceError: notFound instanceof esm["@flowspec/agent-service"].AgentServiceError,
        notFoundIsConflict: notFound instanceof esm["@flowspec/agent-service"].ConflictError,
        agents: agents instanceof esm["@flowspec/agents-json"].FlowRunError,
        agentsIsNotTransport: agents instanceof esm["@flowspec/agents-json"].TransportError,
      };
    `);
    expect(caught).toEqual({
      validation: true,
      validationViaPackage: true,
      rpc: true,
      rpcIsNotTransport: false,
      notFound: true,
      notFoundIsApiError: true,
      notFoundIsAgentServiceError: true,
      notFoundIsConflict: false,
      agents: true,
      agentsIsNotTransport: false,
    });
  });
});
