/**
 * `checkFlow`: the static checks of a flow (protocol notes §2.4, §6.7). Errors: schema violations,
 * malformed `$from`/`$literal` objects, invalid paths, empty or duplicate step ids, references to
 * undefined, later or own steps, components not starting with `/` (and, given a router, components
 * no route serves). Warnings: unreachable steps, a missing name or description. Nested flows carried
 * as data (`$literal` flows for `/eval`, `/map`, `/iterate`) are checked on their own.
 */
import { toPointer, type SourceDocument } from "@flowspec/runtime";
import { analyzeFlow } from "./analysis.js";
import { locate, schemaDiagnostics, type Diagnostic } from "./diagnostics.js";
import type { Router } from "./router/router.js";
import { RoutingError } from "./router/router.js";
import { validateFlow } from "./validate.js";
import { isObject } from "./values.js";

export interface CheckOptions {
  /** The document the flow came from: diagnostics then carry `file:line:column`. */
  source?: SourceDocument;
  /** When given, components that no route of this router serves are errors too. */
  router?: Router;
}

/** Every diagnostic of a flow, in document order, each with a JSON Pointer (and a location when `source` is given). */
export function checkFlow(flow: unknown, options: CheckOptions = {}): Diagnostic[] {
  const diagnostics = checkAt(flow, "", true, options.router);
  return locate(diagnostics, options.source);
}

function checkAt(flow: unknown, prefix: string, top: boolean, router: Router | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (top) {
    const validation = validateFlow(flow);
    if (!validation.ok) for (const d of schemaDiagnostics(validation.errors)) out.push(d);
  }
  if (!isObject(flow)) return out.map((d) => ({ ...d, path: prefix + d.path }));
  const analysis = analyzeFlow(flow);
  // Loops, not push(...list): a spread of 150,000 diagnostics overflows the stack.
  for (const d of analysis.diagnostics) if (top || (d.rule !== "missing-name" && d.rule !== "missing-description")) out.push(d);
  if (router) {
    for (const step of analysis.steps) {
      if (!step.component.startsWith("/")) continue;
      try {
        router.candidates(step.component);
      } catch (error) {
        if (!(error instanceof RoutingError)) throw error;
        out.push({ level: "error", rule: "unknown-component", path: `${step.pointer}/component`, message: `no route serves component ${JSON.stringify(step.component)}: ${error.message}` });
      }
    }
  }
  const located = out.map((d) => ({ ...d, path: prefix + d.path }));
  // Nested flows: `$literal` values that look like flows, anywhere in step inputs.
  const steps = Array.isArray(flow.steps) ? flow.steps : [];
  steps.forEach((step, i) => {
    if (!isObject(step)) return;
    findNested(step.input, `${prefix}/steps/${i}/input`, (nested, at) => {
      for (const d of checkAt(nested, at, false, router)) located.push(d);
    });
  });
  return located;
}

function findNested(value: unknown, pointer: string, visit: (flow: Record<string, unknown>, pointer: string) => void): void {
  if (Array.isArray(value)) return value.forEach((item, i) => findNested(item, `${pointer}/${i}`, visit));
  if (!isObject(value)) return;
  if (Object.hasOwn(value, "$literal")) {
    const literal = value.$literal;
    if (isObject(literal) && Array.isArray(literal.steps)) visit(literal, `${pointer}/$literal`);
    return;
  }
  if (Object.hasOwn(value, "$from")) return;
  for (const key of Object.keys(value)) findNested(value[key], pointer + toPointer([key]), visit);
}
