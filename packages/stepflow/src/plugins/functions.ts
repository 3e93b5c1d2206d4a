/** Components written as TypeScript functions, run in-process. */
import { success } from "../engine/result.js";
import { ComponentError } from "./errors.js";
import type { ComponentContext, Plugin } from "./types.js";

/**
 * A component as a function: receives the resolved step input and returns (or resolves to) its
 * output, which becomes a successful step. A throw or rejection is an execution error, as a
 * JSON-RPC error from a component server is.
 */
export type ComponentFunction<I = any, O = unknown> = (input: I, context: ComponentContext) => O | Promise<O>;

/** Normalises a component name to a leading `/`. */
export function componentName(name: string): string {
  return name.startsWith("/") ? name : `/${name}`;
}

/** A plugin serving functions by name (the name after routing, e.g. `/double`). */
export function functionsPlugin(functions: Record<string, ComponentFunction>): Plugin {
  const table = new Map(Object.entries(functions).map(([name, fn]) => [componentName(name), fn]));
  return {
    kind: "functions",
    serves: (component) => table.has(component),
    async list() {
      return [...table.keys()].map((component) => ({ component }));
    },
    async execute(component, input, context) {
      const fn = table.get(component);
      if (!fn) throw new ComponentError(component, `no function registered (known: ${[...table.keys()].join(", ")})`);
      return success(await fn(input, context));
    },
  };
}
