import { parsePointer, toPointer } from "@flowspec/runtime";
import type { Diagnostic, Mode } from "../diagnostics.js";
import { parseFieldPath } from "../fieldpath.js";
import { checkRoot, endpointNode, isSchemaStylePath } from "../links.js";
import { schemaProperties } from "../sources/media.js";
import type { Compat } from "../validate.js";
import { defaultSeverity, SNAKE_CASE, type LintRuleId } from "./rules.js";

export type Report = (rule: LintRuleId, path: (string | number)[], message: string, hint?: string) => void;

export function reporter(out: Diagnostic[], mode: Mode): Report {
  return (rule, path, message, hint) =>
    out.push({ code: rule, severity: defaultSeverity(rule, mode), path: toPointer(path), message, ...(hint === undefined ? {} : { hint }) });
}

/** The §7 rules that need only the document (the loader reports the deviation codes). */
export function lintDocument(doc: Compat.AgentsJson, report: Report): void {
  const seenSources = new Set<string>();
  doc.sources.forEach((source, i) => {
    if (seenSources.has(source.id)) report("id-unique", ["sources", i, "id"], `source id "${source.id}" is used more than once`);
    seenSources.add(source.id);
    if (!SNAKE_CASE.test(source.id)) report("id-snake-case", ["sources", i, "id"], `source id "${source.id}" is not snake_case`);
    // POSIX, home, Windows drive and UNC (\\server\share) paths, and file: URLs.
    if (/^(\/|~|[a-zA-Z]:[\\/]|\\\\|file:)/.test(source.path)) {
      report("source-path-portable", ["sources", i, "path"], `source path "${source.path}" is an absolute file-system path; use a URL or a path relative to the document`);
    }
  });
  const seenFlows = new Set<string>();
  doc.flows.forEach((flow, f) => {
    if (seenFlows.has(flow.id)) report("id-unique", ["flows", f, "id"], `flow id "${flow.id}" is used more than once`);
    seenFlows.add(flow.id);
    if (!SNAKE_CASE.test(flow.id)) report("id-snake-case", ["flows", f, "id"], `flow id "${flow.id}" is not snake_case`);
    lintFlow(flow, f, seenSources, report);
    lintFieldRefs(doc, flow, f, report);
  });
}

/**
 * `$ref`s in a flow's `fields` schemas: one into this document (`#/…`) that names nothing is
 * `fields-ref-defined`; any other is `fields-self-contained`, since tool export (notes §4.9)
 * refuses every `$ref`. Walked with a stack, so nesting depth costs no recursion.
 */
function lintFieldRefs(doc: Compat.AgentsJson, flow: Compat.Flow, f: number, report: Report): void {
  // Each entry keeps its key and its parent's entry, so a path is built only for a finding.
  interface Entry {
    value: unknown;
    key: string | number;
    parent: Entry | undefined;
  }
  const pathOf = (entry: Entry): (string | number)[] => {
    const keys: (string | number)[] = [];
    for (let at: Entry | undefined = entry; at; at = at.parent) keys.push(at.key);
    return ["flows", f, ...keys.reverse()];
  };
  const stack: Entry[] = [{ value: flow.fields, key: "fields", parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value } = entry;
    if (typeof value !== "object" || value === null) continue;
    const ref = (value as Record<string, unknown>).$ref;
    if (!Array.isArray(value) && typeof ref === "string") {
      const path = [...pathOf(entry), "$ref"];
      if (ref.startsWith("#") && resolvesIn(doc, ref) === false) {
        report("fields-ref-defined", path, `$ref ${JSON.stringify(ref)} names nothing in this document`, "define it, or write the schema inline: fields schemas must be self-contained");
      } else {
        report("fields-self-contained", path, `$ref ${JSON.stringify(ref)}: tool export (openai and anthropic formats) refuses $refs in fields schemas`, "write the schema inline");
      }
    }
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: entry });
  }
}

