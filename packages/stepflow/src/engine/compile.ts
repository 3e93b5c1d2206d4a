import { analyzeFlow, type FlowAnalysis } from "../analysis.js";
import { isFatal, schemaDiagnostics, type Diagnostic } from "../diagnostics.js";
import { validateFlow } from "../validate.js";
import type { Flow } from "../generated/index.js";
import { InvalidFlowError } from "./errors.js";

/** A flow read for running: its analysis, the index of each step id, and the fatal findings. */
export interface CompiledFlow extends FlowAnalysis {
  flow: Flow;
  indexOf: Map<string, number>;
  /** §6.7 fatal findings: the run fails with "error analyzing workflow". */
  fatal: Diagnostic[];
  /**
   * For each step `i`, the steps that depend on it, in step order: `dependents[dependentsStart[i]]`
   * up to `dependents[dependentsStart[i + 1]]` (two typed arrays, not an array a step).
   */
  dependentsStart: Int32Array;
  dependents: Int32Array;
}

/**
 * A compiled flow and the JSON text of the flow it was compiled from; `null` for a flow compiled
 * once so far, which is not serialised: most flows run once, and for them the text was a seventh
 * of the compile time.
 */
const cache = new WeakMap<object, { text: string; compiled: CompiledFlow } | null>();

/**
 * Reads a flow the way the runtime deserialises it: schema (with `schema` required) and the
 * structural `$from`/`$literal`/path check. Throws `InvalidFlowError` when either fails. Cached per
 * flow object from its second run on, so a flow run many times (by `/builtin/map`) is read twice,
 * not once a run; the cache is checked against the flow's JSON text, so a flow changed in place is
 * read again.
 */
export function compileFlow(flow: unknown): CompiledFlow {
  let text: string | undefined;
  if (typeof flow === "object" && flow !== null) {
    const cached = cache.get(flow);
    if (cached === undefined) {
      cache.set(flow, null);
    } else {
      // Serialising is far cheaper than validating and analysing again (and than running the steps).
      try {
        text = JSON.stringify(flow);
      } catch {
        // Not JSON (a cycle, a BigInt): never cached; the validator says what is wrong.
      }
      if (cached && cached.text === text) return cached.compiled;
    }
  }
  const validation = validateFlow(flow);
  if (!validation.ok) throw new InvalidFlowError(schemaDiagnostics(validation.errors));
  const analysis = analyzeFlow(validation.value);
  const structural = analysis.diagnostics.filter((d) => d.rule === "malformed-reference" || d.rule === "invalid-path");
  if (structural.length > 0) throw new InvalidFlowError(structural);
  const steps = analysis.steps;
  const fatal = analysis.diagnostics.filter(isFatal);
  // The analysis's index of ids is every step's but blank ones', which are fatal (and a flow with a
  // fatal finding never runs): for a flow that runs, it is the index of every id.
  const indexOf = analysis.firstIndex;
  let edges = 0;
  const dependentsStart = new Int32Array(steps.length + 1);
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    edges += step.deps.length;
    for (const dep of step.deps) dependentsStart[dep + 1]!++;
  }
  for (let i = 0; i < steps.length; i++) dependentsStart[i + 1]! += dependentsStart[i]!;
  const dependents = new Int32Array(edges);
  const next = dependentsStart.slice(0, steps.length);
  for (const step of steps) for (const dep of step.deps) dependents[next[dep]!++] = step.index;
  const compiled: CompiledFlow = { ...analysis, flow: validation.value, indexOf, fatal, dependentsStart, dependents };
  if (text !== undefined) cache.set(flow as object, { text, compiled });
  return compiled;
}
