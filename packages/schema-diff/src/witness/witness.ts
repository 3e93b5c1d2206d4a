import { isRecord } from "../json-text.js";
import { getAt } from "../walk.js";
import type { JsonObject } from "../read-schemas.js";
import { child, type Loc } from "../diff/context.js";
import { canonical } from "../diff/json.js";
import { ofType, typeList } from "../diff/normalize.js";
import type { LoadedFile, SchemaSide } from "../diff/load.js";
import type { SchemaChange, Witness } from "../diff/types.js";
import { generator, propertyLoc, type Json, type ValueGenerator } from "./instances.js";
import { matchingEach, notMatching } from "./pattern.js";
import { reachable, UNDECLARED, waysTo, type Arrival, type Step } from "./paths.js";
import { sideValidator, type PlacedError, type SideValidator } from "./validate.js";

/**
 * Witnesses for breaking changes: for a change that breaks new readers, a document that OLD accepts
 * and NEW rejects (for old readers, the reverse), generated from the two schemas and checked by
 * validating it against both with ajv. The rejection must come from the changed place (its keyword
 * lies inside the change's subschema, or the change lies inside a union or `not` that rejected it),
 * so that the document proves this change and not another one.
 *
 * The search: the shortest way from the root to the change, a document built along it from each
 * schema's plainest value, and at the change's place values generated from the accepting schema,
 * then varied (each property added with values of every kind, each removed, items added, bounds
 * and patterns crossed, enum values of either side). At most `tries` documents per change and
 * direction are validated; none found is "unproven", which is not "wrong".
 */

export const DEFAULT_TRIES = 400;

/** Values of every kind, tried where the accepting schema's own values do not tell. */
const PROBES: Json[] = [null, true, false, 0, 1, -1, 1.5, 2 ** 53 + 2, "", "x", "X", "0", " ", [], ["x"], [1], [{}], {}, { x: 1 }];

interface SideState {
  side: SchemaSide;
  validator: SideValidator;
  generator: ValueGenerator;
  arrivals: Map<string, Map<string, Arrival>>;
}

export function witnessChanges(before: SchemaSide, after: SchemaSide, changes: SchemaChange[], tries: number): void {
  const state = (side: SchemaSide): SideState => ({ side, validator: sideValidator(side), generator: generator(side), arrivals: new Map() });
  const sides = { old: state(before), new: state(after) };
  for (const change of changes) {
    const witness: NonNullable<SchemaChange["witness"]> = {};
    if (change.breaking.forNewReader) witness.forNewReader = search(change, sides.old, sides.new, "reader", tries);
    if (change.breaking.forOldReader) witness.forOldReader = search(change, sides.new, sides.old, "writer", tries);
    if (witness.forNewReader || witness.forOldReader) change.witness = witness;
  }
}

function search(change: SchemaChange, accepting: SideState, rejecting: SideState, direction: "reader" | "writer", tries: number): Witness {
  const [accPlace, rejPlace] = direction === "reader" ? [{ file: change.fileOld, pointer: change.pointerOld }, { file: change.fileNew, pointer: change.pointerNew }] : [{ file: change.fileNew, pointer: change.pointerNew }, { file: change.fileOld, pointer: change.pointerOld }];
  const accFile = fileOf(accepting.side, accPlace.file);
  const rejFile = fileOf(rejecting.side, rejPlace.file);
  if (!accFile || !rejFile) return { proven: false, tried: 0, reason: `no file ${accFile ? rejPlace.file : accPlace.file}` };

  // No way from the root: both sides validate at the deepest schema that holds the change on both.
  const common = accFile.path === rejFile.path ? commonSchema(accFile, rejFile, accPlace.pointer, rejPlace.pointer) : undefined;
  const target = holeOf(accepting, accFile, accPlace.pointer, common);
  if (!target) return { proven: false, tried: 0, reason: "no path from the root reaches the change, and the two sides hold it in different files" };
  namedUndeclared(target, rejPlace.pointer);
  atTuplePosition(target, schemaPrefix(rejFile, rejPlace.pointer));
  const scopes = scopesOf(rejecting.side, rejFile, rejPlace.pointer);
  const rejRoot = target.subschema ? { file: rejFile, pointer: target.root.pointer } : { file: rootOf(rejecting.side, rejFile), pointer: "" };
  let tried = 0;
  try {
    for (const candidates of documents(accepting, rejecting, target, rejPlace, rejFile)) {
      // The plainest document first; the next frame only when the accepting side refused this one.
      for (const document of candidates) {
        if (tried >= tries) break;
        tried++;
        const accErrors = accepting.validator.errors(target.root.file, target.root.pointer, document);
        if (accErrors.length > 0) continue;
        const errors = rejecting.validator.errors(rejRoot.file, rejRoot.pointer, document);
        const blamed = errors.find((error) => scopes.some((scope) => related(error, scope)));
        if (blamed) {
          return {
            proven: true,
            document,
            ...(target.subschema ? { schema: `${target.root.file.path}#${target.root.pointer}` } : {}),
            at: blamed.at || "/",
            error: `${blamed.at || "/"} ${blamed.message} (${blamed.file}#${blamed.pointer})`,
          };
        }
        break;
      }
      if (tried >= tries) break;
    }
  } catch (error) {
    return { proven: false, tried, reason: `a validator could not be compiled: ${(error as Error).message.split("\n")[0]}` };
  }
  return { proven: false, tried, reason: `no document that ${direction === "reader" ? "OLD accepts and NEW rejects" : "NEW accepts and OLD rejects"} at this place in ${tried} tries` };
}

