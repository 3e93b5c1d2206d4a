/**
 * `type: stepflow` plugins: external component servers over stdio (a child process started with
 * only the plugin's `env`, after `${NAME}` substitution) or Streamable HTTP (protocol notes §3,
 * §4.1). The server's calls back (`blobs/put`, `blobs/get`, `flows/evaluate`) are answered from the
 * engine's blob store and engine. The client code is loaded only when such a plugin starts, so the
 * engine itself stays free of Node-only imports.
 */
import { BlobNotFoundError } from "../blobs.js";
import { substituteEnv } from "../client/env.js";
import type { ComponentClient, RuntimeServices } from "../client/client.js";
import { ConfigError } from "../router/config.js";
import { isObject } from "../values.js";
import { ComponentError } from "./errors.js";
import { findCommand } from "./external.js";
import type { ComponentContext, Plugin, PluginEnvironment } from "./types.js";

type Launch = { transport: "stdio"; command: string; args: string[]; env: Record<string, string> } | { transport: "http"; url: string };

function launchOf(name: string, config: Record<string, unknown>): Launch {
  const at = `/plugins/${name}`;
  const transport = config.transport ?? (config.url !== undefined ? "http" : "stdio");
  if (transport === "http") {
    if (typeof config.url !== "string" || config.url === "") throw new ConfigError("a stepflow plugin with transport http needs a url", `${at}/url`);
    return { transport, url: config.url };
  }
  if (transport !== "stdio") throw new ConfigError(`transport must be stdio or http, not ${JSON.stringify(transport)}`, `${at}/transport`);
  if (typeof config.command !== "string" || config.command === "") throw new ConfigError("a stepflow plugin with transport stdio needs a command", `${at}/command`);
  const args = config.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) throw new ConfigError("args must be a list of strings", `${at}/args`);
  const env = config.env ?? {};
  if (!isObject(env) || !Object.values(env).every((value) => typeof value === "string")) throw new ConfigError("env must map names to strings", `${at}/env`);
  return { transport, command: config.command, args: args as string[], env: env as Record<string, string> };
}

/** Creates a `type: stepflow` plugin from its stepflow-config entry. */
export function stepflowPlugin(name: string, config: Record<string, unknown>, environment: PluginEnvironment): Plugin {
  const launch = launchOf(name, config);
  let client: ComponentClient | undefined;
  // A close() while init() is still connecting waits for it and ends the server it started,
  // instead of leaving that child process running.
  let starting: Promise<ComponentClient> | undefined;
  let closed = false;
  // The engine's services reach the plugin with each execute; every run of an engine shares them.
  // A callback does not say which run it serves, so it uses a run still going: a run that ended on
  // an execution error has aborted its signal, and nested runs started under it would fail at once.
  const running = new Set<ComponentContext>();
  let last: ComponentContext | undefined;
  const live = (): ComponentContext[] => [...running].filter((context) => !context.signal.aborted);
  const engine = (): ComponentContext => {
    const context = live()[0] ?? last;
    if (!context) throw new Error(`plugin ${JSON.stringify(name)} called back before any component of it ran`);
    return context;
  };
  const services: RuntimeServices = {
    putBlob: (data) => engine().blobs.put(data),
    getBlob: (blobId) => engine().blobs.get(blobId).catch((error: unknown) => (error instanceof BlobNotFoundError ? undefined : Promise.reject(error))),
    evaluateFlow: async (flow, input) => {
      const candidates = live();
      // The steps of one run share its signal.
      const signals = [...new Set(candidates.map((context) => context.signal))];
      if (signals.length <= 1) return engine().evaluateFlow(flow, input);
      // Several runs have calls to this server in flight and any of them may have asked: the nested
      // run lives until all of them have stopped, so one run failing does not stop another's.
      const untilAll = new AbortController();
      let left = signals.length;
      const onAbort = (event: Event) => {
        if (--left === 0) untilAll.abort((event.target as AbortSignal).reason);
      };
      for (const signal of signals) signal.addEventListener("abort", onAbort, { once: true });
      try {
        return await candidates[0]!.evaluateFlow(flow, input, { signal: untilAll.signal });
      } finally {
        for (const signal of signals) signal.removeEventListener("abort", onAbort);
      }
    },
  };
  const commandMissing = async () =>
    launch.transport === "stdio" && !(await findCommand(launch.command, environment))
      ? `plugin ${JSON.stringify(name)} needs the command ${JSON.stringify(launch.command)}, which is not installed (not found on PATH)`
      : undefined;

  const connect = async (): Promise<ComponentClient> => {
    const { connectHttp, connectStdio } = await import("../client/client.js");
    const options = { pluginName: name, onError: (error: Error) => process.stderr.write(`plugin ${name}: ${error.message}\n`) };
    if (launch.transport === "http") return connectHttp(launch.url, services, options);
    const substitute = (value: string) => {
      try {
        return substituteEnv(value, environment.env);
      } catch (error) {
        throw new ComponentError(name, `cannot start plugin ${JSON.stringify(name)}: ${(error as Error).message}`);
      }
    };
    return connectStdio(
      {
        command: launch.command,
        args: launch.args.map(substitute),
        env: Object.fromEntries(Object.entries(launch.env).map(([key, value]) => [key, substitute(value)])),
        cwd: environment.workingDirectory,
        searchPath: environment.env.PATH ?? "",
        onStderr: (line) => process.stderr.write(`[${name}] ${line}\n`),
      },
      services,
      options,
    );
  };

  return {
    kind: "stepflow",
    unavailableReason: commandMissing,
    async init() {
      closed = false;
      const connecting = (starting = connect());
      try {
        const started = await connecting;
        // close() ended it: it took this connection from `starting`.
        if (closed) throw new ComponentError(name, `plugin ${JSON.stringify(name)} was closed while it started`);
        client = started;
      } finally {
        if (starting === connecting) starting = undefined;
      }
    },
    async execute(component, input, context) {
      if (!client) throw new ComponentError(component, `plugin ${JSON.stringify(name)} is not started`);
      last = context;
      running.add(context);
      try {
        return { outcome: "success", result: await client.execute(component, input, { signal: context.signal }) };
      } catch (error) {
        throw new ComponentError(component, `plugin ${JSON.stringify(name)}: ${(error as Error).message}`, { cause: error });
      } finally {
        running.delete(context);
      }
    },
    list: async () => (client ? client.list() : []),
    close: async () => {
      closed = true;
      const connecting = starting;
      const current = client;
      client = undefined;
      await current?.close();
      await (await connecting?.catch(() => undefined))?.close();
    },
  };
}
