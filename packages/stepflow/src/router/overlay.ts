/**
 * Config overlays: plugins, routes and test servers layered onto whatever config a flow gets
 * (its folder's, its `test.config`, `--config`, or the default). Upstream flows name plugins such as
 * `python` whose servers need Python; an overlay swaps in another plugin of that name, and adds the
 * routes of folders whose own config is missing, without editing their configs.
 */
import { toPointer } from "@flowspec/runtime";
import { isObject } from "../values.js";
import { ConfigError, parsePlugins, parseRoutes, type ConfigSource, type PluginConfig, type RouteRule, type StepflowConfig } from "./config.js";

export interface ConfigOverlay {
  /** Plugins by name: each replaces the config's plugin of that name, or is added. */
  plugins: Record<string, PluginConfig>;
  /** Route rules by pattern: each list replaces the config's rules of that pattern, or is added. */
  routes: Record<string, RouteRule[]>;
  /** Test servers by name: each replaces the flow's `test.servers` entry of that name (others are not started). */
  testServers: Record<string, Record<string, unknown>>;
}

const KEYS = new Set(["plugins", "routes", "testServers"]);

/**
 * Checks an overlay value (already parsed): a mapping with any of `plugins`, `routes` and
 * `testServers`, shaped as in a stepflow-config. Its rules may name plugins of the config it is
 * layered onto, so those names are checked when the router is made.
 */
export function parseConfigOverlay(value: unknown, source: ConfigSource = {}): ConfigOverlay {
  const fail = (path: string, reason: string): never => {
    throw new ConfigError(reason, path, source.describe?.(path) ?? source.file);
  };
  if (!isObject(value)) return fail("", "a config overlay must be a mapping with plugins, routes or testServers");
  for (const key of Object.keys(value)) if (!KEYS.has(key)) fail(toPointer([key]), `unknown overlay key ${JSON.stringify(key)} (expected plugins, routes, testServers)`);
  const section = (key: string): Record<string, unknown> => {
    const entries = value[key] ?? {};
    if (!isObject(entries)) fail(`/${key}`, `${key} must be a mapping`);
    return entries as Record<string, unknown>;
  };
  const plugins = parsePlugins(section("plugins"), fail);
  const routes = parseRoutes(section("routes"), fail);
  const testServers: Record<string, Record<string, unknown>> = {};
  for (const [name, server] of Object.entries(section("testServers"))) {
    if (!isObject(server) || typeof server.command !== "string") fail(toPointer(["testServers", name]), `test server ${JSON.stringify(name)} must be a mapping with a string command`);
    testServers[name] = server as Record<string, unknown>;
  }
  return { plugins, routes, testServers };
}

/** The config with the overlay's plugins and routes in place of (or beside) its own. */
export function layerConfig(config: StepflowConfig, overlay: Pick<ConfigOverlay, "plugins" | "routes">): StepflowConfig {
  return { ...config, plugins: { ...config.plugins, ...overlay.plugins }, routes: { ...config.routes, ...overlay.routes } };
}
