/**
 * The router: plugins created from a stepflow-config (or given in code) and the routes that map a
 * step's `component` to a plugin and the name it receives (protocol notes §4.4). It also holds
 * what every run of an engine shares: the blob store and the working directory.
 */
import { isErrorInstance, plainNumbers, toPointer } from "@flowspec/runtime";
import { createBlobStore, type BlobStore } from "../blobs.js";
import type { ComponentInfo, FlowResult } from "../generated/index.js";
import { parsePath, selectPath } from "../path.js";
import { builtinPlugin } from "../plugins/builtin.js";
import { unsupportedMcpPlugin } from "../plugins/external.js";
import { stepflowPlugin } from "../plugins/stepflow.js";
import { componentName, functionsPlugin, type ComponentFunction } from "../plugins/functions.js";
import { mockPlugin, type MockPluginConfig } from "../plugins/mock.js";
import { modulePlugin } from "../plugins/module.js";
import type { ComponentContext, Plugin, PluginEnvironment, PluginFactory } from "../plugins/types.js";
import { deepEqual } from "../values.js";
import { ConfigError, defaultConfig, type RouteRule, type StepflowConfig } from "./config.js";
import { RoutingError } from "./errors.js";
import { PatternError, PatternTrie, type Params } from "./patterns.js";

/** The plugin types a router knows by default. `mcp` only reports why it cannot serve. */
export const DEFAULT_PLUGIN_KINDS: Readonly<Record<string, PluginFactory>> = {
  builtin: () => builtinPlugin(),
  mock: (name, config) => mockPlugin(config as unknown as MockPluginConfig),
  stepflow: stepflowPlugin,
  module: modulePlugin,
  mcp: (name) => unsupportedMcpPlugin(name),
};

export interface RouterOptions {
  /** Plugins and routes; default: one `builtin` plugin and no routes (every component fails routing). */
  config?: StepflowConfig;
  /** Plugins made in code, by name; they replace config entries of the same name and may be named by routes. */
  plugins?: Record<string, Plugin>;
  /** TypeScript functions by full component name (e.g. `/ts/double`), matched before any route. */
  components?: Record<string, ComponentFunction>;
  /** Plugin types beyond (or replacing) the defaults, e.g. external component servers. */
  pluginKinds?: Record<string, PluginFactory>;
  blobs?: BlobStore;
  /** The working directory (§4.4); default: the config's `workingDirectory`. */
  workingDirectory?: string;
  /** Working directories of some plugins, by name (a plugin from an overlay starts in the overlay's directory). */
  pluginWorkingDirectories?: Record<string, string>;
  /** The environment for plugin substitutions; default: `process.env`. */
  env?: Record<string, string | undefined>;
}

/** Where a component goes: a plugin and the name it receives. */
export interface Route {
  pluginName: string;
  plugin: Plugin;
  component: string;
}

export { RoutingError };

export interface Router {
  readonly config: StepflowConfig;
  readonly blobs: BlobStore;
  readonly workingDirectory: string | undefined;
  /** Routes a step's component with its resolved input (conditions read the input). Throws `RoutingError`. */
  route(component: string, input: unknown): Route;
  /**
   * The routes a component may take whatever its input (conditions not evaluated), or a
   * `RoutingError` when no rule of any matching pattern can serve it.
   */
  candidates(component: string): Route[];
  /** Executes a routed component, initialising its plugin on first use. */
  execute(route: Route, input: unknown, context: ComponentContext): Promise<FlowResult>;
  plugin(name: string): Plugin | undefined;
  /** The names of the plugins, in config order (plugins made in code last). */
  pluginNames(): string[];
  /** The components a plugin serves (`components/list` for a component server), initialising it first. */
  listComponents(pluginName: string): Promise<ComponentInfo[]>;
  /** Closes every plugin. */
  close(): Promise<void>;
}

const FUNCTIONS = "(functions)";

interface CompiledRule extends RouteRule {
  parsedConditions: { path: ReturnType<typeof parsePath>; value: unknown; text: string }[];
}

