/** Components written as TypeScript functions, run in-process. */
import { isThenable, plainNumbers } from "@flowspec/runtime";
import { success } from "../engine/result.js";
import type { FlowResult } from "../generated/index.js";
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

/**
 * Components by their normalised names. Throws when two names differ only by the leading `/`
 * (`echo` and `/echo`): one would silently replace the other.
 */
export function componentsByName<T>(components: Record<string, T>): Map<string, T> {
  const table = new Map<string, T>();
  const given = new Map<string, string>();
  for (const [name, component] of Object.entries(components)) {
    const normal = componentName(name);
    const other = given.get(normal);
    if (other !== undefined) throw new Error(`components ${JSON.stringify(other)} and ${JSON.stringify(name)} are both the component ${normal}`);
    given.set(normal, name);
    table.set(normal, component);
  }
  return table;
}

/** Nothing returned is `null`, as a component server answers it: a step result is JSON. */
const toResult = (output: unknown): FlowResult => success(output === undefined ? null : output);

export interface FunctionsPluginOptions {
  /**
   * Whether the functions get integral floats (`2.0`) as `JsonFloat`, to pass them on as floats.
   * Off by default: a function's input holds plain numbers. What it returns is written as JavaScript
   * writes it (`2` is an integer) unless it returns a `JsonFloat` (`jsonFloat(2)` is `2.0`).
   */
  keepFloats?: boolean;
}

/** A plugin serving functions by name (the name after routing, e.g. `/double`). */
export function functionsPlugin(functions: Record<string, ComponentFunction>, options: FunctionsPluginOptions = {}): Plugin {
  const table = componentsByName(functions);
  return {
    kind: "functions",
    serves: (component) => table.has(component),
    async list() {
      return [...table.keys()].map((component) => ({ component }));
    },
    // Not an async function: a function that answers synchronously costs its step one promise,
    // not three (the engine's cost per step; test "a synchronous component costs one microtask").
    execute(component, input, context) {
      const fn = table.get(component);
      if (!fn) return Promise.reject(new ComponentError(component, `no function registered (known: ${[...table.keys()].join(", ")})`));
      let output: unknown;
      try {
        output = fn(options.keepFloats ? input : plainNumbers(input), context);
      } catch (error) {
        return Promise.reject(error);
      }
      return isThenable(output) ? Promise.resolve(output).then(toResult) : Promise.resolve(toResult(output));
    },
  };
}
