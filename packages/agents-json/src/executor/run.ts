import { AmbiguousFlowError, FlowRunError, LinkResolutionError, LinkWriteError, PlanError, TransportError, UnknownFlowError } from "../errors.js";
import { deepMerge, isPlainObject, readPath, writePath } from "../fieldpath.js";
import { load } from "../loader/load.js";
import type { LoadedAgentsJson, NormalisedFlow, NormalisedLink } from "../loader/types.js";
import { loadSources, type LoadedSources } from "../sources/load-sources.js";
import { prepareArguments } from "./input.js";
import type { RunOptions } from "./options.js";
import { planCheck } from "./plan.js";
import { endpointSegments, flowSourceIds, flowsWithId, prepareFlow, prepareOperation, unsendableHeader } from "./prepared.js";
import { createRedactor, type Redactor } from "./redact.js";
import { buildRequest, type ActionRecord } from "./request.js";
import { responseIssues } from "./response-schema.js";
import { createRunAbort } from "./run-abort.js";
import { applySecurity } from "./security.js";
import { DEFAULT_TIMEOUT_MS, sendRequest } from "./send.js";
import { maskTrace, type PendingStep, type TraceStep } from "./trace.js";

export interface RunResult {
  /** `{success: …}` by default (§4.7), or what the links that target the flow built. */
  result: Record<string, unknown>;
  trace: TraceStep[];
  /** Things the run tolerated (flat arguments, dropped names, compat fallbacks). */
  warnings: string[];
}

/**
 * Runs one flow (§4): loads the sources its actions use, checks the plan, then runs the actions in
 * order as HTTP calls built from their OpenAPI operations, applying links before each action and
 * the flow's output links at the end. Errors carry the trace so far.
 */