export function createRouter(options: RouterOptions = {}): Router {
  const config = options.config ?? defaultConfig();
  const kinds = { ...DEFAULT_PLUGIN_KINDS, ...options.pluginKinds };
  const workingDirectory = options.workingDirectory ?? config.workingDirectory;
  const environment: PluginEnvironment = { workingDirectory, env: options.env ?? (typeof process === "object" ? process.env : {}) };
  const plugins = new Map<string, Plugin>();
  for (const [name, entry] of Object.entries(config.plugins)) {
    if (options.plugins && Object.hasOwn(options.plugins, name)) continue;
    const factory = Object.hasOwn(kinds, entry.type) ? kinds[entry.type] : undefined;
    const at = toPointer(["plugins", name]);
    if (!factory) throw new ConfigError(`unknown plugin type ${JSON.stringify(entry.type)} (known: ${Object.keys(kinds).join(", ")})`, `${at}/type`);
    const own = options.pluginWorkingDirectories;
    try {
      plugins.set(name, factory(name, entry, own && Object.hasOwn(own, name) ? { ...environment, workingDirectory: own[name] } : environment));
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError((error as Error).message, at);
    }
  }
  for (const [name, plugin] of Object.entries(options.plugins ?? {})) plugins.set(name, plugin);
  const functions = options.components ? functionsPlugin(options.components) : undefined;
  const functionNames = new Set(Object.keys(options.components ?? {}).map(componentName));

  const trie = new PatternTrie<CompiledRule[]>();
  for (const [pattern, rules] of Object.entries(config.routes)) {
    const at = toPointer(["routes", pattern]);
    const compiled = rules.map((rule, i) => {
      if (!plugins.has(rule.plugin)) throw new ConfigError(`route rule names unknown plugin ${JSON.stringify(rule.plugin)}`, `${at}/${i}/plugin`);
      const parsedConditions = (rule.conditions ?? []).map((c, j) => {
        try {
          return { path: parsePath(c.path), value: c.value, text: c.path };
        } catch (error) {
          throw new ConfigError((error as Error).message, `${at}/${i}/conditions/${j}/path`);
        }
      });
      return { ...rule, parsedConditions };
    });
    try {
      trie.insert(pattern, compiled);
    } catch (error) {
      if (error instanceof PatternError) throw new ConfigError(error.message, at);
      throw error;
    }
  }

  const initialised = new Map<string, Promise<void>>();
  const ready = (name: string, plugin: Plugin): Promise<void> | undefined => {
    if (!plugin.init) return undefined;
    let done = initialised.get(name);
    if (!done) initialised.set(name, (done = plugin.init()));
    return done;
  };

  const resolveName = (rule: RouteRule, params: Params, component: string): string => {
    if (rule.component !== undefined) {
      return rule.component.replace(/\{\*?([^{}]+)\}/g, (whole, key: string) => {
        if (!Object.hasOwn(params, key)) throw new RoutingError(component, `the rule's component template ${JSON.stringify(rule.component)} names {${key}}, which the pattern does not bind`);
        return params[key]!;
      });
    }
    if (!Object.hasOwn(params, "component")) throw new RoutingError(component, "the pattern has no {component} parameter and the rule no component template");
    return `/${params.component}`;
  };

  const passes = (rule: RouteRule, name: string) =>
    (rule.componentAllow === undefined || rule.componentAllow.includes(name)) && (rule.componentDeny === undefined || !rule.componentDeny.includes(name));

  const toRoute = (rule: RouteRule, name: string): Route => ({ pluginName: rule.plugin, plugin: plugins.get(rule.plugin)!, component: name });

  const matchPattern = (component: string) => {
    const match = trie.match(component);
    if (!match) throw new RoutingError(component, `no route pattern matches (patterns: ${Object.keys(config.routes).join(", ") || "none"})`);
    return match;
  };

  return {
    config,
    workingDirectory,
    blobs: options.blobs ?? createBlobStore(),

    route(component, input) {
      if (functions && functionNames.has(component)) return { pluginName: FUNCTIONS, plugin: functions, component };
      const { value: rules, params, pattern } = matchPattern(component);
      if (rules.length === 1 && rules[0]!.parsedConditions.length === 0) return toRoute(rules[0]!, resolveName(rules[0]!, params, component));
      for (const rule of rules) {
        const holds = rule.parsedConditions.every((condition) => {
          let actual: unknown;
          try {
            actual = selectPath(input, condition.path);
          } catch (error) {
            throw new RoutingError(component, `condition path ${JSON.stringify(condition.text)} of route ${JSON.stringify(pattern)} does not resolve: ${(error as Error).message}`);
          }
          // A stepflow-config is read with plain numbers: `1.0` in the input meets a condition `1`.
          return deepEqual(plainNumbers(actual), condition.value);
        });
        if (!holds) continue;
        const name = resolveName(rule, params, component);
        if (passes(rule, name)) return toRoute(rule, name);
      }
      throw new RoutingError(component, `no rule of route ${JSON.stringify(pattern)} accepts it`);
    },

    candidates(component) {
      if (functions && functionNames.has(component)) return [{ pluginName: FUNCTIONS, plugin: functions, component }];
      const { value: rules, params, pattern } = matchPattern(component);
      const routes: Route[] = [];
      for (const rule of rules) {
        const name = resolveName(rule, params, component);
        if (rules.length === 1 || passes(rule, name)) routes.push(toRoute(rule, name));
      }
      if (routes.length === 0) throw new RoutingError(component, `no rule of route ${JSON.stringify(pattern)} accepts it`);
      return routes;
    },

    execute(route, input, context) {
      const init = ready(route.pluginName, route.plugin);
      return init ? init.then(() => route.plugin.execute(route.component, input, context)) : route.plugin.execute(route.component, input, context);
    },

    plugin: (name) => plugins.get(name),

    pluginNames: () => [...plugins.keys()],

    async listComponents(name) {
      const plugin = plugins.get(name);
      if (!plugin) throw new Error(`no plugin ${JSON.stringify(name)}`);
      await ready(name, plugin);
      return (await plugin.list?.()) ?? [];
    },

    async close() {
      await Promise.all([...plugins.values()].map((plugin) => plugin.close?.()));
    },
  };
}
