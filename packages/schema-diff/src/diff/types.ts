import type { Dialect, JsonObject } from "../read-schemas.js";

/**
 * Which readers a change breaks. A schema is a contract between the code that writes documents and
 * the code that reads (validates) them, so a change can break either side:
 * - `forNewReader`: documents written against OLD are rejected by code generated from NEW (NEW got
 *   stricter: a new required property, a narrowed type, a removed enum value...).
 * - `forOldReader`: documents written against NEW are rejected by code generated from OLD (NEW got
 *   looser: a widened type, an added enum value, a removed required property...).
 */
export interface Breaking {
  forNewReader: boolean;
  forOldReader: boolean;
  /**
   * Code compiled against the types generated from OLD no longer compiles against NEW's: a
   * definition or a schema file was removed, so its generated type (and its import) is gone. No
   * document's verdict changes, so this is neither reader- nor writer-breaking.
   */
  forCode: boolean;
}

/** One classified difference between two versions of a schema. */
export interface SchemaChange {
  /** What changed, e.g. `required-added`, `type-narrowed`, `enum-value-removed` (see the README's table). */
  kind: ChangeKind;
  /** The schema file in OLD (path relative to the compared folder, or the file name), "" for an in-memory schema. */
  fileOld: string;
  /** JSON Pointer in OLD of the keyword or subschema; for an addition, of the schema that gained it. */
  pointerOld: string;
  fileNew: string;
  /** JSON Pointer in NEW; for a removal, of the schema that lost it. */
  pointerNew: string;
  breaking: Breaking;
  /** One sentence for a person: what changed and whom it breaks. */
  message: string;
  /**
   * Set in the default mode on a property added to (or removed from) an object that allows
   * undeclared properties, where the property's schema restricts its value: breaking only under
   * `strict`, since documents may already carry the name with a value the schema refuses.
   */
  onlyUnderStrict?: true;
  /** With the `witness` option: for each direction the change breaks, a document that shows it, or why none was found. */
  witness?: { forNewReader?: Witness; forOldReader?: Witness };
}

/**
 * A document that shows a breaking change: for `forNewReader`, OLD accepts it and NEW rejects it,
 * at the changed place; for `forOldReader`, the reverse. `proven: false` when a bounded search found
 * none: the change is unproven, which is not the same as wrong.
 */
export type Witness =
  | {
      proven: true;
      document: unknown;
      /** Set when no path from the root reaches the change: the document is for this subschema (`file#pointer`). */
      schema?: string;
      /** JSON Pointer in the document where the rejecting side's error is. */
      at: string;
      /** That error, with the schema keyword that raised it. */
      error: string;
    }
  | { proven: false; tried: number; reason: string };

export type ChangeKind =
  | "schema-file-added"
  | "schema-file-removed"
  | "schema-tightened"
  | "schema-loosened"
  | "property-added"
  | "property-removed"
  | "required-added"
  | "required-removed"
  | "type-narrowed"
  | "type-widened"
  | "type-changed"
  | "enum-added"
  | "enum-removed"
  | "enum-value-added"
  | "enum-value-removed"
  | "const-added"
  | "const-removed"
  | "const-changed"
  | "additional-properties-tightened"
  | "additional-properties-loosened"
  | "bound-tightened"
  | "bound-loosened"
  | "bound-changed"
  | "pattern-added"
  | "pattern-removed"
  | "pattern-changed"
  | "format-added"
  | "format-removed"
  | "format-changed"
  | "ref-changed"
  | "branch-added"
  | "branch-removed"
  | "union-added"
  | "union-removed"
  | "conjunct-added"
  | "conjunct-removed"
  | "items-tightened"
  | "items-loosened"
  | "tuple-item-added"
  | "tuple-item-removed"
  | "def-added"
  | "def-removed"
  | "keyword-changed"
  | "unknown-keyword-changed"
  | "annotation-changed";

/** The kinds that remove a type of the generated code: breaking for code, never for documents. */
export const CODE_BREAKS: ReadonlySet<ChangeKind> = new Set(["def-removed", "schema-file-removed"]);

/** What `diffSchemas` compares: a schema file or folder on disk, or schemas in memory. */
export type SchemaInput =
  | string
  | JsonObject
  | {
      /** In-memory folder: relative path → schema. */
      files: Record<string, JsonObject>;
    };

export interface DiffOptions {
  /** Report title/description/default/examples/... changes too (never breaking). Default true. */
  annotations?: boolean;
  /**
   * The dialect of in-memory schemas that do not declare `$schema`. Files on disk must declare it:
   * a 2020-12 schema is never read as draft-07 silently.
   */
  dialect?: Dialect;
  /**
   * Count a property added to (or removed from) an object that allows undeclared properties as
   * breaking: documents may already carry that name with a value the new schema refuses. Default
   * false: writers generated from a schema write only the properties it declares.
   */
  strict?: boolean;
  /**
   * Look for a witness of each breaking change (`SchemaChange.witness`): `true`, or the number of
   * documents to try per change and direction (default 400).
   */
  witness?: boolean | { tries?: number };
}

export interface DiffReport {
  changes: SchemaChange[];
  summary: {
    changes: number;
    breakingForNewReader: number;
    breakingForOldReader: number;
    /** Changes that remove a generated type (`breaking.forCode`). */
    breakingForCode: number;
    /** With the `witness` option: breaking flags (a change counts once per direction it breaks) with a witness, and without. */
    proven?: number;
    unproven?: number;
  };
}

/** The effect of a change on the set of documents a schema accepts. */
export type Effect = "tighter" | "looser" | "incomparable" | "none";

export function breakingOf(effect: Effect, kind: ChangeKind): Breaking {
  return {
    forNewReader: effect === "tighter" || effect === "incomparable",
    forOldReader: effect === "looser" || effect === "incomparable",
    forCode: CODE_BREAKS.has(kind),
  };
}
