import { isPlainObject, parseFieldPath } from "../fieldpath.js";
import type { NormalisedAgentsJson, NormalisedEndpoint, NormalisedFlow, NormalisedLink } from "../loader/types.js";
import type { LoadedSources } from "../sources/load-sources.js";
import { requestBodyOf, schemaProperties } from "../sources/media.js";
import type { OpenApiParameter, OpenApiSource, OperationEntry } from "../sources/openapi.js";
import { headerNameProblem, isHeaderName } from "./serialize.js";

/*
 * What the executor can work out once per document, flow or operation instead of on every run and
 * every call: the flow index, each flow's actions with their sources and operations and the links
 * into them, parsed fieldPaths, and per operation its parameter index, path template, body and
 * Accept header. Loaded documents and sources are not changed after loading (the plan-check
 * cache relies on that too), so all of it is cached in WeakMaps keyed by them and goes when they go.
 */

type Json = Record<string, unknown>;

const flowsById = new WeakMap<NormalisedAgentsJson, Map<string, NormalisedFlow[]>>();

/** The flows with this id (normally one), through an index built once per document. */
export function flowsWithId(document: NormalisedAgentsJson, flowId: string): NormalisedFlow[] {
  let index = flowsById.get(document);
  if (!index) {
    index = new Map();
    for (const flow of document.flows) {
      const list = index.get(flow.id);
      if (list) list.push(flow);
      else index.set(flow.id, [flow]);
    }
    flowsById.set(document, index);
  }
  return index.get(flowId) ?? [];
}

const sourceIdsOf = new WeakMap<NormalisedFlow, string[]>();

/** The distinct source ids a flow's actions use, in first-use order. */
export function flowSourceIds(flow: NormalisedFlow): string[] {
  let ids = sourceIdsOf.get(flow);
  if (!ids) sourceIdsOf.set(flow, (ids = [...new Set(flow.actions.map((a) => a.sourceId))]));
  return ids;
}

const segmentsOf = new WeakMap<NormalisedEndpoint, readonly string[]>();

/** The parsed fieldPath of a link endpoint (parsed on first use, so a bad path fails where it always did). */
export function endpointSegments(endpoint: NormalisedEndpoint): readonly string[] {
  let segments = segmentsOf.get(endpoint);
  if (!segments) segmentsOf.set(endpoint, (segments = parseFieldPath(endpoint.fieldPath)));
  return segments;
}

export interface PreparedAction {
  action: NormalisedFlow["actions"][number];
  source: OpenApiSource;
  entry: OperationEntry;
  /** The links whose target is this action, in document order. */
  incoming: NormalisedLink[];
}

export interface PreparedFlow {
  actions: PreparedAction[];
  /** The links whose target is the flow itself (§4.7). */
  outputLinks: NormalisedLink[];
  /** Actions whose operation declares header parameters with names that cannot be sent (rare). */
  badHeaders: { action: PreparedAction; names: string[]; fed: string | undefined }[];
}

const preparedFlows = new WeakMap<LoadedSources, WeakMap<NormalisedFlow, PreparedFlow>>();

/** A flow's actions bound to their sources and operations; call only after the plan check passed. */
export function prepareFlow(flow: NormalisedFlow, sources: LoadedSources): PreparedFlow {
  let byFlow = preparedFlows.get(sources);
  if (!byFlow) preparedFlows.set(sources, (byFlow = new WeakMap()));
  let prepared = byFlow.get(flow);
  if (!prepared) {
    prepared = {
      actions: flow.actions.map((action) => {
        const source = sources.get(action.sourceId) as OpenApiSource;
        return {
          action,
          source,
          entry: source.operations.get(action.operationId)!,
          incoming: flow.links.filter((link) => link.target.actionId === action.id && action.id !== flow.id),
        };
      }),
      outputLinks: flow.links.filter((link) => link.target.actionId === flow.id),
      badHeaders: [],
    };
    for (const action of prepared.actions) {
      const names = prepareOperation(action.entry).badHeaders;
      if (names.size === 0) continue;
      // Required, or fed by a link by name: the run could never send it.
      const targeted = new Set(action.incoming.map((link) => endpointSegments(link.target)).filter((s) => s.length === 2 && s[0] === "parameters").map((s) => s[1]!));
      const fed = action.entry.parameters.find((p) => p.in === "header" && names.has(p.name) && (p.required === true || targeted.has(p.name)))?.name;
      prepared.badHeaders.push({ action, names: [...names], fed });
    }
    byFlow.set(flow, prepared);
  }
  return prepared;
}