interface Hole {
  /** What documents are validated against: the side's root, or the changed subschema when no path from the root reaches it. */
  root: { file: LoadedFile; pointer: string };
  subschema: boolean;
  /** The hole's location. */
  loc: Loc;
  /** Ways from the root to the hole: the locations passed and the steps between them. */
  ways: { locs: Loc[]; steps: Step[] }[];
}

const MAX_WAYS = 6;

/**
 * Where in a document the change is: the deepest schema location on the way from the root that
 * holds it. When no way from the root reaches it, the ways from `fallback` (a subschema both sides
 * have), which documents are then validated against.
 */
function holeOf(state: SideState, file: LoadedFile, pointer: string, fallback: string | undefined): Hole | undefined {
  const fromRoot = waysFrom(state, rootOf(state.side, file), "", file, pointer);
  if (fromRoot) return { root: { file: rootOf(state.side, file), pointer: "" }, subschema: false, loc: fromRoot[0]!.locs.at(-1)!, ways: fromRoot };
  if (fallback === undefined) return undefined;
  const fromFallback = waysFrom(state, file, fallback, file, pointer);
  if (fromFallback) return { root: { file, pointer: fallback }, subschema: true, loc: fromFallback[0]!.locs.at(-1)!, ways: fromFallback };
  const loc: Loc = { file, pointer: fallback, schema: file.nodeAt(fallback) ?? getAt(file.source, fallback) };
  return { root: { file, pointer: fallback }, subschema: true, loc, ways: [{ locs: [loc], steps: [] }] };
}

/** The ways from `start#startPointer` to the deepest schema that holds `file#pointer`, or undefined. */
function waysFrom(state: SideState, start: LoadedFile, startPointer: string, file: LoadedFile, pointer: string): { locs: Loc[]; steps: Step[] }[] | undefined {
  const key = `${start.uri}#${startPointer}`;
  let arrivals = state.arrivals.get(key);
  if (!arrivals) {
    arrivals = reachable(state.side, { file: start, pointer: startPointer, schema: startPointer === "" ? start.json : start.nodeAt(startPointer) });
    state.arrivals.set(key, arrivals);
  }
  const tokens = schemaPrefix(file, pointer).split("/");
  for (let n = tokens.length; n >= 1; n--) {
    // A definition is reached through its $refs, never by walking into `definitions`.
    if (tokens.slice(n).some((t) => t === "definitions" || t === "$defs")) break;
    const ways = waysTo(arrivals, `${file.uri}#${tokens.slice(0, n).join("/")}`, MAX_WAYS);
    if (ways.length > 0) return ways;
  }
  return undefined;
}

/**
 * A change between what applies to undeclared properties and a declared one (`property-added`
 * where OLD checked the name against `additionalProperties`): the document must use that name, not
 * just any undeclared one.
 */
