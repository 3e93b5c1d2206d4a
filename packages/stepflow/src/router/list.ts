/**
 * `stepflow list-components`: every component each plugin serves, with the routes that reach it
 * (upstream: stepflow-main/src/list_components.rs and the router's reverse routing).
 */
import type { ComponentInfo } from "../generated/index.js";
import type { RouteCondition, RouteRule } from "./config.js";
import { RoutingError, type Router } from "./router.js";

/** A route pattern that leads to a component, as upstream's `RouteMatch` (camelCase, as upstream serialises it). */
export interface RouteMatch {
  pathPattern: string;
  /** The step `component` that reaches it; a pattern parameter the component does not fix stays `{name}`. */
  resolvedPath: string;
  conditions: RouteCondition[];
  isConditional: boolean;
}

export interface ListedComponent extends ComponentInfo {
  plugin: string;
  routes: RouteMatch[];
}

export interface ListComponentsOptions {
  /** Also list components no route reaches (upstream `--no-hide-unreachable`). Default false. */
  includeUnreachable?: boolean;
}

export interface ComponentListing {
  /** Sorted by component name, then plugin. */
  components: ListedComponent[];
  /** Plugins that could not be started or listed, with why. */
  errors: { plugin: string; message: string }[];
}

/** Lists the components of every plugin of a router (starting each one), with their routes. */
export async function listComponents(router: Router, options: ListComponentsOptions = {}): Promise<ComponentListing> {
  const components: ListedComponent[] = [];
  const errors: ComponentListing["errors"] = [];
  for (const plugin of router.pluginNames()) {
    let infos: ComponentInfo[];
    try {
      infos = await router.listComponents(plugin);
    } catch (error) {
      errors.push({ plugin, message: (error as Error).message });
      continue;
    }
    for (const info of infos) {
      const routes = routesTo(router, plugin, info.component);
      if (routes.length > 0 || options.includeUnreachable) components.push({ ...info, plugin, routes });
    }
  }
  components.sort((a, b) => compare(a.component, b.component) || compare(a.plugin, b.plugin));
  return { components, errors };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The routes whose rules send some step component to `component` of `plugin`. Where the path is
 * fully known, forward routing must agree (a literal pattern can shadow a parameter).
 */
export function routesTo(router: Router, plugin: string, component: string): RouteMatch[] {
  const matches: RouteMatch[] = [];
  for (const [pattern, rules] of Object.entries(router.config.routes)) {
    const direct = rules.length === 1 && !rules[0]!.conditions?.length;
    for (const rule of rules) {
      if (rule.plugin !== plugin) continue;
      if (!direct && !passes(rule, component)) continue;
      const params = paramsFor(rule, component);
      const resolvedPath = params && fillPattern(pattern, params);
      if (resolvedPath === undefined || !reaches(router, resolvedPath, plugin, component)) continue;
      const conditions = rule.conditions ?? [];
      matches.push({ pathPattern: pattern, resolvedPath, conditions, isConditional: conditions.length > 0 });
    }
  }
  return matches;
}

const passes = (rule: RouteRule, name: string) =>
  (rule.componentAllow === undefined || rule.componentAllow.includes(name)) && (rule.componentDeny === undefined || !rule.componentDeny.includes(name));

/** The pattern parameters that make a rule send `component`: read back through its template, or `{component}` = the name without its `/`. */
function paramsFor(rule: RouteRule, component: string): Record<string, string> | undefined {
  if (rule.component === undefined) return component.startsWith("/") ? { component: component.slice(1) } : undefined;
  const names: string[] = [];
  const source = rule.component
    .split(/(\{\*?[^{}]+\})/)
    .map((part) => {
      const param = /^\{(\*?)([^{}]+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[2]!);
      return param[1] ? "(.+)" : "([^/]+)";
    })
    .join("");
  const match = new RegExp(`^${source}$`).exec(component);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    if (Object.hasOwn(params, name) && params[name] !== match[i + 1]) return undefined;
    params[name] = match[i + 1]!;
  }
  return params;
}

/** The pattern with bound parameters filled in; `undefined` when a value does not fit its segment. */
function fillPattern(pattern: string, params: Record<string, string>): string | undefined {
  const segments = pattern.split("/").map((segment) => {
    const param = /^\{(\*?)([^{}]+)\}$/.exec(segment);
    if (!param || !Object.hasOwn(params, param[2]!)) return segment;
    const value = params[param[2]!]!;
    return value === "" || (!param[1] && value.includes("/")) ? undefined : value;
  });
  return segments.includes(undefined) ? undefined : segments.join("/");
}

function reaches(router: Router, path: string, plugin: string, component: string): boolean {
  if (/\{[^{}]*\}/.test(path)) return true;
  try {
    return router.candidates(path).some((route) => route.pluginName === plugin && route.component === component);
  } catch (error) {
    if (error instanceof RoutingError) return false;
    throw error;
  }
}
