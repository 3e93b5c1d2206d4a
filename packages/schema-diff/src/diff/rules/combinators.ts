import { pairUp } from "../pair.js";
import { isRecord } from "../../json-text.js";
import { child, combine, emit, flip, type Ctx, type Loc, type ObjLoc } from "../context.js";
import { canonical, jsonEqual } from "../json.js";
import type { Effect, SchemaChange } from "../types.js";
import { disjoint, pairwiseDisjoint } from "./disjoint.js";
import { slotState } from "./slot.js";

export const COMBINATOR_KEYWORDS = ["anyOf", "oneOf", "allOf", "not", "if", "then", "else"];

/** How a branch is recognised after an edit: what its `$ref` reaches, its `title`, or the `const`s that discriminate it. */
function signature(ctx: Ctx, side: "old" | "new", loc: Loc): string | undefined {
  const schema = loc.schema;
  if (!isRecord(schema)) return undefined;
  if (typeof schema.$ref === "string") return `ref:${refTarget(ctx, side, loc, schema.$ref)}`;
  if (typeof schema.title === "string") return `title:${schema.title}`;
  const consts = Object.entries(isRecord(schema.properties) ? schema.properties : {})
    .filter(([, sub]) => isRecord(sub) && "const" in sub)
    .map(([name, sub]) => `${name}=${canonical((sub as Record<string, unknown>).const)}`);
  return consts.length > 0 ? `const:${consts.sort().join(",")}` : undefined;
}

/**
 * Where a `$ref` lands (paired files share a number), so that `./b.json` and `b.json`, or a path
 * and the `$id` URL of the same file, are one branch; as written when it does not resolve.
 */
function refTarget(ctx: Ctx, side: "old" | "new", loc: Loc, ref: string): string {
  try {
    const target = ctx[side].resolve(ref, loc.file, loc.pointer);
    return `${ctx.pairOf(target.file)}#${target.pointer.replace(/\/definitions(?=\/)/g, "/$defs")}`;
  } catch {
    return ref;
  }
}

/**
 * Pairs the entries of two subschema lists: equal entries first, then entries with the same
 * signature, then a last unmatched pair (an edited entry). The rest are added or removed.
 */
function pairLists(ctx: Ctx, before: Loc[], after: Loc[]): { pairs: [Loc, Loc][]; removed: Loc[]; added: Loc[] } {
  const pairing = pairUp(before, after)
    .take((x, y) => jsonEqual(x.schema, y.schema))
    .take((x, y) => {
      const sx = signature(ctx, "old", x);
      return sx !== undefined && sx === signature(ctx, "new", y);
    });
  // A branch alone with its type on each side is that branch, edited (`{type: "boolean", enum: [true]}` → `{type: "boolean"}`).
  const alone = (list: Loc[], type: string) => list.filter((loc) => typeKey(loc) === type).length === 1;
  pairing.take((x, y) => {
    const type = typeKey(x);
    return type !== undefined && type === typeKey(y) && alone(pairing.removed, type) && alone(pairing.added, type);
  });
  if (pairing.removed.length === 1 && pairing.added.length === 1) pairing.pairs.push([pairing.removed.pop()!, pairing.added.pop()!]);
  return pairing;
}

/** A branch's declared types, as one key. */
function typeKey(loc: Loc): string | undefined {
  const type = isRecord(loc.schema) ? loc.schema.type : undefined;
  if (typeof type === "string") return type;
  return Array.isArray(type) ? [...type].map(String).sort().join(",") : undefined;
}

const listOf = (loc: ObjLoc, keyword: string): Loc[] => (Array.isArray(loc.schema[keyword]) ? (loc.schema[keyword] as unknown[]).map((_, i) => child(loc, keyword, i)) : []);