function namedUndeclared(hole: Hole, rejPointer: string): void {
  const m = /^(.*)\/(?:additionalProperties|unevaluatedProperties)$/.exec(hole.loc.pointer);
  const prefix = m ? `${m[1]}/properties/` : undefined;
  if (!prefix || !rejPointer.startsWith(prefix)) return;
  const name = rejPointer.slice(prefix.length).split("/")[0]!.replace(/~1/g, "/").replace(/~0/g, "~");
  for (const way of hole.ways) {
    for (let i = way.steps.length - 1; i >= 0; i--) {
      const step = way.steps[i]!;
      if (step.kind !== "key") continue;
      if (step.key === UNDECLARED) way.steps[i] = { kind: "key", key: name };
      break;
    }
  }
}

/**
 * A change at a tuple position where the accepting side has one schema for every item (babelrc's
 * `plugins` items became `[string, object]`): the document puts the value at that position, not
 * at the first.
 */
function atTuplePosition(hole: Hole, rejSchema: string): void {
  const position = /\/(?:items|prefixItems)\/(\d+)$/.exec(rejSchema);
  if (!position || !/\/items$/.test(hole.loc.pointer)) return;
  for (const way of hole.ways) {
    const last = way.steps.at(-1);
    if (last?.kind === "index") way.steps[way.steps.length - 1] = { kind: "index", index: Number(position[1]) };
  }
}

/** The deepest subschema that holds both places, present in both files (paired files have the same path). */
function commonSchema(accFile: LoadedFile, rejFile: LoadedFile, accPointer: string, rejPointer: string): string {
  const a = schemaPrefix(accFile, accPointer).split("/");
  const b = schemaPrefix(rejFile, rejPointer).split("/");
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  for (; n > 1; n--) {
    const pointer = a.slice(0, n).join("/");
    if (accFile.nodeAt(pointer) !== undefined && rejFile.nodeAt(pointer) !== undefined) return pointer;
  }
  return "";
}

const BOOLEAN_SLOTS = new Set(["additionalProperties", "unevaluatedProperties", "items", "additionalItems", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"]);
const SCHEMA_CONTAINERS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "prefixItems", "items", "allOf", "anyOf", "oneOf"]);

/** The longest prefix of a pointer that is a subschema of the file (an object, or `true`/`false` in a schema's place). */
function schemaPrefix(file: LoadedFile, pointer: string): string {
  const tokens = pointer.split("/");
  for (let n = tokens.length; n > 1; n--) {
    const candidate = tokens.slice(0, n).join("/");
    if (file.nodeAt(candidate) !== undefined) return candidate;
    if (typeof getAt(file.source, candidate) === "boolean" && (BOOLEAN_SLOTS.has(tokens[n - 1]!) || SCHEMA_CONTAINERS.has(tokens[n - 2]!))) return candidate;
  }
  return "";
}

/** The rejecting side's places a rejection must come from: the change's subschema, and what its `$ref`s lead to. */
function scopesOf(side: SchemaSide, file: LoadedFile, pointer: string): { file: string; pointer: string }[] {
  const scopes = [{ file: file.path, pointer }];
  // draft-04 writes an exclusive bound in two keywords, and ajv blames either of them.
  const bound = file.dialect === "draft-04" ? /\/(exclusiveM|m)(inimum|aximum)$/.exec(pointer) : null;
  if (bound) scopes.push({ file: file.path, pointer: `${pointer.slice(0, bound.index)}/${bound[1] === "m" ? "exclusiveM" : "m"}${bound[2]}` });
  let current: { file: LoadedFile; pointer: string } = { file, pointer: schemaPrefix(file, pointer) };
  for (let step = 0; step < 4; step++) {
    const node = current.file.nodeAt(current.pointer);
    const ref = isRecord(node) && typeof node.$ref === "string" ? node.$ref : isRecord(node) && Array.isArray(node.allOf) ? refOfConjunct(node.allOf) : undefined;
    if (!ref) break;
    try {
      const target = side.resolve(ref, current.file, current.pointer);
      scopes.push({ file: target.file.path, pointer: target.pointer });
      current = { file: target.file, pointer: target.pointer };
    } catch {
      break;
    }
  }
  return scopes;
}

const refOfConjunct = (entries: unknown[]) => entries.map((e) => (isRecord(e) && typeof e.$ref === "string" ? e.$ref : undefined)).find((r) => r !== undefined);

/** Keywords whose error stands for errors inside them (a union, a negation, a condition). */
const AGGREGATES = new Set(["anyOf", "oneOf", "not", "if", "then", "else", "contains", "$ref"]);

