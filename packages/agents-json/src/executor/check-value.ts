type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export interface ValueIssue {
  path: string;
  message: string;
}

/**
 * Checks a value against a JSON Schema subset (type, enum, required, properties,
 * additionalProperties: false, items, allOf, anyOf, oneOf read as anyOf) plus OpenAPI 3.0
 * `nullable`. Unknown keywords are ignored. Used for flow inputs and opt-in response checks.
 */
export function checkValue(value: unknown, schema: unknown, path = "", depth = 0): ValueIssue[] {
  const issues: ValueIssue[] = [];
  check(value, schema, path, depth, issues);
  return issues;
}

const COMBINERS = ["anyOf", "oneOf"] as const;

/** Appends the issues of `value` against `schema` to `issues` (one array for the whole walk). */
function check(value: unknown, schema: unknown, path: string, depth: number, issues: ValueIssue[]): void {
  if (!isObject(schema) || depth > 64) return;
  if (value === null && schema.nullable === true) return;
  const type = schema.type;
  if (type !== undefined && !(Array.isArray(type) ? (type as string[]).some((t) => hasType(value, t)) : hasType(value, type as string))) {
    const types = Array.isArray(type) ? (type as string[]) : [type as string];
    issues.push({ path, message: `must be ${types.join(" or ")}, got ${describe(value)}` });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    issues.push({ path, message: `must be one of ${schema.enum.map((o) => JSON.stringify(o)).join(", ")}` });
  }
  for (const key of COMBINERS) {
    const options = schema[key];
    if (Array.isArray(options) && !options.some((inner) => checkValue(value, inner, path, depth + 1).length === 0)) {
      issues.push({ path, message: `matches none of the allowed shapes (${key})` });
    }
  }
  if (Array.isArray(schema.allOf)) for (const inner of schema.allOf) check(value, inner, path, depth + 1, issues);
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : undefined;
    if (Array.isArray(schema.required)) {
      for (const name of schema.required as string[]) if (!Object.hasOwn(value, name)) issues.push({ path: `${path}/${name}`, message: "is required" });
    }
    for (const name of Object.keys(value)) {
      if (properties && Object.hasOwn(properties, name)) check(value[name], properties[name], `${path}/${name}`, depth + 1, issues);
      else if (schema.additionalProperties === false) issues.push({ path: `${path}/${name}`, message: "is not a known property" });
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (let i = 0; i < value.length; i++) if (i in value) check(value[i], schema.items, `${path}/${i}`, depth + 1, issues);
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