/** `anyOf`/`oneOf`: a removed branch admits fewer documents, an added one more. */
function compareUnion(ctx: Ctx, a: ObjLoc, b: ObjLoc, keywordA: string, keywordB: string): Effect {
  const hasA = Array.isArray(a.schema[keywordA]);
  const hasB = Array.isArray(b.schema[keywordB]);
  if (!hasA && !hasB) return "none";
  const branchesA = listOf(a, keywordA);
  const branchesB = listOf(b, keywordB);
  if (!hasA) {
    // Wrapping a schema into a union (`anyOf: [X, {type: "null"}]`) restricts nothing when one
    // branch accepts every document OLD accepts; NEW's other keywords are compared on their own.
    const covering = coveringBranch(ctx, "new", keywordB, branchesB, (y) => probe(ctx, withoutDefs(a), y), "looser");
    if (covering) return emit(ctx, "union-added", a, child(b, keywordB), "none", `"${keywordB}" added; its branch ${last(covering)} accepts every document OLD accepts`);
    return emit(ctx, "union-added", a, child(b, keywordB), "tighter", `"${keywordB}" added: documents must now match one of its branches`);
  }
  if (!hasB) {
    const covered = coveringBranch(ctx, "old", keywordA, branchesA, (x) => probe(ctx, x, withoutDefs(b)), "tighter");
    if (covered) return emit(ctx, "union-removed", child(a, keywordA), b, "none", `"${keywordA}" removed; its branch ${last(covered)} accepts every document NEW accepts`);
    return emit(ctx, "union-removed", child(a, keywordA), b, "looser", `"${keywordA}" removed: documents no longer need to match one of its branches`);
  }
  const { pairs, removed, added } = pairLists(ctx, branchesA, branchesB);
  // Branches that pair with none on either side may be one union wrapped whole into a branch of the
  // other (`anyOf: [{$ref: P}, {type: "null"}]` for a `oneOf` P): that branch is compared with the
  // whole other side, and the rest of its union only adds (or removes) branches.
  if (removed.length > 0 && added.length > 0) {
    const covering = coveringBranch(ctx, "new", keywordB, branchesB, (y) => probe(ctx, withoutDefs(a), y), "looser");
    if (covering) {
      const effects = [ctx.compare(withoutDefs(a), covering)];
      for (const y of branchesB) if (y !== covering) effects.push(emit(ctx, "branch-added", child(a, keywordA), y, "looser", `${keywordB} branch ${last(y)} added beside the branch that holds all of OLD: OLD rejects documents that only it matches`));
      return combine(effects);
    }
    const covered = coveringBranch(ctx, "old", keywordA, branchesA, (x) => probe(ctx, x, withoutDefs(b)), "tighter");
    if (covered) {
      const effects = [ctx.compare(covered, withoutDefs(b))];
      for (const x of branchesA) if (x !== covered) effects.push(emit(ctx, "branch-removed", x, child(b, keywordB), "tighter", `${keywordA} branch ${last(x)} removed; the branch that holds all of NEW is kept: NEW rejects documents that only it matched`));
      return combine(effects);
    }
  }
  const effects: Effect[] = [];
  // A oneOf whose branches no document matches twice accepts what the anyOf of them accepts.
  const oneOfSide = keywordA === "oneOf" ? { side: "old" as const, branches: branchesA } : { side: "new" as const, branches: branchesB };
  if (keywordA !== keywordB && !pairwiseDisjoint(ctx, oneOfSide.side, oneOfSide.branches)) {
    const tighter = keywordB === "oneOf";
    effects.push(emit(ctx, "keyword-changed", child(a, keywordA), child(b, keywordB), tighter ? "tighter" : "looser", `"${keywordA}" became "${keywordB}": ${tighter ? "NEW rejects documents that match several branches" : "OLD rejects documents that match several branches"}`));
  }
  for (const [x, y] of pairs) effects.push(keywordA === "anyOf" && keywordB === "anyOf" ? compareAnyOfBranch(ctx, x, y, branchesA) : ctx.compare(x, y));
  for (const x of removed) effects.push(emit(ctx, "branch-removed", x, child(b, keywordB), "tighter", `${keywordA} branch ${last(x)} removed: NEW rejects documents that only it matched`));
  const open = openUnion(ctx, keywordA, branchesA, pairs);
  for (const y of added) {
    effects.push(
      open
        ? emit(ctx, "branch-added", child(a, keywordA), y, "none", `${keywordB} branch ${last(y)} added; OLD's branch ${last(open)} accepts anything, and a document only it matches matches none of OLD's other branches`)
        : emit(ctx, "branch-added", child(a, keywordA), y, "looser", `${keywordB} branch ${last(y)} added: OLD rejects documents that only it matches`),
    );
  }
  return combine(effects);
}

