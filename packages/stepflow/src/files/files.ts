/** Flows and stepflow-configs from files, found as the 0.2.x CLI finds them (protocol notes §4.4). */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { toPointer } from "@flowspec/runtime";
import { readTextFileSync } from "@flowspec/runtime/files";
import { parseFlow, type FlowDocument } from "../flow-document.js";
import { ConfigError, defaultConfig, parseConfigDocument, parseStepflowConfig, type StepflowConfig } from "../router/config.js";
import { layerConfig, parseConfigOverlay, type ConfigOverlay } from "../router/overlay.js";
import { createRouter, type Router, type RouterOptions } from "../router/router.js";
import { isObject } from "../values.js";

/**
 * Reads a flow file (YAML or JSON by extension), relative to `cwd`; locations name the file as
 * given. Throws `DocumentParseError` (also for bytes that are not UTF-8) or `InvalidFlowError`, and
 * for a file it cannot read, what the runtime's `readTextFileSync` throws (`NotAFileError`,
 * `FileTooLargeError` past 128 MiB, or Node's error).
 */
export function loadFlowFile(file: string, options: { cwd?: string } = {}): FlowDocument & { file: string } {
  return { ...parseFlow(readTextFileSync(resolve(options.cwd ?? process.cwd(), file), { file }), { file }), file };
}

/** A config with where it came from and the working directory it implies. */
export interface ResolvedConfig {
  config: StepflowConfig;
  /** The config file, `test.config` of the flow, or `undefined` for the default config. */
  origin: string | undefined;
  /** `workingDirectory` if set (relative to the config's directory), else the config's directory, else the flow's. */
  workingDirectory: string;
  /** `file:line:column` of a JSON Pointer into the config, when it was read from a file. */
  describe?(pointer: string): string;
  /** Working directories of the plugins that overlays put in, by name: each overlay's directory. */
  pluginWorkingDirectories?: Record<string, string>;
}

/** Reads a stepflow-config file (as `loadFlowFile` reads a flow). Throws `ConfigError` with file:line:column. */
export function loadConfigFile(file: string): ResolvedConfig {
  const document = parseConfigDocument(readTextFileSync(file), file);
  const config = parseStepflowConfig(document.value, { file, describe: document.describe });
  const dir = dirname(resolve(file));
  return { config, origin: file, workingDirectory: config.workingDirectory ? resolve(dir, config.workingDirectory) : dir, describe: document.describe };
}

/**
 * Creates the router of a resolved config. What only setting up the plugins and routes finds (a
 * bad route pattern, a plugin entry without its url) throws `ConfigError` with file:line:column too.
 */
export function createConfiguredRouter(resolved: ResolvedConfig, options: Omit<RouterOptions, "config" | "workingDirectory"> = {}): Router {
  try {
    return createRouter({ ...options, config: resolved.config, workingDirectory: resolved.workingDirectory, pluginWorkingDirectories: resolved.pluginWorkingDirectories });
  } catch (error) {
    if (error instanceof ConfigError && !error.location && resolved.describe) throw new ConfigError(error.reason, error.path, resolved.describe(error.path));
    throw error;
  }
}

/** A config overlay read from a file: relative paths in it are relative to its directory. */
export interface LoadedOverlay {
  overlay: ConfigOverlay;
  file: string;
  directory: string;
  /** `file:line:column` of a JSON Pointer into the overlay. */
  describe(pointer: string): string;
}

/**
 * Reads a config overlay file (YAML or JSON). A test server's `workingDirectory` is resolved
 * against the overlay's directory here, so it starts there whichever flow it serves. Throws
 * `ConfigError` with file:line:column.
 */
export function loadConfigOverlay(file: string): LoadedOverlay {
  const document = parseConfigDocument(readTextFileSync(file), file);
  const overlay = parseConfigOverlay(document.value, { file, describe: document.describe });
  const directory = dirname(resolve(file));
  for (const server of Object.values(overlay.testServers)) {
    server.workingDirectory = resolve(directory, typeof server.workingDirectory === "string" ? server.workingDirectory : "");
  }
  return { overlay, file, directory, describe: document.describe };
}

