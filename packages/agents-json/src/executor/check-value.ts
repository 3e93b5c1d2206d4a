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

/**
 * The keywords of one schema object that `check` reads, gathered once per schema object: every plan
 * has the same shape, so the walk reads fixed fields instead of probing schemas of all shapes for
 * keywords they mostly lack. Schemas are loaded or derived once and not changed afterwards.
 */
interface Plan {
  nullable: boolean;
  types: readonly string[] | undefined;
  /** `enum` options as JSON text, compared with the value's. */
  enumTexts: readonly string[] | undefined;
  combiners: readonly { key: (typeof COMBINERS)[number]; options: readonly unknown[] }[];
  allOf: readonly unknown[] | undefined;
  required: readonly string[] | undefined;
  properties: Json | undefined;
  closed: boolean;
  items: Json | undefined;
}

const plans = new WeakMap<Json, Plan>();

function planOf(schema: Json): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    const type = schema.type;
    plan = {
      nullable: schema.nullable === true,
      types: type === undefined ? undefined : Array.isArray(type) ? (type as string[]) : [type as string],
      enumTexts: Array.isArray(schema.enum) ? schema.enum.map((option) => JSON.stringify(option)) : undefined,
      combiners: COMBINERS.flatMap((key) => (Array.isArray(schema[key]) ? [{ key, options: schema[key] as unknown[] }] : [])),
      allOf: Array.isArray(schema.allOf) ? schema.allOf : undefined,
      required: Array.isArray(schema.required) ? (schema.required as string[]) : undefined,
      properties: isObject(schema.properties) ? schema.properties : undefined,
      closed: schema.additionalProperties === false,
      items: isObject(schema.items) ? schema.items : undefined,
    };
    plans.set(schema, plan);
  }
  return plan;
}

/** Appends the issues of `value` against `schema` to `issues` (one array for the whole walk). */
function check(value: unknown, schema: unknown, path: string, depth: number, issues: ValueIssue[]): void {
  if (!isObject(schema) || depth > 64) return;
  const plan = planOf(schema);
  if (value === null && plan.nullable) return;
  if (plan.types && !plan.types.some((t) => hasType(value, t))) {
    issues.push({ path, message: `must be ${plan.types.join(" or ")}, got ${describe(value)}` });
    return;
  }
  if (plan.enumTexts) {
    const text = JSON.stringify(value);
    if (!plan.enumTexts.includes(text)) issues.push({ path, message: `must be one of ${plan.enumTexts.join(", ")}` });
  }
  for (const { key, options } of plan.combiners) {
    if (!options.some((inner) => checkValue(value, inner, path, depth + 1).length === 0)) {
      issues.push({ path, message: `matches none of the allowed shapes (${key})` });
    }
  }
  if (plan.allOf) for (const inner of plan.allOf) check(value, inner, path, depth + 1, issues);
  if (isObject(value)) {
    const { properties } = plan;
    if (plan.required) {
      for (const name of plan.required) if (!Object.hasOwn(value, name)) issues.push({ path: `${path}/${name}`, message: "is required" });
    }
    for (const name of Object.keys(value)) {
      if (properties && Object.hasOwn(properties, name)) check(value[name], properties[name], `${path}/${name}`, depth + 1, issues);
      else if (plan.closed) issues.push({ path: `${path}/${name}`, message: "is not a known property" });
    }
  }
  if (Array.isArray(value) && plan.items) {
    for (let i = 0; i < value.length; i++) if (i in value) check(value[i], plan.items, `${path}/${i}`, depth + 1, issues);
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