/**
 * The branch of a union that contains the other side (`compare` gives "none" or `within`), if any.
 * A `oneOf` rejects documents that match two branches, so there no other branch may overlap the
 * covering one.
 */
export function coveringBranch(ctx: Ctx, side: "old" | "new", keyword: string, branches: Loc[], compare: (branch: Loc) => Effect, within: Effect): Loc | undefined {
  return branches.find((branch) => {
    const effect = compare(branch);
    if (effect !== "none" && effect !== within) return false;
    return keyword !== "oneOf" || branches.every((other) => other === branch || disjoint(ctx, side, branch, other));
  });
}

/** The index of a branch or entry, for messages. */
const last = (loc: Loc) => loc.pointer.split("/").pop();

/** A schema without its definitions: they are compared in place, not as part of what it accepts. */
function withoutDefs(loc: ObjLoc): Loc {
  if (!("$defs" in loc.schema) && !("definitions" in loc.schema)) return loc;
  const { $defs: _defs, definitions: _definitions, ...rest } = loc.schema;
  return { ...loc, schema: rest };
}

/** Probe results of a run, by the two schema objects and their files: nested unions probe the same pairs again and again. */
const probes = new WeakMap<Ctx, WeakMap<object, WeakMap<object, Map<string, Effect>>>>();

/** Compares without recording anything: the report and the `$ref` memo are left as they were. */
export function probe(ctx: Ctx, a: Loc, b: Loc): Effect {
  const objects = typeof a.schema === "object" && a.schema !== null && typeof b.schema === "object" && b.schema !== null;
  let cache: Map<string, Effect> | undefined;
  if (objects) {
    let byA = probes.get(ctx);
    if (!byA) probes.set(ctx, (byA = new WeakMap()));
    let byB = byA.get(a.schema as object);
    if (!byB) byA.set(a.schema as object, (byB = new WeakMap()));
    cache = byB.get(b.schema as object);
    if (!cache) byB.set(b.schema as object, (cache = new Map()));
  }
  const key = `${a.file.uri}|${b.file.uri}|${ctx.strict}`;
  const known = cache?.get(key);
  if (known !== undefined) return known;
  return undoing(ctx, () => {
    const effect = ctx.compare(a, b);
    cache?.set(key, effect);
    return effect;
  });
}

/**
 * Runs `compare` (given where its changes start in the report), then takes back what it recorded:
 * its changes and its `$ref` memo entries, so that the run's own comparison of those targets
 * records them.
 */
function undoing<T>(ctx: Ctx, compare: (firstChange: number) => T): T {
  const count = ctx.changes.length;
  const size = ctx.memo.size;
  try {
    return compare(count);
  } finally {
    ctx.changes.length = count;
    // compareRefs only adds memo entries, and a Map keeps insertion order: drop the newer ones.
    let i = 0;
    for (const memoKey of ctx.memo.keys()) if (i++ >= size) ctx.memo.delete(memoKey);
  }
}

/**
 * `allOf`: every conjunct must hold, so an added conjunct restricts and a removed one relaxes,
 * unless the schema on the other side already implies it: babelrc moved its options into
 * `allOf: [{$ref: Options}, {properties: {env}}]`, where `Options` accepts every document OLD did.
 */
function compareAllOf(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const { pairs, removed, added } = pairLists(ctx, listOf(a, "allOf"), listOf(b, "allOf"));
  const effects = pairs.map(([x, y]) => ctx.compare(x, y));
  for (const x of removed) {
    if (acceptsAll(ctx, "old", x)) continue;
    const implied = ["none", "tighter"].includes(strictProbe(ctx, x, withoutDefs(b)));
    effects.push(emit(ctx, "conjunct-removed", x, child(b, "allOf"), implied ? "none" : "looser", implied ? `allOf entry ${last(x)} removed; NEW without it accepts no document it refused` : `allOf entry ${last(x)} removed: OLD may reject documents NEW accepts`));
  }
  for (const y of added) {
    if (acceptsAll(ctx, "new", y)) continue;
    if (["none", "looser"].includes(strictProbe(ctx, withoutDefs(a), y))) {
      effects.push(emit(ctx, "conjunct-added", child(a, "allOf"), y, "none", `allOf entry ${last(y)} added; it accepts every document OLD accepts`));
      continue;
    }
    const restrictions = ctx.negated ? [] : restrictionsOf(ctx, withoutDefs(a), y);
    if (restrictions.length > 0) {
      ctx.changes.push(...restrictions);
      effects.push("tighter");
    } else effects.push(emit(ctx, "conjunct-added", child(a, "allOf"), y, "tighter", `allOf entry ${last(y)} added: NEW may reject documents OLD accepted`));
  }
  return combine(effects);
}