/** Whether a `#/json/pointer` fragment names a value of the document (own keys only); undefined for a fragment that is not a pointer. */
function resolvesIn(doc: unknown, ref: string): boolean | undefined {
  let tokens: string[];
  try {
    tokens = parsePointer(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  let at: unknown = doc;
  for (const token of tokens) {
    if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < at.length) at = at[Number(token)];
    else if (typeof at === "object" && at !== null && !Array.isArray(at) && Object.hasOwn(at, token)) at = (at as Record<string, unknown>)[token];
    else return false;
  }
  return true;
}

function lintFlow(flow: Compat.Flow, f: number, sourceIds: Set<string>, report: Report): void {
  const actionIndex = new Map<string, number>();
  flow.actions.forEach((action, a) => {
    if (actionIndex.has(action.id)) report("id-unique", ["flows", f, "actions", a, "id"], `action id "${action.id}" is used more than once in flow "${flow.id}"`);
    else actionIndex.set(action.id, a);
    if (!SNAKE_CASE.test(action.id)) report("id-snake-case", ["flows", f, "actions", a, "id"], `action id "${action.id}" is not snake_case`);
    if (!sourceIds.has(action.sourceId)) report("action-source-defined", ["flows", f, "actions", a, "sourceId"], `action "${action.id}" uses source "${action.sourceId}", which is not in sources`);
    if (action.id === flow.id) {
      report("action-id-shadows-flow", ["flows", f, "actions", a, "id"], `action id "${action.id}" equals its flow id, so links can never address it (the id means the flow)`, "rename the action");
    }
  });

  const declared = new Set(flow.fields.parameters.map((p) => p.name));
  const readParameters = new Set<string>();
  let readsAllParameters = false;
  let readsBody = false;
  const body = flow.fields.requestBody;
  const hasBody = body !== null && body !== undefined && Object.keys(body).length > 0;

  (flow.links ?? []).forEach((link, l) => {
    const nodes = { origin: endpointNode(link.origin.actionId, flow.id), target: endpointNode(link.target.actionId, flow.id) };
    const segments = { origin: parseFieldPath(link.origin.fieldPath), target: parseFieldPath(link.target.fieldPath) };
    for (const role of ["origin", "target"] as const) {
      const endpoint = link[role];
      const node = nodes[role];
      const at = ["flows", f, "links", l, role];
      if (endpoint.actionId === null || endpoint.actionId === undefined) {
        report("link-action-null", [...at, "actionId"], `${role} actionId is ${endpoint.actionId === null ? "null" : "absent"}; it means the flow "${flow.id}"`, `write "${flow.id}"`);
      }
      if (node.kind === "action" && !actionIndex.has(node.id)) {
        report("link-action-defined", [...at, "actionId"], `${role} actionId "${node.id}" is neither the flow id nor an action of flow "${flow.id}"`);
        continue;
      }
      const verdict = checkRoot(role, node.kind, segments[role]);
      if (verdict.code && !verdict.alias) report(verdict.code, [...at, "fieldPath"], verdict.message!);
      if (isSchemaStylePath(segments[role])) {
        report("link-schema-style-path", [...at, "fieldPath"], `"${endpoint.fieldPath}" looks like a path into the OpenAPI schema, not into the data`);
      }
    }
    const { origin, target } = nodes;
    if (origin.kind === "action" && target.kind === "action" && actionIndex.has(origin.id) && actionIndex.has(target.id)) {
      if (actionIndex.get(origin.id)! >= actionIndex.get(target.id)!) {
        report("link-order", ["flows", f, "links", l], `origin action "${origin.id}" does not run before target action "${target.id}"`);
      }
    }
    if (origin.kind === "flow") {
      const [root, name] = segments.origin;
      // A schema-style path still shows intent to read that input (unused), but names nothing (declared).
      const schemaStyle = isSchemaStylePath(segments.origin);
      if (root === "parameters") {
        if (name === undefined) readsAllParameters = true;
        else {
          readParameters.add(name);
          if (!declared.has(name) && !schemaStyle) report("flow-input-declared", ["flows", f, "links", l, "origin", "fieldPath"], `flow parameter "${name}" is not declared in fields.parameters`);
        }
      }
      if (root === "requestBody") {
        readsBody = true;
        if (name !== undefined && !schemaStyle && !bodyDeclares(body, name)) {
          report("flow-input-declared", ["flows", f, "links", l, "origin", "fieldPath"], `"${name}" is not a property of the flow's request body schema`);
        }
      }
    }
  });

  if (!readsAllParameters) {
    flow.fields.parameters.forEach((parameter, p) => {
      if (!readParameters.has(parameter.name)) report("flow-input-unused", ["flows", f, "fields", "parameters", p], `flow parameter "${parameter.name}" is never read by a link`);
    });
  }
  if (hasBody && !readsBody) report("flow-input-unused", ["flows", f, "fields", "requestBody"], "the flow's request body is never read by a link");
}

function bodyDeclares(body: Compat.FlowRequestBody | undefined, name: string): boolean {
  if (!body || !body.content) return false;
  return Object.values(body.content).some((media) => {
    const names = schemaProperties(media?.schema);
    return names === undefined || names.has(name);
  });
}