export interface PreparedOperation {
  /** Upper-case HTTP method. */
  method: string;
  /** Effective parameters by name (a later (name, in) pair wins, as before). */
  byName: Map<string, OpenApiParameter>;
  /** Parameters that must have a value: `required: true`, and every path parameter. */
  required: OpenApiParameter[];
  /** The path template split at `{name}`: `literals.length === names.length + 1`. */
  literals: string[];
  names: string[];
  body: ReturnType<typeof requestBodyOf>;
  /** Header parameter names that are not HTTP tokens (Headers.set would throw). */
  badHeaders: ReadonlySet<string>;
  /** The property names the body schema declares (computed on first use). */
  bodyNames(): Set<string> | undefined;
  accept: string;
}

const preparedOperations = new WeakMap<OperationEntry, PreparedOperation>();

/** Everything about an operation that does not depend on the values of one call. */
export function prepareOperation(entry: OperationEntry): PreparedOperation {
  let prepared = preparedOperations.get(entry);
  if (!prepared) preparedOperations.set(entry, (prepared = computeOperation(entry)));
  return prepared;
}

function computeOperation(entry: OperationEntry): PreparedOperation {
  const literals: string[] = [];
  const names: string[] = [];
  const template = /\{([^}]+)\}/g;
  let last = 0;
  for (let match = template.exec(entry.path); match; match = template.exec(entry.path)) {
    literals.push(entry.path.slice(last, match.index));
    names.push(match[1]!);
    last = match.index + match[0].length;
  }
  literals.push(entry.path.slice(last));
  const body = requestBodyOf(entry.operation);
  let bodyNames: { names: Set<string> | undefined } | undefined;
  return {
    method: entry.method.toUpperCase(),
    byName: new Map(entry.parameters.map((p) => [p.name, p])),
    required: entry.parameters.filter((p) => p.required === true || p.in === "path"),
    literals,
    names,
    body,
    badHeaders: new Set(entry.parameters.filter((p) => p.in === "header" && !isHeaderName(p.name)).map((p) => p.name)),
    bodyNames: () => (bodyNames ??= { names: body ? schemaProperties(body.schema) : undefined }).names,
    accept: computeAccept(entry.operation),
  };
}

function computeAccept(operation: Json): string {
  const responses = isPlainObject(operation.responses) ? operation.responses : {};
  const types = new Set<string>();
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2(\d\d|XX)$/i.test(status) || !isPlainObject(response) || !isPlainObject(response.content)) continue;
    for (const type of Object.keys(response.content)) types.add(type);
  }
  return types.size ? [...types].join(", ") : "application/json";
}

/**
 * The first header parameter of the flow's actions whose name cannot be sent and that the run would
 * send (required, fed by a link by name, or given by parameterDefaults), so the run stops before
 * anything is sent. One fed only through a whole-root copy is caught when its request is built.
 */
export function unsendableHeader(
  prepared: PreparedFlow,
  parameterDefaults: Record<string, Record<string, unknown>> | undefined,
): { message: string; details: { actionId: string; operationId: string } } | undefined {
  for (const { action, names, fed } of prepared.badHeaders) {
    const defaults = parameterDefaults?.[action.action.sourceId];
    const name = fed ?? (defaults ? names.find((n) => Object.hasOwn(defaults, n)) : undefined);
    if (name === undefined) continue;
    const { id: actionId } = action.action;
    const { operationId } = action.entry;
    return { message: headerNameProblem(actionId, operationId, name), details: { actionId, operationId } };
  }
  return undefined;
}
