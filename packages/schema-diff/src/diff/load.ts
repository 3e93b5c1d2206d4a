import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, posix, relative, resolve as resolvePath, sep } from "node:path";
import { DocumentParseError } from "@flowspec/runtime";
import { readTextFileSync, unreadableReason } from "@flowspec/runtime/files";
import { isRecord, parseJsonText } from "../json-text.js";
import { baseUri, dialectOf, readSchemaFiles, type Dialect, type JsonObject } from "../read-schemas.js";
import { normalize } from "./normalize.js";
import { findSchema, forEachSchema, getAt } from "../walk.js";
import type { DiffOptions, SchemaInput } from "./types.js";

/** One schema file of a compared side. */
export interface LoadedFile {
  /** Relative to the side's folder (`/` separators); the file name for a single file; "" in memory. */
  path: string;
  /** The file's normal form (see normalize.ts): what the comparison reads. */
  json: JsonObject;
  /** The file as written: what validators compile. */
  source: JsonObject;
  /** The normal form of the subschema at a pointer of the file as written. */
  nodeAt(pointer: string): unknown;
  /** The base URI its `$ref`s resolve against: its `$id`, or a `flowspec:` URI made from its path. */
  uri: string;
  dialect: Dialect;
  /** Where it is on disk, when it is on disk (lets `$ref`s reach siblings that were not loaded yet). */
  diskPath?: string;
}

/** A schema found by resolving a `$ref`. */
export interface RefTarget {
  file: LoadedFile;
  pointer: string;
  schema: unknown;
  /** Set when the `$ref` points at an array (such as a tuple's item list): read as ajv does, as `{}`. */
  notASchema?: true;
}

/**
 * One side of a diff: the files compared in place (a folder's files, or a root file and every
 * file its `$ref`s reach), and local `$ref` resolution. Nothing is ever fetched from the network.
 */
export interface SchemaSide {
  label: string;
  files: LoadedFile[];
  /** True when the side is one root file (plus siblings), so OLD and NEW roots pair regardless of name. */
  singleRoot: boolean;
  resolve(ref: string, from: LoadedFile, pointer: string): RefTarget;
}

const MEMORY_BASE = "flowspec:/memory/";

export function loadSide(input: SchemaInput, options: DiffOptions, label: string): SchemaSide {
  if (typeof input === "string") return loadFromDisk(input, label);
  const inMemory = Object.keys(input).length === 1 && isRecord(input.files) && Object.values(input.files).every(isRecord);
  const entries: [string, JsonObject][] = inMemory ? Object.entries((input as { files: Record<string, JsonObject> }).files) : [["", input as JsonObject]];
  if (entries.length === 0) throw new Error(`${label}: no schemas given`);
  const files = entries.map(([path, json]) => {
    const where = `${label}${path ? ` ${path}` : ""}`;
    if (json.$schema === undefined && !options.dialect) {
      throw new Error(`${where}: no "$schema"; declare the dialect in the schema, or pass the dialect option ("draft-07" or "draft-2020-12")`);
    }
    const dialect = json.$schema === undefined ? options.dialect! : dialectOf(json, where);
    return loaded(path, json, dialect, MEMORY_BASE + (path || "schema.json"), where);
  });
  return loadReachable(makeSide(label, files, !inMemory, undefined));
}

/**
 * Refuses a file against a folder: that is a wrong path (in a CI step, say), and comparing would
 * report every file but one as added or removed. A missing path is left to the loading's error.
 */
export function checkSameForm(oldInput: SchemaInput, newInput: SchemaInput): void {
  if (typeof oldInput !== "string" || typeof newInput !== "string") return;
  const form = (path: string) => {
    try {
      return statSync(path).isDirectory() ? "folder" : "file";
    } catch {
      return undefined;
    }
  };
  const [before, after] = [form(oldInput), form(newInput)];
  if (before && after && before !== after) {
    throw new Error(`OLD ${oldInput} is a ${before} and NEW ${newInput} is a ${after}: compare a file with a file, or a folder with a folder`);
  }
}

