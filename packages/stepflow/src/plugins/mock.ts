/**
 * The config-driven test double (protocol notes §4.5). A component answers by comparing its input
 * for deep JSON equality with each behaviour key. A `FlowResult` behaviour is the step result (so
 * `failed`/`skipped` are step failures/skips); `{error: "…"}`, an input without behaviour or an
 * unknown component is an execution error.
 */
import { plainNumbers } from "@flowspec/runtime";
import type { FlowResult, Schema } from "../generated/index.js";
import { deepEqual, isObject } from "../values.js";
import { ComponentError } from "./errors.js";
import type { Plugin } from "./types.js";

export type MockBehavior = FlowResult | { error: string };

export interface MockComponent {
  input_schema?: unknown;
  output_schema?: unknown;
  /** `[input, behaviour]` pairs, a `Map` from input to behaviour, or an object keyed by string inputs. */
  behaviors: Array<[unknown, MockBehavior]> | Map<unknown, MockBehavior> | Record<string, MockBehavior>;
}

export interface MockPluginConfig {
  components: Record<string, MockComponent>;
}

/** Creates a mock plugin; throws for a behaviour that is neither a FlowResult nor `{error}`. */
export function mockPlugin(config: MockPluginConfig): Plugin {
  if (!isObject(config) || !isObject(config.components)) throw new Error("a mock plugin needs components: a mapping of component name to {behaviors}");
  const components = new Map<string, Array<[unknown, MockBehavior]>>();
  for (const [name, component] of Object.entries(config.components)) {
    if (!isObject(component)) throw new Error(`mock component ${JSON.stringify(name)} must be a mapping with behaviors`);
    const behaviors = pairs(component.behaviors, name);
    behaviors.forEach(([, behavior], i) => checkBehavior(behavior, `mock component ${JSON.stringify(name)}, behaviour ${i + 1}`));
    components.set(name, behaviors);
  }
  return {
    kind: "mock",
    serves: (component) => components.has(component),
    async list() {
      return [...components.keys()].map((component) => {
        const c = config.components[component]!;
        return { component, input_schema: c.input_schema as Schema | undefined, output_schema: c.output_schema as Schema | undefined };
      });
    },
    async execute(component, input) {
      const behaviors = components.get(component);
      if (!behaviors) throw new ComponentError(component, `unknown mock component (known: ${[...components.keys()].join(", ")})`);
      // A stepflow-config is read with plain numbers, so the input is matched as plain numbers too.
      const plain = plainNumbers(input);
      const match = behaviors.find(([key]) => deepEqual(key, plain));
      if (!match) throw new ComponentError(component, `no mock behaviour for input ${JSON.stringify(input)}`);
      const behavior = match[1];
      if ("outcome" in behavior) return behavior;
      throw new ComponentError(component, behavior.error);
    },
  };
}

function pairs(behaviors: unknown, name: string): Array<[unknown, MockBehavior]> {
  if (behaviors === undefined || behaviors === null) return [];
  if (behaviors instanceof Map) return [...behaviors] as Array<[unknown, MockBehavior]>;
  if (Array.isArray(behaviors)) {
    if (!behaviors.every((p) => Array.isArray(p) && p.length === 2)) throw new Error(`mock component ${JSON.stringify(name)}: behaviors as a list must hold [input, behaviour] pairs`);
    return behaviors as Array<[unknown, MockBehavior]>;
  }
  if (isObject(behaviors)) return Object.entries(behaviors) as Array<[unknown, MockBehavior]>;
  throw new Error(`mock component ${JSON.stringify(name)}: behaviors must be a mapping from input to behaviour`);
}

function checkBehavior(behavior: unknown, where: string): void {
  if (isObject(behavior)) {
    if (behavior.outcome === "success" && Object.hasOwn(behavior, "result")) return;
    if (behavior.outcome === "skipped") return;
    if (behavior.outcome === "failed" && isObject(behavior.error) && Number.isInteger(behavior.error.code) && typeof behavior.error.message === "string") return;
    if (behavior.outcome === undefined && typeof behavior.error === "string") return;
  }
  throw new Error(`${where}: must be a FlowResult ({outcome: success, result} | {outcome: skipped} | {outcome: failed, error: {code, message}}) or {error: "<message>"}`);
}
