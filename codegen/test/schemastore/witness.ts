/**
 * Witness search for `flowspec diff` flags: documents that one version of a schema accepts and the
 * other rejects, built from test documents, instances generated from the two schemas, and
 * systematic mutations of both, guided by what differs between the two schema texts.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values tried at every place of a document, besides those the changed parts of the schemas mention. */
const GENERIC_VALUES: Json[] = [null, true, false, 0, 1, -1, 1.5, 1e20, "", "x", "https://example.com/x", [], ["x"], [1], [{}], {}, { x: 1 }];

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"]);
const VALUE_KEYWORDS = new Set(["enum", "const", "default", "examples", "example"]);

export interface ChangeHints {
  /** Property names declared, required or depended on in parts of the schemas that differ. */
  names: string[];
  /** enum/const/default/examples values in parts of the schemas that differ. */
  values: Json[];
}

/** What differs between two schema documents: the names and values the mutations should try. */
export function changeHints(oldSchema: unknown, newSchema: unknown): ChangeHints {
  const names = new Set<string>();
  const values: Json[] = [];
  const seen = new Set<string>();
  const collect = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (typeof node !== "object" || node === null) return;
    for (const [key, inner] of Object.entries(node)) {
      if (key === "properties" && typeof inner === "object" && inner !== null) Object.keys(inner).forEach((n) => names.add(n));
      if (key === "required" && Array.isArray(inner)) inner.forEach((n) => typeof n === "string" && names.add(n));
      if (VALUE_KEYWORDS.has(key)) {
        for (const value of key === "enum" || key === "examples" ? (Array.isArray(inner) ? inner : []) : [inner]) {
          const text = JSON.stringify(value);
          if (text !== undefined && text.length < 2_000 && !seen.has(text)) {
            seen.add(text);
            values.push(value as Json);
          }
        }
      } else collect(inner);
    }
  };
  // The smallest subtrees where the two texts differ, on both sides.
  const differing = (a: unknown, b: unknown) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const objects = typeof a === "object" && a !== null && typeof b === "object" && b !== null && !Array.isArray(a) && !Array.isArray(b);
    if (!objects) {
      collect(a);
      collect(b);
      return;
    }
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      if (!(key in ao) || !(key in bo)) {
        if (SCHEMA_MAPS.has(key) || key === "required") collect({ [key]: ao[key] ?? bo[key] });
        else collect(ao[key] ?? bo[key]);
        // A property appearing or disappearing: its name matters (the sideEffects case).
        if (key !== "properties") continue;
      }
      if (key === "properties" && typeof ao[key] === "object" && typeof bo[key] === "object") {
        const ap = ao[key] as Record<string, unknown>;
        const bp = bo[key] as Record<string, unknown>;
        // A property that appears, disappears or changes: documents should carry it.
        for (const name of new Set([...Object.keys(ap), ...Object.keys(bp)])) {
          if (!(name in ap) || !(name in bp) || JSON.stringify(ap[name]) !== JSON.stringify(bp[name])) names.add(name);
        }
      }
      differing(ao[key], bo[key]);
    }
  };
  differing(oldSchema, newSchema);
  return { names: [...names].sort(), values };
}

/**
 * Simple instances of a schema: for each object, one with only its required properties and one
 * with every declared property (to a small depth), values from `const`, `enum`, `default`,
 * `examples` or the type. Local `$ref`s (`#/...`) are followed; others give `{}`.
 */
