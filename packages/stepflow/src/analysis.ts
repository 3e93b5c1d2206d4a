/**
 * Reads a flow once: compiles its templates (§2.4) and applies the static rules of §6.7. Both the
 * engine (which needs the compiled templates and the fatal rules) and `checkFlow` use it.
 */
import type { Diagnostic } from "./diagnostics.js";
import { TemplateCompiler, type Template } from "./template.js";
import { isObject } from "./values.js";

export type ErrorPolicy =
  | { action: "fail" }
  | { action: "skip" }
  | { action: "useDefault"; defaultValue: Template | undefined }
  | { action: "retry" };

export interface AnalyzedStep {
  index: number;
  id: string;
  component: string;
  /** JSON Pointer of the step, `/steps/<index>`. */
  pointer: string;
  input: Template;
  skipIf: Template | undefined;
  onError: ErrorPolicy;
  /** Indices of the earlier steps this step's `input` and `skipIf` reference (deduplicated). */
  deps: number[];
}

export interface FlowAnalysis {
  steps: AnalyzedStep[];
  output: Template;
  /** Structural issues (§2.4) and §6.7 findings, in document order. */
  diagnostics: Diagnostic[];
  /** The index of each step id's first step; blank ids (an `empty-step-id` error) are not in it. */
  firstIndex: Map<string, number>;
}

/** Analyses a flow that has passed the schema validator (or at least has a `steps` array). */
export function analyzeFlow(flow: Record<string, unknown>): FlowAnalysis {
  const compiler = new TemplateCompiler();
  const diagnostics: Diagnostic[] = [];
  const rawSteps = Array.isArray(flow.steps) ? (flow.steps as unknown[]) : [];
  const firstIndex = new Map<string, number>();
  const steps: AnalyzedStep[] = [];
  // Each step's `input` and `skipIf` references are compiler.refs[refsStart[i] .. refsEnd[i]): two
  // numbers a step instead of an array each (a cold first run of a large flow pays for every object).
  const refsStart = new Int32Array(rawSteps.length);
  const refsEnd = new Int32Array(rawSteps.length);

  rawSteps.forEach((raw, index) => {
    const pointer = `/steps/${index}`;
    const step = isObject(raw) ? raw : {};
    const id = typeof step.id === "string" ? step.id : "";
    const component = typeof step.component === "string" ? step.component : "";
    if (id.trim() === "") {
      diagnostics.push({ level: "error", rule: "empty-step-id", path: `${pointer}/id`, message: "step id must not be empty or whitespace" });
    } else if (firstIndex.has(id)) {
      diagnostics.push({
        level: "error",
        rule: "duplicate-step-id",
        path: `${pointer}/id`,
        message: `duplicate step id ${JSON.stringify(id)} (first defined at /steps/${firstIndex.get(id)})`,
      });
    } else {
      firstIndex.set(id, index);
    }
    if (typeof step.component === "string" && !component.startsWith("/")) {
      diagnostics.push({
        level: "error",
        rule: "component-not-absolute",
        path: `${pointer}/component`,
        message: `component ${JSON.stringify(component)} must start with "/"`,
      });
    }
    refsStart[index] = compiler.refs.length;
    const skipIf = step.skipIf === undefined || step.skipIf === null ? undefined : compiler.expr(step.skipIf, `${pointer}/skipIf`);
    const input = compiler.template(step.input, `${pointer}/input`);
    refsEnd[index] = compiler.refs.length;
    steps.push({ index, id, component, pointer, input, skipIf, onError: errorPolicy(step.onError, compiler, pointer), deps: NO_DEPS });
  });

  const outputStart = compiler.refs.length;
  const output = compiler.template(flow.output, "/output");
  const outputRefs = compiler.refs.slice(outputStart);

  // References of step inputs and skipIf: only earlier steps.
  const referenced = new Uint8Array(steps.length);
  const refs = compiler.refs;
  steps.forEach((step, index) => {
    const end = refsEnd[index]!;
    // Deduplicated in first-reference order; a Set only for a step with many references.
    let deps: number[] | undefined;
    let seen: Set<number> | undefined;
    if (end - refsStart[index]! > 16) seen = new Set<number>();
    for (let r = refsStart[index]!; r < end; r++) {
      const ref = refs[r]!;
      if (ref.base.kind !== "step") continue;
      const target = ref.base.step;
      const targetIndex = firstIndex.get(target);
      if (target === step.id) {
        diagnostics.push({ level: "error", rule: "self-reference", path: `${ref.pointer}/$from/step`, message: `step ${JSON.stringify(step.id)} references itself` });
      } else if (targetIndex === undefined) {
        diagnostics.push({ level: "error", rule: "undefined-step", path: `${ref.pointer}/$from/step`, message: `step ${JSON.stringify(step.id)} references undefined step ${JSON.stringify(target)}` });
      } else if (targetIndex > index) {
        diagnostics.push({
          level: "error",
          rule: "later-step",
          path: `${ref.pointer}/$from/step`,
          message: `step ${JSON.stringify(step.id)} references step ${JSON.stringify(target)}, which is defined later (/steps/${targetIndex}); a step may only reference earlier steps`,
        });
      } else {
        if (deps === undefined) deps = [targetIndex];
        else if (seen ? !seen.has(targetIndex) : !deps.includes(targetIndex)) deps.push(targetIndex);
        seen?.add(targetIndex);
        referenced[targetIndex] = 1;
      }
    }
    if (deps !== undefined) step.deps = deps;
  });
  for (const ref of outputRefs) {
    if (ref.base.kind !== "step") continue;
    const targetIndex = firstIndex.get(ref.base.step);
    if (targetIndex === undefined) {
      diagnostics.push({
        level: "error",
        rule: "undefined-step",
        path: `${ref.pointer}/$from/step`,
        message: `output references undefined step ${JSON.stringify(ref.base.step)}`,
      });
    } else {
      referenced[targetIndex] = 1;
    }
  }
  // onError.defaultValue references are not validated, but they do make a step "used".
  for (const ref of compiler.refs) {
    if (ref.base.kind === "step" && ref.pointer.includes("/onError/")) {
      const targetIndex = firstIndex.get(ref.base.step);
      if (targetIndex !== undefined) referenced[targetIndex] = 1;
    }
  }

  for (const issue of compiler.issues) diagnostics.push({ level: "error", rule: issue.rule, path: issue.pointer, message: issue.message });
  steps.forEach((step, index) => {
    if (referenced[index] === 0 && step.id.trim() !== "") {
      diagnostics.push({
        level: "warning",
        rule: "unreachable-step",
        path: step.pointer,
        message: `step ${JSON.stringify(step.id)} is not referenced by any step or by the output (it still runs)`,
      });
    }
  });
  if (typeof flow.name !== "string" || flow.name === "") diagnostics.push({ level: "warning", rule: "missing-name", path: "/name", message: "the flow has no name" });
  if (typeof flow.description !== "string" || flow.description === "") {
    diagnostics.push({ level: "warning", rule: "missing-description", path: "/description", message: "the flow has no description" });
  }
  diagnostics.sort((a, b) => comparePointers(a.path, b.path));
  return { steps, output, diagnostics, firstIndex };
}

