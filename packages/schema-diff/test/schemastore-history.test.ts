import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatch } from "diff";
import { afterAll, describe, expect, it } from "vitest";
import { diffSchemas } from "@flowspec/schema-diff";
import { referenceValidator } from "../../../codegen/test/schemastore/reference.js";
import { repoRoot } from "../../../test/support.js";

/**
 * Precision on SchemaStore's history (codegen/test/fixtures/schemastore, issue 23): on a
 * representative subset of the 83 pairs, the breaking flags and how many of them `witness` shows by
 * a document. Each document is validated again with SchemaStore's own ajv set-up, so the count does
 * not rest on flowspec's validation. `node scripts/schemastore-diff.mjs` runs all 83 pairs.
 */
const fixtures = join(repoRoot, "codegen/test/fixtures/schemastore");
const manifest = JSON.parse(readFileSync(join(fixtures, "manifest.json"), "utf8")) as {
  history: { versions: Record<string, { files: Record<string, { chain: string[] }> }>; pairs: { schema: string; old: string; new: string }[] };
};
const dir = mkdtempSync(join(tmpdir(), "flowspec-schemastore-history-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A version's files, each its first text with the chain of diffs applied. */
function versionFiles(label: string): Record<string, string> {
  const files = manifest.history.versions[label]!.files;
  return Object.fromEntries(
    Object.entries(files).map(([file, { chain }]) => {
      let text = readFileSync(join(fixtures, chain[0]!), "utf8");
      for (const patch of chain.slice(1)) {
        const next = applyPatch(text, readFileSync(join(fixtures, patch), "utf8"));
        if (next === false) throw new Error(`${patch} does not apply`);
        text = next;
      }
      return [file, text];
    }),
  );
}

function materialize(at: string, files: Record<string, string>): void {
  mkdirSync(at, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(at, file), text);
}

/** SchemaStore's validator of a version (unknown keywords and formats ignored, as the diff's are). */
function reference(files: Record<string, string>, schema: string) {
  const parsed = Object.fromEntries(Object.entries(files).map(([file, text]) => [file, JSON.parse(text) as unknown]));
  const externalSchemas = Object.entries(parsed).filter(([file]) => file !== schema).map(([, json]) => json);
  return referenceValidator(parsed[schema], { strict: "off", unknownFormats: [], unknownKeywords: [], externalSchemas });
}

interface Pinned {
  /** Index in `history.pairs`. */
  pair: number;
  why: string;
  strict?: boolean;
  flags: number;
  proven: number;
}

const pinned: Pinned[] = [
  // Flagged 196 changes (98 each way) before the normal form: every one an equivalent rewrite.
  { pair: 17, why: "github-workflow: 49 events moved from $ref with siblings to allOf", flags: 0, proven: 0 },
  // Flagged 37 changes before (if/then/else rewritten, branches restating properties), none with a witness.
  { pair: 56, why: "dependabot-2.0: draft-07 migration", flags: 0, proven: 0 },
  // Refused before (draft-04). `compact` lost "auto" (its branch became `const: ["auto"]`, which no string is).
  { pair: 82, why: "babelrc: draft-04 to draft-07", flags: 6, proven: 6 },
  { pair: 30, why: "pnpm-workspace: savePrefix values", flags: 1, proven: 1 },
  // Properties of a closed step object removed with the oneOf branches that required them; two branches unproven.
  { pair: 66, why: "github-action: parallel steps removed", flags: 9, proven: 7 },
  // objectRule's `{type: [null, object, array], oneOf: [...]}` compared branch by branch with NEW's
  // (6 flags without a document before); the witnesses need a name OLD's pattern leaves free ("\n"),
  // a second item (`minItems: 2`) and a value of a type `coreRule` now refuses.
  { pair: 74, why: "stylelint: objectRule rewritten", flags: 12, proven: 12 },
];

describe("flowspec diff on SchemaStore history pairs", () => {
  it.each(pinned)("pair $pair ($why): $proven of $flags breaking flags shown by a document", ({ pair: index, strict, flags, proven }) => {
    const pair = manifest.history.pairs[index]!;
    const [oldFiles, newFiles] = [versionFiles(pair.old), versionFiles(pair.new)];
    const at = join(dir, String(index));
    materialize(join(at, "old"), oldFiles);
    materialize(join(at, "new"), newFiles);
    const { changes } = diffSchemas(join(at, "old", pair.schema), join(at, "new", pair.schema), { witness: true, strict: strict ?? false });
    const validate = { old: reference(oldFiles, pair.schema), new: reference(newFiles, pair.schema) };
    let found = 0;
    let shown = 0;
    for (const change of changes) {
      for (const direction of ["forNewReader", "forOldReader"] as const) {
        if (!change.breaking[direction]) continue;
        found++;
        const witness = change.witness?.[direction];
        if (!witness?.proven || witness.schema !== undefined) continue;
        const [accepting, rejecting] = direction === "forNewReader" ? [validate.old, validate.new] : [validate.new, validate.old];
        expect(accepting(witness.document), `${change.kind} ${change.pointerNew}: accepted by ${direction === "forNewReader" ? "OLD" : "NEW"}`).toBe(true);
        expect(rejecting(witness.document), `${change.kind} ${change.pointerNew}: rejected by ${direction === "forNewReader" ? "NEW" : "OLD"}`).toBe(false);
        shown++;
      }
    }
    expect({ flags: found, proven: shown }).toEqual({ flags, proven });
  });

  it("pair 8 (package.json sideEffects added as a boolean): a miss before, reader-breaking under strict", () => {
    const pair = manifest.history.pairs[8]!;
    const at = join(dir, "8");
    materialize(join(at, "old"), versionFiles(pair.old));
    materialize(join(at, "new"), versionFiles(pair.new));
    const sideEffects = (strict: boolean) => diffSchemas(join(at, "old", pair.schema), join(at, "new", pair.schema), { strict }).changes.find((c) => c.pointerNew === "/properties/sideEffects");
    expect(sideEffects(false)).toMatchObject({ kind: "property-added", breaking: { forNewReader: false, forOldReader: false }, onlyUnderStrict: true });
    expect(sideEffects(true)).toMatchObject({ kind: "property-added", breaking: { forNewReader: true, forOldReader: false } });
  });
});