/**
 * An anyOf branch that only widened into what another OLD branch already accepts adds no document
 * (stylelint's `{type: "string", enum: [{}]}`, which no string matches, lost its `enum` beside a
 * branch that accepts any string): its changes are kept, as breaking nobody. Not when the
 * comparison reached a `$ref` target, whose changes are recorded once for every use.
 */
function compareAnyOfBranch(ctx: Ctx, x: Loc, y: Loc, branchesA: Loc[]): Effect {
  const count = ctx.changes.length;
  const size = ctx.memo.size;
  const effect = ctx.compare(x, y);
  if (effect !== "looser" || ctx.memo.size !== size) return effect;
  const held = branchesA.find((z) => z !== x && ["none", "tighter"].includes(probe(ctx, z, y)));
  if (!held) return effect;
  for (let i = count; i < ctx.changes.length; i++) {
    const change = ctx.changes[i]!;
    ctx.changes[i] = { ...change, breaking: { ...change.breaking, forNewReader: false, forOldReader: false }, message: `${change.message}; OLD's anyOf branch ${last(held)} already accepted all of NEW's branch ${last(y)}, so no document changes` };
  }
  return "none";
}

/**
 * OLD's branch that accepts anything, when it makes every added branch harmless: in an `anyOf`,
 * OLD accepts every document; in a `oneOf`, OLD accepts what matches no other branch of its own,
 * and when each of those is paired with a NEW branch that holds all of it, a document that only an
 * added branch matches (in NEW) matches none of them.
 */
function openUnion(ctx: Ctx, keyword: string, branches: Loc[], pairs: [Loc, Loc][]): Loc | undefined {
  const open = branches.filter((x) => acceptsAll(ctx, "old", x));
  if (open.length === 0) return undefined;
  if (keyword === "anyOf") return open[0];
  if (open.length > 1) return undefined;
  const heldByPair = (x: Loc) => pairs.some(([p, q]) => p === x && ["none", "looser"].includes(probe(ctx, x, q)));
  return branches.every((x) => x === open[0] || heldByPair(x)) ? open[0] : undefined;
}

/** An entry without constraints, or a bare `$ref` to one (such as a `$ref` to an array, which ajv reads as `{}`): it restricts nothing. */
function acceptsAll(ctx: Ctx, side: "old" | "new", loc: Loc): boolean {
  if (slotState(loc.schema) === "open") return true;
  if (!isRecord(loc.schema) || typeof loc.schema.$ref !== "string") return false;
  const { $ref: ref, ...siblings } = loc.schema;
  if (slotState(siblings) !== "open") return false;
  try {
    return slotState(ctx[side].resolve(ref, loc.file, loc.pointer).schema) === "open";
  } catch {
    return false;
  }
}

/**
 * What an added `allOf` entry restricts, each where it is: the changes that break new readers when
 * OLD is compared with the entry (OLD still holds beside it, so what the entry relaxes relaxes
 * nothing). babelrc's `Options` narrowed `plugins`' items to a tuple: that is the flag, with a
 * document for it, rather than "entry added". The comparison is taken back, as `probe`'s is.
 */
function restrictionsOf(ctx: Ctx, a: Loc, y: Loc): SchemaChange[] {
  return askedOnce(ctx, `restricts ${a.file.uri}#${a.pointer}|${y.file.uri}#${y.pointer}`, [], () =>
    undoing(ctx, (firstChange) => {
      ctx.compare(a, y);
      return ctx.changes
        .slice(firstChange)
        // Not the `$ref`s passed on the way, nor the entry itself when the comparison came back to it.
        .filter((change) => change.breaking.forNewReader && change.kind !== "ref-changed" && !(change.kind === "conjunct-added" && change.pointerNew === y.pointer))
        .map((change) => ({ ...change, breaking: { ...change.breaking, forNewReader: true, forOldReader: false }, message: `${change.message} (in allOf entry ${last(y)}, which NEW added)` }));
    }),
  );
}