export function generatedInstances(schema: unknown): Json[] {
  const root = schema;
  const resolveLocal = (ref: string): unknown => {
    if (!ref.startsWith("#")) return undefined;
    let node: unknown = root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    }
    return node;
  };
  const build = (node: unknown, depth: number, full: boolean): Json => {
    if (typeof node !== "object" || node === null || depth > 4) return null;
    const s = node as Record<string, unknown>;
    if (s.const !== undefined) return s.const as Json;
    if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0] as Json;
    if (s.default !== undefined) return s.default as Json;
    if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0] as Json;
    if (typeof s.$ref === "string") {
      const target = resolveLocal(s.$ref);
      return target === undefined ? {} : build(target, depth + 1, full);
    }
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const branches = s[key];
      if (Array.isArray(branches) && branches.length > 0 && s.type === undefined && s.properties === undefined) return build(branches[0], depth + 1, full);
    }
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === "object" || (type === undefined && (s.properties !== undefined || s.required !== undefined))) {
      const properties = (typeof s.properties === "object" && s.properties !== null ? s.properties : {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const names = full && depth < 3 ? [...new Set([...required, ...Object.keys(properties)])] : required;
      return Object.fromEntries(names.map((name) => [name, build(properties[name] ?? {}, depth + 1, full)]));
    }
    if (type === "array") return s.items && !Array.isArray(s.items) && typeof s.minItems === "number" && s.minItems > 0 ? [build(s.items, depth + 1, full)] : [];
    if (type === "string") return "x".repeat(typeof s.minLength === "number" ? Math.min(s.minLength, 64) : 1);
    if (type === "integer" || type === "number") return typeof s.minimum === "number" ? s.minimum : 0;
    if (type === "boolean") return true;
    if (type === "null") return null;
    return {};
  };
  return [build(schema, 0, false), build(schema, 0, true)];
}

/**
 * Mutants of a document, at most `limit`, in rounds that each sweep the whole document and share
 * the limit: every object given each hinted name (first as a string, then as each other kind of
 * value), every place's value replaced by each hinted value, then by each generic value, hinted
 * names with hinted values, and every key removed. The document is changed in place and restored after each
 * yield: use (or copy) each mutant before asking for the next.
 */
export function* mutants(document: unknown, hints: ChangeHints, limit: number): Generator<Json> {
  const doc = JSON.parse(JSON.stringify(document ?? null)) as Json;
  if (doc === null || typeof doc !== "object") return;
  const places: { parent: Record<string | number, Json>; key: string | number }[] = [];
  const objects: Record<string, Json>[] = [];
  const walk = (value: Json) => {
    if (Array.isArray(value)) {
      value.slice(0, 5).forEach((item, i) => {
        places.push({ parent: value as unknown as Record<number, Json>, key: i });
        walk(item);
      });
    } else if (value !== null && typeof value === "object") {
      objects.push(value);
      for (const [key, inner] of Object.entries(value)) {
        places.push({ parent: value, key });
        walk(inner);
      }
    }
  };
  walk(doc);
  places.splice(2_000);
  objects.splice(500);
  let count = 0;
  const withValue = function* (parent: Record<string | number, Json>, key: string | number, value: Json | undefined) {
    const had = Object.hasOwn(parent, key);
    const before = parent[key];
    if (value === undefined) delete parent[key];
    else parent[key] = value;
    yield doc;
    if (had) parent[key] = before!;
    else delete parent[key];
  };
  const kinds: Json[] = ["x", 1, true, null, ["x"], {}, [], 1.5];
  type Edit = readonly [Record<string | number, Json>, string | number, Json | undefined];
  const rounds: (() => Generator<Edit>)[] = [
    function* () {
      for (const o of objects) for (const name of hints.names) yield [o, name, "x"];
    },
    function* () {
      for (const o of objects) for (const name of hints.names) for (const v of kinds.slice(1)) yield [o, name, v];
    },
    function* () {
      for (const p of places) for (const v of hints.values) yield [p.parent, p.key, v];
    },
    function* () {
      for (const p of places) for (const v of GENERIC_VALUES) yield [p.parent, p.key, v];
    },
    function* () {
      for (const o of objects) for (const name of hints.names) for (const v of hints.values) yield [o, name, v];
    },
    function* () {
      for (const p of places) if (!Array.isArray(p.parent)) yield [p.parent, p.key, undefined];
    },
  ];
  // Each round gets an equal share of the limit, and passes on what it leaves unused.
  for (const [i, round] of rounds.entries()) {
    const share = count + Math.ceil((limit - count) / (rounds.length - i));
    for (const [parent, key, value] of round()) {
      if (count >= share) break;
      count++;
      yield* withValue(parent, key, value);
    }
  }
}

