import { compile } from "json-schema-to-typescript";
import { Project, SyntaxKind, type Statement } from "ts-morph";
import type { SchemaGraph } from "./bundle.js";
import { typesDocument } from "./bundle.js";
import { forEachSchema, isRecord, mapSchema, type JsonObject } from "@flowspec/schema-diff/schema-files";
import { numberedDuplicates, textWithMerges } from "./type-duplicates.js";

const WRAPPER = "FlowspecCodegenRoots";

/**
 * A schema with none of these allows any JSON value, so its type is `unknown`. (`not` alone is not
 * one: json-schema-to-typescript cannot express "anything but X" and would type it as an object.)
 */
const TYPE_KEYWORDS = ["type", "$ref", "properties", "additionalProperties", "items", "prefixItems", "enum", "const", "anyOf", "oneOf", "allOf", "tsType"];

/** The types of a schema graph: the module's text, and the name each root's type has in it. */
export interface GeneratedTypes {
  source: string;
  /** Root name → the name of its type as declared in `source`. */
  rootTypes: Record<string, string>;
}

/**
 * TypeScript declarations for every type of a schema graph: json-schema-to-typescript over a
 * prepared document, then ts-morph to drop the wrapper and order declarations by name.
 *
 * json-schema-to-typescript makes its own names from titles (`I18nMessages` becomes `I18NMessages`),
 * so no name is derived here: the wrapper interface has a property per definition, and what the
 * generator wrote as each property's type is that definition's type. Aliases (`tsType`) are written
 * as placeholders and replaced by those names afterwards.
 */
export async function generateTypes(graph: SchemaGraph): Promise<GeneratedTypes> {
  const definitions = withoutTopLevelCycles(typesDocument(graph).definitions);
  const names = new Set(Object.keys(definitions));
  const prepared = Object.fromEntries(Object.entries(definitions).map(([name, schema]) => [name, dropClashingTitles(prepareForTypes(aliasOfRef(schema)), names)]));
  const rootNames = graph.roots.map((root) => root.name);
  // Roots first: the generator gives a name to whichever schema it meets first.
  const ordered = [...rootNames, ...Object.keys(definitions).filter((name) => !rootNames.includes(name))];
  let source: string;
  try {
    source = await compileTypes(ordered, prepared);
  } catch (error) {
    throw new Error(await whereTypesFail(graph, prepared, error as Error));
  }
  return postProcess(source, rootNames);
}

/** json-schema-to-typescript over a wrapper interface with a property per definition named in `properties`. */
function compileTypes(properties: readonly string[], definitions: Record<string, JsonObject>): Promise<string> {
  const wrapper = {
    title: WRAPPER,
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(properties.map((name) => [name, { $ref: `#/definitions/${name}` }])),
    definitions,
  };
  return compile(wrapper as never, WRAPPER, {
    bannerComment: "",
    format: false,
    unknownAny: true,
    strictIndexSignatures: true,
    additionalProperties: true,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    $refOptions: { resolve: { external: false } } as never,
  });
}

/**
 * json-schema-to-typescript's errors say nothing of where (some are a bare `TypeError`, its
 * validator's an empty error after printing to the console). Each definition is compiled alone,
 * the others standing in as `unknown`, to find the schema it fails on; then, within it, the
 * deepest subschema that, typed `unknown`, lets it compile (up to `MAX_NARROWING` tries). The
 * message names that file and JSON Pointer.
 */