function loadFromDisk(path: string, label: string): SchemaSide {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw new Error(`${label} ${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (isDirectory) {
    const dir = resolvePath(path);
    const files = readSchemaFiles(dir, "set").map((file) => ({ ...loaded(file.path, file.json, file.dialect, file.uri, join(dir, file.path)), diskPath: join(dir, file.path) }));
    return loadReachable(makeSide(label, files, false, dir));
  }
  const diskPath = resolvePath(path);
  const root = readFileAt(diskPath, basename(diskPath), path);
  return loadReachable(makeSide(label, [root], true, dirname(diskPath)));
}

function readFileAt(diskPath: string, relPath: string, where: string): LoadedFile {
  let text: string;
  try {
    text = readTextFileSync(diskPath, { file: where });
  } catch (error) {
    if (error instanceof DocumentParseError) throw error; // not UTF-8: where:line:column already
    throw new Error(`${where}: cannot read: ${unreadableReason(error)}`);
  }
  const json = parseJsonText(text, where);
  if (!isRecord(json)) throw new Error(`${where}: must hold a JSON Schema object`);
  const place = `flowspec:/set/${relPath.split("/").map(encodeURIComponent).join("/")}`;
  return { ...loaded(relPath, json, dialectOf(json, where), place, where), diskPath };
}

/**
 * A file in its normal form, with the base URI its `$ref`s resolve against: its `$id` (draft-04:
 * `id`) resolved against `place`, or `place`.
 */
function loaded(path: string, source: JsonObject, dialect: Dialect, place: string, where: string): LoadedFile {
  const { json, nodeAt } = normalize(source, dialect);
  return { path, json, source, nodeAt, uri: baseUri(json, place, where), dialect };
}

/**
 * Resolves every `$ref` of the loaded files, loading the sibling files they reach. A `$ref` that
 * does not resolve is an error even where nothing changed: code generated from that side could not
 * be, and the comparison only follows `$ref`s of subschemas that differ.
 */
function loadReachable(side: SchemaSide): SchemaSide {
  for (let i = 0; i < side.files.length; i++) {
    const file = side.files[i]!;
    forEachSchema(file.source, (node, pointer) => {
      if (typeof node.$ref === "string") side.resolve(node.$ref, file, pointer);
    });
  }
  return side;
}

function makeSide(label: string, files: LoadedFile[], singleRoot: boolean, baseDir: string | undefined): SchemaSide {
  const byUri = new Map(files.map((file) => [file.uri, file]));
  let idIndex: Map<string, string> | undefined;

  const add = (file: LoadedFile) => {
    files.push(file);
    byUri.set(file.uri, file);
    return file;
  };

  /** Finds a sibling file on disk for a URI no loaded file has: by relative path, then by `$id`. */
  const findOnDisk = (url: URL, from: LoadedFile): LoadedFile | undefined => {
    if (!baseDir) return undefined;
    let candidate: string | undefined;
    if (url.protocol === "flowspec:" && url.pathname.startsWith("/set/")) {
      candidate = join(baseDir, url.pathname.slice("/set/".length).split("/").map(decodeURIComponent).join("/"));
    } else if (from.diskPath) {
      // A relative $ref against an http(s) $id: the same relative path on disk, if the file is there.
      const fromUrl = new URL(from.uri);
      if (url.protocol !== "flowspec:" && url.origin === fromUrl.origin) {
        const rel = posix.relative(posix.dirname(fromUrl.pathname), url.pathname);
        const path = join(dirname(from.diskPath), ...rel.split("/").map(decodeURIComponent));
        if (existsSync(path)) {
          const file = readFileAt(path, relative(baseDir, path).split(sep).join("/"), path);
          if (file.uri === url.href || typeof file.json.$id !== "string") return add({ ...file, uri: url.href });
        }
      }
      idIndex ??= indexIds(baseDir);
      candidate = idIndex.get(url.href);
    }
    if (!candidate || !existsSync(candidate)) return undefined;
    const relPath = relative(baseDir, candidate).split(sep).join("/");
    const known = files.find((file) => file.diskPath === candidate);
    return known ?? add(readFileAt(candidate, relPath, candidate));
  };

  const resolve = (ref: string, from: LoadedFile, pointer: string): RefTarget => {
    const where = `${label} ${from.path || "schema"}#${pointer}: $ref "${ref}"`;
    let url: URL;
    try {
      url = new URL(ref, from.uri);
    } catch {
      throw new Error(`${where} cannot be resolved against "${from.uri}"`);
    }
    const fragment = decodeURIComponent(url.hash.replace(/^#/, ""));
    url.hash = "";
    const file = byUri.get(url.href) ?? byUri.get(url.href.replace(/#$/, "")) ?? findOnDisk(url, from);
    if (!file) throw new Error(`${where} points to ${url.href}, which is no schema file beside it (flowspec diff resolves $refs locally and never fetches)`);
    if (fragment === "" || fragment.startsWith("/")) {
      const schema = file.nodeAt(fragment) ?? getAt(file.json, fragment);
      if (schema === undefined) throw new Error(`${where}: ${file.path || "the schema"} has nothing at #${fragment}`);
      // ajv compiles an array target as a schema without keywords, accepting anything; the generated validators are ajv's, so the diff reads it alike.
      if (Array.isArray(schema)) return { file, pointer: fragment, schema: {}, notASchema: true };
      return { file, pointer: fragment, schema };
    }
    const id = file.dialect === "draft-04" ? "id" : "$id";
    const anchored = findSchema(file.source, (node) => node.$anchor === fragment || node[id] === `#${fragment}`);
    if (!anchored) throw new Error(`${where}: no "$anchor": "${fragment}" in ${file.path || "the schema"}`);
    return { file, pointer: anchored.pointer, schema: file.nodeAt(anchored.pointer) ?? anchored.node };
  };

  return { label, files, singleRoot, resolve };
}

/** `$id` → file, for every readable schema file under a folder (other JSON files are skipped). */
function indexIds(dir: string): Map<string, string> {
  const index = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(full);
      else if (entry.isFile() && entry.name.endsWith(".json")) {
        try {
          const json = JSON.parse(readTextFileSync(full)) as unknown;
          const id = isRecord(json) ? (typeof json.$id === "string" ? json.$id : isDraft04(json) && typeof json.id === "string" ? json.id : undefined) : undefined;
          if (id !== undefined) index.set(id.replace(/#$/, ""), full);
        } catch {
          // Not JSON (or unreadable, too large, not UTF-8): not a schema this folder can resolve to.
        }
      }
    }
  };
  walk(dir);
  return index;
}


const isDraft04 = (json: JsonObject) => typeof json.$schema === "string" && json.$schema.startsWith("http://json-schema.org/draft-04/");
