/**
 * stepflow-config documents (protocol notes §4.4, §4.5): plugins by name, routes by pattern.
 * YAML is read with `yaml` v2 (YAML 1.2 core schema) and the mock plugin recipe: flow-mapping
 * behaviour keys are kept as values, not stringified.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Document } from "@flowspec/runtime/yaml";
import { checkYamlNesting, isErrorInstance, toPointer, type DocumentParseError } from "@flowspec/runtime";
import { isObject } from "../values.js";

export interface RouteCondition {
  /** A §6.1 path into the step's resolved input. */
  path: string;
  value: unknown;
}

export interface RouteRule {
  plugin: string;
  /** Template of the name sent to the plugin; `{param}` placeholders are replaced. */
  component?: string;
  conditions?: RouteCondition[];
  componentAllow?: string[];
  componentDeny?: string[];
}

/** A plugin entry: `type` and the fields of that type. */
export interface PluginConfig {
  type: string;
  [field: string]: unknown;
}

export interface StepflowConfig {
  plugins: Record<string, PluginConfig>;
  routes: Record<string, RouteRule[]>;
  workingDirectory?: string;
  stateStore?: unknown;
}

/** The default when no config is found: one `builtin` plugin and no routes (§4.4). */
export function defaultConfig(): StepflowConfig {
  return { plugins: { builtin: { type: "builtin" } }, routes: {} };
}

/** A config that is not what the runtime accepts, with where (JSON Pointer, file:line:column). */
export class ConfigError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:ConfigError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ConfigError";
  constructor(
    readonly reason: string,
    readonly path: string,
    readonly location?: string,
  ) {
    super(`${location ? `${location} ` : ""}${path ? `${path}: ` : ""}${reason}`);
  }
}

export interface ConfigSource {
  file?: string;
  /** Maps a JSON Pointer to `file:line:column`. */
  describe?(pointer: string): string;
}

/**
 * Checks and normalises a config value (already parsed). Mock `behaviors` may be a `Map` (as the
 * YAML reader makes them), a list of `[input, behaviour]` pairs, or an object keyed by string inputs.
 */
export function parseStepflowConfig(value: unknown, source: ConfigSource = {}): StepflowConfig {
  const fail = (path: string, reason: string): never => {
    throw new ConfigError(reason, path, source.describe?.(path) ?? source.file);
  };
  if (!isObject(value)) fail("", "a stepflow-config must be a mapping with plugins and routes");
  const config = value as Record<string, unknown>;
  if (!isObject(config.plugins)) fail("/plugins", "plugins is required and must be a mapping of plugin name to plugin");
  if (!isObject(config.routes)) fail("/routes", "routes is required and must be a mapping of path pattern to rules");
  const plugins = parsePlugins(config.plugins as Record<string, unknown>, fail);
  const out: StepflowConfig = { plugins, routes: parseRoutes(config.routes as Record<string, unknown>, fail, plugins) };
  if (config.workingDirectory !== undefined && config.workingDirectory !== null) {
    if (typeof config.workingDirectory !== "string") fail("/workingDirectory", "workingDirectory must be a string");
    out.workingDirectory = config.workingDirectory as string;
  }
  if (config.stateStore !== undefined) out.stateStore = config.stateStore;
  return out;
}

type Fail = (path: string, reason: string) => never;

/** Checks a config's (or an overlay's) `plugins`: each a mapping with a string `type`. */
export function parsePlugins(entries: Record<string, unknown>, fail: Fail): Record<string, PluginConfig> {
  const plugins: Record<string, PluginConfig> = {};
  for (const [name, plugin] of Object.entries(entries)) {
    if (!isObject(plugin) || typeof plugin.type !== "string") fail(toPointer(["plugins", name]), `plugin ${JSON.stringify(name)} must be a mapping with a string type`);
    plugins[name] = plugin as PluginConfig;
  }
  return plugins;
}