export interface AjvErrorLike {
  keyword: string;
  schemaPath: string;
  /** JSON Pointer in the document. */
  instancePath?: string;
  params: Record<string, unknown>;
  /** The schema object holding the keyword (ajv's `verbose: true`). */
  parentSchema?: unknown;
}

export interface SchemaPlace {
  file: string;
  pointer: string;
}

/** Every object of some schema files, by identity, with the file and JSON Pointer where it is. */
export function schemaIndex(files: Readonly<Record<string, unknown>>): Map<object, SchemaPlace> {
  const index = new Map<object, SchemaPlace>();
  const walk = (node: unknown, file: string, pointer: string) => {
    if (typeof node !== "object" || node === null) return;
    if (!index.has(node)) index.set(node, { file, pointer });
    for (const [key, inner] of Object.entries(node)) walk(inner, file, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  for (const [file, json] of Object.entries(files)) walk(json, file, "");
  return index;
}

/**
 * Where an ajv error's keyword is: found by the identity of its `parentSchema` (ajv's `schemaPath`
 * starts again at every `$ref`d definition, so it cannot place one), else read from `schemaPath`.
 */
export function errorPlace(error: AjvErrorLike, index: ReadonlyMap<object, SchemaPlace>, rootFile: string): SchemaPlace {
  const keyword = error.schemaPath.split("/").pop() ?? error.keyword;
  const parent = typeof error.parentSchema === "object" && error.parentSchema !== null ? index.get(error.parentSchema) : undefined;
  if (parent) return { file: parent.file, pointer: `${parent.pointer}/${keyword}` };
  const hash = error.schemaPath.indexOf("#");
  const uri = hash < 0 ? error.schemaPath : error.schemaPath.slice(0, hash);
  const pointer = hash < 0 ? "" : decodeURIComponent(error.schemaPath.slice(hash + 1));
  const file = uri === "" ? rootFile : (uri.split("/").pop() ?? rootFile);
  return { file: file.endsWith(".json") ? file : `${file}.json`, pointer };
}

const NAMED_PARAMS = ["additionalProperty", "missingProperty", "unevaluatedProperty", "property"];

/**
 * Where errors a flag explains may lie: the flagged place, then the schemas its `$ref`s lead to (a
 * `$ref` of its own or of an `allOf` member, then every `$ref` inside what those lead to), where
 * ajv reports the errors of referenced schemas. A referenced schema is shared, so an error there
 * counts only where the document reaches the flagged place: `instance` is the flagged place's way
 * into the document, one token per step (`*` for any key or index), read from the flag's pointer;
 * `anchored` when that pointer starts at the root rather than inside a definition, whose uses may
 * be anywhere.
 */
export interface FlagScope extends SchemaPlace {
  instance?: { tokens: string[]; anchored: boolean };
}

const MAX_REFERENCED = 256;

export function flagScopes(files: Readonly<Record<string, unknown>>, flag: SchemaPlace): FlagScope[] {
  const scopes: FlagScope[] = [flag];
  const instance = instanceTokens(flag.pointer);
  if (!instance) return scopes;
  const seen = new Set<string>();
  const follow = (from: string, ref: unknown) => {
    const target = typeof ref === "string" ? resolveRef(files, from, ref) : undefined;
    if (!target || seen.has(`${target.file}#${target.pointer}`) || scopes.length > MAX_REFERENCED) return;
    seen.add(`${target.file}#${target.pointer}`);
    scopes.push({ ...target, instance });
  };
  const own = pointerGet(files[flag.file], flag.pointer.replace(/\/\$ref$/, ""));
  if (typeof own === "object" && own !== null) {
    const schema = own as Record<string, unknown>;
    follow(flag.file, schema.$ref);
    if (Array.isArray(schema.allOf)) for (const member of schema.allOf) if (typeof member === "object" && member !== null) follow(flag.file, (member as Record<string, unknown>).$ref);
  }
  // What the referenced schemas refer to in turn: ajv reports an error at the innermost schema.
  const refsIn = (node: unknown, file: string) => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, inner] of Object.entries(node)) (key === "$ref" ? follow(file, inner) : refsIn(inner, file));
  };
  for (let i = 1; i < scopes.length; i++) refsIn(pointerGet(files[scopes[i]!.file], scopes[i]!.pointer), scopes[i]!.file);
  return scopes;
}

