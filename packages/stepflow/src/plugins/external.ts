/**
 * Looking up a plugin's command, and the placeholder for `mcp` plugins, which this engine does not
 * run: it reports why it cannot serve, so the test runner skips what needs it.
 */
import { ComponentError } from "./errors.js";
import type { Plugin, PluginEnvironment } from "./types.js";

/** Finds an executable as the runtime does: a path (relative to the working directory) or a name on PATH. */
export async function findCommand(command: string, environment: PluginEnvironment): Promise<string | undefined> {
  const [{ access, constants, stat }, { delimiter, isAbsolute, join, resolve }] = await Promise.all([import("node:fs/promises"), import("node:path")]);
  const executable = async (file: string) => {
    try {
      await access(file, constants.X_OK);
      return (await stat(file)).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes("/") || command.includes("\\")) {
    const file = isAbsolute(command) ? command : resolve(environment.workingDirectory ?? process.cwd(), command);
    return (await executable(file)) ? file : undefined;
  }
  const dirs = (environment.env.PATH ?? "").split(delimiter).filter(Boolean);
  const extensions = process.platform === "win32" ? (environment.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const file = join(dir, command + ext);
      if (await executable(file)) return file;
    }
  }
  return undefined;
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