export async function runFlow(document: LoadedAgentsJson | string | object, flowId: string, input: unknown, options: RunOptions = {}): Promise<RunResult> {
  const loaded = isLoaded(document) ? document : load(document as string | object, options.mode ? { mode: options.mode } : {});
  const mode = options.mode ?? loaded.mode;
  const matches = flowsWithId(loaded.document, flowId);
  if (matches.length === 0) {
    const known = loaded.document.flows.map((f) => f.id);
    throw new UnknownFlowError(`no flow "${flowId}" in "${loaded.document.info.title}"; flows: ${known.slice(0, 20).join(", ")}${known.length > 20 ? ", …" : ""}`);
  }
  if (matches.length > 1) throw new AmbiguousFlowError(`flow id "${flowId}" is used by ${matches.length} flows (indexes ${matches.map((f) => f.index).join(", ")})`);
  const flow = matches[0]!;

  const sourceIds = flowSourceIds(flow);
  const sources: LoadedSources = options.sources ?? (await loadSources(loaded, { only: sourceIds, ...(options.resolver ? { resolver: options.resolver } : {}) }));
  const problems = cachedPlanCheck(loaded, flow.index, sources);
  if (problems.length > 0) throw new PlanError(problems.map((d) => (loaded.source ? { ...d, ...loaded.source.locate(d.path) } : d)), flow.id);
  const prepared = prepareFlow(flow, sources);
  const unsendable = unsendableHeader(prepared, options.parameterDefaults);
  if (unsendable) throw new FlowRunError(unsendable.message, unsendable.details);

  const warnings: string[] = [];
  const hidden = hiddenParameters(flow, options);
  const args = prepareArguments(flow, input, mode, hidden, warnings);
  const redactor = createRedactor();
  if (options.parameterDefaults) {
    for (const sourceId of Object.keys(options.parameterDefaults)) {
      if (!sourceIds.includes(sourceId)) continue;
      for (const value of Object.values(options.parameterDefaults[sourceId] ?? {})) {
        // A number is sent as its text, so that text is the secret (§6). A boolean is not: masking
        // every "true" and "false" would garble traces and hide nothing.
        if (typeof value === "string") redactor.secretValues.add(value);
        else if (typeof value === "number" || typeof value === "bigint") redactor.secretValues.add(String(value));
      }
    }
  }

  const flowRecord: ActionRecord = { parameters: args.parameters, requestBody: args.requestBody ?? {}, responses: { success: null } };
  const records = new Map<string, ActionRecord>([[flow.id, flowRecord]]);
  const trace: PendingStep[] = [];
  const credentials = new Map<string, Record<string, unknown>>();

  let last: unknown = null;
  const run = createRunAbort(options.signal, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    for (const { action, source, entry, incoming } of prepared.actions) {
      if (options.signal?.aborted) throw new TransportError(`flow "${flow.id}": the run was aborted before action "${action.id}"`, { actionId: action.id });
      const record: ActionRecord = { parameters: {}, requestBody: {}, responses: { success: null } };
      const step: PendingStep = { actionId: action.id, operationId: entry.operationId, method: prepareOperation(entry).method, durationMs: 0, appliedLinks: [], skippedLinks: [], notes: [] };
      const wholeRootNames = new Set<string>();
      for (const link of incoming) applyLink(link, records, record, step, flow, wholeRootNames, redactor);
      records.set(action.id, record);

      const defaults = options.parameterDefaults?.[action.sourceId];
      if (defaults) {
        const declared = prepareOperation(entry).byName;
        for (const name of Object.keys(defaults)) {
          if (!Object.hasOwn(record.parameters, name) && declared.has(name)) {
            Object.defineProperty(record.parameters, name, { value: defaults[name], enumerable: true, writable: true, configurable: true });
            redactor.secretQuery.add(name);
            redactor.secretHeaders.add(name.toLowerCase());
          }
        }
      }

      trace.push(step);
      const { request, cookies } = buildRequest({
        actionId: action.id,
        entry,
        source,
        record,
        mode,
        wholeRootNames,
        serverOverride: options.servers?.[action.sourceId],
        feeders: (name) => describeFeeders(flow, action.id, name, step),
        notes: step.notes,
      });
      const securing = applySecurity(request, cookies, source, entry, options, redactor, credentials);
      if (securing) await securing;
      if (cookies.length) request.headers.set("cookie", [request.headers.get("cookie"), ...cookies].filter(Boolean).join("; "));
      if (options.hooks?.onRequest) await options.hooks.onRequest(request);
      step.request = { method: request.method, url: request.url, headers: request.headers };

      const started = performance.now();
      try {
        const response = await sendRequest(request, options, redactor, { actionId: action.id, operationId: entry.operationId }, run, step);
        step.response = response;
        record.responses.success = response.body;
        if (options.validateResponses) {
          for (const issue of responseIssues(entry, response.status, response.body)) {
            const warning = `action "${action.id}": response ${response.status} does not match the "${entry.operationId}" schema at ${issue.path || "/"}: ${issue.message}`;
            warnings.push(warning);
            step.notes.push(warning);
          }
        }
        last = response.body;
      } finally {
        step.durationMs = performance.now() - started;
      }
    }

    const result: Record<string, unknown> = {};
    for (const link of prepared.outputLinks) {
      const value = readOrigin(link, records, flow);
      if (!value.found) continue;
      const segments = endpointSegments(link.target).slice(1);
      if (segments.length === 0) {
        // Own keys only: Object.assign would let a response's "__proto__" key set the result's prototype.
        if (isPlainObject(value.value)) deepMerge(result, value.value);
        continue;
      }
      const problem = writePath(result, segments, value.value);
      if (problem) throw new LinkWriteError(`link ${link.index} of flow "${flow.id}": cannot write "${link.target.fieldPath}": ${problem.message}`);
    }
    return { result: prepared.outputLinks.length > 0 ? result : { success: last }, trace: maskTrace(trace, redactor), warnings };
  } catch (error) {
    if (error instanceof FlowRunError) error.trace = maskTrace(trace, redactor);
    throw error;
  } finally {
    run.release();
  }
}

