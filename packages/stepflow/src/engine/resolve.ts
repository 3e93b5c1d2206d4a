/**
 * Template resolution (protocol notes §6.1, §6.2): references read the run input or a step's
 * result; objects (in key order) and arrays are resolved element by element and the first `skipped`
 * or `failed` element makes the whole template that result.
 */
import { PathResolutionError, selectPath } from "../path.js";
import type { RefTemplate, Template } from "../template.js";
import type { FlowResult } from "../generated/index.js";
import { ExecutionError, REASONS } from "./errors.js";
import { SKIPPED, success } from "./result.js";

export interface ResolveScope {
  input: unknown;
  /** Results of completed steps, by step index; `undefined` while a step has not completed. */
  results: readonly (FlowResult | undefined)[];
  indexOf: ReadonlyMap<string, number>;
}

export function resolveTemplate(template: Template, scope: ResolveScope): FlowResult {
  switch (template.kind) {
    case "value":
      return success(template.value);
    case "ref":
      return resolveRef(template, scope);
    case "array": {
      const out = new Array<unknown>(template.items.length);
      for (let i = 0; i < template.items.length; i++) {
        const item = resolveTemplate(template.items[i]!, scope);
        if (item.outcome !== "success") return item;
        out[i] = item.result;
      }
      return success(out);
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < template.keys.length; i++) {
        const item = resolveTemplate(template.values[i]!, scope);
        if (item.outcome !== "success") return item;
        const key = template.keys[i]!;
        if (key === "__proto__") Object.defineProperty(out, key, { value: item.result, enumerable: true, writable: true, configurable: true });
        else out[key] = item.result;
      }
      return success(out);
    }
  }
}

function resolveRef(ref: RefTemplate, scope: ResolveScope): FlowResult {
  let base: FlowResult | undefined;
  if (ref.base.kind === "input") {
    base = success(scope.input);
  } else {
    const index = scope.indexOf.get(ref.base.step);
    base = index === undefined ? undefined : scope.results[index];
    if (!base) {
      const why = index === undefined ? "is not defined" : "has not completed";
      throw new ExecutionError(REASONS.resolve, `step ${JSON.stringify(ref.base.step)} ${why}`, undefined, ref.pointer);
    }
  }
  switch (base.outcome) {
    case "success":
      if (ref.path.length === 0) return base;
      try {
        return success(selectPath(base.result, ref.path));
      } catch (error) {
        if (!(error instanceof PathResolutionError)) throw error;
        const what = ref.base.kind === "input" ? "the input" : `the result of step ${JSON.stringify(ref.base.step)}`;
        throw new ExecutionError(REASONS.resolve, `${error.message} (in ${what})`, undefined, ref.pointer);
      }
    case "skipped":
      return ref.onSkip.action === "skip" ? SKIPPED : success(ref.onSkip.defaultValue);
    default:
      return base;
  }
}