function related(error: PlacedError, scope: { file: string; pointer: string }): boolean {
  if (error.file !== scope.file) return false;
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);
  if (within(error.pointer, scope.pointer)) return true;
  const errorSchema = error.pointer.slice(0, error.pointer.lastIndexOf("/"));
  return within(scope.pointer, error.pointer) || (within(scope.pointer, errorSchema) && AGGREGATES.has(error.keyword));
}

function rootOf(side: SchemaSide, file: LoadedFile): LoadedFile {
  return side.singleRoot ? side.files[0]! : file;
}

function fileOf(side: SchemaSide, path: string): LoadedFile | undefined {
  return side.files.find((file) => file.path === path);
}

/** Candidate documents, lazily: for each value at the hole, the document built around it plainly, then fully. */
function* documents(accepting: SideState, rejecting: SideState, hole: Hole, rejPlace: { pointer: string }, rejFile: LoadedFile): Generator<Json[]> {
  const seen = new Set<string>();
  const holeLoc = hole.loc;
  const rejecting_ = schemaAt(rejecting.side, rejFile, schemaPrefix(rejFile, rejPlace.pointer));
  // A change at `…/properties/<name>` (a property added or removed) is about documents that carry the name.
  const named = [...rejPlace.pointer.matchAll(/\/properties\/([^/]+)$/g)].map((m) => m[1]!.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (const value of holeValues(accepting, holeLoc, rejecting_, named)) {
    const key = canonical(value);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const way of hole.ways) yield (["plain", "completed", "full", "keyed"] as const).map((frame) => embed(accepting, way, value, frame));
  }
}

/** The rejecting side's schema at a place, past its `$ref`s. */
function schemaAt(side: SchemaSide, file: LoadedFile, pointer: string): JsonObject {
  let node: unknown = file.nodeAt(pointer);
  let current = { file, pointer };
  for (let step = 0; step < 8 && isRecord(node) && typeof node.$ref === "string"; step++) {
    try {
      const target = side.resolve(node.$ref, current.file, current.pointer);
      node = target.schema;
      current = { file: target.file, pointer: target.pointer };
    } catch {
      break;
    }
  }
  return isRecord(node) ? node : {};
}

/** Values for the changed place: the accepting schema's own, then each varied towards what the rejecting schema refuses. */
function* holeValues(accepting: SideState, loc: Loc, rejecting: JsonObject, named: string[]): Generator<Json> {
  const gen = accepting.generator;
  const bases = gen.variants(loc, 16);
  yield* bases;
  // A type the rejecting side refuses, before anything else is varied (`type` added or narrowed).
  const refused = typeList(rejecting.type);
  if (refused) yield* PROBES.filter((value) => !refused.some((type) => ofType(value, type)));
  const accSchema = isRecord(loc.schema) ? resolved(accepting.side, loc) : undefined;
  const names = [...new Set([...named, ...unmatchedNames(accSchema), UNDECLARED, "", ...strings(rejecting.required), ...keysOf(rejecting.properties), ...strings(accSchema?.required), ...keysOf(accSchema?.properties)])].slice(0, 64);
  // Every alternative of the accepting pattern: the one the other pattern lacks is among them.
  const alternativesOf = typeof accSchema?.pattern === "string" ? matchingEach(accSchema.pattern, 32) : [];
  const hinted = [...listedByOneSide(accSchema, rejecting), ...valuesOf(accSchema), ...valuesOf(rejecting), ...boundaryValues(accSchema), ...boundaryValues(rejecting), ...alternativesOf];
  for (const base of bases) {
    if (isRecord(base)) {
      for (const name of Object.keys(base)) {
        const { [name]: _dropped, ...rest } = base;
        yield rest as Json;
      }
      for (const name of names) {
        const own = accSchema ? gen.variants(propertyLoc({ ...loc, schema: accSchema } as Loc & { schema: JsonObject }, name), 4) : [];
        for (const value of [...own, ...PROBES]) yield { ...base, [name]: value } as Json;
      }
    } else if (Array.isArray(base)) {
      yield [];
      if (base.length > 0) yield [...base, base[0]!];
      for (const value of PROBES) yield [...base, value];
      if (base.length > 1) yield base.slice(0, -1);
    }
  }
  yield* hinted;
  yield* PROBES;
}

