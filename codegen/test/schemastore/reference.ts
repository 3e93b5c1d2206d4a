import { Ajv, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats-2";
import ajvKeywords from "ajv-keywords";
import { ajvFormatsDraft2019 } from "@hyperupcall/ajv-formats-draft2019";

/**
 * ajv as SchemaStore's own CI (`cli.js`, `ajvFactory`) sets it up: the reference every verdict of
 * the generated validators is compared with. Same ajv classes per dialect (ajv-draft-04 for
 * draft-04), ajv-formats 2 (not 3: its `time` and `date-time` differ), the draft-2019 formats for
 * draft-07 and later, `uniqueItemProperties`, SchemaStore's global annotation keywords, and each
 * schema's options from `src/schema-validation.jsonc`.
 */

export type SchemaStoreDialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

const DIALECTS: Record<string, SchemaStoreDialect> = {
  "http://json-schema.org/draft-04/schema#": "draft-04",
  "http://json-schema.org/draft-06/schema#": "draft-06",
  "http://json-schema.org/draft-07/schema#": "draft-07",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
};

/** The dialect a schema declares, as SchemaStore names them; undefined for none or another. */
export function dialectOf(schema: unknown): SchemaStoreDialect | undefined {
  const declared = typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  return typeof declared === "string" ? DIALECTS[declared] : undefined;
}

/** One schema's entry in `schema-validation.jsonc`, resolved. */
export interface SchemaStoreOptions {
  /** Not listed under `ajvNotStrictMode`. */
  strict: boolean;
  unknownFormats: string[];
  unknownKeywords: string[];
  /** File names (in `src/schemas/json`) added to ajv so that `$ref`s to them resolve. */
  externalSchemas: string[];
  /** Listed under `skiptest`: SchemaStore validates none of its test documents. */
  skipTest: boolean;
}

/** Keywords SchemaStore allows in every schema (editor annotations). */
export const GLOBAL_KEYWORDS = [
  "allowTrailingCommas",
  "defaultSnippets",
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "x-taplo",
  "x-taplo-info",
  "x-tombi-toml-version",
  "x-tombi-array-values-order",
  "x-tombi-array-values-order-by",
  "x-tombi-table-keys-order",
  "x-tombi-string-formats",
  "x-tombi-additional-key-label",
  "x-intellij-language-injection",
  "x-intellij-html-description",
  "x-intellij-enum-metadata",
];

/** The parts of `src/schema-validation.jsonc` that configure ajv. */
export interface SchemaValidationConfig {
  ajvNotStrictMode: string[];
  skiptest: string[];
  options: Record<string, { unknownFormat?: string[]; unknownKeywords?: string[]; externalSchema?: string[] }>;
}

/** Reads `schema-validation.jsonc` text: JSON with comments and trailing commas. */
export function parseSchemaValidation(text: string): SchemaValidationConfig {
  const withoutComments = text.replace(/("(?:[^"\\\n]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_match, string: string | undefined) => string ?? "");
  const json = JSON.parse(withoutComments.replace(/("(?:[^"\\\n]|\\.)*")|,(\s*[\]}])/g, (match, string: string | undefined, close: string | undefined) => string ?? close ?? match)) as Partial<SchemaValidationConfig>;
  return { ajvNotStrictMode: json.ajvNotStrictMode ?? [], skiptest: json.skiptest ?? [], options: json.options ?? {} };
}

export function optionsFor(config: SchemaValidationConfig, fileName: string): SchemaStoreOptions {
  const options = config.options[fileName] ?? {};
  return {
    strict: !config.ajvNotStrictMode.includes(fileName),
    unknownFormats: options.unknownFormat ?? [],
    unknownKeywords: options.unknownKeywords ?? [],
    externalSchemas: options.externalSchema ?? [],
    skipTest: config.skiptest.includes(fileName),
  };
}

export interface ReferenceOptions extends Omit<SchemaStoreOptions, "externalSchemas" | "skipTest" | "strict"> {
  /** SchemaStore's strict mode, its relaxed one, or "off" (ajv's `strict: false`: unknown keywords and formats are ignored). */
  strict: boolean | "off";
  /** The external schemas' contents (SchemaStore adds each with `ajv.addSchema`). */
  externalSchemas: unknown[];
  /** Collect every error rather than stop at the first (verdicts are the same either way). */
  allErrors?: boolean;
  /** ajv's `verbose`: errors carry the schema object that holds their keyword (`parentSchema`). */
  verbose?: boolean;
}

type AjvLike = Pick<Ajv, "compile" | "addSchema" | "addFormat" | "addKeyword" | "addMetaSchema">;

/** An ajv instance configured as SchemaStore's `ajvFactory` configures it. */
export function referenceAjv(dialect: SchemaStoreDialect, options: ReferenceOptions): AjvLike {
  const ajvOptions: Options = {
    ...(options.strict === "off" ? { strict: false } : options.strict ? { strict: true } : { strictTypes: false, strictTuples: false, allowMatchingProperties: true }),
    allErrors: options.allErrors ?? false,
    verbose: options.verbose ?? false,
    logger: false,
  };
  let ajv: AjvLike;
  const formats = addFormats as unknown as (ajv: AjvLike) => void;
  const draft2019 = ajvFormatsDraft2019 as unknown as (ajv: AjvLike) => void;
  switch (dialect) {
    case "draft-04":
      ajv = new (AjvDraft04 as unknown as new (options: Options) => AjvLike)(ajvOptions);
      formats(ajv);
      break;
    case "draft-06":
      ajv = new Ajv(ajvOptions);
      ajv.addMetaSchema(draft06MetaSchema);
      formats(ajv);
      break;
    case "draft-07":
      ajv = new Ajv(ajvOptions);
      formats(ajv);
      draft2019(ajv);
      break;
    case "2019-09":
      ajv = new Ajv2019(ajvOptions);
      formats(ajv);
      draft2019(ajv);
      break;
    case "2020-12":
      ajv = new Ajv2020(ajvOptions);
      formats(ajv);
      draft2019(ajv);
      break;
  }
  (ajvKeywords as unknown as (ajv: AjvLike, keyword: string) => void)(ajv, "uniqueItemProperties");
  for (const format of options.unknownFormats) ajv.addFormat(format, true);
  for (const keyword of [...options.unknownKeywords, ...GLOBAL_KEYWORDS]) ajv.addKeyword(keyword);
  for (const schema of options.externalSchemas) ajv.addSchema(schema as object);
  return ajv;
}

/** Compiles a schema with the reference set-up. */
export function referenceValidator(schema: unknown, options: ReferenceOptions): ValidateFunction {
  const dialect = dialectOf(schema);
  if (!dialect) throw new Error(`"$schema" ${JSON.stringify((schema as { $schema?: unknown }).$schema)} is no dialect SchemaStore validates`);
  return referenceAjv(dialect, options).compile(schema as object);
}
