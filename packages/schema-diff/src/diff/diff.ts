import { pairUp } from "./pair.js";
import { compareSchemas } from "./compare.js";
import { emit, type Ctx, type Loc } from "./context.js";
import { resetCanonicalMemo } from "./json.js";
import { checkSameForm, loadSide, type LoadedFile, type SchemaSide } from "./load.js";
import type { DiffOptions, DiffReport, SchemaChange, SchemaInput } from "./types.js";
import { DEFAULT_TRIES, witnessChanges } from "../witness/witness.js";

/**
 * Compares two versions of a JSON Schema and classifies every change as breaking or not, once for
 * each direction: documents written against OLD read by code generated from NEW
 * (`breaking.forNewReader`), and documents written against NEW read by code generated from OLD
 * (`breaking.forOldReader`).
 *
 * Each side is a schema file (with the sibling files its `$ref`s reach), a folder of schemas
 * (files paired by relative path, then by `$id`), or schemas in memory. `$ref`s resolve locally
 * only. Every definition is compared in place, whether referenced or not.
 */
export function diffSchemas(oldInput: SchemaInput, newInput: SchemaInput, options: DiffOptions = {}): DiffReport {
  resetCanonicalMemo();
  checkSameForm(oldInput, newInput);
  const before = loadSide(oldInput, options, "OLD");
  const after = loadSide(newInput, options, "NEW");
  const { pairs, removed, added, pairOf } = pairFiles(before, after);
  const ctx: Ctx = {
    old: before,
    new: after,
    pairOf,
    annotations: options.annotations ?? true,
    strict: options.strict ?? false,
    negated: false,
    changes: [],
    memo: new Map(),
    compare: (a, b) => compareSchemas(ctx, a, b),
  };
  const rootOf = (file: LoadedFile): Loc => ({ file, pointer: "", schema: file.json });
  for (const [x, y] of pairs) ctx.compare(rootOf(x), rootOf(y));
  const anyNew = pairs[0]?.[1] ?? after.files[0]!;
  const anyOld = pairs[0]?.[0] ?? before.files[0]!;
  for (const x of removed) emit(ctx, "schema-file-removed", rootOf(x), { ...rootOf(anyNew), pointer: "" }, "none", `schema file ${x.path} removed: its types are gone and $refs to it no longer resolve`);
  for (const y of added) emit(ctx, "schema-file-added", { ...rootOf(anyOld), pointer: "" }, rootOf(y), "none", `schema file ${y.path} added`);
  if (options.witness) witnessChanges(before, after, ctx.changes, (typeof options.witness === "object" ? options.witness.tries : undefined) ?? DEFAULT_TRIES);
  return { changes: ctx.changes, summary: summarize(ctx.changes, Boolean(options.witness)) };
}

function summarize(changes: readonly SchemaChange[], witnessed: boolean): DiffReport["summary"] {
  const summary: DiffReport["summary"] = {
    changes: changes.length,
    breakingForNewReader: changes.filter((c) => c.breaking.forNewReader).length,
    breakingForOldReader: changes.filter((c) => c.breaking.forOldReader).length,
    breakingForCode: changes.filter((c) => c.breaking.forCode).length,
  };
  if (!witnessed) return summary;
  const witnesses = changes.flatMap((c) => [c.witness?.forNewReader, c.witness?.forOldReader]).filter((w) => w !== undefined);
  return { ...summary, proven: witnesses.filter((w) => w.proven).length, unproven: witnesses.filter((w) => !w.proven).length };
}

/** Pairs the files of the two sides: the roots of two single files, then by path, then by `$id`. */
function pairFiles(before: SchemaSide, after: SchemaSide) {
  const pairing = pairUp(before.files, after.files);
  if (before.singleRoot && after.singleRoot) pairing.take((x, y) => x === before.files[0] && y === after.files[0]);
  pairing.take((x, y) => x.path === y.path).take((x, y) => typeof x.json.$id === "string" && x.json.$id === y.json.$id);
  const { pairs, removed, added } = pairing;
  const ids = new Map<LoadedFile, number>();
  pairs.forEach(([x, y], i) => {
    ids.set(x, i);
    ids.set(y, i);
  });
  let next = pairs.length;
  const pairOf = (file: LoadedFile) => {
    if (!ids.has(file)) ids.set(file, next++);
    return ids.get(file)!;
  };
  return { pairs, removed, added, pairOf };
}
