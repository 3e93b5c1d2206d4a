import { findSchema, getAt, isRecord, mapSchema, unescape, type Dialect, type JsonObject, type SchemaFile } from "@flowspec/schema-diff/schema-files";
import { anchorOf, defsKeyword, idKeyword } from "./dialects.js";

/** A schema that a root names or a `$ref` points to, with the type name it gets. */
export interface Target {
  /** `<file uri>#<pointer>`: unique within a schema set. */
  key: string;
  file: SchemaFile;
  pointer: string;
  schema: JsonObject;
  name: string;
}

export interface RootSpec {
  name: string;
  /** `file.json` or `file.json#/pointer`, relative to the schema folder. */
  ref: string;
}

/**
 * The graph of a schema set: every target reachable from the roots through `$ref`, each with a
 * stable type name, and each `$ref` resolved to its target. Resolution is local only: a `$ref`
 * resolves against its file's `$id` (or path) to another file of the folder, never to the network.
 */
export interface SchemaGraph {
  dialect: Dialect;
  roots: Target[];
  targets: Map<string, Target>;
  /** The target a `$ref` found in `from` points to. */
  resolve(ref: string, from: Target): Target;
}

export function buildGraph(files: readonly SchemaFile[], roots: readonly RootSpec[]): SchemaGraph {
  const byUri = new Map(files.map((file) => [file.uri, file]));
  const byPath = new Map(files.map((file) => [file.path, file]));
  const dialects = new Set(files.map((file) => file.dialect));
  if (dialects.size > 1) {
    throw new Error(`the folder mixes dialects (${files.map((f) => `${f.path}: ${f.dialect}`).join(", ")}); use one dialect per folder`);
  }
  const targets = new Map<string, Target>();
  const unnamed: Target[] = [];

  const targetAt = (file: SchemaFile, pointer: string, where: string): Target => {
    const key = `${file.uri}#${pointer}`;
    const known = targets.get(key);
    if (known) return known;
    const found = getAt(file.json, pointer);
    // A boolean schema is a schema too: `true` allows anything, `false` nothing (as `{"not": {}}`).
    const schema = found === true ? {} : found === false ? { not: {} } : found;
    if (!isRecord(schema)) throw new Error(`${where}: ${file.path}#${pointer} is not a schema`);
    const target: Target = { key, file, pointer, schema, name: "" };
    targets.set(key, target);
    unnamed.push(target);
    return target;
  };

  const resolve = (ref: string, from: Target): Target => {
    const where = `${from.file.path}#${from.pointer}: $ref "${ref}"`;
    let url: URL;
    try {
      url = new URL(ref, from.file.uri);
    } catch {
      throw new Error(`${where} cannot be resolved against "${from.file.uri}"`);
    }
    const fragment = decodeURIComponent(url.hash.replace(/^#/, ""));
    url.hash = "";
    const file = byUri.get(url.href) ?? byUri.get(url.href.replace(/#$/, ""));
    if (!file) {
      const embedded = embeddedResource(files, url.href);
      if (embedded) {
        throw new Error(`${where} points to ${url.href}, the $id of a schema inside ${embedded}; codegen resolves $ids of whole files only: move that schema to a file of its own`);
      }
      throw new Error(`${where} points to ${url.href}, which is no schema of this folder (codegen resolves $refs to local files by $id or path and never fetches)`);
    }
    if (fragment !== "" && !fragment.startsWith("/")) return targetAt(file, anchorPointer(file, fragment, where), where);
    return targetAt(file, fragment, where);
  };

  const rootTargets = roots.map((root) => {
    const [path, fragment = ""] = root.ref.split("#");
    const file = byPath.get(path!);
    if (!file) throw new Error(`root ${root.name}: "${path}" is not a schema file of this folder`);
    const target = targetAt(file, decodeURIComponent(fragment), `root ${root.name}`);
    if (target.name && target.name !== root.name) throw new Error(`roots ${target.name} and ${root.name} name the same schema`);
    target.name = root.name;
    return target;
  });

  // Follow every $ref reachable from the roots.
  for (let i = 0; i < unnamed.length; i++) {
    const from = unnamed[i]!;
    mapSchema(from.schema, (node) => {
      if (typeof node.$ref === "string") resolve(node.$ref, from);
      return node;
    });
  }

  nameTargets([...targets.values()]);
  return { dialect: [...dialects][0]!, roots: rootTargets, targets, resolve };
}

/** Where a subschema (not a file's root) declares `$id` as `href`, as `file#/pointer`, if one does. */
function embeddedResource(files: readonly SchemaFile[], href: string): string | undefined {
  const declares = (node: JsonObject, pointer: string, file: SchemaFile) => {
    const id = node[idKeyword(file.dialect)];
    if (pointer === "" || typeof id !== "string" || id.startsWith("#")) return false;
    try {
      return new URL(id, file.uri).href.replace(/#$/, "") === href;
    } catch {
      return false; // not a URL: not this one
    }
  };
  for (const file of files) {
    const found = findSchema(file.json, (node, pointer) => declares(node, pointer, file));
    if (found) return `${file.path}#${found.pointer}`;
  }
  return undefined;
}

/**
 * The JSON Pointer of a plain-name fragment: the subschema of the file with that `$anchor` (or
 * `$dynamicAnchor`) since 2019-09, or with `$id: "#name"` (`id` in draft-04) before.
 */
function anchorPointer(file: SchemaFile, anchor: string, where: string): string {
  const found = findSchema(file.json, (node) => anchorOf(file.dialect, node).includes(anchor));
  if (!found) throw new Error(`${where}: ${file.path} has no anchor "${anchor}"`);
  return found.pointer;
}

/**
 * Names every target not named by a root: `$defs/X` and `definitions/X` give `X` (PascalCased), a
 * file root its `title` or file name, anything else the words of its pointer from the last name
 * in it (`.../properties/options/items` gives `OptionsItems`). Names are given in (file, pointer)
 * order, so they do not depend on traversal order; a clash takes in the names before it in the
 * pointer (`WhitespaceOptionsItems`), then the file's name, then a number.
 */
function nameTargets(targets: Target[]): void {
  const taken = new Set(targets.filter((t) => t.name).map((t) => t.name));
  const pending = targets.filter((t) => !t.name).sort((a, b) => (a.file.path + "#" + a.pointer < b.file.path + "#" + b.pointer ? -1 : 1));
  for (const target of pending) {
    const file = pascalCase(fileStem(target.file.path));
    const candidates =
      target.pointer === ""
        ? [pascalCase(typeof target.schema.title === "string" ? target.schema.title : fileStem(target.file.path))]
        : pointerNames(target.pointer);
    const base = candidates[0]!;
    let name = candidates.find((candidate) => !taken.has(candidate)) ?? file + candidates[candidates.length - 1];
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    target.name = name;
  }
}

/** Keywords whose value maps names to subschemas: the token after one is a name. */
const NAMING_KEYWORDS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"]);

/**
 * Names for the subschema at a pointer, shortest first: the words from the last name in the
 * pointer to its end, then from each name before it. Keyword tokens count only when no name
 * follows them (`items` in `.../options/items`), as do array indexes.
 */
function pointerNames(pointer: string): string[] {
  const tokens = pointer.split("/").slice(1).map(unescape);
  const words: { text: string; isName: boolean }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (NAMING_KEYWORDS.has(tokens[i]!) && i + 1 < tokens.length) words.push({ text: tokens[++i]!, isName: true });
    else words.push({ text: tokens[i]!, isName: false });
  }
  const starts = words.flatMap((word, i) => (word.isName ? [i] : [])).reverse();
  if (starts.length === 0) starts.push(0);
  return starts.map((start) => pascalCase(words.slice(start).map((word) => word.text).join(" ")));
}

function fileStem(path: string): string {
  return path.split("/").pop()!.replace(/\.json$/, "").replace(/\.schema$/, "");
}

export function pascalCase(text: string): string {
  const words = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(name) ? name : `T${name}`;
}

/**
 * A copy of a target's schema with its `$ref`s rewritten to `#/$defs/<name>` (or `#` for `self`),
 * and without `$id`, `$schema`, anchors or nested definitions (the bundle hoists those it needs).
 */
function rewriteTarget(graph: SchemaGraph, target: Target, self?: Target): JsonObject {
  const defs = defsKeyword(graph.dialect);
  const id = idKeyword(graph.dialect);
  return mapSchema(target.schema, (node, pointer) => {
    const copy = { ...node };
    if (pointer === "") {
      delete copy[id];
      delete copy.$schema;
    }
    delete copy.$defs;
    delete copy.definitions;
    // $refs are rewritten to pointers, so anchors are unused; a schema both inline and hoisted
    // into $defs would otherwise declare its anchor twice.
    delete copy.$anchor;
    if (typeof copy[id] === "string" && (copy[id] as string).startsWith("#")) delete copy[id];
    if (typeof copy.$ref === "string") {
      const to = graph.resolve(copy.$ref, target);
      copy.$ref = to === self ? "#" : `#/${defs}/${to.name}`;
    }
    return copy;
  }) as JsonObject;
}

/** The targets reachable from `start` through `$ref`, in a stable (name) order, `start` excluded. */
function reachable(graph: SchemaGraph, start: Target): Target[] {
  const seen = new Set<Target>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const target = queue.shift()!;
    mapSchema(target.schema, (node) => {
      if (typeof node.$ref === "string") {
        const to = graph.resolve(node.$ref, target);
        if (!seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
      return node;
    });
  }
  seen.delete(start);
  return [...seen].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A self-contained JSON Schema for one root: its schema inline, everything it references under `$defs`. */
export function bundleRoot(graph: SchemaGraph, root: Target): JsonObject {
  const deps = reachable(graph, root);
  const schema: JsonObject = { $schema: root.file.json.$schema, ...rewriteTarget(graph, root, root) };
  if (deps.length > 0) {
    schema[defsKeyword(graph.dialect)] = Object.fromEntries(deps.map((dep) => [dep.name, rewriteTarget(graph, dep, root)]));
  }
  return schema;
}

/**
 * Every target of the graph as one draft-07 style document for json-schema-to-typescript: targets
 * under `definitions` (each titled with its name), refs as `#/definitions/<name>`.
 */
export function typesDocument(graph: SchemaGraph): { definitions: Record<string, JsonObject> } {
  const definitions: Record<string, JsonObject> = {};
  const sorted = [...graph.targets.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const target of sorted) {
    const found = getAt(target.file.json, target.pointer);
    if (typeof found === "boolean") {
      definitions[target.name] = { title: target.name, tsType: found ? "unknown" : "never" };
      continue;
    }
    const schema = mapSchema(rewriteTarget(graph, target), (node) =>
      typeof node.$ref === "string" ? { ...node, $ref: node.$ref.replace(/^#\/\$defs\//, "#/definitions/") } : node,
    ) as JsonObject;
    definitions[target.name] = { ...schema, title: target.name };
  }
  return { definitions };
}
