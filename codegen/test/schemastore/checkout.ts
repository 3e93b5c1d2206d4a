import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";

/**
 * Reading SchemaStore's layout (a checkout, or the fixture folder that mirrors it): schemas in
 * `src/schemas/json/<name>.json`, positive test documents in `src/test/<name>/`, negative ones in
 * `src/negative_test/<name>/`, each a JSON, YAML or TOML file parsed as SchemaStore's CI parses it.
 */

/** Larger files are refused: SchemaStore's largest schema is about 3 MB, its largest test document 1 MB. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

export interface SchemaStoreLayout {
  schemaDir: string;
  positiveDir: string;
  negativeDir: string;
}

export function checkoutLayout(root: string): SchemaStoreLayout {
  return { schemaDir: join(root, "src/schemas/json"), positiveDir: join(root, "src/test"), negativeDir: join(root, "src/negative_test") };
}

export function readLimited(path: string, maxBytes = MAX_FILE_BYTES): string {
  const size = statSync(path).size;
  if (size > maxBytes) throw new Error(`${path}: ${size} bytes, over the ${maxBytes}-byte limit`);
  return readFileSync(path, "utf8");
}

/** A test document's value, parsed by its extension as SchemaStore's CI does. */
export function parseDocument(text: string, path: string): unknown {
  try {
    switch (extname(path)) {
      case ".json":
        return JSON.parse(text);
      case ".yaml":
      case ".yml":
        return parseYaml(text);
      case ".toml":
        return parseToml(text);
      default:
        throw new Error(`no parser for the extension "${extname(path)}"`);
    }
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}

export interface TestDocument {
  /** File name inside the test folder. */
  file: string;
  /** true for `src/test`, false for `src/negative_test`. */
  positive: boolean;
  value: unknown;
}

/** The positive and negative test documents of a schema (`name` without `.json`), sorted by file name. */
export function testDocuments(layout: SchemaStoreLayout, name: string, only?: (file: string, positive: boolean) => boolean): TestDocument[] {
  const read = (dir: string, positive: boolean) => {
    const folder = join(dir, name);
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((file) => file !== ".DS_Store" && (only?.(file, positive) ?? true))
      .sort()
      .map((file) => ({ file, positive, value: parseDocument(readLimited(join(folder, file)), join(folder, file)) }));
  };
  return [...read(layout.positiveDir, true), ...read(layout.negativeDir, false)];
}

/** Hosts SchemaStore serves `src/schemas/json` from: a `$ref` there stays inside SchemaStore. */
const SCHEMASTORE_BASES = ["https://json.schemastore.org/", "http://json.schemastore.org/", "https://www.schemastore.org/", "https://schemastore.org/"];

export interface RefScan {
  /** Other SchemaStore schema files the `$ref`s reach, transitively (file names). */
  local: string[];
  /** `$ref`s whose targets are not in SchemaStore, as written. */
  external: string[];
}

/**
 * Follows every `$ref` of a schema and of the SchemaStore schemas it reaches. A `$ref` is resolved
 * against the file's `$id`; it stays inside SchemaStore when it lands on a schema file that
 * `exists` (served from one of SchemaStore's hosts, or relative to such a file).
 */
export function scanRefs(fileName: string, read: (file: string) => unknown, exists: (file: string) => boolean): RefScan {
  const local = new Set<string>();
  const external = new Set<string>();
  const queue = [fileName];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.shift()!;
    const schema = read(file);
    const id = typeof (schema as { $id?: unknown }).$id === "string" ? (schema as { $id: string }).$id : typeof (schema as { id?: unknown }).id === "string" ? (schema as { id: string }).id : undefined;
    const base = safeUrl(id, `https://json.schemastore.org/${file}`) ?? `https://json.schemastore.org/${file}`;
    // Subschemas may carry ids of their own (draft-04 `"id": "path"`); a `$ref` to one stays in the file.
    const embedded = new Set(embeddedIds(schema).map((inner) => safeUrl(inner, base)));
    for (const ref of refsOf(schema)) {
      const [target] = ref.split("#");
      if (!target) continue;
      const url = safeUrl(target, base);
      if (embedded.has(url)) continue;
      const landed = url === undefined ? undefined : localFile(url, exists);
      if (landed === undefined) {
        external.add(ref);
        continue;
      }
      if (landed === file) continue;
      local.add(landed);
      if (!seen.has(landed)) {
        seen.add(landed);
        queue.push(landed);
      }
    }
  }
  local.delete(fileName);
  return { local: [...local].sort(), external: [...external].sort() };
}

function safeUrl(ref: string | undefined, base: string): string | undefined {
  if (ref === undefined) return undefined;
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

function localFile(url: string, exists: (file: string) => boolean): string | undefined {
  const base = SCHEMASTORE_BASES.find((b) => url.startsWith(b));
  if (!base) return undefined;
  const file = decodeURIComponent(url.slice(base.length).split(/[?#]/)[0]!).replace(/^schemas\/json\//, "");
  const withJson = file.endsWith(".json") ? file : `${file}.json`;
  return !file.includes("/") && exists(withJson) ? withJson : undefined;
}

/** The `$id`/`id` strings of a schema's subschemas (resolved, roughly, against the file's base only). */
function embeddedIds(schema: unknown): string[] {
  const ids: string[] = [];
  const visit = (node: unknown, depth: number) => {
    if (Array.isArray(node)) node.forEach((item) => visit(item, depth + 1));
    else if (typeof node === "object" && node !== null) {
      for (const [key, inner] of Object.entries(node)) {
        if ((key === "$id" || key === "id") && typeof inner === "string" && depth > 0) ids.push(inner.split("#")[0]!);
        else if (!DATA_KEYWORDS.has(key)) visit(inner, depth + 1);
      }
    }
  };
  visit(schema, 0);
  return ids.filter(Boolean);
}

/** Keywords whose values are data, never schemas: a `$ref` inside them refers to nothing. */
const DATA_KEYWORDS = new Set(["default", "examples", "example", "enum", "const", "defaultSnippets"]);

/** Every string `$ref` in a schema, also in objects that are not schemas, but not inside data values. */
export function refsOf(value: unknown): string[] {
  const refs: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === "object" && node !== null) {
      for (const [key, inner] of Object.entries(node)) {
        if (key === "$ref" && typeof inner === "string") refs.push(inner);
        else if (!DATA_KEYWORDS.has(key)) visit(inner);
      }
    }
  };
  visit(value);
  return refs;
}