// The plan check depends only on the loaded document and sources, so repeated runs reuse it.
const planCache = new WeakMap<LoadedAgentsJson, WeakMap<LoadedSources, Map<number, ReturnType<typeof planCheck>>>>();
function cachedPlanCheck(loaded: LoadedAgentsJson, flowIndex: number, sources: LoadedSources): ReturnType<typeof planCheck> {
  let bySources = planCache.get(loaded);
  if (!bySources) planCache.set(loaded, (bySources = new WeakMap()));
  let byFlow = bySources.get(sources);
  if (!byFlow) bySources.set(sources, (byFlow = new Map()));
  let problems = byFlow.get(flowIndex);
  if (!problems) byFlow.set(flowIndex, (problems = planCheck(loaded, flowIndex, sources)));
  return problems;
}

function isLoaded(input: unknown): input is LoadedAgentsJson {
  return typeof input === "object" && input !== null && "document" in input && "raw" in input && "mode" in input;
}

/** Flow parameters supplied by parameterDefaults for every source the flow uses (§4.9). */
export function hiddenParameters(flow: NormalisedFlow, options: Pick<RunOptions, "parameterDefaults">): Set<string> {
  const sourceIds = flowSourceIds(flow);
  const hidden = new Set<string>();
  if (!options.parameterDefaults) return hidden;
  for (const parameter of flow.fields.parameters) {
    if (sourceIds.length > 0 && sourceIds.every((id) => Object.hasOwn(options.parameterDefaults?.[id] ?? {}, parameter.name))) hidden.add(parameter.name);
  }
  return hidden;
}

function readOrigin(link: NormalisedLink, records: Map<string, ActionRecord>, flow: NormalisedFlow): { found: true; value: unknown } | { found: false; reason: string } {
  const segments = endpointSegments(link.origin);
  const record = records.get(link.origin.actionId);
  if (!record) return { found: false, reason: `node "${link.origin.actionId}" has not run` };
  if (segments[0] === "responses") {
    // §3.5: through a response every intermediate must exist and be non-empty; a missing last segment skips.
    const walked = readPath(record.responses, segments.slice(1), true);
    if (walked.found) return walked;
    const failing = segments.slice(0, walked.failedAt + 2).join(".");
    if (walked.reason === "empty" || walked.failedAt + 1 < segments.length - 1) {
      throw new LinkResolutionError(
        `link ${link.index} of flow "${flow.id}": "${link.origin.fieldPath}" of action "${link.origin.actionId}" fails at "${failing}" (${walked.reason === "empty" ? "null or empty" : "missing"})`,
        { actionId: link.target.actionId },
      );
    }
    return { found: false, reason: `"${link.origin.fieldPath}" is absent` };
  }
  const walked = readPath(record, segments);
  return walked.found ? walked : { found: false, reason: `"${link.origin.fieldPath}" is absent` };
}

function applyLink(link: NormalisedLink, records: Map<string, ActionRecord>, record: ActionRecord, step: PendingStep, flow: NormalisedFlow, wholeRootNames: Set<string>, redactor: Redactor): void {
  const value = readOrigin(link, records, flow);
  if (!value.found) {
    step.skippedLinks.push({ index: link.index, reason: value.reason });
    return;
  }
  const segments = endpointSegments(link.target);
  if (segments.length === 1 && segments[0] === "parameters" && isPlainObject(value.value)) {
    for (const name of Object.keys(value.value)) wholeRootNames.add(name);
  }
  const problem = writePath(record as unknown as Record<string, unknown>, segments, value.value);
  if (problem) {
    throw new LinkWriteError(`link ${link.index} of flow "${flow.id}": cannot write "${redactor.text(link.target.fieldPath)}" of action "${link.target.actionId}": ${problem.message}`, { actionId: link.target.actionId });
  }
  step.appliedLinks.push(link.index);
}

function describeFeeders(flow: NormalisedFlow, actionId: string, name: string, step: PendingStep): string {
  const feeders = flow.links.filter((l) => l.target.actionId === actionId && (l.target.fieldPath === `parameters.${name}` || l.target.fieldPath === "parameters"));
  if (feeders.length === 0) return "no link feeds it; add a link, a parameterDefaults entry or a credential";
  return feeders
    .map((l) => {
      const skipped = step.skippedLinks.find((s) => s.index === l.index);
      return `link ${l.index} from ${l.origin.actionId}.${l.origin.fieldPath}${skipped ? ` was skipped: ${skipped.reason}` : " gave no value"}`;
    })
    .join("; ");
}