/** The document steps a schema pointer stands for; undefined when a keyword on the way has no plain step. */
function instanceTokens(pointer: string): { tokens: string[]; anchored: boolean } | undefined {
  const parts = pointer.split("/").slice(1);
  let start = 0;
  for (let i = 0; i + 1 < parts.length; i++) if (parts[i] === "definitions" || parts[i] === "$defs") start = i + 2;
  const tokens: string[] = [];
  for (let i = start; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === "properties") tokens.push(unescapeToken(parts[++i] ?? ""));
    else if (part === "patternProperties" || part === "prefixItems" || (part === "items" && /^\d+$/.test(parts[i + 1] ?? ""))) (i++, tokens.push("*"));
    else if (["additionalProperties", "unevaluatedProperties", "items", "additionalItems", "unevaluatedItems", "contains"].includes(part)) tokens.push("*");
    else if (["allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies"].includes(part)) i++;
    else if (!["not", "if", "then", "else", "$ref"].includes(part)) return undefined;
  }
  return { tokens, anchored: start === 0 };
}

/** Whether a document pointer lies at or under the place `instance` describes. */
function underInstance(instancePath: string, instance: { tokens: string[]; anchored: boolean }): boolean {
  const segments = instancePath.split("/").slice(1).map(unescapeToken);
  const at = (k: number) => instance.tokens.every((token, i) => k + i < segments.length && (token === "*" || token === segments[k + i]));
  if (instance.anchored) return at(0);
  for (let k = 0; k + instance.tokens.length <= segments.length; k++) if (at(k)) return true;
  return false;
}

/** A `$ref` read as SchemaStore's files are laid out: the file by its name, the fragment a JSON Pointer. */
function resolveRef(files: Readonly<Record<string, unknown>>, from: string, ref: string): SchemaPlace | undefined {
  const hash = ref.indexOf("#");
  const uri = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? "" : decodeURIComponent(ref.slice(hash + 1));
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  const name = uri === "" ? from : (uri.split(/[?]/)[0]!.split("/").pop() ?? "");
  const file = name.endsWith(".json") ? name : `${name}.json`;
  if (!(file in files) || pointerGet(files[file], fragment) === undefined) return undefined;
  return { file, pointer: fragment };
}

function pointerGet(node: unknown, pointer: string): unknown {
  for (const token of pointer.split("/").slice(1).map(unescapeToken)) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

const unescapeToken = (token: string) => token.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * Whether an error lies at a flagged place: same file, and one pointer inside the other (a flag on
 * a schema covers its keywords; a flag on a union branch is reported at the union), or inside a
 * schema the flagged place refers to, at the document place the flag is about (`flagScopes`). When
 * the flag names a property (`…/properties/<name>`) and the error is about a named property (an
 * undeclared or missing one), the names must match too.
 */
export function errorAtFlag(place: SchemaPlace, error: AjvErrorLike, scopes: readonly FlagScope[], flagProperty: string | undefined): boolean {
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);
  const [flag, ...referenced] = scopes;
  const atFlag = place.file === flag!.file && (within(place.pointer, flag!.pointer) || within(flag!.pointer, place.pointer));
  const inReferenced = referenced.some((scope) => place.file === scope.file && within(place.pointer, scope.pointer) && scope.instance !== undefined && underInstance(error.instancePath ?? "", scope.instance));
  if (!atFlag && !inReferenced) return false;
  const named = NAMED_PARAMS.map((key) => error.params[key]).find((value) => typeof value === "string");
  return flagProperty === undefined || named === undefined || named === flagProperty;
}

/** The property a flag is about, when either of its pointers ends at `/properties/<name>`. */
export function flaggedProperty(pointers: readonly string[]): string | undefined {
  for (const pointer of pointers) {
    const m = /\/properties\/([^/]+)$/.exec(pointer);
    if (m) return m[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  return undefined;
}
