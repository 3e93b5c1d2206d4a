/**
 * Running a flow's `test.cases` (protocol notes §6.9) on one router shared by the cases. A case that
 * needs a component no configured plugin can serve, including components reached only inside nested
 * flows, is skipped with the reason, never passed.
 */
import type { Flow, FlowResult } from "../generated/index.js";
import { runFlow } from "../engine/run.js";
import { createRouter, RoutingError, type Router, type RouterOptions } from "../router/router.js";
import { isObject } from "../values.js";
import { resultsMatch } from "./compare.js";

export interface CaseReport {
  name: string;
  /** The case's position in the flow's `test.cases`. */
  index: number;
  status: "passed" | "failed" | "skipped";
  /** Why a case was skipped or failed. */
  reason?: string;
  expected?: FlowResult;
  actual?: FlowResult;
  /** The execution error behind a `failed` 500 result, with its step and JSON Pointer. */
  detail?: string;
  durationMs: number;
}

export interface TestCasesOptions extends RouterOptions {
  router?: Router;
  signal?: AbortSignal;
  /** A reason to skip every case (e.g. a test server that cannot be started), decided by the caller. */
  skipReason?: string;
  /** Run only the cases with these names (`--case`); default: every case. */
  cases?: readonly string[];
}

/** Runs the test cases of a flow (all, or those `options.cases` names) and compares each result with its expected output. */
export async function runTestCases(flow: Flow, options: TestCasesOptions = {}): Promise<CaseReport[]> {
  const wanted = options.cases && options.cases.length > 0 ? new Set(options.cases) : undefined;
  const cases = (isObject(flow.test) && Array.isArray(flow.test.cases) ? flow.test.cases : [])
    .map((testCase, index) => ({ testCase, index, name: String(testCase.name) }))
    .filter(({ name }) => !wanted || wanted.has(name));
  if (cases.length === 0) return [];
  const router = options.router ?? createRouter(options);
  const skip = options.skipReason ?? (await unservableReason(flow, router));
  const reports: CaseReport[] = [];
  for (const { testCase, index, name } of cases) {
    if (skip) {
      reports.push({ name, index, status: "skipped", reason: skip, durationMs: 0 });
      continue;
    }
    const started = performance.now();
    let detail: string | undefined;
    const actual = await runFlow(flow, testCase.input ?? null, {
      router,
      signal: options.signal,
      onExecutionError: (error) => {
        detail = `${error.stepId ? `step ${JSON.stringify(error.stepId)}: ` : ""}${error.pointer ? `${error.pointer}: ` : ""}${error.message}`;
      },
    });
    const durationMs = performance.now() - started;
    const expected = testCase.output ?? undefined;
    if (!expected) {
      reports.push({ name, index, status: "failed", reason: "the case has no expected output", actual, detail, durationMs });
    } else if (resultsMatch(actual, expected)) {
      reports.push({ name, index, status: "passed", expected, actual, durationMs });
    } else {
      reports.push({ name, index, status: "failed", reason: "the result differs from the expected output", expected, actual, detail, durationMs });
    }
  }
  return reports;
}

/**
 * Why a router cannot run a flow, or `undefined`: every component (of the flow's steps or of any
 * nested flow it carries, e.g. under `$literal`) that no route leads to, whose plugin does not know
 * it, or whose plugin cannot run here (e.g. its command is not installed).
 */
export async function unservableReason(flow: Flow, router: Router): Promise<string | undefined> {
  const problems: string[] = [];
  for (const component of neededComponents(flow)) {
    let routes;
    try {
      routes = router.candidates(component);
    } catch (error) {
      if (!(error instanceof RoutingError)) throw error;
      problems.push(`${JSON.stringify(component)}: no route (${error.message.replace(/^cannot route "[^"]*": /, "")})`);
      continue;
    }
    const reasons: string[] = [];
    for (const route of routes) {
      if (route.plugin.serves && !route.plugin.serves(route.component)) {
        reasons.push(`plugin ${JSON.stringify(route.pluginName)} has no component ${JSON.stringify(route.component)}`);
        continue;
      }
      const unavailable = await route.plugin.unavailableReason?.();
      if (!unavailable) break;
      reasons.push(unavailable);
    }
    if (reasons.length === routes.length) problems.push(`${JSON.stringify(component)}: ${reasons.join("; ")}`);
  }
  return problems.length > 0 ? `needs components no configured plugin can serve: ${problems.join("; ")}` : undefined;
}

/** The components of a flow's steps and of every nested flow found in their inputs, in order, once each. */
export function neededComponents(flow: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, isFlow: boolean): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, false));
    if (!isObject(value)) return;
    if (isFlow || Array.isArray(value.steps)) {
      for (const step of Array.isArray(value.steps) ? value.steps : []) {
        if (!isObject(step)) continue;
        if (typeof step.component === "string") found.add(step.component);
        visit(step.input, false);
      }
      return;
    }
    for (const child of Object.values(value)) visit(child, false);
  };
  visit(flow, true);
  return [...found];
}
