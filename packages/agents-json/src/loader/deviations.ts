import { toPointer } from "@flowspec/runtime";
import type { Diagnostic, Mode, Severity } from "../diagnostics.js";
import { splitFieldPath } from "../fieldpath.js";
import { checkRoot, endpointNode } from "../links.js";

/** The flow-parameter keys compat mode tolerates (D4). */
export const PARAMETER_EXTRA_KEYS = ["enum", "default", "items", "properties"] as const;

// RFC 7231 media-range: type "/" subtype *( OWS ";" OWS parameter ), with token characters.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"]*"))*$`);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * The deviation scan of §2.4 (findings are errors in strict mode, warnings in compat mode) plus the
 * checks that fail a load in both modes: malformed fieldPaths (§3.4) and media-type keys (§2.3).
 * `spec-version` is reported here too, as a warning in both modes (§1).
 */
export function scanDeviations(doc: Json, mode: Mode): Diagnostic[] {
  const out: Diagnostic[] = [];
  const deviation: Severity = mode === "strict" ? "error" : "warning";
  const add = (code: string, severity: Severity, path: (string | number)[], message: string, hint?: string) =>
    out.push({ code, severity, path: toPointer(path), message, ...(hint === undefined ? {} : { hint }) });

  if (typeof doc.agentsJson === "string" && !/^0\.1\.\d+$/.test(doc.agentsJson)) {
    add("spec-version", "warning", ["agentsJson"], `agentsJson "${doc.agentsJson}" is not a 0.1.x version; this SDK implements 0.1.0`);
  }
  if (Object.hasOwn(doc, "additionalProperties")) {
    add("additional-properties-key", deviation, ["additionalProperties"], "a literal additionalProperties key (schema defect D1); it means nothing and is dropped", "remove the key");
  }
  asArray(doc.overrides).forEach((override, i) => {
    if (!isObject(override)) return;
    if (typeof override.value === "number" && Number.isInteger(override.value)) {
      add("override-integer-value", deviation, ["overrides", i, "value"], `integral override value ${override.value} matches two oneOf branches of the canonical schema (defect D2)`);
    }
    if (typeof override.fieldPath === "string") checkFieldPath(override.fieldPath, ["overrides", i, "fieldPath"]);
  });

  asArray(doc.flows).forEach((flow, f) => {
    if (!isObject(flow)) return;
    const flowId = typeof flow.id === "string" ? flow.id : "";
    if (Object.hasOwn(flow, "additionalProperties")) {
      add("additional-properties-key", deviation, ["flows", f, "additionalProperties"], "a literal additionalProperties key on a flow (schema defect D1); it is dropped", "remove the key");
    }
    const fields = isObject(flow.fields) ? flow.fields : {};
    asArray(fields.parameters).forEach((parameter, p) => {
      if (!isObject(parameter)) return;
      for (const key of PARAMETER_EXTRA_KEYS) {
        if (Object.hasOwn(parameter, key)) {
          add("parameter-extra-keys", deviation, ["flows", f, "fields", "parameters", p, key], `flow parameter "${String(parameter.name)}" has "${key}", which the canonical schema does not allow (D4)`);
        }
      }
    });
    if (fields.requestBody === null) {
      add("request-body-null", deviation, ["flows", f, "fields", "requestBody"], "requestBody is null (D3); omit it instead", "remove requestBody");
    }
    if (isObject(fields.requestBody) && isObject(fields.requestBody.content)) {
      for (const key of Object.keys(fields.requestBody.content)) {
        if (!MEDIA_TYPE.test(key)) {
          add("media-type-key", "error", ["flows", f, "fields", "requestBody", "content", key], `"${key}" is not a media type (type/subtype, RFC 7231)`);
        }
      }
    }
    asArray(flow.links).forEach((link, l) => {
      if (!isObject(link)) return;
      for (const role of ["origin", "target"] as const) {
        const endpoint = link[role];
        if (!isObject(endpoint) || typeof endpoint.fieldPath !== "string") continue;
        const segments = checkFieldPath(endpoint.fieldPath, ["flows", f, "links", l, role, "fieldPath"]);
        if (!segments) continue;
        const node = endpointNode(endpoint.actionId, flowId);
        if (node.kind === "action" && !asArray(flow.actions).some((a) => isObject(a) && a.id === node.id)) continue;
        const verdict = checkRoot(role, node.kind, segments);
        if (verdict.alias) {
          add(verdict.code!, deviation, ["flows", f, "links", l, role, "fieldPath"], `${verdict.message}; read as "${verdict.segments.join(".")}"`);
        }
      }
    });
  });
  return out;

  function checkFieldPath(path: string, at: (string | number)[]): string[] | undefined {
    const result = splitFieldPath(path);
    if ("segments" in result) return result.segments;
    add(result.code, "error", at, result.message);
    return undefined;
  }
}
