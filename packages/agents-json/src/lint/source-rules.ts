import { OverrideError } from "../errors.js";
import { parseFieldPath } from "../fieldpath.js";
import { checkRoot, endpointNode, isSchemaStylePath } from "../links.js";
import type { LoadedSources } from "../sources/load-sources.js";
import { isArraySchema, requestBodyOf, schemaProperties } from "../sources/media.js";
import type { OpenApiSource } from "../sources/openapi.js";
import type { Compat } from "../validate.js";
import type { Report } from "./document-rules.js";

export interface SourceRuleOptions {
  /** Values supplied to every action of a source (§6): `{sourceId: {name: value}}`. */
  parameterDefaults?: Record<string, Record<string, unknown>>;
  /** Source ids → security scheme names the caller has credentials for (feeds apiKey parameters). */
  credentialSchemes?: Record<string, readonly string[]>;
}

/** The *src* rules of §7: operations, parameters and bodies checked against the loaded OpenAPI sources. */
export function lintSources(
  doc: Compat.AgentsJson,
  sources: LoadedSources,
  report: Report,
  options: SourceRuleOptions = {},
  overrideErrors: readonly OverrideError[] = [],
): void {
  doc.sources.forEach((source, i) => {
    const loaded = sources.get(source.id);
    if (loaded instanceof Error && !(loaded instanceof OverrideError)) {
      report("operation-resolved", ["sources", i, "path"], `source "${source.id}" cannot be loaded: ${loaded.message}`);
    }
  });
  (doc.overrides ?? []).forEach((override, o) => {
    const loaded = sources.get(override.sourceId);
    if (!doc.sources.some((s) => s.id === override.sourceId)) {
      report("operation-resolved", ["overrides", o, "sourceId"], `override source "${override.sourceId}" is not in sources`);
      return;
    }
    const failures = [...overrideErrors, ...(loaded instanceof OverrideError ? [loaded] : [])].filter((e) => e.overrideIndex === o);
    for (const failure of failures) report("operation-resolved", ["overrides", o], failure.message.replace(/^\/overrides\/\d+: /, ""));
  });

  doc.flows.forEach((flow, f) => {
    flow.actions.forEach((action, a) => {
      const source = sources.get(action.sourceId);
      if (!source || source instanceof Error) return;
      const entry = source.operations.get(action.operationId);
      if (!entry) {
        report("operation-resolved", ["flows", f, "actions", a, "operationId"], `operation "${action.operationId}" does not exist in source "${action.sourceId}"`);
        return;
      }
      const body = requestBodyOf(entry.operation);
      const declaredNames = new Set(entry.parameters.map((p) => p.name));
      const fed = new Set<string>();
      let bodyFed = false;
      (flow.links ?? []).forEach((link, l) => {
        const node = endpointNode(link.target.actionId, flow.id);
        if (node.kind !== "action" || node.id !== action.id || action.id === flow.id) return;
        const verdict = checkRoot("target", "action", parseFieldPath(link.target.fieldPath));
        if (verdict.code && !verdict.alias) return;
        const segments = verdict.segments;
        if (isSchemaStylePath(segments)) return;
        const at = ["flows", f, "links", l, "target", "fieldPath"];
        const [root, name] = segments;
        if (root === "parameters") {
          if (name === undefined) {
            for (const fedName of wholeRootNames(flow, link)) fed.add(fedName);
            return;
          }
          fed.add(name);
          if (!declaredNames.has(name)) report("action-param-declared", at, `operation "${entry.operationId}" declares no parameter "${name}"`);
        } else if (root === "requestBody") {
          bodyFed = true;
          if (!body) {
            report("action-body-declared", at, `operation "${entry.operationId}" (${entry.method.toUpperCase()} ${entry.path}) has no request body`);
            return;
          }
          if (name !== undefined) {
            const names = schemaProperties(body.schema);
            if (isArraySchema(body.schema)) report("action-body-property-declared", at, `the request body of "${entry.operationId}" is an array; it has no property "${name}"`);
            else if (names && !names.has(name)) report("action-body-property-declared", at, `the request body schema of "${entry.operationId}" has no property "${name}"`);
          }
        }
      });
      const defaults = options.parameterDefaults?.[action.sourceId] ?? {};
      const credentialNames = apiKeyParameterNames(source, options.credentialSchemes?.[action.sourceId] ?? []);
      for (const parameter of entry.parameters) {
        if (!(parameter.required || parameter.in === "path")) continue;
        if (fed.has(parameter.name) || Object.hasOwn(defaults, parameter.name) || credentialNames.has(parameter.name)) continue;
        report(
          "operation-required-inputs",
          ["flows", f, "actions", a],
          `required ${parameter.in} parameter "${parameter.name}" of "${entry.operationId}" is not fed by a link, parameterDefaults or a credential`,
        );
      }
      if (body?.required && !bodyFed) {
        report("operation-required-inputs", ["flows", f, "actions", a], `the required request body of "${entry.operationId}" is not fed by a link`);
      }
    });
  });
}

// A whole-root `parameters` copy feeds the names the origin node declares (flow parameters).
function wholeRootNames(flow: Compat.Flow, link: Compat.Link): string[] {
  const origin = endpointNode(link.origin.actionId, flow.id);
  if (origin.kind === "flow" && link.origin.fieldPath === "parameters") return flow.fields.parameters.map((p) => p.name);
  return [];
}

function apiKeyParameterNames(source: OpenApiSource, schemes: readonly string[]): Set<string> {
  const names = new Set<string>();
  const components = source.document.components as { securitySchemes?: Record<string, { type?: string; name?: string }> } | undefined;
  for (const scheme of schemes) {
    const definition = components?.securitySchemes?.[scheme];
    if (definition?.type === "apiKey" && typeof definition.name === "string") names.add(definition.name);
  }
  return names;
}
