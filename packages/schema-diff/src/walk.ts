import { isRecord } from "./json-text.js";
import type { JsonObject } from "./read-schemas.js";

const SUBSCHEMA = ["items", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "not", "if", "then", "else", "contains", "propertyNames", "contentSchema"];
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

/**
 * Rebuilds a schema bottom-up, calling `visit` on every subschema in a schema position (never on
 * data such as `const`, `enum`, `default` or `examples`, whose `$ref` keys are just data).
 * `visit` gets each schema object with its subschemas already rebuilt, plus its JSON Pointer.
 */
export function mapSchema(schema: unknown, visit: (node: JsonObject, pointer: string) => JsonObject, pointer = ""): unknown {
  if (!isRecord(schema)) return schema;
  const node: JsonObject = { ...schema };
  for (const key of SUBSCHEMA) {
    if (isRecord(node[key])) node[key] = mapSchema(node[key], visit, `${pointer}/${escape(key)}`);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) node[key] = list.map((item, i) => mapSchema(item, visit, `${pointer}/${escape(key)}/${i}`));
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = node[key];
    if (!isRecord(map)) continue;
    node[key] = Object.fromEntries(
      Object.entries(map).map(([name, sub]) => [
        name,
        key === "dependencies" && Array.isArray(sub) ? sub : mapSchema(sub, visit, `${pointer}/${escape(key)}/${escape(name)}`),
      ]),
    );
  }
  return visit(node, pointer);
}

/** Calls `visit` on every subschema in a schema position, children before parents. */
export function forEachSchema(schema: unknown, visit: (node: JsonObject, pointer: string) => void): void {
  mapSchema(schema, (node, pointer) => {
    visit(node, pointer);
    return node;
  });
}

/** The first subschema, in `forEachSchema` order, for which `test` holds, with its JSON Pointer. */
export function findSchema(schema: unknown, test: (node: JsonObject, pointer: string) => boolean): { node: JsonObject; pointer: string } | undefined {
  let found: { node: JsonObject; pointer: string } | undefined;
  forEachSchema(schema, (node, pointer) => {
    if (!found && test(node, pointer)) found = { node, pointer };
  });
  return found;
}

export function escape(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescape(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The value at a JSON Pointer, or undefined. */
export function getAt(root: unknown, pointer: string): unknown {
  if (pointer === "") return root;
  let node = root;
  for (const token of pointer.slice(1).split("/").map(unescape)) {
    if (Array.isArray(node) && /^\d+$/.test(token)) node = node[Number(token)];
    else if (isRecord(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}
