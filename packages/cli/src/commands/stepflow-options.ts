/** What several `flowspec stepflow` commands share: --overlay files and how config errors are reported. */
import { resolve } from "node:path";
import { DocumentParseError } from "@flowspec/runtime";
import { FileTooLargeError, NotAFileError } from "@flowspec/runtime/files";
import { ConfigError } from "@flowspec/stepflow";
import { loadConfigOverlay, type LoadedOverlay } from "@flowspec/stepflow/node";
import { CliError, type CliIo } from "../io.js";

export const OVERLAY_HELP = "a config overlay (plugins, routes, testServers) layered onto each flow's config; repeatable";

export const collect = (value: string, previous: string[]) => [...previous, value];

/** The --overlay files, read up front: one that cannot be read is a usage error. */
export function loadOverlays(io: CliIo, files: readonly string[]): LoadedOverlay[] {
  return files.map((file) => {
    try {
      return loadConfigOverlay(resolve(io.cwd, file));
    } catch (error) {
      throw configError(error, file, "overlay");
    }
  });
}

/** A config (or overlay) that cannot be read or is invalid, as a usage error naming it; anything else unchanged. */
export function configError(error: unknown, configFile: string | undefined, what = "config"): unknown {
  if (error instanceof ConfigError || error instanceof DocumentParseError) return new CliError(`${what}: ${error.message}`);
  if (error instanceof NotAFileError || error instanceof FileTooLargeError) return new CliError(`cannot read ${what} ${error.path}: ${error.reason}`);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && configFile !== undefined) return new CliError(`cannot read ${what} ${configFile}: ${code}`);
  return error;
}
