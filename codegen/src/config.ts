import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILE, isRecord, parseJsonText } from "@flowspec/schema-diff/schema-files";

/** `codegen.json` in a schema folder: which types to generate and how. Every field is optional. */
export interface CodegenConfig {
  /** Names the schema set in headers and messages (default: the folder's name). */
  name?: string;
  /**
   * The root document kinds: type name → `file.json` or `file.json#/json/pointer`. Each gets a type,
   * `validateX`, `isX`, `assertX` and `XSchema`. Default: every file whose root is a schema, named
   * by its `title` or file name.
   */
  roots?: Record<string, string>;
  /**
   * Variants: name → overlay files (RFC 6902 patches, see `Overlay`) applied on top of the verbatim
   * schemas, in order. Default: `{ "default": [] }`.
   */
  variants?: Record<string, string[]>;
  /** The variant whose exports carry no suffix (default: the first). */
  defaultVariant?: string;
  /**
   * Variants that use the default variant's types instead of their own: those whose overlays only
   * loosen what the types already allow (an open union already admits the values a removed
   * `enum` would have refused).
   */
  sharedTypes?: string[];
  /** Overlays applied for type generation only, on top of each variant's (titles, type-only fixes). */
  typeOverlays?: string[];
  /** Extra keywords the schemas use that carry no validation meaning (`example`, `x-…`). */
  keywords?: string[];
  /**
   * Formats the schemas use that codegen has no check for (a company's `"format": "sku"`): taken as
   * annotations, never checked, as JSON Schema allows. Any other unknown format is an error (a typo).
   */
  formats?: string[];
  /**
   * Checks of ajv's strict mode to relax, by name (see `RELAXABLE_STRICT_CHECKS`): each refuses
   * schemas that are valid but often a mistake. What a validator accepts does not change.
   */
  relaxStrict?: RelaxableStrictCheck[];
  /**
   * Check the integer formats (`int32`, `int64`, `uint16`, `uint32`, `uint64`) as ranges of JS
   * numbers (`int64` as a safe integer). Off by default: they are then annotations, as JSON Schema
   * leaves them, so an int64 beyond 2^53 (a Kubernetes resource version, a Snowflake id) passes.
   */
  checkIntegerFormats?: boolean;
  /** The command that regenerates the output, quoted in headers and in `--check` failures. */
  regenerateCommand?: string;
}

/** The strict-mode checks `relaxStrict` may name, each with what relaxing it allows. */
export const RELAXABLE_STRICT_CHECKS = {
  allowMatchingProperties: "a property of `properties` whose name also matches a `patternProperties` pattern (both schemas apply, as JSON Schema says)",
} as const;
export type RelaxableStrictCheck = keyof typeof RELAXABLE_STRICT_CHECKS;

const KNOWN_KEYS = new Set([
  "$schema",
  "$comment",
  "name",
  "roots",
  "variants",
  "defaultVariant",
  "typeOverlays",
  "sharedTypes",
  "keywords",
  "formats",
  "relaxStrict",
  "checkIntegerFormats",
  "regenerateCommand",
]);

/** Reads `codegen.json` from a schema folder (an absent file means all defaults) and checks its shape. */
export function readConfig(schemaDir: string): CodegenConfig {
  const file = join(schemaDir, CONFIG_FILE);
  if (!existsSync(file)) return {};
  const config = parseJsonText(readFileSync(file, "utf8"), file);
  const problems = configProblems(config);
  if (problems.length > 0) throw new Error(`${file}: ${problems.join("; ")}`);
  return config as CodegenConfig;
}

function configProblems(config: unknown): string[] {
  if (!isRecord(config)) return ["must be a JSON object"];
  const problems: string[] = [];
  for (const key of Object.keys(config)) if (!KNOWN_KEYS.has(key)) problems.push(`unknown key "${key}"`);
  const stringMap = (key: string, valueOk: (v: unknown) => boolean, expected: string) => {
    const value = config[key];
    if (value === undefined) return;
    if (!isRecord(value)) return problems.push(`"${key}" must be an object`);
    for (const [k, v] of Object.entries(value)) if (!valueOk(v)) problems.push(`"${key}.${k}" must be ${expected}`);
  };
  const isStringArray = (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === "string");
  stringMap("roots", (v) => typeof v === "string" && v.length > 0, "a file reference such as \"schema.json#/$defs/Name\"");
  stringMap("variants", isStringArray, "an array of overlay file paths");
  for (const key of ["typeOverlays", "sharedTypes", "keywords", "formats", "relaxStrict"]) {
    if (config[key] !== undefined && !isStringArray(config[key])) problems.push(`"${key}" must be an array of strings`);
  }
  for (const name of isStringArray(config.relaxStrict) ? (config.relaxStrict as string[]) : []) {
    if (!Object.hasOwn(RELAXABLE_STRICT_CHECKS, name)) problems.push(`"relaxStrict" names "${name}", which is not one of ${Object.keys(RELAXABLE_STRICT_CHECKS).join(", ")}`);
  }
  if (config.checkIntegerFormats !== undefined && typeof config.checkIntegerFormats !== "boolean") problems.push(`"checkIntegerFormats" must be true or false`);
  for (const key of ["name", "defaultVariant", "regenerateCommand"]) {
    if (config[key] !== undefined && typeof config[key] !== "string") problems.push(`"${key}" must be a string`);
  }
  if (isRecord(config.roots)) {
    for (const name of Object.keys(config.roots)) {
      if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) problems.push(`root name "${name}" must be a PascalCase identifier`);
    }
  }
  if (isRecord(config.variants)) {
    for (const name of Object.keys(config.variants)) {
      if (!/^[a-z][a-z0-9]*$/.test(name)) problems.push(`variant name "${name}" must be lowercase letters and digits`);
    }
    for (const name of Array.isArray(config.sharedTypes) ? config.sharedTypes : []) {
      if (!(name in config.variants)) problems.push(`sharedTypes names "${name}", which is not one of the variants`);
    }
    if (typeof config.defaultVariant === "string" && !(config.defaultVariant in config.variants)) {
      problems.push(`defaultVariant "${config.defaultVariant}" is not one of the variants`);
    }
  }
  return problems;
}
