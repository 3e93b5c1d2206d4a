import type { Mode } from "../diagnostics.js";
import { FlowInputError } from "../errors.js";
import { cloneJson, defineOwn, isPlainObject } from "../fieldpath.js";
import type { NormalisedFlow } from "../loader/types.js";
import { flowInputSchema } from "../tools/input-schema.js";
import { pickMediaType } from "../sources/media.js";
import { stripNulls } from "./body.js";
import { checkValue } from "./check-value.js";

export interface FlowArguments {
  parameters: Record<string, unknown>;
  requestBody?: unknown;
}

/**
 * Normalises and validates a flow's arguments (§4.1): flat arguments become parameters (or the
 * body), nulls of optional parameters go, unknown names are errors (strict) or dropped (compat),
 * and the rest is checked against the flow's derived input schema. `hidden` names come from
 * parameterDefaults and are not required from the caller.
 */
export function prepareArguments(flow: NormalisedFlow, input: unknown, mode: Mode, hidden: ReadonlySet<string>, warnings: string[]): FlowArguments {
  if (input === undefined || input === null) input = {};
  if (!isPlainObject(input)) throw new FlowInputError(`flow "${flow.id}": arguments must be an object, got ${Array.isArray(input) ? "an array" : typeof input}`, []);
  let parameters: unknown;
  let requestBody: unknown;
  if (Object.hasOwn(input, "parameters") || Object.hasOwn(input, "requestBody")) {
    const extra = Object.keys(input).filter((key) => key !== "parameters" && key !== "requestBody");
    if (extra.length) throw new FlowInputError(`flow "${flow.id}": unknown argument keys ${extra.map((k) => `"${k}"`).join(", ")} (only parameters and requestBody)`, []);
    parameters = input.parameters ?? {};
    requestBody = input.requestBody ?? undefined;
  } else if (Object.keys(input).length > 0) {
    const toBody = flow.fields.parameters.length === 0 && flow.fields.requestBody !== undefined;
    warnings.push(`flow "${flow.id}": flat arguments were read as ${toBody ? "requestBody" : "parameters"}; pass {parameters, requestBody}`);
    if (toBody) requestBody = input;
    else parameters = input;
  } else parameters = {};
  if (parameters === undefined) parameters = {};
  if (!isPlainObject(parameters)) throw new FlowInputError(`flow "${flow.id}": parameters must be an object`, [{ path: "/parameters", message: "must be an object" }]);

  const { declared, bodySchema } = flowInputs(flow);
  const cleaned: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(cloneJson(parameters))) {
    const parameter = declared.get(name);
    if (!parameter) {
      if (mode === "strict") throw new FlowInputError(`flow "${flow.id}" has no parameter "${name}"`, [{ path: `/parameters/${name}`, message: "is not a parameter of the flow" }]);
      warnings.push(`flow "${flow.id}": unknown parameter "${name}" was dropped`);
      continue;
    }
    if (value === null && !parameter.required) continue;
    defineOwn(cleaned, name, value);
  }
  // Nulls the body schema does not allow (an OpenAI strict-mode tool fills every optional property with null) go.
  if (requestBody !== undefined && flow.fields.requestBody?.content) requestBody = stripNulls(requestBody, bodySchema);
  const args: FlowArguments = { parameters: cleaned, ...(requestBody === undefined ? {} : { requestBody: cloneJson(requestBody) }) };

  const schema = cachedSchema(flow, hidden);
  const checked: Record<string, unknown> = {};
  if (Object.keys(cleaned).length > 0 || (schema.required as string[] | undefined)?.includes("parameters")) checked.parameters = withoutHidden(cleaned, hidden);
  if (requestBody !== undefined) checked.requestBody = requestBody;
  if (requestBody !== undefined && flow.fields.requestBody === undefined) {
    throw new FlowInputError(`flow "${flow.id}" takes no requestBody`, [{ path: "/requestBody", message: "the flow declares no request body" }]);
  }
  const issues = checkValue(checked, schema);
  if (issues.length > 0) {
    throw new FlowInputError(`invalid arguments for flow "${flow.id}":\n${issues.map((i) => `  ${i.path || "/"}: ${i.message}`).join("\n")}`, issues);
  }
  return args;
}

const inputsCache = new WeakMap<NormalisedFlow, { declared: Map<string, NormalisedFlow["fields"]["parameters"][number]>; bodySchema: Record<string, unknown> | undefined }>();

/** The flow's parameters by name and its body schema, worked out once per flow. */
function flowInputs(flow: NormalisedFlow) {
  let inputs = inputsCache.get(flow);
  if (!inputs) {
    const content = flow.fields.requestBody?.content;
    const mediaType = content ? pickMediaType(content) : undefined;
    inputs = {
      declared: new Map(flow.fields.parameters.map((p) => [p.name, p])),
      bodySchema: mediaType === undefined ? undefined : (content![mediaType]?.schema as Record<string, unknown> | undefined),
    };
    inputsCache.set(flow, inputs);
  }
  return inputs;
}

function withoutHidden(parameters: Record<string, unknown>, hidden: ReadonlySet<string>): Record<string, unknown> {
  if (hidden.size === 0) return parameters;
  return Object.fromEntries(Object.entries(parameters).filter(([name]) => !hidden.has(name)));
}

const schemaCache = new WeakMap<NormalisedFlow, Map<string, Record<string, unknown>>>();
function cachedSchema(flow: NormalisedFlow, hidden: ReadonlySet<string>): Record<string, unknown> {
  const key = hidden.size === 0 ? "" : [...hidden].sort().join("\u0000");
  let byHidden = schemaCache.get(flow);
  if (!byHidden) schemaCache.set(flow, (byHidden = new Map()));
  let schema = byHidden.get(key);
  if (!schema) byHidden.set(key, (schema = flowInputSchema(flow, { hidden })));
  return schema;
}
