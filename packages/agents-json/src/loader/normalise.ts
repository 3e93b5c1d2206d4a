import { cloneJson, parseFieldPath } from "../fieldpath.js";
import { checkRoot, endpointNode } from "../links.js";
import type { Compat } from "../validate.js";
import type { NormalisedAgentsJson, NormalisedEndpoint, NormalisedFlow } from "./types.js";

/** Builds the normalised view of §2.4 from a document that passed the loader's checks. */
export function normalise(raw: Compat.AgentsJson): NormalisedAgentsJson {
  return {
    agentsJson: raw.agentsJson,
    info: cloneJson(raw.info),
    sources: cloneJson(raw.sources),
    overrides: cloneJson(raw.overrides ?? []),
    flows: raw.flows.map((flow, index) => normaliseFlow(flow, index)),
  };
}

function normaliseFlow(flow: Compat.Flow, index: number): NormalisedFlow {
  const actionIds = new Set(flow.actions.map((action) => action.id));
  const endpoint = (role: "origin" | "target", raw: Compat.LinkEndpoint): NormalisedEndpoint => {
    const node = endpointNode(raw.actionId, flow.id);
    const actionId = node.kind === "flow" ? flow.id : node.id;
    // Aliases are rewritten only where the endpoint names a real node; unknown actions stay as written
    // for the plan check to report.
    if (node.kind === "action" && !actionIds.has(node.id)) return { actionId, fieldPath: raw.fieldPath };
    const verdict = checkRoot(role, node.kind, parseFieldPath(raw.fieldPath));
    return { actionId, fieldPath: verdict.alias ? verdict.segments.join(".") : raw.fieldPath };
  };
  const { requestBody } = flow.fields;
  const hasBody = requestBody !== null && requestBody !== undefined && Object.keys(requestBody).length > 0;
  return {
    id: flow.id,
    title: flow.title,
    description: flow.description,
    actions: cloneJson(flow.actions),
    links: (flow.links ?? []).map((link, i) => ({ origin: endpoint("origin", link.origin), target: endpoint("target", link.target), index: i })),
    fields: {
      parameters: cloneJson(flow.fields.parameters),
      ...(hasBody ? { requestBody: cloneJson(requestBody) } : {}),
      responses: cloneJson(flow.fields.responses),
    },
    index,
  };
}
