import type { JsonObject } from "../read-schemas.js";
import { escape } from "../walk.js";
import { keyOrigin, originOf } from "./normalize.js";
import type { LoadedFile, SchemaSide } from "./load.js";
import type { ChangeKind, Effect, SchemaChange } from "./types.js";
import { breakingOf } from "./types.js";

/** A (sub)schema of one side, with where it is. */
export interface Loc {
  file: LoadedFile;
  pointer: string;
  schema: unknown;
}

export interface ObjLoc extends Loc {
  schema: JsonObject;
}

/** The state of one diff run, shared by the keyword rules. */
export interface Ctx {
  old: SchemaSide;
  new: SchemaSide;
  /** Files paired across the two sides share a number: a `$ref` to the same pair and pointer is "the same target". */
  pairOf(file: LoadedFile): number;
  annotations: boolean;
  /** Properties added to or removed from open objects count as breaking (see `DiffOptions.strict`). */
  strict: boolean;
  /** Inside `not`, a tighter subschema makes a looser schema: effects are recorded flipped. */
  negated: boolean;
  changes: SchemaChange[];
  /** Results of `$ref` target comparisons, so shared and recursive targets are compared once. */
  memo: Map<string, Effect | "pending">;
  compare(a: Loc, b: Loc): Effect;
}

/**
 * The combined effect of several changes: opposite directions make the whole incomparable. An
 * array, not rest parameters: an object of 150,000 properties gives as many effects, and spreading
 * them into a call overflows the stack.
 */
export function combine(effects: readonly Effect[]): Effect {
  let result: Effect = "none";
  for (const effect of effects) {
    if (effect === "none" || effect === result) continue;
    result = result === "none" ? effect : "incomparable";
  }
  return result;
}

export function flip(effect: Effect): Effect {
  return effect === "tighter" ? "looser" : effect === "looser" ? "tighter" : effect;
}

/** Records a change and returns its effect (as seen from the schema being compared). */
export function emit(ctx: Ctx, kind: ChangeKind, a: Loc, b: Loc, effect: Effect, message: string): Effect {
  if (kind === "annotation-changed" && !ctx.annotations) return "none";
  const recorded = ctx.negated ? flip(effect) : effect;
  ctx.changes.push({
    kind,
    fileOld: a.file.path,
    pointerOld: a.pointer,
    fileNew: b.file.path,
    pointerNew: b.pointer,
    breaking: breakingOf(recorded, kind),
    message: ctx.negated ? `${message} (inside "not", so the effect is reversed)` : message,
  });
  return effect;
}

/**
 * The location of `loc.schema[tokens...]`. In a normal form, a node or keyword that moved is
 * located where the file has it.
 */
export function child(loc: Loc, ...tokens: (string | number)[]): Loc {
  let schema: unknown = loc.schema;
  let pointer = loc.pointer;
  for (const token of tokens) {
    const moved = typeof token === "string" ? keyOrigin(schema, token) : undefined;
    schema = Array.isArray(schema) && typeof token === "number" ? schema[token] : typeof schema === "object" && schema !== null ? (schema as JsonObject)[String(token)] : undefined;
    pointer = originOf(schema) ?? moved ?? `${pointer}/${escape(String(token))}`;
  }
  return { file: loc.file, pointer, schema };
}

/** A property name or value as it appears in messages. */
export function quote(name: string): string {
  return JSON.stringify(name);
}

/** The last pointer tokens of a location, for messages ("at /properties/id"). */
export function at(loc: Loc): string {
  return loc.pointer || "/";
}