function resolved(side: SchemaSide, loc: Loc): JsonObject {
  let current = loc;
  for (let step = 0; step < 8 && isRecord(current.schema) && typeof current.schema.$ref === "string"; step++) {
    try {
      const target = side.resolve(current.schema.$ref, current.file, current.pointer);
      current = { file: target.file, pointer: target.pointer, schema: target.schema };
    } catch {
      break;
    }
  }
  return isRecord(current.schema) ? current.schema : {};
}

type Frame = "plain" | "completed" | "full" | "keyed";

/**
 * The document with `value` at the hole, built along a way from the root. At each place of the
 * document, every schema that applies there gives its plainest value (`full`: with every optional
 * property), and those are merged under the part that leads on: the schemas of the way, and the
 * ones beside it (the same property in a conjunct or a condition applies too). At the hole itself
 * the value is left as it is ("plain"), or laid over what the other schemas there ask for.
 * "keyed": each object on the way is the smallest value its schema gives that already has the key
 * leading on (a `oneOf` branch that requires it, rather than the first branch beside it).
 */
function embed(state: SideState, way: { locs: Loc[]; steps: Step[] }, value: Json, frame: Frame): Json {
  const gen = state.generator;
  const full = frame === "full";
  // The way cut at its steps into a document place: the way's locations there, and the others that apply.
  const places: { locs: Loc[]; beside: Loc[]; step?: Step }[] = [{ locs: [], beside: [] }];
  way.locs.forEach((loc, i) => {
    const place = places.at(-1)!;
    place.locs.push(loc);
    const step = way.steps[i];
    if (!step || step.kind === "in-place") return;
    place.step = step;
    const onWay = way.locs[i + 1]!;
    const beside = [...place.locs, ...place.beside].flatMap((l) => childrenAt(state.side, l, step)).filter((l) => l.pointer !== onWay.pointer || l.file !== onWay.file);
    places.push({ locs: [], beside });
  });
  const baseOf = (place: (typeof places)[number], skip?: Loc) =>
    [...place.beside, ...place.locs.filter((l) => l !== skip)].reduce<Json | undefined>((merged, loc, i, all) => mergeValues(merged, gen.plain(loc, { full, via: all[i + 1]?.pointer })), undefined);
  const last = places.at(-1)!;
  let inner: Json = frame === "plain" ? value : mergeValues(baseOf(last, last.locs.at(-1)), value)!;
  for (let i = places.length - 2; i >= 0; i--) {
    const place = places[i]!;
    const step = place.step!;
    const keyed = frame === "keyed" && step.kind === "key" ? smallestWith(gen.variants(place.locs.at(-1)!, 16), step.key) : undefined;
    const base = keyed ?? baseOf(place);
    if (step.kind === "key") {
      inner = { ...(isRecord(base) ? base : {}), [step.key]: inner } as Json;
    } else if (step.kind === "index") {
      const items: Json[] = Array.isArray(base) ? [...base] : [];
      const holder = place.locs.at(-1)!;
      while (items.length < step.index) items.push(gen.plain(itemLoc(holder, items.length)));
      items[step.index] = inner;
      // As many items as the schemas there ask for (stylelint's pairs: `minItems: 2`).
      const least = Math.max(0, ...[...place.locs, ...place.beside].map((l) => (isRecord(l.schema) && typeof l.schema.minItems === "number" ? l.schema.minItems : 0)));
      while (items.length < Math.min(least, 64)) items.push(gen.plain(itemLoc(holder, items.length)));
      inner = items;
    }
  }
  return inner;
}

/** The object with the fewest properties among those that have `key`. */
function smallestWith(values: Json[], key: string): Json | undefined {
  const objects = values.filter((v): v is { [key: string]: Json } => isRecord(v) && key in v);
  return objects.sort((a, b) => Object.keys(a).length - Object.keys(b).length)[0];
}

/** `value` laid over `base` (objects merge, the value's keys winning); `value` alone otherwise. */
function mergeValues(base: Json | undefined, value: Json): Json {
  return isRecord(base) && isRecord(value) ? ({ ...base, ...value } as Json) : value;
}