/**
 * `probe` with properties added to and removed from open objects counted (as `--strict` counts
 * them): whether one schema implies another must hold for every document, not by convention. Its
 * own `$ref` memo, since the run's was filled under the default mode.
 */
function strictProbe(ctx: Ctx, a: Loc, b: Loc): Effect {
  return askedOnce(ctx, `implied ${a.file.uri}#${a.pointer}|${b.file.uri}#${b.pointer}`, "incomparable", () => {
    const { strict, memo } = ctx;
    // Nested, the memo is kept: it is what ends the comparison of recursive schemas.
    if (!strict) ctx.memo = new Map();
    ctx.strict = true;
    try {
      return probe(ctx, a, b);
    } finally {
      ctx.strict = strict;
      ctx.memo = memo;
    }
  });
}

/**
 * A question about an allOf entry and the schema around it, asked again while it is being answered
 * (`$ref: R` against `allOf: [{$ref: R}, X]` reads the `$ref` as an allOf and asks it of itself),
 * gets `open`, the answer that keeps the entry's flag.
 */
function askedOnce<T>(ctx: Ctx, question: string, open: T, answer: () => T): T {
  let asking = openQuestions.get(ctx);
  if (!asking) openQuestions.set(ctx, (asking = new Set()));
  if (asking.has(question)) return open;
  asking.add(question);
  try {
    return answer();
  } finally {
    asking.delete(question);
  }
}

const openQuestions = new WeakMap<Ctx, Set<string>>();

function compareNot(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const x = child(a, "not");
  const y = child(b, "not");
  if (x.schema === undefined && y.schema === undefined) return "none";
  if (x.schema === undefined) return emit(ctx, "keyword-changed", a, y, "tighter", `"not" added: NEW rejects documents that match it`);
  if (y.schema === undefined) return emit(ctx, "keyword-changed", x, b, "looser", `"not" removed: OLD rejects documents that match it`);
  ctx.negated = !ctx.negated;
  try {
    return flip(ctx.compare(x, y));
  } finally {
    ctx.negated = !ctx.negated;
  }
}

/**
 * `if`/`then`/`else`: under the same condition, `then` is compared with `then` and `else` with
 * `else` (each applies to the same documents on both sides). An edited condition is compared as a
 * whole: it may restrict some documents and relax others.
 */
function compareConditional(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const pick = (s: Record<string, unknown>) => ({ if: s.if, then: s.then, else: s.else });
  if (jsonEqual(pick(a.schema), pick(b.schema))) return "none";
  if (a.schema.if !== undefined && jsonEqual(a.schema.if, b.schema.if)) {
    return combine([ctx.compare(child(a, "then"), child(b, "then")), ctx.compare(child(a, "else"), child(b, "else"))]);
  }
  const key = ["if", "then", "else"].find((k) => !jsonEqual(a.schema[k], b.schema[k]))!;
  return emit(ctx, "keyword-changed", child(a, key), child(b, key), "incomparable", `the if/then/else condition changed ("${key}"); counted as breaking both ways`);
}

export function compareCombinators(ctx: Ctx, a: ObjLoc, b: ObjLoc): Effect {
  const unionA = ["oneOf", "anyOf"].filter((k) => Array.isArray(a.schema[k]));
  const unionB = ["oneOf", "anyOf"].filter((k) => Array.isArray(b.schema[k]));
  const effects: Effect[] = [];
  if (unionA.length === 1 && unionB.length === 1 && unionA[0] !== unionB[0]) {
    effects.push(compareUnion(ctx, a, b, unionA[0]!, unionB[0]!));
  } else {
    effects.push(compareUnion(ctx, a, b, "anyOf", "anyOf"), compareUnion(ctx, a, b, "oneOf", "oneOf"));
  }
  effects.push(compareAllOf(ctx, a, b), compareNot(ctx, a, b), compareConditional(ctx, a, b));
  return combine(effects);
}