/** The config with each overlay layered on in order; locations and plugin directories follow what each overlay put in. */
function applyOverlays(resolved: ResolvedConfig, overlays: readonly LoadedOverlay[]): ResolvedConfig {
  if (overlays.length === 0) return resolved;
  let config = resolved.config;
  const pluginWorkingDirectories = { ...resolved.pluginWorkingDirectories };
  const owners = new Map<string, LoadedOverlay>();
  for (const loaded of overlays) {
    config = layerConfig(config, loaded.overlay);
    for (const name of Object.keys(loaded.overlay.plugins)) {
      pluginWorkingDirectories[name] = loaded.directory;
      owners.set(toPointer(["plugins", name]), loaded);
    }
    for (const pattern of Object.keys(loaded.overlay.routes)) owners.set(toPointer(["routes", pattern]), loaded);
  }
  const describe = (pointer: string): string => {
    const owner = owners.get(pointer.split("/").slice(0, 3).join("/"));
    return owner ? owner.describe(pointer) : (resolved.describe?.(pointer) ?? resolved.origin ?? "");
  };
  return { ...resolved, config, describe, pluginWorkingDirectories };
}

const CONFIG_NAMES = ["stepflow-config.yml", "stepflow-config.yaml", "stepflow_config.yml", "stepflow_config.yaml"];
const TEST_CONFIG_NAMES = ["stepflow-config.test.yml", "stepflow-config.test.yaml", "stepflow_config.test.yml", "stepflow_config.test.yaml"];

/** The one config file of `names` in `dir`; two present is an error, as upstream. */
function findIn(dir: string, names: string[]): string | undefined {
  const found = names.map((name) => join(dir, name)).filter((file) => existsSync(file));
  if (found.length > 1) throw new Error(`more than one stepflow-config in ${dir}: ${found.map((f) => f.slice(dir.length + 1)).join(", ")}`);
  return found[0];
}

export interface ResolveConfigOptions {
  /** `--config`: used as it is. */
  configFile?: string;
  /** For `stepflow test`: the flow's `test.config` and `stepflow-config.test.*` files come first. */
  forTest?: boolean;
  /** The flow, for its embedded `test.config` (alias `test.stepflow_config`). */
  flow?: unknown;
  cwd?: string;
  /** Layered onto the config found, in order (`--overlay`). */
  overlays?: readonly LoadedOverlay[];
}

/**
 * Finds the config of a flow file: `--config`; else, for tests, the flow's `test.config` then
 * `stepflow-config.test.*` next to it; else `stepflow-config.*` next to the flow, then in the
 * current directory; else the default config (one `builtin` plugin, no routes).
 */
export function resolveConfig(flowFile: string, options: ResolveConfigOptions = {}): ResolvedConfig {
  return applyOverlays(findConfig(flowFile, options), options.overlays ?? []);
}

function findConfig(flowFile: string, options: ResolveConfigOptions): ResolvedConfig {
  const cwd = options.cwd ?? process.cwd();
  const flowDir = dirname(resolve(cwd, flowFile));
  if (options.configFile) return loadConfigFile(resolve(cwd, options.configFile));
  if (options.forTest) {
    const test = isObject(options.flow) && isObject(options.flow.test) ? options.flow.test : undefined;
    const embedded = test?.config ?? test?.stepflow_config;
    if (embedded !== undefined && embedded !== null) {
      const config = parseStepflowConfig(embedded, { file: `${flowFile} (test.config)` });
      return { config, origin: `${flowFile} (test.config)`, workingDirectory: config.workingDirectory ? resolve(flowDir, config.workingDirectory) : flowDir };
    }
    const testFile = findIn(flowDir, TEST_CONFIG_NAMES);
    if (testFile) return loadConfigFile(testFile);
  }
  const file = findIn(flowDir, CONFIG_NAMES) ?? findIn(resolve(cwd), CONFIG_NAMES);
  if (file) return loadConfigFile(file);
  return { config: defaultConfig(), origin: undefined, workingDirectory: flowDir };
}
