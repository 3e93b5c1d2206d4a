import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GLOBAL_KEYWORDS, type SchemaStoreOptions } from "./reference.js";

/**
 * One SchemaStore schema as a user of `flowspec-codegen` would set it up: a folder holding the
 * schema and the SchemaStore schemas its `$ref`s reach (by their SchemaStore file names, so `$id`s
 * still resolve), and a `codegen.json` that names the one root and carries over what SchemaStore's
 * own ajv set-up allows (its unknown keywords and formats, and `allowMatchingProperties` for the
 * schemas it compiles out of strict mode).
 */

export interface CodegenCase {
  /** The schema's file name in SchemaStore (`package.json`). */
  file: string;
  /** The root's name: what codegen calls it without `roots` (its title, else its file name). */
  rootName: string;
  /** The folder given to `--schemas`. */
  schemaDir: string;
}

/** codegen's default root name (`pascalCase` in `codegen/src/bundle.ts`), of the title or the file name. */
export function rootNameOf(schema: unknown, file: string): string {
  const title = (schema as { title?: unknown }).title;
  const text = typeof title === "string" ? title : file.replace(/\.json$/, "").replace(/\.schema$/, "");
  const words = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(name) ? name : `T${name}`;
}

/**
 * Writes `schemaDir` with the schema, the schemas it reaches and `codegen.json`. Formats that
 * codegen itself checks (`checkedFormats`) stay out of `formats`, as codegen requires.
 */
export function writeCodegenCase(options: {
  schemaDir: string;
  file: string;
  schemas: ReadonlyMap<string, string>;
  storeOptions: Pick<SchemaStoreOptions, "strict" | "unknownFormats" | "unknownKeywords">;
  checkedFormats: ReadonlySet<string>;
}): CodegenCase {
  const { schemaDir, file, schemas, storeOptions } = options;
  mkdirSync(schemaDir, { recursive: true });
  for (const [name, text] of schemas) writeFileSync(join(schemaDir, name), text);
  const rootName = rootNameOf(JSON.parse(schemas.get(file)!), file);
  const config = {
    name: file.replace(/\.json$/, ""),
    roots: { [rootName]: file },
    keywords: [...new Set([...storeOptions.unknownKeywords, ...GLOBAL_KEYWORDS])],
    formats: storeOptions.unknownFormats.filter((format) => !options.checkedFormats.has(format)),
    ...(storeOptions.strict ? {} : { relaxStrict: ["allowMatchingProperties"] }),
  };
  writeFileSync(join(schemaDir, "codegen.json"), JSON.stringify(config, null, 2));
  return { file, rootName, schemaDir };
}

/** A cause of failure, as issue 23 numbers them, or a name for the ones it does not. */
export type FailureCause =
  | "F1 require( in a description"
  | "F2 propertyNames maxLength (ucs2length)"
  | "F3 properties matching patternProperties"
  | "F4 one type name spelled two ways"
  | "F5 $id ending in #"
  | "F6 stray $ref in a non-schema object"
  | "F7 json-schema-to-typescript error without place"
  | "F8 type explosion (TS2590 or tsc too slow)"
  | "F10 unknown keyword or format"
  | "dialect refused"
  | "other codegen error"
  | "other compile error"
  | "timeout";

/** Classifies codegen's error message (or stderr, from the CLI) by the messages each cause gives. */
export function codegenFailureCause(stderr: string): FailureCause {
  // json-schema-to-typescript prints its complaint to the console and throws an empty Error.
  if (stderr.replace(/^flowspec-codegen:\s*/gm, "").trim() === "") return "F7 json-schema-to-typescript error without place";
  if (/ajv output still contains require\(\)/.test(stderr)) return "F1 require( in a description";
  if (/ucs2length\) call\(s\) of a form codegen does not know/.test(stderr)) return "F2 propertyNames maxLength (ucs2length)";
  if (/allowMatchingProperties/.test(stderr)) return "F3 properties matching patternProperties";
  // ajv looks the root up by "<$id>#", and codegen's own resolver sees `$ref: "#"` land elsewhere.
  if (/no schema with (?:key or ref|id) "?[^"\s]*##|\$ref "#" points to/.test(stderr)) return "F5 $id ending in #";
  if (/Missing \$ref pointer/.test(stderr)) return "F6 stray $ref in a non-schema object";
  if (/unknown (?:keyword|format)/.test(stderr)) return "F10 unknown keyword or format";
  if (/which flowspec-codegen does not read/.test(stderr)) return "dialect refused";
  if (/reading 'push'|Cannot read properties|is not a function|Schema must be|json-schema-to-typescript|normalizer|must be (?:a|an) /i.test(stderr)) return "F7 json-schema-to-typescript error without place";
  return "other codegen error";
}

/** Classifies tsc's diagnostics for one output folder. */
export function compileFailureCause(diagnostics: string): FailureCause {
  if (/TS2590|TS2589/.test(diagnostics)) return "F8 type explosion (TS2590 or tsc too slow)";
  // A name written one way where it is declared and another where it is used ("Did you mean").
  if (/index\.ts\(\d+,\d+\): error TS(?:2305|2724|2694)|types\.ts\(\d+,\d+\): error TS2552/.test(diagnostics)) return "F4 one type name spelled two ways";
  return "other compile error";
}
