import { ToolExportError } from "../errors.js";
import { hiddenParameters } from "../executor/run.js";
import { load } from "../loader/load.js";
import { cloneJson } from "../fieldpath.js";
import type { LoadedAgentsJson, NormalisedAgentsJson, NormalisedFlow } from "../loader/types.js";
import { flowInputSchema } from "./input-schema.js";

export type ToolFormat = "openai-chat" | "openai-responses" | "anthropic" | "json";

export interface ExportToolsOptions {
  /**
   * `openai-chat` (Chat Completions), `openai-responses` (Responses API), `anthropic` (Messages), or
   * `json`: the Python SDK's `ToolFormat.JSON`, the flow's `fields` as written inside an OpenAI
   * function envelope (not a JSON Schema).
   */
  format: ToolFormat;
  /** OpenAI strict mode: `strict: true`, every property required, optional ones widened with "null". Not for `json`. */
  openaiStrict?: boolean;
  /** Flow parameters these supply for every source of a flow are hidden from the model (§4.9). */
  parameterDefaults?: Record<string, Record<string, unknown>>;
  /** Only these flows (default: all). */
  flows?: readonly string[];
}

export type OpenAiChatTool = { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean } };
export type OpenAiResponsesTool = { type: "function"; name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
export type AnthropicTool = { name: string; description: string; input_schema: Record<string, unknown> };
/** The Python SDK's JSON tool: `parameters` is the flow's `fields` (parameters, requestBody, responses), not a JSON Schema. */
export type JsonTool = { type: "function"; function: { name: string; description: string; parameters: NormalisedFlow["fields"] } };
export type Tool = OpenAiChatTool | OpenAiResponsesTool | AnthropicTool | JsonTool;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function asLoaded(document: LoadedAgentsJson | string | object): LoadedAgentsJson {
  const candidate = document as Partial<LoadedAgentsJson>;
  return typeof document === "object" && candidate.document !== undefined && candidate.raw !== undefined ? (document as LoadedAgentsJson) : load(document);
}

/** One tool per flow (§4.9), named by the flow id, with the `{parameters, requestBody}` input schema. */
export function exportTools(document: LoadedAgentsJson | string | object, options: ExportToolsOptions): Tool[] {
  if (options.format === "json" && options.openaiStrict) throw new ToolExportError("openaiStrict applies to the openai formats, not to json");
  const { document: doc } = asLoaded(document);
  const flows = selectFlows(doc, options.flows);
  // Both providers refuse two tools with one name, and runFlow could not tell the two flows apart.
  for (const flow of flows) {
    const same = flows.filter((f) => f.id === flow.id);
    if (same.length > 1) throw new ToolExportError(`flow id "${flow.id}" is used by ${same.length} flows (indexes ${same.map((f) => f.index).join(", ")}); tool names must be unique`);
  }
  return flows.map((flow) => {
    if (!TOOL_NAME.test(flow.id)) {
      throw new ToolExportError(`flow id "${flow.id}" cannot be a tool name (must match ^[a-zA-Z0-9_-]{1,64}$); tool names are never renamed silently`);
    }
    const hidden = hiddenParameters(flow, options);
    if (options.format === "json") {
      // As the Python SDK writes it, but without what rule (f) keeps from the model: hidden parameters, and nulls for absent keys.
      const fields = cloneJson({ ...flow.fields, parameters: flow.fields.parameters.filter((p) => !hidden.has(p.name)) });
      return { type: "function", function: { name: flow.id, description: flow.description, parameters: fields } };
    }
    let schema = flowInputSchema(flow, { hidden });
    if (options.openaiStrict) schema = strictSchema(schema);
    const strict = options.openaiStrict ? { strict: true } : {};
    switch (options.format) {
      case "openai-chat":
        return { type: "function", function: { name: flow.id, description: flow.description, parameters: schema, ...strict } };
      case "openai-responses":
        return { type: "function", name: flow.id, description: flow.description, parameters: schema, ...strict };
      case "anthropic":
        return { name: flow.id, description: flow.description, input_schema: schema };
      default:
        throw new ToolExportError(`unknown tool format "${String(options.format)}" (openai-chat, openai-responses, anthropic or json)`);
    }
  });
}

/** One line `"<flow id>: <description>"` per flow, for a system prompt. */
export function flowsPrompt(document: LoadedAgentsJson | string | object): string {
  return asLoaded(document)
    .document.flows.map((flow) => `${flow.id}: ${flow.description}`)
    .join("\n");
}

function selectFlows(doc: NormalisedAgentsJson, only: readonly string[] | undefined) {
  if (!only) return doc.flows;
  for (const id of only) if (!doc.flows.some((f) => f.id === id)) throw new ToolExportError(`no flow "${id}" to export`);
  return doc.flows.filter((f) => only.includes(f.id));
}

// OpenAI strict mode: every property required, optional ones nullable, no additional properties.
function strictSchema(schema: Record<string, unknown>): Record<string, unknown> {
  // An object given only by its anyOf branches: closing the bare wrapper would forbid every
  // property, so the branches are closed instead and take the wrapper's required names.
  if (schema.type === "object" && schema.properties === undefined && Array.isArray(schema.anyOf)) {
    const { type: _type, required, additionalProperties: _additional, anyOf, ...rest } = schema;
    const names = Array.isArray(required) ? (required as string[]) : [];
    const branches = (anyOf as unknown[]).map((inner) => {
      if (!inner || typeof inner !== "object") return inner;
      const branch = inner as Record<string, unknown>;
      if (branch.type !== "object" && branch.properties === undefined) return strictSchema(branch);
      return strictSchema({ type: "object", ...branch, required: [...new Set([...((branch.required as string[] | undefined) ?? []), ...names])] });
    });
    return { ...rest, anyOf: branches };
  }
  const out: Record<string, unknown> = { ...schema };
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  // OpenAI rejects the tool unless every object says additionalProperties: false, even one without properties.
  if (schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"))) out.additionalProperties = false;
  for (const key of ["anyOf", "allOf"]) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as unknown[]).map((inner) => (inner && typeof inner === "object" ? strictSchema(inner as Record<string, unknown>) : inner));
  }
  if (properties && typeof properties === "object") {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const next: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(properties)) {
      let converted = strictSchema(inner);
      if (!required.has(name)) converted = nullable(converted);
      next[name] = converted;
    }
    out.properties = next;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (schema.items && typeof schema.items === "object") out.items = strictSchema(schema.items as Record<string, unknown>);
  return out;
}

function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  // A const or an enum without null would still refuse the null the widened type allows.
  if (schema.const !== undefined) return { anyOf: [schema, { type: "null" }] };
  const enumWithNull = Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {};
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"], ...enumWithNull };
  if (Array.isArray(schema.type)) return { ...schema, ...(schema.type.includes("null") ? {} : { type: [...schema.type, "null"] }), ...enumWithNull };
  return { anyOf: [schema, { type: "null" }] };
}