/** The policies without a value, one object each for every step (read, never written). */
const FAIL: ErrorPolicy = Object.freeze({ action: "fail" });
const SKIP: ErrorPolicy = Object.freeze({ action: "skip" });
const RETRY: ErrorPolicy = Object.freeze({ action: "retry" });
/** The `deps` of a step without any: one shared empty list. */
const NO_DEPS: number[] = Object.freeze([]) as unknown as number[];

/** A step's `onError` (`stepPointer` is the step's pointer). */
function errorPolicy(value: unknown, compiler: TemplateCompiler, stepPointer: string): ErrorPolicy {
  if (!isObject(value)) return FAIL;
  switch (value.action) {
    case "skip":
      return SKIP;
    case "retry":
      return RETRY;
    case "useDefault":
      return {
        action: "useDefault",
        defaultValue: value.defaultValue === undefined || value.defaultValue === null ? undefined : compiler.template(value.defaultValue, `${stepPointer}/onError/defaultValue`),
      };
    default:
      return FAIL;
  }
}

/** Orders diagnostics by step (document order); flow-level ones after the steps. Stable otherwise. */
function comparePointers(a: string, b: string): number {
  return stepOf(a) - stepOf(b);
}

function stepOf(pointer: string): number {
  const match = /^\/steps\/(\d+)/.exec(pointer);
  return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
}
