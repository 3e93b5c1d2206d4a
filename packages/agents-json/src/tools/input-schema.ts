import { ToolExportError } from "../errors.js";
import type { NormalisedFlow } from "../loader/types.js";
import { pickMediaType } from "../sources/media.js";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const OPENAPI_ONLY_FORMATS = new Set(["int32", "int64", "float", "double", "byte", "binary", "password"]);
const DROPPED_KEYS = new Set(["discriminator", "xml", "readOnly", "writeOnly", "nullable", "example", "externalDocs", "deprecated"]);

export interface InputSchemaOptions {
  /** Flow parameter names not shown (supplied by parameterDefaults, §4.9). */
  hidden?: ReadonlySet<string>;
}

/**
 * The input schema of a flow (§4.9): `{parameters, requestBody}`, each present only when the flow
 * declares it and required when it has required content.
 */
export function flowInputSchema(flow: NormalisedFlow, options: InputSchemaOptions = {}): Json {
  const properties: Json = {};
  const required: string[] = [];
  const parameters = flow.fields.parameters.filter((p) => !options.hidden?.has(p.name));
  if (parameters.length > 0) {
    const props: Json = {};
    const requiredNames: string[] = [];
    for (const parameter of parameters) {
      const schema: Json = { type: parameter.type ?? "string" };
      if (parameter.description !== undefined) schema.description = parameter.description;
      if (parameter.enum !== undefined) schema.enum = parameter.enum;
      if (parameter.default !== undefined) schema.default = parameter.default;
      if (parameter.items !== undefined) schema.items = toJsonSchema(parameter.items, `${flow.id}: parameter "${parameter.name}" items`);
      else if (schema.type === "array") schema.items = { type: "string" };
      if (parameter.properties !== undefined) schema.properties = toJsonSchema(parameter.properties, `${flow.id}: parameter "${parameter.name}" properties`, true);
      props[parameter.name] = schema;
      if (parameter.required) requiredNames.push(parameter.name);
    }
    properties.parameters = { type: "object", properties: props, ...(requiredNames.length ? { required: requiredNames } : {}), additionalProperties: false };
    if (requiredNames.length) required.push("parameters");
  }
  const body = flow.fields.requestBody;
  if (body?.content) {
    const mediaType = pickMediaType(body.content);
    const schema = mediaType === undefined ? undefined : body.content[mediaType]?.schema;
    properties.requestBody = schema ? toJsonSchema(schema, `${flow.id}: requestBody`) : { type: "object" };
    if (body.required) required.push("requestBody");
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/**
 * OpenAPI schema → plain JSON Schema (§4.9): nullable → type union with "null", example →
 * examples, oneOf → anyOf, OpenAPI-only keys and formats dropped. A `$ref` is an error.
 */
export function toJsonSchema(schema: unknown, where: string, isPropertyMap = false): Json {
  if (!isObject(schema)) return {};
  if (isPropertyMap) {
    const out: Json = {};
    for (const [name, inner] of Object.entries(schema)) out[name] = toJsonSchema(inner, `${where}.${name}`);
    return out;
  }
  if (Object.hasOwn(schema, "$ref")) throw new ToolExportError(`${where}: "$ref" is not allowed; fields schemas must be self-contained`);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYS.has(key)) continue;
    // `required: true` on a property (Swagger parameter style) is invalid JSON Schema; providers refuse it.
    if (key === "required" && !Array.isArray(value)) continue;
    if (key === "format" && typeof value === "string" && OPENAPI_ONLY_FORMATS.has(value)) continue;
    if (key === "properties" || key === "patternProperties") out[key] = toJsonSchema(value, where, true);
    else if (key === "items" || key === "not" || (key === "additionalProperties" && isObject(value))) out[key] = toJsonSchema(value, where);
    else if (key === "oneOf" || key === "anyOf" || key === "allOf") {
      const target = key === "oneOf" ? "anyOf" : key;
      out[target] = Array.isArray(value) ? value.map((inner) => toJsonSchema(inner, where)) : value;
    } else out[key] = value;
  }
  if (schema.example !== undefined) out.examples = [schema.example];
  if (schema.nullable === true) {
    if (typeof out.type === "string") out.type = [out.type, "null"];
    else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  }
  return out;
}
