import { graphBuilder, GraphInputError, isObject, token, type Graph, type GraphEdge } from "./model.js";

interface Reference {
  pointer: string;
  step?: string;
  path?: string;
  onSkip?: string;
}

/**
 * Every `$from` reference in a value template (protocol notes §2.4): an object with `$from` is a
 * reference whatever its other keys; `$literal` is data, never searched.
 */
function references(value: unknown, pointer: string, topLevelOnly = false): Reference[] {
  if (isObject(value)) {
    if ("$from" in value) {
      const base = value.$from;
      const where = `${pointer}/$from`;
      if (!isObject(base) || (typeof base.step !== "string" && base.workflow !== "input")) {
        throw new GraphInputError(where, '"$from" must be {"step": "<id>"} or {"workflow": "input"}');
      }
      const onSkip = isObject(value.onSkip) && typeof value.onSkip.action === "string" ? value.onSkip.action : undefined;
      return [{ pointer, step: typeof base.step === "string" ? base.step : undefined, path: typeof value.path === "string" ? value.path : undefined, onSkip }];
    }
    if ("$literal" in value || topLevelOnly) return [];
    return Object.entries(value).flatMap(([key, sub]) => references(sub, `${pointer}/${token(key)}`));
  }
  if (Array.isArray(value) && !topLevelOnly) return value.flatMap((sub, i) => references(sub, `${pointer}/${i}`));
  return [];
}

/**
 * A StepFlow flow: the workflow input, each step (id and component) and the output, with an
 * arrow for each `$from` reference. `skipIf` arrows are dashed orange, references with an
 * `onSkip` default orange, `onError` default-value references dotted red.
 */
export function stepflowGraph(doc: unknown): Graph {
  if (!isObject(doc) || !Array.isArray(doc.steps)) throw new GraphInputError("/steps", "a StepFlow flow needs a steps array");
  const g = graphBuilder(typeof doc.name === "string" ? `StepFlow flow ${doc.name}` : "StepFlow flow", "TB");
  const ids = new Set<string>();
  doc.steps.forEach((step, i) => {
    if (!isObject(step) || typeof step.id !== "string") throw new GraphInputError(`/steps/${i}/id`, "every step needs a string id");
    if (ids.has(step.id)) throw new GraphInputError(`/steps/${i}/id`, `step id "${step.id}" is used twice`);
    ids.add(step.id);
  });
  g.node({ id: "input", label: ["workflow input"], tone: "io" });

  const connect = (ref: Reference, to: string, edge: Omit<GraphEdge, "from" | "to">) => {
    let from = "input";
    if (ref.step !== undefined) {
      from = `step:${ref.step}`;
      if (!ids.has(ref.step)) {
        g.node({ id: from, label: [ref.step, "(no such step)"], tone: "missing" });
        g.warn(`${ref.pointer}/$from/step`, `references step "${ref.step}", which the flow does not define`);
      }
    }
    g.edge({ from, to, ...edge });
  };
  const dataEdge = (ref: Reference): Omit<GraphEdge, "from" | "to"> => {
    const label = [ref.path, ref.onSkip && ref.onSkip !== "skip" ? `onSkip: ${ref.onSkip}` : undefined].filter(Boolean).join(" ");
    return { ...(label ? { label } : {}), style: "solid", tone: ref.onSkip && ref.onSkip !== "skip" ? "skip" : "data" };
  };

  doc.steps.forEach((step, i) => {
    const s = step as Record<string, unknown>;
    const id = `step:${s.id as string}`;
    const onError = isObject(s.onError) && typeof s.onError.action === "string" && s.onError.action !== "fail" ? s.onError.action : undefined;
    g.node({ id, label: [s.id as string, ...(typeof s.component === "string" ? [s.component] : []), ...(onError ? [`onError: ${onError}`] : [])], tone: "step", pointer: `/steps/${i}` });
    for (const ref of references(s.input, `/steps/${i}/input`)) connect(ref, id, dataEdge(ref));
    for (const ref of references(s.skipIf, `/steps/${i}/skipIf`, true)) connect(ref, id, { label: `skipIf${ref.path ? ` ${ref.path}` : ""}`, style: "dashed", tone: "skip" });
    if (isObject(s.onError)) {
      for (const ref of references(s.onError.defaultValue, `/steps/${i}/onError/defaultValue`)) connect(ref, id, { label: "onError default", style: "dotted", tone: "error" });
    }
  });
  if (doc.output !== undefined) {
    g.node({ id: "output", label: ["flow output"], tone: "io", pointer: "/output" });
    for (const ref of references(doc.output, "/output")) connect(ref, "output", dataEdge(ref));
  }
  return g.graph;
}