/** Checks a config's (or an overlay's) `routes`; with `plugins`, also that each rule names one of them. */
export function parseRoutes(entries: Record<string, unknown>, fail: Fail, plugins?: Record<string, PluginConfig>): Record<string, RouteRule[]> {
  const routes: Record<string, RouteRule[]> = {};
  for (const [pattern, rules] of Object.entries(entries)) {
    const at = toPointer(["routes", pattern]);
    if (!Array.isArray(rules)) fail(at, `the rules of route ${JSON.stringify(pattern)} must be a list`);
    routes[pattern] = (rules as unknown[]).map((rule, i) => parseRule(rule, `${at}/${i}`, fail, plugins));
  }
  return routes;
}

function parseRule(rule: unknown, at: string, fail: Fail, plugins?: Record<string, PluginConfig>): RouteRule {
  if (!isObject(rule) || typeof rule.plugin !== "string") return fail(at, "a route rule must be a mapping with a string plugin");
  if (plugins && !Object.hasOwn(plugins, rule.plugin)) return fail(`${at}/plugin`, `route rule names unknown plugin ${JSON.stringify(rule.plugin)}`);
  const out: RouteRule = { plugin: rule.plugin };
  if (rule.component !== undefined && rule.component !== null) {
    if (typeof rule.component !== "string") return fail(`${at}/component`, "component must be a string template");
    out.component = rule.component;
  }
  if (rule.conditions !== undefined && rule.conditions !== null) {
    if (!Array.isArray(rule.conditions)) return fail(`${at}/conditions`, "conditions must be a list of {path, value}");
    out.conditions = rule.conditions.map((c, i) => {
      if (!isObject(c) || typeof c.path !== "string") return fail(`${at}/conditions/${i}`, "a condition must be a mapping with a string path and a value");
      return { path: c.path, value: c.value ?? null };
    });
  }
  for (const key of ["componentAllow", "componentDeny"] as const) {
    const list = rule[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) return fail(`${at}/${key}`, `${key} must be a list of component names`);
    out[key] = list as string[];
  }
  return out;
}

/** A parsed config document: the value with mock behaviours kept as Maps, and a locator. */
export interface ConfigDocument {
  value: unknown;
  describe(pointer: string): string;
}

/**
 * Parses stepflow-config YAML (or JSON) text with the §4.5 recipe: every YAML error fails except
 * the `IMPOSSIBLE` "Map comment with trailing content" that flow-mapping keys raise; mappings with
 * non-string keys stay `Map`s, everything else becomes plain JSON.
 */
export function parseConfigDocument(text: string, file?: string): ConfigDocument {
  try {
    checkYamlNesting(text, file);
  } catch (error) {
    const { location, reason } = error as DocumentParseError;
    throw new ConfigError(reason, "", `${file ? `${file}:` : ""}${location.line}:${location.column}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const error = doc.errors.find((e) => !(e.code === "IMPOSSIBLE" && e.message.startsWith("Map comment with trailing content")));
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new ConfigError(error.message.split("\n")[0]!, "", `${file ? `${file}:` : ""}${line}:${col}`);
  }
  const value = toPlain(doc.toJS({ mapAsMap: true, maxAliasCount: 10_000 }));
  return { value, describe: (pointer) => describeIn(doc, lineCounter, file, pointer) };
}

/** Parses and checks a stepflow-config text. */
export function parseStepflowConfigText(text: string, file?: string): StepflowConfig {
  const document = parseConfigDocument(text, file);
  return parseStepflowConfig(document.value, { file, describe: document.describe });
}

function toPlain(value: unknown): unknown {
  if (value instanceof Map) {
    const stringKeys = [...value.keys()].every((k) => typeof k === "string");
    if (!stringKeys) return new Map([...value].map(([k, v]) => [toPlain(k), toPlain(v)]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) Object.defineProperty(out, k as string, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}

function describeIn(doc: Document, lineCounter: LineCounter, file: string | undefined, pointer: string): string {
  let node: unknown = doc.contents;
  let offset = (node as { range?: number[] } | null)?.range?.[0] ?? 0;
  for (const token of pointer === "" ? [] : pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === token);
    if (!pair) break;
    node = pair.value;
    offset = (pair.value as { range?: number[] } | null)?.range?.[0] ?? (pair.key as { range?: number[] }).range?.[0] ?? offset;
  }
  const { line, col } = lineCounter.linePos(offset);
  return `${file ? `${file}:` : ""}${line}:${col}`;
}
