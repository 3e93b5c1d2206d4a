/**
 * `type: module` plugins: the components a JavaScript module exports as its default export (what
 * `flowspec stepflow serve` serves), run in this process. The module is imported when a step first
 * routes to the plugin, and once per process however many routers name it, so an expensive
 * component (a Python interpreter) starts once for a whole test run. Calls go through the same
 * component server code as over stdio and HTTP, with the calls back answered by the engine.
 */
import type { RequestContext } from "@flowspec/runtime/jsonrpc";
import { success } from "../engine/result.js";
import type { Flow } from "../generated/index.js";
import { ConfigError } from "../router/config.js";
import type { ComponentServer, Components } from "../server/server.js";
import { isObject } from "../values.js";
import { ComponentError } from "./errors.js";
import type { ComponentContext, Plugin, PluginEnvironment } from "./types.js";

/** Creates a `type: module` plugin from its stepflow-config entry (`module`: a package name, or a path relative to the plugin's working directory). */
export function modulePlugin(name: string, config: Record<string, unknown>, environment: PluginEnvironment): Plugin {
  const specifier = config.module;
  if (typeof specifier !== "string" || specifier === "") throw new ConfigError("a module plugin needs module: a package name or a path to a JavaScript module", `/plugins/${name}/module`);
  let server: ComponentServer | undefined;
  return {
    kind: "module",
    async init() {
      const [{ createComponentServer }, components] = await Promise.all([import("../server/server.js"), importComponents(name, specifier, environment)]);
      try {
        server = createComponentServer(components);
      } catch (error) {
        // e.g. `echo` and `/echo`, which are the same component
        throw new ComponentError(name, `module ${JSON.stringify(specifier)}: ${(error as Error).message}`);
      }
    },
    async execute(component, input, context) {
      if (!server) throw new ComponentError(component, `plugin ${JSON.stringify(name)} is not started`);
      try {
        const { output } = (await server.handlers["components/execute"]!({ component, input }, callsBack(context))) as { output: unknown };
        return success(output);
      } catch (error) {
        throw new ComponentError(component, `plugin ${JSON.stringify(name)}: ${(error as Error).message}`, { cause: error });
      }
    },
    list: async () => server?.infos() ?? [],
  };
}

/** A component's calls back (`blobs/put`, `blobs/get`, `flows/evaluate`), answered by the engine that runs it. */
function callsBack(context: ComponentContext): RequestContext {
  return {
    id: context.stepId,
    method: "components/execute",
    signal: context.signal,
    async request<R>(method: string, params: unknown): Promise<R> {
      const p = params as { data?: unknown; blob_id?: unknown; flow?: Flow; input?: unknown };
      if (method === "blobs/put") return { blob_id: await context.blobs.put(p.data) } as R;
      if (method === "blobs/get") return { data: await context.blobs.get(String(p.blob_id)) } as R;
      if (method === "flows/evaluate") return { result: await context.evaluateFlow(p.flow as Flow, p.input) } as R;
      throw new Error(`unknown method ${method}`);
    },
  };
}

async function importComponents(name: string, specifier: string, environment: PluginEnvironment): Promise<Components> {
  const fail = (reason: string): never => {
    throw new ComponentError(name, `module ${JSON.stringify(specifier)} ${reason}`);
  };
  let module: { default?: unknown };
  try {
    const target = await moduleTarget(specifier, environment);
    module = await import(/* @vite-ignore */ target);
  } catch (error) {
    return fail(`cannot be imported: ${(error as Error).message}`);
  }
  let components = module.default;
  // A CommonJS module compiled from ESM hands its exports object over as the default.
  if (isObject(components) && components.__esModule === true && isObject(components.default)) components = components.default;
  if (!isObject(components) || Object.keys(components).length === 0) return fail("has no default export of components (an object of name → { handler, … })");
  for (const [component, entry] of Object.entries(components)) {
    if (!isObject(entry) || typeof entry.handler !== "function") fail(`exports component ${JSON.stringify(component)} without a handler function`);
  }
  return components as Components;
}

/**
 * What to import: a package name as it is; a path (`./x.js`, `../x.js`, absolute) resolved against
 * the working directory, as a file URL for `import()`, or as a path where the CommonJS build has
 * turned `import()` into `require()`, which takes no URL.
 */
async function moduleTarget(specifier: string, environment: PluginEnvironment): Promise<string> {
  // Not import(): a browser bundle would have to resolve it (see plugins/builtin.ts).
  const { isAbsolute, resolve } = process.getBuiltinModule("node:path");
  if (!isAbsolute(specifier) && !/^\.\.?[\\/]/.test(specifier)) return specifier;
  const path = resolve(environment.workingDirectory ?? process.cwd(), specifier);
  if (typeof require === "function") return path;
  const { pathToFileURL } = process.getBuiltinModule("node:url");
  return pathToFileURL(path).href;
}