async function whereTypesFail(graph: SchemaGraph, prepared: Record<string, JsonObject>, error: Error): Promise<string> {
  const what = error.message ? `${error.name}: ${error.message}` : "it refused the schema (its own messages are printed above)";
  const stubs = Object.fromEntries(Object.keys(prepared).map((name) => [name, { title: name, tsType: "unknown" }]));
  const fails = (name: string, schema: JsonObject) =>
    compileTypes([name], { ...stubs, [name]: schema }).then(
      () => false,
      () => true,
    );
  for (const target of [...graph.targets.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const schema = prepared[target.name]!;
    if (!(await fails(target.name, schema))) continue;
    const pointers: string[] = [];
    forEachSchema(schema, (_node, pointer) => void (pointer !== "" && pointers.length < MAX_NARROWING && pointers.push(pointer)));
    let place = target.pointer;
    for (const pointer of pointers) {
      if (!(await fails(target.name, withUnknownAt(schema, pointer)))) {
        place = target.pointer + pointer;
        break;
      }
    }
    return `json-schema-to-typescript failed on ${target.file.path}#${place} (in type ${target.name}): ${what}`;
  }
  return `json-schema-to-typescript failed on the ${graph.roots.map((root) => root.name).join(", ")} types together: ${what}`;
}

const MAX_NARROWING = 200;

/** A copy of a schema with the subschema at `pointer` typed `unknown`. */
function withUnknownAt(schema: JsonObject, pointer: string): JsonObject {
  return mapSchema(schema, (node, at) => (at === pointer ? { tsType: "unknown" } : node)) as JsonObject;
}

/**
 * The preparation pass: rewrites what json-schema-to-typescript does not read into what it does.
 * - Only what the generator reads for a type is kept (see `typeRelevant`): annotations,
 *   unknown keywords and data (`default`, `examples`) go, so a `$ref` inside data is never
 *   followed, and annotation values the dialect allows but the generator refuses are normalised.
 * - 2020-12 `prefixItems` becomes the tuple form (`items: [...]` plus `additionalItems`), and a
 *   tuple without `additionalItems` is typed open, as it validates.
 * - An `enum` marked `x-provisional` becomes an open union (`"a" | "b" | (string & {})`): the SDK
 *   must accept values the spec may add, while editors still suggest the known ones.
 * - A schema that constrains nothing (`{}`, or only a description) is `unknown`, not an object.
 * - Annotations beside a `$ref` are dropped, and so are titles of bare `const`/`enum` nodes: both
 *   would otherwise make json-schema-to-typescript declare a numbered copy (`Component1`,
 *   `FlowOutcome2`) of a type that already has a name.
 * - `allOf` members that constrain no type (if/then rules, `not`, required-only branches) are left
 *   out of the type, and an `anyOf`/`oneOf` with such a branch allows anything: otherwise the type
 *   became `unknown & Run1`, an alias of a numbered copy.
 * - A `type` list beside an `anyOf`/`oneOf` whose branches say their own types is left out: the
 *   generator types each listed type with the union again and intersects it all, which nested
 *   grows exponentially (stylelintrc's 115 KB schema gave 3.5 MB of types that tsc refused).
 */
export function prepareForTypes(schema: JsonObject): JsonObject {
  return mapSchema(schema, (node) => {
    const out = typeRelevant(node);
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
      return { $ref };
    }
    if (typeof out.title === "string" && (out.const !== undefined || Array.isArray(out.enum)) && !out.properties) {
      delete out.title;
    }
    if (Array.isArray(out.allOf)) {
      const typed = out.allOf.filter((member) => !allowsAnything(member));
      if (typed.length === 0) delete out.allOf;
      else out.allOf = typed;
    }
    for (const key of ["anyOf", "oneOf"]) {
      const branches = out[key];
      if (Array.isArray(branches) && branches.some(allowsAnything)) delete out[key];
    }
    if (Array.isArray(out.type) && (Array.isArray(out.anyOf) || Array.isArray(out.oneOf))) delete out.type;
    if (!TYPE_KEYWORDS.some((key) => key in out)) out.tsType = "unknown";
    if (node["x-provisional"] === true && Array.isArray(out.enum) && out.enum.every((v) => typeof v === "string")) {
      out.tsType = [...(out.enum as string[]).map((v) => JSON.stringify(v)), "(string & {})"].join(" | ");
    }
    if (Array.isArray(out.allOf)) {
      // json-schema-to-typescript types a schema with `allOf` beside keywords of its own as an
      // intersection it builds apart, and crashes ("reading 'push'") when that schema reaches itself
      // through the `allOf`. Its own keywords as one more member give the same intersection.
      const { title, description, allOf, ...own } = out;
      if (TYPE_KEYWORDS.some((key) => key in own)) return { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), allOf: [...(allOf as JsonObject[]), own] };
    }
    return out;
  }) as JsonObject;
}

/** The keywords json-schema-to-typescript reads for a type (and the annotations it turns into JSDoc). */
const TYPE_READ = new Set([...TYPE_KEYWORDS, "prefixItems", "additionalItems", "patternProperties", "required", "minItems", "maxItems", "not", "nullable", "tsEnumNames", "title", "description", "deprecated"]);

/**
 * A schema node with only what the type generator reads, its values as the generator takes them:
 * a non-boolean `deprecated` (draft-07 has no such keyword, so any value is an annotation; `"use
 * X"` is common) counts as deprecated when it is a non-empty string; item counts the generator
 * refuses (`maxItems` below `minItems`, which no array meets) are dropped; an `enum` or `const`
 * whose values hold a `$ref` key is written as literal types, since the generator would try to
 * resolve that data as a reference.
 */
function typeRelevant(node: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) if (TYPE_READ.has(key)) out[key] = value;
  if (out.deprecated !== undefined && typeof out.deprecated !== "boolean") {
    if (typeof out.deprecated === "string" && out.deprecated !== "") out.deprecated = true;
    else delete out.deprecated;
  }
  const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;
  if (!isCount(out.minItems) || (isCount(out.maxItems) && out.maxItems < out.minItems)) delete out.minItems;
  if (!isCount(out.maxItems) || (isCount(node.minItems) && out.maxItems < node.minItems)) delete out.maxItems;
  // json-schema-to-typescript's own keyword: an `enum` member name per value, as strings.
  if (out.tsEnumNames !== undefined && !(Array.isArray(out.tsEnumNames) && Array.isArray(out.enum) && out.tsEnumNames.length === out.enum.length && out.tsEnumNames.every((n) => typeof n === "string"))) {
    delete out.tsEnumNames;
  }
  const values = out.const !== undefined ? [out.const] : Array.isArray(out.enum) ? out.enum : [];
  if (values.some(holdsRef)) {
    delete out.const;
    delete out.enum;
    out.tsType = values.map((value) => JSON.stringify(value)).join(" | ");
  }
  return out;
}

