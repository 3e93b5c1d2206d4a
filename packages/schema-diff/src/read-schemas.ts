import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isRecord, parseJsonText } from "./json-text.js";
import { withLf } from "./line-endings.js";

export type Dialect = "draft-04" | "draft-07" | "draft-2019-09" | "draft-2020-12";
export type JsonObject = Record<string, unknown>;

/** The config file of a schema folder (codegen's): never read as a schema. */
export const CONFIG_FILE = "codegen.json";

/** One schema file of a folder, as read from disk or after overlays. */
export interface SchemaFile {
  /** Path relative to the schema folder, with `/` separators. */
  path: string;
  /** sha256 of the file's text as on disk, with LF line endings (not of the patched content). */
  sha256: string;
  json: JsonObject;
  /** The base URI its `$ref`s resolve against: its `$id`, or a `flowspec:` URI made from its path. */
  uri: string;
  dialect: Dialect;
}

const DIALECTS: Record<string, Dialect> = {
  "http://json-schema.org/draft-04/schema": "draft-04",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "https://json-schema.org/draft/2019-09/schema": "draft-2019-09",
  "https://json-schema.org/draft/2020-12/schema": "draft-2020-12",
};

/** Reads the dialect from `$schema`; anything but draft-07 and 2020-12 is refused, never guessed. */
export function dialectOf(json: JsonObject, where: string): Dialect {
  const declared = json.$schema;
  if (typeof declared !== "string") {
    throw new Error(
      `${where}: no "$schema"; declare the dialect ("http://json-schema.org/draft-07/schema#" or "https://json-schema.org/draft/2020-12/schema")`,
    );
  }
  const dialect = DIALECTS[declared.replace(/#$/, "").replace(/^https:\/\/json-schema\.org\/draft-07/, "http://json-schema.org/draft-07")];
  if (!dialect) {
    throw new Error(
      `${where}: "$schema" is "${declared}", which flowspec-codegen does not read; it reads draft-07 (ajv) and 2020-12 (ajv/dist/2020). Convert the schema to one of those.`,
    );
  }
  return dialect;
}

export function sha256(bytes: string | Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Reads every `*.json` schema in a folder, recursively, except `codegen.json` and `overlays/`. */
export function readSchemaFiles(schemaDir: string, setName: string): SchemaFile[] {
  const files = listJsonFiles(schemaDir).filter((path) => path !== CONFIG_FILE && !path.startsWith("overlays/"));
  if (files.length === 0) throw new Error(`${schemaDir}: no .json schema files`);
  return files.map((path) => {
    const text = withLf(readFileSync(join(schemaDir, path), "utf8"));
    const json = parseJsonObject(text, join(schemaDir, path));
    const dialect = dialectOf(json, join(schemaDir, path));
    const uri = baseUri(json, fileUri(setName, path), join(schemaDir, path));
    return { path, sha256: sha256(text), json, uri, dialect };
  });
}

/**
 * The base URI a file's `$ref`s resolve against: its `$id`, resolved against where the file is (a
 * relative `$id` such as `"item.json"` is relative to the file, as JSON Schema says), else that place.
 */
export function baseUri(json: JsonObject, place: string, where: string): string {
  if (typeof json.$id !== "string") return place;
  try {
    return new URL(json.$id, place).href;
  } catch {
    throw new Error(`${where}: "$id" ${JSON.stringify(json.$id)} is not a URI or a relative reference`);
  }
}

/**
 * The `flowspec:` URI of a file without `$id`, encoded the way `new URL` encodes a `$ref` to it. A
 * "#" or "?" in the set's name or a file's path is escaped so that it cannot end the path.
 */
function fileUri(setName: string, path: string): string {
  const segment = (text: string) => text.replace(/%/g, "%25").replace(/#/g, "%23").replace(/\?/g, "%3F");
  return new URL(`flowspec:/${segment(setName)}/${path.split("/").map(segment).join("/")}`).href;
}

function listJsonFiles(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return listJsonFiles(full, root);
      return entry.isFile() && entry.name.endsWith(".json") ? [relative(root, full).split(sep).join("/")] : [];
    })
    .sort();
}

export function parseJsonObject(text: string, where: string): JsonObject {
  const json = parseJsonText(text, where);
  if (!isRecord(json)) throw new Error(`${where}: must hold a JSON object`);
  return json;
}
