/**
 * Looking up a plugin's command, and the placeholder for `mcp` plugins, which this engine does not
 * run: it reports why it cannot serve, so the test runner skips what needs it.
 */
import { ComponentError } from "./errors.js";
import type { Plugin, PluginEnvironment } from "./types.js";

/**
 * Finds an executable as the runtime does: a path (relative to the working directory) or a name on
 * the PATH of `environment.env`. Loaded on use, so the engine itself imports nothing Node-only.
 */
export async function findCommand(command: string, environment: PluginEnvironment): Promise<string | undefined> {
  const { findExecutable } = await import("@flowspec/runtime/node");
  return findExecutable(command, environment.workingDirectory ?? process.cwd(), environment.env.PATH ?? "", environment.env.PATHEXT);
}

/** An `mcp` plugin entry: out of scope for this engine. */
export function unsupportedMcpPlugin(name: string): Plugin {
  const reason = `plugin ${JSON.stringify(name)} is an MCP server (type: mcp), which this engine does not run`;
  return {
    kind: "mcp",
    unavailableReason: async () => reason,
    async execute(component) {
      throw new ComponentError(component, reason);
    },
  };
}