/** Whether JSON data has an object with a `$ref` key anywhere. */
function holdsRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRef);
  return isRecord(value) && (Object.hasOwn(value, "$ref") || Object.values(value).some(holdsRef));
}

/** A prepared subschema that says nothing about the type: `true`, or one typed `unknown`. */
function allowsAnything(schema: unknown): boolean {
  return schema === true || (isRecord(schema) && schema.tsType === "unknown");
}

/**
 * The definitions, without the `$ref`s by which a type would be made of itself with nothing in
 * between: `A = A & X` (cloudify.json has an `allOf` with a `$ref` to its own definition), or
 * `A = B | X` with `B = A & Y`. TypeScript refuses such aliases (TS2456). Each `$ref` that closes
 * such a cycle is left out of its `allOf`, `anyOf` or `oneOf` (or replaced by `{}` when it is the
 * whole schema). Validation is not affected; the type is that of the rest of the schema.
 */
function withoutTopLevelCycles(definitions: Record<string, JsonObject>): Record<string, JsonObject> {
  const refName = (node: unknown) => (isRecord(node) && typeof node.$ref === "string" ? node.$ref.replace(/^#\/definitions\//, "") : undefined);
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string, schema: JsonObject): JsonObject => {
    state.set(name, "visiting");
    // Walks the schema's own level: itself and the members of its combinators, recursively.
    const walk = (node: JsonObject): JsonObject | undefined => {
      const target = refName(node);
      if (target !== undefined && Object.hasOwn(definitions, target)) {
        if (state.get(target) === "visiting") return undefined;
        if (!state.has(target)) definitions[target] = visit(target, definitions[target]!);
      }
      let out = node;
      for (const key of ["allOf", "anyOf", "oneOf"]) {
        const members = node[key];
        if (!Array.isArray(members)) continue;
        const kept = members.flatMap((member) => (isRecord(member) ? (walk(member) ?? []) : [member]));
        if (kept.length === members.length && kept.every((member, i) => member === members[i])) continue;
        out = { ...out, [key]: kept };
        if (kept.length === 0) delete out[key];
      }
      return out;
    };
    const result = walk(schema) ?? { title: schema.title };
    state.set(name, "done");
    return result;
  };
  for (const [name, schema] of Object.entries(definitions)) if (!state.has(name)) definitions[name] = visit(name, schema);
  return definitions;
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
  return { title, ...(description === undefined ? {} : { description }), tsType: typePlaceholder($ref.slice("#/definitions/".length)) };
}

/** Stands for the type of a definition until the generator has named it (definition names are letters and digits). */
const typePlaceholder = (definition: string) => `FlowspecTypeOf__${definition}`;
const TYPE_PLACEHOLDER = /\bFlowspecTypeOf__([A-Za-z0-9]+)\b/g;

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

function postProcess(source: string, rootNames: readonly string[]): GeneratedTypes {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("types.ts", source);
  const wrapper = file.getInterfaceOrThrow(WRAPPER);
  const statements = file.getStatements().filter((statement) => statement !== wrapper);
  const merges = numberedDuplicates(statements);
  const written = new Map(wrapper.getProperties().map((property) => [property.getName(), textWithMerges(property.getTypeNodeOrThrow(), merges)]));
  // What a placeholder stands for may hold placeholders too (an alias the generator inlined).
  const typeOf = (definition: string, seen: readonly string[] = []): string => {
    if (seen.includes(definition)) throw new Error(`the types of ${[...seen, definition].join(" -> ")} are only each other`);
    return written.get(definition)!.replace(TYPE_PLACEHOLDER, (_m, inner: string) => typeOf(inner, [...seen, definition]));
  };
  const declarations = statements
    .map((statement) => ({ name: declarationName(statement), text: textWithMerges(statement, merges, true).trim() }))
    .filter((declaration) => !merges.into.has(declaration.name));
  const declared = new Set(declarations.map((d) => d.name));
  // Every root's type is declared under the root's name, as `validateX` is named: the generator
  // names some differently (a title "i18n messages" gives `I18NMessages`) and inlines a few (a
  // root whose schema is `{"type": "string"}` is just `string`); those get an alias.
  const rootTypes: Record<string, string> = {};
  for (const root of rootNames) {
    const type = typeOf(root);
    if (type === root || !declared.has(root)) {
      if (type !== root) declarations.push({ name: root, text: `export type ${root} = ${type};` });
      declared.add(root);
      rootTypes[root] = root;
    } else if (declared.has(type)) rootTypes[root] = type;
    else throw new Error(`json-schema-to-typescript declared no type for root ${root}, and another type has its name`);
  }
  declarations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const text = declarations.map((d) => stripLinkerNote(d.text)).join("\n\n") + "\n";
  return { source: text.replace(TYPE_PLACEHOLDER, (_m, definition: string) => typeOf(definition)), rootTypes };
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
