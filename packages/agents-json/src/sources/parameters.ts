type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** An OpenAPI parameter object (after dereferencing). */
export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Json;
  content?: Json;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  [key: string]: unknown;
}

/** Path-item parameters overlaid by operation parameters, keyed by (name, in) (§4.5). */
export function effectiveParameters(pathItem: Json, operation: Json): OpenApiParameter[] {
  const byKey = new Map<string, OpenApiParameter>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (isObject(parameter) && typeof parameter.name === "string" && typeof parameter.in === "string") {
        byKey.set(`${parameter.in}:${parameter.name}`, parameter as OpenApiParameter);
      }
    }
  }
  return [...byKey.values()];
}
