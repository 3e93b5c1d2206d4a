type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The media type to use from a `content` map (§4.5): application/json, else any *+json, else the first. */
export function pickMediaType(content: unknown): string | undefined {
  if (!isObject(content)) return undefined;
  const keys = Object.keys(content);
  return keys.find((k) => bareMediaType(k) === "application/json") ?? keys.find((k) => bareMediaType(k).endsWith("+json")) ?? keys[0];
}

/** The request body object of an operation, or undefined. */
export function requestBodyOf(operation: Json): { required: boolean; mediaType?: string; schema?: Json; encoding?: Json } | undefined {
  const body = operation.requestBody;
  if (!isObject(body)) return undefined;
  const mediaType = pickMediaType(body.content);
  const media = mediaType === undefined ? undefined : (body.content as Json)[mediaType];
  const schema = isObject(media) && isObject(media.schema) ? media.schema : undefined;
  const encoding = isObject(media) && isObject(media.encoding) ? media.encoding : undefined;
  return { required: body.required === true, ...(mediaType ? { mediaType } : {}), ...(schema ? { schema } : {}), ...(encoding ? { encoding } : {}) };
}

/** The property names a schema declares, looking through allOf/anyOf/oneOf; undefined when it declares none. */
export function schemaProperties(schema: Json | undefined, seen = new Set<Json>()): Set<string> | undefined {
  if (!schema || seen.has(schema)) return undefined;
  seen.add(schema);
  let names: Set<string> | undefined;
  if (isObject(schema.properties)) names = new Set(Object.keys(schema.properties));
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const part of list) {
      const inner = schemaProperties(isObject(part) ? part : undefined, seen);
      if (inner) names = new Set([...(names ?? []), ...inner]);
    }
  }
  return names;
}

/** True when the schema describes an array (3.0 `type: array` or a 3.1 type list with it). */
export function isArraySchema(schema: Json | undefined): boolean {
  if (!schema) return false;
  return schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array") && !schema.type.includes("object"));
}

const bareTypes = new Map<string, string>();

/** The bare, lower-case media type of a Content-Type value (remembered: few distinct ones are seen). */
export function bareMediaType(contentType: string): string {
  let type = bareTypes.get(contentType);
  if (type === undefined) {
    type = contentType.split(";")[0]!.trim().toLowerCase();
    if (bareTypes.size >= 256) bareTypes.clear();
    bareTypes.set(contentType, type);
  }
  return type;
}
