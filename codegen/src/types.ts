import { compile } from "json-schema-to-typescript";
import { Project, SyntaxKind, type Statement } from "ts-morph";
import type { SchemaGraph } from "./bundle.js";
import { typesDocument } from "./bundle.js";
import { mapSchema, type JsonObject } from "@flowspec/schema-diff/schema-files";

const WRAPPER = "FlowspecCodegenRoots";

/**
 * A schema with none of these allows any JSON value, so its type is `unknown`. (`not` alone is not
 * one: json-schema-to-typescript cannot express "anything but X" and would type it as an object.)
 */
const TYPE_KEYWORDS = ["type", "$ref", "properties", "additionalProperties", "items", "prefixItems", "enum", "const", "anyOf", "oneOf", "allOf", "tsType"];

/**
 * TypeScript declarations for every type of a schema graph: json-schema-to-typescript over a
 * prepared document, then ts-morph to drop the wrapper and order declarations by name.
 */
export async function generateTypes(graph: SchemaGraph): Promise<string> {
  const { definitions } = typesDocument(graph);
  const names = new Set(Object.keys(definitions));
  const prepared = Object.fromEntries(Object.entries(definitions).map(([name, schema]) => [name, dropClashingTitles(prepareForTypes(aliasOfRef(schema)), names)]));
  const wrapper = {
    title: WRAPPER,
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(graph.roots.map((root) => [root.name, { $ref: `#/definitions/${root.name}` }])),
    definitions: prepared,
  };
  const source = await compile(wrapper as never, WRAPPER, {
    bannerComment: "",
    format: false,
    unknownAny: true,
    strictIndexSignatures: true,
    additionalProperties: true,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  return postProcess(source);
}

/**
 * The preparation pass: rewrites what json-schema-to-typescript does not read into what it does.
 * - 2020-12 `prefixItems` becomes the tuple form (`items: [...]` plus `additionalItems`), and a
 *   tuple without `additionalItems` is typed open, as it validates.
 * - An `enum` marked `x-provisional` becomes an open union (`"a" | "b" | (string & {})`): the SDK
 *   must accept values the spec may add, while editors still suggest the known ones.
 * - A schema that constrains nothing (`{}`, or only a description) is `unknown`, not an object.
 * - Annotations beside a `$ref` are dropped, and so are titles of bare `const`/`enum` nodes: both
 *   would otherwise make json-schema-to-typescript declare a numbered copy (`Component1`,
 *   `FlowOutcome2`) of a type that already has a name.
 * - `allOf` members that are only if/then/else rules are left out of the type (see `isConditionalOnly`).
 */
export function prepareForTypes(schema: JsonObject): JsonObject {
  return mapSchema(schema, (node) => {
    const out = { ...node };
    if (Array.isArray(out.prefixItems)) {
      const rest = out.items;
      out.items = out.prefixItems;
      delete out.prefixItems;
      if (rest !== undefined) out.additionalItems = rest;
      if (out.maxItems === undefined && rest === false) out.maxItems = (out.items as unknown[]).length;
    }
    // A tuple says nothing about further items unless `additionalItems` does: they are allowed,
    // but json-schema-to-typescript would type the tuple as closed.
    if (Array.isArray(out.items) && out.additionalItems === undefined) out.additionalItems = true;
    if (typeof out.$ref === "string") {
      const { $ref, title, description, ...rest } = out;
      if (TYPE_KEYWORDS.some((key) => key in rest)) {
        // json-schema-to-typescript drops or mangles keywords beside a $ref (numbered copies of the
        // target, the schema's own name lost); as an intersection both parts are typed.
        return { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), allOf: [{ $ref }, rest] };
      }
      for (const key of ["title", "description", "default", "examples", "example"]) delete out[key];
    }
    if (typeof out.title === "string" && (out.const !== undefined || Array.isArray(out.enum)) && !out.properties) {
      delete out.title;
    }
    if (Array.isArray(out.allOf)) {
      const typed = out.allOf.filter((member) => !isConditionalOnly(member));
      if (typed.length === 0) delete out.allOf;
      else out.allOf = typed;
    }
    if (!TYPE_KEYWORDS.some((key) => key in out)) out.tsType = "unknown";
    if (out["x-provisional"] === true && Array.isArray(out.enum) && out.enum.every((v) => typeof v === "string")) {
      out.tsType = [...(out.enum as string[]).map((v) => JSON.stringify(v)), "(string & {})"].join(" | ");
    }
    return out;
  }) as JsonObject;
}

const CONDITIONAL_KEYWORDS = new Set(["if", "then", "else", "title", "description", "$comment"]);

/**
 * An `allOf` member that is only an if/then/else rule: json-schema-to-typescript types it as
 * `unknown`, so the schema became `unknown & Run1` (an alias of a numbered copy) instead of `Run`.
 * The rule still validates; the type is what the rest of the schema says.
 */
function isConditionalOnly(member: unknown): boolean {
  if (typeof member !== "object" || member === null || Array.isArray(member) || !("if" in member)) return false;
  // Members are prepared first, so such a member already carries `tsType: "unknown"`.
  return Object.entries(member).every(([key, value]) => CONDITIONAL_KEYWORDS.has(key) || (key === "tsType" && value === "unknown"));
}

/**
 * A definition whose schema is only a `$ref` (such as `{"title": "Tree", "$ref": "#/$defs/node"}`,
 * or `RunId` → `OpaqueId`) becomes an alias of the type it refers to. json-schema-to-typescript would
 * resolve the `$ref` and declare nothing under the definition's name (a root's type, which
 * `index.ts` uses, went missing), or a numbered copy (`OpaqueId1`, `OpaqueId2`, …) that says nothing.
 */
function aliasOfRef(schema: JsonObject): JsonObject {
  const { $ref, title, description, ...rest } = schema;
  if (typeof $ref !== "string" || !$ref.startsWith("#/definitions/") || TYPE_KEYWORDS.some((key) => key in rest)) return schema;
  return { title, ...(description === undefined ? {} : { description }), tsType: $ref.slice("#/definitions/".length) };
}

/**
 * Drops the `title` of an inline schema when json-schema-to-typescript could name it like one of
 * the graph's types: whichever it meets first gets the plain name, so a root could otherwise end
 * up as `Item1` while `Item` (and `validateItem`'s type) is the inline schema. The generator makes a
 * name by dropping characters and changing case, so titles are compared by their letters and digits
 * alone, ignoring case: that catches every clash, at worst drops a title that would not have
 * clashed (its type is then inlined), and relies on nothing inside the generator.
 */
function dropClashingTitles(schema: JsonObject, names: ReadonlySet<string>): JsonObject {
  const taken = new Set([...names].map(nameKey));
  return mapSchema(schema, (node, pointer) => {
    if (pointer === "" || typeof node.title !== "string" || !taken.has(nameKey(node.title))) return node;
    const { title: _title, ...rest } = node;
    return rest;
  }) as JsonObject;
}

/** A title or type name reduced to what a generated name keeps: letters and digits, from the first letter, any case. */
function nameKey(text: string): string {
  return text.replace(/^[^A-Za-z]+/, "").replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

function postProcess(source: string): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("types.ts", source);
  file.getInterface(WRAPPER)?.remove();
  const declarations = file.getStatements().map((statement) => ({ name: declarationName(statement), text: statement.getFullText().trim() }));
  declarations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return declarations.map((d) => stripLinkerNote(d.text)).join("\n\n") + "\n";
}

function declarationName(statement: Statement): string {
  const named = statement.asKind(SyntaxKind.InterfaceDeclaration) ?? statement.asKind(SyntaxKind.TypeAliasDeclaration);
  return named?.getName() ?? statement.getText();
}

/**
 * json-schema-to-typescript notes which definition or pattern property each type came from (for
 * a pattern property, of "`undefined`'s JSON-Schema"); the names already say it. A comment left
 * empty goes too.
 */
function stripLinkerNote(text: string): string {
  return text
    .replace(/(\n[ \t]*\*[ \t]*)?\n[ \t]*\* This interface was referenced by `[^`]*`'s JSON-Schema(?: definition)?\n[ \t]*\* via the `\w+` "(?:[^"\\\n]|\\.)*"\./g, "")
    .replace(/^[ \t]*\/\*\*\n[ \t]*\*\/\n/gm, "");
}