/** The schemas a subschema applies one step into the document: a property's, an item's. */
function childrenAt(side: SchemaSide, loc: Loc, step: Step): Loc[] {
  const at = { ...loc, schema: resolved(side, loc) } as Loc & { schema: JsonObject };
  const holders = [at, ...(Array.isArray(at.schema.allOf) ? at.schema.allOf.map((_, i) => child(at, "allOf", i)) : [])];
  return holders.flatMap((holder) => {
    const schema = isRecord(holder.schema) ? resolved(side, holder) : undefined;
    if (!schema) return [];
    const resolvedHolder = { ...holder, schema } as Loc & { schema: JsonObject };
    if (step.kind === "key") {
      const sub = propertyLoc(resolvedHolder, step.key);
      return isRecord(sub.schema) ? [sub] : [];
    }
    if (step.kind === "index" && (schema.items !== undefined || schema.prefixItems !== undefined)) {
      const sub = itemLoc(resolvedHolder, step.index);
      return isRecord(sub.schema) ? [sub] : [];
    }
    return [];
  });
}

function itemLoc(loc: Loc, index: number): Loc {
  const schema = isRecord(loc.schema) ? loc.schema : {};
  const positions = Array.isArray(schema.prefixItems) ? "prefixItems" : Array.isArray(schema.items) ? "items" : undefined;
  if (positions && index < (schema[positions] as unknown[]).length) return child(loc, positions, index);
  return child(loc, positions === "items" ? "additionalItems" : "items");
}

function boundaryValues(schema: JsonObject | undefined): Json[] {
  if (!schema) return [];
  const out: Json[] = [];
  for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    const n = schema[key];
    if (typeof n === "number") out.push(n - 1, n - 0.5, n, n + 0.5, n + 1);
  }
  if (typeof schema.multipleOf === "number") out.push(schema.multipleOf / 2, schema.multipleOf * 3);
  for (const key of ["minLength", "maxLength"]) {
    const n = schema[key];
    if (typeof n === "number" && n < 4096) out.push("x".repeat(Math.max(n - 1, 0)), "x".repeat(n), "x".repeat(n + 1));
  }
  for (const key of ["minItems", "maxItems"]) {
    const n = schema[key];
    if (typeof n === "number" && n < 256) out.push(Array(Math.max(n - 1, 0)).fill("x"), Array(n + 1).fill("x"));
  }
  if (typeof schema.pattern === "string") {
    const miss = notMatching(schema.pattern);
    if (miss !== undefined) out.push(miss);
  }
  return out;
}

/**
 * Property names that a `patternProperties` pattern of the schema (or of a branch of it) does not
 * match: where the accepting side leaves such names free and the rejecting side constrains every
 * undeclared name, the witness is one of them (stylelint's `^((?!message|severity).)*$` leaves
 * "\n" free).
 */
function unmatchedNames(schema: JsonObject | undefined): string[] {
  if (!schema) return [];
  const branches = ["allOf", "anyOf", "oneOf"].flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).filter(isRecord) : []));
  const patterns = [schema, ...branches].flatMap((node) => keysOf(node.patternProperties));
  return patterns.map(notMatching).filter((name): name is string => name !== undefined);
}

/** The accepting side's `enum`/`const` values the rejecting side does not list: a value added to a long list may come after the first 200. */
function listedByOneSide(accepting: JsonObject | undefined, rejecting: JsonObject): Json[] {
  const listed = (schema: JsonObject | undefined): Json[] => (!schema ? [] : "const" in schema ? [schema.const as Json] : Array.isArray(schema.enum) ? (schema.enum as Json[]) : []);
  const theirs = new Set(listed(rejecting).map(canonical));
  if (theirs.size === 0) return [];
  return listed(accepting).filter((value) => !theirs.has(canonical(value))).slice(0, 32);
}

function valuesOf(schema: JsonObject | undefined): Json[] {
  if (!schema) return [];
  const out: Json[] = [];
  if ("const" in schema) out.push(schema.const as Json);
  if (Array.isArray(schema.enum)) out.push(...(schema.enum as Json[]).slice(0, 200));
  for (const key of ["default", "examples"]) {
    const value = schema[key];
    if (key === "examples" && Array.isArray(value)) out.push(...(value as Json[]).slice(0, 8));
    else if (value !== undefined) out.push(value as Json);
  }
  return out;
}

const keysOf = (value: unknown): string[] => (isRecord(value) ? Object.keys(value) : []);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
